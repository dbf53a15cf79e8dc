"""The loader's first step, reading: a rule file's bytes read safely (a regular file, its size
bounded) and parsed as safe YAML into plain data, keeping the line and column of every node, and
refusing what a rule file has no use for (tags, merge keys, duplicate keys) or that exceeds the
limits (nodes, depth, digits of an integer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .document import Path_
from .errors import Pos, RuleError, remember_text
from .limits import Limits


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
