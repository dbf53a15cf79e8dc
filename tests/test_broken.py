"""The battery of broken input (tests/broken/): each file gives its clear
message, at its file:line:col, with the right exit status; no traceback, no hang."""

import re
from pathlib import Path

import pytest

BROKEN = Path(__file__).parent / "broken"
V = ("validate", "--playouts", "0")

# (command line after the file, file, exit status, "line:col" or None, key phrase)
CASES = [
    (V, "invalid-yaml.yaml", 1, "3:8", "invalid YAML"),
    (V, "empty.yaml", 1, "1:1", "the file is empty"),
    (V, "list.yaml", 1, "2:1", "must be a mapping of sections (title:, players:, …), not a list"),
    (V, "scalar.yaml", 1, "2:1", "not a single value"),
    (V, "binary.yaml", 1, "2:1", "binary data"),
    (V, "deep.yaml", 1, "3:71", "nested more than 64 levels"),
    (V, "alias-bomb.yaml", 1, r"\d+:\d+", "more than 20000 nodes"),
    (V, "duplicate-key.yaml", 1, "4:1", "duplicate key 'title' (first written at line 3)"),
    (V, "unknown-key.yaml", 1, "3:1", "unknown key 'colour'"),
    (V, "wrong-type.yaml", 1, "5:8", "players/min: 'four' is not of type integer"),
    (V, "missing-cite.yaml", 1, "5:3", "players is a rule element: it needs a 'cite'"),
    (V, "bad-expression.yaml", 1, "5:18", "expression ends too early"),
    (V, "unknown-name.yaml", 1, "5:10", "unknown name 'playerz' (did you mean 'players'?)"),
    (V, "unknown-source.yaml", 1, "7:10", "unknown source 'no-such-source'"),
    (V, "misquote.yaml", 1, "7:10", "quote not found in source 'enfle-jeux-oublies'"),
    (V, "extends-missing.yaml", 1, "2:10", "no rule file 'nowhere/nothing'"),
    (V, "cycle-a.yaml", 1, "cycle-b.yaml:2:10", "extends goes round in a circle: cycle-a -> cycle-b -> cycle-a"),
    (V, "option-conflict-unknown.yaml", 1, "5:17", "conflicts with 'long', which is not an option"),
    (V, "option-broken.yaml", 1, "6:21", "with option 'broken': unknown name 'playerz'"),
    (V, "amends-changes.yaml", 1, "8:9", "game amends the element beneath, which has 'hands' already"),
    (V, "amends-nothing.yaml", 1, "5:5", "hand.bonus amends an element, but there is none beneath it to amend"),
    (V, "amends-empty.yaml", 1, "4:3", "game amends the element beneath but adds nothing and replaces nothing"),
    (V, "amends-uncited.yaml", 1, "8:9", "game.hand_winner is added by an amendment, so it must be a rule element"),
    (V, "amends-import.yaml", 1, "6:5", "unknown key 'amends' in imports/0"),
    (V, "amends-import-no-from.yaml", 1, "4:5", "imports/0: 'from' is a required property"),
    (V, "replaces-absent.yaml", 1, "8:20", "game replaces 'until', which the element beneath has not"),
    (V, "replaces-uncited.yaml", 1, "8:20", "game replaces 'hands' uncited: cite the source's sentence"),
    (V, "replaces-undeclared.yaml", 1, "10:9", "which has 'next_dealer' already: an amendment adds, it changes only"),
    (V, "replaces-not-given.yaml", 1, "8:20", "game replaces 'hands' but gives no 'hands' (write its new value)"),
    (V, "replaces-null.yaml", 1, "9:22", "options/short/set/game/next_dealer: None is not of type"),
    (V, "replaces-cite.yaml", 1, "8:20", "game replaces 'cite', which an amendment does not replace: its own cite"),
    (
        V,
        "replaces-kind.yaml",
        1,
        "7:16",
        "hand.play replaces 'kind', which an amendment does not replace: it keeps the kind",
    ),
    (
        V,
        "replaces-amends-inside.yaml",
        1,
        "10:11",
        "game.standings amends an element, but there is none beneath it to amend (game replaces 'standings' whole)",
    ),
    (
        V,
        "amends-inside-whole.yaml",
        1,
        "8:5",
        "game.standings amends an element, but there is none beneath it to amend (game is written whole",
    ),
    (
        V,
        "option-with-unknown.yaml",
        1,
        "5:12",
        "option 'short' is played with 'shrot', which is not an option of this file (did you mean 'short'?)",
    ),
    (
        V,
        "option-with-cycle.yaml",
        1,
        "10:12",
        "option 'quick' is played with 'short', which goes round: short -> quick -> short",
    ),
    (V, "option-set-extends.yaml", 1, "7:7", "option 'whist': its set: cannot hold 'extends'"),
    (
        V,
        "kind-seat-as-hand.yaml",
        1,
        "10:12",
        "'seat + 5' gives a seat, but a number is expected here: write index(SEAT)",
    ),
    (V, "kind-number-plus-seat.yaml", 1, "10:12", "'1000000000000 + seat' gives a seat, but a number is expected"),
    (V, "kind-seat-modulo.yaml", 1, "5:7", "'%' works on numbers, and a seat is not one: write index(SEAT)"),
    (V, "kind-seat-as-condition.yaml", 1, "7:10", "'dealer' gives a seat, but a truth value"),
    (V, "kind-number-as-when.yaml", 1, "7:11", "'hand_no % 4' gives a number, but a truth value"),
    (V, "kind-number-as-card-test.yaml", 1, "10:13", "'0' gives a number, but a truth value"),
    (V, "kind-number-as-allow.yaml", 1, "9:13", "'3' gives a number, but a truth value"),
    (V, "python-tag.yaml", 1, "2:8", "the YAML tag !!python/object/apply:os.system is not allowed"),
    (V, "python-reach.yaml", 1, "10:19", "a card has no field '__class__'"),
    (V, "end-trick-outside.yaml", 1, "8:20", "end_trick can only be used in cannot_follow"),
    (V, "bad-arithmetic.yaml", 1, "11:17", "53 cards, but the pack has 52"),
    (V, "bad-batches.yaml", 1, "10:14", "the batches 3-3-3 deal 9 cards, but a hand is 12"),
    (
        V,
        "source-says-uncorrected.yaml",
        1,
        "12:7",
        "the source's arithmetic is impossible: 3 players × 21 cards + 4 left over = 67 cards, but the pack has 40",
    ),
    (V, "no-schema-line.yaml", 0, "1:1", "warning: the file does not name its schema"),
    (
        ("validate", "--playouts", "1", "--max-plays", "300"),
        "never-ends.yaml",
        0,
        "3:1",
        "warning: 1 of 1 random games for 4 players did not finish within 300 plays",
    ),
    (
        ("validate", "--playouts", "1", "--max-plays", "300"),
        "no-plays-forever.yaml",
        0,
        "18:1",
        "did not finish within 300 plays",
    ),
    (
        ("validate", "--playouts", "0", "--max-file-size", "40"),
        "unknown-key.yaml",
        1,
        "1:1",
        "more than the limit of 40",
    ),
    (
        ("validate", "--playouts", "0", "--max-depth", "1"),
        "wrong-type.yaml",
        1,
        "5:8",
        "nested more than 1 levels deep",
    ),
    (("play", "enfle/academie", "-p", "4", "--deck"), "unknown-card.deck", 2, "2:1", "'ZZ' is not a card"),
    (
        ("play", "enfle/academie", "-p", "4", "--deck"),
        "repeated-card.deck",
        2,
        "3:78",
        "AS is in the deck twice (first at line 2, column 38)",
    ),
    (
        ("play", "enfle/academie", "-p", "4", "--deck"),
        "missing-card.deck",
        2,
        "2:155",
        "the deck lacks 1 card(s) of the pack for 4 players: AC",
    ),
    (("play", "enfle/academie", "-p", "4", "--deal"), "unknown-card.deal.yaml", 2, "2:51", "'1X' is not a card"),
    (("play", "enfle/academie", "-p", "4", "--deal"), "repeated-card.deal.yaml", 2, "2:51", "2S is dealt twice"),
    (
        ("play", "enfle/academie", "-p", "4", "--deal"),
        "missing-card.deal.yaml",
        2,
        "1:1",
        "the deal leaves out 1 card(s) of the pack: AC",
    ),
    (
        ("play", "enfle/academie", "-p", "4", "--deal"),
        "wrong-hand-size.deal.yaml",
        2,
        "2:5",
        "hand of seat 0 has 11 cards; the rules deal 12",
    ),
]


@pytest.mark.parametrize("args,name,status,where,phrase", CASES, ids=[c[1] + "/" + c[0][0] for c in CASES])
def test_broken_input(run, args, name, status, where, phrase):
    code, out, err = run(*args, BROKEN / name)
    text = out + err
    assert code == status, text
    assert "Traceback" not in text
    assert phrase in text, text
    # the message is located: file:line:col, then the message
    located = where if ".yaml:" in where else re.escape(name) + ":" + where
    assert re.search(located + r": ", text), text


@pytest.mark.parametrize(
    "args,status,phrase",
    [
        (("play", "enfle/academie", "-o", "nope"), 2, "unknown option 'nope'"),
        (("play", "enfle/academie", "-p", "3"), 2, "is for 4 to 8 players, not 3"),
        (("play", "enfle/academie", "-p", "9"), 2, "is for 4 to 8 players, not 9"),
        (("validate", "no/such-game"), 2, "no rule file 'no/such-game'"),
        (("coverage", "no-such-source"), 2, "no source 'no-such-source'"),
    ],
)
def test_misuse(run, args, status, phrase):
    code, out, err = run(*args)
    assert code == status
    assert phrase in out + err
    assert "Traceback" not in out + err


def test_players_out_of_range_is_located(run):
    code, out, err = run("play", "enfle/academie", "-p", "3")
    assert re.search(r"academie\.yaml:\d+:\d+: ", err), err


def test_very_large_file(run, tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("# yaml-language-server: $schema=x\ntitle: big\nnote: |\n" + "  padding\n" * 150_000)
    code, out, err = run("validate", "--playouts", "0", big)
    assert code == 1
    assert re.search(r"big\.yaml:1:1: error: the file is \d+ bytes, more than the limit of 1000000", out)
    code, out, err = run("validate", "--playouts", "0", "--max-file-size", 3_000_000, big)
    assert "more than the limit" not in out


def test_deal_file_size_limit(run, tmp_path):
    big = tmp_path / "big.deal.yaml"
    big.write_text("hands: []\n" + "# padding\n" * 1000)
    code, out, err = run("play", "--max-file-size", 8000, "enfle/academie", "-p", 4, "--deal", big)
    assert code == 2
    assert re.search(r"big\.deal\.yaml:1:1: the file is larger than the limit of 8000 bytes", err), err


def test_binary_file_is_committed_with_a_nul_byte():
    assert b"\x00" in (BROKEN / "binary.yaml").read_bytes()
