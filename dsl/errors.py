"""Located errors: every problem a user can cause is reported as
``path:line:col: message``, followed by the offending line and a caret."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .text import safe, split_lines, window

MESSAGE_LINE_MAX = 1000  # a line of a message longer than this is cut (…)


@dataclass(frozen=True)
class Pos:
    """A place in a file: 1-based line and column."""

    file: str
    line: int
    col: int

    def shift(self, dline: int, dcol: int) -> "Pos":
        """The place ``dline`` lines and ``dcol`` columns further on (both
        0-based offsets inside a scalar that starts here)."""
        if dline == 0:
            return Pos(self.file, self.line, self.col + dcol)
        return Pos(self.file, self.line + dline, dcol + 1)

    def __str__(self) -> str:
        """``file:line:col``, the file named as ``shown`` names it; a place that is
        no line of a file (a corpus id that names nothing, a folder) is the name alone."""
        if self.line <= 0:
            return shown(self.file)
        return f"{shown(self.file)}:{self.line}:{self.col}"


def shown(file: str) -> str:
    """How a message names a file: a file of the corpus by its place in the
    project (``rules/GAME/FILE.yaml``, ``sources/ID.txt``), the same
    from a checkout as from wherever the package is installed; any other file,
    and a name that is no file, as it was given (the corpus's folders are
    ``rules`` and ``sources``)."""
    if os.path.isabs(file):
        return _shown(file, "")
    try:
        return _shown(file, os.getcwd())  # a relative name is read from the working directory
    except OSError:
        return file


@lru_cache(maxsize=4096)
def _shown(file: str, cwd: str) -> str:
    try:
        p = Path(file)
        if not p.exists():
            return file
        p = p.resolve()
        for top, root in _corpus_roots():
            if p == root:
                return top
            if p.is_relative_to(root):
                return f"{top}/{p.relative_to(root).as_posix()}"
    except (OSError, ValueError, RuntimeError):
        pass
    return file


@lru_cache(maxsize=1)
def _corpus_roots() -> tuple[tuple[str, Path], ...]:
    roots = []
    for top in ("rules", "sources"):
        try:
            roots.append((top, Path(str(resources.files(f"academie.{top}"))).resolve()))
        except (ImportError, OSError, TypeError):
            continue
    return tuple(roots)


UNKNOWN = Pos("<unknown>", 0, 0)


@dataclass
class Diagnostic:
    pos: Pos
    message: str
    severity: str = "error"
    code: str = "error"

    def format(self, with_context: bool = True, severity: bool = False) -> str:
        """``path:line:col: message`` (``severity: `` before the message if it
        is not an error, or always with ``severity=True``), then the line and a caret."""
        head = (
            f"{self.pos}: {self.severity}: {self.message}"
            if severity or self.severity != "error"
            else f"{self.pos}: {self.message}"
        )
        # a message may quote a file: control characters are escaped, long lines cut
        head = "\n".join(
            ln if len(ln) <= MESSAGE_LINE_MAX else ln[: MESSAGE_LINE_MAX - 1] + "…" for ln in safe(head).split("\n")
        )
        if not with_context:
            return head
        line = _source_line(self.pos)
        if line is None:
            return head
        shown, col = window(line, self.pos.col)
        caret = " " * (col - 1) + "^"
        return f"{head}\n    {shown}\n    {caret}"

    def as_json(self) -> dict:
        return {
            "file": shown(self.pos.file),
            "line": self.pos.line,
            "col": self.pos.col,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }


_TEXTS: dict[str, list[str]] = {}


def remember_text(file: str, text: str) -> None:
    """Keep a file's text so that diagnostics can quote its lines."""
    _TEXTS[file] = split_lines(text)


def _source_line(pos: Pos) -> str | None:
    lines = _TEXTS.get(pos.file)
    if lines is None or not (1 <= pos.line <= len(lines)):
        return None
    return lines[pos.line - 1].expandtabs(1)


class RuleError(Exception):
    """One or more located problems in user input. The CLI prints them and
    exits with status 2; nothing catches them silently."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic | str, pos: Pos | None = None, code: str = "error"):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(pos or UNKNOWN, diagnostics, code=code)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = diagnostics
        super().__init__(self.format(with_context=False))

    def format(self, with_context: bool = True) -> str:
        return "\n".join(d.format(with_context) for d in self.diagnostics)
