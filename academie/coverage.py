"""``academie coverage``: the ledger of each source text — which of its sentences
the corpus cites, which its metadata lists and why, which are not accounted for.

A source text is split into units (``citations.sentences``: sentences, list
lines, headings). Each unit is *accounted for* when

* a quote of some rule file overlaps it (after normalisation, see ``citations``):
  it is **cited**; or
* it begins with the ``text`` of an entry of the source's ``not_rules:`` list
  (``sources/ID.yaml``), which says its ``kind`` and ``why``: it is **listed**; or
* ``citations.sentences`` found it to be a heading.

The kinds (``KINDS``) say what a listed sentence is. Two of them are debts of the
corpus, real rules that no rule file plays: ``variant-not-encoded`` (why it is not
encoded) and ``cannot-express`` (the construct the rule language lacks). A debt is
shown as a debt even where part of its sentence is cited. An entry written as a
plain string (the older form) is listed with kind ``unspecified``.

``academie validate`` fails on a sentence of a source it checks that is not
accounted for, except for the sources of ``LEDGER_PENDING``, tolerated up to their
recorded number of unaccounted sentences while their games are being reworked.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from .citations import Span, normalise, sentences
from .dsl.errors import Diagnostic, Pos, RuleError, shown
from .dsl.loader import corpus_ids, find_rules, load_yaml, source_ids, sources_root
from .validate import quotes, source_meta, source_text

# what a listed sentence is (the kind of a not_rules: entry)
KINDS: dict[str, str] = {
    "history": "the game's history, origin, name or players, or the source's own provenance",
    "commentary": "a judgement of the game or a description of its character, stating no rule",
    "strategy": "advice on how to play well, stating no rule",
    "example": "an example of a rule the file plays, stating no rule of its own",
    "another-game": "about another game (a comparison, a neighbouring article)",
    "editorial": "the editor's own words: notes, cross-references, announcements of what follows",
    "bibliography": "a reference, a title, an imprint, a page number",
    "glossary": "the definition of a term, stating no rule of its own (a term no rule uses, or one the rules cite "
    "where they use it)",
    "table-practice": "a custom or law of conduct at the table that changes nothing in the play where a program "
    "shuffles, deals, hides the hands and keeps the score (packs used in turn, seating, how cards are held, "
    "the words said, signals between partners)",
    "heading": "a heading, a title or a numbering the splitter did not take for one",
    "fragment": "a piece of a sentence cut off by the end of the stored excerpt",
    "law-of-errors": "a law of irregularities (misdeal, exposed card, revoke, play out of turn) that cannot "
    "happen where the cards are dealt and the legal moves offered by the program",
    "variant-not-encoded": "a rule of a variant no rule file plays (why: why it is not encoded)",
    "cannot-express": "a rule the rule language cannot express (why: the construct it lacks)",
    "unspecified": "an entry written as a plain string, without kind or reason (the older form)",
}
DEBTS = ("variant-not-encoded", "cannot-express")

# The sources whose games are being written or reworked, and those stored for games no rule file
# plays yet (issue 28, marked so): validate tolerates
# up to this many of their sentences not accounted for (one more, and each is an error); their
# not_rules: entries may still be plain strings. An entry is lowered as sentences are accounted for,
# and removed when its source is accounted for in full, its entries given their kind and why; once
# this is empty, every source of the corpus is accounted for (as every source of a rule file is
# now). tests/test_ledger.py checks that no
# source has more than recorded here, and no other source any, nor any plain-string entry.
LEDGER_PENDING: dict[str, int] = {}

# the schema of a source's metadata (sources/ID.yaml); other keys are allowed
_ENTRY = {
    "oneOf": [
        {"type": "string", "minLength": 1, "pattern": r"\S"},
        {
            "type": "object",
            "required": ["text", "kind", "why"],
            "additionalProperties": False,
            "properties": {
                "text": {"type": "string", "minLength": 1, "pattern": r"\S"},
                "kind": {"enum": [k for k in KINDS if k != "unspecified"]},
                "why": {"type": "string", "minLength": 8, "pattern": r"\S"},
            },
        },
    ]
}
SOURCE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["id", "title", "text", "language", "licence"],
    "properties": {
        "id": {"type": "string"},
        "title": {"type": "string"},
        "text": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]*\.txt$"},
        "language": {"type": "string"},
        "licence": {"type": "string"},
        "faults": {"type": "array", "items": {"type": "string"}},
        "not_rules": {"type": "array", "items": _ENTRY},
    },
}


def meta_path(sid: str) -> Path:
    return sources_root() / f"{sid}.yaml"


def check_source_meta(sid: str) -> list[Diagnostic]:
    """The schema of a source's metadata: each violation located in sources/ID.yaml."""
    import jsonschema

    p = meta_path(sid)
    try:
        meta, positions = load_yaml(p.read_bytes(), str(p))
    except OSError as e:
        return [Diagnostic(Pos(str(p), 0, 0), f"cannot read the source's metadata: {e.strerror}", code="io")]
    except RuleError as e:
        return list(e.diagnostics)
    out = []
    for err in sorted(jsonschema.Draft202012Validator(SOURCE_SCHEMA).iter_errors(meta), key=lambda e: str(e.path)):
        path = tuple(err.absolute_path)
        pos = None
        for cut in range(len(path), -1, -1):
            pos = positions.get(path[:cut])
            if pos is not None:
                break
        where = f" at {'.'.join(map(str, path))}" if path else ""
        if err.validator == "type" and isinstance(err.instance, dict):
            msg = f"{err.message} (a colon followed by a space makes a YAML mapping: put the text in quotes)"
        elif err.validator == "oneOf" and path[:1] == ("not_rules",):
            msg = (
                "a not_rules: entry is {text: the sentence's first words, kind: one of "
                f"{', '.join(k for k in KINDS if k != 'unspecified')}, why: the reason}} (or a plain string)"
            )
        else:
            msg = err.message
        out.append(Diagnostic(pos or Pos(str(p), 1, 1), f"source metadata{where}: {msg}", code="source-meta"))
    if isinstance(meta, dict) and meta.get("id") != sid:
        out.append(Diagnostic(Pos(str(p), 1, 1), f"source metadata: id: is not '{sid}'", code="source-meta"))
    return out


def ledger_entries(meta: dict) -> list[dict]:
    """The not_rules: entries as {text, kind, why, prefix (normalised)}: a plain string is kind unspecified."""
    out = []
    for e in meta.get("not_rules") or []:
        if isinstance(e, str):
            out.append({"text": e, "kind": "unspecified", "why": "", "prefix": normalise(e)})
        elif isinstance(e, dict) and isinstance(e.get("text"), str):
            out.append(
                {
                    "text": e["text"],
                    "kind": str(e.get("kind", "unspecified")),
                    "why": str(e.get("why", "")),
                    "prefix": normalise(e["text"]),
                }
            )
    return [e for e in out if e["prefix"]]


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
            if q.source is None or q.source not in source_ids():
                continue
            text = source_text(q.source)
            span = text.find(q.text) if text is not None else None
            if span is None:
                continue
            pos = positions.get(q.path)
            where = f"{_display(Path(pos.file))}:{pos.line}:{pos.col}" if pos else _display(path)
            out.setdefault(q.source, []).append((where, span))
    return out


@lru_cache(maxsize=1)
def _corpus_cited() -> dict[str, list[tuple[str, Span]]]:
    return corpus_quotes()


def coverage(
    sources: list[str] | None = None,
    rule_files: list[Path] | None = None,
    also: list[Path] | None = None,
) -> list[dict]:
    """One ledger per source: its units, who cites each or why it is listed, the
    counts. ``rule_files``: the files whose quotes count (default: the corpus);
    ``also``: files whose quotes count as well (a file being validated)."""
    sids = sources or sorted(source_ids())
    cited = {k: list(v) for k, v in (corpus_quotes(rule_files) if rule_files else _corpus_cited()).items()}
    if also:
        for k, v in corpus_quotes(also).items():
            cited.setdefault(k, []).extend(v)
    return [_ledger(sid, cited.get(sid, [])) for sid in sids]


def _ledger(sid: str, cited: list[tuple[str, Span]]) -> dict:
    meta = source_meta(sid)
    text = source_text(sid)
    if text is None:
        return {"source": sid, "title": meta.get("title", sid), "error": "no readable text"}
    file = sources_root() / str(meta.get("text") or f"{sid}.txt")
    entries = ledger_entries(meta)
    used = [False] * len(entries)
    units = []
    for u in sentences(text.text):
        by = sorted({w for w, span in cited if span.overlaps(u.span)}, key=_where_key)
        norm = normalise(u.text)
        entry = None
        for i, en in enumerate(entries):
            if norm.startswith(en["prefix"]):
                entry, used[i] = en, True
                break
        line = text.text.count("\n", 0, u.span.start) + 1
        col = u.span.start - (text.text.rfind("\n", 0, u.span.start) + 1) + 1
        status = "unaccounted"
        if entry is not None and entry["kind"] in DEBTS:
            status = "listed"  # a debt stays visible even where part of its sentence is cited
        elif by:
            status = "cited"
        elif entry is not None:
            status = "listed"
        elif u.kind == "heading":
            status = "heading"
        row: dict[str, Any] = {"line": line, "col": col, "text": " ".join(u.text.split()), "status": status}
        if status == "listed" and entry is not None:
            row["kind"], row["why"] = entry["kind"], entry["why"]
        row["cited_by"] = by
        units.append(row)
    n = {s: sum(1 for u in units if u["status"] == s) for s in ("cited", "listed", "heading", "unaccounted")}
    kinds: dict[str, int] = {}
    for row in units:
        if row["status"] == "listed":
            kinds[row["kind"]] = kinds.get(row["kind"], 0) + 1
    total = len(units)
    accounted = total - n["unaccounted"]
    return {
        "source": sid,
        "title": meta.get("title", sid),
        "text": _display(file),
        "metadata": _display(meta_path(sid)),
        "total": total,
        "accounted": accounted,
        "unaccounted": n["unaccounted"],
        "cited": n["cited"],
        "listed": n["listed"],
        "headings": n["heading"],
        "kinds": dict(sorted(kinds.items())),
        "debts": [u for u in units if u["status"] == "listed" and u.get("kind") in DEBTS],
        "unmatched": [{"text": en["text"], "kind": en["kind"]} for en, hit in zip(entries, used) if not hit],
        "accounted_share": round(accounted / total, 4) if total else None,
        # the share cited, as before the ledger: cited / (cited + unaccounted)
        "sentences": n["cited"] + n["unaccounted"],
        "covered": n["cited"],
        "share": round(n["cited"] / (n["cited"] + n["unaccounted"]), 4) if n["cited"] + n["unaccounted"] else None,
        "units": units,
        "_file": str(file),
    }


def ledger_diagnostics(sid: str, report: dict, pending: dict[str, int] | None = None) -> list[Diagnostic]:
    """The sentences of a source not accounted for, as errors located in its text, unless the
    source is pending (``LEDGER_PENDING``) and has no more of them than recorded."""
    pending = LEDGER_PENDING if pending is None else pending
    if "error" in report or not report["unaccounted"]:
        return []
    allowed = pending.get(sid)
    if allowed is not None and report["unaccounted"] <= allowed:
        return []
    extra = (
        f" (source '{sid}' is pending, LEDGER_PENDING allowing {allowed} such sentences; it has {report['unaccounted']})"
        if allowed is not None
        else ""
    )
    return [
        Diagnostic(
            Pos(report["_file"], u["line"], u["col"]),
            f"sentence of source '{sid}' not accounted for: \"{_clip(u['text'], 80)}\" — cite it from a rule "
            f"element, or list it under not_rules: in {report['metadata']} with its kind and why{extra}",
            code="ledger",
        )
        for u in report["units"]
        if u["status"] == "unaccounted"
    ]


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


def public(reports: list[dict]) -> list[dict]:
    """The reports as --json prints them."""
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in reports]


def format_text(reports: list[dict], every: bool = False) -> str:
    lines = []
    for r in reports:
        if "error" in r:
            lines.append(f"{r['source']}: {r['error']}")
            continue
        share = "n/a" if r["accounted_share"] is None else f"{r['accounted_share']:.0%}"
        kinds = ", ".join(f"{k} {v}" for k, v in r["kinds"].items())
        lines.append(
            f"{r['source']} ({r['title']}): {r['accounted']} of {r['total']} sentences accounted for ({share}): "
            f"{r['cited']} cited, {r['listed']} listed" + (f" ({kinds})" if kinds else "") + f", {r['headings']} "
            f"headings; {r['unaccounted']} not accounted for, {len(r['debts'])} debts"
        )
        for u in r["units"]:
            where = f"{r['text']}:{u['line']}"
            if u["status"] == "unaccounted":
                lines.append(f"  unaccounted  {where}: {_clip(u['text'])}")
            elif every and u["status"] == "cited":
                lines.append(f"  cited        {where}: {_clip(u['text'])}")
                for w in u["cited_by"]:
                    lines.append(f"                 by {w}")
            elif every and u["status"] == "listed" and u["kind"] not in DEBTS:
                lines.append(f"  {u['kind']:<12} {where}: {_clip(u['text'])}")
                if u["why"]:
                    lines.append(f"                 why: {u['why']}")
            elif every and u["status"] == "heading":
                lines.append(f"  heading      {where}: {_clip(u['text'])}")
        for u in r["debts"]:
            lines.append(f"  debt: {u['kind']}  {r['text']}:{u['line']}: {_clip(u['text'])}")
            lines.append(f"                 why: {u['why']}")
        for en in r["unmatched"]:
            lines.append(f"  unmatched entry in {r['metadata']} ({en['kind']}): {_clip(en['text'])}")
    return "\n".join(lines)


def _clip(s: str, n: int = 100) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"
