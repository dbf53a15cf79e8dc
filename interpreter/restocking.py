"""Restocking (the ``restock`` keys of the drawing steps, ``kind: draw_meld`` and ``kind:
shedding``): when the stock is out and a card is to be drawn, the discard pile but its top card
(or all of it) becomes the stock again, turned over as it lies or shuffled, a bounded number of
times in a hand. docs/language.md, section 4, "Restocking".

A shuffled restock is a shuffle nobody sees: the ``restock`` event names the cards (every seat
saw them on the pile) in the canonical order, not in the order they lie; the views forget where
they are (``academie/api/views.py``), so that a card drawn from the new stock is seen by its
drawer alone. The orders a hand's restocks gave are kept (``restock_orders``) for the worlds a
search player draws (``interpreter/worlds.py``: a world keeps the places of the cards the seat
has seen since, and exchanges the rest among their places)."""

from __future__ import annotations

from typing import Any

from .base import StateParts, canon_key

RESTOCK = ("none", "turn", "shuffle")


class Restocking(StateParts):
    """``State``'s restocking of a drawing step's stock."""

    restock_orders: tuple = ()  # the new stocks of the hand's restocks, in order (bottom first)

    def _restock(self, spec: Any, stock: list, pile: list) -> bool:
        """When ``spec`` restocks and may still: the pile (but its top ``restock_keep`` cards)
        made the ``stock``, turned over or shuffled. Whether it was (else the stock stays out)."""
        if spec.restock == "none" or stock or len(self.restock_orders) >= spec.restocks:
            return False
        keep = spec.restock_keep
        if len(pile) <= keep:
            return False
        cards = pile[: len(pile) - keep]
        del pile[: len(pile) - keep]
        if spec.restock == "turn":  # turned over: the pile's bottom card the stock's top
            cards.reverse()
        else:
            cards = self._restock_shuffle(cards)
        stock[:] = cards
        self.restock_orders = (*self.restock_orders, tuple(cards))
        if self._logging:
            self.emit(
                {
                    "type": "restock",
                    "from": spec.discards,
                    "to": spec.stock,
                    "cards": [c.name for c in sorted(cards, key=canon_key)],
                    "shuffled": spec.restock == "shuffle",
                }
            )
        return True

    def _restock_shuffle(self, cards: list) -> list:
        """``cards`` in a new order, drawn from the game's generator (a world's: worlds.py)."""
        self.rng.shuffle(cards)
        return cards


def seen_since(events: list, seat: int) -> set[str]:
    """The cards ``seat`` saw in ``events`` (a hand's record: (public, owner, full) each): those
    shown face up, and those of the events it saw in full (its own draws); not those a later
    restock names."""
    out: set[str] = set()
    for public, owner, full in events:
        ev = full if full is not None and (owner == seat or (isinstance(owner, tuple) and seat in owner)) else public
        if ev.get("type") == "restock":
            continue
        c = ev.get("card")
        if isinstance(c, str):
            out.add(c)
        cs = ev.get("cards")
        if isinstance(cs, list):
            out.update(x for x in cs if isinstance(x, str))
    return out
