"""The steps of banking games: ``stake`` (each punter puts stakes on the outcomes
the rule file names) and ``repeat`` (play goes back to an earlier step of the hand
until a condition holds: the turn of a banking game, stakes placed, cards turned,
stakes settled, played again), and the stakes themselves.

A stake is kept as a per-seat counter named ``stake:TARGET`` (the rank of the
pack the target stands for, or the outcome's name): read in expressions by
``staked(SEAT, CARD)`` and ``staked(SEAT)``, changed by the ``stake`` effect, seen
by every seat (stakes lie on the table). The stakes are no money: payments settle
them (``pay``)."""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.build_banking import RepeatSpec, StakeSpec
from ..dsl.errors import RuleError
from ..dsl.functions.banking import STAKE
from ..dsl.model import Step
from .base import PASS, Decision, StateParts


class Banking(StateParts):
    """``State``'s ``stake`` and ``repeat`` steps, and the stakes."""

    def _stake_cell(self, key: str) -> list:
        per = self.pvars.get(STAKE + key)
        if per is None:
            per = self.pvars[STAKE + key] = [0] * self.n
        return per

    def _set_stake(self, seat: int, card: Any, amount: int, path: tuple = ()) -> None:
        """The ``stake`` effect: ``seat``'s stake on ``card``'s rank (on every target
        when ``card`` is None: ``stake: {to: 0}`` takes them all down) is ``amount``."""
        if type(amount) is not int or amount < 0:
            raise RuleError(f"a stake of {amount!r} for seat {seat}: a stake is 0 or more", self._step_pos)
        keys = [k[len(STAKE) :] for k in self.pvars if k.startswith(STAKE)] if card is None else [card.rank]
        for key in keys:
            per = self._stake_cell(key)
            if per[seat] != amount:
                was, per[seat] = per[seat], amount
                if self._logging:
                    ev = {"type": "stake", "seat": seat, "on": key, "amount": amount, "was": was}
                    if path:
                        ev["rule"] = list(path)
                    self.emit(ev)

    def _step_stake(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """Each seat that ``who`` admits, in play order from ``first``, names a
        target (or passes), then the amount it stakes on it (0 … ``max``; 0 takes
        the stake down; while ``withdraw`` is false for it, no less than it has
        there), each target once in the step. ``frame``: a copy resumes at the
        decision its original was paused at."""
        spec: StakeSpec = st.stake
        done: tuple = ()
        target: Any = None
        if frame is None:
            order, k0 = self._choosers(st), 0
        else:
            order, k0, done, target = frame
        withdraw = spec.withdraw.fn if spec.withdraw is not None else None  # type: ignore[attr-defined]
        for k in range(k0, len(order)):
            seat = order[k]
            if frame is None or k > k0:
                done, target = (), None
            while True:
                if target is None:
                    options: list = [PASS] + [
                        t for t in spec.targets if t not in done
                    ]  # in the order of the action ids
                    self.mover = seat
                    if len(options) == 1:
                        break
                    if self._auto is not None:
                        target = self._ask(seat, options)
                    else:
                        self._frame = (order, k, done, None)
                        target = yield Decision(seat, options, "stake")
                    if target == PASS:
                        target = None
                        break
                key = spec.targets[target] or target
                have = self._stake_cell(key)[seat]
                low = have if withdraw is not None and not withdraw(self, seat, None) else 0
                amounts = list(range(low, spec.high + 1)) or [have]
                if self._auto is not None:
                    v = self._ask(seat, amounts)
                else:
                    self._frame = (order, k, done, target)
                    v = yield Decision(seat, amounts, "number")
                self._count_play()
                self._stake_cell(key)[seat] = v
                if self._logging:
                    self.emit({"type": "stake", "seat": seat, "on": key, "amount": v, "was": have, "target": target})
                done, target = (*done, target), None

    def _step_repeat(self, st: Step) -> None:
        """Unless ``until`` holds, play goes back to the step ``back_to``; going
        back more than ``max`` times in a hand is a located error."""
        spec: RepeatSpec = st.repeat
        if spec.until.fn(self, None, None):  # type: ignore[attr-defined]
            return
        i = self._at[0]
        rounds = self._rounds.get(i, 0) + 1
        if rounds > spec.rounds:
            raise RuleError(
                f"play went back to '{self.g.steps[spec.back_to].name}' {spec.rounds} times in this hand "
                f"and '{spec.until.text}' still does not hold (max: {spec.rounds})",  # type: ignore[attr-defined]
                st.pos,
                code="runtime",
            )
        self._rounds = {**self._rounds, i: rounds}  # a new dict: a copy of the state keeps its own
        self._jump = spec.back_to
        if self._logging:
            self.emit({"type": "repeat", "step": st.name, "round": rounds + 1})
