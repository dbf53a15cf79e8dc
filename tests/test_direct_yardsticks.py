"""The hand-written yardsticks in benchmarks/ play the rule files' games: Piquet
written by hand (benchmarks/piquet_direct.py) reckons and scores a hand card
for card as the interpreter does with rules/piquet/hoyle.yaml, given the same
deal and the same choices; Emprunt (benchmarks/emprunt_direct.py,
rules/emprunt/lacombe.yaml) and Whist (benchmarks/whist_direct.py,
rules/whist/hoyle.yaml) and Hoc (benchmarks/hoc_direct.py,
rules/hoc/encyclopedie.yaml) given the interpreter's deals and its random agent's
choices play the same games: the same winners, plays, jetons, tricks, points
and games, hand by hand and at the end."""

import functools
import importlib.util
import random
from pathlib import Path

import pytest

from academie.dsl.model import load_game
from academie.interpreter.state import State


def _benchmark(name: str):
    """A benchmark loaded from its file, the benchmarks' folder kept off sys.path (its modules'
    names, run, api, players …, would shadow others)."""
    spec = importlib.util.spec_from_file_location(
        name, Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


piquet_direct = _benchmark("piquet_direct")
emprunt_direct = _benchmark("emprunt_direct")
whist_direct = _benchmark("whist_direct")
hoc_direct = _benchmark("hoc_direct")

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


# -- Emprunt -----------------------------------------------------------------------------------


def interpreter_emprunt(n: int, seed: int, options: tuple = ()):
    """A game of the rule file (one hand), each run begun with a card of a seeded random
    choice: (the state at the end, the cards chosen)."""
    g = load_game("emprunt/lacombe", options) if options else load_game("emprunt/lacombe")
    st = State(g, n, f"emprunt/{seed}")
    rng = random.Random(seed)
    chosen = []
    while not st.is_terminal():
        m = rng.choice(st.legal_moves())
        chosen.append(m.name)
        st.apply(m)
    return st, chosen


def direct_emprunt(st, chosen):
    """The hand-written hand from the interpreter's deal and chosen cards."""
    ev = st.events
    deal = next(e for e in ev if e["type"] == "deal")
    dealer = next(e for e in ev if e["type"] == "hand_start")["dealer"]
    hands = [[emprunt_direct.card_of(c) for c in h] for h in deal["hands"]]
    talon = [emprunt_direct.card_of(c) for c in deal["talon"]]
    script = iter(map(emprunt_direct.card_of, chosen))
    return emprunt_direct.play_hand(None, st.n, hands, talon, dealer, script=script)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_emprunt_random_deals_and_choices_played_alike(players):
    # the interpreter's deals and its random agent's choices of the card that begins each run:
    # the same winner, plays, borrows and draws, and every seat's jetons
    kinds = set()
    for seed in range(150):
        st, chosen = interpreter_emprunt(players, seed)
        winner, money, plays, borrows, draws = direct_emprunt(st, chosen)
        assert winner == st.winner == st.hand_results[0]["winner"]
        assert money == st.returns() == st.hand_results[0]["scores"]
        assert (plays, borrows, draws) == (st.plays, st.stats["borrows"], st.stats["draws"])
        assert sum(money) == 0
        kinds.update(k for k, v in (("borrow", borrows), ("draw", draws), ("runs", len(chosen) > 1)) if v)
    assert {"borrow", "draw", "runs"} <= kinds


def test_emprunt_a_hand_won_by_lending_the_last_card():
    # the lender whose hand the borrow empties wins, as in the rule file
    found = 0
    for players in (3, 4, 5, 6):
        for seed in range(150):
            st, chosen = interpreter_emprunt(players, seed)
            last = [e for e in st.events if e["type"] in ("borrow", "play")][-2:]
            if last[0]["type"] == "borrow" and last[0]["from"] == st.winner != last[1]["seat"]:
                assert direct_emprunt(st, chosen)[:2] == (st.winner, st.returns())
                found += 1
    assert found


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_emprunt_the_hand_written_random_choices_replayed_by_the_interpreter(players):
    # the hand-written game's own random choices (the path that is timed), on the
    # interpreter's deal, made again in the rule file's game: each is legal there, no other
    # choice is asked, and the hand ends alike
    g = load_game("emprunt/lacombe")
    for seed in range(100):
        st = State(g, players, f"emprunt/{seed}")
        deal = next(e for e in st.events if e["type"] == "deal")
        dealer = next(e for e in st.events if e["type"] == "hand_start")["dealer"]
        hands = [[emprunt_direct.card_of(c) for c in h] for h in deal["hands"]]
        talon = [emprunt_direct.card_of(c) for c in deal["talon"]]
        trace: list = []
        rnd = random.Random(seed).random
        winner, money, plays, borrows, draws = emprunt_direct.play_hand(rnd, players, hands, talon, dealer, trace=trace)
        for c in trace:
            st.apply(emprunt_direct.card_name(c))
        assert st.is_terminal()
        assert (winner, money, plays, borrows, draws) == (
            st.winner,
            st.returns(),
            st.plays,
            st.stats["borrows"],
            st.stats["draws"],
        )


def test_emprunt_a_card_not_in_hand_is_refused():
    st, chosen = interpreter_emprunt(4, 0)
    deal = next(e for e in st.events if e["type"] == "deal")
    leader = (next(e for e in st.events if e["type"] == "hand_start")["dealer"] + 1) % 4
    other = deal["hands"][(leader + 1) % 4][0]
    with pytest.raises(ValueError, match="is not in seat"):
        direct_emprunt(st, [other, *chosen[1:]])


def test_emprunt_random_games_settle_the_pool():
    for n in (3, 4, 5, 6):
        for g in range(50):
            winner, money, plays, _, _ = emprunt_direct.play_game(n, random.Random(g))
            assert sum(money) == 0 and money[winner] == max(money) > 0
            assert plays <= len(emprunt_direct.pack_of(n))


# -- Whist -------------------------------------------------------------------------------------


def interpreter_rubber(seed: int, options: tuple = ()):
    """A rubber of the rule file, each card of a seeded random choice: (the state at the end,
    each hand's points and games by side, tricks and honours by seat, and honours called by
    side, at its end)."""
    g = load_game("whist/hoyle", options) if options else load_game("whist/hoyle")
    ends: list = []

    def on_hand(s, end):
        if end:
            called = s.pvars["called"][:2] if "called" in s.pvars else [0, 0]
            ends.append((s.pvars["score"][:2], s.pvars["games"][:2], s.won[:], s.pvars["honours"][:], called))

    st = State(g, 4, f"whist/{seed}", on_hand=on_hand)
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_moves()))
    return st, ends


def direct_rubber(st, short: bool = False):
    """The hand-written hands from the interpreter's deals and cards played: each hand's
    (points by side, games by side, tricks by seat, honours by seat, honours called by side)
    and winner, and the standings."""
    score, games = [0, 0], [0, 0]
    hands: list = []
    plays: list = []
    out, winners = [], []
    dealer = trump = 0
    for e in st.events:
        t = e["type"]
        if t == "hand_start":
            dealer, plays = e["dealer"], []
        elif t == "deal":
            hands = [[whist_direct.card_of(c) for c in h] for h in e["hands"]]
        elif t == "turnup":
            c = whist_direct.card_of(e["card"])
            hands[dealer].append(c)  # the dealer's thirteenth
            trump = c // 13
        elif t == "play":
            plays.append(whist_direct.card_of(e["card"]))
        elif t == "hand_end":
            honours = whist_direct.honours_of(hands, trump)
            called = whist_direct.call(honours, score, short)
            if any(called):  # the hand is not played
                assert not plays
                won = [0, 0, 0, 0]
            else:
                won = whist_direct.play_hand(None, hands, trump, dealer, script=iter(plays))
            winners.append(whist_direct.score_hand(won, honours, called, score, games, dealer, short))
            out.append((score[:], games[:], won, honours, called))
    return out, winners, [games[0], games[1], games[0], games[1]]


@pytest.mark.parametrize("options", [(), ("short",)])
def test_whist_random_deals_and_cards_played_alike(options):
    # the interpreter's deals and its random agent's cards: hand by hand the tricks, the
    # honours, the honours called at eight, the points and the games, the hand's winner, and
    # the rubber's standings
    seen = set()
    for seed in range(60):
        st, ends = interpreter_rubber(seed, options)
        out, winners, standings = direct_rubber(st, bool(options))
        assert out == ends
        assert winners == [r["winner"] for r in st.hand_results]
        assert standings == st.returns()
        for (score, games, _, honours, called), before in zip(out, [([0, 0], [0, 0]), *out]):
            if games != before[1]:
                seen.add("game")
            if any(honours[s] + honours[s + 2] >= 3 for s in (0, 1)):
                seen.add("honours held")
            if any(called):
                seen.add("honours called")
    assert {"game", "honours held"} <= seen
    assert ("honours called" in seen) == (not options)


def whist_hand(events, k):
    """The ``k``-th hand's (dealer, hands with the turn-up in the dealer's, turn-up) from a log."""
    starts = [i for i, e in enumerate(events) if e["type"] == "hand_start"]
    part = events[starts[k] : starts[k + 1] if k + 1 < len(starts) else len(events)]
    dealer = part[0]["dealer"]
    hands = [[whist_direct.card_of(c) for c in h] for h in next(e for e in part if e["type"] == "deal")["hands"]]
    turnup = whist_direct.card_of(next(e for e in part if e["type"] == "turnup")["card"])
    hands[dealer].append(turnup)
    return dealer, hands, turnup


@pytest.mark.parametrize("options", [(), ("short",)])
def test_whist_the_hand_written_random_cards_replayed_by_the_interpreter(options):
    # the hand-written game's own random cards (the path that is timed), on each of the
    # interpreter's deals, played again in the rule file's rubber: each is legal there, and
    # the hands, the points, the games and the standings come out alike
    g = load_game("whist/hoyle", options) if options else load_game("whist/hoyle")
    for seed in range(30):
        ends: list = []
        st = State(
            g,
            4,
            f"whist/{seed}",
            on_hand=lambda s, end: ends.append((s.won[:], s.pvars["score"][:2], s.pvars["games"][:2])) if end else None,
        )
        rnd = random.Random(seed).random
        score, games = [0, 0], [0, 0]
        mine: list = []
        while True:
            # the hands dealt since the last played: a hand called at eight is scored, not
            # played; the hand at a decision is played by the hand-written game's random players
            for k in range(len(mine), st.hand_no):
                dealer, hands, turnup = whist_hand(st.events, k)
                trump = turnup // 13
                honours = whist_direct.honours_of(hands, trump)
                called = whist_direct.call(honours, score, bool(options))
                if any(called):
                    won = [0, 0, 0, 0]
                else:
                    assert k == st.hand_no - 1 and not st.is_terminal()
                    trace: list = []
                    won = whist_direct.play_hand(rnd, hands, trump, dealer, trace=trace)
                    for c in trace:
                        assert st.hand_no == k + 1
                        st.apply(whist_direct.card_name(c))
                whist_direct.score_hand(won, honours, called, score, games, dealer, bool(options))
                mine.append((won, score[:], games[:]))
            if st.is_terminal() and len(mine) == st.hand_no:
                break
        assert mine == ends
        assert st.returns() == [games[0], games[1], games[0], games[1]]


def test_whist_a_card_that_does_not_follow_suit_is_refused():
    st, _ = interpreter_rubber(0)
    hand = next(e for e in st.events if e["type"] == "deal")["hands"]
    dealer = next(e for e in st.events if e["type"] == "hand_start")["dealer"]
    leader, second = (dealer + 1) % 4, (dealer + 2) % 4
    lead = hand[leader][0]
    # the second player answers with a card of another suit while he holds the suit led
    follows = [c for c in hand[second] if c[-1] == lead[-1]]
    other = next(c for c in hand[second] if c[-1] != lead[-1])
    assert follows
    hands = [[whist_direct.card_of(c) for c in h] for h in hand]
    with pytest.raises(ValueError, match="does not follow suit"):
        whist_direct.play_hand(None, hands, 0, dealer, script=iter(map(whist_direct.card_of, [lead, other])))


def test_whist_random_rubbers_end_at_two_games():
    for g in range(50):
        log: list = []
        standings, hands, plays = whist_direct.play_game(random.Random(g), log=log)
        assert sorted(standings) == [0, 0, 2, 2] or sorted(standings) == [1, 1, 2, 2]
        assert len(log) == hands and max(log[-1][2]) == 2 and plays % 52 == 0 and plays <= 52 * hands


# -- Hoc ---------------------------------------------------------------------------------------


def _hoc_end(n: int, ends: list):
    """An ``on_hand`` that adds, at each hand's end, its stakes reckoned, winner, plays and
    every seat's and stake's jetons."""

    def on_hand(s, end):
        if end:
            v = s.pvars
            money = [s.bal[x]["jeton"] for x in range(n)]
            pots = [s.bal[z]["jeton"] for z in ("point", "sequence", "tricon")]
            r = s.hand_results[-1]
            ends.append(((v["pt"][:], v["sq"][:], v["nseq"][:], v["tr"][:]), r["winner"], r["plays"], money, pots))

    return on_hand


def interpreter_hoc(n: int, seed: int):
    """A game of the rule file (as many hands as players), each choice a seeded random one
    among the legal moves: (the state at the end, the cards chosen, each hand's end)."""
    ends: list = []
    st = State(load_game("hoc/encyclopedie"), n, f"hoc/{seed}", on_hand=_hoc_end(n, ends))
    rng = random.Random(seed)
    chosen = []
    while not st.is_terminal():
        m = rng.choice(st.legal_moves())
        chosen.append(m.name)
        st.apply(m)
    return st, chosen, ends


def direct_hoc(st, chosen):
    """The hand-written game from the interpreter's deals and chosen cards: each hand's end
    as ``_hoc_end`` gives it."""
    n = st.n
    money, pots = [hoc_direct.START] * n, [0, 0, 0]
    script = iter(map(hoc_direct.card_of, chosen))
    out, dealer = [], 0
    for e in st.events:
        if e["type"] == "hand_start":
            dealer = e["dealer"]
        elif e["type"] == "deal":
            hands = [[hoc_direct.card_of(c) for c in h] for h in e["hands"]]
            got: dict = {}
            hoc_direct.settle(n, dealer, hands, money, pots, got)
            winner, plays = hoc_direct.play_hand(None, n, hands, dealer, money, script=script)
            stakes = (got["pt"], got["sq"], got["nseq"], got["tr"])
            out.append((stakes, winner, plays, money[:], pots[:]))
    assert next(script, None) is None  # every choice made
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_hoc_random_deals_and_choices_played_alike(players):
    # the interpreter's deals and its random agent's choices: hand by hand the point, the
    # sequences and the tricon reckoned, the winner, the plays and every seat's and stake's
    # jetons, and the standings
    seen = set()
    for seed in range(80):
        st, chosen, ends = interpreter_hoc(players, seed)
        assert direct_hoc(st, chosen) == ends
        assert st.returns() == ends[-1][3]
        for (_, sq, _, tr), _, _, _, pots in ends:
            seen.update(k for k, v in (("no sequence", max(sq) == 0), ("no tricon", max(tr) == 0)) if v)
            seen.update(k for k, v in (("sequence left", pots[1]), ("tricon left", pots[2])) if v)
    assert {"no sequence", "no tricon", "tricon left"} <= seen


@pytest.mark.parametrize("players", [2, 3])
def test_hoc_the_hand_written_random_choices_replayed_by_the_interpreter(players):
    # the hand-written game's own random choices (the path that is timed), on each of the
    # interpreter's deals, made again in the rule file's game: each is legal there, no other
    # choice is asked, and every hand ends alike
    for seed in range(40):
        ends: list = []
        st = State(load_game("hoc/encyclopedie"), players, f"hoc/{seed}", on_hand=_hoc_end(players, ends))
        rnd = random.Random(seed).random
        money, pots = [hoc_direct.START] * players, [0, 0, 0]
        mine = []
        for k in range(players):
            deals = [e for e in st.events if e["type"] == "deal"]
            dealer = [e for e in st.events if e["type"] == "hand_start"][k]["dealer"]
            hands = [[hoc_direct.card_of(c) for c in h] for h in deals[k]["hands"]]
            got: dict = {}
            hoc_direct.settle(players, dealer, hands, money, pots, got)
            trace: list = []
            winner, plays = hoc_direct.play_hand(rnd, players, hands, dealer, money, trace=trace)
            for c in trace:
                assert st.hand_no == k + 1
                st.apply(hoc_direct.card_name(c))
            mine.append(((got["pt"], got["sq"], got["nseq"], got["tr"]), winner, plays, money[:], pots[:]))
        assert st.is_terminal()
        assert mine == ends


def test_hoc_a_card_that_may_not_follow_is_refused():
    # a card of neither the next rank nor a hoc, where one of those is held, is refused
    for seed in range(50):
        st, chosen, _ = interpreter_hoc(2, seed)
        deal = next(e for e in st.events if e["type"] == "deal")
        dealer = next(e for e in st.events if e["type"] == "hand_start")["dealer"]
        hands = [[hoc_direct.card_of(c) for c in h] for h in deal["hands"]]
        first = hoc_direct.card_of(chosen[0])
        leader = (dealer + 1) % 2
        # the leader begins with a card whose next rank the other holds twice or more, no hoc
        nxt = [c for c in hands[1 - leader] if c % 13 == first % 13 + 1]
        if first in hoc_direct.HOCS or len(nxt) < 2:
            continue
        wrong = next((c for c in hands[1 - leader] if c % 13 != first % 13 + 1 and c not in hoc_direct.HOCS), None)
        if wrong is None:
            continue
        with pytest.raises(ValueError, match="may not be played"):
            hoc_direct.play_hand(None, 2, hands, dealer, [0, 0], script=iter([first, wrong]))
        return
    raise AssertionError("no deal found to try")


def test_hoc_random_games_keep_every_jeton():
    for n in (2, 3):
        for g in range(50):
            log: list = []
            money, plays, first = hoc_direct.play_game(n, random.Random(g), log)
            assert len(log) == n and plays == sum(p for _, p in log) and first in range(n)
            # every jeton is a seat's or a stake's left for the next hand (at most two of three)
            assert sum(money) <= hoc_direct.START * n
