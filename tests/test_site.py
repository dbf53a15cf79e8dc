"""``academie site``: every page written, every link resolving (a pure-Python
checker, always run), and every page loading in headless Chromium without a
console message (skipped, saying why, when Chromium is not installed)."""

import html
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from academie.dsl.loader import corpus_ids, source_ids
from academie.site import build, page_name


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for k in ("href", "src"):
            if a.get(k) is not None:
                self.links.append(a[k])


def parse(path: Path) -> _Links:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def check_links(root: Path) -> list[str]:
    """Every href and src of every page: a data: URL, or a relative link to a
    file of the site (and to an id of that page when it has a fragment)."""
    problems, parsed = [], {}
    pages = sorted(root.glob("*.html"))
    for page in pages:
        parsed[page.name] = parse(page)
    for page in pages:
        for link in parsed[page.name].links:
            if link.startswith("data:"):
                continue
            u = urlsplit(link)
            if u.scheme or u.netloc or link.startswith("/"):
                problems.append(f"{page.name}: not a relative link: {link}")
                continue
            target = (page.parent / unquote(u.path)).resolve() if u.path else page.resolve()
            if not target.is_file():
                problems.append(f"{page.name}: broken link {link}")
                continue
            if u.fragment:
                ids = parsed.get(target.name).ids if target.name in parsed else parse(target).ids
                if u.fragment not in ids:
                    problems.append(f"{page.name}: no id '{u.fragment}' in {target.name}")
    return problems


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    build(out)
    return out


def test_pages(site):
    names = {p.name for p in site.glob("*.html")}
    assert "index.html" in names
    for cid in corpus_ids():
        assert page_name("rules", cid) in names
    for sid in source_ids():
        assert page_name("source", sid) in names
    assert page_name("compare", "enfle/academie-enfle/foster") in names
    index = (site / "index.html").read_text()
    for cid in corpus_ids():
        assert f'href="{page_name("rules", cid)}"' in index


def test_the_index_groups_the_games_by_family(site):
    """The index heads the games of each family of play, in the fixed order, each game under its own."""
    from academie.dsl.families import FAMILIES
    from academie.dsl.loader import resolve

    index = (site / "index.html").read_text()
    heads = {m.group(1): m.start() for m in re.finditer(r'<h3 id="family-([a-z-]+)"', index)}
    assert list(heads)[:2] == ["trick", "stops"]
    assert list(heads) == sorted(heads, key=list(FAMILIES).index)
    for cid in corpus_ids():
        at = index.index(f'href="{page_name("rules", cid)}"')
        under = max((h for h in heads.values() if h < at), default=-1)
        assert under == heads[resolve(cid).data["family"]], cid


def test_every_link_resolves(site):
    assert check_links(site) == []


def test_the_checker_finds_a_broken_link(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html">b</a><a href="#x">x</a><a href="http://e.org">e</a>')
    problems = check_links(tmp_path)
    assert any("broken link b.html" in p for p in problems)
    assert any("no id 'x'" in p for p in problems)
    assert any("not a relative link" in p for p in problems)


def test_source_page_highlights_and_marks(site):
    page = (site / page_name("source", "enfle-jeux-oublies")).read_text()
    assert "<mark" in page and "cited by" in page
    assert "L&#x27;Enflé is played by four to eight players" in page or "L'Enflé is played by four" in page
    assert 'class="uncovered"' in page or 'class="notrule"' in page
    assert 'href="rules-enfle--academie.html"' in page


def test_bibliography_and_side_by_side_pages(site):
    bib = (site / "bibliography.html").read_text()
    assert "Boussac 1896, pp. 184–186" in bib and 'href="source-boussac-1896.html"' in bib
    side = (site / page_name("variants", "enfle")).read_text()
    assert 'href="rules-enfle--academie.html"' in side and 'href="rules-enfle--foster.html"' in side
    assert "<code>orders.play</code>" in side
    assert 'href="bibliography.html"' in (site / "index.html").read_text()


def test_rule_page_footnotes_link_to_sources(site):
    page = (site / page_name("rules", "enfle/foster")).read_text()
    assert 'href="source-foster-hoyle.html"' in page and 'href="#n1"' in page


CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
]


def load(page: Path) -> tuple[int, str, list[str]]:
    """Load a page in headless Chromium: (exit status, DOM, console messages)."""
    with tempfile.TemporaryDirectory() as profile:
        r = subprocess.run(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.resolve().as_uri()],
            capture_output=True,
            text=True,
            timeout=120,
        )
    console = [ln for ln in r.stderr.splitlines() if ":CONSOLE" in ln or "Uncaught" in ln]
    return r.returncode, r.stdout, console


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (apt-get install chromium): "
    "the site is not loaded in a real browser; the link checker still runs",
)
def test_every_page_loads_in_chromium(site, tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text("<html><body><script>undefinedFunction()</script></body></html>")
    _, _, console = load(bad)
    assert console, "the console check sees nothing: it would miss errors"
    pages = sorted(site.glob("*.html"))
    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(load, pages))
    for page, (code, dom, console) in zip(pages, results):
        assert code == 0, page.name
        title = html.unescape(re.search(r"<title>(.*?)</title>", page.read_text(), re.S).group(1))
        assert title in html.unescape(dom), page.name
        assert "<body>" in dom and "</html>" in dom
        assert console == [], f"{page.name}: {console}"
