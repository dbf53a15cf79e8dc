"""Quote matching (academie/citations.py) and the coverage report."""

import json

import pytest

from academie.citations import closest, find_quote, normalise, sentences

SOURCE = (
    "L\u2019Enfl\u00e9 is played by four to eight players \u2013 or so.\n"
    "It ends\u00a0when  a hand\nis empty\u2026 \u201cSwell\u201d they say.\n\n"
    "4 players : 12 cards, with 4 left\n5 players : 10 cards\n\n2. Deal\n"
)


def test_normalise_variants():
    assert normalise("\u2018a\u2019 \u201cb\u201d \u2013 \u2014 x\u00a0\u00a0y\n z\u2026") == "'a' \"b\" - - x y z..."


@pytest.mark.parametrize(
    "quote",
    [
        "L'Enflé is played by four to eight players - or so.",
        "It ends when a hand is empty...",
        'is empty... "Swell" they say.',
        "four  to\neight",
    ],
)
def test_found_despite_typography_and_white_space(quote):
    span = find_quote(SOURCE, quote)
    assert span is not None
    assert normalise(SOURCE[span.start : span.end]) == normalise(quote)


@pytest.mark.parametrize(
    "quote",
    [
        "L'Enflé is played by five to eight players",  # a word changed
        "played by four to eight player",  # a word cut short
        "layed by four",  # starts inside a word
        "it ends when a hand",  # case counts
        "It ends when a hand is empty!",  # punctuation counts
    ],
)
def test_strict_about_words(quote):
    assert find_quote(SOURCE, quote) is None


def test_closest_passage():
    ratio, passage = closest(SOURCE, "It ends when a hand is full")
    assert passage.startswith("It ends") and "hand" in passage
    assert 0.6 < ratio < 1


def test_sentences_and_list_lines():
    units = sentences(SOURCE)
    texts = [" ".join(u.text.split()) for u in units]
    assert texts == [
        "L\u2019Enfl\u00e9 is played by four to eight players \u2013 or so.",
        "It ends when a hand is empty\u2026",
        "\u201cSwell\u201d they say.",
        "4 players : 12 cards, with 4 left",
        "5 players : 10 cards",
        "2. Deal",
    ]
    assert [u.kind for u in units] == ["sentence"] * 5 + ["heading"]
    for u in units:
        assert SOURCE[u.span.start : u.span.end] == u.text


def test_coverage_of_the_seed_sources(run):
    code, out, err = run("coverage", "--json")
    assert code == 0
    reports = {r["source"]: r for r in json.loads(out)}
    for sid in (
        "emprunt-encyclopedia",
        "enfle-jeux-oublies",
        "enfle-salondesjeux-fr",
        "foster-hoyle",
        "francion-jeux-oublies",
    ):
        assert sid in reports
    r = reports["enfle-jeux-oublies"]
    assert r["total"] == r["cited"] + r["listed"] + r["headings"] + r["unaccounted"]
    assert r["sentences"] == r["covered"] + r["unaccounted"]
    assert r["share"] == 1 and r["accounted_share"] == 1
    by_text = {u["text"]: u for u in r["units"]}
    five = by_text["5 players : 10 cards with 2 left in the stock"]
    assert five["status"] == "cited" and any("academie.yaml" in w for w in five["cited_by"])
    assert by_text['He is said to "enfle" (swell up).']["status"] == "listed"
    laws = {u["text"]: u for u in reports["foster-hoyle"]["units"]}
    assert laws["Those first in the room have the preference."]["status"] == "listed"  # who sits down
    assert laws["Six persons is the largest number that can play at one table."]["status"] == "cited"
    # not_rules: entries of the metadata, each with its kind
    described = by_text["It was described there as a simple but entertaining game, aimed mainly at children."]
    assert described["status"] == "listed" and described["kind"] == "commentary" and described["why"]
    assert r["listed"] == 9


def test_coverage_text_lists_uncovered(run):
    code, out, err = run("coverage", "foster-hoyle")
    assert code == 0
    assert out.startswith("foster-hoyle (Foster's Complete Hoyle")
    assert "% )" not in out
    assert "The cards are dealt 3-2-3 at a time." not in out  # cited
    assert "Those first in the room have the preference." not in out  # listed: shown with --all only
    code, out, err = run("coverage", "--all", "foster-hoyle")
    assert "Those first in the room have the preference." in out
    code, out, err = run("coverage", "--all", "enfle-jeux-oublies")
    assert "Play proceeds counterclockwise." in out and "academie.yaml:" in out


# -- the bibliography as standard tools read it ------------------------------------------------
def _stored(sid):
    from academie.validate import source_meta

    meta = source_meta(sid)
    role = "author" if meta.get("authors") else "editor"
    return meta, role, meta.get(role + "s") or []


def _plain(latex: str) -> str:
    """TeX text as pybtex reads it (escapes and braces gone)."""
    from pybtex.richtext import Text

    return Text.from_latex(latex).render_as("text")


def test_bibtex_round_trips_through_pybtex_for_every_source(run):
    from pybtex.database import parse_string

    from academie.bibliography import bibtex
    from academie.dsl.loader import source_ids

    sids = sorted(source_ids())
    db = parse_string(bibtex(sids), "bibtex")
    assert list(db.entries) == sids
    for sid in sids:
        meta, role, people = _stored(sid)
        e = db.entries[sid]
        assert _plain(e.fields["title"]) == " ".join(str(meta["title"]).split()), sid
        got = [
            (_plain(" ".join(p.prelast_names + p.last_names)), _plain(" ".join(p.first_names + p.middle_names)))
            for p in e.persons[role]
        ]
        assert got == [(n.get("literal") or n["family"], n.get("given", "")) for n in people], sid
        if meta.get("year"):
            assert e.fields["year"] == str(meta["year"]), sid
        else:
            assert e.fields["year"] == "n.d." and "no date of publication" in e.fields["note"], sid
        # a URL as stored: the url field is verbatim (biblatex, the url package), never TeX-escaped
        assert e.fields.get("url") == meta.get("url"), sid
        if meta.get("work"):  # an article or a chapter: in its work, which standard styles print
            assert e.type in ("incollection", "inbook") and _plain(e.fields["booktitle"]) == meta["work"], sid
        assert meta.get("kind") != "encyclopedia" or e.type in ("incollection", "inbook"), sid
    # the command writes the same, the Encyclopædia's link whole
    code, out, err = run("cite", "piquet/hoyle", "--format", "bibtex")
    assert code == 0, err
    assert "url = {http://en.wikisource.org/wiki/Page:Encyclop%C3%A6dia_Britannica,_Ninth_Edition" in out
    assert parse_string(out, "bibtex").entries["eb9-piquet"].type == "incollection"


def test_csl_json_rendered_by_citeproc_shows_every_source_as_stored():
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    from academie.bibliography import csl_json
    from academie.dsl.loader import source_ids

    items = csl_json(sorted(source_ids()))
    source = CiteProcJSON(items)
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)  # the style citeproc-py ships
    for item in items:
        meta, role, people = _stored(item["id"])
        bib = CitationStylesBibliography(style, source, formatter.plain)
        bib.register(Citation([CitationItem(item["id"])]))
        text = str(bib.bibliography()[0])
        assert " ".join(str(meta["title"]).split()) in text, text
        for n in people:
            assert (n.get("literal") or n["family"]) in text, text
        assert (f"({meta['year']})" if meta.get("year") else "(no date)") in text, text
        assert meta.get("url", "") in text, text
