"""The pieces of a narrated line (``narrate.py``): cards and suits in words, a ``Part`` to style,
a ``Line``, and the words of a table (``_Words``: seats, cards, the rule file's names)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import AbstractSet, Any, Iterable

from .dsl.cards import parse_card, pretty
from .dsl.text import safe

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(name: str, symbols: bool = True) -> str:
    """A card as the table shows it: ``Q♠`` (its name, ``QS``, without symbols or for what is no card)."""
    c = parse_card(name) if symbols else None
    return pretty(c) if c is not None else safe(str(name), one_line=True)


def suit_text(s: Any, symbols: bool = True) -> str:
    if symbols and s in _SUITS:
        return _SUITS[s]
    return safe(str(s), one_line=True)


@dataclass(frozen=True)
class Part:
    """A piece of a line: ``kind`` is ``text``, ``seat`` (value: its number),
    ``holder`` (a pool or zone that pays or is paid), ``card`` (value: its
    name), ``suit`` (value: its letter) or ``name`` (a word of the rule file)."""

    text: str
    kind: str = "text"
    value: Any = None


@dataclass(frozen=True)
class Line:
    """An event in words. ``level``: ``heading`` (a hand begins, the game
    ends), ``line`` (what happens around the play: the draw for the deal, the
    deal, a turn-up, a declaration, the end of a hand) or ``move`` (the
    play itself: a card, a take, a payment)."""

    type: str
    parts: tuple[Part, ...]
    level: str = "move"
    rule: Any = None
    details: tuple["Line", ...] = field(default=())

    @property
    def clause(self) -> str:
        """The words as they stand: ``seat 1 plays Q♠``."""
        return "".join(p.text for p in self.parts)

    def sentence_parts(self) -> tuple[Part, ...]:
        """The parts as a sentence: a capital first letter, a full stop."""
        if not self.parts:
            return ()
        first = self.parts[0]
        head = Part(first.text[:1].upper() + first.text[1:], first.kind, first.value)
        tail = () if self.clause.endswith((".", "!", "?")) else (Part("."),)
        return (head,) + self.parts[1:] + tail

    @property
    def text(self) -> str:
        """The words as a sentence: ``Seat 1 plays Q♠.``"""
        return "".join(p.text for p in self.sentence_parts())

    def as_dict(self) -> dict:
        """For the web page's script: the sentence, its parts and the details' sentences."""
        return {
            "text": self.text,
            "type": self.type,
            "level": self.level,
            "parts": [{"text": p.text, "kind": p.kind, "value": p.value} for p in self.sentence_parts()],
            "details": [d.clause for d in self.details],
        }


# -- the words -------------------------------------------------------------------------------------


def _t(text: str) -> Part:
    return Part(text)


class _Words:
    """What a narration knows besides the event: which seats are "you", whose
    cards are not shown, whether cards are written with suit symbols."""

    def __init__(self, you: AbstractSet[int], hidden: AbstractSet[int], symbols: bool):
        self.you, self.hidden, self.symbols = you, hidden, symbols

    def seat(self, s: Any) -> Part:
        if isinstance(s, int) and not isinstance(s, bool):
            return Part(f"seat {s}" + (" (you)" if s in self.you else ""), "seat", s)
        if s is None:
            return Part("the table", "holder")
        return Part("the " + safe(str(s), one_line=True), "holder", safe(str(s), one_line=True))

    def card(self, name: Any) -> Part:
        return Part(card_text(str(name), self.symbols), "card", safe(str(name), one_line=True))

    def cards(self, names: Iterable[Any], none: str = "no card") -> list[Part]:
        out: list[Part] = []
        for name in names:
            if out:
                out.append(_t(" "))
            out.append(self.card(name))
        return out or [_t(none)]

    def counted(self, ev: dict) -> list[Part]:
        """The event's cards, or their number where the seat viewing did not see them."""
        if "cards" in ev:
            return self.cards(ev["cards"])
        return [_t(_count(ev.get("count", 0)))]

    def suit(self, s: Any) -> Part:
        return Part(suit_text(s, self.symbols), "suit", s)


def _name(v: Any) -> Part:
    """A word of the rule file: a zone, a unit, a declaration."""
    return Part(safe(str(v), one_line=True), "name")


# what a kind's narration gives: its parts (a move), or its parts, level and details
_Got = list[Part] | tuple[list[Part], str, tuple[Line, ...]]


def _count(n: int, what: str = "card") -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _amount(n: Any, unit: Any) -> Part:
    return Part(safe(f"{n} {unit}" + ("" if n == 1 else "s"), one_line=True), "name")
