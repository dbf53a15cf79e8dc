"""A counter's value told in the words of its game (``vars: NAME: say:``, dsl/saying.py): the
narration's part of it.

``say(ev, sayings)`` gives a ``score`` event its words: ``says``, its value told (``a point of six
(58)``), and the same for each counter declared with it (``with``). Only a value the event holds
is told: one a seat may not see is not in its view of the event (``total`` left out), so its words
are not either. Words, not play: the engine's log is left as it is; the narration builds them from
the log and the rule file.
"""

from __future__ import annotations

from typing import Any, Mapping

from .dsl.errors import Pos
from .dsl.saying import Saying, sayings


def say(ev: Any, said: Mapping[str, Saying] | None) -> Any:
    """``ev`` with the words of its counter's value (``says``) and of those declared with it."""
    if not said or not isinstance(ev, dict) or ev.get("type") != "score":
        return ev
    out = ev
    name = ev.get("counter")
    s = said.get(name) if isinstance(name, str) else None
    words = s.tell(ev["total"]) if s is not None and "total" in ev else None
    if words:
        out = {**out, "says": words}
    with_ = ev.get("with")
    if isinstance(with_, list):
        told = [_with(x, said) for x in with_]
        if told != with_:
            out = {**out, "with": told}
    return out


def _with(x: Any, said: Mapping[str, Saying]) -> Any:
    name = x.get("counter") if isinstance(x, dict) else None
    s = said.get(name) if isinstance(name, str) else None
    words = s.tell(x["total"]) if s is not None and "total" in x else None
    return {**x, "says": words} if words else x


def of_rules(vars_: Any) -> dict[str, Saying]:
    """The sayings of a rule file's ``vars:`` as a log's record holds it (raw data, untrusted):
    those that read, the others left out (told as they would be without ``say``)."""
    got, _ = sayings(vars_, lambda path: Pos("<record>", 1, 1))
    return got
