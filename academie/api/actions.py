"""Moves and their action ids: the names of moves, the ids of a game whose numbers go too
high to list, and a value as plain data."""

from __future__ import annotations

from typing import Any, Sequence, Union

from ..dsl.cards import Card, parse_card
from ..interpreter.state import PASS
from .errors import ApiError

__all__ = ["Move", "PASS"]

Move = Union[Card, str, int]
"""A move: a card, or the name of a declaration (``"pass"`` declines)."""


def _name(m: Move) -> str:
    return m.name if isinstance(m, Card) else str(m)


def _shown(v: Any) -> str:
    """``repr(v)`` for a message, cut: an argument may be any object, of any size."""
    try:
        r = repr(v) if isinstance(v, (str, int, float, Card)) else f"a {type(v).__name__}"
    except ValueError:  # an integer too long to be written out
        r = "a very large integer"
    return r if len(r) <= 60 else r[:57] + "..."


_EAGER_NUMBERS = 4096  # numbers whose action ids are listed; above, they are worked out (``_Actions``)


class _Actions:
    """The moves by action id, as a list would give them, for a game whose
    numbers go too high to list: the cards and declarations (``head``), then
    the numbers 0 … bound (a ``range``: no memory per number), then the suits."""

    __slots__ = ("head", "numbers", "tail", "_n", "_end")

    def __init__(self, head: Sequence[Move], numbers: range, tail: Sequence[Move]) -> None:
        self.head, self.numbers, self.tail = head, numbers, tail
        self._n = len(head)
        self._end = self._n + len(numbers)

    def __len__(self) -> int:
        return self._end + len(self.tail)

    def __getitem__(self, i: int) -> Move:
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i < self._n:
            return self.head[i]
        if i < self._end:
            return self.numbers[i - self._n]
        return self.tail[i - self._end]


class _ActionIds:
    """The action id of each move (as a dict would give it) for ``_Actions``."""

    __slots__ = ("head", "numbers", "tail", "_n", "_end")

    def __init__(self, moves: _Actions) -> None:
        self.head = {m: i for i, m in enumerate(moves.head)}
        self.numbers = moves.numbers
        self._n, self._end = moves._n, moves._end
        self.tail = {m: self._end + i for i, m in enumerate(moves.tail)}

    def __contains__(self, m: Any) -> bool:
        if isinstance(m, int):
            return m in self.numbers
        return m in self.head or m in self.tail

    def __getitem__(self, m: Any) -> int:
        if isinstance(m, int):
            if m in self.numbers:
                return self._n + m
            raise KeyError(m)
        i = self.head.get(m)
        return self.tail[m] if i is None else i


def _card_of(c: Card | str) -> Card:
    if isinstance(c, Card):
        return c
    k = parse_card(str(c))
    if k is None:
        raise ApiError(f"the stacked deck holds '{c}', which is not a card (write rank + suit: AS, 10H, KD)")
    return k


def _plain(v: Any) -> Any:
    """A value as JSON-ready data (cards by name, mappings keyed by strings)."""
    if isinstance(v, Card):
        return v.name
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v
