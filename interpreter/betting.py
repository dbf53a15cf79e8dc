"""Vying: a betting round (``_step_betting``) and a showdown (``_step_showdown``).

A betting round: each seat still in the hand (its ``out`` counter 0), in turn from the step's
first, acts until every seat still in has acted since the last bet or raise and has matched the
highest stake, or one seat alone is left. The moves: ``fold`` (the seat is out of the hand; its
stake stays in the pot), ``check`` (nothing to match, nothing staked), ``call`` (stake what
matches the highest), ``bet`` (the first stake of the round, when no seat has a stake) and
``raise`` (match, and go over the highest by the raise), each named by the game's word. A bet or
a raise chosen within bounds is a second decision: the amount, a number. Every stake is a
payment into the pot (a ``pay`` event) and is added to the seat's ``stake`` counter; every move is
a ``bet`` event, public.

A showdown: when one seat alone is still in, it takes the pot without showing; otherwise the
hands of the seats still in are shown (a ``show`` event, face up: their cards become known to
all; a folded hand is never shown) in turn from the step's first, ranked by the keys (the
greatest wins, the first key first), and the pot goes to the best, shared on a tie (``ties:
split``, the odd units to the first from ``first``) or to the first of them (``ties: first``).
With ``stack:`` (table stakes) a seat stakes at most what it has left: a call for more is all it
has (all in), a bet or raise goes at most to its stack, and a seat all in stays in the hand but
acts no more. With ``total:`` every stake is also added to the seat's total for the hand, and the
showdown cuts the pot into side pots by the totals of the seats still in, each won by the best of
the seats whose total reaches it.
Both steps pause at their decisions and save a frame for ``copy()``.
"""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.errors import RuleError
from ..dsl.model import Step
from .base import Decision, StateParts, canon_key
from .counter_events import counter_event


class Betting(StateParts):
    """``State``'s betting and showdown steps."""

    def _first_seat(self, st: Step) -> int:
        return st.first.fn(self, None, None) % self.n if st.first is not None else (self.dealer + 1) % self.n

    def _stake_in(self, st: Step, seat: int, amount: int, move: str) -> None:
        spec = st.betting
        assert spec is not None
        if amount > 0:
            self.bal[seat][spec.unit] -= amount
            self.bal[spec.zone][spec.unit] += amount
            old = self.pvars[spec.stake][seat]
            self.pvars[spec.stake][seat] = old + amount
            self._vis_chosen(spec.stake, seat)
            if self._logging:
                counter_event(self, ("hand", st.name), "add", spec.stake, [seat], old, old + amount)
            if spec.total is not None:
                was = self.pvars[spec.total][seat]
                self.pvars[spec.total][seat] = was + amount
                self._vis_chosen(spec.total, seat)
                if self._logging:
                    counter_event(self, ("hand", st.name), "add", spec.total, [seat], was, was + amount)
            if self._logging:
                self.emit(
                    {
                        "type": "pay",
                        "from": seat,
                        "to": spec.zone,
                        "amount": amount,
                        "unit": spec.unit,
                        "rule": ["hand", st.name],
                    }
                )
        if self._logging:
            ev = {"type": "bet", "seat": seat, "move": move, "amount": amount, "stake": self.pvars[spec.stake][seat]}
            if spec.stack is not None and amount > 0 and self._stack(spec, seat) == 0:
                ev["all_in"] = True  # all it had is staked
            self.emit(ev)

    def _amount(self, e: Any, seat: int, what: str) -> int:
        v = e.fn(self, seat, None)
        if type(v) is not int or v < 0:
            raise RuleError(
                f"{what} for seat {seat} is {v!r}, not a number of 0 or more ({e.text})", e.pos, code="runtime"
            )
        return v

    def _stack(self, spec: Any, seat: int) -> int | None:
        """What ``seat`` may still stake (``stack:``; 0 when it has nothing left), None: no bound."""
        if spec.stack is None:
            return None
        v = spec.stack.fn(self, seat, None)
        if type(v) is not int:
            raise RuleError(
                f"the stack of seat {seat} is {v!r}, not a number ({spec.stack.text})", spec.stack.pos, code="runtime"
            )
        return max(v, 0)

    def _step_betting(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        spec = st.betting
        assert spec is not None, "a betting step has its spec (the model requires one)"
        n = self.n
        stake, out = self.pvars[spec.stake], self.pvars[spec.out]
        bounded = spec.stack is not None

        def able(s: int) -> bool:  # still in the hand, and not all in
            return not out[s] and (not bounded or self._stack(spec, s) != 0)

        def over(pending: frozenset) -> bool:  # nothing left for any seat to do
            if not pending or sum(1 for s in range(n) if not out[s]) <= 1:
                return True
            if bounded and sum(1 for s in range(n) if able(s)) <= 1:  # no one left to answer a bet
                highest = max(stake[s] for s in range(n) if not out[s])
                return all(stake[s] >= highest for s in pending)
            return False

        w = spec.word
        opener = None
        if frame is None or frame[3] == "straddle":
            first = self._first_seat(st)
            if spec.straddle_first is not None:  # the straddles, each doubling the highest stake
                assert spec.straddle_max is not None
                if frame is None:
                    cur, last, made = spec.straddle_first.fn(self, None, None) % n, None, 0
                else:
                    cur, last, made = frame[0], frame[1], frame[2]
                while made < n:  # each seat straddles once at most
                    if out[cur] or not able(cur):
                        break
                    live_stakes = [stake[s] for s in range(n) if not out[s]]
                    highest = max(live_stakes) if live_stakes else 0
                    top = self._amount(spec.straddle_max, cur, "the most a straddle goes to")
                    to = min(2 * highest, top)
                    room = self._stack(spec, cur)
                    if room is not None:
                        to = min(to, stake[cur] + room)
                    if to <= highest:
                        break
                    self.mover = cur
                    offer = [w("straddle"), w("decline")]
                    if self._auto is not None:
                        choice = self._ask(cur, offer)
                    else:
                        self._frame = (cur, last, made, "straddle", None)
                        choice = yield Decision(cur, offer, "bet")
                    if choice != w("straddle"):
                        self._stake_in(st, cur, 0, w("decline"))
                        self._count_play()
                        break
                    self._stake_in(st, cur, to - stake[cur], w("straddle"))
                    self._count_play()
                    last, made = cur, made + 1
                    cur = (cur + 1) % n
                if last is not None:  # the last straddler speaks last
                    first = (last + 1) % n
            live = [(first + k) % n for k in range(n) if not out[(first + k) % n]]
            if len(live) <= 1:
                return
            pending = frozenset(s for s in live if able(s))
            if over(pending):
                return
            cur, raises, phase = next(s for s in live if s in pending), 0, None
            checked: tuple = ()  # lapse_on_raise: the bets and raises made when each seat checked
        else:
            cur, pending, raises, phase, opener, checked = frame
        while True:
            highest = max(stake[s] for s in range(n) if not out[s])
            to_call = highest - stake[cur]
            room = self._stack(spec, cur)  # None: no bound
            cap = self._amount(spec.cap, cur, "the cap on raises") if spec.cap is not None else None
            if phase is None:
                moves: list = []
                if to_call > 0 or not spec.check:
                    moves.append(w("fold"))
                if to_call == 0 and spec.check:
                    moves.append(w("check"))
                if to_call > 0:
                    moves.append(w("call"))
                lapsed = bool(checked) and checked[cur] >= 0 and raises - checked[cur] >= 2
                if lapsed:  # raised over a bet since it checked: excluded, it can only throw up
                    moves = [w("fold")]
                may_raise = room is None or (
                    room > to_call and any(able(s) for s in range(n) if s != cur)
                )  # table stakes: something left over the call, and a seat to answer
                if (cap is None or raises < cap) and may_raise and not lapsed:
                    if highest == 0 and (spec.bet is not None or spec.bet_range is not None):
                        if spec.opens is None or spec.opens.fn(self, cur, None):  # who may open
                            moves.append(w("bet"))
                    elif highest > 0 and (spec.raise_ is not None or spec.raise_range is not None):
                        moves.append(w("raise"))
                self.mover = cur
                if self._auto is not None:
                    choice = self._ask(cur, moves)
                else:
                    self._frame = (cur, pending, raises, None, opener, checked)
                    choice = yield Decision(cur, moves, "bet")
                move = next(m for m in ("fold", "check", "call", "bet", "raise") if w(m) == choice)
            else:
                move = phase
            if move in ("bet", "raise"):
                fixed = spec.bet if move == "bet" else spec.raise_
                rng = spec.bet_range if move == "bet" else spec.raise_range
                left = None if room is None else room - to_call  # the most a bet or raise may go over
                if fixed is not None:
                    extra = self._amount(fixed, cur, f"the {move}")
                    if extra < 1:  # a bet of nothing would open a round that never ends
                        raise RuleError(f"the {move} for seat {cur} is {extra}: at least 1", fixed.pos, code="runtime")
                    if left is not None:
                        extra = min(extra, left)  # all in for less
                else:
                    assert rng is not None
                    lo = self._amount(rng[0], cur, f"the least {move}") if rng[0] is not None else 1
                    hi = rng[1] if left is None else min(rng[1], left)
                    options = list(range(max(lo, 1), hi + 1))
                    if not options and left is not None and 0 < left < max(lo, 1):
                        options = [left]  # all it has, short of the least
                    if not options:
                        raise RuleError(
                            f"seat {cur} has no amount to {move}: from {lo} to {rng[1]}", st.pos, code="runtime"
                        )
                    if self._auto is not None:
                        extra = self._ask(cur, options)
                    else:
                        self._frame = (cur, pending, raises, move, opener, checked)
                        extra = yield Decision(cur, options, "number")
                phase = None
                if spec.raised is not None:  # what this bet or raise went over: a least raise may read it
                    was = self.vars[spec.raised]
                    self.vars[spec.raised] = extra
                    if self._taint:
                        self._taint.pop(spec.raised, None)
                    if self._logging:
                        counter_event(self, ("hand", st.name), "set", spec.raised, None, was, extra)
                self._stake_in(st, cur, to_call + extra, w(move))
                if move == "bet":
                    opener = cur
                raises += 1
                if checked and checked[cur] >= 0:  # in again: a raise after this is answered as any other
                    checked = tuple(-1 if s == cur else checked[s] for s in range(n))
                pending = frozenset(s for s in range(n) if not out[s] and s != cur)
                if bounded:
                    pending = frozenset(s for s in pending if able(s))
            elif move == "call":
                self._stake_in(st, cur, to_call if room is None else min(to_call, room), w(move))
                if checked and checked[cur] >= 0:  # in again: a raise after this is answered as any other
                    checked = tuple(-1 if s == cur else checked[s] for s in range(n))
                pending = pending - {cur}
            elif move == "check":
                if spec.lapse_on_raise:
                    checked = tuple(raises if s == cur else (checked[s] if checked else -1) for s in range(n))
                self._stake_in(st, cur, 0, w(move))
                pending = pending - {cur}
            else:  # fold: out of the hand
                old = out[cur]
                out[cur] = 1
                self._vis_chosen(spec.out, cur)
                if self._logging:
                    counter_event(self, ("hand", st.name), "set", spec.out, [cur], old, 1)
                pending = pending - {cur}
                if self._logging:
                    self.emit({"type": "bet", "seat": cur, "move": w(move), "amount": 0, "stake": stake[cur]})
            self._count_play()
            if over(pending):
                if spec.show_opener and opener is not None and not out[opener]:
                    if sum(1 for s in range(n) if not out[s]) == 1 and self._logging:  # his openers shown
                        cards = [c.name for c in sorted(self.hand[opener], key=canon_key)]
                        self.emit({"type": "show", "seat": opener, "cards": cards})
                return
            nxt = next((cur + k) % n for k in range(1, n + 1) if (cur + k) % n in pending)
            cur = nxt

    def _pots(self, spec: Any, live: list[int], pot: int) -> list[tuple[int, list[int]]]:
        """The pot cut by the totals of the seats still in (``total:``): a list of (amount, the seats
        still in it is open to), the main pot first; without ``total:`` the one pot, open to all."""
        if spec.total is None:
            return [(pot, live)]
        put = self.pvars[spec.total]
        pots: list[tuple[int, list[int]]] = []
        last = 0
        for level in sorted({max(put[s], 0) for s in live}):
            amount = sum(min(max(put[s], 0), level) - min(max(put[s], 0), last) for s in range(self.n))
            pots.append((amount, [s for s in live if put[s] >= level]))
            last = level
        counted = sum(a for a, _ in pots)
        pots[0] = (pots[0][0] + pot - counted, pots[0][1])  # money no total counts: the main pot's
        return pots

    def _step_showdown(self, st: Step) -> None:
        spec = st.betting
        assert spec is not None, "a showdown step has its spec (the model requires one)"
        n = self.n
        first = self._first_seat(st)
        out = self.pvars[spec.out]
        live = [(first + k) % n for k in range(n) if not out[(first + k) % n]]
        pot = self.bal[spec.zone][spec.unit]
        if not live:
            return
        if len(live) > 1:
            for s in live:  # shown face up, in turn
                if self._logging:
                    self.emit(
                        {"type": "show", "seat": s, "cards": [c.name for c in sorted(self.hand[s], key=canon_key)]}
                    )
            keys = {s: tuple(e.fn(self, s, None) for e in spec.key) for s in live}
            pots = self._pots(spec, live, pot)
        else:
            keys = {}
            pots = [(pot, live)]
        main: list[int] = []
        for amount, open_to in pots:
            if len(open_to) > 1:
                best = max(keys[s] for s in open_to)
                winners = [s for s in open_to if keys[s] == best]
            else:
                winners = open_to
            if not main:
                main = winners
            if spec.ties == "first" or len(winners) == 1:
                shares = {winners[0]: amount}
            else:
                each, odd = divmod(amount, len(winners))
                shares = {s: each + (1 if i < odd else 0) for i, s in enumerate(winners)}
            for s, amt in shares.items():
                if amt > 0:
                    self.bal[spec.zone][spec.unit] -= amt
                    self.bal[s][spec.unit] += amt
                    if self._logging:
                        self.emit(
                            {
                                "type": "pay",
                                "from": spec.zone,
                                "to": s,
                                "amount": amt,
                                "unit": spec.unit,
                                "rule": ["hand", st.name],
                            }
                        )
        self.winner = main[0]
