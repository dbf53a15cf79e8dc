"""The "did you mean" of a message naming an unknown name (expressions, rule files, options)."""

from __future__ import annotations

import difflib
from typing import Iterable


def suggest(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the known name closest to ``name``, or nothing."""
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
