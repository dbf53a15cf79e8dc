"""Families of play (``family:``): each corpus game names its family; a variant inherits its
base's family unless it names its own; a wrong family is a located error; ``academie list``,
the site's index and the rule books group or state the games by family."""

import json
import re
import textwrap
from pathlib import Path

import pytest

from academie.api import load_game
from academie.dsl.errors import RuleError
from academie.dsl.families import FAMILIES
from academie.dsl.loader import corpus_ids, resolve, schema
from academie.render import render

TRICK = {
    "ecarte/hoyle",
    "enfle/academie",
    "enfle/foster",
    "euchre/cassell",
    "francion/terrail",
    "hearts/foster",
    "piquet/hoyle",
    "polignac/boussac",
    "quadrille/hoyle",
    "reversis/hoyle",
    "whist/hoyle",
}
STOPS = {"hoc/encyclopedie", "emprunt/lacombe"}


def test_the_families_are_the_schemas_in_a_fixed_order():
    assert list(FAMILIES) == schema()["$defs"]["document"]["properties"]["family"]["enum"]
    assert list(FAMILIES)[:2] == ["trick", "stops"]


def test_every_corpus_game_names_its_family():
    fams = {}
    for cid in corpus_ids():
        fam = resolve(cid).data.get("family")
        assert fam in FAMILIES, f"{cid} names no family of play"
        fams[cid] = fam
    assert {c for c, f in fams.items() if f == "trick"} >= TRICK
    assert {c for c, f in fams.items() if f == "stops"} >= STOPS
    assert {"trick", "stops"} <= set(fams.values())  # the corpus spans (at least) these families


def test_the_game_carries_its_family():
    assert load_game("hoc/encyclopedie").family == "stops"
    assert load_game("whist/hoyle+short").family == "trick"
    assert load_game("enfle/foster").family == "trick"  # says none itself: its base's


def _variant(tmp_path, body):
    path = tmp_path / "variant.yaml"
    path.write_text("title: a variant\nextends: hoc/encyclopedie\n" + textwrap.dedent(body), encoding="utf-8")
    return path


def test_a_variant_inherits_its_base_family_unless_it_names_its_own(tmp_path):
    same = _variant(tmp_path, "")
    assert load_game(str(same)).family == "stops"
    own = tmp_path / "own.yaml"
    own.write_text("title: another\nextends: hoc/encyclopedie\nfamily: shedding\n", encoding="utf-8")
    assert load_game(str(own)).family == "shedding"


def test_a_family_that_is_none_is_a_located_error(tmp_path):
    path = _variant(tmp_path, "family: trik\n")
    with pytest.raises(RuleError) as e:
        resolve(str(path))
    msg = str(e.value)
    assert "variant.yaml:3:9" in msg
    assert "'trik' is not a family of play" in msg and "did you mean 'trick'?" in msg
    assert "draw-and-meld" in msg  # the families are named


def test_an_option_cannot_change_the_family(tmp_path):
    path = _variant(
        tmp_path,
        "options:\n  other:\n    description: x\n    editorial: {reason: r, evidence: e}\n    set:\n      family: trick\n",
    )
    with pytest.raises(RuleError, match="its set: cannot hold 'family'"):
        resolve(str(path))


def test_list_groups_the_games_by_family_in_the_fixed_order(run):
    code, out, err = run("list")
    assert code == 0, err
    lines = out.splitlines()
    heads = [i for i, ln in enumerate(lines) if re.match(r"^[a-z-]+ games: ", ln)]
    names = [lines[i].split(" games")[0] for i in heads]
    assert names[:2] == ["trick", "stops"]
    assert names == sorted(names, key=list(FAMILIES).index)
    # each game is listed under its family's heading
    for cid in TRICK | STOPS:
        at = next(i for i, ln in enumerate(lines) if ln.startswith(cid + " "))
        head = max(h for h in heads if h < at)
        assert lines[head].startswith(("stops" if cid in STOPS else "trick") + " games: "), cid
    assert "matching the last one played" not in out  # no heading for a family the corpus does not hold (shedding)


def test_list_filters_by_family(run):
    code, out, err = run("list", "--family", "stops")
    assert code == 0, err
    ids = {ln.split()[0] for ln in out.splitlines() if ln and not ln.startswith((" ", "stops games"))}
    assert ids == STOPS
    code, out, err = run("list", "--family", "stops", "--json")
    assert code == 0 and {r["id"] for r in json.loads(out)} == STOPS
    code, out, err = run("list", "--family", "tricks")
    assert code == 2 and "'tricks' is not one of 'trick'" in err


def test_list_json_gives_each_game_its_family(run):
    code, out, err = run("list", "--json")
    assert code == 0, err
    rows = {r["id"]: r for r in json.loads(out)}
    assert set(rows) == set(corpus_ids())
    assert all(rows[c]["family"] == "trick" for c in TRICK)
    assert all(rows[c]["family"] == "stops" for c in STOPS)


def test_the_rule_book_states_the_family():
    md = render("hoc/encyclopedie")
    assert f"Family of play: stops ({FAMILIES['stops']})." in md
    assert "Family of play: trick" in render("enfle/foster")  # inherited
    page = render("whist/hoyle", fmt="html")
    assert "Family of play: trick" in page


def test_the_site_index_groups_the_games_by_family():
    from academie.site import _index

    games = [
        (cid, cid.upper(), {"min": 2, "max": 4}, [], f"rules-{cid.replace('/', '--')}.html")
        for cid in ("hoc/encyclopedie", "whist/hoyle", "zz/none")
    ]
    families = {"hoc/encyclopedie": "stops", "whist/hoyle": "trick", "zz/none": None}
    page = _index(games, [], [], {}, families=families)
    trick, stops, none = (page.index(f'id="family-{f}"') for f in ("trick", "stops", "none"))
    assert trick < page.index("WHIST/HOYLE") < stops < page.index("HOC/ENCYCLOPEDIE") < none
    assert none < page.index("ZZ/NONE")
    assert '<a href="#family-trick">trick</a> (1)' in page


ROOT = Path(__file__).resolve().parent.parent


def test_the_language_doc_gives_each_family_its_meaning():
    doc = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for name, meaning in FAMILIES.items():
        assert f"| `{name}` | {meaning} |" in doc, name


def test_the_readme_puts_each_game_it_names_under_its_family():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z-]+) \| (.*) \|$", readme, re.M)
    named = {cid: fam for fam, games in rows if fam in FAMILIES for cid in re.findall(r"`([a-z-]+/[a-z-]+)`", games)}
    assert set(named) >= TRICK | STOPS
    for cid, fam in named.items():
        assert resolve(cid).data.get("family") == fam, cid
