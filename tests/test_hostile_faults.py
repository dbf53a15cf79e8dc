"""No input reaches the catch-all ("internal error", exit 3): every argument
is checked by the command line, every run-time fault of a rule file is a
located rule error, and model checks that used to pass silently are errors."""

import io
import json
import re
from pathlib import Path

import pytest

from academie.dsl.errors import RuleError
from academie.cli.play import TerminalHuman

BROKEN = Path(__file__).parent / "broken"


def _clean(code, out, err):
    text = out + err
    assert "internal error" not in text, text
    assert "Traceback" not in text, text
    return text


# -- arguments ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "args,phrase",
    [
        (("play", "enfle/academie", "--max-plays", "-1"), "--max-plays"),
        (("play", "enfle/academie", "--max-plays", "0"), "--max-plays"),
        (("play", "enfle/academie", "--hands", "-1"), "--hands"),
        (("play", "enfle/academie", "--hands", "0"), "--hands"),
        (("play", "enfle/academie", "-p", "0"), "--players"),
        (("play", "enfle/academie", "-p", "-4"), "--players"),
        (("play", "enfle/academie", "-p", "4", "--dealer", "4"), "4 is not a seat: for 4 players the seats are 0 to 3"),
        (("play", "enfle/academie", "-p", "4", "--dealer", "-1"), "--dealer"),
        (("simulate", "enfle/academie", "-n", "1", "--max-plays", "-1"), "--max-plays"),
        (("simulate", "enfle/academie", "-n", "1", "-p", "0"), "--players"),
        (("compare", "enfle/academie", "enfle/foster", "-n", "1", "-p", "0"), "--players"),
        (("compare", "enfle/academie", "enfle/foster", "-n", "1", "--agents", "nope"), "unknown agent 'nope'"),
        (("compare", "enfle/academie", "enfle/foster", "--agents", "nope"), "unknown agent 'nope'"),
        (
            ("compare", "enfle/academie", "enfle/foster", "-n", "1", "--agents", "random,first"),
            "2 agents for 4 players: give one, or one per seat",
        ),
        (("play", "enfle/academie", "--seed", "a\x1b]0;title\x07"), "no control characters"),
        (("play", "enfle/academie", "--seed", "7" * 300), "at most 200 characters"),
    ],
)
def test_bad_arguments_are_usage_errors(run, args, phrase):
    code, out, err = run(*args)
    text = _clean(code, out, err)
    assert code == 2, text
    assert phrase in text, text


@pytest.mark.parametrize(
    "cmd",
    [
        ("play", "enfle/academie", "--json"),
        ("simulate", "enfle/academie", "-n", "2", "-w", "1", "--json"),
        ("compare", "enfle/academie", "enfle/foster", "-n", "1", "--json"),
    ],
)
def test_non_ascii_digits_are_a_string_seed(run, cmd):
    """-s ² crashed (str.isdigit) and -s ٣ played as seed 3: both are string seeds."""
    code, out, err = run(*cmd, "--seed", "²")
    _clean(code, out, err)
    assert code == 0, out + err
    code, out3, err = run(*cmd, "--seed", "٣")
    assert code == 0, out3 + err
    if cmd[0] == "play":
        assert json.loads(out3)["seed"] == "٣"
        code, ascii3, _ = run(*cmd, "--seed", "3")
        assert json.loads(ascii3)["seed"] == 3
        assert json.loads(ascii3)["hands"] != json.loads(out3)["hands"]


def test_seed_is_documented(run):
    code, out, err = run("play", "--help")
    assert "ASCII digits" in re.sub(r"\s+", " ", out)


def test_dealer_in_range_is_taken(run):
    code, out, err = run("play", "enfle/academie", "-p", "4", "--dealer", "3", "--hands", "1", "--json")
    assert code == 0, out + err


# -- a person at the terminal --------------------------------------------------------
@pytest.mark.parametrize("agents", ["human", "human,random,random,random", "random,human,random,random"])
def test_end_of_input_for_a_human_player(run, agents):
    """Ctrl-D or < /dev/null: a clear message, exit status 2; not an internal
    error, and not blamed on the rule file."""
    code, out, err = run("play", "enfle/academie", "-p", "4", "--agents", agents)
    text = _clean(code, out, err)
    assert code == 2, text
    assert "standard input ended" in err, text
    assert "academie.yaml" not in err and "cannot be applied" not in err, text


def test_ctrl_c_for_a_human_player(run, monkeypatch):
    class Interrupting(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt

    orig = TerminalHuman.__init__

    def init(self, seats, inp=None, out=None):
        orig(self, seats, Interrupting(), out)

    monkeypatch.setattr(TerminalHuman, "__init__", init)
    code, out, err = run("play", "enfle/academie", "-p", "4", "--agents", "random,human,random,random")
    text = _clean(code, out, err)
    assert code == 130, text
    assert "interrupted" in err


# -- rule files: run-time faults and silent mistakes --------------------------------
V = ("validate", "--playouts", "0")
V1 = ("validate", "--playouts", "1")
P4 = ("play", "enfle/academie", "-p", "4", "--deal")

# (command line before the file, file, exit status, "line:col", key phrase)
FILES = [
    (V, "fault-divide-by-zero.yaml", 1, "10:23", "division by zero: '/' by 0"),
    (V, "fault-removal-by-zero.yaml", 1, "9:20", "division by zero: the divisor 'players - 4' is 0 here"),
    (("play",), "fault-removal-by-zero.yaml", 2, "9:20", "division by zero: the divisor 'players - 4' is 0 here"),
    (
        V1,
        "fault-modulo-by-zero.yaml",
        1,
        "6:22",
        "in a random game for 4 players (seed 'validate//4/0'): remainder by zero: the divisor 'players - players'",
    ),
    (("play",), "fault-modulo-by-zero.yaml", 2, "6:22", "remainder by zero: the divisor 'players - players' is 0"),
    (V, "fault-card-less-than-number.yaml", 1, "5:29", "a card has no order of its own"),
    (V, "fault-card-equals-number.yaml", 1, "5:29", "a card is compared with a number, which it can never equal"),
    (V, "fault-number-in-zone.yaml", 1, "5:11", "a zone holds cards, not a number"),
    (V, "fault-abs-card.yaml", 1, "5:15", "expected a number here, found a zone (of cards)"),
    (V, "fault-amount-zone.yaml", 1, "10:13", "'hand(seat)' gives a zone of cards, but a number is expected here"),
    (("play",), "fault-amount-zone.yaml", 2, "10:13", "but a number is expected here"),
    (V, "fault-hands-rank.yaml", 1, "6:10", "'A' gives a rank, but a number is expected here"),
    (V, "fault-key-zone.yaml", 1, "5:16", "gives a zone of cards, but a seat (or none) is expected here"),
    (V, "fault-negative-amount.yaml", 1, "10:13", "an amount paid is not negative (-1)"),
    (V, "fault-dup-suit.yaml", 1, "6:20", "the pack lists suit S twice"),
    (("play",), "fault-dup-suit.yaml", 2, "6:20", "the pack lists suit S twice"),
    (V, "fault-dup-rank.yaml", 1, "7:48", "the pack lists rank K twice"),
    (V, "fault-effect-no-seat.yaml", 1, "13:22", "'score' belongs to each seat, and this effect is about no seat"),
    (P4, "fault-trick.deal.yaml", 2, "6:1", "the deal puts cards in 'trick', a zone the rules do not deal to"),
]


@pytest.mark.parametrize("args,name,status,where,phrase", FILES, ids=[f"{c[1]}/{c[0][0]}" for c in FILES])
def test_rule_file_faults_are_located(run, args, name, status, where, phrase):
    code, out, err = run(*args, BROKEN / name)
    text = _clean(code, out, err)
    assert code == status, text
    assert phrase in text, text
    assert "cannot be applied" not in text, text
    assert re.search(re.escape(name) + ":" + where + r": ", text), text


def test_a_seat_that_is_none_in_play_is_said_plainly(run):
    """Only play can tell that the winner is not known yet: the message says
    so in the rules' terms, at the step, and validate counts it as an error."""
    code, out, err = run("validate", "--playouts", "1", BROKEN / "fault-seat-none.yaml")
    text = _clean(code, out, err)
    assert code == 1, text
    assert re.search(
        r"fault-seat-none\.yaml:6:3: error: in a random game .*: the rules cannot be applied here: "
        r"a seat is none at this point of play",
        text,
    ), text


@pytest.mark.parametrize("cmd", [("render",), ("compare", "enfle/academie"), ("validate", "--playouts", "1")])
def test_no_cards_dealt_is_rendered(run, cmd):
    """hand: 0 is allowed (every card to the stock): render and compare read it."""
    code, out, err = run(*cmd, BROKEN / "fault-hand-zero.yaml")
    _clean(code, out, err)
    assert code == 0, out + err


def test_division_by_a_computed_zero_is_located_in_the_closure():
    """A divisor that only play can know: the compiled closure raises a rule
    error at the divisor's own place."""
    from academie.dsl.compiler import Scope, compile_expr
    from academie.dsl.errors import Pos

    e = compile_expr("10 / (players - 4)", Pos("f.yaml", 3, 9), Scope())

    class St:
        n = 4

    with pytest.raises(RuleError) as ex:
        e(St())
    d = ex.value.diagnostics[0]
    assert (d.pos.line, d.pos.col) == (3, 15) and "the divisor 'players - 4' is 0" in d.message
    St.n = 6
    assert e(St()) == 5


@pytest.mark.parametrize(
    "text,phrase",
    [
        ("card < 3", "a card has no order of its own"),
        ("card.suit + 1", "expected a number or a seat here, found a suit"),
        ("card == S", "a card is compared with a suit"),
        ("card.suit == 3", "a suit is compared with a number"),
        ("3 in hand(seat)", "a zone holds cards, not a number"),
        ("card in 3", "'in' needs a zone or a list"),
        ("max(card, 3)", "expected a number"),
        ("sum_seats(hand(seat))", "expected a number"),
        ("top_seat(hand(seat))", "expected a number"),
        ("players % 0", "division by zero"),
        ("(if seat == 0 then 2S else 3) + 1", "the two branches give a card and a number"),
        ("(if seat == 0 then 1 else seat) + 1", "the two branches give a number and a seat"),
        ("count(hand(seat)) or 10", "'and', 'or' join truth values (comparisons, tests), not a number"),
    ],
)
def test_type_mismatches_are_found_when_compiled(text, phrase):
    from academie.dsl.compiler import Scope, compile_expr
    from academie.dsl.errors import Pos

    with pytest.raises(RuleError) as ex:
        compile_expr(text, Pos("f.yaml", 1, 1), Scope(seat_zones={"hand"}), "card")
    assert phrase in ex.value.format(), ex.value.format()


@pytest.mark.parametrize(
    "text",
    [
        'card.suit == "H"',
        "card.rank == 10",
        "seat == dealer + 1",
        "winner == none",
        'card.colour == "red"',
        "card in trick",
        "card.suit in [S, H]",
        "(if seat == 0 then dealer else seat) + 1",
        "index(if seat == 0 then dealer else seat) + 1",
        "rank(card) < 3",
    ],
)
def test_well_typed_expressions_still_compile(text):
    from academie.dsl.compiler import Scope, compile_expr
    from academie.dsl.errors import Pos

    compile_expr(text, Pos("f.yaml", 1, 1), Scope(zones={"trick"}, orders={"play": {}}), "card")


def test_the_catch_all_is_still_there_for_real_bugs(run, monkeypatch):
    """A bug of academie itself (here: one planted in the corpus listing) is
    reported plainly, exit status 3, with no traceback; ACADEMIE_DEBUG=1 lets
    the exception through for whoever debugs it."""
    import academie.cli.listing as cli

    def broken():
        raise RuntimeError("a planted bug")

    monkeypatch.setattr(cli, "corpus_ids", broken)
    monkeypatch.delenv("ACADEMIE_DEBUG", raising=False)
    code, out, err = run("list", internal_ok=True)
    assert code == 3
    assert "academie: internal error: RuntimeError: a planted bug" in err
    assert "Traceback" not in out + err
    monkeypatch.setenv("ACADEMIE_DEBUG", "1")
    with pytest.raises(RuntimeError, match="a planted bug"):
        run("list", internal_ok=True)
