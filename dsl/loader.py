"""Load rule files: a rule file and what it ``extends`` and ``imports`` read, checked and merged,
with the ``options`` switched on, into one plain ``Doc`` whose every value keeps where it was
written (file, line, column).

Each step has its module: reading (reading.py: the file's bytes, safe YAML with positions, the
size limits), checking (checking.py: the JSON Schema, located messages), merging (merging.py:
extends, imports, options). Where rule files are found (corpus ids, paths and the boundary of
what a file may reach) is corpus.py; the limits are limits.py; the document is document.py.
``resolve`` runs the steps; the names of the step modules are also offered here.
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

from .checking import check_option_sets, check_schema, schema
from .corpus import (
    _is_file,
    check_reach,
    corpus_ids,
    corpus_path,
    corpus_root,
    find_rules,
    id_of,
    in_corpus,
    is_path,
    missing_hint,
    source_ids,
    sources_root,
)
from .document import Doc, Path_, walk
from .errors import UNKNOWN, Pos, RuleError, remember_text
from .limits import (
    MAX_CARDS,
    MAX_CHAIN,
    MAX_CHAIN_FILES,
    MAX_DEPTH,
    MAX_EXPR_DEPTH,
    MAX_EXPR_LENGTH,
    MAX_FILE_BYTES,
    MAX_INT_DIGITS,
    MAX_NODES,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_QUOTE_LENGTH,
    Limits,
)
from .merging import apply_options, check_option_with, imported, merge, place_steps, strip_nulls
from .reading import decode_utf8, load_yaml, read_input

__all__ = [
    "Doc",
    "Limits",
    "MAX_CARDS",
    "MAX_CHAIN",
    "MAX_CHAIN_FILES",
    "MAX_DEPTH",
    "MAX_EXPR_DEPTH",
    "MAX_EXPR_LENGTH",
    "MAX_FILE_BYTES",
    "MAX_INT_DIGITS",
    "MAX_NODES",
    "MAX_OPTIONS",
    "MAX_PLAYERS",
    "MAX_QUOTE_LENGTH",
    "Path_",
    "apply_options",
    "check_option_sets",
    "check_option_with",
    "check_reach",
    "check_schema",
    "corpus_ids",
    "corpus_path",
    "corpus_root",
    "decode_utf8",
    "digest_of",
    "find_rules",
    "id_of",
    "imported",
    "in_corpus",
    "is_path",
    "load_file",
    "load_yaml",
    "merge",
    "missing_hint",
    "place_steps",
    "read_input",
    "resolve",
    "schema",
    "source_ids",
    "sources_root",
    "split_ref",
    "strip_nulls",
    "walk",
]

_FILE_CACHE: dict[tuple, tuple[dict, dict]] = {}


def load_file(path: Path, limits: Limits | None = None) -> tuple[dict, dict]:
    """Read and schema-check one rule file, without resolving extends.
    Checked files are kept (by path and content) for the life of the
    process: a variant's parents are parsed and checked once."""
    file = str(path)
    raw = read_input(path, (limits or Limits()).file_bytes, "rule file")
    key = (file, hashlib.blake2b(raw, digest_size=16).digest(), limits or Limits())
    hit = _FILE_CACHE.get(key)
    if hit is not None:
        remember_text(file, raw.decode("utf-8", "replace"))
        return copy.deepcopy(hit[0]), dict(hit[1])
    data, positions = load_yaml(raw, file, limits)
    check_schema(data, positions, file)
    _FILE_CACHE[key] = (copy.deepcopy(data), dict(positions))
    return data, positions


def split_ref(ref: str) -> tuple[str, list[str]]:
    """Options named after a plus: ``GAME/FILE+OPT1+OPT2`` -> ("GAME/FILE",
    ["OPT1", "OPT2"]). A path (see ``is_path``) that exists is taken whole,
    plus signs included; a corpus id is never looked up in the working
    directory."""
    if is_path(ref) and Path(ref).expanduser().exists():
        return ref, []
    base, *opts = ref.split("+")
    return base, [o for o in opts if o]


def resolve(
    ref: str | Path,
    options: list[str] | tuple = (),
    limits: Limits | None = None,
    _seen: tuple = (),
    _from: Pos | None = None,
    _read: list[int] | None = None,
) -> Doc:
    """Load ``ref`` (corpus id or path, see ``is_path``) and resolve extends,
    imports and the options switched on, into one ``Doc``. A file named in
    extends or imports must be within reach of the file naming it (see
    ``check_reach``)."""
    if not isinstance(ref, (str, Path)):
        raise RuleError(
            f"a rule file is named by a corpus id or a path, not {ref!r:.40}", _from or UNKNOWN, code="reference"
        )
    if _from is not None and is_path(ref):  # outside the boundary: refused before any read
        rel = Path(ref).expanduser() if str(ref).startswith("~") else Path(ref)
        check_reach(str(ref), Path(_from.file).parent / rel, _from.file, limits, _from)
    try:
        path, rid = find_rules(ref, _from.file if _from else None)
    except FileNotFoundError:
        known = corpus_ids()
        from .suggest import suggest
        from .text import cut

        hint = missing_hint(str(ref))
        if _from is not None and not is_path(ref) and _is_file(Path(_from.file).parent / str(ref)):
            hint = f" (a corpus id is looked up only in the corpus; to name the file beside this one, write ./{cut(str(ref), 120)})"
        raise RuleError(
            f"no rule file '{cut(str(ref), 200)}': not a file, nor a corpus id"
            + hint
            + ("" if hint else suggest(str(ref), known))
            + ("" if _from or hint else f" (corpus: {', '.join(known)})"),
            _from or Pos(str(ref), 0, 0),
            code="reference",
        ) from None
    key = str(path.resolve())
    if len(_seen) >= MAX_CHAIN:
        raise RuleError(
            f"extends and imports go more than {MAX_CHAIN} files deep here (the limit): "
            f"{' -> '.join(Path(s).stem for s in _seen[:3])} -> … -> {path.stem}",
            _from or Pos(str(path), 1, 1),
            code="limit",
        )
    _read = _read if _read is not None else [0]
    _read[0] += 1
    if _read[0] > MAX_CHAIN_FILES:
        raise RuleError(
            f"extends and imports read more than {MAX_CHAIN_FILES} files for one rule file, the limit "
            "(a file imported by many is read once for each)",
            _from or Pos(str(path), 1, 1),
            code="limit",
        )
    if key in _seen:
        raise RuleError(
            f"extends goes round in a circle: {' -> '.join(Path(s).stem for s in _seen + (key,))}",
            _from or Pos(str(path), 1, 1),
            code="cycle",
        )
    data, positions = load_file(path, limits)
    check_option_sets(data, positions)
    file = str(path)
    opts = data.get("options")
    if isinstance(opts, dict) and len(opts) > MAX_OPTIONS:
        name = list(opts)[MAX_OPTIONS]
        raise RuleError(
            f"{len(opts)} options, more than the limit of {MAX_OPTIONS} for one rule file",
            positions.get(("options", name, "@key")) or positions.get(("options", name)) or Pos(file, 1, 1),
            code="limit",
        )
    chain = [file]
    inherited: dict[str, str] = {}
    doc_data, doc_pos = {}, {(): Pos(file, 1, 1)}
    if "extends" in data:
        parent = resolve(data["extends"], (), limits, _seen + (key,), positions[("extends",)], _read)
        doc_data, doc_pos = parent.data, dict(parent.positions)
        chain += parent.chain
        inherited = dict(parent.defaults)
    for i, imp in enumerate(data.get("imports", [])):
        other = resolve(imp["from"], (), limits, _seen + (key,), positions[("imports", i, "from")], _read)
        chain += [c for c in other.chain if c not in chain]
        inherited.update(other.defaults)
        for j, part in enumerate(imp["take"]):
            patch, sub_pos = imported(other, imp["from"], part, positions[("imports", i, "take", j)])
            doc_data, doc_pos = merge(doc_data, doc_pos, patch, sub_pos)
    own = {k: v for k, v in data.items() if k not in ("extends", "imports")}
    doc_data, doc_pos = merge(doc_data, doc_pos, own, positions)
    defaults = {**inherited, **({file: data["source"]} if "source" in data else {})}
    doc = Doc(doc_data, doc_pos, file, rid, chain, defaults=defaults, limits=limits or Limits())
    check_option_with(doc)
    apply_options(doc, list(options))
    place_steps(doc.data, doc.positions)
    return doc


def digest_of(doc: "Doc") -> str:
    """``sha256:…`` of the bytes of a resolved document's files (the file itself, then what it
    extends and imports, in the order read): two documents of the same digest are the same rules."""
    h = hashlib.sha256()
    for f in doc.chain:
        raw = read_input(f, doc.limits.file_bytes, "rule file")
        h.update(len(raw).to_bytes(8, "big") + raw)
    return "sha256:" + h.hexdigest()
