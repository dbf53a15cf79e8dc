"""Sequence play (``_step_sequence``): runs of a suit (or of ranks, whatever the
suit) in order, each card taken from the first place that holds it; stop cards
that end a run; players who cannot play passing.
"""

from __future__ import annotations

from ..dsl.cards import Card
from ..dsl.errors import RuleError
from ..dsl.model import Step
from .base import Decision, StateParts, Unfinished
from .fastpath import card_only_table


class Sequence(StateParts):
    """``State``'s sequence step."""

    def _step_sequence(self, st: Step, frame: tuple | None = None):
        """Sequence play: each player in turn plays the card that follows the
        last one in its suit (by the step's order), obtained from the first
        place in ``obtain`` that holds it; when a run ends, a player begins a
        new one with any card of his hand. With ``wrap``, a run goes round the
        suit (past the top card to the lowest) until the whole suit is played.
        With ``by_rank`` the next card is any card of the next rank, whatever
        its suit, and none left ends the run. A ``stops`` card may be played
        for the card required and ends the run: its player begins the next.
        With ``unheld: pass`` a player who cannot play passes, and when every
        player has passed in a row the run ends, the last to play beginning
        the next."""
        n = self.n
        # each suit's cards in the step's order, and each card's place in its suit (once per
        # rule file and number of players)
        c: Card | None  # the card at hand (None while the sequence looks for it in its places)
        plans = self._compiled.sequences
        plan = plans.get((id(st), n))
        if plan is None:
            order = st.order
            assert order is not None, "a sequence step has its order (the model requires one)"
            suits: dict[str, list[Card]] = {}
            for c in sorted(self.pack_cards, key=lambda c: order.get(c, 0)):
                suits.setdefault(c.suit, []).append(c)
            place = {c: i for run in suits.values() for i, c in enumerate(run)}
            by: dict[int, list[Card]] = {}
            for c in self.pack_cards:
                by.setdefault(order.get(c, 0), []).append(c)
            ranks = [by[k] for k in sorted(by)]  # the cards of each rank, the ranks in order
            rank_at = {c: i for i, cs in enumerate(ranks) for c in cs}
            plan = plans[(id(st), n)] = (suits, place, ranks, rank_at)
        suits, place, ranks, rank_at = plan
        by_rank, passing = st.by_rank, st.unheld == "pass"
        stop = st.stops.fn if st.stops is not None else None
        # a stop test that reads only the card: looked up, not called
        stop_tab = card_only_table(self, st.stops)
        on_play = st.on_play
        # the effects after each card, as one function (fetched again after a pause: a state
        # silenced there runs them untracked)
        run_on_play = self._runner(on_play) if on_play else None
        # a card followed may be a choice: of the rank required, or a stop card
        choosing = by_rank or stop is not None
        from_hand = any(z == "hand" for z, _ in st.obtain)
        played: set[Card] = set()
        end_play = [r for r in st.end if r.after == "play"]
        # the one end test "his hand is empty": tested on the hands that changed, no call (the
        # effects after each card mark the seats whose cards they move, as the end test reads them)
        empty_hand_ends = (
            len(end_play) == 1 and end_play[0].zone_only and end_play[0].when.shape == "count(hand(seat)) == 0"
        )
        logging = self._logging
        max_plays = self.max_plays
        draw = self._drawn_inline()  # the uniform draws of the agents, when they are drawn here
        hands, touched, trick = self.hand, self._touched, self.zones["trick"]
        last: Card | None
        start: Card | None
        passes, stopped = 0, False  # players in a row who could not play; a stop card just played
        if frame is None:
            seat = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
            last = start = None
            last_seat = seat
        else:  # a copy resuming at the decision its original was paused at (below): what
            # the loop does from here up to that decision depends only on these, so it is run again
            seat, last, start, last_seat, played, passes, stopped = frame
            played = set(played)
        while not self._hand_over:
            top = (seat, last, start, last_seat, played, passes, stopped)  # what a copy resumes from
            required: list[Card] = []
            if last is not None and not stopped and passes < n:
                if by_rank:  # any card of the next rank not yet played; none left ends the run
                    j = rank_at[last] + 1
                    if j < len(ranks):
                        required = [c for c in ranks[j] if c not in played]
                else:
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
                            required = [c]
                            break
            self.mover = seat
            new_run = not required
            options: list[Card] | None = None  # cards of his hand the player chooses from
            if new_run:
                if last is not None:
                    if stopped or passes >= n or st.new_run == "last_player":
                        seat = last_seat
                    else:
                        seat = (last_seat + 1) % n
                    self.mover = seat
                passes, stopped = 0, False
                if not hands[seat]:
                    break
                self.led = None
                options = list(hands[seat])
            elif choosing:
                if stop_tab is not None:
                    options = [c for c in hands[seat] if (from_hand and c in required) or stop_tab[c]] or None
                else:
                    options = [
                        c
                        for c in hands[seat]
                        if (from_hand and c in required) or (stop is not None and stop(self, seat, c))
                    ] or None
            src = None
            if options is not None:
                hand = hands[seat]
                if len(options) == 1 and not new_run:
                    c = options[0]
                elif draw is not None:  # an agent drawing uniformly: drawn here, as ``_ask_card`` draws
                    k = len(options)
                    c = options[int(draw[seat]() * k)] if k > 1 else options[0]
                    if self._check_moves:
                        self._check_card_count()
                elif self._auto is not None:
                    c = self._ask_card(seat, options)
                else:
                    self._frame = top
                    c = yield Decision(seat, options, "play")
                    draw = self._drawn_inline()
                    if on_play:
                        run_on_play = self._runner(on_play)
                hand.remove(c)
                src = "hand"
                if new_run:
                    start = c
                    if logging:
                        self.emit({"type": "run", "seat": seat, "suit": c.suit})
            else:
                for zone, effects in st.obtain:
                    holder = None
                    if zone == "hand":
                        # a choice was offered: none of the cards required is in his hand
                        c = None if choosing else next((r for r in required if r in hands[seat]), None)
                        if c is not None:
                            hands[seat].remove(c)
                            src = "hand"
                    elif zone == "others":
                        for k in range(1, n):
                            o = (seat + k) % n
                            c = next((r for r in required if r in hands[o]), None)
                            if c is not None:
                                holder = o
                                break
                        if holder is not None and c is not None:  # found with another player
                            hands[holder].remove(c)
                            touched.add(holder)
                            src = "borrow"
                            self._counts["borrows"] += 1
                            if logging:
                                self.emit({"type": "borrow", "seat": seat, "from": holder, "card": c.name})
                            self.other = holder
                            self._effects(effects, seat)
                            self.other = None
                    elif zone in self.zones:
                        c = next((r for r in required if r in self.zones[zone]), None)
                        if c is not None:
                            self.zones[zone].remove(c)
                            src = zone
                            self._counts["draws"] += 1
                            if logging:
                                self.emit({"type": "draw", "seat": seat, "from": zone, "card": c.name})
                            self._effects(effects, seat)
                    if src is not None:
                        break
                if src is None:
                    if passing:  # he cannot play: the next player tries
                        passes += 1
                        seat = (seat + 1) % n
                        continue
                    raise RuleError(f"{required[0]} is nowhere the sequence may take it from", st.pos, code="runtime")
            assert c is not None  # a card was found where src says
            passes = 0
            trick.append(c)
            played.add(c)
            self.led = c.suit
            self.plays += 1
            if self.plays > max_plays:
                raise Unfinished()
            if logging:
                self.emit({"type": "play", "seat": seat, "card": c.name, "from": src})
            last, last_seat = c, seat
            touched.add(seat)
            if run_on_play is not None:  # after each card, ``seat`` its player, ``last_card`` the card
                run_on_play(self, seat)
            if stop is not None and (
                stop_tab[c] if stop_tab is not None else stop(self, seat, c)
            ):  # its player begins the next run
                stopped = True
            if empty_hand_ends:
                # no hand changed since the last test is empty: the test would find none
                emptied = False
                for s in touched:
                    if not hands[s]:
                        emptied = True
                        break
                if not emptied:
                    touched.clear()
                elif self._check_end(end_play, seat):
                    break
            elif end_play and self._check_end(end_play, seat):
                break
            seat = (seat + 1) % n
        self.led = None
