"""``academie render``: a rule file written back as rules a person can follow.

The statements of ``describe`` are grouped in the order of a rule book
(players and cards, the deal, the play, the end, the scoring) and written by
jinja2 templates (``academie/templates/``). Every statement carries a footnote
with its source passages (source title + quote); an editorial choice is marked
``[editorial]`` in the text and its reason and evidence are in the footnote.
"""

from __future__ import annotations

import html as _html
import re
from functools import lru_cache

import jinja2
from markupsafe import Markup

from .describe import Statement, cites_of, editorial_of, describe
from .dsl.families import FAMILIES
from .dsl.loader import Doc, resolve
from .dsl.model import compile_doc
from .validate import source_meta

# rule-book chapters: (title, aspects)
CHAPTERS = [
    ("Players and cards", ("players", "pack", "orders", "direction")),
    ("The deal", ("dealing",)),
    ("The play", ("play",)),
    ("The end", ("end", "game")),
    ("The scoring", ("scoring",)),
]


@lru_cache(maxsize=None)
def source_title(sid: str | None) -> str:
    if sid is None:
        return "(no source)"
    return str(source_meta(sid).get("title") or sid)


def short_cite(sid: str | None) -> str:
    """A note's citation of a source: "Author year, p. N" (academie/bibliography.py)."""
    from .bibliography import short

    return short(sid)


def full_entry(sid: str, url: bool = True) -> str:
    """A source's full bibliography entry, given once under Sources (``url``: with
    its address; a self-contained page leaves it out)."""
    from .bibliography import full

    return full(sid, url)


@lru_cache(maxsize=1)
def env() -> jinja2.Environment:
    e = jinja2.Environment(
        loader=jinja2.PackageLoader("academie", "templates"),
        autoescape=jinja2.select_autoescape(["html.j2"]),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    e.filters["md"] = md_escape
    e.filters["codehtml"] = code_html
    e.filters["source_title"] = source_title
    e.filters["short_cite"] = short_cite
    e.filters["full_entry"] = full_entry
    e.filters["oneline"] = lambda s: " ".join(str(s).split())
    return e


def md_escape(s: str) -> str:
    """Keep a quote from being read as Markdown markup (its text stays verbatim)."""
    return re.sub(r"([\\*_\[\]<>|])", r"\\\1", " ".join(str(s).split()))


def code_html(s: str) -> Markup:
    """A statement's text as HTML: escaped, `expressions` in <code>."""
    parts = re.split(r"(`[^`]*`)", s)
    out = []
    for p in parts:
        if p.startswith("`") and p.endswith("`") and len(p) >= 2:
            out.append(f"<code>{_html.escape(p[1:-1])}</code>")
        else:
            out.append(_html.escape(p))
    return Markup("".join(out))


def chapters(statements: list[Statement]) -> list[dict]:
    """The statements for reading, in rule-book chapters, numbered for footnotes."""
    out, n = [], 0
    for title, aspects in CHAPTERS:
        items = []
        for s in statements:
            if s.aspect in aspects and s.only != "compare":
                n += 1
                items.append({"n": n, "s": s})
        if items:
            out.append({"title": title, "items": items})
    return out


def context(doc: Doc, statements: list[Statement] | None = None) -> dict:
    statements = statements if statements is not None else describe(doc, compile_doc(doc))
    d = doc.data
    return {
        "id": doc.id,
        "title": d.get("title", doc.id),
        "summary": " ".join(str(d.get("summary", "")).split()),
        "family": d.get("family"),
        "family_meaning": FAMILIES.get(d.get("family") or "", ""),
        "options": list(doc.options),
        "available": sorted(d.get("options") or {}),
        "option_text": {k: (v or {}).get("description", "") for k, v in (d.get("options") or {}).items()},
        "option_cites": {k: cites_of(doc, ("options", k), v or {}) for k, v in (d.get("options") or {}).items()},
        "option_eds": {k: editorial_of(v or {}) for k, v in (d.get("options") or {}).items()},
        "option_with": {k: list((v or {}).get("with") or []) for k, v in (d.get("options") or {}).items()},
        "chapters": chapters(statements),
        "sources": [(s, source_title(s)) for s in doc.sources()],
        "extends": _extends(doc),
    }


def _extends(doc: Doc) -> list[str]:
    from .dsl.loader import id_of
    from pathlib import Path

    return [id_of(Path(f)) for f in doc.chain[1:]]


def render(ref: str, options=(), fmt: str = "md", links: dict | None = None, limits=None) -> str:
    """The rules of ``ref`` (with ``options``) as Markdown or an HTML page.
    ``links``: for the site, source id -> relative URL of its page. The text
    may hold the rule file's control characters: print it through
    ``dsl.text.safe``."""
    doc = resolve(ref, tuple(options), limits)
    ctx = context(doc)
    if fmt == "md":
        return env().get_template("rules.md.j2").render(**ctx)
    return (
        env()
        .get_template("page.html.j2")
        .render(body=rules_html(ctx, links or {}), title=ctx["title"], css=CSS, nav=None)
    )


def rules_html(ctx: dict, links: dict) -> Markup:
    return Markup(env().get_template("rules.html.j2").render(links=links, **ctx))


CSS = """
body{font-family:Georgia,serif;max-width:62em;margin:1.5em auto;padding:0 1em;color:#222;line-height:1.45;overflow-wrap:break-word}
h1,h2,h3{font-family:Helvetica,Arial,sans-serif}
code{background:#f2f0ea;padding:0 .2em;font-size:90%}
.editorial{color:#8a4b00;font-weight:bold;font-size:85%}
ol.notes{font-size:90%;color:#333}
blockquote{margin:.2em 0 .2em 1em;border-left:3px solid #ccc;padding-left:.6em}
table{border-collapse:collapse;margin:.5em 0} td,th{border:1px solid #ccc;padding:.25em .5em;vertical-align:top}
th{background:#f4f4f4;text-align:left}
.same{color:#555} .diff td{background:#fffaf0}
mark{background:#fde68a} .uncovered{background:#fde2e2} .notrule{color:#777}
nav a{margin-right:1em} .small{font-size:85%;color:#555}
img{max-width:100%}
.ev-seat{font-weight:bold} .ev-card{font-family:DejaVu Sans,sans-serif} .ev-card.red{color:#c00000}
ul.details{margin:0;padding-left:1.4em;list-style:none;font-size:90%;color:#555}
"""
# The narration's spans (academie/narrate_front.py ``html``: a seat, a card, a red card, a deal's hands)
# look as on the web page (serve/static/style.css); a long word (a log's path in a replay's title)
# breaks rather than widen the page past a phone's screen. No quote or angle bracket in CSS: the page
# template escapes it when it is given as a plain string (academie replay --html).
