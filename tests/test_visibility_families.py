"""What a seat sees never depends on the cards it has not seen, in the families of play added
with their own step kinds: vying (``betting``/``showdown``, table stakes), banking (``stake``,
``repeat``, ``turnup from:``), adding (``adding``/``show``), capture, draw and meld, patience.

A differential test, for the corpus games of these families and their concept files: seeded
random games on a stacked deck; at decisions of the first hand, for each seat, the cards the seat
has not seen are exchanged among their places (``test_visibility.counterfactuals``) and the same
moves made again. The two games must look the same to that seat in every way it is shown one:
its observation (the public record of the hand included, which the corpus-wide test does not
compare), its information-state string, its observation tensor, its legal moves, the narration
of the hand as the terminal tells it to that seat, and the world a search player draws for it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import academie
from academie.encoding import ObservationEncoder
from academie.narrate import Witness, narrate

from test_visibility import _names, _replay

HERE = Path(__file__).parent

GAMES = [
    "poker/nuttall",
    "brag/eb11",
    "faro/hoyle",
    "vingt-un/hoyle",
    "lansquenet/eb11",
    "cribbage/cribbage",
    "cribbage/cribbage+three_handed",  # a crib card from the pack no one sees
    "cribbage/cribbage+four_handed",
    "cribbage/cribbage+seven_card",
    "cassino/cassino",
    "conquian/conquian",
    "klondike/cadogan",
    "poker/hoffmann",
    "bezique/bezique",
    "napoleon/cadogan",
    "vingt-un/hoffmann",
    "poker/hoffmann+straddle",
    "poker/hoffmann+jack-pots",
    "poker/hoffmann+straight",
    "poker/hoffmann+mistigris",
    "poker/hoffmann+stud",
    "poker/hoffmann+table-stakes",
    "poker/hoffmann+dealer-antes",
    "poker/hoffmann+whiskey",  # the widow face up, shown to all; the hands not
    "poker/hoffmann+higher-openers",
    "poker/hoffmann+mistigris+stud",
]
CONCEPTS = [
    str(HERE / "concepts" / f"{c}.yaml")
    for c in (
        "betting",
        "betting_rounds",
        "side_pots",
        "banking",
        "drawing",
        "adding",
        "capture",
        "meld",
        "patience",
        "freecell",
        "spider",
        "klondike_openspiel",
        "declaring",
        "gin_rummy",
        "crazy_eights",
        "go_fish",
        "copies",
        "spider2",
        "rummy",
        "straddle",
        "openers",
        "lapsing",
        "wild",
    )
]


def counterfactuals(ref: str, n: int, seed: int, points: int = 5, draws: int = 2):
    """(real state, counterfactual state, seat, moves made) at decisions of the first hand of a
    seeded game on a stacked deck: in the counterfactual, the cards of the deck the seat has not
    seen (named nowhere in its observation) are exchanged among their places in the deck, at
    random, and the same moves made again (a move naming such a card renamed with it). Unlike
    ``test_visibility.counterfactuals`` it needs no deal: the cards of a stock turned up one by
    one (banking, patience) are exchanged the same way."""
    game = academie.load_game(ref)
    rng = random.Random(f"{Path(ref).name}:{n}:{seed}")  # the same draws wherever the tree is checked out
    deck = list(game.new_state(players=n, seed=seed).engine.pack_cards)
    rng.shuffle(deck)
    walk = game.new_state(players=n, seed=0, dealer=0, deck=deck)
    moves: list = []
    first: list[int] = []
    while not walk.is_terminal() and walk.hand_no == 1 and len(first) < 400:
        first.append(len(moves))
        m = rng.choice(walk.legal_moves())
        moves.append(m)
        walk.apply(m)
    for k in sorted(rng.sample(first, min(points, len(first)))):
        real = _replay(game, n, deck, moves[:k], {})
        assert real is not None
        for seat in range(n):
            known = _names(real.observation(seat), set())
            for _ in range(draws):
                sigma = _exchange(game, n, deck, known, rng)
                cf = _replay(game, n, [sigma.get(c, c) for c in deck], moves[:k], sigma)
                if cf is None or cf.hand_no != real.hand_no:
                    continue
                yield real, cf, seat, k


def _exchange(game, n: int, deck: list, known: set, rng: random.Random) -> dict:
    """An exchange of the cards of ``deck`` a seat has not seen ({card: card}), at random. With
    copies of a card (``pack: copies:``, two packs) a move names the card, not the copy, so the
    exchange is of names: a name none of whose copies the seat has seen goes, every copy of it,
    to the places of another such name of as many copies; a name of which the seat has seen a
    copy stays where its copies are (its other copy may lie hidden: which of them it saw, the
    name does not say)."""
    if not game.gamedef.copies:
        unseen = [c for c in deck if c.name not in known]
        perm = unseen[:]
        rng.shuffle(perm)
        return dict(zip(unseen, perm))
    counts = game.gamedef.pack_counts(n)
    sigma: dict = {}
    for k in sorted(set(counts.values())):
        names = [c for c in dict.fromkeys(deck) if counts[c] == k and c.name not in known]
        perm = names[:]
        rng.shuffle(perm)
        sigma.update(zip(names, perm))
    return sigma


def _told(state, seat: int) -> list[str]:
    """The hand's events as the terminal of ``academie play`` tells them to a person at ``seat``."""
    w = Witness({seat})
    hidden = set(range(state.players)) - {seat}
    out = []
    for public, _, full in state._events:
        ev = public if full is None else full
        if ev.get("type") == "score":
            continue  # told with what the seat may see of the counter (cli/play.py _score_seen)
        line = narrate(w.view(ev), you={seat}, hidden=hidden)
        if line is not None:
            out.append(repr(line.parts))
    return out


def _course(state, seat: int) -> list:
    """The kinds of the hand's events, in order: a move named alike may be another move in the
    other deal (a card chosen to lay out there, discarded here), and then the games differ by a
    seat's choice, not by what the seat was shown."""
    return [(ev["type"], ev.get("seat")) for ev in state.observation(seat)["events"]]


def _seen_by(state, seat: int, enc: ObservationEncoder) -> dict:
    obs = state.observation(seat)
    return {
        "observation": json.dumps(obs, sort_keys=True),
        "string": state.information_state_string(seat),
        "tensor": enc.encode(obs).tobytes(),
        "legal": [str(m) for m in state.legal_moves()] if state.current_player() == seat else None,
        "narration": [repr(line.parts) for ev in obs["events"] if (line := narrate(ev, you={seat}))],
        "terminal": _told(state, seat),
    }


@pytest.mark.parametrize("ref", GAMES + CONCEPTS)
def test_two_deals_alike_to_a_seat_look_alike_to_it(ref):
    game = academie.load_game(ref)
    lo, hi = game.players
    tried = 0
    for n in sorted({lo, min(hi, lo + 2)}):
        enc = ObservationEncoder(game, n)
        for seed in range(3):
            for real, cf, seat, k in counterfactuals(ref, n, seed, points=5):
                if _course(real, seat) != _course(cf, seat):
                    continue
                tried += 1
                a, b = _seen_by(real, seat, enc), _seen_by(cf, seat, enc)
                for what in a:
                    if a[what] != b[what]:
                        if what in ("observation", "string"):
                            x, y = json.loads(a[what]), json.loads(b[what])
                            diff = {key: (x[key], y.get(key)) for key in x if x[key] != y.get(key)}
                        else:
                            diff = (a[what], b[what])
                        pytest.fail(f"{ref}, {n} players, seed {seed}, after {k} moves, seat {seat}: {what} {diff}")
    assert tried


@pytest.mark.parametrize("ref", GAMES + CONCEPTS)
def test_a_world_drawn_for_a_seat_looks_to_it_as_the_real_game(ref):
    game = academie.load_game(ref)
    lo, hi = game.players
    tried = 0
    for n in sorted({lo, min(hi, lo + 2)}):
        enc = ObservationEncoder(game, n)
        for seed in range(2):
            rng = random.Random(seed)
            st = game.new_state(players=n, seed=seed)
            steps = 0
            while not st.is_terminal() and st.hand_no == 1 and steps < 120:
                if steps % 3 == 0:
                    for seat in range(n):
                        world = st.resample(seat, rng)
                        if getattr(world, "fallback", False):
                            continue  # no world drawn replays the hand as seen: one near it, said so (docs/players.md)
                        tried += 1
                        a, b = _seen_by(st, seat, enc), _seen_by(world, seat, enc)
                        for what in ("observation", "string", "tensor", "legal"):
                            assert a[what] == b[what], (ref, n, seed, steps, seat, what)
                st.apply(rng.choice(st.legal_moves()))
                steps += 1
    assert tried


def _knock_file(tmp_path: Path) -> str:
    """The draw-and-meld concept with a knock that reads the hand (an ace in it)."""
    text = (HERE / "concepts" / "meld.yaml").read_text()
    assert "    drawn: hand\n" in text
    text = text.replace("    drawn: hand\n", '    drawn: hand\n    knock: "any(hand(seat), card.rank == A)"\n', 1)
    path = tmp_path / "knock.yaml"
    path.write_text(text)
    return str(path)


def test_a_seat_asked_whether_to_knock_tells_the_others_nothing_of_its_hand(tmp_path):
    """The question "knock?" is put after every discard, whatever the hand: asked only when the
    hand allowed a knock, the seat to move told every other seat that it held an ace."""
    ref = _knock_file(tmp_path)
    game = academie.load_game(ref)
    enc = ObservationEncoder(game, 2)
    tried = 0
    for seed in range(4):
        for real, cf, seat, k in counterfactuals(ref, 2, seed, points=30):
            if _course(real, seat) != _course(cf, seat):
                continue
            tried += 1
            a, b = _seen_by(real, seat, enc), _seen_by(cf, seat, enc)
            for what in a:
                assert a[what] == b[what], (seed, k, seat, what, a[what], b[what])
    assert tried


# -- Conquian: the question put after a card is turned up, whatever the hand -------------------
def _conquian_deal(hands: list[list[str]], bottom: list[str], top: list[str]) -> dict:
    """A Conquian deal (seat 0 deals, seat 1 plays first): the hands, the stock with ``bottom``
    its lowest cards and ``top`` its top ones (the last turned up first), the rest between."""
    names = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    given = {x for h in hands for x in h} | set(bottom) | set(top)
    return {"hands": hands, "stock": bottom + [x for x in names if x not in given] + top}


# seat 0 holds nothing that lays out with the nine of clubs; seat 1 plays first and turns it up
_SEAT0 = ["2S", "4S", "6S", "8S", "2H", "4H", "6H", "8H", "6C", "4C"]
_SEAT1 = ["AS", "3S", "5S", "AH", "3H", "5H", "2D", "4D"]


@pytest.mark.parametrize(
    "seat, pair",
    [
        # seat 1 turns up the nine of clubs: with the seven and eight of clubs it may lay it out
        # (it declines), with the six of diamonds and ten of spades (at the stock's foot in the
        # other deal) it cannot; seat 0 watches
        (1, ([_SEAT0, ["7C", "8C", *_SEAT1]], ["6D", "10S"])),
        # seat 1 refuses it (nothing of its hand lays it out); seat 0 may take it (the seven and
        # eight of clubs) or cannot (the six of diamonds and ten of spades): it draws; seat 1 watches
        (0, ([["7C", "8C", *_SEAT0[2:]], ["2S", "4S", *_SEAT1]], ["6D", "10S"])),
    ],
    ids=["lay-out-or-not", "take-or-not"],
)
def test_conquian_a_seat_asked_what_lays_out_with_the_card_turned_tells_the_other_nothing(seat, pair):
    """foster-cooncan-1913-two: "If a player touches the top card of the pack he cannot change his
    mind and use the card faced on the stock." and "All cards drawn from the pack must be turned
    face up immediately": after a card is turned up (or faced on the stock), the seat is asked what
    it lays out with it (or whether it takes it) whatever its hand. Two deals that differ only by
    cards the other seat has not seen, one where the seat may lay out (or take) the card and
    declines, one where it cannot: the same moves look the same to the other seat at every
    decision. Asked only when its hand could use the card, the seat to move (the observation's
    ``current_player``, and the events that follow at once when it is not asked) told the other
    that it held cards that go with it."""
    hands, others = pair
    held = ["7C", "8C"]
    assert set(held) <= set(hands[seat])
    swapped = [[others[held.index(x)] if x in held else x for x in h] for h in hands]
    game = academie.load_game("conquian/conquian")
    enc = ObservationEncoder(game, 2)

    def deals():
        return (
            game.new_state(players=2, dealer=0, deal=_conquian_deal(hands, others, ["10H", "9C"])),
            game.new_state(players=2, dealer=0, deal=_conquian_deal(swapped, held, ["10H", "9C"])),
        )

    watcher, hidden = 1 - seat, set(held) | set(others)
    can, cannot = deals()
    assert not hidden & _names(can.observation(watcher), set())  # the two deals alike to the watcher
    compared, asked = 0, None
    while not can.is_terminal():
        a, b = _seen_by(can, watcher, enc), _seen_by(cannot, watcher, enc)
        if hidden & _names(json.loads(a["observation"]), set()):
            break  # a card exchanged is turned up from the stock's foot: the deals now differ to it
        for what in a:
            if a[what] != b[what] and what in ("observation", "string"):
                x, y = json.loads(a[what]), json.loads(b[what])
                diff = {k: (x[k], y.get(k)) for k in x if x[k] != y.get(k)}
                pytest.fail(f"after {compared} moves, {what}: {diff}")
            assert a[what] == b[what], (compared, what)
        if asked is None and can.current_player() == seat:
            asked = [str(m) for m in can.legal_moves()], [str(m) for m in cannot.legal_moves()]
        compared += 1
        # the seat declines, and the play goes on, every seat passing or turning up the next card
        move = "pass" if "pass" in can.legal_moves() else "draw"
        can.apply(move)
        cannot.apply(move)
    # the seat's own choice differed: it might lay out (or take) the nine of clubs in one deal only
    assert asked is not None and ("7C" in asked[0] or "take" in asked[0])
    assert "7C" not in asked[1] and "take" not in asked[1]
    assert compared > 30


# -- Gin (the knock): the questions after a knock, and at the stock's last cards, whatever the hand --
_GIN = str(HERE / "concepts" / "gin_rummy.yaml")
_GIN_NAMES = [r + s for s in "SCDH" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def _gin_deal(hands: list[list[str]], bottom: list[str], top: list[str]) -> dict:
    """A deal of the gin concept (seat 1 deals, seat 0 plays first): the hands, the upcard (the
    queen of hearts), the stock with ``bottom`` its lowest cards and ``top`` its top ones (the
    last drawn first), the rest between."""
    given = {x for h in hands for x in h} | set(bottom) | set(top) | {"QH"}
    return {"hands": hands, "stock": ["QH", *bottom, *(x for x in _GIN_NAMES if x not in given), *top]}


def _gin_wall() -> tuple:
    """Seat 1 holds three melds and a nine (it can knock with any card faced) or two cards the
    less (it cannot); both refuse the upcard, then each draws and discards the card drawn, until
    two cards are left in the stock: seat 1 is at the stock's last cards."""
    can = ["5S", "6S", "7S", "JH", "JD", "JC", "2C", "3C", "4C", "9D"]
    h0 = ["KS", "KH", "QS", "QD", "8C", "8H", "10C", "10D", "4H", "6D"]
    deal = _gin_deal([h0, can], ["KD", "8D"], [])
    drawn = deal["stock"][::-1][:29]
    moves = ["pass", "pass", drawn[0]] + [m for c in drawn[1:] for m in ("draw", c)] + ["pass"]
    return 1, [h0, can], ["JC", "4C"], ["KD", "8D"], [], moves


# the knocker, seat 0: the five, six and seven of spades, three jacks, and loose cards; it draws
# the nine of diamonds and knocks
_KNOCKER = ["5S", "6S", "7S", "JH", "JD", "JC", "AC", "2C", "3H"]
_OTHER = ["KS", "KH", "QS", "QD", "8C", "10C", "10D", "4H", "6D"]
_LAY_DOWN = ["pass", "pass", "knock", "9D", "5S", "6S", "7S", "meld", "JC", "JD", "JH", "meld", "pass"]

_GIN_CASES = {
    # at the stock's last cards seat 1 may knock with the card faced, or cannot: it passes
    "wall-knock-or-not": _gin_wall,
    # after the knock two cards keep seat 0 within the limit (with the three of clubs, a run of
    # clubs: the nine or the three of hearts), or one does (with the three of diamonds: the nine)
    "knock-discard-one-or-two": lambda: (
        0,
        [[*_KNOCKER, "3C"], [*_OTHER, "8D"]],
        ["3C"],
        ["3D"],
        ["9D"],
        [*_LAY_DOWN, "pass", "pass"],
    ),
    # laying down the five, six, seven of spades: with the four of spades the seven is one card of
    # two (the run may start at the four), without it the only one; "meld" then alone or not
    "lay-down-forced-or-not": lambda: (
        0,
        [[*_KNOCKER, "4S"], [*_OTHER, "8D"]],
        ["4S"],
        ["4D"],
        ["9D"],
        [*_LAY_DOWN, "pass", "pass"],
    ),
    # seat 1 lays off after the knock: the eight of spades goes on the run laid down, the eight
    # of diamonds on nothing; it passes
    "lay-off-or-not": lambda: (
        1,
        [[*_KNOCKER, "4D"], [*_OTHER, "8S"]],
        ["8S"],
        ["8D"],
        ["9D"],
        [*_LAY_DOWN, "pass", "pass"],
    ),
}


def _watched_alike(enc, choice, none, seat: int, hidden: set, moves: list, *, to_end: bool) -> None:
    """``moves`` played in two deals that differ only by the cards ``hidden`` from the other seat
    (the watcher), ``seat`` with a choice in ``choice`` and none in ``none``: at every decision, and
    after the last move, the watcher sees the same in both, none of ``hidden`` among it; the seat had
    a choice in one deal only, at one of its decisions. ``to_end``: the moves end the hand (else the
    watcher is to move after them)."""
    watcher = 1 - seat
    asked: list = []
    for k, move in enumerate(moves):
        a, b = _seen_by(choice, watcher, enc), _seen_by(none, watcher, enc)
        assert not hidden & _names(json.loads(a["observation"]), set())  # the cards exchanged unseen
        for what in a:
            if a[what] != b[what] and what in ("observation", "string"):
                x, y = json.loads(a[what]), json.loads(b[what])
                diff = {key: (x[key], y.get(key)) for key in x if x[key] != y.get(key)}
                pytest.fail(f"after {k} moves, {what}: {diff}")
            assert a[what] == b[what], (k, what)
        assert not choice.is_terminal()
        if choice.current_player() == seat:
            asked.append(([str(m) for m in choice.legal_moves()], [str(m) for m in none.legal_moves()]))
        choice.apply(move)
        none.apply(move)
    if to_end:
        assert choice.is_terminal() and none.is_terminal()
    assert _seen_by(choice, watcher, enc) == _seen_by(none, watcher, enc)
    if not to_end:
        assert choice.current_player() == none.current_player() == watcher
    assert any(len(x) > 1 and len(y) == 1 for x, y in asked), asked


@pytest.mark.parametrize("case", list(_GIN_CASES))
def test_gin_a_seat_asked_after_a_knock_tells_the_other_nothing(case):
    """A knock's questions are put whatever the hand (docs/language.md, ``kind: draw_meld``): at
    the stock's last cards "knock or pass" (``pass`` alone when the hand cannot knock), the discard
    after a knock (one card alone kept within the limit), each card and ``meld`` of a meld laid
    down (the one that completes it too), and the laying off (``pass`` alone). Two deals that differ
    only by cards the other seat has not seen, one where the seat has a choice and one where it has
    none: the same moves look the same to the other seat at every decision, its end included.
    Asked only when its hand left it a choice, the seat told the other (the observation's
    ``current_player``, the events that followed at once) what its hand held."""
    seat, hands, held, others, top, moves = _GIN_CASES[case]()
    assert set(held) <= set(hands[seat])
    swapped = [[others[held.index(x)] if x in held else x for x in h] for h in hands]
    game = academie.load_game(_GIN)
    enc = ObservationEncoder(game, 2)
    choice = game.new_state(players=2, dealer=1, deal=_gin_deal(hands, others, top))
    none = game.new_state(players=2, dealer=1, deal=_gin_deal(swapped, held, top))
    _watched_alike(enc, choice, none, seat, set(held) | set(others), moves, to_end=True)


# -- Rummy (laying out in the turn): every move asked once a card is chosen, whatever the hand --
_RUMMY = str(HERE / "concepts" / "rummy.yaml")


def _rummy_deal(hands: list[list[str]], bottom: list[str], top: list[str]) -> dict:
    """A deal of the rummy concept (seat 1 deals, seat 0 plays first): the hands, the upcard (the
    nine of hearts), the stock with ``bottom`` its lowest cards and ``top`` its top ones (the
    last drawn first), the rest between."""
    given = {x for h in hands for x in h} | set(bottom) | set(top) | {"9H"}
    return {"hands": hands, "stock": ["9H", *bottom, *(x for x in _GIN_NAMES if x not in given), *top]}


# seat 0 lays down the five, six, seven of spades; seat 1 then lays off the eight of spades on it
_LAYER = ["5S", "6S", "7S", "KD", "KC", "2H", "9D", "JC", "4C"]
_RUN = ["draw", "5S", "6S", "7S", "meld", "pass", "AD"]

_RUMMY_CASES = {
    # the five and six of spades chosen: with the eight of spades the seven is one card of two
    # (the run may go on to the eight), without it the only one; "meld" then alone or not
    "run-forced-or-not": lambda: (
        0,
        [[*_LAYER, "8S"], ["3D", "3C", "3H", "10D", "JD", "AC", "6C", "7H", "2D", "KH"]],
        ["8S"],
        ["QH"],
        ["4H", "AD"],
        _RUN,
    ),
    # seat 1 chooses the eight of spades: with the eights of hearts and diamonds it may make a set
    # of them or lay it off on seat 0's run, without them it may only lay it off (seat 0, with the
    # four of spades, has a choice at each card of its run in both deals)
    "lay-off-or-meld": lambda: (
        1,
        [[*_LAYER, "4S"], ["8S", "8H", "8D", "3D", "3C", "10D", "JD", "AC", "6C", "2D"]],
        ["8H", "8D"],
        ["KH", "QC"],
        ["4H", "AD"],
        [*_RUN, "draw", "8S", "lay_off", "pass", "4H"],
    ),
}


@pytest.mark.parametrize("case", list(_RUMMY_CASES))
def test_rummy_a_seat_asked_what_it_lays_out_in_its_turn_tells_the_other_nothing(case):
    """The laying out in the turn (docs/language.md, "Laying off in the turn") asks every move once
    a card is chosen, the one left too: the card that completes a run, ``meld``, ``lay_off``. Two
    deals that differ only by cards the other seat has not seen, one where the seat has a choice
    and one where it has none: the same moves look the same to the other seat at every decision.
    Made at once when it was the one move left, the meld or lay-off (its event, and the seat held
    at its question or not) told the other that the hand held no card that would have gone on."""
    seat, hands, held, others, top, moves = _RUMMY_CASES[case]()
    assert set(held) <= set(hands[seat])
    swapped = [[others[held.index(x)] if x in held else x for x in h] for h in hands]
    game = academie.load_game(_RUMMY)
    enc = ObservationEncoder(game, 2)
    choice = game.new_state(players=2, dealer=1, deal=_rummy_deal(hands, others, top))
    none = game.new_state(players=2, dealer=1, deal=_rummy_deal(swapped, held, top))
    _watched_alike(enc, choice, none, seat, set(held) | set(others), moves, to_end=False)
