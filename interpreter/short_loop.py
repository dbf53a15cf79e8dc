"""The short trick loop (``_tricks_drawn``) and the one place that says when it runs
(``short_loop_fits``, which ``tests/test_short_loop.py`` imports).

It plays the same games as the general loop (``tricks``) when every agent draws uniformly and no
events are kept, for every rule shape: the plainest (``plain_shape``: any card led, the single tier
``card.suit == led``, no free card, winner keys tabulated) in a loop of its own (``_tricks_plain``),
every other in ``_tricks_any``, where each part of the rule takes its quickest form (a lead test,
later tiers, free cards, keys that read the trick).

The restore rule: the loop keeps ``plays`` and ``mover`` in locals, and writes them back to the
state before anything that may read them runs (an end test, a lead test or follow tier, a renounce's
effects, the trick's keys, the effects after a trick, the general machinery) and, in a ``finally``,
when it stops; ``led`` is written when a card is led. Where the one end test is "his hand is
empty", a seat that gains cards is not marked as changed during the loop; every seat is marked when
it stops.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from ..dsl.model import Step
from .base import SUIT_SPAN, StateParts, Unfinished, canon_key
from .fastpath import card_only_table, key_plan


def short_loop_fits(st: Step) -> bool:
    """The tricks step can be played by the short loop (when the agents draw uniformly and nothing
    is logged): any tricks step without a lead that passes on (``lead_passes``) nor melds declared,
    left to the general loop; one with effects after each card (``on_play``) only in the plainest
    shape (``plain_shape``), whose loop runs them. The follow rule's first tier ``card.suit == led``
    is found by bisection, a free card that reads only the card is looked up, winner keys are
    tabulated where they read only the card, led and trump; any other lead test, tier or key is
    evaluated as the general loop does."""
    return st.kind == "tricks" and not st.lead_passes and st.declare is None and (not st.on_play or plain_shape(st))


def plain_shape(st: Step) -> bool:
    """The plainest shape, which has a loop of its own: any card led, one follow tier that is
    ``card.suit == led``, no free card, winner keys that read only the card, led and trump."""
    one_tier = len(st.must) == 1 and st.must[0].shape == "card.suit == led"
    return st.lead_test is None and st.key_pure and one_tier and st.free is None


class ShortLoop(StateParts):
    """``State``'s short trick loop."""

    def _short_loop_fits(self, st: Step) -> bool:
        return short_loop_fits(st)  # (``short_loop_fits``)

    def _tricks_drawn(self, st: Step, uniform: list, leader: int | None = None) -> None:
        """The trick loop when nothing needs to be asked or recorded: every agent draws uniformly
        (``uniform``, asked inline) and no events are kept. The plainest shape has a loop of its own
        (``_tricks_plain``); every other shape takes ``_tricks_any``. ``leader``: the seat to lead when
        the general loop hands over the step's remaining tricks at a trick's start (None: the step's
        first leader). In the plainest shape, end tests that read only counters are not tested again
        after a card while nothing they read has changed since they failed (``_on_play_watched``)."""
        plain = self._compiled.short_loop.get(id(st))
        if plain is None:
            plain = self._compiled.short_loop[id(st)] = plain_shape(st)
        if plain:
            self._tricks_plain(st, uniform, leader)
        else:
            self._tricks_any(st, uniform, leader)

    def _plain_setup(self, st: Step) -> tuple:
        """What the plain short loop needs of a tricks step, worked out once a game."""
        n = self.n
        trick = self.zones["trick"]
        end_play = [r for r in st.end if r.after == "play"]
        end_trick = [r for r in st.end if r.after == "trick"]
        empty_hand_ends = (
            len(end_play) == 1 and end_play[0].zone_only and end_play[0].when.shape == "count(hand(seat)) == 0"
        )
        cannot_follow = st.cannot_follow
        renounce = self._runner(cannot_follow) if cannot_follow else None
        # the renounce takes the whole of a shared zone into a zone of his and he leads: done in the loop
        whole = getattr(renounce, "whole", None)
        w_src = self.zones[whole[0]] if whole is not None else None
        w_dst = self.pzones[whole[1]] if whole is not None else None
        w_sort = w_dst is self.hand
        w_into_gap = w_src is trick and w_dst is self.hand
        nxt = [(s + 1) % n for s in range(n)]
        return (
            trick,
            [f.fn for f in st.winner_key],
            self._compiled.key_tables.setdefault(id(st), {}),
            end_play,
            end_trick,
            empty_hand_ends,
            renounce,
            whole,
            w_src,
            w_dst,
            w_sort,
            w_into_gap,
            nxt,
        )

    def _tricks_plain(self, st: Step, uniform: list, leader: int | None = None) -> None:
        """The short loop for the plainest shape (``plain_shape``): any card
        led, the one follow tier ``card.suit == led``, no free card, winner keys
        tabulated per (led, trump). The same game as ``_tricks_any`` and
        ``_step_tricks`` plays, without the tests of the other shapes."""
        n = self.n
        if leader is None:
            leader = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
        cfg = self._short_cfg.get(id(st))
        if cfg is None:
            cfg = self._short_cfg[id(st)] = self._plain_setup(st)
        (
            trick,
            keys,
            key_tables,
            end_play,
            end_trick,
            empty_hand_ends,
            renounce,
            whole,
            w_src,
            w_dst,
            w_sort,
            w_into_gap,
            nxt,
        ) = cfg
        hands, touched, legal = self.hand, self._touched, self._legal
        max_plays = self.max_plays
        counts = self._counts
        won = self.won
        won_seat = self.pzones.get(st.won_to) if st.won_to is not None else None
        won_zone = self.zones[st.won_to] if st.won_to is not None and won_seat is None else None
        pack = self.zones["pack"]
        played = self.plays
        run_on_trick = self._runner(st.on_trick) if st.on_trick else None  # the effects after each trick
        # the effects after each card, as one function; the end tests after it as one (or None)
        run_on_play = self._runner(st.on_play) if st.on_play else None
        end_scan = self._end_scan(st, end_play) if end_play and not empty_hand_ends else None
        watched = self._on_play_watched(st, end_play) if end_scan and run_on_play and not self._track else None
        run_on_play = watched or run_on_play  # (it says whether a counter the end tests read may have changed)
        calm = False  # the end tests failed, and nothing they read has changed since
        changed: Any = True
        by_led: dict = {}  # led -> its winner-key table (trump does not change during the step)
        # the one end test is "his hand is empty": a seat that gains cards is not tested again (all marked at the end)
        mark_gains = not (empty_hand_ends and not end_trick)
        mover = self.mover
        try:
            while not self._hand_over:
                if not hands[leader]:
                    break
                self.leader = leader
                led = None  # self.led is set by the lead; nothing reads it before
                # none until the first card of the trick is played
                table: Any = None
                best_seat: Any = None
                best_key: Any = None
                seat = leader
                for _ in range(n):
                    hand = hands[seat]
                    if not hand:
                        seat = nxt[seat]
                        continue
                    if led is None:  # the lead: any card of the hand
                        k = len(hand)
                        c = hand.pop(int(uniform[seat]() * k) if k > 1 else 0)
                        self.led = led = c.suit
                        led_lo, led_hi = SUIT_SPAN[led]
                        table = by_led.get(led)
                        if table is None:
                            table = by_led[led] = key_tables.setdefault((led, self.trump), {})
                        best_key = table.get(c)
                        if best_key is None:
                            best_key = table[c] = tuple([f(self, seat, c) for f in keys])
                        best_seat = seat
                    else:
                        # a hand is in canonical order, so the cards of a suit lie together:
                        # hand[i:j], found by bisection
                        i = bisect_left(hand, led_lo, key=canon_key)
                        if i < len(hand) and hand[i].suit == led:
                            k = bisect_left(hand, led_hi, i + 1, key=canon_key) - i
                            c = hand.pop(i + int(uniform[seat]() * k) if k > 1 else i)
                        else:
                            if whole is not None:  # he takes the whole of a zone and leads
                                if w_src:
                                    if w_into_gap:
                                        # the trick holds only cards of the suit led, which his hand
                                        # lacks: sorted, they go where that suit would be, at i
                                        trick.sort(key=canon_key)
                                        hand[i:i] = trick
                                    else:
                                        dst = w_dst[seat]
                                        dst.extend(w_src)
                                        if w_sort:
                                            dst.sort(key=canon_key)
                                    w_src.clear()
                                    if mark_gains:
                                        touched.add(seat)
                                    counts["takes"] += 1
                                if seat != leader:
                                    counts["lead_changes"] += 1
                                leader = seat
                                break
                            if renounce is not None:
                                self.plays = played
                                self.mover = mover
                                new, calm = renounce(self, seat), False
                                if new is not None:  # the trick is over; he (or another) leads
                                    if new != leader:
                                        counts["lead_changes"] += 1
                                    leader = new
                                    break
                                if self._hand_over:
                                    return
                                moves = legal(st, seat)[0]  # the effects may have changed his hand
                                if not moves:
                                    seat = nxt[seat]
                                    continue
                            else:
                                moves = hand
                            nm = len(moves)
                            c = moves[int(uniform[seat]() * nm)] if nm > 1 else moves[0]
                            hand.remove(c)
                        key = table.get(c)
                        if key is None:
                            key = table[c] = tuple([f(self, seat, c) for f in keys])
                        if key > best_key:
                            best_seat, best_key = seat, key
                    mover = seat  # self.mover is written before anything reads it
                    trick.append(c)
                    played += 1
                    if played > max_plays:
                        raise Unfinished()
                    if run_on_play is not None:  # after each card, ``seat`` its player, ``last_card`` the card
                        self.plays = played
                        self.mover = mover
                        changed = run_on_play(self, seat)
                    if empty_hand_ends:
                        # the mover's hand, then any other hand changed since the last check
                        if not hand:
                            touched.add(seat)
                            self.plays = played
                            self.mover = mover
                            self._check_end(end_play, seat)
                            return
                        if touched:
                            for s in touched:
                                if not hands[s]:
                                    touched.add(seat)
                                    self.plays = played
                                    self.mover = mover
                                    if self._check_end(end_play, seat):
                                        return
                                    break
                            touched.clear()
                    elif calm and not changed:  # they would fail again: as _check_end leaves it
                        touched.clear()
                    elif end_play:
                        touched.add(seat)
                        self.plays = played
                        self.mover = mover
                        if end_scan is not None and not end_scan(self, seat):
                            touched.clear()  # none holds: as _check_end leaves it
                            calm = watched is not None
                        elif self._check_end(end_play, seat):
                            return
                    seat = nxt[seat]
                else:  # everyone has played: the trick is won
                    if best_seat is None:
                        break
                    self.tricks_played += 1
                    counts["tricks"] += 1
                    won[best_seat] += 1
                    if won_seat is not None:
                        won_seat[best_seat].extend(trick)
                        if mark_gains:
                            touched.add(best_seat)
                    else:
                        (won_zone if won_zone is not None else pack).extend(trick)
                    trick.clear()
                    if best_seat != leader:
                        counts["lead_changes"] += 1
                    self.mover = mover = best_seat
                    leader = best_seat
                    if run_on_trick is not None:
                        self.plays = played
                        run_on_trick(self, best_seat)
                        calm = False
                    self.led = None
                    if end_trick:
                        self.plays = played
                        if self._check_end(end_trick, best_seat):
                            return
                    continue
                if trick:  # a renounce broke the trick off
                    self._move_cards(trick, pack, None, "pack", src=trick)
            self.led = None
        finally:
            self.plays = played
            self.mover = mover
            if not mark_gains:
                touched.update(range(n))

    def _short_setup(self, st: Step) -> tuple:
        """What the short loop needs of a tricks step, worked out once a game."""
        n = self.n
        trick = self.zones["trick"]
        end_play = [r for r in st.end if r.after == "play"]
        end_trick = [r for r in st.end if r.after == "trick"]
        empty_hand_ends = (
            len(end_play) == 1 and end_play[0].zone_only and end_play[0].when.shape == "count(hand(seat)) == 0"
        )
        cannot_follow = st.cannot_follow
        renounce = self._runner(cannot_follow) if cannot_follow else None
        suit_led = bool(st.must) and st.must[0].shape == "card.suit == led"
        free = st.free
        free_tab = card_only_table(self, free)
        # the renounce takes the whole of a shared zone into a zone of his and he leads: done in
        # the loop (where he cannot follow the suit led)
        whole = getattr(renounce, "whole", None) if suit_led else None
        w_src = self.zones[whole[0]] if whole is not None else None
        w_dst = self.pzones[whole[1]] if whole is not None else None
        w_sort = w_dst is self.hand
        # the trick then holds only cards of the suit led (no free card), which his hand lacks
        w_into_gap = w_src is trick and w_dst is self.hand and free is None
        nxt = [(s + 1) % n for s in range(n)]
        return (
            trick,
            [f.fn for f in st.winner_key],
            self._compiled.key_tables.setdefault(id(st), {}) if st.key_pure else None,
            None if st.key_pure else key_plan(self, st),
            end_play,
            end_trick,
            empty_hand_ends,
            renounce,
            whole,
            w_src,
            w_dst,
            w_sort,
            w_into_gap,
            nxt,
            st.lead_test is None,
            suit_led,
            len(st.must) == 1,
            free,
            free_tab,
        )

    def _tricks_any(self, st: Step, uniform: list, leader: int | None = None) -> None:
        """The trick loop when nothing needs to be asked or recorded: every
        agent draws uniformly (``uniform``, asked inline) and no events are
        kept. The same game as ``_step_tricks`` plays, with the choices those
        settings make needless left out of the loop (tests compare the two):
        a lead of any card and a follow of the suit led are drawn from the
        hand's place (the suit found by bisection), keys that read only the
        card, led and trump are tabulated and the best kept as the cards fall;
        any other lead test, follow tier or key is worked out as the general
        loop does."""
        n = self.n
        if leader is None:
            leader = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
        cfg = self._short_cfg.get(id(st))
        if cfg is None:
            cfg = self._short_cfg[id(st)] = self._short_setup(st)
        (
            trick,
            keys,
            key_tables,
            plan,
            end_play,
            end_trick,
            empty_hand_ends,
            renounce,
            whole,
            w_src,
            w_dst,
            w_sort,
            w_into_gap,
            nxt,
            lead_any,
            suit_led,
            one_tier,
            free,
            free_tab,
        ) = cfg
        hands, touched, legal = self.hand, self._touched, self._legal
        max_plays = self.max_plays
        counts = self._counts
        won = self.won
        won_seat = self.pzones.get(st.won_to) if st.won_to is not None else None
        won_zone = self.zones[st.won_to] if st.won_to is not None and won_seat is None else None
        pack = self.zones["pack"]
        played = self.plays
        run_on_trick = self._runner(st.on_trick) if st.on_trick else None  # the effects after each trick
        # the effects after each card, as one function; the end tests after it as one (or None)
        run_on_play = self._runner(st.on_play) if st.on_play else None
        end_scan = self._end_scan(st, end_play) if end_play and not empty_hand_ends else None
        by_led: dict = {}  # led -> its winner-key table (trump does not change during the step)
        # the one end test is "his hand is empty": a seat that gains cards need not be
        # tested again (every seat is marked for later steps when the loop ends)
        mark_gains = not (empty_hand_ends and not end_trick)
        mover = self.mover
        tabulated = key_tables is not None
        plays: list = []  # (seat, card) of the trick, where the keys are not all tabulated
        try:
            while not self._hand_over:
                if not hands[leader]:
                    break
                self.leader = leader
                led = None  # self.led is set by the lead; nothing reads it before
                # none until the first card of the trick is played
                table: Any = None
                best_seat: Any = None
                best_key: Any = None
                if not tabulated:
                    plays = []
                seat = leader
                for _ in range(n):
                    hand = hands[seat]
                    if not hand:
                        seat = nxt[seat]
                        continue
                    if led is None:  # the lead
                        if lead_any:
                            k = len(hand)
                            c = hand.pop(int(uniform[seat]() * k) if k > 1 else 0)
                        else:
                            self.plays = played
                            self.mover = mover
                            moves = legal(st, seat)[0]
                            nm = len(moves)
                            c = moves[int(uniform[seat]() * nm)] if nm > 1 else moves[0]
                            hand.remove(c)
                        self.led = led = c.suit
                        if tabulated:
                            led_lo, led_hi = SUIT_SPAN[led]
                            table = by_led.get(led)
                            if table is None:
                                table = by_led[led] = key_tables.setdefault((led, self.trump), {})
                            best_key = table.get(c)
                            if best_key is None:
                                best_key = table[c] = tuple([f(self, seat, c) for f in keys])
                            best_seat = seat
                        else:
                            led_lo, led_hi = SUIT_SPAN[led]
                            plays.append((seat, c))
                    else:
                        follows = True
                        moves = None
                        if suit_led:
                            # a hand is in canonical order, so the cards of a suit lie together:
                            # hand[i:j], found by bisection
                            i = bisect_left(hand, led_lo, key=canon_key)
                            if i < len(hand) and hand[i].suit == led:
                                if free is None:
                                    k = bisect_left(hand, led_hi, i + 1, key=canon_key) - i
                                    c = hand.pop(i + int(uniform[seat]() * k) if k > 1 else i)
                                elif free_tab is not None:
                                    moves = [c for c in hand if c.suit == led or free_tab[c]]
                                else:
                                    keep = hand[i : bisect_left(hand, led_hi, i + 1, key=canon_key)]
                                    moves = [c for c in hand if c in keep or free(self, seat, c)]
                            else:
                                follows = False
                        else:
                            self.plays = played
                            self.mover = mover
                            moves, follows = legal(st, seat)
                        if not follows:
                            if whole is not None:  # he takes the whole of a zone and leads
                                if w_src:
                                    if w_into_gap:
                                        # the trick holds only cards of the suit led, which his hand
                                        # lacks: sorted, they go where that suit would be, at i
                                        trick.sort(key=canon_key)
                                        hand[i:i] = trick
                                    else:
                                        dst = w_dst[seat]
                                        dst.extend(w_src)
                                        if w_sort:
                                            dst.sort(key=canon_key)
                                    w_src.clear()
                                    if mark_gains:
                                        touched.add(seat)
                                    counts["takes"] += 1
                                if seat != leader:
                                    counts["lead_changes"] += 1
                                leader = seat
                                break
                            if renounce is not None:
                                self.plays = played
                                self.mover = mover
                                new = renounce(self, seat)
                                if new is not None:  # the trick is over; he (or another) leads
                                    if new != leader:
                                        counts["lead_changes"] += 1
                                    leader = new
                                    break
                                if self._hand_over:
                                    return
                                moves = legal(st, seat)[0]  # the effects may have changed his hand
                                if not moves:
                                    seat = nxt[seat]
                                    continue
                            elif moves is None:
                                if one_tier:
                                    moves = hand
                                else:
                                    self.plays = played
                                    self.mover = mover
                                    moves = legal(st, seat, 1)[0]  # tier 0 (the suit led) gave none
                        if moves is not None:
                            nm = len(moves)
                            c = moves[int(uniform[seat]() * nm)] if nm > 1 else moves[0]
                            hand.remove(c)
                        if tabulated:
                            key = table.get(c)
                            if key is None:
                                key = table[c] = tuple([f(self, seat, c) for f in keys])
                            if key > best_key:
                                best_seat, best_key = seat, key
                        else:
                            plays.append((seat, c))
                    mover = seat  # self.mover is written before anything reads it
                    trick.append(c)
                    played += 1
                    if played > max_plays:
                        raise Unfinished()
                    if run_on_play is not None:  # after each card, ``seat`` its player, ``last_card`` the card
                        self.plays = played
                        self.mover = mover
                        run_on_play(self, seat)
                    if empty_hand_ends:
                        # the mover's hand, then any other hand changed since the last check
                        if not hand:
                            touched.add(seat)
                            self.plays = played
                            self.mover = mover
                            self._check_end(end_play, seat)
                            return
                        if touched:
                            for s in touched:
                                if not hands[s]:
                                    touched.add(seat)
                                    self.plays = played
                                    self.mover = mover
                                    if self._check_end(end_play, seat):
                                        return
                                    break
                            touched.clear()
                    elif end_play:
                        touched.add(seat)
                        self.plays = played
                        self.mover = mover
                        if end_scan is not None and not end_scan(self, seat):
                            touched.clear()  # none holds: as _check_end leaves it
                        elif self._check_end(end_play, seat):
                            return
                    seat = nxt[seat]
                else:  # everyone has played: the trick is won
                    if not tabulated:
                        if not plays:
                            break
                        self.plays = played
                        self.mover = mover
                        for (s, c), key in zip(plays, plan.keys(self, plays)):
                            if best_key is None or key > best_key:
                                best_seat, best_key = s, key
                    elif best_seat is None:
                        break
                    self.tricks_played += 1
                    counts["tricks"] += 1
                    won[best_seat] += 1
                    if won_seat is not None:
                        won_seat[best_seat].extend(trick)
                        if mark_gains:
                            touched.add(best_seat)
                    else:
                        (won_zone if won_zone is not None else pack).extend(trick)
                    trick.clear()
                    if best_seat != leader:
                        counts["lead_changes"] += 1
                    self.mover = mover = best_seat
                    leader = best_seat
                    if run_on_trick is not None:
                        self.plays = played
                        run_on_trick(self, best_seat)
                    self.led = None
                    if end_trick:
                        self.plays = played
                        if self._check_end(end_trick, best_seat):
                            return
                    continue
                if trick:  # a renounce broke the trick off
                    self._move_cards(trick, pack, None, "pack", src=trick)
            self.led = None
        finally:
            self.plays = played
            self.mover = mover
            if not mark_gains:
                touched.update(range(n))
