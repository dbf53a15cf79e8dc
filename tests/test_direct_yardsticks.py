"""The hand-written yardsticks in benchmarks/ play the rule files' games: Piquet
written by hand (benchmarks/piquet_direct.py) reckons and scores a hand card
for card as the interpreter does with rules/piquet/hoyle.yaml, given the same
deal and the same choices."""

import functools
import importlib.util
import random
from pathlib import Path

import pytest

from academie.dsl.model import load_game
from academie.interpreter.state import State

# the benchmark loaded from its file, the benchmarks' folder kept off sys.path (its modules'
# names, run, api, players …, would shadow others)
_spec = importlib.util.spec_from_file_location(
    "piquet_direct", Path(__file__).resolve().parent.parent / "benchmarks" / "piquet_direct.py"
)
assert _spec is not None and _spec.loader is not None
piquet_direct = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(piquet_direct)

NAMES = [r + s for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
RECKONING = ("blanche", "pt", "sq", "seqlen", "seqbig", "st", "pointv", "seqv", "setv")

# the younger (the dealer, seat 0): six hearts from the queen, three queens, knaves and tens;
# the elder: a sixieme major in spades, three aces and two kings; he lays out 7C and takes KC
REPIQUE = (
    {
        "hands": [
            ["QH", "JH", "10H", "9H", "8H", "7H", "QD", "QC", "JD", "JC", "10D", "10C"],
            ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "AD", "AC", "KH", "KD", "7C"],
        ],
        "stock": ["KC", "8S", "7S", "9D", "8D", "7D", "9C", "8C"],
    },
    ["7C", "pass", "pass"],
)
# the elder: the point (six spades), a sixieme and a tierce, three aces: 28 in hand, the
# younger nothing; he lays out 7C and takes 8C; the younger keeps his cards; the elder leads
# his aces and kings: thirty at the second card led, before the younger counts one
PIQUE = (
    {
        "hands": [
            ["8S", "7S", "JH", "10H", "9H", "8H", "7H", "KD", "QD", "JD", "10D", "9D"],
            ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH", "QH", "AD", "7D", "7C"],
        ],
        "stock": ["8C", "AC", "KC", "QC", "JC", "10C", "9C", "8D"],
    },
    ["7C", "pass", "pass", "AS", "7S", "KS", "8S"],
)
# the elder: the point (eight spades), a huitieme and a quart: thirty before the younger counts
# one, though the younger's trio of tens counts after them (a repique by the sequence)
REPIQUE_BY_SEQUENCE = (
    {
        "hands": [
            ["10H", "9H", "8H", "7H", "10D", "9D", "8D", "7D", "KC", "10C", "9C", "8C"],
            ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "AH", "KH", "QH", "7C"],
        ],
        "stock": ["JH", "AD", "KD", "QD", "JD", "AC", "QC", "JC"],
    },
    ["7C", "pass", "pass"],
)
# the elder: the point (five spades) and two quints from the knave, thirty-five; the younger,
# four aces, kings and queens, counts forty-two after them: the repique is the elder's
REPIQUE_BEFORE_QUATORZES = (
    {
        "hands": [
            [r + s for s in "SHDC" for r in ("A", "K", "Q")],
            [r + s for s in "SH" for r in ("J", "10", "9", "8", "7")] + ["JD", "7C"],
        ],
        "stock": ["10D", "9D", "8D", "7D", "JC", "10C", "9C", "8C"],
    },
    ["7C", "pass", "pass"],
)
# carte blanche for the younger (no king, queen or knave dealt), who throws out five
BLANCHE = (
    {
        "hands": [
            ["AS", "10S", "9S", "8S", "7S", "AH", "10H", "9H", "8H", "7H", "AD", "10D"],
            ["KS", "QS", "JS", "KH", "QH", "JH", "KD", "QD", "JD", "KC", "QC", "JC"],
        ],
        "stock": ["9D", "8D", "7D", "AC", "10C", "9C", "8C", "7C"],
    },
    ["KS", "QS", "pass", "10S", "9S", "8S", "7S", "AH", "pass"],
)


@functools.cache
def _game():
    return load_game("piquet/hoyle")


def interpreter_hand(deal, script, seed):
    """The rule file's hand from ``deal`` (dealer seat 0), the scripted moves
    first and random legal moves after: (the moves made, the reckoning at the
    first card, or at the end of a hand won in hand, the state at the end)."""
    st = State(_game(), 2, 0, dealer=0, deal=deal, hands=1)
    rng = random.Random(seed)
    script = list(script)
    moves, reckoning = [], None
    while not st.is_terminal():
        if reckoning is None and st.decision_kind() == "play":
            reckoning = {k: st.pvars[k][:] for k in RECKONING}
            reckoning["in_hand"] = st.pvars["tally"][:]
            reckoning["repiqued"] = st.vars["repiqued"]
        m = script.pop(0) if script else rng.choice(st.legal_moves())
        moves.append(m if isinstance(m, str) else m.name)
        st.apply(m)
    if reckoning is None:  # the game won in hand: no card played
        reckoning = {k: st.pvars[k][:] for k in RECKONING}
        reckoning["in_hand"] = st.pvars["tally"][:]
        reckoning["repiqued"] = st.vars["repiqued"]
    return moves, reckoning, st


def direct_hand(deal, moves):
    out: dict = {}
    hands = [[piquet_direct.card_of(c) for c in h] for h in deal["hands"]]
    stock = [piquet_direct.card_of(c) for c in deal["stock"]]
    tally = piquet_direct.play_hand(None, hands, stock, 0, script=iter(map(piquet_direct.card_of, moves)), out=out)
    return tally, out


def check_same(deal, script, seed):
    moves, reckoning, st = interpreter_hand(deal, script, seed)
    tally, out = direct_hand(deal, moves)
    assert {k: out[k] for k in reckoning} == reckoning
    assert tally == st.pvars["score"] == st.returns()
    assert out["piqued"] == st.vars["piqued"]
    assert out["won"] == st.won
    return out


def random_deal(seed):
    cards = NAMES[:]
    random.Random(seed).shuffle(cards)
    return {"hands": [cards[:12], cards[12:24]], "stock": cards[24:]}


@pytest.mark.parametrize("seed", range(3))
def test_a_repique_counted_alike(seed):
    out = check_same(*REPIQUE, seed)
    assert out["repiqued"] == 1 and out["in_hand"] == [0, 50 + 60]
    # 110 in hand: the game is won there, in the order of reckoning, and no card is played
    assert out["won"] == [0, 0]


def test_a_repique_by_the_sequence_counted_alike():
    out = check_same(*REPIQUE_BY_SEQUENCE, 0)
    assert out["repiqued"] == 1 and out["in_hand"] == [3, 30 + 60]


def test_a_repique_before_the_adversary_s_quatorzes_counted_alike():
    out = check_same(*REPIQUE_BEFORE_QUATORZES, 0)
    assert out["repiqued"] == 1 and out["in_hand"] == [42, 35 + 60]


def test_a_pique_counted_alike():
    out = check_same(*PIQUE, 0)
    assert out["in_hand"] == [0, 28] and out["repiqued"] == 0
    assert out["piqued"] == 2  # made at the second card led: thirty more


def test_carte_blanche_counted_alike():
    out = check_same(*BLANCHE, 0)
    assert out["blanche"] == [10, 0]


@pytest.mark.parametrize("chunk", range(5))
def test_random_deals_and_choices_counted_alike(chunk):
    # random deals, discards and play: the reckoning, the tricks and the score, hand by hand
    kinds = set()
    for seed in range(chunk * 200, chunk * 200 + 200):
        out = check_same(random_deal(seed), [], seed)
        kinds.update(k for k in ("pointv", "seqv", "setv") if any(out[k]))
    assert kinds == {"pointv", "seqv", "setv"}


@pytest.mark.parametrize("chunk", range(5))
def test_the_hand_written_random_choices_replayed_by_the_interpreter(chunk):
    # the hand-written game's own random discards and cards (the path that is timed), made
    # again in the rule file's game: each is legal there, and the counts are the same
    for seed in range(chunk * 200, chunk * 200 + 200):
        deal = random_deal(seed)
        hands = [[piquet_direct.card_of(c) for c in h] for h in deal["hands"]]
        stock = [piquet_direct.card_of(c) for c in deal["stock"]]
        out: dict = {}
        trace: list = []
        tally = piquet_direct.play_hand(random.Random(seed).random, hands, stock, 0, out=out, trace=trace)
        moves = ["pass" if c == piquet_direct.PASS else piquet_direct.card_name(c) for c in trace]
        made, reckoning, st = interpreter_hand(deal, moves, seed)
        assert made == moves
        assert {k: out[k] for k in reckoning} == reckoning
        assert tally == st.pvars["score"] and out["won"] == st.won and out["piqued"] == st.vars["piqued"]


def test_a_card_that_does_not_follow_suit_is_refused():
    deal, script = PIQUE
    moves, _, _ = interpreter_hand(deal, script, 0)
    # the elder leads a heart to the younger, who holds five and answers with a diamond
    bad = moves[:3] + ["AH", "KD"]
    with pytest.raises(ValueError, match="does not follow suit"):
        direct_hand(deal, bad)


def test_random_games_end_at_101():
    for g in range(50):
        log: list = []
        score, hands, first_dealer = piquet_direct.play_game(random.Random(g), log)
        assert max(score) >= piquet_direct.GAME and first_dealer in (0, 1) and len(log) == hands
        # the points logged by role add up to the scores (the deal passes at each hand),
        # and no score had reached 101 before the last hand
        first = [h[4] if k % 2 == 0 else h[5] for k, h in enumerate(log)]  # the first elder's
        second = [h[5] if k % 2 == 0 else h[4] for k, h in enumerate(log)]
        assert [sum(first), sum(second)] == [score[1 - first_dealer], score[first_dealer]]
        assert sum(first[:-1]) < piquet_direct.GAME and sum(second[:-1]) < piquet_direct.GAME
