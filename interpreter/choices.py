"""The steps where players choose something other than a card to play: a
number (``_step_choose_number``: a bid of tricks, a count to declare), a suit
(``_step_choose_suit``: the trump named by a player, the suit of a called
card) and cards to set aside (``_step_choose_cards``: a discard, cards passed to another
seat, an exchange with a stock).

Cards are chosen one at a time (a decision per card, then ``pass`` to stop
where fewer may be chosen), and stay in the chooser's zone until every seat of
the step has chosen: then each seat's cards go where the step says, all at
once, as players who choose in secret and then pass their cards together.
Both steps pause at their decisions and save a frame for ``copy()`` (see
``docs/engine.md``, "Copies").
"""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.errors import RuleError
from ..dsl.model import Step
from .base import PASS, Decision, StateParts, canon_key

# the most numbers one decision offers (a range wider than this is a fault of the rule file)
MAX_CHOICES = 1000


class Choices(StateParts):
    """``State``'s ``choose_number`` and ``choose_cards`` steps."""

    def _choosers(self, st: Step) -> list[int]:
        """The seats that choose, in play order from the step's first."""
        n = self.n
        first = st.first.fn(self, None, None) % n if st.first is not None else (self.dealer + 1) % n
        order = [(first + k) % n for k in range(n)]
        who = st.who.fn if st.who is not None else None
        return [s for s in order if who is None or who(self, s, None)]

    def _bounds(self, st: Step, seat: int) -> tuple[int, int]:
        lo = st.low.fn(self, seat, None) if st.low is not None else 0
        assert st.high is not None, "a choose step has its max (the model requires one)"
        hi = st.high.fn(self, seat, None)
        if lo < 0 or hi < lo:
            raise RuleError(
                f"seat {seat} is to choose from {lo} to {hi}: the least must be 0 or more, and no more than the greatest",
                st.pos,
                code="runtime",
            )
        return lo, hi

    def _allowed(self, allow, seat: int, v: Any) -> bool:
        """Whether ``allow`` admits ``v`` for ``seat``: ``value`` reads it
        from the state, so that a card test inside (``any(hand(seat), …)``)
        still sees it."""
        self.under_test = v
        try:
            return bool(allow(self, seat, v))
        finally:
            self.under_test = None

    def _step_choose_number(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """Each seat in turn chooses a number from ``min`` to ``max`` that
        ``allow`` admits; it is kept in the counter ``into`` (``NAME(seat)``
        reads it afterwards) and logged. ``frame``: a copy resumes at the
        seat its original was paused at (the options are worked out again:
        nothing has changed them since)."""
        if frame is None:
            order, k0 = self._choosers(st), 0
        else:
            order, k0 = frame
        into = st.into
        assert into is not None, "a choose_number step keeps its numbers (the model requires into)"
        bound = self.g.number_bound
        allow = st.allow.fn if st.allow is not None else None
        for k in range(k0, len(order)):
            seat = order[k]
            lo, hi = self._bounds(st, seat)
            if hi > bound or hi - lo >= MAX_CHOICES:
                raise RuleError(
                    f"seat {seat} may choose up to {hi}, more than this game's greatest number, {bound} "
                    "(write max: as a number to set it)"
                    if hi > bound
                    else f"seat {seat} may choose from {lo} to {hi}: more than {MAX_CHOICES} numbers to choose from",
                    st.high.pos if st.high is not None else st.pos,
                    code="runtime",
                )
            options = [v for v in range(lo, hi + 1) if allow is None or self._allowed(allow, seat, v)]
            if not options:
                raise RuleError(
                    f"seat {seat} has no number to choose: none from {lo} to {hi} is allowed", st.pos, code="runtime"
                )
            self.mover = seat
            if self._auto is not None:
                v = self._ask(seat, options)
            else:
                self._frame = (order, k)
                v = yield Decision(seat, options, "number")
            self.pvars[into][seat] = v
            self._vis_chosen(into, seat)
            if self._logging:
                ev = {"type": "number", "seat": seat, "value": v, "into": into}
                if v in st.value_labels:  # the answer in the game's words ("order it up")
                    ev["said"] = st.value_labels[v]
                if into in self.g.labels:
                    ev["label"] = self.g.labels[into]
                self.emit(ev)

    def _step_choose_suit(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """Each seat in turn (as ``choose_number``) names one of the suits
        ``suits`` (default: the pack's) that ``allow`` admits (``value`` the
        suit under test): kept in the counter ``into`` if any, made the hand's
        trump unless ``sets_trump: false``, and logged (``suit`` event, seen by
        all: a suit is named aloud). ``frame``: a copy resumes at the seat its
        original was paused at."""
        if frame is None:
            order, k0 = self._choosers(st), 0
        else:
            order, k0 = frame
        suits = list(st.suits) or self.g.suits
        allow = st.allow.fn if st.allow is not None else None
        for k in range(k0, len(order)):
            seat = order[k]
            options = [v for v in suits if allow is None or self._allowed(allow, seat, v)]
            if not options:
                raise RuleError(f"seat {seat} has no suit to name: none is allowed", st.pos, code="runtime")
            self.mover = seat
            if self._auto is not None:
                v = self._ask(seat, options)
            else:
                self._frame = (order, k)
                v = yield Decision(seat, options, "suit")
            if st.into is not None:
                self.pvars[st.into][seat] = v
                self._vis_chosen(st.into, seat)
            if st.sets_trump:
                self.trump = v
            if self._logging:
                ev = {"type": "suit", "seat": seat, "value": v}
                if st.into is not None:
                    ev["into"] = st.into
                if st.sets_trump:
                    ev["trump"] = v
                self.emit(ev)

    def _step_choose_cards(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """Each seat in turn chooses cards of its zone ``from`` (those passing
        ``cards``), one at a time: at least ``min``, at most ``max`` (``pass``
        stops once ``min`` are chosen; it comes after the cards, as
        in the order of action ids). When all have chosen, each seat's
        cards go to ``to`` (evaluated with ``seat`` the chooser), and their
        number to the counter ``into``. ``frame``: a copy resumes at the
        decision its original was paused at."""
        if frame is None:
            order, k0, chosen = self._choosers(st), 0, {}
        else:
            order, k0, chosen = frame
            chosen = {s: cs[:] for s, cs in chosen.items()}
        assert st.src is not None and st.dest is not None, "a choose_cards step has from and to (the model)"
        src_of, test = st.src.fn, st.card_test.fn if st.card_test is not None else None
        for k in range(k0, len(order)):
            seat = order[k]
            lo, hi = self._bounds(st, seat)
            mine = chosen.setdefault(seat, [])
            zone = src_of(self, seat, None)
            # a card chosen by a seat before him (from a shared zone) is his no longer
            taken = [c for s, cs in chosen.items() if s != seat for c in cs] if len(chosen) > 1 else []
            owner = self._zone_owner.get(id(zone))
            if owner != seat and self._logging and not mine and (frame is None or k > k0):
                # a zone not his own: he looks at the cards there to choose from (he alone)
                self.emit(
                    {
                        "type": "look",
                        "seat": seat,
                        **self._zone_named(zone, owner),
                        "cards": [c.name for c in sorted(zone, key=canon_key) if c not in taken],
                    }
                )
            # with no test of the cards, those he may choose are worked out once and each card he
            # chooses is struck off (its copies too): the same list, in the same order, as anew
            if test is not None:
                left = None
            elif mine or taken:
                left = [c for c in zone if c not in mine and c not in taken]
            else:  # nothing chosen yet: every card of his zone
                left = zone[:]
            if left is not None and owner is None:
                left.sort(key=canon_key)
            # agents drawing uniformly, nothing logged nor checked: drawn here from ``left``, as
            # ``RandomAgent.choose`` draws from ``left`` and ``pass`` after it (no list made)
            draw = self._drawn_inline() if left is not None and not self._logging and not self._check_moves else None
            if draw is not None and left is not None:
                u = draw[seat]
                while len(mine) < hi:
                    nl = len(left)
                    if nl + len(mine) < lo:
                        self._too_few(st, seat, lo, nl + len(mine))
                    if not nl:
                        break
                    self.mover = seat
                    k = nl + 1 if len(mine) >= lo else nl
                    i = int(u() * k) if k > 1 else 0
                    if i == nl:
                        break  # pass
                    c = left.pop(i)
                    mine.append(c)
                    while c in left:  # its copies too
                        left.remove(c)
                continue
            while len(mine) < hi:
                if left is not None:
                    moves: list = left[:]
                else:
                    assert test is not None  # left is worked out once when there is no test
                    moves = [c for c in zone if c not in mine and c not in taken and test(self, seat, c)]
                if len(moves) + len(mine) < lo:
                    self._too_few(st, seat, lo, len(moves) + len(mine))
                if not moves:
                    break  # nothing more he may choose
                if owner is None and left is None:  # a shared zone's order is no one's to see: canonical order
                    moves.sort(key=canon_key)
                if len(mine) >= lo:
                    moves.append(PASS)  # after the cards, as the action ids go
                self.mover = seat
                if self._auto is not None:
                    c = self._ask(seat, moves)
                else:
                    self._frame = (order, k, chosen)
                    c = yield Decision(seat, moves, "choose")
                if c == PASS:
                    break
                mine.append(c)
                if left is not None:  # struck off in place, its copies too (a card is one object)
                    left.remove(c)
                    while c in left:
                        left.remove(c)
                if self._logging:
                    self.emit({"type": "choose", "seat": seat, "card": c.name})
        self._deliver(st, order, chosen)

    def _zone_named(self, zone: list, owner: int | None) -> dict:
        """How the events name a zone: ``{"zone": NAME}``, and ``"zone_seat"`` for a seat's."""
        per = self.zones.items() if owner is None else ((n, z[owner]) for n, z in self.pzones.items())
        name = next((n for n, z in per if z is zone), None)
        return {"zone": name} if owner is None else {"zone": name, "zone_seat": owner}

    def _too_few(self, st: Step, seat: int, lo: int, held: int) -> None:
        """A seat that must choose more cards than its zone holds (of those it may
        choose): a located error at ``count:`` (or ``min:``), as ``take``'s."""
        assert st.low is not None and st.src is not None
        what = "count" if st.low is st.high else "min"
        may = f" that pass cards: {st.card_test.text}" if st.card_test is not None else ""
        raise RuleError(
            f"{what}: {st.low.text} is {lo} cards, but {st.src.text} holds only {held}{may} (seat {seat})",
            st.low.pos,
            code="runtime",
        )

    def _deliver(self, st: Step, order: list[int], chosen: dict[int, list]) -> None:
        """Every chooser's cards, out of his zone and into the step's ``to``, all at once."""
        assert st.src is not None and st.dest is not None
        moves = []
        for seat in order:  # where each seat's cards go is read before any card moves
            moves.append((seat, st.src.fn(self, seat, None), st.dest.fn(self, seat, None)))
        names = None
        for seat, zone, dest in moves:
            cards = chosen.get(seat, [])
            for c in cards:
                zone.remove(c)
            dest.extend(cards)
            to_seat = self._zone_owner.get(id(dest))
            if to_seat is not None:
                dest.sort(key=canon_key)  # a seat's zone is kept in canonical order
                self._touched.add(to_seat)
            self._touched.add(seat)
            if st.into is not None:
                self.pvars[st.into][seat] = len(cards)
                self._vis_chosen(st.into, seat)
            if self._logging:
                if names is None:
                    names = {id(z): name for name, z in self.zones.items()}
                    names.update({id(z): name for name, per in self.pzones.items() for z in per})
                self.emit(
                    {
                        "type": "deliver",
                        "seat": seat,
                        "to": names.get(id(dest)),
                        "to_seat": to_seat,
                        "cards": [c.name for c in cards],
                    }
                )
