"""The general trick loop (``_step_tricks``): it logs events, asks any agent,
and handles every follow rule, lead restriction, free card and end condition
of the language. When the short loop fits (``short_loop.short_loop_fits``)
and nothing is asked nor logged, it hands the step to ``_tricks_drawn``.
Also the legal cards of a seat (``_legal``) and the end conditions
(``_check_end``), which both loops use.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Iterable

from ..dsl.cards import Card
from ..dsl.model import Step
from .base import SUIT_SPAN, Decision, StateParts, Unfinished, canon_key
from .copies import once
from .effect_code import end_scan as end_scan_of
from .effects import build_watcher
from .fastpath import card_only_table, key_plan


class Tricks(StateParts):
    """``State``'s general trick loop."""

    def _legal(self, st: Step, seat: int, first: int = 0) -> tuple[list, bool]:
        """The legal cards of ``seat``, in canonical order, and whether his
        hand meets the first tier of the follow rule (False: he cannot follow).
        ``first``: the follow rule's tiers before it are known to give him no
        card (a card is led): they are not tested again."""
        hand = self.hand[seat] if st.declare is None else self._playable(st, seat)
        if self.led is None:
            if st.lead_test is not None:
                return (st.lead_test.filter(self, seat, hand) or list(hand)), True
            return list(hand), True
        must = st.must if not first else st.must[first:]
        for i, tier in enumerate(must, first):
            ok = tier.filter(self, seat, hand)
            if ok:
                if st.free is not None:
                    keep, free = set(ok), st.free.fn
                    ok = [c for c in hand if c in keep or free(self, seat, c)]
                return ok, i == 0
        return list(hand), not st.must

    def follow_tier(self, seat: int) -> tuple[Step, int | None] | None:
        """At a decision to play a card in a trick: the step, and which tier
        of its follow rule gave ``seat``'s legal cards (None: no card is led,
        the lead rule or any card; ``len(st.must)``: no tier could be met, any
        card). None elsewhere. The same tiers as ``_legal``, for whoever asks
        why a card is refused; never called in play."""
        st = self._cur_step
        if st is None or st.kind != "tricks":
            return None
        if self.led is None:
            return st, None
        hand = self._playable(st, seat)
        for i, tier in enumerate(st.must):
            if tier.filter(self, seat, hand):
                return st, i
        return st, len(st.must)

    def _agents_inline(self):
        """How the agents of run_with() are asked inside the loop: (choose
        methods, the uniform draws of agents that pick uniformly with their own
        ``random()``, or None, whether a choice must be checked)."""
        auto = self._auto
        if auto is None:
            return None, None, True
        if self._inline is not None and self._inline[0] is auto:
            return self._inline[1]
        choosers = [a.choose for a in auto]
        uniform = [getattr(a, "uniform", None) for a in auto]
        if None in uniform:
            uniform = None
        # the built-in first and random agents pick from the list they are given
        check_choice = not all(getattr(a, "picks_from_moves", False) for a in auto)
        self._inline = (auto, (choosers, uniform, check_choice))
        return choosers, uniform, check_choice

    def _step_tricks(self, st: Step, frame: tuple | None = None):
        """The tricks of ``st``. ``frame``: what a paused loop saved at its
        decision (below, at the ``yield``): a copy resumes the loop there."""
        choosers, uniform, check_choice = self._agents_inline()
        if self._short_loop_now(st, uniform):
            self._tricks_drawn(st, uniform)  # nothing to ask nor to record: the short loop
            return
        # run_with() took over at a decision (a copy's playout, say) and the short loop fits
        # now: it plays the step's remaining tricks from the next trick's start
        to_short = handed = False
        n = self.n
        if frame is None:
            leader = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
        trick = self.zones["trick"]
        logging = self._logging
        keys = [f.fn for f in st.winner_key]
        # keys that read only the card, led and trump are tabulated per (led, trump)
        # and the best is kept as the cards are played
        key_tables = self._compiled.key_tables.setdefault(id(st), {}) if st.key_pure else None
        end_play = [r for r in st.end if r.after == "play"]
        end_trick = [r for r in st.end if r.after == "trick"]
        end_scan = self._end_scan(st, end_play)
        hands, touched, legal = self.hand, self._touched, self._legal
        # one end condition after play, reading only the seat's own zones: test the mover directly
        mover_only = end_play[0].when.fn if len(end_play) == 1 and end_play[0].zone_only else None
        # ... and of the shape ``count(hand(seat)) == 0``: test the hands themselves, no call
        empty_hand_ends = mover_only is not None and end_play[0].when.shape == "count(hand(seat)) == 0"
        cannot_follow = st.cannot_follow
        renounce = self._runner(cannot_follow) if cannot_follow else None
        on_play = st.on_play
        # the effects after each card, as one function (fetched again after a pause: a state
        # silenced there runs them untracked)
        run_on_play = self._runner(on_play) if on_play else None
        suit_led = bool(st.must) and st.must[0].shape == "card.suit == led"
        one_tier = len(st.must) == 1
        lead_any = st.lead_test is None
        free = st.free.fn if st.free is not None else None
        # a free card test that reads only the card: looked up, not called
        free_tab = card_only_table(self, st.free)
        # keys that read more than the card, led and trump: only those evaluated per card
        plan = key_plan(self, st) if not st.key_pure else None
        nxt = [(s + 1) % n for s in range(n)]  # the seat after each seat
        max_plays = self.max_plays
        counts = self._counts
        won = self.won
        won_seat = self.pzones.get(st.won_to) if st.won_to is not None else None
        won_zone: Any = self.zones[st.won_to] if st.won_to is not None and won_seat is None else None
        pack = self.zones["pack"]
        # melds declared after a trick (``declare``): the cards shown are played from the table too
        declaring = st.declare is not None
        shown: Any = self.pzones[st.declare.table] if declaring else None
        if declaring:
            suit_led = lead_any = False  # the legal cards are those of the hand and the table
            if frame is None:
                self.melded_as = {}
        played = self.plays  # kept in a local, written back before anything else can read it
        try:
            while not self._hand_over:
                plays: list[tuple[int, Card]]
                table: Any
                moves: list
                if frame is not None and frame[0] == "declare":  # a copy resuming at a declaration
                    leader = frame[1]
                    self.plays = played
                    yield from self._declare_window(st, leader, frame)
                    frame = None
                    if self._hand_over:
                        return
                    if st.on_trick:
                        self._effects(st.on_trick, leader)
                    self.led = None
                    if end_trick and self._check_end(end_trick, leader):
                        return
                    continue
                if frame is None:
                    if to_short:  # a trick's start: the short loop plays on from here
                        handed = True
                        break
                    if not hands[leader] and not (declaring and shown[leader]):
                        # the lead passes to the next seat that has a card (``lead_passes``)
                        nxt_lead = (
                            next(
                                (
                                    x
                                    for x in range(1, n)
                                    if hands[(leader + x) % n] or (declaring and shown[(leader + x) % n])
                                ),
                                None,
                            )
                            if st.lead_passes
                            else None
                        )
                        if nxt_lead is None:
                            break
                        leader = (leader + nxt_lead) % n
                    self.leader = leader
                    # ``led`` is kept in a local and written to self.led when the first card
                    # is played: nothing else sets it during a trick
                    self.led = led = None
                    plays = []
                    # none until the first card of the trick is played
                    table = None
                    best_seat: Any = None
                    best_key: Any = None
                    seat = leader
                    first = 0
                else:  # a copy resuming at the decision its original was paused at
                    leader, led, plays, best_seat, best_key, seat, first, moves = frame
                    plays = plays[:]
                    table = None
                    if key_tables is not None and led is not None:
                        table = key_tables[(led, self.trump)]
                broke = False
                for turn in range(first, n):
                    hand = hands[seat]
                    c = None
                    if frame is not None:
                        pass  # the moves were saved with the frame
                    elif not hand and not (declaring and shown[seat]):
                        seat = nxt[seat]
                        continue
                    elif led is None:
                        if lead_any:
                            if uniform is not None:  # an agent drawing uniformly from the hand
                                k = len(hand)
                                c = hand.pop(int(uniform[seat]() * k) if k > 1 else 0)
                            else:
                                moves, follows = hand[:], True
                        else:
                            moves, follows = legal(st, seat)
                    elif suit_led:
                        # a hand is in canonical order, so the cards of a suit lie together: a slice
                        lo, hi = SUIT_SPAN[led]
                        i = bisect_left(hand, lo, key=canon_key)
                        j = bisect_left(hand, hi, i, key=canon_key)
                        if j > i and uniform is not None and free is None:
                            # an agent drawing uniformly among the cards of the suit led: drawn
                            # from their place in the hand, as from their slice
                            k = j - i
                            c = hand.pop(i + int(uniform[seat]() * k) if k > 1 else i)
                        else:
                            moves = hand[i:j]
                            if moves:
                                follows = True
                                if free_tab is not None:
                                    moves = [c for c in hand if c.suit == led or free_tab[c]]
                                elif free is not None:
                                    keep = set(moves)
                                    moves = [c for c in hand if c in keep or free(self, seat, c)]
                            else:
                                follows = False
                                if renounce is None:
                                    moves = hand[:] if one_tier else legal(st, seat, 1)[0]  # tier 0 gave none
                            c = None
                    else:
                        moves, follows = legal(st, seat)
                    if c is not None:  # drawn inline (a lead, or a card of the suit led), taken from the hand already
                        self.mover = seat
                    else:
                        if frame is not None:
                            frame = None  # resumed: ask the same question again (below)
                        else:
                            if not follows and renounce is not None:
                                if logging:
                                    self.emit(
                                        {
                                            "type": "renounce",
                                            "seat": seat,
                                            "led": led,
                                            "rule": ["hand", st.name, "cannot_follow"],
                                        }
                                    )
                                self.plays = played
                                new = renounce(self, seat)
                                if new is not None:  # the trick is over; he (or another) leads
                                    if new != leader:
                                        counts["lead_changes"] += 1
                                    leader = new
                                    broke = True
                                    break
                                if self._hand_over:
                                    return
                                moves, _ = legal(st, seat)  # the effects may have changed his hand
                                if not moves:
                                    seat = nxt[seat]
                                    continue
                            self.mover = seat
                            if declaring and self._copies:  # a card in hand and table: one move, as when asked
                                moves = once(moves)
                            if uniform is not None:  # an agent drawing uniformly: draw here
                                nm = len(moves)
                                c = moves[int(uniform[seat]() * nm)] if nm > 1 else moves[0]
                            elif choosers is not None:
                                self.plays = played
                                c = choosers[seat](self, seat, moves)
                                if check_choice and c not in moves:
                                    self._illegal(seat, c, moves)
                        if c is None:
                            self.plays = played
                            if self._copies:  # two copies of a card in the hand: one move
                                moves = once(moves)
                            # all a copy needs to resume here (``_hand`` keeps the step's place)
                            self._frame = (leader, led, plays, best_seat, best_key, seat, turn, moves)
                            c = yield Decision(seat, moves, "play")
                            if self._auto is not None:  # run_with() took over: ask its agents inline from now on
                                choosers, uniform, check_choice = self._agents_inline()
                                to_short = self._short_loop_now(st, uniform)
                            if on_play:
                                run_on_play = self._runner(on_play)
                        if declaring and c in shown[seat]:
                            # a card of a meld, played from the table: its copy there first, so that
                            # which copy leaves never tells whether the hidden hand holds another
                            shown[seat].remove(c)
                            self._unshow(seat, c)
                        else:
                            hand.remove(c)
                    trick.append(c)
                    if led is None:
                        self.led = led = c.suit
                        if key_tables is not None:
                            table = key_tables.get((led, self.trump))
                            if table is None:
                                table = key_tables[(led, self.trump)] = {}
                    if table is not None:
                        key = table.get(c)
                        if key is None:
                            key = table[c] = tuple([f(self, seat, c) for f in keys])
                        if best_key is None or key > best_key:
                            best_seat, best_key = seat, key
                    else:
                        plays.append((seat, c))
                    played += 1
                    if played > max_plays:
                        raise Unfinished()
                    if logging:
                        self.emit({"type": "play", "seat": seat, "card": c.name})
                    if run_on_play is not None:  # after each card, ``seat`` its player, ``last_card`` the card
                        self.plays = played
                        run_on_play(self, seat)
                    if end_play:
                        if empty_hand_ends:
                            # the mover's hand, then any other hand changed since the last check
                            if not hand:
                                touched.add(seat)
                                self.plays = played
                                self._check_end(end_play, seat)
                                return
                            if touched:
                                for s in touched:
                                    if not hands[s]:
                                        touched.add(seat)
                                        self.plays = played
                                        if self._check_end(end_play, seat):
                                            return
                                        break
                                touched.clear()
                        elif not touched and mover_only is not None:  # only the mover's zones changed
                            self.plays = played
                            if mover_only(self, seat, None):
                                touched.add(seat)
                                self._check_end(end_play, seat)
                                return
                        else:
                            touched.add(seat)
                            self.plays = played
                            if end_scan is not None and not end_scan(self, seat):
                                touched.clear()  # none holds: as _check_end leaves it
                            elif self._check_end(end_play, seat):
                                return
                    seat = nxt[seat]
                if broke:
                    if trick:
                        self._move_cards(trick, pack, None, "pack", src=trick)
                    continue
                if table is None:
                    if not plays:
                        break
                    self.plays = played
                    assert plan is not None  # keys not tabulated whole
                    for (s, c), key in zip(plays, plan.keys(self, plays)):
                        if best_key is None or key > best_key:
                            best_seat, best_key = s, key
                self.tricks_played += 1
                counts["tricks"] += 1
                won[best_seat] += 1
                if logging:
                    cards = [c.name for c in trick]
                    self.emit({"type": "trick", "winner": best_seat, "cards": cards})
                if won_seat is not None or won_zone is not None:
                    (won_seat[best_seat] if won_seat is not None else won_zone).extend(trick)
                    trick.clear()
                    if won_seat is not None:
                        touched.add(best_seat)
                    if logging:
                        self.emit({"type": "take", "seat": best_seat, "cards": cards, "to": st.won_to})
                else:
                    pack.extend(trick)
                    trick.clear()
                if best_seat != leader:
                    counts["lead_changes"] += 1
                self.mover = best_seat
                leader = best_seat
                if declaring:  # the winner may declare melds, before anything else is done
                    self.plays = played
                    yield from self._declare_window(st, best_seat, None)
                    if self._hand_over:
                        return
                if st.on_trick:
                    self.plays = played
                    self._effects(st.on_trick, best_seat)
                self.led = None
                if end_trick:
                    self.plays = played
                    if self._check_end(end_trick, best_seat):
                        return
            self.led = None
        finally:
            self.plays = played
        if handed:
            self._tricks_drawn(st, uniform, leader)

    def _end_scan(self, st: Step, end_play: list):
        """The end tests ``end_play`` of ``st`` after a card, as one generated function
        (``effect_code.end_scan``, kept per step), or None: each tested by _check_end."""
        scans = self._compiled.end_scans
        if id(st) in scans:
            return scans[id(st)]
        scan = scans[id(st)] = end_scan_of(end_play) if end_play else None
        return scan

    def _on_play_watched(self, st: Step, end_play: list):
        """``st``'s effects after each card as one function that gives back whether a counter its
        end tests ``end_play`` read may have changed (kept per step), or None. Only when those
        tests read nothing but counters (and ``seat``) and every effect sets or adds to counters:
        then, the tests having failed, they need not be tested again after a card that changed
        none of them."""
        got = self._compiled.watchers
        if id(st) in got:
            return got[id(st)]
        names = {n for r in end_play for n in r.when.names} - {"seat"}
        ok = bool(st.on_play) and bool(end_play) and names <= set(self.g.vars)
        run = got[id(st)] = build_watcher(st.on_play, frozenset(names)) if ok else None
        return run

    def _short_loop_now(self, st: Step, uniform: list | None) -> bool:
        """The short loop plays ``st`` (from a trick's start): every agent draws
        uniformly, nothing is logged, the step fits (``short_loop_fits``)."""
        return uniform is not None and self._draw_inline and not self._logging and self._short_loop_fits(st)

    def _check_end(self, rules, mover: int) -> bool:
        """Check end conditions for every seat from ``mover`` on; a condition
        that reads only the seat's own card zones is checked only for seats
        whose zones changed since the last check."""
        n = self.n
        touched = self._touched
        order = None
        seats: Iterable[int]
        for rule in rules:
            test = rule.when.fn
            if rule.zone_only and len(touched) == 1:
                seats = touched
            else:
                order = order or [(mover + k) % n for k in range(n)]
                seats = order if not rule.zone_only else [x for x in order if x in touched]
            for s in seats:
                if test(self, s, None):
                    w = rule.winner(self, s) if rule.winner is not None else None
                    self.winner = w % n if isinstance(w, int) else w
                    self._hand_over = True
                    self._end_rule = rule.path
                    self.led = None
                    touched.clear()
                    return True
        touched.clear()
        return False
