"""The front ends of the narration (``narrate.py``): a ``Line`` for the terminal (``terminal``)
and as HTML (``html``), the same words styled each its own way."""

from __future__ import annotations

import html as _html
from typing import Iterable

from .dsl.cards import parse_card
from .dsl.text import safe
from .narrate import Line, Part

_RED = ("H", "D")


def _styled(p: Part, style: bool) -> str:
    text = safe(p.text)
    if not style:
        return text
    import click

    if p.kind == "seat":
        return click.style(text, bold=True)
    if p.kind in ("card", "suit"):
        c = parse_card(str(p.value)) if p.kind == "card" else None
        suit = c.suit if c is not None else p.value
        return click.style(text, fg="red") if suit in _RED else text
    return text


def terminal(line: Line, style: bool = False) -> str:
    """The line for the terminal: a heading set off (``== Hand 2: …``), a move
    indented under its hand (``  seat 1 plays Q♠``; a trick's winner with an
    arrow), the details below, each indented; ``style``: seats in bold, red
    suits in red (ANSI sequences, for a terminal)."""

    def words(parts: Iterable[Part]) -> str:
        return "".join(_styled(p, style) for p in parts)

    if line.level == "heading":
        head = "\n== " + words(line.parts)
    elif line.level == "move":
        head = "  " + ("-> " if line.type == "trick" else "") + words(line.parts)
    else:
        head = words(line.sentence_parts())
    return "\n".join([head] + ["  " + words(d.parts) for d in line.details])


def html(line: Line) -> str:
    """The sentence as HTML, every word escaped: seats and cards in spans
    (``ev-seat``, ``ev-card``, ``red``), the details as a list."""
    out = []
    for p in line.sentence_parts():
        text = _html.escape(p.text)
        if p.kind == "seat":
            out.append(f'<span class="ev-seat">{text}</span>')
        elif p.kind == "card":
            c = parse_card(str(p.value))
            red = " red" if c is not None and c.suit in _RED else ""
            out.append(f'<span class="ev-card{red}">{text}</span>')
        else:
            out.append(text)
    if line.details:
        out.append(
            '<ul class="details">' + "".join(f"<li>{_html.escape(d.clause)}</li>" for d in line.details) + "</ul>"
        )
    return "".join(out)
