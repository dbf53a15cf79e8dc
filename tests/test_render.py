"""``academie render``: every corpus file written back as rules, every
statement footnoted; the Markdown compared with a golden file per rule file
(rewrite them with ``pytest --update-golden`` or ACADEMIE_UPDATE_GOLDEN=1)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from academie.describe import describe
from academie.dsl.loader import corpus_ids, resolve
from academie.render import render
from academie.words import words

GOLDEN = Path(__file__).parent / "golden" / "render"
CONCEPTS = Path(__file__).parent / "concepts"


@pytest.mark.parametrize("cid", corpus_ids())
def test_golden(cid, update_golden):
    text = render(cid)
    path = GOLDEN / f"{cid}.md"
    if update_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden file {path}: run pytest --update-golden"
    assert text == path.read_text(encoding="utf-8"), (
        f"render {cid} differs from {path} (if the change is meant: pytest --update-golden, and review the diff)"
    )


@pytest.mark.parametrize("hashseed", ["0", "1"])
def test_render_is_the_same_in_another_process(hashseed):
    """The render does not depend on the process that makes it (string hashing, and so the
    order of sets and dicts built from sets, differs between processes): renders made in a
    fresh interpreter with a fixed hash seed are the golden files."""
    code = (
        "import json, sys; from academie.dsl.loader import corpus_ids; from academie.render import render; "
        "sys.stdout.write(json.dumps({c: render(c) for c in corpus_ids()}))"
    )
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        cwd=Path(__file__).parents[1],
    ).stdout
    renders = json.loads(out)
    assert sorted(renders) == sorted(corpus_ids())
    for cid, text in renders.items():
        assert text == (GOLDEN / f"{cid}.md").read_text(encoding="utf-8"), f"{cid}, PYTHONHASHSEED={hashseed}"


def _footnotes(md):
    body, _, notes = md.partition("\n## Sources")
    items = [ln for ln in body.splitlines() if ln.startswith("- ") and "## Options" not in body.split(ln)[0]]
    defs = dict(re.findall(r"^\[\^(\d+)\]: (.+)$", md, re.M))
    return items, defs


@pytest.mark.parametrize(
    "ref,options",
    [(c, ()) for c in corpus_ids()]
    + [("polignac/boussac", ("capot",)), ("emprunt/lacombe", ("ante-two",))]
    + [(str(p), ()) for p in sorted(CONCEPTS.glob("*.yaml"))],
)
def test_every_statement_has_its_footnote(ref, options):
    md = render(ref, options)
    items, defs = _footnotes(md)
    assert items
    for line in items:
        m = re.search(r"\[\^(\d+)\]$", line)
        assert m, f"statement without a footnote: {line}"
        note = defs[m.group(1)]
        assert "“" in note or "[editorial]" in note or "[default]" in note, note
        if "**[editorial]**" in line:
            assert "[editorial]" in note
    # every quote of the file appears in a footnote, every editorial is marked
    doc = resolve(ref, options)
    text = " ".join(md.split()).replace("\\", "")
    for path, _, quote in doc.cites():
        if path[:1] == ("options",) and path[2:3] == ("set",):
            continue  # an option's rules, read only when it is switched on
        assert " ".join(quote.split()) in text, quote


def test_footnote_names_source_title_and_marks_editorial():
    md = render("enfle/academie")
    assert (
        "Académie des jeux oubliés 2026 (English translation) (`enfle-jeux-oublies`): “L'Enflé is played by four" in md
    )
    # the rank list is restored editorially from the French page: marked in the text and the note
    line = next(ln for ln in md.splitlines() if ln.startswith("- In the play order"))
    assert "**[editorial]**" in line
    assert "[editorial] The English page breaks off" in md


def test_option_changes_the_rules():
    plain, capot = render("polignac/boussac"), render("polignac/boussac", ["capot"])
    assert "may announce capot or pass" not in plain and "may announce capot or pass" in capot
    assert "with the option `capot`" in capot


@pytest.mark.parametrize(
    "text,kind,said",
    [
        ("dealer + 1", "value", "the player after the dealer (in the direction of play)"),
        ("dealer - 1", "value", "the player before the dealer (in the direction of play)"),
        ("card.suit == led", "card", "a card of the suit led"),
        ("card.rank in [A, 2]", "card", "an ace or a two"),
        ("card == AH", "card", "the ace of hearts"),
        ('card.rank == 2 and card.colour == "black"', "card", "a black two"),
        ("count(hand(seat)) == 0", "cond", "the player's hand is empty"),
        ("count(tricks(seat), card.suit == H)", "value", "the number of hearts in the player's tricks"),
        ("balance(pot, chip)", "value", "the chips in the pot"),
        ("players <= 4", "cond", "the number of players is at most 4"),
        (
            "run(hand(seat), card, sequence)",
            "value",
            "the number of cards in the run of its suit in the player's hand going down from the card in the sequence order",
        ),
    ],
)
def test_words(text, kind, said):
    assert words(text, kind) == said


def test_complex_expression_in_words():
    said = "a card for which its suit is the trump suit and its rank is a king and the ace of hearts is in the trick"
    assert words("card.suit == trump and card.rank == K and AH in trick", "card") == said
    md = render("francion/terrail")
    assert said in md and "`card.suit" not in md


def test_describe_general_on_a_new_file():
    """A rule file nobody wrote the renderer for: the concept files."""
    for p in sorted(CONCEPTS.glob("*.yaml")):
        st = describe(resolve(str(p)))
        assert all(s.cites or s.editorial or s.default for s in st), p


def test_render_html_self_contained():
    page = render("hearts/foster", fmt="html")
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert "http://" not in page and "https://" not in page
    assert 'id="n1"' in page and 'href="#n1"' in page


def test_cli_render(run, tmp_path):
    code, out, _ = run("render", "enfle/foster")
    assert code == 0 and out.startswith("# Enflé, or Schwellen")
    code, out, err = run("render", "polignac/boussac", "--option", "nope")
    assert code == 2 and "unknown option 'nope'" in err
    f = tmp_path / "r.html"
    code, _, _ = run("render", "enfle/foster", "--format", "html", "-O", f)
    assert code == 0 and "<h2>The deal</h2>" in f.read_text()
