"""The parts of an expression that are evaluated once per card of a zone (inside
``count``/``any``/``all``/``sum_cards``/``max_cards``) keep their values per what they
read (``dsl/optimise``): the kept value is always the one
the part would give now. Checked on expressions whose zones, counters, hand values
and named cards change between calls, and on whole games of every corpus game,
option and concept file, played with the optimisations on and with every part worked
out each time (``optimise.off()``): the same games, the same event logs."""

import json
import random
from pathlib import Path

import pytest

from academie.dsl import optimise
from academie.dsl.cards import parse_card
from academie.dsl.compiler import Scope, compile_expr
from academie.dsl.errors import Pos, RuleError
from academie.dsl.loader import corpus_ids, resolve
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"
ORDER = {parse_card(r + s): i for s in "SHDC" for i, r in enumerate(["7", "8", "9", "10", "J", "Q", "K", "A"])}


def _scope():
    return Scope(zones={"trick"}, seat_zones={"hand"}, vars={"limit"}, orders={"play": ORDER})


def _both(text, kind="seat", scope=None):
    """(the expression as compiled, the same with every part worked out each time)."""
    kept = compile_expr(text, Pos("<test>", 1, 1), scope or _scope(), kind)
    with optimise.off():
        plain = compile_expr(text, Pos("<test>", 1, 1), scope or _scope(), kind)
    return kept, plain


class _St:
    """Just what the expressions below read."""

    def __init__(self, hands, trick=(), limit=0, trump=None):
        self.n = len(hands)
        self.pzones = {"hand": [[parse_card(x) for x in h.split()] for h in hands]}
        self.zones = {"trick": [parse_card(x) for x in trick]}
        self.vars = {"limit": limit}
        self.trump = trump
        self.led = self.dealer = self.leader = self.winner = self.mover = self.other = None
        self.tricks_played = self.hand_no = 0


# the longest run in the card's suit ending at the card: a count inside a sum inside a max
RUN = (
    "max_cards(hand(seat), sum_cards(hand(seat), x, x.suit == card.suit and rank(x) <= rank(card) and "
    "count(hand(seat), y, y.suit == card.suit and rank(y) >= rank(x) and rank(y) <= rank(card)) "
    "== rank(card) - rank(x) + 1))"
)


def test_a_sum_over_a_hand_follows_the_cards_of_the_hand():
    kept, plain = _both(RUN)
    hands = ["7S 8S 9S KH", "7S 9S 10S JS", "AH KH QH JH 10H", "7S 8S 9S KH"]  # the first again: kept
    for h in hands:
        st = _St([h, "8D"])
        assert kept(st, 0) == plain(st, 0)
    assert [kept(_St([h, "8D"]), 0) for h in hands] == [3, 3, 5, 3]
    st = _St(["7S 8S 9S KH", "8D"])
    st.pzones["hand"][0].append(parse_card("10S"))  # the same list, one card more
    assert kept(st, 0) == plain(st, 0) == 4


def test_each_seats_hand_is_its_own():
    kept, _ = _both(RUN)
    st = _St(["7S 8S 9S", "7D 8D 9D 10D JD"])
    assert [kept(st, 0), kept(st, 1), kept(st, 0)] == [3, 5, 3]


def test_a_part_reading_a_counter_or_trump_follows_them():
    kept, plain = _both("count(hand(seat), if card.suit == trump then rank(card) > limit else false)")
    st = _St(["7S 8S AS KH", "8D"], trump="S")
    for limit, trump in ((0, "S"), (5, "S"), (0, "H"), (5, "S"), (10, "S")):
        st.vars["limit"], st.trump = limit, trump
        assert kept(st, 0) == plain(st, 0)
    st.vars["limit"], st.trump = 5, "S"
    assert kept(st, 0) == 1  # AS (rank 7); KH is no trump


def test_a_named_card_of_an_outer_count_is_read_by_the_inner_part():
    kept, plain = _both("count(trick, x, any(hand(seat), if x.suit == card.suit then rank(card) > rank(x) else false))")
    for trick in (["9S"], ["AS"], ["9H", "7S"], ["9S"]):
        st = _St(["8S 10S KH", "7D"], trick=trick)
        assert kept(st, 0) == plain(st, 0)
    assert [kept(_St(["8S 10S KH", "7D"], trick=t), 0) for t in (["9S"], ["AS"])] == [1, 0]


def test_the_same_text_in_two_expressions_is_worked_out_by_both_alike():
    scope = _scope()
    a = compile_expr(
        "sum_cards(hand(seat), x, count(hand(seat), rank(card) > rank(x)))", Pos("<a>", 1, 1), scope, "seat"
    )
    b = compile_expr("max_cards(trick, x, count(hand(seat), rank(card) > rank(x)))", Pos("<b>", 1, 1), scope, "seat")
    st = _St(["7S 9S JS", "AD"], trick=["8H", "10H"])
    assert a(st, 0) == 0 + 1 + 2  # cards above 7S, 9S, JS
    assert b(st, 0) == 2  # above 8H: 9S, JS; above 10H: JS
    assert b(st, 1) == 1 and a(st, 1) == 0


def test_run_inside_a_sum_follows_the_hand():
    kept, plain = _both("sum_cards(hand(seat), if run(hand(seat), card) >= 3 then run(hand(seat), card) else 0)")
    hands = ["7S 8S 9S KH", "7S 9S 10S JS", "AH KH QH JH 10H", "7S 8S 9S KH"]
    for h in hands:
        st = _St([h, "8D"])
        assert kept(st, 0) == plain(st, 0)
    # 7-8-9: the run at 9S is 3; 9-10-J: 3 at JS; the five hearts: 3, 4, 5 from the ten up
    assert [kept(_St([h, "8D"]), 0) for h in hands] == [3, 3, 12, 3]
    st = _St(["7S 8S 9S KH", "8D"])
    st.pzones["hand"][0].append(parse_card("10S"))  # the same list, one card more: 3 at 9S, 4 at 10S
    assert kept(st, 0) == plain(st, 0) == 7


def test_a_seat_counter_named_like_a_function_is_not_kept_as_one():
    """A per-seat counter may be named ``max``, ``abs`` or ``run`` (a file written before the
    function was): ``run(seat)`` is then the counter, whose value changes, not a function of
    the seat alone."""
    scope = Scope(zones={"trick"}, seat_zones={"hand"}, seat_vars={"run"}, orders={"play": ORDER})
    kept, plain = _both("sum_cards(hand(seat), if run(seat) > 0 then 1 else 0)", scope=scope)
    st = _St(["7S 8S 9S", "8D"])
    st.pvars = {"run": [0, 0]}
    assert kept(st, 0) == plain(st, 0) == 0
    st.pvars["run"][0] = 2
    assert kept(st, 0) == plain(st, 0) == 3


def test_an_error_is_raised_at_every_call_not_kept():
    kept, _ = _both("sum_cards(hand(seat), x, 10 / (rank(x) - limit))")
    st = _St(["7S 8S", "8D"], limit=1)
    with pytest.raises(RuleError, match="division by zero"):
        kept(st, 0)
    with pytest.raises(RuleError, match="division by zero"):
        kept(st, 0)
    st.vars["limit"] = 5
    assert kept(st, 0) == 10 // -5 + 10 // -4


def _refs():
    files = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]
    files += [str(f) for f in sorted(CONCEPTS.glob("*.yaml")) if not resolve(str(f)).data.get("abstract")]
    for ref in files:
        yield ref, ()
        for opt in resolve(ref).data.get("options") or {}:
            yield ref, (opt,)


def _games(gd, n):
    """Two games with random players (one driven move by move, its log kept), and one
    played as simulate plays it: what each gives."""
    out = []
    for i in range(2):
        st = State(gd, n, f"tabled/{i}", max_plays=3000)
        agents = make_agents(["random"], n, f"tabled/{i}")
        while st.current_player() is not None:
            seat = st.current_player()
            st.apply(agents[seat].choose(st, seat, st.legal_moves()))
        out.append(json.dumps(st.events, sort_keys=True, default=str))
    st = State(
        gd, n, "tabled/sim", max_plays=3000, keep_events=False, check="hand", agents=make_agents(["random"], n, "s")
    )
    out.append(json.dumps([st.standings, st.hand_results, st.stats, st.bal, st.vars, st.pvars], default=str))
    return out


@pytest.mark.parametrize("ref,options", list(_refs()), ids=lambda r: Path(r).stem if ".yaml" in str(r) else str(r))
def test_games_are_the_same_with_the_values_kept_or_worked_out_each_time(ref, options):
    kept = load_game(ref, options)
    with optimise.off():
        plain = load_game(ref, options)
    n = random.Random(ref).randint(kept.min_players, kept.max_players)
    assert _games(kept, n) == _games(plain, n)


def test_a_follow_test_reading_the_trick_is_kept_per_trick_and_values():
    scope = _scope()
    e = compile_expr("all(trick, x, x.suit != led or rank(card) > rank(x))", Pos("<t>", 1, 1), scope, "card")
    assert getattr(e.filter, "kept_per", None) == "values and zones"
    hand = [parse_card(x) for x in ("8S", "JS", "AS", "9H")]
    for trick, led in ((["10S"], "S"), (["7S"], "S"), (["10S", "QS"], "S"), (["10S"], "H"), (["10S"], "S")):
        st = _St(["8D", "8C"], trick=trick)
        st.led = led
        assert e.filter(st, 0, hand) == [c for c in hand if e.fn(st, 0, c)]
    st = _St(["8D", "8C"], trick=["10S", "QS"])
    st.led = "S"
    assert e.filter(st, 0, hand) == [parse_card("AS")]
    st.zones["trick"].pop()  # the same list, a card fewer
    assert e.filter(st, 0, hand) == [parse_card("JS"), parse_card("AS")]


def test_a_follow_test_reading_the_hand_is_not_kept():
    e = compile_expr("any(hand(seat), x, rank(x) > rank(card))", Pos("<t>", 1, 1), _scope(), "card")
    assert getattr(e.filter, "kept_per", None) != "values and zones"


@pytest.mark.parametrize(
    "text,values",
    [
        ("count(trick, card.suit == H or card == AS)", [2, 1, 0, 3]),
        ("any(trick, rank(card) > 6)", [True, True, False, True]),
        ("all(trick, card.suit == H)", [False, False, True, True]),
    ],
)
def test_a_count_any_all_of_the_card_alone_follows_the_zone(text, values):
    kept, plain = _both(text)
    tricks = [["AS", "9H", "8D"], ["AS", "8C"], [], ["AH", "7H", "KH"]]
    got = []
    for t in tricks:
        st = _St(["8D", "8C"], trick=t)
        assert kept(st, 0) == plain(st, 0)
        got.append(kept(st, 0))
    assert got == values


@pytest.mark.parametrize(
    "text,values",
    [("sum_cards(trick, rank(card) + 1)", [13, 10, 0, 16]), ("max_cards(trick, rank(card))", [7, 7, 0, 7])],
)
def test_a_sum_or_max_of_the_card_alone_follows_the_zone(text, values):
    kept, plain = _both(text)
    got = []
    for t in [["AS", "9H", "8D"], ["AS", "8C"], [], ["AH", "7H", "KH"]]:
        st = _St(["8D", "8C"], trick=t)
        assert kept(st, 0) == plain(st, 0)
        got.append(kept(st, 0))
    assert got == values


def test_a_sum_over_a_hand_of_a_number_of_two_cards_follows_the_hand():
    # the points of the card's suit in the hand: each card's number looked up per card under test
    kept, plain = _both("max_cards(hand(seat), sum_cards(hand(seat), x, if x.suit == card.suit then rank(x) else 0))")
    got = []
    for h in ("7S 8S AS KH", "AH KH QH 8S", "7D", "7S 8S AS KH"):
        st = _St([h, "8D"])
        assert kept(st, 0) == plain(st, 0)
        got.append(kept(st, 0))
    assert got == [8, 18, 0, 8]


def test_a_follow_test_with_a_part_worked_out_apart_keeps_only_the_cards_that_did_not_read_it():
    # the part about the hand is worked out once per call; a card whose value read it is
    # worked out again at the next call (the hand has changed), the others are kept
    e = compile_expr(
        "if led == trump then card.suit == trump and any(hand(seat), x, x.suit == trump and rank(x) > 5) "
        "else card.suit == led",
        Pos("<t>", 1, 1),
        _scope(),
        "card",
    )
    hand_with = [parse_card(x) for x in ("8S", "AS", "9H")]
    hand_without = [parse_card(x) for x in ("8S", "9S", "9H")]
    for hand, led in ((hand_with, "S"), (hand_without, "S"), (hand_with, "H"), (hand_without, "S"), (hand_with, "S")):
        st = _St([" ".join(c.name for c in hand), "8D"])
        st.led, st.trump = led, "S"
        assert e.filter(st, 0, hand) == [c for c in hand if e.fn(st, 0, c)]
    st = _St(["8S 9S 9H", "8D"])
    st.led, st.trump = "S", "S"
    assert e.filter(st, 0, hand_without) == []  # no high trump in hand: nothing, though 8S was kept before


def _api_game(ref, plain: bool):
    from academie import api

    if plain:
        with optimise.off():
            return api.Game(load_game(ref), ref, ())
    return api.Game(load_game(ref), ref, ())


def _search_trace(game, n: int) -> list:
    """What a search sees: at a few decisions of a random game, 25 worlds drawn for the seat
    to move, each played out at random to the end of the hand; the worlds' moves and scores."""
    rng = random.Random(7)
    state = game.new_state(players=n, seed="worlds")
    out = []
    while not state.is_terminal() and len(out) < 3 * 25:
        acts = state.legal_actions()
        if len(acts) > 1 and rng.random() < 0.3:
            seat = state.current_player()
            for _ in range(25):
                world = state.resample(seat, rng)
                at = len(world.history)
                scores = world.playout(rng, 1)
                out.append((tuple(str(m) for m in world.history[:at]), tuple(scores)))
        state.apply_action(acts[int(rng.random() * len(acts))])
    return out


@pytest.mark.parametrize("ref,n", [("piquet/hoyle", 2), ("hoc/encyclopedie", 3)])
def test_a_search_sees_the_same_worlds_with_the_values_kept(ref, n):
    """The values kept per a hand's cards (a seat's point, its sequences) are met again in
    other worlds of a search where the seat holds the same hand, and in worlds whose cards
    were exchanged in place: the worlds and their playouts are those of the expressions
    worked out each time."""
    kept, plain = _search_trace(_api_game(ref, False), n), _search_trace(_api_game(ref, True), n)
    assert len(kept) == 75
    assert kept == plain
