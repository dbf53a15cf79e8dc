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
Both steps pause at their decisions and save a frame for ``copy()``.
"""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.errors import RuleError
from ..dsl.model import Step
from .base import Decision, StateParts, canon_key
from .effects import counter_event


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
            self.emit(
                {"type": "bet", "seat": seat, "move": move, "amount": amount, "stake": self.pvars[spec.stake][seat]}
            )

    def _amount(self, e: Any, seat: int, what: str) -> int:
        v = e.fn(self, seat, None)
        if type(v) is not int or v < 0:
            raise RuleError(
                f"{what} for seat {seat} is {v!r}, not a number of 0 or more ({e.text})", e.pos, code="runtime"
            )
        return v

    def _step_betting(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        spec = st.betting
        assert spec is not None, "a betting step has its spec (the model requires one)"
        n = self.n
        stake, out = self.pvars[spec.stake], self.pvars[spec.out]
        if frame is None:
            first = self._first_seat(st)
            live = [(first + k) % n for k in range(n) if not out[(first + k) % n]]
            if len(live) <= 1:
                return
            cur, pending, raises, phase = live[0], frozenset(live), 0, None
        else:
            cur, pending, raises, phase = frame
        w = spec.word
        while True:
            highest = max(stake[s] for s in range(n) if not out[s])
            to_call = highest - stake[cur]
            cap = self._amount(spec.cap, cur, "the cap on raises") if spec.cap is not None else None
            if phase is None:
                moves: list = []
                if to_call > 0 or not spec.check:
                    moves.append(w("fold"))
                if to_call == 0 and spec.check:
                    moves.append(w("check"))
                if to_call > 0:
                    moves.append(w("call"))
                if cap is None or raises < cap:
                    if highest == 0 and (spec.bet is not None or spec.bet_range is not None):
                        moves.append(w("bet"))
                    elif highest > 0 and (spec.raise_ is not None or spec.raise_range is not None):
                        moves.append(w("raise"))
                self.mover = cur
                if self._auto is not None:
                    choice = self._ask(cur, moves)
                else:
                    self._frame = (cur, pending, raises, None)
                    choice = yield Decision(cur, moves, "bet")
                move = next(m for m in ("fold", "check", "call", "bet", "raise") if w(m) == choice)
            else:
                move = phase
            if move in ("bet", "raise"):
                fixed = spec.bet if move == "bet" else spec.raise_
                rng = spec.bet_range if move == "bet" else spec.raise_range
                if fixed is not None:
                    extra = self._amount(fixed, cur, f"the {move}")
                    if extra < 1:  # a bet of nothing would open a round that never ends
                        raise RuleError(f"the {move} for seat {cur} is {extra}: at least 1", fixed.pos, code="runtime")
                else:
                    assert rng is not None
                    lo = self._amount(rng[0], cur, f"the least {move}") if rng[0] is not None else 1
                    options = list(range(max(lo, 1), rng[1] + 1))
                    if not options:
                        raise RuleError(
                            f"seat {cur} has no amount to {move}: from {lo} to {rng[1]}", st.pos, code="runtime"
                        )
                    if self._auto is not None:
                        extra = self._ask(cur, options)
                    else:
                        self._frame = (cur, pending, raises, move)
                        extra = yield Decision(cur, options, "number")
                phase = None
                self._stake_in(st, cur, to_call + extra, w(move))
                raises += 1
                pending = frozenset(s for s in range(n) if not out[s] and s != cur)
            elif move == "call":
                self._stake_in(st, cur, to_call, w(move))
                pending = pending - {cur}
            elif move == "check":
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
            if not pending or sum(1 for s in range(n) if not out[s]) <= 1:
                return
            nxt = next((cur + k) % n for k in range(1, n + 1) if (cur + k) % n in pending)
            cur = nxt

    def _step_showdown(self, st: Step) -> None:
        spec = st.betting
        assert spec is not None, "a showdown step has its spec (the model requires one)"
        n = self.n
        first = self._first_seat(st)
        out = self.pvars[spec.out]
        live = [(first + k) % n for k in range(n) if not out[(first + k) % n]]
        pot = self.bal[spec.zone][spec.unit]
        if len(live) > 1:
            for s in live:  # shown face up, in turn
                if self._logging:
                    self.emit(
                        {"type": "show", "seat": s, "cards": [c.name for c in sorted(self.hand[s], key=canon_key)]}
                    )
            keys = {s: tuple(e.fn(self, s, None) for e in spec.key) for s in live}
            best = max(keys.values())
            winners = [s for s in live if keys[s] == best]
        else:
            winners = live
        if not winners:
            return
        if spec.ties == "first" or len(winners) == 1:
            shares = {winners[0]: pot}
        else:
            each, odd = divmod(pot, len(winners))
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
        self.winner = winners[0]
