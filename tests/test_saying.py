"""A counter's value told in the words of the game (``vars: NAME: say:``, ``parts:``): the
declaration reads as the players say it ("three hearts to the king: 3"), each part of the value
worked out by an expression of the rule language and said by its word; what a seat may not see
is not told to it; a ``say`` that cannot be read is refused where it is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import academie
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.narrate import narrate

SAID = Path(__file__).parent / "concepts" / "said.yaml"


def _declarations(obs: dict) -> list[dict]:
    return [e for e in obs["events"] if e["type"] == "score" and e.get("declared")]


def test_a_declaration_is_told_in_the_words_of_its_value():
    state = academie.load_game(str(SAID)).new_state(players=2, seed=4)
    assert state.engine.pvars["held"] == [37, 26]  # three hearts to the king; two to the queen
    (said,) = _declarations(state.observation(1))
    assert narrate(said, you={1}).text == "Seat 0 declares three hearts to the king: 3."


def test_a_value_a_seat_may_not_see_is_not_told_to_it():
    """Seat 1's hearts are not good: their words are told to seat 1 alone."""
    state = academie.load_game(str(SAID)).new_state(players=2, seed=4)
    theirs = [e for e in state.observation(0)["events"] if e["type"] == "score" and e["counter"] == "held"]
    told = [narrate(e, you={0}).text for e in theirs if e["seat"] == 1]
    assert told and all("queen" not in t and "two hearts" not in t for t in told)
    mine = [e for e in state.observation(1)["events"] if e["type"] == "score" and e["counter"] == "held"]
    assert "Seat 1 (you): two hearts to the queen." in [narrate(e, you={1}).text for e in mine]


def test_a_replay_tells_the_declaration_from_the_log_and_the_rules(tmp_path):
    from click.testing import CliRunner

    from academie.cli import main

    log = tmp_path / "said.jsonl"
    CliRunner().invoke(main, ["play", str(SAID), "-s", "4", "--players", "2", "--log", str(log)])
    events = [json.loads(x) for x in log.read_text().splitlines()][1:]
    assert not any("says" in e for e in events)  # words, not play: the log holds the values alone
    out = CliRunner().invoke(main, ["replay", str(log), str(SAID)]).output
    assert "Seat 0 declares three hearts to the king: 3." in out


def _load(tmp_path, old: str, new: str):
    text = SAID.read_text(encoding="utf-8").replace("../../dsl/schema.json", "x")
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(RuleError) as e:
        load_game(str(bad))
    return str(e.value)


def test_a_say_that_cannot_be_read_is_refused_where_it_is_written(tmp_path):
    msg = _load(tmp_path, '"{cards} hearts to the {top}"', '"{cards} hearts to the {highest}"')
    assert "bad.yaml:25:" in msg and "say: names no part 'highest' (its places: {value}, {cards}, {top})" in msg
    msg = _load(tmp_path, '"{cards} hearts to the {top}"', '"{cards.__class__} hearts"')
    assert "bad.yaml:25:" in msg and "a place is written {name}, a name in braces" in msg
    msg = _load(tmp_path, "top: {of: value % 10", "top: {of: held(seat) % 10")
    assert "bad.yaml:28:" in msg and "part 'top' of counter 'held' reads 'held'" in msg
    msg = _load(tmp_path, "top: {of: value % 10", "top: {of: nothing % 10")
    assert "bad.yaml:28:" in msg and "nothing" in msg
    msg = _load(tmp_path, '    say: "{cards} hearts to the {top}"\n', "")
    assert "counter 'held' has parts: but no say: to tell them in" in msg


def test_piquet_declarations_read_in_the_words_of_the_game():
    """Hoyle: "there are five kinds of quarts, the first called quart-major, consisting of ace,
    king, queen, and knave; the second quart, of king, queen, knave, and ten"; "the four aces,
    kings, queens, knaves, or tens; then the three aces, kings…": a point, a sequence and a set
    told by what they are, to the adversary, when they are declared."""
    state = academie.load_game("piquet/hoyle").new_state(players=2, seed=2)
    while state.decision_kind() != "play":
        state.apply(state.legal_moves()[0])
    told = [narrate(e, you={1}).text for e in _declarations(state.observation(1))]
    assert told == [
        "Seat 0 declares a point of seven (67): 7.",
        "Seat 0 declares a sixieme to the ace: 16.",
        "Seat 1 (you) declares three aces: 6.",
    ]
    e = state.engine  # what the words were read from
    assert e.pvars["pt"][0] == 767 and e.pvars["sq"][0] == 68 and e.pvars["st"][1] == 38


def test_the_words_of_a_rule_file_are_told_as_text(tmp_path):
    """A rule file is untrusted: its words reach the terminal and the page as plain text, on one line."""
    text = SAID.read_text(encoding="utf-8").replace("../../dsl/schema.json", "x")
    f = tmp_path / "odd.yaml"
    f.write_text(text.replace("7: king", '7: "ki\\e[31mng\\nnext"'), encoding="utf-8")
    state = academie.load_game(str(f)).new_state(players=2, seed=4)
    (said,) = _declarations(state.observation(1))
    line = narrate(said, you={1}).text
    assert line.startswith("Seat 0 declares three hearts to the ki") and "\x1b" not in line and "\n" not in line
