"""dsl/compiler.py: what each construct of the expression language compiles to and evaluates
to, on a small stand-in for the game state, and where and how a mistake is reported."""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from academie.dsl.cards import card
from academie.dsl.compiler import FUNCTIONS, Expr, Scope, compile_expr
from academie.dsl.errors import Pos, RuleError
from academie.dsl.loader import Limits

AT = Pos("game.yaml", 10, 5)
PLAY = {
    card(r + s): i
    for s in "SHDC"
    for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
}
SCOPE = Scope(
    zones={"stock", "trick"},
    seat_zones={"hand", "tricks"},
    vars={"round"},
    seat_vars={"points"},
    pools={"pot"},
    currencies={"chip"},
    orders={"play": PLAY},
    declarations={"slam"},
)


def cards(*names):
    return [card(n) for n in names]


def state(**kw):
    """The attributes of the state that compiled expressions read (compiler.StateView)."""
    st = SimpleNamespace(
        n=4,
        dealer=3,
        leader=0,
        led="H",
        trump="S",
        winner=None,
        hand_no=1,
        tricks_played=0,
        zones={"stock": cards("2C", "3C"), "trick": []},
        pzones={"hand": [cards("AH", "10H", "2S"), cards("KD"), [], cards("QC", "JC")], "tricks": [[], [], [], []]},
        vars={"round": 2},
        pvars={"points": [5, 9, 9, 1]},
        bal={0: {"chip": 4}, 1: {"chip": 0}, 2: {"chip": 7}, 3: {"chip": 1}, "pot": {"chip": 12}},
        won=[1, 0, 2, 0],
        declared={},
        mover=None,
        other=None,
    )
    st.__dict__.update(kw)
    return st


def ev(text, kind="game", st=None, seat=None, c=None):
    e = compile_expr(text, AT, SCOPE, kind)
    return e(st if st is not None else state(), seat, c)


def error(text, kind="game"):
    with pytest.raises(RuleError) as e:
        compile_expr(text, AT, SCOPE, kind)
    (d,) = e.value.diagnostics
    return d


# -- values and their kinds ---------------------------------------------------


@pytest.mark.parametrize(
    "text,kind,value",
    [
        ("12", "num", 12),
        ("2 + 3 * 4", "num", 14),
        ("(2 + 3) * 4", "num", 20),
        ("7 / 2", "num", 3),  # integer division: chips and points are whole
        ("7 % 4", "num", 3),
        ("-round", "num", -2),
        ("1 - 2 - 3", "num", -4),  # left-associative
        ("players", "num", 4),
        ("dealer", "seat", 3),
        ("dealer + 1", "seat", 0),  # seats wrap round the table
        ("dealer + 6", "seat", 1),
        ("leader - 1", "seat", 3),
        ("leader - dealer", "num", 1),  # the distance in play order
        ("1 + dealer", "seat", 0),  # an offset added to a seat, either way round
        ("index(dealer)", "num", 3),  # a seat's place at the table, as a number
        ("index(dealer + 1) % 2", "num", 0),
        ("points(index(dealer))", "num", 1),  # a number names a seat
        ("led", "suit", "H"),
        ("trump == S", "bool", True),
        ("true and not false", "bool", True),
        ("if round > 1 then 10 else 20", "num", 10),
        ("count(stock)", "num", 2),
        ("count(hand(leader))", "num", 3),
        ("points(dealer + 2) + points(dealer)", "num", 10),
        ("balance(pot, chip) - balance(dealer + 3, chip)", "num", 5),
        ("tricks_won(dealer - 1)", "num", 2),
        ("min(3, round, 9)", "num", 2),
        ("max(3, round, 9)", "num", 9),
        ("abs(1 - round * 3)", "num", 5),
        ("sum_seats(points(seat))", "num", 24),
        ("count_seats(points(seat) > 4)", "num", 3),
        ("max_seats(points(seat))", "num", 9),
        ("min_seats(points(seat))", "num", 1),
        ("rank(AS, play) > rank(KS, play)", "bool", True),
        ("rank(AS)", "num", 12),  # the one order, when the game has one
        ("run(hand(dealer), QC)", "num", 2),  # the queen and the knave of clubs
        ("run(hand(dealer), JC)", "num", 1),  # nothing below the knave
        ("run(hand(dealer), KC)", "num", 0),  # a card not held
        ("run(hand(leader), AH, play)", "num", 1),  # the king is missing
        ("holder(KD)", "seat", 1),
        ("holder(5D)", "seat", None),
        ("any(hand(dealer), card.suit == C)", "bool", True),
        ('all(hand(leader), card.colour == "red")', "bool", False),
        ("count(hand(leader), card.suit == led)", "num", 2),
        ("declared(slam)", "bool", False),
        ("[A, K]", "list:rank", frozenset({"A", "K"})),
        ("[S, H]", "list:suit", frozenset({"S", "H"})),
    ],
)
def test_an_expression_evaluates_to_its_value_and_has_its_kind(text, kind, value):
    e = compile_expr(text, AT, SCOPE)
    assert isinstance(e, Expr) and e.text == text and e.pos == AT
    assert e.kind == kind
    assert e(state()) == value


def test_top_seat_breaks_ties_in_play_order_from_the_seat_after_the_dealer():
    # seats 1 and 2 both have 9 points; the dealer is 3, so seat 0, then 1, then 2 are asked
    assert ev("top_seat(points(seat))") == 1
    assert ev("top_seat(points(seat))", st=state(dealer=1)) == 2


def test_declared_and_declarer_read_the_announcements_of_the_hand():
    st = state(declared={"slam": 2})
    assert ev("declared(slam)", st=st) is True and ev("declarer(slam)", st=st) == 2
    assert ev("declarer(slam)") is None


def test_a_seat_expression_binds_seat():
    assert [ev("points(seat) * 2", "seat", seat=s) for s in range(4)] == [10, 18, 18, 2]
    assert ev("seat == dealer + 1", "seat", seat=0) is True


def test_a_card_test_binds_card_and_filters_a_whole_hand():
    e = compile_expr("card.suit == led or card.rank in [A, K]", AT, SCOPE, "card")
    assert e.kind == "bool"
    hand = cards("AH", "10H", "2S", "KD", "QC")
    assert e.filter(state(), 0, hand) == cards("AH", "10H", "KD")
    assert [c for c in hand if e(state(), 0, c)] == e.filter(state(), 0, hand)


def test_a_number_compared_with_a_rank_is_a_rank_name():
    e = compile_expr("card.rank == 10", AT, SCOPE, "card")
    assert e(state(), 0, card("10H")) is True and e(state(), 0, card("AH")) is False
    assert ev("card.rank not in [10, J]", "card", seat=0, c=card("QH")) is True


def test_count_of_a_seat_zone_equal_to_zero_tests_emptiness():
    e = compile_expr("count(hand(seat)) == 0", AT, SCOPE, "seat")
    assert [e(state(), s) for s in range(4)] == [False, False, True, False]
    e = compile_expr("count(stock) != 2", AT, SCOPE)
    assert e(state()) is False and e(state(zones={"stock": [], "trick": []})) is True


def test_names_read_by_an_expression_are_listed():
    e = compile_expr("count(hand(seat)) + points(seat) > round", AT, SCOPE, "seat")
    assert {"count", "hand", "seat", "points", "round"} <= e.names


def test_a_long_chain_evaluates_like_a_short_one():
    text = " + ".join(str(i) for i in range(1, 31)) + " - round"
    assert ev(text) == sum(range(1, 31)) - 2


# -- mistakes: the message, and the place in the file ------------------------


def test_an_unknown_name_is_located_at_the_name_and_a_near_name_is_suggested():
    d = error("1 + pionts(seat)", "seat")
    assert "unknown function 'pionts'" in d.message and "did you mean 'points'?" in d.message
    assert (d.pos.file, d.pos.line, d.pos.col) == ("game.yaml", 10, 9)  # column 5 + the offset 4
    d = error("rounds + 1")
    assert "unknown name 'rounds'" in d.message and "did you mean 'round'?" in d.message
    assert d.pos == AT


@pytest.mark.parametrize(
    "text,kind,message",
    [
        ("seat + 1", "game", "'seat' is not defined here: it can only be used in an expression about a seat"),
        ("card.suit == H", "seat", "'card' is not defined here: it can only be used in a card test"),
        ("points + 1", "game", "'points' belongs to each seat: write points(seat) or points(SEAT)"),
        ("pot or 10", "game", "'and', 'or' join truth values"),
        ("card.rank < 10", "card", "ranks and suits have no order of their own"),
        ("card > KS", "card", "a card has no order of its own"),
        ("card == 3", "card", "is compared with a number, which it can never equal"),
        ("card.face", "card", "a card has no field 'face'"),
        ("dealer + dealer", "game", "two seats cannot be added"),
        ("1 - dealer", "game", "a seat cannot be taken from a number"),
        ("round / 0", "game", "division by zero: '/' by 0"),
        ("if round > 1 then dealer else trump", "game", "the two branches give a seat and a suit"),
        ("abs(1, 2)", "game", "abs() takes 1 argument, not 2"),
        ("rank(AS, cut)", "game", "expected the name of an order here (one of: play)"),
        ("run(AS, AS)", "game", "expected a zone (of cards) here, found a card"),
        ("run(hand(leader), 3)", "game", "expected a card here, found a number"),
        ("run(hand(leader), AS, cut)", "game", "expected the name of an order here (one of: play)"),
        ("points(AS)", "game", "expected a seat or a number here, found a card"),  # points(0) is a literal seat
        ("3 in round", "game", "'in' needs a zone or a list"),
        ("card.rank in [A, K, 3 + 1]", "card", "a list of ranks must hold ranks only"),
        # a seat is not a number: index(SEAT) is its place at the table
        ("dealer % 2", "game", "'%' works on numbers, and a seat is not one: write index(SEAT)"),
        ("2 * leader", "game", "'*' works on numbers, and a seat is not one"),
        ("dealer / 2", "game", "'/' works on numbers, and a seat is not one"),
        ("max(dealer, 1)", "game", "expected a number or a truth value here, found a seat"),
        ("sum_seats(seat)", "game", "expected a number or a truth value here, found a seat"),
        ("top_seat(seat + 1)", "game", "expected a number or a truth value here, found a seat"),
        ("sum_cards(stock, dealer)", "game", "expected a number or a truth value here, found a seat"),
        ("if round > 1 then dealer else 0", "game", "the two branches give a seat and a number"),
        ("index(3)", "game", "expected a seat here, found a number"),
        # a condition is a truth value
        ("not dealer", "game", "'not' takes a truth value (comparisons, tests), not a seat"),
        ("not round", "game", "'not' takes a truth value (comparisons, tests), not a number"),
        ("if round then 1 else 2", "game", "'if' tests a truth value (comparisons, tests), not a number"),
        ("if round > 1 then true else 0", "game", "the two branches give a truth value and a number"),
        ("count(stock, 1)", "game", "expected a truth value here, found a number"),
        ("any(stock, x, x.rank)", "game", "expected a truth value here, found a rank"),
        ("count_seats(points(seat))", "game", "expected a truth value here, found a number"),
    ],
)
def test_a_mistake_is_a_located_error_that_says_what_is_wrong(text, kind, message):
    d = error(text, kind)
    assert message in d.message, d.message
    assert d.pos.file == "game.yaml" and d.pos.line == 10 and d.pos.col >= 5
    assert d.code in ("expression", "syntax")


@pytest.mark.parametrize(
    "text,message",
    [
        ("1 +", "expression ends too early"),
        ("round ) 2", "unexpected ')'"),
        ("round $ 2", "unexpected character '$'"),
    ],
)
def test_a_syntax_error_is_located_in_the_expression(text, message):
    d = error(text)
    assert message in d.message and d.code == "syntax"
    assert d.pos.line == 10 and 5 <= d.pos.col <= 5 + len(text)


def test_without_a_play_order_rank_and_run_ask_for_an_order():
    two = Scope(seat_zones={"hand"}, orders={"sequence": PLAY, "cut": PLAY})
    for text, message in (
        ("rank(AS)", "rank(card) needs the name of an order: rank(card, ORDER)"),
        ("run(hand(0), AS)", "run(ZONE, card) needs the name of an order: run(ZONE, card, ORDER)"),
    ):
        with pytest.raises(RuleError) as e:
            compile_expr(text, AT, two)
        assert message in e.value.diagnostics[0].message


def test_a_divisor_that_is_zero_in_play_is_a_located_runtime_error():
    e = compile_expr("round / count(stock)", AT, SCOPE)
    assert e(state()) == 1
    with pytest.raises(RuleError) as err:
        e(state(zones={"stock": [], "trick": []}))
    (d,) = err.value.diagnostics
    assert d.code == "runtime" and "division by zero: the divisor 'count(stock)' is 0 here" in d.message
    assert d.pos == Pos("game.yaml", 10, 13)  # at the divisor


def test_index_of_a_seat_that_is_none_is_a_located_runtime_error():
    e = compile_expr("index(declarer(slam))", AT, SCOPE)
    assert e(state(declared={"slam": 2})) == 2
    with pytest.raises(RuleError) as err:
        e(state())
    (d,) = err.value.diagnostics
    assert d.code == "runtime" and "'declarer(slam)' names no seat here (it is None)" in d.message
    assert d.pos == Pos("game.yaml", 10, 11)  # at the argument


def test_the_limits_bound_an_expression_before_it_is_parsed():
    with pytest.raises(RuleError) as e:
        compile_expr("1 + " * 50 + "1", AT, SCOPE, limits=Limits(expr_length=40))
    assert e.value.diagnostics[0].code == "limit"


def test_every_function_is_in_the_language_reference():
    """A function the compiler knows and docs/language.md does not list is one a user cannot find."""
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    table = doc.split("**Functions**", 1)[1].split("\n\n", 2)[1]
    listed = set(re.findall(r"`([a-z_]+)\(", table))
    assert set(FUNCTIONS) <= listed, sorted(set(FUNCTIONS) - listed)
