"""``academie validate`` on the corpus and on altered copies of it."""

import json
import re
from pathlib import Path

import pytest

from academie.dsl.loader import corpus_root

ENFLE = corpus_root() / "enfle" / "academie.yaml"
DATA = Path(__file__).parent / "data"


@pytest.fixture
def copy(tmp_path):
    """A copy of the L'Enflé rule file, changed by ``edit`` (old -> new, once)."""

    def _copy(old=None, new=None, name="enfle.yaml"):
        text = ENFLE.read_text(encoding="utf-8")
        if old is not None:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return p, text

    return _copy


def line_of(text, needle):
    return text[: text.index(needle)].count("\n") + 1


def test_corpus_is_valid(run):
    code, out, err = run("validate")
    assert code == 0, out + err
    assert "0 error(s)" in err


def test_copy_of_corpus_file_is_valid(run, copy):
    p, _ = copy()
    code, out, err = run("validate", "--playouts", 1, p)
    assert code == 0, out


def test_one_word_changed_in_a_quote_fails_at_its_line(run, copy):
    old = '"Play proceeds counterclockwise."'
    p, text = copy(old, '"Play proceeds clockwise."')
    code, out, err = run("validate", "--playouts", 0, p)
    assert code == 1
    line = line_of(text, '"Play proceeds clockwise."')
    assert re.search(
        rf"enfle\.yaml:{line}:\d+: error: quote not found in source 'enfle-jeux-oublies': "
        r'"Play proceeds clockwise\."',
        out,
    ), out
    assert 'reads: "Play proceeds counterclockwise."' in out


def test_typographic_variants_and_line_breaks_are_tolerated(run, copy):
    p, _ = copy(
        'cite: "He keeps it, face down, in front of him and leads the next trick."',
        "cite: >-\n      He keeps it,   face down, in front of him\n      and leads the next trick\u2026",
    )
    code, out, err = run("validate", "--playouts", 0, p)
    assert "quote not found" in out  # "…" is "...", not "." : a different text
    p, _ = copy(
        'cite: "He keeps it, face down, in front of him and leads the next trick."',
        "cite: >-\n      He keeps it,\u00a0 face down, in front of him\n      and leads the next trick.",
    )
    code, out, err = run("validate", "--playouts", 0, p)
    assert code == 0, out


def test_removing_a_cite_fails_at_the_element(run, copy):
    old = '\n        cite: "The hand ends immediately when a player has managed to get rid of all the cards in his hand."\n'
    p, text = copy(old, "\n")
    code, out, err = run("validate", "--playouts", 0, p)
    assert code == 1
    assert re.search(r"enfle\.yaml:\d+:\d+: error: hand/play/end/0 is a rule element: it needs a 'cite'", out), out


def test_broken_expression_fails_inside_it(run, copy):
    p, text = copy("next_dealer: dealer + 1", "next_dealer: dealer + * 1")
    code, out, err = run("validate", "--playouts", 0, p)
    assert code == 1
    line = line_of(text, "next_dealer: dealer + * 1")
    col = len("  next_dealer: dealer + ") + 1
    assert f"enfle.yaml:{line}:{col}: error: unexpected '*'" in out, out


def test_extends_in_a_circle(run, tmp_path):
    head = "# yaml-language-server: $schema=x\n"
    (tmp_path / "a.yaml").write_text(head + "extends: b.yaml\n")
    (tmp_path / "b.yaml").write_text(head + "extends: c.yaml\n")
    (tmp_path / "c.yaml").write_text(head + "extends: a.yaml\n")
    code, out, err = run("validate", "--playouts", 0, tmp_path / "a.yaml")
    assert code == 1
    assert re.search(r"c\.yaml:2:10: error: extends goes round in a circle: a -> b -> c -> a", out), out


def test_json_output(run, copy):
    p, text = copy('"Play proceeds counterclockwise."', '"Play proceeds clockwise."')
    code, out, err = run("validate", "--json", "--playouts", 0, p)
    assert code == 1
    diags = json.loads(out)
    assert [d["code"] for d in diags] == ["citation"]
    d = diags[0]
    assert set(d) == {"file", "line", "col", "severity", "code", "message"}
    assert d["file"] == str(p) and d["severity"] == "error"
    assert d["line"] == line_of(text, '"Play proceeds clockwise."')


def test_source_says_corrected_is_a_warning_naming_the_editorial(run):
    f = DATA / "source-says.yaml"
    code, out, err = run("validate", "--playouts", 1, f)
    assert code == 0, out
    text = f.read_text()
    ed = line_of(text, "    editorial:\n      reason: Three hands")
    assert re.search(
        r"source-says\.yaml:\d+:\d+: warning: the source's arithmetic is impossible: 3 players × 21 "
        r"cards \+ 4 left over = 67 cards, but the pack has 40 .*corrected by the editorial element at "
        rf"\S*source-says\.yaml:{ed}:5",
        out,
    ), out


def test_source_says_consistent_is_silent(run, tmp_path):
    text = (DATA / "source-says.yaml").read_text()
    text = text.replace("      hand: 21\n", "      hand: 12\n")
    p = tmp_path / "fine.yaml"
    p.write_text(text.replace("../../dsl/schema.json", str(Path(__file__).parents[1] / "dsl/schema.json")))
    code, out, err = run("validate", "--playouts", 0, p)
    assert code == 0
    assert "arithmetic" not in out


def test_option_conflict_is_enforced(run, copy, tmp_path):
    p, _ = copy()
    text = p.read_text() + (
        "options:\n"
        "  short:\n    conflicts: [long]\n    set: {game: {hands: 1, editorial: {reason: r, evidence: e}}}\n"
        "    editorial: {reason: r, evidence: e}\n"
        "  long:\n    set: {game: {hands: 20, editorial: {reason: r, evidence: e}}}\n"
        "    editorial: {reason: r, evidence: e}\n"
    )
    p.write_text(text)
    code, out, err = run("validate", "--playouts", 1, p)
    assert code == 0, out


TWO_OPTIONS = """options:
  three:
    description: three may play
    editorial: {reason: r, evidence: e}
    set:
      players: {min: 3, max: 8, editorial: {reason: r, evidence: e}}
      hand:
        deal:
          kind: deal
          first: dealer + 1
          hand: {3: 16, 4: 12, 5: 10, 6: 8, 7: 7, 8: 6}
          rest: stock
          rest_count: {3: 4, 4: 4, 5: 2, 6: 4, 7: 3, 8: 4}
          editorial: {reason: r, evidence: e}
  ones:
    description: the cards dealt one at a time
    editorial: {reason: r, evidence: e}
    set:
      hand:
        deal:
          kind: deal
          first: dealer + 1
          hand: {4: 12, 5: 10, 6: 8, 7: 7, 8: 6}
          batches: 1
          rest: stock
          rest_count: {4: 4, 5: 2, 6: 4, 7: 3, 8: 4}
          editorial: {reason: r, evidence: e}
"""


def test_two_options_good_alone_but_not_together(run, copy):
    # "three" lets three play and deals for them; "ones" deals again, for four to eight only:
    # each is good alone; together three may play and the deal has nothing for them
    p, _ = copy()
    p.write_text(p.read_text() + TWO_OPTIONS)
    code, out, err = run("validate", "--playouts", 1, p)
    assert code == 1, out
    assert "with options 'three' and 'ones' together:" in out and "3 players" in out
    assert "with option 'three':" not in out and "with option 'ones':" not in out
    # declared in conflict, the two are not tried together
    p.write_text(
        p.read_text().replace(
            "    description: the cards dealt one at a time\n",
            "    description: the cards dealt one at a time\n    conflicts: [three]\n",
        )
    )
    code, out, err = run("validate", "--playouts", 1, p)
    assert code == 0, out


def test_unfinished_playout_is_a_warning(run, copy):
    p, text = copy("  hands: players\n", '  until: "false"\n')
    code, out, err = run("validate", "--playouts", 1, "--max-plays", 200, p)
    assert code == 0
    assert "warning: 1 of 1 random games for 4 players did not finish within 200 plays" in out


def test_missing_schema_line_is_a_warning(run, copy):
    p, text = copy("# yaml-language-server: $schema=../../dsl/schema.json\n", "")
    code, out, err = run("validate", "--playouts", 0, p)
    assert code == 0
    assert re.search(r"enfle\.yaml:1:1: warning: the file does not name its schema", out)


def test_all_schema_problems_of_a_file_are_reported(run, copy):
    p, _ = copy("  min: 4\n  max: 8\n", "  min: four\n  max: eight\n")
    code, out, err = run("validate", "--playouts", 0, p)
    assert code == 1
    assert "players/min: 'four' is not of type integer" in out
    assert "players/max: 'eight' is not of type integer" in out
