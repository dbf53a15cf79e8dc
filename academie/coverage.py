"""``academie coverage``: which sentences of each source text the corpus cites.

A source text is split into units (``citations.sentences``: sentences, list
lines, headings). A unit is covered when a quote of some rule file overlaps
it (after normalisation, see ``citations``). Units that begin with one of the
source's ``not_rules:`` prefixes (its metadata) state no rule: they are
reported apart and do not count, nor do headings.
"""

from __future__ import annotations

from pathlib import Path

from .citations import Span, normalise, sentences
from .dsl.errors import RuleError, shown
from .dsl.loader import corpus_ids, find_rules, load_yaml, source_ids, sources_root
from .validate import quotes, source_meta, source_text


def corpus_quotes(rule_files: list[Path] | None = None) -> dict[str, list[tuple[str, Span]]]:
    """source id -> [(where "file:line:col", Span in the source)] for every
    quote of the rule files that is found in its source."""
    if rule_files is None:
        rule_files = [find_rules(cid)[0] for cid in corpus_ids()]
    out: dict[str, list] = {}
    for path in rule_files:
        try:
            data, positions = load_yaml(path.read_bytes(), str(path))
        except (RuleError, OSError):
            continue  # validate reports it
        if not isinstance(data, dict):
            continue
        for q in quotes(data):
            if q.source is None:
                continue
            text = source_text(q.source)
            span = text.find(q.text) if text is not None else None
            if span is None:
                continue
            pos = positions.get(q.path)
            where = f"{_display(Path(pos.file))}:{pos.line}:{pos.col}" if pos else _display(path)
            out.setdefault(q.source, []).append((where, span))
    return out


def coverage(sources: list[str] | None = None, rule_files: list[Path] | None = None) -> list[dict]:
    """One report per source: its units, who cites each, the share covered."""
    sids = sources or sorted(source_ids())
    cited = corpus_quotes(rule_files)
    reports = []
    for sid in sids:
        meta = source_meta(sid)
        text = source_text(sid)
        if text is None:
            reports.append({"source": sid, "title": meta.get("title", sid), "error": "no readable text"})
            continue
        prefixes = [normalise(str(p)) for p in (meta.get("not_rules") or [])]
        units = []
        counts = {"covered": 0, "uncovered": 0, "not_rule": 0, "heading": 0}
        for u in sentences(text.text):
            by = sorted({w for w, span in cited.get(sid, []) if span.overlaps(u.span)}, key=_where_key)
            norm = normalise(u.text)
            if u.kind == "heading":
                status = "heading"
            elif any(norm.startswith(p) for p in prefixes if p):
                status = "not_rule"
            elif by:
                status = "covered"
            else:
                status = "uncovered"
            counts[status] += 1
            units.append(
                {
                    "line": text.text.count("\n", 0, u.span.start) + 1,
                    "text": " ".join(u.text.split()),
                    "status": status,
                    "cited_by": by,
                }
            )
        countable = counts["covered"] + counts["uncovered"]
        reports.append(
            {
                "source": sid,
                "title": meta.get("title", sid),
                "text": _display(sources_root() / str(meta.get("text") or f"{sid}.txt")),
                "sentences": countable,
                "covered": counts["covered"],
                "uncovered": counts["uncovered"],
                "not_rules": counts["not_rule"],
                "headings": counts["heading"],
                "share": round(counts["covered"] / countable, 4) if countable else None,
                "units": units,
            }
        )
    return reports


def _display(p: Path) -> str:
    """A file of the corpus by its place in the project (rules/…, sources/…), wherever
    the package is installed; another file relative to the working directory if it is under it."""
    if shown(str(p)) != str(p):
        return shown(str(p))
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def _where_key(w: str):
    parts = w.rsplit(":", 2)
    try:
        return (parts[0], int(parts[1]), int(parts[2]))
    except (IndexError, ValueError):
        return (w, 0, 0)


def format_text(reports: list[dict], every: bool = False) -> str:
    lines = []
    for r in reports:
        if "error" in r:
            lines.append(f"{r['source']}: {r['error']}")
            continue
        share = "n/a" if r["share"] is None else f"{r['share']:.0%}"
        lines.append(
            f"{r['source']} ({r['title']}): {r['covered']} of {r['sentences']} sentences cited "
            f"({share}); {r['not_rules']} not rules, {r['headings']} headings"
        )
        for u in r["units"]:
            if u["status"] == "uncovered":
                lines.append(f"  uncovered  {r['text']}:{u['line']}: {_clip(u['text'])}")
            elif every and u["status"] == "covered":
                lines.append(f"  cited      {r['text']}:{u['line']}: {_clip(u['text'])}")
                for w in u["cited_by"]:
                    lines.append(f"               by {w}")
            elif every:
                label = "not a rule" if u["status"] == "not_rule" else "heading"
                lines.append(f"  {label:<10} {r['text']}:{u['line']}: {_clip(u['text'])}")
    return "\n".join(lines)


def _clip(s: str, n: int = 100) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"
