"""``academie site OUTDIR``: a static site of the whole corpus, opened from
the file system (every link relative, every page self-contained, no script).

* ``index.html``: the games and variants grouped by family of play (trick, stops, vying, …, in
  the order of ``dsl/families.py``), the sources, the comparisons;
* ``rules-ID.html``: a rule file rendered as rules, each statement footnoted,
  each footnote linking to the source's page;
* ``source-ID.html``: a source text, the passages the rule files cite
  highlighted (spans of ``citations``), the sentences nobody cites marked
  (``coverage``);
* ``compare-ID-ID.html``: every pair of variants of each game compared, in
  the rules only: the rule files with the same first path part, each alone
  and with each of its options (``hearts/foster`` and
  ``hearts/foster+sweepstakes``);
* ``replay-ID.html``: one hand of each game played by random players, step
  by step (a section per trick, reached by links), every rule that acted
  opening on its source's words;
* ``variants-GAME.html``: the variants of each game beside every statement of
  their sources (``academie.variants``);
* ``bibliography.html``: every source as a bibliography entry.

Nothing on a page says where the corpus is installed: a rule file is named
by its path in the corpus (``polignac/boussac.yaml:14:8``). The index gives
each source's date, and the pages fit a phone's screen (390 px).
"""

from __future__ import annotations

import html
import itertools
import re
from pathlib import Path

from markupsafe import Markup

from .compare_rules import load_side, rules_diff
from .compare_html import body as compare_body
from .coverage import corpus_quotes, coverage
from .dsl.families import FAMILIES, family_heading, family_rank
from .dsl.loader import corpus_ids, corpus_root, resolve, source_ids
from .dsl.model import compile_doc
from .interpreter.agents import make_agents
from .interpreter.state import State
from .serve.replay import html_body as replay_body
from .validate import source_meta
from .dsl.text import safe
from .outputs import atomic_folder
from .citations import sentences
from .render import CSS, context, env, rules_html, source_title
from .validate import source_text
from .variants import body as variants_body


def page_name(kind: str, ident: str) -> str:
    return f"{kind}-{ident.replace('/', '--')}.html"


# what the site adds to the pages' style: wide tables scroll inside the page, long names break
SITE_CSS = """
@media (max-width:700px){table{display:block;max-width:100%;overflow-x:auto}}
body{overflow-wrap:break-word}
td:first-child{white-space:nowrap}
nav.toc ol{columns:2 14em}
section.step{border-top:1px solid #ddd;margin-top:1em}
.stepnav a{margin-right:1em}
details.rule{display:inline} details.rule summary{display:inline;cursor:pointer;color:#8a4b00;font-weight:bold}
cite{display:block;margin-left:1em;font-size:85%;color:#555}
.debt{text-decoration:underline dotted #b45309;color:#7c2d12}
@media (max-width:480px){
body{margin:.5em auto;padding:0 .5em}
table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;border:0}
table.cards tr:first-child{display:none}
table.cards tr{border:1px solid #ccc;margin:.4em 0;padding:.2em}
table.cards td{padding:.1em .3em}
table.cards td::before{content:attr(data-label) ": ";color:#555;font-size:85%}
}
"""


def _write(out: Path, name: str, title: str, body: str) -> None:
    nav = [("index.html", "All games and sources")]
    text = (
        env().get_template("page.html.j2").render(title=title, css=Markup(CSS + SITE_CSS), nav=nav, body=Markup(body))
    )
    (out / name).write_text(safe(text), encoding="utf-8")


def build(outdir: str | Path) -> list[str]:
    """Write the site; return the names of the pages written. The pages are
    built in a temporary folder inside OUTDIR and moved into it only when all
    are built (academie.outputs.atomic_folder): a failed build changes nothing."""
    with atomic_folder(outdir) as stage:
        return _build(stage)


def _build(out: Path) -> list[str]:
    ids = corpus_ids()
    sids = sorted(source_ids())
    links = {s: page_name("source", s) for s in sids}
    reports = {r["source"]: r for r in coverage(sids)}
    pages = []
    games = []
    families: dict[str, str | None] = {}  # rule file -> its family of play
    for cid in ids:
        doc = resolve(cid)
        ctx = context(doc)
        name = page_name("rules", cid)
        _write(out, name, ctx["title"], str(rules_html(ctx, links)) + _debts_html(doc.sources(), reports, links))
        pages.append(name)
        games.append((cid, ctx["title"], doc.data.get("players") or {}, doc.sources(), name))
        families[cid] = doc.data.get("family")
    # comparisons: every pair of the variants of each game (its rule files, each with each option)
    by_game: dict[str, list[str]] = {}
    for cid in ids:
        opts = sorted((resolve(cid).data.get("options") or {}))
        by_game.setdefault(cid.split("/")[0], []).extend([cid] + [f"{cid}+{o}" for o in opts])
    comparisons = []
    for game, variants in sorted(by_game.items()):
        for a, b in itertools.combinations(variants, 2):
            sa, sb = load_side(a), load_side(b)
            name = page_name("compare", f"{a}-{b}")
            _write(out, name, f"{a} and {b}", compare_body(sa, sb, rules_diff(sa, sb)))
            pages.append(name)
            comparisons.append((a, b, name))
    files_by_game: dict[str, list[str]] = {}
    for cid in ids:
        files_by_game.setdefault(cid.split("/")[0], []).append(cid)
    for game, variants in sorted(files_by_game.items()):
        name = page_name("variants", game)
        rule_links = {v: page_name("rules", v) for v in variants}
        _write(out, name, f"{game}: the sources side by side", variants_body(game, variants, links, rule_links))
        pages.append(name)
    _write(out, "bibliography.html", "Bibliography", _bibliography(sids, links))
    pages.append("bibliography.html")
    # a hand of each game, step by step
    replays = []
    for cid in ids:
        name = page_name("replay", cid)
        got = _replay(cid)
        if got is None:
            continue
        title, body = got
        _write(out, name, title, body)
        pages.append(name)
        replays.append((cid, name))
    # sources
    cited = {sid: [(_corpus_where(w), span) for w, span in quotes] for sid, quotes in corpus_quotes().items()}
    for sid in sids:
        name = links[sid]
        _write(out, name, source_title(sid), _source_body(sid, cited.get(sid, []), reports.get(sid, {}), games))
        pages.append(name)
    _write(
        out,
        "index.html",
        "academie: the corpus",
        _index(games, sids, comparisons, reports, sorted(files_by_game), replays, families),
    )
    pages.append("index.html")
    return pages


DEBT_LABEL = {"variant-not-encoded": "variant not encoded", "cannot-express": "cannot express"}


def _debts_html(srcs, reports, links) -> str:
    """The debts of the sources a rule file cites: the rules they state that no rule file plays
    (variant not encoded) or that the rule language cannot express, each with its reason."""
    e = html.escape
    rows = []
    for sid in srcs:
        for u in (reports.get(sid) or {}).get("debts", []):
            rows.append(
                f'<tr><td data-label="source"><a href="{links.get(sid, "")}">{e(sid)}</a></td>'
                f'<td data-label="debt">{e(DEBT_LABEL.get(u["kind"], u["kind"]))}</td>'
                f'<td data-label="sentence">“{e(u["text"])}”</td><td data-label="why">{e(u["why"])}</td></tr>'
            )
    head = (
        "<section class='debts' id='debts'><h2>Debts of its sources</h2>"
        "<p class='small'>Rules the sources cited here state and no rule file plays: a variant not encoded, "
        "or a rule the rule language cannot express (the ledger of each source, <code>academie coverage</code>).</p>"
    )
    open_ = [(sid, (reports.get(sid) or {}).get("unaccounted", 0)) for sid in srcs]
    open_ = [(sid, n) for sid, n in open_ if n]
    tail = ""
    if open_:
        tail = (
            "<p>Not accounted for yet (neither cited nor listed, so neither known to be played nor known to be a "
            "debt): "
            + ", ".join(f'<a href="{links.get(sid, "")}">{e(sid)}</a> {n} sentence{"s" * (n != 1)}' for sid, n in open_)
            + ".</p>"
        )
    if not rows:
        return head + ("<p>None listed.</p>" if open_ else "<p>None.</p>") + tail + "</section>"
    return (
        head
        + "<table class='cards'><tr><th>source</th><th>debt</th><th>sentence</th><th>why</th></tr>"
        + "".join(rows)
        + "</table>"
        + tail
        + "</section>"
    )


def _corpus_where(where: str) -> str:
    """``FILE:LINE:COL`` with FILE as its path in the corpus (``polignac/boussac.yaml``),
    wherever the corpus is installed and whatever the working folder."""
    m = re.fullmatch(r"(.*?)((?::\d+){2})?", where, re.S)
    file, at = (m.group(1), m.group(2) or "") if m else (where, "")
    if file.startswith("rules/"):  # a corpus file by its place in the project (coverage names it so)
        return file.removeprefix("rules/") + at
    try:
        rel = Path(file).resolve().relative_to(corpus_root().resolve()).as_posix()
    except (ValueError, OSError):
        rel = Path(file).name
    return rel + at


def _replay(cid: str) -> tuple[str, str] | None:
    """One hand of ``cid`` by random players (the fewest the rules allow, seed 1), as a replay page."""
    doc = resolve(cid)
    if doc.data.get("abstract"):
        return None
    game = compile_doc(doc)
    n = game.min_players
    st = State(game, n, 1, hands=1, keep_events=True, check="hand")
    st.run_with(make_agents(["random"], n, 1))
    title = f"{game.title} ({cid}): a hand, step by step"
    note = (
        f"{n} random players, seed 1, one hand (academie play {cid} -p {n} -s 1 --hands 1 --log LOG, "
        f"then academie replay LOG {cid}). § opens the rule that acted, in its source's words."
    )
    return title, replay_body(title, st.events or [], doc, note)


def _date(sid: str) -> str:
    m = source_meta(sid)
    return str(m.get("date_text") or m.get("date") or "")


def _bibliography(sids, links) -> str:
    from .bibliography import KIND_WORDS, KINDS, full, short
    from .validate import source_meta

    e = html.escape
    rows = ["<h1>Bibliography</h1>", "<p>Every text the rule files cite, by kind of text.</p>"]
    for kind in KINDS:
        group = [s for s in sids if source_meta(s).get("kind") == kind]
        if group:
            rows.append(f"<h2>{e(KIND_WORDS[kind].capitalize())}s</h2><ul>")
            rows += [
                f'<li id="{e(s)}"><a href="{links[s]}"><b>{e(short(s))}</b></a>. {e(full(s, url=False))}</li>'
                for s in group
            ]
            rows.append("</ul>")
    return "\n".join(rows)


def _index(games, sids, comparisons, reports, game_names=(), replays=(), families=None) -> str:
    e = html.escape
    families = families or {}
    rows = [
        "<h1>academie: the corpus</h1>",
        "<p>Historical card-game rules as cited, executable data. Each game below is written back as rules, "
        "every statement footnoted with its source passage.</p>",
        "<h2>Games and variants</h2>",
    ]
    groups: dict = {}
    for g in sorted(games, key=lambda g: family_rank(families.get(g[0]))):  # stable: by id within a family
        groups.setdefault(families.get(g[0]), []).append(g)
    rows.append(
        "<p>By family of play: "
        + ", ".join(
            f'<a href="#family-{e(f or "none")}">{e(f or "no family")}</a> ({len(g)})' for f, g in groups.items()
        )
        + ".</p>"
    )
    for family, group in groups.items():
        rows.append(f'<h3 id="family-{e(family or "none")}">{e(family_heading(family).capitalize())}</h3>')
        if family in FAMILIES:
            rows.append(f"<p class='small'>{e(FAMILIES[family].capitalize())}.</p>")
        rows.append(_games_table(group))
    if replays:
        rows.append("<h2>A hand of each game, step by step</h2><ul>")
        rows += [f'<li><a href="{n}">{e(cid)}</a></li>' for cid, n in replays]
        rows.append("</ul>")
    if comparisons:
        rows.append("<h2>Variants compared</h2><ul>")
        rows += [f'<li><a href="{n}">{e(a)} and {e(b)}</a></li>' for a, b, n in comparisons]
        rows.append("</ul>")
    if game_names:
        rows.append("<h2>Sources side by side</h2><ul>")
        rows += [f'<li><a href="{page_name("variants", g)}">{e(g)}</a></li>' for g in game_names]
        rows.append("</ul>")
    rows.append('<p><a href="bibliography.html">Bibliography</a></p>')
    rows.append(
        "<h2>Sources</h2><table class='cards'><tr><th>source</th><th>title</th><th>date</th><th>sentences cited</th>"
        "<th>accounted for</th></tr>"
    )
    for sid in sids:
        r = reports.get(sid, {})
        share = f"{r['covered']} of {r['sentences']}" if "sentences" in r else "n/a"
        accounted = f"{r['accounted']} of {r['total']}" if "total" in r else "n/a"
        rows.append(
            f'<tr><td data-label="source"><a href="{page_name("source", sid)}">{e(sid)}</a></td>'
            f'<td data-label="title">{e(source_title(sid))}</td>'
            f'<td data-label="date">{e(_date(sid))}</td><td data-label="sentences cited">{share}</td>'
            f'<td data-label="accounted for">{accounted}</td></tr>'
        )
    rows.append("</table>")
    return "\n".join(rows)


def _games_table(games) -> str:
    """A table of rule files: each linked to its rules, with its title, players and sources (dated)."""
    e = html.escape
    rows = ["<table class='cards'><tr><th>rule file</th><th>title</th><th>players</th><th>sources (date)</th></tr>"]
    for cid, title, players, srcs, name in games:
        rows.append(
            f'<tr><td data-label="rule file"><a href="{name}">{e(cid)}</a></td><td data-label="title">{e(title)}</td>'
            f"<td data-label='players'>{players.get('min')}–{players.get('max')}</td><td data-label='sources'>"
            + ", ".join(
                f'<a href="{page_name("source", s)}">{e(s)}</a>' + (f" ({e(_date(s))})" if _date(s) else "")
                for s in srcs
            )
            + "</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _source_body(sid, cited, report, games) -> str:
    e = html.escape
    text = source_text(sid)
    parts = [
        f"<h1>{e(source_title(sid))}</h1>",
        f"<p class='small'>source <code>{e(sid)}</code>. "
        "<mark>Highlighted</mark>: passages the rule files cite (hover for where). "
        "<span class='uncovered'>Marked</span>: sentences not accounted for (no rule file cites them, and the "
        "source's metadata does not list them). <span class='notrule'>Grey</span>: sentences the metadata lists "
        "as stating no rule to play (hover for the kind and why). <span class='debt'>Underlined</span>: debts, "
        "rules no rule file plays.</p>",
    ]
    users = [(cid, name) for cid, _, _, srcs, name in games if sid in srcs]
    if users:
        parts.append("<p>Cited by: " + ", ".join(f'<a href="{n}">{e(c)}</a>' for c, n in users) + "</p>")
    if "total" in report:
        parts.append(
            f"<p>{report['accounted']} of {report['total']} sentences accounted for: {report['cited']} cited, "
            f"{report['listed']} listed, {report['headings']} headings; {report['unaccounted']} not accounted for.</p>"
        )
        if report["debts"]:
            parts.append(_debts_html([sid], {sid: report}, {sid: "#"}).replace("Debts of its sources", "Debts"))
    if text is None:
        parts.append("<p>(no readable text)</p>")
        return "\n".join(parts)
    raw = text.text
    # characters -> what covers them
    cls = [""] * len(raw)
    why_at: dict[int, str] = {}
    units = sentences(raw)
    for u, ru in zip(units, report.get("units", [])):
        if ru["status"] in ("unaccounted", "listed"):
            debt = ru.get("kind") in DEBT_LABEL
            c = "uncovered" if ru["status"] == "unaccounted" else ("debt" if debt else "notrule")
            for i in range(u.span.start, u.span.end):
                cls[i] = c
                if ru["status"] == "listed":
                    why_at[i] = f"{ru['kind']}: {ru['why']}"
    where_at: dict[int, set] = {}
    for where, span in cited:
        for i in range(span.start, span.end):
            cls[i] = "mark"
            where_at.setdefault(i, set()).add(where)
    out, i = [], 0
    while i < len(raw):
        j = i
        while (
            j < len(raw) and cls[j] == cls[i] and where_at.get(j) == where_at.get(i) and why_at.get(j) == why_at.get(i)
        ):
            j += 1
        seg = e(raw[i:j])
        if cls[i] == "mark":
            title = "; ".join(sorted(where_at.get(i, ())))
            out.append(f'<mark title="cited by {e(title)}">{seg}</mark>')
        elif cls[i] and i in why_at:
            out.append(f'<span class="{cls[i]}" title="{e(why_at[i])}">{seg}</span>')
        elif cls[i]:
            out.append(f'<span class="{cls[i]}">{seg}</span>')
        else:
            out.append(seg)
        i = j
    parts.append('<div style="white-space:pre-wrap">' + "".join(out) + "</div>")
    return "\n".join(parts)
