"""Play to a running total (``_step_adding``): players in turn add a card of their hand to the
cards on the table while the step's card test admits it; a player who can add none says go; when
none can, the count stops (its effects score for the last to add) and starts again, or the play
ends. And the show (``_step_show``): the cards of a zone shown face up to every seat.
"""

from __future__ import annotations

from typing import Any

from ..dsl.cards import Card
from ..dsl.model import Step
from .base import Decision, StateParts


class Adding(StateParts):
    """``State``'s adding and show steps."""

    def _step_adding(self, st: Step, frame: tuple | None = None):
        """Each seat in turn from ``first`` adds to the table (``trick``) a card of its hand that
        the card test ``cards`` admits (``card`` and ``seat`` bound), and ``on_play`` runs (``seat``
        the player, ``last_card`` the card). A seat that holds cards but may add none says go
        (a ``go`` event) and the turn passes. When every seat in a row could add none, the count
        stops: ``on_stop`` runs for the last seat to add, then with ``stop: again`` the cards go to
        ``set_aside`` and the seat after the last to add begins a new count; with ``stop: end``
        (or when no seat holds a card) the play ends. With ``return_to``, every card added goes
        back at the end to that zone of the seat that added it. The ``end`` rules are checked after
        each card and each stop."""
        spec = st.adding
        assert spec is not None, "an adding step has its spec (build_adding)"
        n = self.n
        hands, table = self.hand, self.zones["trick"]
        test = spec.cards.fn if spec.cards is not None else None
        logging = self._logging
        owners: list[tuple[int, Card]]
        if frame is None:
            seat = spec.first.fn(self, None, None) % n if spec.first is not None else (self.dealer + 1) % n
            last_seat: int | None = None
            passes, owners = 0, []
        else:  # a copy resuming at the decision its original was paused at
            seat, last_seat, passes, owners = frame
            owners = list(owners)
        while not self._hand_over:
            hand = hands[seat]
            options = [c for c in hand if test is None or test(self, seat, c)] if hand else []
            if not options:
                passes += 1
                if hand and logging:
                    self.emit({"type": "go", "seat": seat})
                if passes < n:
                    seat = (seat + 1) % n
                    continue
                # the count stops: none can add
                if last_seat is None or not table:
                    break
                self.mover = last_seat
                if spec.on_stop:
                    self._effects(spec.on_stop, last_seat)
                if spec.end and self._check_end(spec.end, last_seat):
                    break
                if spec.stop == "end" or not any(hands):
                    break
                if spec.set_aside is not None:
                    self._move_cards(table, self.zones[spec.set_aside], last_seat, spec.set_aside, table)
                passes = 0
                seat = (last_seat + 1) % n
                last_seat = None
                continue
            self.mover = seat
            if self._auto is not None:
                c = self._ask_card(seat, options)
            else:
                self._frame = (seat, last_seat, passes, tuple(owners))
                c = yield Decision(seat, options, "play")
            hand.remove(c)
            table.append(c)
            owners.append((seat, c))
            self._touched.add(seat)
            self._count_play()
            if logging:
                self.emit({"type": "play", "seat": seat, "card": c.name, "from": "hand"})
            passes, last_seat = 0, seat
            if spec.on_play:
                self._effects(spec.on_play, seat)
            if spec.end and self._check_end(spec.end, seat):
                break
            seat = (seat + 1) % n
        self.led = None
        if spec.return_to is not None:
            zones = self.pzones[spec.return_to]
            for s in range(n):
                mine = [c for o, c in owners if o == s]
                if mine:
                    self._move_cards(mine, zones[s], s, spec.return_to)

    def _step_show(self, st: Step):
        """The cards of a zone shown face up to every seat (a ``show`` event)."""
        assert st.src is not None, "a show step names its zone (build_steps)"
        zone = st.src.fn(self, None, None)
        if zone and self._logging:
            owner = self._zone_owner.get(id(zone))
            ev: dict[str, Any] = {"type": "show", "cards": [c.name for c in zone]}
            if owner is not None:
                ev["seat"] = owner
            self.emit(ev)
