"""The variants of a game side by side with their sources: for each source
any variant cites, every statement (sentence) of its text, and in one column
per rule file the rule elements that cite it — so a reader sees where the
sources agree, where a variant follows one source and another variant
another, and what no variant encodes. A page of the site per game
(``variants-GAME.html``)."""

from __future__ import annotations

import html

from .citations import find_quote, normalise, sentences
from .dsl.loader import resolve
from .validate import source_meta, source_text


def _element(path: tuple) -> str:
    """Where a cite sits, as the element's dotted path ("hand.deal", "option capot")."""
    node = list(path[: path.index("cite")]) if "cite" in path else list(path)
    if node[:1] == ["options"] and len(node) >= 2:
        rest = [str(p) for p in node[3:]] if node[2:3] == ["set"] else []
        return f"option {node[1]}" + (": " + ".".join(rest) if rest else "")
    return ".".join(str(p) for p in node) or "(file)"


def table(variants: list[str]) -> list[dict]:
    """One entry per source the variants cite: its units, each with the
    elements of each variant that cite it."""
    docs = {v: resolve(v) for v in variants}
    sids = sorted({s for d in docs.values() for s in d.sources()})
    out = []
    for sid in sids:
        text = source_text(sid)
        if text is None:
            continue
        units = [u for u in sentences(text.text) if u.kind != "heading"]
        cells: list[dict[str, list[str]]] = [{v: [] for v in variants} for _ in units]
        for v, doc in docs.items():
            for cpath, src, quote in doc.cites():
                if src != sid or not isinstance(quote, str):
                    continue
                span = find_quote(text.text, quote)
                if span is None:
                    continue
                for i, u in enumerate(units):
                    if span.overlaps(u.span):
                        label = _element(cpath)
                        if label not in cells[i][v]:
                            cells[i][v].append(label)
        prefixes = [normalise(str(p)) for p in (source_meta(sid).get("not_rules") or [])]
        rows = []
        for u, c in zip(units, cells):
            norm = normalise(u.text)
            rows.append(
                {
                    "text": " ".join(u.text.split()),
                    "not_rule": any(norm.startswith(p) for p in prefixes if p),
                    "cited": c,
                }
            )
        out.append({"source": sid, "title": str(source_meta(sid).get("title") or sid), "rows": rows})
    return out


def body(game: str, variants: list[str], links: dict[str, str], rule_links: dict[str, str]) -> str:
    """The page's HTML body (escaped; every link relative)."""
    e = html.escape
    parts = [
        f"<h1>{e(game)}: the sources side by side</h1>",
        "<p class='small'>Each source any variant cites, statement by statement; in each variant's column, "
        "the rule elements that cite the statement. <span class='uncovered'>Marked</span>: no variant cites it; "
        "<span class='notrule'>grey</span>: the source's metadata says it states no rule.</p>",
    ]
    head = "".join(f'<th><a href="{rule_links[v]}">{e(v)}</a></th>' for v in variants)
    for entry in table(variants):
        sid = entry["source"]
        link = links.get(sid)
        name = f'<a href="{link}">{e(sid)}</a>' if link else e(sid)
        parts.append(f"<h2>{name}: {e(entry['title'])}</h2>")
        parts.append(f"<table><tr><th>statement of the source</th>{head}</tr>")
        for r in entry["rows"]:
            cited = any(r["cited"][v] for v in variants)
            cls = " class='notrule'" if r["not_rule"] else ("" if cited else " class='uncovered'")
            cols = "".join(
                "<td>" + ("<br>".join(f"<code>{e(x)}</code>" for x in r["cited"][v]) or "—") + "</td>" for v in variants
            )
            parts.append(f"<tr><td><span{cls}>{e(r['text'])}</span></td>{cols}</tr>")
        parts.append("</table>")
    return "\n".join(parts)
