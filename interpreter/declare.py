"""Melds declared in trick play (``declare:`` of ``kind: tricks``): after each trick its winner
may show melds — combinations of his cards, a set, a run or a sum of the file's
``combinations:`` — by laying them face up on his side of the table (a per-seat zone). The
cards laid stay his to play: the trick loop offers the cards of his hand and of his table
alike. A meld must show at least one card from the hand; a card already shown may serve again
only in a meld of another kind (``reuse: other_kind``), or never (``reuse: never``).

A declaration is a sequence of decisions of atoms: the meld's name (or ``pass``), then, while
several ways of making it remain, a card that tells them apart (one they hold in different
numbers), or ``pass`` for the way made of the cards named so far when it is complete (a run of
three, where a run of four holds it too).

Copies of a card (a game of two packs) are one ``Card`` held twice: a way of making a meld is a
multiset of cards (a sorted tuple), and the record of what each card on a table was shown in
is kept per copy (``melded_as``: (seat, card) -> one set of meld names per copy on the table)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations as subsets
from itertools import product
from typing import Any, Generator

from ..dsl.combinations import Combination
from ..dsl.model import Step
from .base import PASS, Decision, StateParts, canon_key

MAX_WAYS = 5_000  # ways of making one meld looked at for one question; beyond, no more are found


def ways_of(comb: Combination, pool: list) -> list[tuple]:
    """Every way of making the combination ``comb`` (a set, a run, a sum) of the cards of ``pool``
    (copies of a card held twice may both serve): each a tuple of cards in canonical order, each
    way once; at most ``MAX_WAYS``."""
    found: dict[tuple, None] = {}
    only = comb.ranks
    cards = sorted((c for c in pool if only is None or c.rank in only), key=canon_key)
    least = comb.least

    def add(w) -> bool:
        found[tuple(sorted(w, key=canon_key))] = None
        return len(found) >= MAX_WAYS

    if comb.kind == "set":
        groups: dict[str, list] = {}
        for c in cards:
            if c.rank in comb.strength:
                groups.setdefault(c.rank, []).append(c)
        for g in groups.values():
            most = len(g) if comb.most is None else min(comb.most, len(g))
            for k in range(max(least, 1), most + 1):
                for w in subsets(g, k):
                    if add(w):
                        return list(found)
        return list(found)
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
            at = {i: list(dict.fromkeys(cs)) for i, cs in at.items()}  # a run takes one copy of each card
            for a in sorted(at):
                b = a
                while b in at:
                    size = b - a + 1
                    if size >= max(least, 2) and (comb.most is None or size <= comb.most):
                        for w in product(*(at[i] for i in range(a, b + 1))):
                            if len(set(w)) == len(w) and add(w):
                                return list(found)
                    b += 1
        return list(found)
    # a sum: any cards whose values make the total
    vals = comb.values or {}
    cards = [c for c in cards if vals.get(c.rank, 0) > 0]
    most = len(cards) if comb.most is None else min(comb.most, len(cards))
    for k in range(max(least, 1), most + 1):
        for w in subsets(cards, k):
            if sum(vals[c.rank] for c in w) == comb.total and add(w):
                return list(found)
    return list(found)


def _telling(ways: list[tuple], chosen: tuple) -> list:
    """The cards that tell the ways apart (several, each holding ``chosen``): those some way holds
    more copies of than are chosen, and the ways hold in different numbers; in canonical order."""
    out = []
    for c in sorted({c for w in ways for c in w}, key=canon_key):
        counts = [w.count(c) for w in ways]
        if max(counts) > chosen.count(c) and min(counts) != max(counts):
            out.append(c)
    return out


def _holds(way: tuple, part: tuple) -> bool:
    """Whether the multiset ``way`` holds the multiset ``part``."""
    need = Counter(part)
    return all(way.count(c) >= k for c, k in need.items())


class Declare(StateParts):
    """``State``'s declarations of melds in trick play."""

    # (seat, card) -> for each copy of the card on the seat's table, the names of the melds it was
    # shown in (a new dict at each change: copies of the state share it safely)
    melded_as: dict = {}

    def _playable(self, st: Step, seat: int) -> list:
        """The cards ``seat`` may play at a trick step: his hand, and with ``declare`` his table too
        (in canonical order)."""
        hand = self.hand[seat]
        if st.declare is None:
            return hand
        shown = self.pzones[st.declare.table][seat]
        return sorted((*hand, *shown), key=canon_key) if shown else hand

    def _fresh(self, seat: int, c: Any, name: str, on_table: int, never: bool) -> int:
        """The copies of ``c`` on ``seat``'s table that may serve in the meld ``name``: those not
        shown in it before (``never``: those never shown at all)."""
        recs = self.melded_as.get((seat, c), ())
        used = sum(1 for r in recs[:on_table] if (r if never else name in r))
        return on_table - used

    def _meld_ways(self, st: Step, seat: int) -> dict[str, list[tuple]]:
        """Each meld of ``st``'s ``declare`` -> the ways ``seat`` may declare it now: of his hand
        and table, at least one card from the hand, no copy serving that was shown before in a
        meld of the same kind (``reuse: other_kind``) or at all (``never``)."""
        spec = st.declare
        hand = self.hand[seat]
        shown = self.pzones[spec.table][seat]
        never = spec.reuse == "never"
        in_hand, on_table = Counter(hand), Counter(shown)
        out: dict[str, list[tuple]] = {}
        for m in spec.melds:
            test = m.cards.fn if m.cards is not None else None
            pool = [c for c in (*hand, *shown) if test is None or test(self, seat, c)]
            ok = []
            for w in ways_of(m.comb, pool):
                need = Counter(w)
                if not any(in_hand[c] for c in need):
                    continue
                if all(k <= in_hand[c] + self._fresh(seat, c, m.name, on_table[c], never) for c, k in need.items()):
                    ok.append(w)
            out[m.name] = ok
        return out

    def _unshow(self, seat: int, c: Any) -> None:
        """A copy of ``c`` played from ``seat``'s table: its record goes with it (of two copies, the
        one shown in more melds)."""
        key = (seat, c)
        recs = self.melded_as.get(key)
        if recs:
            i = max(range(len(recs)), key=lambda j: len(recs[j]))
            used = dict(self.melded_as)
            used[key] = recs[:i] + recs[i + 1 :]
            self.melded_as = used

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
        never = spec.reuse == "never"
        while k < spec.most and not self._hand_over:
            self.mover = seat
            ways = self._meld_ways(st, seat)
            if name is None:
                names = [m.name for m in spec.melds if ways[m.name]]
                if not names:
                    return
                m = yield from self._choice("declare", seat, [PASS, *names], ("declare", seat, k, None, ()))
                if m == PASS:
                    return
                name, chosen = m, ()
            left = [w for w in ways[name] if _holds(w, chosen)]
            while len(left) > 1:  # several ways: a card they hold more or fewer copies of
                moves = _telling(left, chosen)
                if any(len(w) == len(chosen) for w in left):  # a way is complete: pass takes it
                    moves = [PASS, *moves]
                c: Any = yield from self._choice("declare", seat, moves, ("declare", seat, k, name, chosen))
                if c == PASS:
                    left = [w for w in left if len(w) == len(chosen)]
                    break
                chosen = (*chosen, c)
                if logging:
                    self.emit({"type": "choose", "seat": seat, "card": c.name})
                left = [w for w in left if _holds(w, chosen)]
            way = left[0]
            # the copies on the table not shown in this meld serve first, the rest come from the hand
            # (at least one: a meld shows a card from the hand)
            need = Counter(way)
            on_table = Counter(table)
            from_table = {c: min(k2, self._fresh(seat, c, name, on_table[c], never)) for c, k2 in need.items()}
            if sum(need[c] - from_table[c] for c in need) == 0:
                c0 = next(c for c in way if c in hand)
                from_table[c0] -= 1
            used = dict(self.melded_as)
            for c, k2 in need.items():
                recs = list(used.get((seat, c), ()))
                recs += [frozenset()] * (on_table[c] - len(recs))
                t = from_table[c]
                for i, r in enumerate(recs):  # the table's copies that serve: those fresh for this meld
                    if t and not (r if never else name in r):
                        recs[i] = r | {name}
                        t -= 1
                for _ in range(k2 - from_table[c]):  # from the hand
                    hand.remove(c)
                    table.append(c)
                    recs.append(frozenset({name}))
                used[(seat, c)] = tuple(recs)
            self.melded_as = used
            table.sort(key=canon_key)
            self._touched.add(seat)
            if logging:
                self.emit({"type": "meld", "seat": seat, "cards": [c.name for c in way], "as": name})
            if rules[name].do:
                self._effects(rules[name].do, seat)
            k, name, chosen = k + 1, None, ()
