"""The site as people read it: no install path on any page (rule files named
by their path in the corpus, whatever the working folder), sources dated on
the index, every pair of variants of a game compared (options too), a replay
page per game, and every page fitting a 390-px phone screen."""

import itertools
import os
import shutil
from pathlib import Path

import pytest

from academie.dsl.loader import corpus_ids, corpus_root, resolve, source_ids
from academie.site import build, page_name


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    elsewhere = tmp_path_factory.mktemp("cwd")
    here = os.getcwd()
    os.chdir(elsewhere)  # not the checkout: a path relative to it would show the install path
    try:
        build(out)
    finally:
        os.chdir(here)
    return out


def test_no_page_says_where_the_corpus_is_installed(site):
    root = str(corpus_root().resolve())
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert root not in text and "site-packages" not in text and str(Path.home()) not in text, page.name
    boussac = (site / page_name("source", "boussac-1896")).read_text(encoding="utf-8")
    assert "cited by polignac/boussac.yaml:" in boussac


def test_the_index_dates_the_sources(site):
    index = (site / "index.html").read_text(encoding="utf-8")
    assert ">1896</td>" in index and "(1800 (Lacombe)" in index  # the sources table, the games' sources
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in index


def test_every_pair_of_variants_of_a_game_is_compared(site):
    by_game = {}
    for cid in corpus_ids():
        opts = sorted(resolve(cid).data.get("options") or {})
        by_game.setdefault(cid.split("/")[0], []).extend([cid] + [f"{cid}+{o}" for o in opts])
    index = (site / "index.html").read_text(encoding="utf-8")
    expected = [(a, b) for v in by_game.values() for a, b in itertools.combinations(v, 2)]
    assert len(expected) > 1
    for a, b in expected:
        name = page_name("compare", f"{a}-{b}")
        assert (site / name).is_file(), name
        assert f'href="{name}"' in index
    assert (site / page_name("compare", "hearts/foster-hearts/foster+sweepstakes")).is_file()


def test_a_replay_page_per_game_with_its_rules_explained(site):
    index = (site / "index.html").read_text(encoding="utf-8")
    for cid in corpus_ids():
        name = page_name("replay", cid)
        page = (site / name).read_text(encoding="utf-8")
        assert f'href="{name}"' in index
        tricks = any((st or {}).get("kind") == "tricks" for st in (resolve(cid).data.get("hand") or {}).values())
        first = "Hand 1, trick 1" if tricks else "Hand 1"  # a game of no tricks (vying) steps by hand
        assert first in page and 'href="#step2"' in page and 'id="step2"' in page
        if " pays " in page:  # a payment: the rule that made it, in its source's words
            assert "<details" in page and "<blockquote>" in page
        assert "<script" not in page
    enfle = (site / page_name("replay", "enfle/academie")).read_text(encoding="utf-8")
    assert "Before each hand, each of the players puts one of his chips into a pot" in enfle
    assert " pays " in enfle and "<details" in enfle
    assert '<span class="ev-seat">' in enfle and ".ev-seat{font-weight:bold}" in enfle  # seats styled as served


CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)), None)


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
def test_every_page_fits_a_phone(site):
    from playwright.sync_api import sync_playwright

    wide = []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = b.new_page(viewport={"width": 390, "height": 844})
        for f in sorted(site.glob("*.html")):
            page.goto(f.as_uri())
            w = page.evaluate("document.documentElement.scrollWidth")
            if w > 390:
                wide.append((f.name, w))
        b.close()
    assert wide == []
    assert len(list(site.glob("*.html"))) > len(corpus_ids()) * 2 + len(source_ids())  # every page was tried
