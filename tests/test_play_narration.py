"""The narrative of `academie play` says what the rules do."""

from pathlib import Path

import pytest

from conftest import read_log
from academie.dsl.model import load_game

CORPUS = Path(__file__).parents[1] / "rules"


@pytest.mark.parametrize("lowest", [True, False])
def test_the_draw_for_dealer_is_narrated_as_the_rules_say(tmp_path, run, lowest):
    """A rule file whose draw goes to the highest card is not narrated as drawing the lowest;
    and the seat named did draw that card."""
    text = (CORPUS / "enfle" / "academie.yaml").read_text()
    assert text.count("    lowest: true\n") == 1
    p = tmp_path / "draw.yaml"
    p.write_text(text.replace("    lowest: true\n", f"    lowest: {str(lowest).lower()}\n"))
    log = tmp_path / "log.jsonl"
    code, out, err = run("play", p, "-p", 4, "-s", 5, "--hands", 1, "--log", log)
    assert code == 0, err
    events = read_log(log)
    dealer = next(e for e in events if e["type"] == "dealer")
    word, other = ("lowest", "highest") if lowest else ("highest", "lowest")
    assert f"Seat {dealer['seat']} draws the {word} card and deals first." in out
    assert f"draws the {other} card" not in out
    order = load_game(str(p)).orders["play"]
    last = [e for e in events if e["type"] == "draw_for_dealer"][-1]["cards"]
    values = {int(s): next(v for c, v in order.items() if c.name == name) for s, name in last.items()}
    assert values[dealer["seat"]] == (min if lowest else max)(values.values())


def test_cards_moved_by_a_step_of_the_hand_are_the_tables():
    """A step of the hand that moves cards (the stock to a widow) names no seat: not 'seat None'."""
    from academie.cli.play import narrate

    line = narrate({"type": "take", "seat": None, "cards": ["AS", "2C"], "to": "widow"}, 4)
    assert line is not None and "None" not in line and "the table takes" in line and "widow" in line
    assert "seat 2 takes" in narrate({"type": "take", "seat": 2, "cards": ["AS"], "to": "hand"}, 4)


def test_why_shows_under_an_event_the_rule_that_made_it(run):
    code, out, err = run("play", "enfle/academie", "-p", 4, "-s", 3, "--hands", 1, "--why")
    assert code == 0, err
    lines = out.splitlines()
    ante = lines.index("  seat 1 pays 1 chip to the pot")
    assert lines[ante + 1] == "    § hand.ante"  # its path in the rule file, then its source's words by id
    assert lines[ante + 2].startswith('      "Before each hand, each of the players puts one of his chips into a pot')
    assert lines[ante + 2].endswith("(enfle-jeux-oublies)")
    assert lines[ante + 3] == "  seat 2 pays 1 chip to the pot"  # once for the events in a row it caused
    assert "The hand ends immediately when a player has managed to get rid of all the cards" in out
    code, plain, _ = run("play", "enfle/academie", "-p", 4, "-s", 3, "--hands", 1)
    assert "§" not in plain and [ln for ln in lines if "§" not in ln and not ln.startswith("      ")] == (
        plain.splitlines()
    )  # without --why, the same narration without the rules


def test_why_escapes_the_rule_files_words(run, tmp_path):
    from academie.dsl.loader import corpus_root

    src = (corpus_root() / "enfle" / "academie.yaml").read_text(encoding="utf-8")
    assert "Before each hand" in src
    mine = tmp_path / "mine.yaml"
    mine.write_text(src.replace("Before each hand", "Before\\u001b[31m each hand"), encoding="utf-8")
    code, out, err = run("play", mine, "-p", 4, "-s", 3, "--hands", 1, "--why")
    assert code == 0, err
    assert '"Before\\x1b[31m each hand' in out and "\x1b" not in out  # the quote's escape shown, not obeyed
