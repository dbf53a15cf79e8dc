"""Text that is safe to print. A rule file, a source text or a deal file is
untrusted input: a title or a quote may hold terminal control sequences
(ESC, BEL, CSI …) or bidirectional overrides that change what a reader
sees. Everything the command line prints or writes for a person goes
through ``safe``; JSON goes through ``safe_json``; the line quoted under a
message goes through ``window``."""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, C1 controls, and the bidirectional
# embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# the same with tab and newline (one line of a message)
_UNSAFE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# what json.dumps(ensure_ascii=False) leaves raw: DEL, C1 and the bidi controls
_UNSAFE_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

# the line breaks of YAML (and of every text file the command line reads)
_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")

MESSAGE_WIDTH = 100  # a quoted line longer than this is shown as a window around the column


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    if c == 0x09:
        return "\\t"
    if c == 0x0A:
        return "\\n"
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def safe(text: str, one_line: bool = False) -> str:
    """``text`` with every control character shown as a visible escape
    (``\\x1b``, ``\\x07``, ``\\u202e``). Newlines and tabs are kept unless
    ``one_line``."""
    if not isinstance(text, str):
        text = str(text)
    return (_UNSAFE_LINE if one_line else _UNSAFE).sub(_escape, text)


def safe_json(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``, which escapes
    C0 controls already) with DEL, C1 and the bidi controls escaped as
    ``\\u00XX``: still the same JSON value, safe on a terminal."""
    return _UNSAFE_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def window(line: str, col: int, width: int = MESSAGE_WIDTH) -> tuple[str, int]:
    """One line of a file to quote under a message, escaped, and cut to about
    ``width`` characters around 1-based column ``col`` (``…`` where cut).
    Returns (the text to show, the 1-based column of the caret in it)."""
    col = max(col, 1)
    head = safe(line[: col - 1], one_line=True)
    tail = safe(line[col - 1 :], one_line=True)
    half = width // 2
    if len(head) > half:
        head = "…" + head[-(half - 1) :]
    room = max(width - len(head), 1)
    if len(tail) > room:
        tail = tail[: room - 1] + "…"
    return head + tail, len(head) + 1


def cut(text: str, width: int = 200) -> str:
    """``text`` escaped on one line and cut to ``width`` characters (``…``)."""
    text = safe(text, one_line=True)
    return text if len(text) <= width else text[: width - 1] + "…"


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as YAML counts them (a BOM at the start dropped)."""
    return _BREAKS.split(text.removeprefix("\ufeff"))
