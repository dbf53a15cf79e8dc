"""Card notation shared by the rule language and the interpreter.

Cards are written rank + suit letter (``AS``, ``10H``, ``KD``, ``7C``). Every
card is interned: there is exactly one ``Card`` object per name, so cards
compare by identity and hash cheaply. ``Card.canon`` is the notation order
(suits S H D C, in that order; within a suit ranks 2 < … < 10 < J < Q < K < A;
docs/language.md, "Expressions"), used for listings, the canonical order of
moves and the ``first`` agent; it is not any game's ranking (games rank cards by
their ``orders``).

Besides the fifty-two there is one card of no suit and no rank, the joker ``JK`` (``pack: jokers:``;
a blank card): it counts as no suit and no rank (``card.suit`` and
``card.rank`` are equal to none of the pack's), ranks in no order, and stands for a card only where
a combination says it is wild (``wild:``, dsl/wild.py). It comes after the others in the notation
order.
"""

from __future__ import annotations

import re

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
COLOURS = {"S": "black", "C": "black", "H": "red", "D": "red"}
_CARD_RE = re.compile(r"^(10|[2-9JQKA])([SHDC])$")
JOKER = "JK"  # the name of the joker (the blank card), a card of no suit and no rank


class Card:
    __slots__ = ("rank", "suit", "name", "canon", "colour")

    def __init__(self, rank: str, suit: str, canon: int):
        self.rank = rank
        self.suit = suit
        self.name = rank + suit
        self.canon = canon
        self.colour = COLOURS.get(suit, "none")

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):  # pickling keeps interning (worker processes)
        return (card, (self.name,))


_ALL: dict[str, Card] = {}
for _si, _s in enumerate(SUITS):
    for _ri, _r in enumerate(RANKS):
        _ALL[_r + _s] = Card(_r, _s, _si * len(RANKS) + _ri)

_ALL[JOKER] = Card(JOKER, "", len(SUITS) * len(RANKS))  # no suit: its name is its rank
CARDS_BY_NAME: dict[str, Card] = _ALL
"""Every card by its name (``"QS"``, ``"10H"``): read only."""


def card(name: str) -> Card:
    """The card named ``name`` (``KeyError`` if it is not a card)."""
    return _ALL[name]


def parse_card(text: str) -> Card | None:
    """The card written ``text`` (case-insensitive), or None if it is not one."""
    t = text.strip().upper()
    if t.startswith("1") and not t.startswith("10") and len(t) == 3:
        return None
    if t == JOKER:
        return _ALL[JOKER]
    return _ALL.get(t) if _CARD_RE.match(t) else None


def all_cards() -> list[Card]:
    """Every card of the fifty-two (suits × ranks; the joker is not among them), in canonical order."""
    return sorted((c for c in _ALL.values() if c.suit), key=lambda c: c.canon)


def pretty(c: Card) -> str:
    return c.rank + SUIT_SYMBOLS.get(c.suit, "")
