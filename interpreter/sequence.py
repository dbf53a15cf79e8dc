"""Sequence play (``_step_sequence``): runs of a suit (or of ranks, whatever the
suit) in order, each card taken from the first place that holds it; stop cards
that end a run; players who cannot play passing.

What the loop works out once per rule file and number of players is its plan
(``_sequence_plan``, kept in ``compiled.sequences``); what it keeps from one turn
to the next is derived from its own locals only (the cards played in the step):
nothing of it can go stale when an effect moves cards between two turns.
"""

from __future__ import annotations

from ..dsl.cards import Card
from ..dsl.errors import RuleError
from ..dsl.model import Step
from .base import Decision, StateParts, Unfinished
from .fastpath import card_only_table, reads_last_card_only


class Sequence(StateParts):
    """``State``'s sequence step."""

    def _sequence_plan(self, st: Step) -> tuple:
        """The plan of a sequence step for this many players: each suit's cards in the
        step's order and each card's place in its suit; the cards of each rank (the ranks
        in order) and each card's rank; the table of its ``stops`` test when it reads only
        the card; with ``by_rank``, for each rank the cards a player may play when it is
        required (of that rank from his hand, and the stop cards), when the stop test is
        tabulated or there is none; and the table {card: whether any effect after a card
        fires}, filled as cards are played, when every ``on_play`` effect is guarded by a
        test that reads only ``last_card`` (else None)."""
        order = st.order
        assert order is not None, "a sequence step has its order (the model requires one)"
        suits: dict[str, list[Card]] = {}
        keyed = sorted((order.get(c, 0), i) for i, c in enumerate(self.pack_cards))  # no closure: mypyc
        for _, i in keyed:
            c = self.pack_cards[i]
            suits.setdefault(c.suit, []).append(c)
        place = {c: i for run in suits.values() for i, c in enumerate(run)}
        by: dict[int, list[Card]] = {}
        for c in self.pack_cards:
            by.setdefault(order.get(c, 0), []).append(c)
        ranks = [by[k] for k in sorted(by)]  # the cards of each rank, the ranks in order
        rank_at = {c: i for i, cs in enumerate(ranks) for c in cs}
        stop_tab = card_only_table(self, st.stops)
        wants = None
        if st.by_rank and (st.stops is None or stop_tab is not None):
            from_hand = any(z == "hand" for z, _ in st.obtain)
            stops = [c for c in self.pack_cards if stop_tab is not None and stop_tab[c]]
            wants = [frozenset((cs if from_hand else []) + stops) for cs in ranks]
        fires: dict[Card, bool] | None = None
        if st.on_play and all(
            e.when is not None and not e.each and reads_last_card_only(e.when, self.g) for e in st.on_play
        ):
            fires = {}
        plan = self._compiled.sequences[(id(st), self.n)] = (suits, place, ranks, rank_at, stop_tab, wants, fires)
        return plan

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
        player has passed in a row the run ends, the last to play begins the
        next."""
        n = self.n
        c: Card | None  # the card at hand (None while the sequence looks for it in its places)
        plan = self._compiled.sequences.get((id(st), n))
        if plan is None:
            plan = self._sequence_plan(st)
        suits, place, ranks, rank_at, stop_tab, wants, fires0 = plan
        by_rank, passing, wrap = st.by_rank, st.unheld == "pass", st.wrap
        stop = st.stops.fn if st.stops is not None else None
        on_play = st.on_play
        # the effects after each card, as one function (fetched again after a pause: a state
        # silenced there runs them untracked); with ``fires``, called only for the cards whose
        # play makes one of them fire (their tests, read of the card alone, skipped otherwise)
        run_on_play = self._runner(on_play) if on_play else None
        fires = None if self._track else fires0
        obtain = st.obtain
        runs = [(zone, self._runner(effects) if effects else None) for zone, effects in obtain]
        # a card followed may be a choice: of the rank required, or a stop card
        choosing = by_rank or stop is not None
        from_hand = any(z == "hand" for z, _ in obtain)
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
        if (
            frame is None
            and draw is not None
            and not logging
            and wants is not None
            and passing
            and empty_hand_ends
            and len(obtain) == 1
            and obtain[0][0] == "hand"
            and runs[0][1] is None
            and (stop is None or stop_tab is not None)
        ):  # the plainest shape, the agents drawing uniformly: a loop of its own
            self._sequence_drawn(st, plan, draw, run_on_play, fires, end_play)
            self.led = None
            return
        nranks = len(ranks)
        left: list[int] | None = None  # with ``wants``: the cards of each rank not yet played
        if wants is not None:
            left = [len(cs) for cs in ranks]
            for c in played:
                left[rank_at[c]] -= 1
        while not self._hand_over:
            seat0, passes0, stopped0 = seat, passes, stopped  # with the rest, what a copy resumes from
            need: Card | None = None  # the one card required (a run of a suit)
            required: list[Card] | None = None  # by rank: the cards of the rank required (when needed)
            j = -1  # by rank: the rank required
            going = False  # the run goes on: a card is required
            if last is not None and not stopped and passes < n:
                if by_rank:  # any card of the next rank not yet played; none left ends the run
                    j = rank_at[last] + 1
                    if j < nranks:
                        if left is not None:
                            going = left[j] > 0
                        else:
                            required = [c for c in ranks[j] if c not in played]
                            going = bool(required)
                else:
                    run = suits[last.suit]
                    i = place[last]
                    for k in range(1, len(run)):
                        jj = i + k
                        if jj >= len(run):
                            if not wrap:
                                break
                            jj -= len(run)
                        c = run[jj]
                        if c is start:
                            break
                        if c not in played:
                            need = c
                            break
                    going = need is not None
            self.mover = seat
            new_run = not going
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
                if wants is not None:  # the cards of the rank (unplayed) and the stop cards he holds
                    want = wants[j]
                    if stop_tab is not None:
                        options = [c for c in hands[seat] if c in want and (stop_tab[c] or c not in played)] or None
                    else:
                        options = [c for c in hands[seat] if c in want and c not in played] or None
                else:
                    if required is None:
                        required = [need] if need is not None else []
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
                    self._frame = (seat0, last, start, last_seat, played, passes0, stopped0)
                    c = yield Decision(seat, options, "play")
                    draw = self._drawn_inline()
                    if on_play:
                        run_on_play = self._runner(on_play)
                    fires = None if self._track else fires0
                    runs = [(zone, self._runner(effects) if effects else None) for zone, effects in obtain]
                hand.remove(c)
                src = "hand"
                if new_run:
                    start = c
                    if logging:
                        self.emit({"type": "run", "seat": seat, "suit": c.suit})
            else:
                for zone, effects_run in runs:
                    holder = None
                    if zone == "hand":
                        # a choice was offered: none of the cards required is in his hand
                        c = None if choosing or need not in hands[seat] else need
                        if c is not None:
                            hands[seat].remove(c)
                            src = "hand"
                    elif zone == "others":
                        c = None
                        if need is None and required is None:
                            required = [c for c in ranks[j] if c not in played]
                        for k in range(1, n):
                            o = (seat + k) % n
                            if need is not None:
                                if need in hands[o]:
                                    c, holder = need, o
                                    break
                            else:
                                assert required is not None
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
                            if effects_run is not None:
                                effects_run(self, seat)
                            self.other = None
                    elif zone in self.zones:
                        z = self.zones[zone]
                        if need is None and required is None:
                            required = [c for c in ranks[j] if c not in played]
                        if need is not None:
                            c = need if need in z else None
                        else:
                            assert required is not None
                            c = next((r for r in required if r in z), None)
                        if c is not None:
                            z.remove(c)
                            src = zone
                            self._counts["draws"] += 1
                            if logging:
                                self.emit({"type": "draw", "seat": seat, "from": zone, "card": c.name})
                            if effects_run is not None:
                                effects_run(self, seat)
                    if src is not None:
                        break
                if src is None:
                    if passing:  # he cannot play: the next player tries
                        passes += 1
                        seat = (seat + 1) % n
                        continue
                    if need is None and required is None:
                        required = [c for c in ranks[j] if c not in played]
                    first = need if need is not None else required[0] if required else None
                    raise RuleError(f"{first} is nowhere the sequence may take it from", st.pos, code="runtime")
            assert c is not None  # a card was found where src says
            passes = 0
            trick.append(c)
            if left is not None and c not in played:
                left[rank_at[c]] -= 1
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
                if fires is None:
                    run_on_play(self, seat)
                else:
                    hit = fires.get(c)
                    if hit is None:  # its tests read only the card just played: the same for every play of it
                        hit = fires[c] = any(e.when is None or e.when.fn(self, seat, None) for e in on_play)
                    if hit:
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

    def _sequence_drawn(self, st: Step, plan: tuple, draw: list, run_on_play, fires, end_play: list) -> None:
        """``_step_sequence`` for its plainest shape, played as it plays it, card for card:
        by rank, the cards that may be played for each rank known (``wants``), a player who
        cannot play passing, cards taken from the player's own hand only, the one end test
        "his hand is empty", no event kept and every agent drawing uniformly (drawn here)."""
        n = self.n
        _suits, _place, ranks, rank_at, stop_tab, wants, _fires = plan
        hands, touched, trick = self.hand, self._touched, self.zones["trick"]
        last_player = st.new_run == "last_player"
        stopping = st.stops is not None
        on_play = st.on_play
        max_plays, check = self.max_plays, self._check_moves
        nranks = len(ranks)
        left = [len(cs) for cs in ranks]  # the cards of each rank not yet played
        wanted = [w.__contains__ for w in wants]
        played: set[Card] = set()
        seat = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
        last: Card | None = None
        last_seat = seat
        passes, stopped = 0, False
        while not self._hand_over:
            j = -1
            going = False
            if last is not None and not stopped and passes < n:
                j = rank_at[last] + 1
                if j < nranks:
                    going = left[j] > 0
            self.mover = seat
            if going:
                hand = hands[seat]
                # the hand's cards of the rank and stop cards, in the hand's order, filtered in C;
                # one played already (given back to a hand by an effect) struck off
                options = list(filter(wanted[j], hand))
                if options and not played.isdisjoint(options):
                    if stop_tab is not None:
                        options = [c for c in options if stop_tab[c] or c not in played]
                    else:
                        options = [c for c in options if c not in played]
                k = len(options)
                if not k:  # he cannot play: the next player tries
                    passes += 1
                    seat = (seat + 1) % n
                    continue
                if k == 1:
                    c = options[0]
                else:
                    c = options[int(draw[seat]() * k)]
                    if check:
                        self._check_card_count()
            else:
                if last is not None:
                    seat = last_seat if stopped or passes >= n or last_player else (last_seat + 1) % n
                    self.mover = seat
                passes, stopped = 0, False
                hand = hands[seat]
                if not hand:
                    break
                self.led = None
                k = len(hand)
                c = hand[int(draw[seat]() * k)] if k > 1 else hand[0]
                if check:
                    self._check_card_count()
            hand.remove(c)
            passes = 0
            trick.append(c)
            if c not in played:
                left[rank_at[c]] -= 1
                played.add(c)
            self.led = c.suit
            self.plays += 1
            if self.plays > max_plays:
                raise Unfinished()
            last, last_seat = c, seat
            touched.add(seat)
            if run_on_play is not None:  # after each card, ``seat`` its player, ``last_card`` the card
                if fires is None:
                    run_on_play(self, seat)
                else:
                    hit = fires.get(c)
                    if hit is None:  # its tests read only the card just played: the same for every play of it
                        hit = fires[c] = any(e.when is None or e.when.fn(self, seat, None) for e in on_play)
                    if hit:
                        run_on_play(self, seat)
            if stopping and stop_tab[c]:  # its player begins the next run
                stopped = True
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
            seat = (seat + 1) % n
