"""Melds declared in trick play (``declare:`` of ``kind: tricks``): after each trick its winner
may show melds — combinations of his cards, a set, a run or a sum of the file's
``combinations:`` — by laying them face up on his side of the table (a per-seat zone). The
cards laid stay his to play: the trick loop offers the cards of his hand and of his table
alike. A meld must show at least one card from the hand; a card already shown may serve again
only in a meld of another kind (``reuse: other_kind``), or never (``reuse: never``).

A declaration is a sequence of decisions of atoms: the meld's name (or ``pass``), then, while
several ways of making it remain, a card that some of them hold and others not."""

from __future__ import annotations

from itertools import combinations as subsets
from itertools import product
from typing import Any, Generator

from ..dsl.combinations import Combination
from ..dsl.model import Step
from .base import PASS, Decision, StateParts, canon_key

MAX_WAYS = 5_000  # ways of making one meld looked at for one question; beyond, no more are found


def ways_of(comb: Combination, pool: list) -> list[frozenset]:
    """Every way of making the combination ``comb`` (a set, a run, a sum) of the cards of ``pool``
    (each a frozenset of cards; at most ``MAX_WAYS``)."""
    out: list[frozenset] = []
    only = comb.ranks
    cards = [c for c in pool if only is None or c.rank in only]
    least = comb.least
    if comb.kind == "set":
        groups: dict[str, list] = {}
        for c in cards:
            if c.rank in comb.strength:
                groups.setdefault(c.rank, []).append(c)
        for g in groups.values():
            most = len(g) if comb.most is None else min(comb.most, len(g))
            for k in range(max(least, 1), most + 1):
                for w in subsets(g, k):
                    out.append(frozenset(w))
                    if len(out) >= MAX_WAYS:
                        return out
        return out
    if comb.kind == "run":
        lines: dict[Any, dict[int, list]] = {}
        for c in cards:
            place = comb.strength.get(c.rank)
            if place is None:
                continue
            line = lines.setdefault(c.suit if comb.suited else None, {})
            line.setdefault(place, []).append(c)
            if c.rank in comb.low:
                line.setdefault(0, []).append(c)
        for at in lines.values():
            for a in sorted(at):
                b = a
                while b in at:
                    size = b - a + 1
                    if size >= max(least, 2) and (comb.most is None or size <= comb.most):
                        for w in product(*(at[i] for i in range(a, b + 1))):
                            if len(set(w)) == len(w):
                                out.append(frozenset(w))
                                if len(out) >= MAX_WAYS:
                                    return out
                    b += 1
        return out
    # a sum: any cards whose values make the total
    vals = comb.values or {}
    cards = [c for c in cards if vals.get(c.rank, 0) > 0]
    most = len(cards) if comb.most is None else min(comb.most, len(cards))
    for k in range(max(least, 1), most + 1):
        for w in subsets(cards, k):
            if sum(vals[c.rank] for c in w) == comb.total:
                out.append(frozenset(w))
                if len(out) >= MAX_WAYS:
                    return out
    return out


class Declare(StateParts):
    """``State``'s declarations of melds in trick play."""

    # each card shown in a meld this hand -> the names of the melds it was shown in (a new dict
    # at each change: copies of the state share it safely)
    melded_as: dict = {}

    def _playable(self, st: Step, seat: int) -> list:
        """The cards ``seat`` may play at a trick step: his hand, and with ``declare`` his table too
        (in canonical order)."""
        hand = self.hand[seat]
        if st.declare is None:
            return hand
        shown = self.pzones[st.declare.table][seat]
        return sorted((*hand, *shown), key=canon_key) if shown else hand

    def _meld_ways(self, st: Step, seat: int) -> dict[str, list[frozenset]]:
        """Each meld of ``st``'s ``declare`` -> the ways ``seat`` may declare it now: of his hand
        and table, at least one card from the hand, no card shown before in a meld of the same
        kind (``reuse: other_kind``) or at all (``never``)."""
        spec = st.declare
        hand = self.hand[seat]
        shown = self.pzones[spec.table][seat]
        in_hand = set(map(id, hand))
        used = self.melded_as
        out: dict[str, list[frozenset]] = {}
        for m in spec.melds:
            test = m.cards.fn if m.cards is not None else None
            pool = [c for c in (*hand, *shown) if test is None or test(self, seat, c)]
            ok = []
            for w in ways_of(m.comb, pool):
                if not any(id(c) in in_hand for c in w):
                    continue
                if spec.reuse == "never":
                    if any(c in used for c in w):
                        continue
                elif any(m.name in used.get(c, ()) for c in w):
                    continue
                ok.append(w)
            out[m.name] = ok
        return out

    def _declare_window(self, st: Step, seat: int, frame: tuple | None) -> Generator[Decision, Any, None]:
        """After a trick won by ``seat``: the melds he declares (docs/language.md, ``declare``).
        ``frame``: a copy resumes at the decision its original was paused at."""
        spec = st.declare
        name: Any
        chosen: tuple
        if frame is None:
            if spec.when is not None and not spec.when.fn(self, seat, None):
                return
            k, name, chosen = 0, None, ()
        else:
            _, _, k, name, chosen = frame
        hand, table = self.hand[seat], self.pzones[spec.table][seat]
        logging = self._logging
        rules = {m.name: m for m in spec.melds}
        while k < spec.most and not self._hand_over:
            self.mover = seat
            ways = self._meld_ways(st, seat)
            if name is None:
                names = [m.name for m in spec.melds if ways[m.name]]
                if not names:
                    return
                m = yield from self._declare_ask(seat, [PASS, *names], ("declare", seat, k, None, ()))
                if m == PASS:
                    return
                name, chosen = m, ()
            left = [w for w in ways[name] if all(c in w for c in chosen)]
            while len(left) > 1:  # several ways: a card some hold and others not
                common = frozenset.intersection(*left)
                moves = sorted(frozenset().union(*left) - common, key=canon_key)
                c: Any = yield from self._declare_ask(seat, moves, ("declare", seat, k, name, chosen))
                chosen = (*chosen, c)
                if logging:
                    self.emit({"type": "choose", "seat": seat, "card": c.name})
                left = [w for w in left if c in w]
            way = left[0]
            new = [c for c in hand if c in way]
            for c in new:
                hand.remove(c)
            table.extend(new)
            table.sort(key=canon_key)
            used = dict(self.melded_as)
            for c in way:
                used[c] = used.get(c, frozenset()) | {name}
            self.melded_as = used
            self._touched.add(seat)
            if logging:
                cards = sorted(way, key=canon_key)
                self.emit({"type": "meld", "seat": seat, "cards": [c.name for c in cards], "as": name})
            if rules[name].do:
                self._effects(rules[name].do, seat)
            k, name, chosen = k + 1, None, ()

    def _declare_ask(self, seat: int, moves: list, frame: tuple) -> Generator[Decision, Any, Any]:
        """The seat's choice among ``moves``: asked of its agent, or yielded."""
        if self._auto is not None:
            return self._ask(seat, moves)
        self._frame = frame
        m = yield Decision(seat, moves, "declare")
        return m
