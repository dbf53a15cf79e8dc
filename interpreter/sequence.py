"""Sequence play (``_step_sequence``): runs of a suit in order, each card
taken from the first place that holds it.
"""

from __future__ import annotations

from ..dsl.cards import Card
from ..dsl.errors import RuleError
from ..dsl.model import Step
from .base import Decision, StateParts


class Sequence(StateParts):
    """``State``'s sequence step."""

    def _step_sequence(self, st: Step, frame: tuple | None = None):
        """Sequence play: each player in turn plays the card that follows the
        last one in its suit (by the step's order), obtained from the first
        place in ``obtain`` that holds it; when a run ends, a player begins a
        new one with any card of his hand. With ``wrap``, a run goes round the
        suit (past the top card to the lowest) until the whole suit is played."""
        n = self.n
        # each suit's cards in the step's order, and each card's place in its suit (once per
        # rule file and number of players)
        plans = self._compiled.sequences
        plan = plans.get((id(st), n))
        if plan is None:
            order = st.order
            assert order is not None, "a sequence step has its order (the model requires one)"
            suits: dict[str, list[Card]] = {}
            for c in sorted(self.pack_cards, key=lambda c: order.get(c, 0)):
                suits.setdefault(c.suit, []).append(c)
            place = {c: i for run in suits.values() for i, c in enumerate(run)}
            plan = plans[(id(st), n)] = (suits, place)
        suits, place = plan
        played: set[Card] = set()
        end_play = [r for r in st.end if r.after == "play"]
        # the one end test "his hand is empty": tested on the hands that changed, no call
        empty_hand_ends = (
            len(end_play) == 1 and end_play[0].zone_only and end_play[0].when.shape == "count(hand(seat)) == 0"
        )
        logging = self._logging
        hands, touched, trick = self.hand, self._touched, self.zones["trick"]
        last: Card | None
        start: Card | None
        if frame is None:
            seat = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
            last = start = None
            last_seat = seat
        else:  # a copy resuming at the decision its original was paused at (below): what
            # the loop does from here up to that decision depends only on these, so it is run again
            seat, last, start, last_seat, played = frame
            played = set(played)
        while not self._hand_over:
            required = None
            if last is not None:
                run = suits[last.suit]
                i = place[last]
                for k in range(1, len(run)):
                    j = i + k
                    if j >= len(run):
                        if not st.wrap:
                            break
                        j -= len(run)
                    c = run[j]
                    if c is start:
                        break
                    if c not in played:
                        required = c
                        break
            self.mover = seat
            if required is None:
                if last is not None:
                    seat = last_seat if st.new_run == "last_player" else (last_seat + 1) % n
                    self.mover = seat
                hand = hands[seat]
                if not hand:
                    break
                self.led = None
                if self._auto is not None:
                    uniform = self._agents_inline()[1]
                    if uniform is not None and self._draw_inline:  # an agent drawing uniformly: draw here
                        k = len(hand)
                        c = hand[int(uniform[seat]() * k)] if k > 1 else hand[0]
                        if self._check_moves:
                            self._check_card_count()
                    else:
                        c = self._ask(seat, list(hand))
                else:
                    self._frame = (seat, last, start, last_seat, played)
                    c = yield Decision(seat, list(hand), "play")
                hand.remove(c)
                src = "hand"
                start = c
                if logging:
                    self.emit({"type": "run", "seat": seat, "suit": c.suit})
            else:
                src = None
                for zone, effects in st.obtain:
                    holder = None
                    if zone == "hand":
                        if required in hands[seat]:
                            hands[seat].remove(required)
                            src = "hand"
                    elif zone == "others":
                        for k in range(1, n):
                            o = (seat + k) % n
                            if required in hands[o]:
                                holder = o
                                break
                        if holder is not None:
                            hands[holder].remove(required)
                            touched.add(holder)
                            src = "borrow"
                            self._counts["borrows"] += 1
                            if logging:
                                self.emit({"type": "borrow", "seat": seat, "from": holder, "card": required.name})
                            self.other = holder
                            self._effects(effects, seat)
                            self.other = None
                    elif zone in self.zones and required in self.zones[zone]:
                        self.zones[zone].remove(required)
                        src = zone
                        self._counts["draws"] += 1
                        if logging:
                            self.emit({"type": "draw", "seat": seat, "from": zone, "card": required.name})
                        self._effects(effects, seat)
                    if src is not None:
                        break
                if src is None:
                    raise RuleError(f"{required} is nowhere the sequence may take it from", st.pos, code="runtime")
                c = required
            trick.append(c)
            played.add(c)
            self.led = c.suit
            self._count_play()
            if logging:
                self.emit({"type": "play", "seat": seat, "card": c.name, "from": src})
            last, last_seat = c, seat
            touched.add(seat)
            if empty_hand_ends:
                # no hand changed since the last test is empty: the test would find none
                if all(hands[s] for s in touched):
                    touched.clear()
                elif self._check_end(end_play, seat):
                    break
            elif end_play and self._check_end(end_play, seat):
                break
            seat = (seat + 1) % n
        self.led = None
