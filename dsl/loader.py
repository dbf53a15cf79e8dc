"""Load rule files: safe YAML with positions, the JSON Schema, ``extends``,
``imports`` and ``options``, resolved into one plain document.

Every value of a loaded document keeps where it was written: ``Doc.pos(path)``
gives the ``Pos`` (file, line, column) of the node at a path such as
``("hand", "deal", "hand", "4")``, through any number of ``extends``.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from .errors import UNKNOWN, Diagnostic, Pos, RuleError, remember_text

MAX_FILE_BYTES = 1_000_000  # a rule file larger than this is refused (raise with limits=)
MAX_DEPTH = 64  # nesting of mappings and lists
MAX_NODES = 20_000  # nodes after expanding aliases (alias bombs)
MAX_PLAYERS = 100  # players.max of a game
MAX_CARDS = 1_000  # cards of a pack, and any count of cards (a hand, a batch, a rest)
MAX_INT_DIGITS = 15  # digits of an integer, in YAML or in an expression
MAX_EXPR_LENGTH = 1_000  # characters of one expression
MAX_EXPR_DEPTH = 50  # nesting of one expression (brackets, calls, operators)
MAX_QUOTE_LENGTH = 2_000  # characters of one quoted passage
MAX_CHAIN = 32  # files deep an extends/imports chain may go (the corpus goes 3)
MAX_OPTIONS = 64  # options one rule file may declare (the corpus declares at most 5)
MAX_CHAIN_FILES = 256  # files an extends/imports tree may read in all, for one rule file

Path_ = tuple


@dataclass(frozen=True)
class Limits:
    """The size limits a rule file is read and compiled with. Each is checked
    before the work it bounds, and reported at the place in the file that
    exceeds it; the command line raises them (--max-players, …)."""

    file_bytes: int = MAX_FILE_BYTES
    depth: int = MAX_DEPTH
    nodes: int = MAX_NODES
    players: int = MAX_PLAYERS
    cards: int = MAX_CARDS
    int_digits: int = MAX_INT_DIGITS
    expr_length: int = MAX_EXPR_LENGTH
    expr_depth: int = MAX_EXPR_DEPTH
    quote_length: int = MAX_QUOTE_LENGTH
    allow: tuple = ()  # folders (besides its own) a user's rule file may extend or import from


@dataclass
class Doc:
    """A resolved rule document: plain data plus the position of every node."""

    data: dict
    positions: dict[Path_, Pos]
    file: str
    id: str
    chain: list[str] = field(default_factory=list)  # files read, the file itself first
    limits: Limits = field(default_factory=Limits)  # the limits it was read with, for the compiler
    options: list[str] = field(default_factory=list)  # options switched on
    defaults: dict[str, str] = field(default_factory=dict)  # file -> its default source id

    def pos(self, path: Path_) -> Pos:
        """The position of the node at ``path``, or of its nearest ancestor."""
        path = tuple(path)
        while path:
            p = self.positions.get(path)
            if p is not None:
                return p
            path = path[:-1]
        return self.positions.get((), Pos(self.file, 1, 1))

    def key_pos(self, path: Path_) -> Pos:
        return self.positions.get(tuple(path) + ("@key",)) or self.pos(path)

    def cites(self):
        """Every citation: (path of the cite, source id or None, quote). A bare
        quote belongs to the default source of the file that wrote it."""
        for path, node in walk(self.data):
            if not isinstance(node, dict) or "cite" not in node:
                continue
            raw = node["cite"]
            items = raw if isinstance(raw, list) else [raw]
            for i, c in enumerate(items):
                cpath = path + ("cite",) + ((i,) if isinstance(raw, list) else ())
                if isinstance(c, str):
                    yield cpath, self.defaults.get(self.pos(cpath).file), c
                elif isinstance(c, dict):
                    yield cpath, c.get("source"), c.get("quote", "")

    def sources(self) -> list[str]:
        """The ids of the sources this document cites."""
        return sorted({s for _, s, _ in self.cites() if s})


def walk(node, path: tuple = ()):
    """Every node of a document with its path, depth first."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, path + (i,))


# -- YAML with positions ------------------------------------------------------
class _Located:
    def __init__(self, file: str, text: str, limits: Limits):
        self.file, self.lines, self.limits = file, text.splitlines(), limits
        self.positions: dict[Path_, Pos] = {}
        self.count = 0

    def node_pos(self, node) -> Pos:
        m = node.start_mark
        p = Pos(self.file, m.line + 1, m.column + 1)
        style = getattr(node, "style", None)
        if style in ('"', "'"):
            return Pos(self.file, p.line, p.col + 1)
        if style in ("|", ">"):  # block scalar: content starts on the next line
            ln = m.line + 1
            if ln < len(self.lines):
                body = self.lines[ln]
                return Pos(self.file, ln + 1, len(body) - len(body.lstrip()) + 1)
        return p

    def convert(self, node, path: Path_, depth: int):
        self.count += 1
        if self.count > self.limits.nodes:
            raise RuleError(
                f"the document has more than {self.limits.nodes} nodes (aliases expanding without end?)",
                self.node_pos(node),
                code="limit",
            )
        if depth > self.limits.depth:
            raise RuleError(
                f"the document is nested more than {self.limits.depth} levels deep", self.node_pos(node), code="limit"
            )
        self.positions[path] = self.node_pos(node)
        if node.tag not in _PLAIN_TAGS:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise RuleError(
                f"the YAML tag {tag} is not allowed: a rule file holds plain data "
                "(text, numbers, true/false, lists, mappings); quote the value if it is text",
                self.node_pos(node),
                code="yaml",
            )
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    raise RuleError("a mapping key must be a plain name or number", self.node_pos(knode), code="yaml")
                key = str(self.scalar(knode))
                if key == "<<":
                    raise RuleError(
                        "merge keys (<<) are not supported; use extends or options", self.node_pos(knode), code="yaml"
                    )
                if key in out:
                    raise RuleError(
                        f"duplicate key '{key}' (first written at line {self.positions[path + (key, '@key')].line})",
                        self.node_pos(knode),
                        code="duplicate-key",
                    )
                self.positions[path + (key, "@key")] = self.node_pos(knode)
                out[key] = self.convert(vnode, path + (key,), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(v, path + (i,), depth + 1) for i, v in enumerate(node.value)]
        return self.scalar(node)

    def scalar(self, node):
        """A scalar's value. An integer is refused, before it is converted, beyond
        the limit of digits (a huge one is costly to convert, print or compute
        with); a value its tag cannot hold (``!!int abc``) is a located error."""
        if node.tag == "tag:yaml.org,2002:int":
            digits = sum(ch.isdigit() for ch in node.value[: self.limits.int_digits + 64])
            if digits > self.limits.int_digits:
                raise RuleError(
                    f"this integer has more than {self.limits.int_digits} digits "
                    "(raise the limit with --max-int-digits)",
                    self.node_pos(node),
                    code="limit",
                )
        try:
            return _scalar(node)
        except (ValueError, KeyError, TypeError, OverflowError, yaml.YAMLError):
            from .text import cut

            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise RuleError(
                f"'{cut(str(node.value), 60)}' is not a valid {tag} value", self.node_pos(node), code="yaml"
            ) from None


_PLAIN_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "map", "seq"))
_CONSTRUCTOR = yaml.SafeLoader("")
# libyaml's parser when PyYAML was built with it (same nodes and marks, ~15x faster)
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _scalar(node):
    """A scalar's plain value, by the safe loader's own resolution."""
    return _CONSTRUCTOR.construct_object(node)


def decode_utf8(raw: bytes, file: str) -> str:
    """The text of a file's bytes; bytes that are not UTF-8 are a located error
    at their own line and column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise RuleError("the file is not UTF-8 text", Pos(file, line, col), code="encoding") from None


def load_yaml(text: str | bytes, file: str, limits: Limits | None = None) -> tuple[Any, dict]:
    """Parse ``text`` safely; return (data, positions). Every failure is a RuleError."""
    limits = limits or Limits()
    if isinstance(text, bytes):
        if len(text) > limits.file_bytes:
            raise RuleError(
                f"the file is {len(text)} bytes, more than the limit of {limits.file_bytes}",
                Pos(file, 1, 1),
                code="limit",
            )
        if b"\x00" in text:
            line = text[: text.index(b"\x00")].count(b"\n") + 1
            raise RuleError(
                "the file holds binary data (a NUL byte), not YAML text", Pos(file, line, 1), code="encoding"
            )
        text = decode_utf8(text, file)
    if len(text) > limits.file_bytes:
        raise RuleError(
            f"the file is larger than the limit of {limits.file_bytes} bytes", Pos(file, 1, 1), code="limit"
        )
    text = text.removeprefix("\ufeff")  # a UTF-8 byte order mark says nothing more
    remember_text(file, text)
    try:
        node = yaml.compose(text, Loader=_YAML_LOADER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = Pos(file, mark.line + 1, mark.column + 1) if mark else Pos(file, 1, 1)
        raise RuleError(f"invalid YAML: {e.problem or e.context}", where, code="yaml") from None
    except yaml.reader.ReaderError:  # a character YAML does not allow: located here, not at 1:1
        m = yaml.reader.Reader.NON_PRINTABLE.search(text)
        at = m.start() if m else 0
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        what = f"U+{ord(text[at]):04X}" if m else "a character"
        raise RuleError(
            f"invalid YAML: the control character {what} is not allowed in a YAML file "
            "(in a double-quoted string, write it as an escape such as \\x07)",
            Pos(file, line, col),
            code="yaml",
        ) from None
    except yaml.YAMLError as e:
        raise RuleError(f"invalid YAML: {e}", Pos(file, 1, 1), code="yaml") from None
    except RecursionError:
        raise RuleError("the document is nested too deeply", Pos(file, 1, 1), code="limit") from None
    if node is None:
        raise RuleError(
            "the file is empty: a rule file is a mapping (title:, players:, pack:, …)",
            Pos(file, 1, 1),
            code="structure",
        )
    loc = _Located(file, text, limits)
    try:
        data = loc.convert(node, (), 0)
    except RecursionError:
        raise RuleError("the document is nested too deeply", Pos(file, 1, 1), code="limit") from None
    except yaml.YAMLError as e:
        raise RuleError(f"invalid YAML value: {e}", Pos(file, 1, 1), code="yaml") from None
    return data, loc.positions


# -- the schema -----------------------------------------------------------------
@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator():
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


def check_schema(data: Any, positions: dict, file: str, root: str = "document") -> None:
    """Raise a RuleError listing every schema violation, each at its node."""
    if not isinstance(data, dict):
        what = "a list" if isinstance(data, list) else f"a single value ({data!r:.40})"
        raise RuleError(
            f"a rule file must be a mapping of sections (title:, players:, …), not {what}",
            positions.get((), Pos(file, 1, 1)),
            code="structure",
        )
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    diags, seen = [], set()
    for err in (leaf for e in errors for leaf in _leaves(e)):
        path = tuple(err.absolute_path)
        msg = _message(err)
        key = (path, msg)
        if key in seen:
            continue
        seen.add(key)
        pos = positions.get(path + ("@key",)) if err.validator == "additionalProperties" else None
        if err.validator == "additionalProperties":
            extra = _extra_key(err)
            if extra is not None:
                pos = positions.get(path + (extra, "@key"))
        pos = pos or _nearest(positions, path, file)
        if any(isinstance(k, str) and (")" in k or "(" in k) for k in path) or (
            err.validator == "additionalProperties" and _extra_key(err) and ")" in str(_extra_key(err))
        ):
            msg += " (inside a YAML list [...] or mapping {...} a comma ends the item: put the expression in quotes)"
        diags.append(Diagnostic(pos, msg, code="schema"))
    if diags:
        raise RuleError(diags)


def _leaves(err) -> list:
    """The errors worth reporting under a oneOf/anyOf failure: if all branches
    but one fail on the type of the value itself, that branch was meant, and
    each of its errors is reported; else the most relevant one."""
    if err.validator in ("oneOf", "anyOf") and err.context and not _is_cite_choice(err):
        branches: dict = {}
        for c in err.context:
            branches.setdefault(c.relative_schema_path[0], []).append(c)
        meant = [
            b
            for b in branches.values()
            if not any(c.validator in ("type", "const", "enum") and not c.relative_path for c in b)
        ]
        if len(meant) == 1:
            return [leaf for c in meant[0] for leaf in _leaves(c)]
    return [_best(err)]


def _is_cite_choice(err) -> bool:
    return err.validator == "anyOf" and any(
        isinstance(s, dict) and s.get("required") in (["cite"], ["editorial"]) for s in err.validator_value
    )


def _best(err):
    """For oneOf/anyOf failures, the sub-error that speaks of the branch the
    user meant: skip branches of another type, then take the deepest error."""
    if err.validator not in ("oneOf", "anyOf") or not err.context:
        return err
    if err.validator == "anyOf" and all(isinstance(s, dict) and "required" in s for s in err.validator_value):
        return err  # "needs a cite or an editorial": said plainly by _message
    candidates = [e for e in err.context if not (e.validator == "type" and len(e.relative_path) == 0)]
    if not candidates:
        return err
    best = max(candidates, key=lambda e: (len(e.absolute_path), e.validator != "anyOf"))
    return _best(best)


def _extra_key(err):
    if isinstance(err.instance, dict) and isinstance(err.schema, dict):
        allowed = set(err.schema.get("properties", {}))
        extras = [k for k in err.instance if k not in allowed]
        return extras[0] if extras else None
    return None


def _message(err) -> str:
    where = "/".join(str(p) for p in err.absolute_path) or "the document"
    if err.validator == "additionalProperties":
        extra = _extra_key(err)
        allowed = sorted(err.schema.get("properties", {}))
        return f"unknown key '{extra}' in {where} (allowed: {', '.join(allowed)})"
    if err.validator == "anyOf" and any(s.get("required") in (["cite"], ["editorial"]) for s in err.validator_value):
        return (
            f"{where} is a rule element: it needs a 'cite' (source and quote) or an 'editorial' (reason and evidence)"
        )
    if err.validator == "required":
        return f"{where}: {err.message}"
    if err.validator == "type":
        return f"{where}: {err.instance!r:.60} is not of type {err.validator_value}"
    return f"{where}: {err.message}"


def _nearest(positions, path, file):
    path = tuple(path)
    while path:
        if path in positions:
            return positions[path]
        path = path[:-1]
    return positions.get((), Pos(file, 1, 1))


# -- the corpus ---------------------------------------------------------------
def corpus_root() -> Path:
    return Path(str(resources.files("academie.rules")))


def sources_root() -> Path:
    return Path(str(resources.files("academie.sources")))


def corpus_ids() -> list[str]:
    root = corpus_root()
    return sorted(str(p.relative_to(root).with_suffix("")).replace("\\", "/") for p in root.rglob("*.yaml"))


@lru_cache(maxsize=1)
def source_ids() -> frozenset[str]:
    return frozenset(p.stem for p in sources_root().glob("*.yaml"))


def is_path(ref: str | Path) -> bool:
    """Whether a name of rule file is a path (else a corpus id): a ``Path``,
    or text that ends in ``.yaml``/``.yml`` or starts with ``./``, ``../``,
    ``/`` or ``~``. A corpus id is looked up only inside the installed corpus,
    never against the working directory."""
    if isinstance(ref, Path):
        return True
    return (
        ref.endswith((".yaml", ".yml"))
        or ref in (".", "..", "~")
        or ref.startswith(("./", "../", "/", "~", ".\\", "..\\"))
        or Path(ref).is_absolute()
    )


def corpus_path(cid: str) -> Path | None:
    """The file of corpus id ``cid``, or None if there is none. An id with an
    empty, ``.`` or ``..`` part, a backslash or a NUL names nothing."""
    parts = cid.split("/")
    if not cid or "\\" in cid or "\x00" in cid or any(p in ("", ".", "..") for p in parts):
        return None
    root = corpus_root()
    q = root.joinpath(*parts[:-1], parts[-1] + ".yaml")
    try:
        if q.is_file() and q.resolve().is_relative_to(root.resolve()):
            return q
    except OSError:
        return None
    return None


def _is_file(p: Path) -> bool:
    """Whether ``p`` is a file; a name the system cannot even look up (too
    long, a NUL) is no file."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


def find_rules(ref: str | Path, relative_to: str | None = None) -> tuple[Path, str]:
    """(path, id) of a rule file named by corpus id or by path (see
    ``is_path``). A path is taken relative to the working directory, or to
    the folder of file ``relative_to``; whether it may be read is for the
    caller to decide (``resolve`` keeps rule files inside their boundary)."""
    if is_path(ref):
        p = Path(ref).expanduser() if isinstance(ref, Path) or ref.startswith("~") else Path(ref)
        if relative_to is not None and not p.is_absolute():
            p = Path(relative_to).parent / p
        try:
            if p.exists():
                return p, id_of(p)
        except OSError:
            pass
        raise FileNotFoundError(str(ref))
    q = corpus_path(str(ref))
    if q is not None:
        return q, str(ref)
    raise FileNotFoundError(str(ref))


def missing_hint(ref: str) -> str:
    """A word of help when ``ref`` names no rule file: a corpus id that names a
    file of the working directory, or a path ending in .yaml whose stem is a
    corpus id ("" if neither)."""
    from .text import cut

    try:
        if not is_path(ref) and Path(ref).is_file():
            return f" (a corpus id is looked up only in the corpus; to read the file here, write ./{cut(ref, 120)})"
    except (OSError, ValueError):
        pass
    if not is_path(ref) and any(p in ("", ".", "..") for p in ref.split("/")):
        return " (a corpus id names a file of the corpus: it has no empty, '.' or '..' part)"
    if ref.endswith(".yaml") and corpus_path(ref[:-5]) is not None:
        return f" (the corpus id is {cut(ref[:-5], 120)})"
    return ""


def id_of(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(corpus_root().resolve()).with_suffix("")).replace("\\", "/")
    except (ValueError, OSError):
        return path.stem


def in_corpus(path: Path) -> bool:
    try:
        return path.resolve().is_relative_to(corpus_root().resolve())
    except OSError:
        return False


def digest_of(doc: "Doc") -> str:
    """``sha256:…`` of the bytes of a resolved document's files (the file itself, then what it
    extends and imports, in the order read): two documents of the same digest are the same rules."""
    import hashlib

    h = hashlib.sha256()
    for f in doc.chain:
        raw = read_input(f, doc.limits.file_bytes, "rule file")
        h.update(len(raw).to_bytes(8, "big") + raw)
    return "sha256:" + h.hexdigest()


def check_reach(ref: str, path: Path, from_file: str, limits: Limits | None, at: Pos) -> None:
    """Refuse (a located RuleError, before reading anything) a file named by a
    path in ``extends``/``imports`` of ``from_file`` that is outside what that
    file may reach: a corpus file reaches only the corpus; any other file
    reaches the corpus, files under its own folder (symlinks resolved) and the
    folders allowed by ``limits.allow``."""
    from .text import cut

    how = f"'{cut(ref, 120)}'"
    if Path(ref).expanduser().is_absolute():
        raise RuleError(
            f"{how} is an absolute path: a rule file may extend or import a corpus id "
            "or a file under its own folder, named by a relative path",
            at,
            code="boundary",
        )
    try:
        target = path.resolve()
    except (OSError, RuntimeError):
        raise RuleError(f"{how} cannot be resolved (a loop of symbolic links?)", at, code="boundary") from None
    if in_corpus(path):
        return
    home = Path(from_file).absolute().parent
    if in_corpus(Path(from_file)):
        raise RuleError(
            f"{how} is outside the corpus: a corpus file may extend or import only corpus files", at, code="boundary"
        )
    roots = [home.resolve()] + [Path(a).expanduser().resolve() for a in (limits.allow if limits else ())]
    if any(target.is_relative_to(r) for r in roots):
        return
    raise RuleError(
        f"{how} is outside the folder of this rule file ({home}): a rule file may extend or "
        "import corpus ids and files under its own folder (allow another folder with "
        "--allow-path DIR)",
        at,
        code="boundary",
    )


# -- resolution ---------------------------------------------------------------
def _is_element(v) -> bool:
    return isinstance(v, dict) and ("cite" in v or "editorial" in v)


def merge(base, bpos: dict, patch, ppos: dict, path: Path_ = (), pbase: Path_ = ()) -> tuple[Any, dict]:
    """Patch ``base`` with ``patch``: mappings merge key by key, except a rule
    element (a mapping with its own cite or editorial), which replaces the
    inherited one whole; lists and scalars replace; ``null`` deletes.
    ``pbase`` is where the patch sits in its own file (options: under set)."""
    out_pos = dict(bpos)
    value = _merge(base, patch, path, pbase, ppos, out_pos)
    return value, out_pos


def _drop(pos: dict, path: Path_):
    n = len(path)
    for k in [k for k in pos if k[:n] == path and len(k) > n]:
        del pos[k]


def _copy(pos: dict, ppos: dict, path: Path_, ppath: Path_):
    n = len(ppath)
    for k, v in ppos.items():
        if k[:n] == ppath:
            pos[path + k[n:]] = v


def _merge(b, p, path, ppath, ppos, pos):
    if isinstance(b, dict) and isinstance(p, dict) and not _is_element(p):
        out = dict(b)
        for k, v in p.items():
            if v is None:
                out.pop(k, None)
                _drop(pos, path + (k,))
                pos.pop(path + (k,), None)
            elif k in out:
                out[k] = _merge(out[k], v, path + (k,), ppath + (k,), ppos, pos)
                if (ppath + (k, "@key")) in ppos:
                    pos[path + (k, "@key")] = ppos[ppath + (k, "@key")]
            else:  # a null deletes; where there is nothing to delete it vanishes
                out[k] = strip_nulls(v, path + (k,))
                _copy(pos, ppos, path + (k,), ppath + (k,))
        if ppath in ppos:
            pos[path] = ppos[ppath]
        return out
    _drop(pos, path)
    _copy(pos, ppos, path, ppath)
    return p


def strip_nulls(v, path: Path_ = ()):
    """A document without the null entries of its named mappings (a null deletes an
    inherited entry; with nothing to delete it means nothing). An option's ``set``
    (at ``options.NAME.set``) keeps its nulls: they delete what the option is laid
    over when it is switched on."""
    if len(path) == 3 and path[0] == "options" and path[2] == "set":
        return v
    if isinstance(v, dict):
        return {k: strip_nulls(x, path + (k,)) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [strip_nulls(x, path + (i,)) for i, x in enumerate(v)]
    return v


def _place_steps(data: dict, positions: dict) -> None:
    """Honour ``before:``/``after:`` on steps of ``hand`` added by a variant."""
    hand = data.get("hand")
    if not isinstance(hand, dict):
        return
    names = list(hand)
    for name in list(names):
        step = hand[name]
        if not isinstance(step, dict):
            continue
        for rel in ("before", "after"):
            target = step.get(rel)
            if target is None:
                continue
            if target not in hand or target == name:
                raise RuleError(
                    f"step '{name}' is placed {rel} '{target}', which is not a step of this hand "
                    f"(steps: {', '.join(names)})",
                    positions.get(("hand", name, rel)),
                    code="reference",
                )
            names.remove(name)
            i = names.index(target)
            names.insert(i if rel == "before" else i + 1, name)
    data["hand"] = {n: hand[n] for n in names}


_FILE_CACHE: dict[tuple, tuple[dict, dict]] = {}


def read_input(path: Path | str, limit: int, what: str = "file") -> bytes:
    """The bytes of an input file, read safely: only a regular file (a FIFO, a
    device or a folder is refused without reading it, and opening it does not
    block), its size checked before reading and the read bounded by
    ``limit`` + 1 bytes whatever the file claims. Every failure is a located
    RuleError."""
    import os
    import stat

    file = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        st = os.stat(file)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a pipe, a device …)"
            raise RuleError(f"cannot read {what}: it is {kind}", Pos(file, 0, 0), code="io")
        if st.st_size > limit:
            told = (
                f"{st.st_size} bytes, more than the limit of {limit}"
                if what == "rule file"
                else f"larger than the limit of {limit} bytes"
            )
            raise RuleError(f"the file is {told} (raise it with --max-file-size)", Pos(file, 1, 1), code="limit")
        fd = os.open(file, flags)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between the two looks
                raise RuleError(f"cannot read {what}: it is not a regular file", Pos(file, 0, 0), code="io")
            chunks, size = [], 0
            while size <= limit:
                b = os.read(fd, min(1 << 20, limit + 1 - size))
                if not b:
                    break
                chunks.append(b)
                size += len(b)
        finally:
            os.close(fd)
    except OSError as e:
        raise RuleError(f"cannot read {what}: {e.strerror}", Pos(file, 0, 0), code="io") from None
    raw = b"".join(chunks)
    if len(raw) > limit:
        raise RuleError(
            f"the file is more than the limit of {limit} bytes (raise it with --max-file-size)",
            Pos(file, 1, 1),
            code="limit",
        )
    return raw


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
            keys = tuple(part.split("."))
            node: Any = other.data
            for k in keys:
                node = node.get(k) if isinstance(node, dict) else None
            if node is None:
                have = other.data if len(keys) == 1 else {}
                raise RuleError(
                    f"'{imp['from']}' has no '{part}' to import" + (f" (it has: {', '.join(have)})" if have else ""),
                    positions[("imports", i, "take", j)],
                    code="reference",
                )
            sub_pos = {k: v for k, v in other.positions.items() if k[: len(keys)] == keys}
            patch = node
            for k in reversed(keys):
                patch = {k: patch}
            doc_data, doc_pos = merge(doc_data, doc_pos, patch, sub_pos)
    own = {k: v for k, v in data.items() if k not in ("extends", "imports")}
    doc_data, doc_pos = merge(doc_data, doc_pos, own, positions)
    defaults = {**inherited, **({file: data["source"]} if "source" in data else {})}
    doc = Doc(doc_data, doc_pos, file, rid, chain, defaults=defaults, limits=limits or Limits())
    apply_options(doc, list(options))
    _place_steps(doc.data, doc.positions)
    return doc


# Keys an option's ``set`` cannot apply: read from the file before any option is laid over it.
_NOT_IN_OPTION_SET = {
    "extends": "the file's parent is read before any option is laid over it: write the rules the option "
    "changes under set:, or make the variant a file of its own that extends this one",
    "imports": "imports are read before any option is laid over the file: write the rules the option "
    "changes under set:",
    "options": "the options are chosen before any is laid over the game: declare this one beside the "
    "others, under options:",
    "source": "a bare quote's source is the one named at the top of the file that writes it: "
    "cite {source: ID, quote: …} instead",
}


def check_option_sets(data: dict, positions: dict) -> None:
    """Refuse, at its key, what an option's ``set`` holds but cannot apply
    (``extends``, ``imports``, ``options``, ``source``): it would be ignored in silence."""
    diags = []
    for name, opt in (data.get("options") or {}).items():
        for key in (opt or {}).get("set") or {}:
            reason = _NOT_IN_OPTION_SET.get(key)
            if reason is not None:
                at = positions.get(("options", name, "set", key, "@key")) or positions.get((), UNKNOWN)
                diags.append(Diagnostic(at, f"option '{name}': its set: cannot hold '{key}' ({reason})", code="option"))
    if diags:
        raise RuleError(diags)


def apply_options(doc: Doc, names: list[str]) -> None:
    opts = doc.data.get("options", {}) or {}
    on = [n for n, o in opts.items() if o.get("default")]
    for n in names:
        if n not in opts:
            from .suggest import suggest

            avail = ", ".join(opts) or "none"
            raise RuleError(
                f"unknown option '{n}' for {doc.id}" + suggest(n, set(opts)) + f" (options: {avail})",
                Pos(doc.file, 1, 1),
                code="option",
            )
        if n not in on:
            on.append(n)
    for n in on:
        for other in opts[n].get("conflicts", []):
            if other in on:
                raise RuleError(
                    f"options '{n}' and '{other}' cannot be used together",
                    doc.pos(("options", n, "conflicts")),
                    code="option",
                )
    for n in on:
        base = ("options", n, "set")
        sub = {k: v for k, v in doc.positions.items() if k[:3] == base}
        doc.data, doc.positions = merge(doc.data, doc.positions, opts[n]["set"], sub, (), base)
        doc.options.append(n)
