"""Capture play (``_step_capture``, the fishing family): each player in turn plays a card from
his hand to a shared layout and takes table cards with it (a card of its rank, or sets of cards
whose values add up to its value, several sets at once), makes or raises a build that he owns,
or trails the card; the last to take has the cards left at the end.

A turn is two kinds of decision, each of atoms: the card played (``play``), then, one at a time,
the table cards it goes with and a named move (``capture``): ``take``, ``build`` or ``trail``.
Only the table cards that can still be part of a legal taking or build are offered, ``take``
only when the cards chosen are a legal taking, ``build`` only when they make a legal build.
The played card waits in ``trick`` while its player chooses.

Builds (``self.builds``) are lists ``[cards, value, owner]``; their cards lie on the layout and
are taken only together, by a card of the build's value. Expressions read them with
``builds(SEAT)`` and ``build_value(CARD)``.
"""

from __future__ import annotations

from typing import Any

from ..dsl.build_capture import CaptureSpec
from ..dsl.cards import Card
from ..dsl.model import Step
from .base import Decision, StateParts, canon_key

# a table of this many units or more is too large to search for every taking (bounded work)
_MAX_UNITS = 24
# the takings of one card worked out at most (unions of sets; a table of many small cards)
_MAX_TAKINGS = 20_000
# the steps of the search for sets adding up to a value, and for builds, at one decision
_MAX_STEPS = 200_000


class Capture(StateParts):
    """``State``'s capture step."""

    builds: list = []  # [cards, value, owner] of each build on the layout (a new list per step)

    def _card_value(self, expr, seat: int, pure: bool):
        """A function card -> the number ``expr`` gives for it (a table per card when the
        expression reads only the card)."""
        fn = expr.fn
        if not pure:
            return lambda c: fn(self, seat, c)
        table = self._compiled.card_values.get(id(expr))
        if table is None:
            table = self._compiled.card_values[id(expr)] = {}

        def get(c: Card) -> int:
            v = table.get(c)
            if v is None:
                v = table[c] = fn(self, seat, c)
            return v

        return get

    def _units(self, table: list[Card], value) -> list[tuple[Card, tuple, int, bool]]:
        """The layout as units: (the card that names it, its cards, its value, whether a build)."""
        inb: set[Card] = set()
        out = []
        for cards, v, _o in self.builds:
            inb.update(cards)
            out.append((cards[0], tuple(cards), v, True))
        for c in table:
            if c not in inb:
                out.append((c, (c,), value(c), False))
        return out[:_MAX_UNITS]

    def _capture_options(self, st: Step, seat: int, p: Card, units: list) -> tuple[set, dict]:
        """The legal takings of card ``p`` (masks over ``units``) and the legal builds (mask ->
        the build's value)."""
        cs: CaptureSpec = st.capture
        fn = self._card_value(cs.value, seat, cs.pure)
        v = fn(p)
        # the values the card played may take by: its value, and another one (``also``) if any
        targets = [v]
        if cs.also is not None:
            also = self._card_value(cs.also, seat, cs.pure)
            a = also(p)
            if a > 0 and a != v:
                targets.append(a)
        loose = [(i, u[2]) for i, u in enumerate(units) if not u[3] and u[2] > 0]
        ranked = [1 << i for i, u in enumerate(units) if not u[3] and u[0].rank == p.rank]
        takes: set[int] = set()
        budget = [_MAX_STEPS]  # the steps of the searches below, all told
        for t in targets:
            groups: list[int] = list(ranked)
            for i, u in enumerate(units):
                if t > 0 and u[2] == t and (u[3] or u[0].rank != p.rank):
                    groups.append(1 << i)
            if t > 0:  # sets of two or more loose cards adding up to t
                sums: list[int] = []

                def grow(k: int, total: int, mask: int, size: int) -> None:
                    budget[0] -= 1
                    if budget[0] < 0:  # bounded work (a rule file giving every card a small value)
                        return
                    if total == t:
                        if size >= 2:
                            sums.append(mask)
                        return
                    for j in range(k, len(loose)):
                        i, w = loose[j]
                        if total + w <= t:
                            grow(j + 1, total + w, mask | (1 << i), size + 1)

                grow(0, 0, 0, 0)
                groups.extend(sums)
            if cs.rank_first and ranked:  # a card of its rank on the table is taken before any sum
                groups = list(ranked)
            if cs.several:
                reach = {0}
                for g in groups:
                    reach |= {m | g for m in reach if not m & g}
                    if len(reach) > _MAX_TAKINGS:  # bounded work on a crowded table
                        break
                takes |= reach - {0}
            else:
                takes.update(groups)
        builds: dict[int, int] = {}
        if cs.builds and v > 0:
            held = {fn(c) for c in self.hand[seat]}
            if cs.also is not None:
                also = self._card_value(cs.also, seat, cs.pure)
                held |= {also(c) for c in self.hand[seat]}
            held.discard(0)
            top = max(held, default=0)
            items = [(i, u[2], u[3]) for i, u in enumerate(units) if u[2] > 0]

            def grow_b(k: int, total: int, mask: int, nb: int) -> None:
                budget[0] -= 1
                if budget[0] < 0:
                    return
                if mask and total in held:
                    builds[mask] = total
                for j in range(k, len(items)):
                    i, w, isb = items[j]
                    if total + w <= top and nb + isb <= 1:
                        grow_b(j + 1, total + w, mask | (1 << i), nb + isb)

            grow_b(0, v, 0, 0)
        return takes, builds

    def _step_capture(self, st: Step, frame: tuple | None = None):
        """Capture play, turn by turn, until every hand is empty and no hand is dealt again."""
        cs: CaptureSpec = st.capture
        n = self.n
        table = self.zones[cs.layout]
        won = self.pzones[cs.won_to]
        hands, trick = self.hand, self.zones["trick"]
        logging = self._logging
        seat: int
        last_taker: int | None
        chosen: list[Card]
        if frame is None:
            self.builds = []
            src = self.zones[cs.refill_from] if cs.refill_from is not None else None
            for _ in range(cs.turn_up):
                if src:
                    c = src.pop(0)
                    table.append(c)
                    if logging:
                        self.emit({"type": "turnup", "card": c.name, "trump": None, "to": cs.layout})
            seat = cs.leader.fn(self, None, None) % n if cs.leader is not None else (self.dealer + 1) % n
            last_taker, phase, chosen = None, 0, []
        else:
            seat, last_taker, phase, chosen_t = frame
            chosen = list(chosen_t)
        while not self._hand_over:
            if phase == 0:
                if not any(hands):
                    src = self.zones[cs.refill_from] if cs.refill_from is not None else None
                    if not src or cs.refill <= 0:
                        break
                    first = (self.dealer + 1) % n
                    new: list[list[Card]] = [[] for _ in range(n)]
                    for _ in range(cs.refill):  # one at a time, from the dealer's next
                        for k in range(n):
                            if src:
                                new[(first + k) % n].append(src.pop(0))
                    for k in range(n):
                        s_ = (first + k) % n
                        self._move_cards(new[s_], hands[s_], s_, "hand", new[s_], rule=("hand", st.name, "refill"))
                    continue
                if not hands[seat]:
                    seat = (seat + 1) % n
                    continue
                self.mover = seat
                options = sorted(hands[seat], key=canon_key)
                if len(options) == 1:  # his last card: played without asking
                    c = options[0]
                elif self._auto is not None:
                    c = self._ask(seat, options)
                else:
                    self._frame = (seat, last_taker, 0, ())
                    c = yield Decision(seat, options, "play")
                hands[seat].remove(c)
                self._touched.add(seat)
                trick.append(c)
                self._count_play()
                if logging:
                    self.emit({"type": "play", "seat": seat, "card": c.name})
                phase, chosen = 1, []
            p = trick[-1]
            units = self._units(table, self._card_value(cs.value, seat, cs.pure))
            takes, builds = self._capture_options(st, seat, p, units)
            index = {u[0]: i for i, u in enumerate(units)}
            sel = 0
            for c in chosen:
                sel |= 1 << index[c]
            moves: list[Any] = []
            for i, u in enumerate(units):
                b = 1 << i
                if sel & b:
                    continue
                m = sel | b
                if any(m & t == m for t in takes) or any(m & t == m for t in builds):
                    moves.append(u[0])
            moves.sort(key=canon_key)  # cards first, in the canonical order, then the named moves
            if not sel and not (cs.must_take and takes):
                moves.append("trail")
            if sel and sel in builds:
                moves.append("build")
            if sel and sel in takes:
                moves.append("take")
            # the builds offered read his hand: whenever one could be (builds allowed, a card of
            # value played, a card of value on the table) he is asked, one move or more, so that
            # being asked tells the other seats nothing of his hand
            may_build = (
                cs.builds
                and not sel
                and any(u[2] > 0 for u in units)
                and self._card_value(cs.value, seat, cs.pure)(p) > 0
            )
            if len(moves) == 1 and (self._auto is not None or not may_build):
                m_ = moves[0]
            elif self._auto is not None:
                m_ = self._ask(seat, moves)
            else:
                self._frame = (seat, last_taker, 1, tuple(chosen))
                m_ = yield Decision(seat, moves, "capture")
            if isinstance(m_, Card):
                chosen.append(m_)
                continue
            trick.remove(p)
            if m_ == "trail":
                table.append(p)
                if logging:
                    self.emit({"type": "trail", "seat": seat, "card": p.name})
            elif m_ == "take":
                taken: list[Card] = []
                for c in chosen:
                    taken.extend(units[index[c]][1])
                self.builds = [b for b in self.builds if b[0][0] not in chosen]
                for c in taken:
                    table.remove(c)
                won[seat].append(p)
                won[seat].extend(taken)
                last_taker = seat
                if logging:
                    self.emit({"type": "capture", "seat": seat, "card": p.name, "cards": [c.name for c in taken]})
                if cs.on_capture:
                    self._effects(cs.on_capture, seat)
            else:  # build
                cards: list[Card] = []
                for c in chosen:
                    cards.extend(units[index[c]][1])
                total = builds[sel]
                self.builds = [b for b in self.builds if b[0][0] not in chosen]
                table.append(p)
                self.builds.append([[*cards, p], total, seat])
                if logging:
                    self.emit(
                        {
                            "type": "build",
                            "seat": seat,
                            "card": p.name,
                            "cards": [c.name for c in cards],
                            "value": total,
                        }
                    )
            phase, chosen = 0, []
            seat = (seat + 1) % n
        if cs.rest == "last" and last_taker is not None and table:
            rest = table[:]
            table.clear()
            won[last_taker].extend(rest)
            self._touched.add(last_taker)
            if logging:
                self.emit({"type": "rest", "seat": last_taker, "cards": [c.name for c in rest]})
        self.builds = []
