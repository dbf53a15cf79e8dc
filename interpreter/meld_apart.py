"""Melds laid apart in the turn, and cards laid off on the melds on the table (``draw_meld``
with ``lay_off_in_turn``: docs/language.md, kind: draw_meld, "Laying off in the turn").

After his draw a player chooses cards one by one (a ``choose`` event, for him alone): cards that
make, with those chosen, part of one set or run of his hand, or (the first chosen) a card that
lays off on a meld on the table (his own with ``own``, any seat's with ``all``). Then ``meld``
lays the cards chosen down apart, one meld of his (a ``meld`` event), or ``lay_off`` lays the one
card chosen off (a ``lay_off`` event, ``on`` the meld's owner); ``pass``, before any card is
chosen, ends his laying out. A meld laid down stays one: the cards laid off on it make one
combination of ``lay_off_melds`` (default ``melds``) with it."""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.cards import Card
from ..dsl.combinations import Combination, _candidates
from .base import PASS, Decision, StateParts, canon_key


def melds_in(melds: Combination, hand: list) -> list[frozenset]:
    """Every single set or run of ``melds`` made of cards of ``hand``."""
    cards = tuple(sorted(hand, key=canon_key))
    out = {frozenset(cards[i] for i in m) for part in melds.of for m in _candidates(melds, part, cards)}
    return sorted(out, key=lambda m: sorted(canon_key(x) for x in m))


def is_one(melds: Combination, cards: tuple) -> bool:
    """Whether ``cards`` make one set or run of ``melds``, every card in it."""
    k = len(cards)
    return any(len(m) == k for part in melds.of for m in _candidates(melds, part, cards))


def has_room(melds: Combination, cards: tuple) -> bool:
    """Whether ``cards``, one set or run of ``melds``, may still take a card (a set of its
    most cards may not)."""
    k = len(cards)
    return any(
        part.most is None or k < part.most
        for part in melds.of
        if any(len(m) == k for m in _candidates(melds, part, cards))
    )


class LayApart(StateParts):
    """``DrawMeld``'s laying out in the turn with melds apart."""

    def _off_targets(self, spec: Any, seat: int, groups: tuple, x: Card) -> list[int]:
        """The melds on the table (their places in ``groups``) that ``x`` lays off on."""
        on = spec.lay_off_melds if spec.lay_off_melds is not None else spec.melds
        anyone = spec.lay_off_in_turn == "all"
        return [i for i, (o, g) in enumerate(groups) if (anyone or o == seat) and is_one(on, (*g, x))]

    def _lay_apart(
        self, spec: Any, seat: int, chosen: list, groups: tuple, frame: tuple
    ) -> Generator[Decision, Any, Any]:
        """One move of the laying out: a card chosen (returned, its ``choose`` event made),
        ``pass`` (returned), or a meld laid down or a card laid off (made; the melds on the
        table after it returned)."""
        hand = self.hand[seat]
        have = frozenset(chosen)
        fit = [m for m in melds_in(spec.melds, hand) if have <= m]
        cards = {x for m in fit for x in m} - have
        if not chosen:
            cards |= {x for x in hand if self._off_targets(spec, seat, groups, x)}
        moves: list = sorted(cards, key=canon_key)
        if not chosen:
            moves.append(PASS)
        if chosen and have in fit:
            moves.append("meld")
        if len(chosen) == 1 and self._off_targets(spec, seat, groups, chosen[0]):
            moves.append("lay_off")
        # every move asked, even one alone (whether he may lay anything, which cards complete a meld,
        # whether a card chosen also melds: his to know alone), unless every card of his hand is
        # chosen, two or more: then ``meld`` alone, forced by what every seat sees (the cards chosen
        # are counted for all, the hand's size is public)
        forced = len(moves) == 1 and len(chosen) == len(hand) > 1
        m = moves[0] if forced else (yield from self._choice("meld", seat, moves, frame))
        if isinstance(m, Card):
            if self._logging:
                self.emit({"type": "choose", "seat": seat, "card": m.name})
            return m
        if m == PASS:
            return PASS
        table = self.pzones[spec.table]
        self._touched.add(seat)
        if m == "meld":
            laid = sorted(chosen, key=canon_key)
            for x in laid:
                hand.remove(x)
            table[seat].extend(laid)
            if self._logging:
                self.emit({"type": "meld", "seat": seat, "cards": [x.name for x in laid]})
            return (*groups, (seat, tuple(laid)))
        # lay_off: on the first meld it fits that it leaves open to more (a run before a set made full)
        x = chosen[0]
        on = spec.lay_off_melds if spec.lay_off_melds is not None else spec.melds
        fits = self._off_targets(spec, seat, groups, x)
        i = next((i for i in fits if has_room(on, (*groups[i][1], x))), fits[0])
        o, g = groups[i]
        hand.remove(x)
        table[o].append(x)
        if self._logging:
            self.emit({"type": "lay_off", "seat": seat, "card": str(x), "on": o})
        return (*groups[:i], (o, (*g, x)), *groups[i + 1 :])
