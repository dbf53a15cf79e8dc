"""The procedure of a game: set-up, the hands one after another, each hand's
steps in order, and the standings at the end. A generator (``_run``) that
yields a ``Decision`` wherever a player must choose; each step kind is run by
``_step_<kind>`` (``steps``, ``tricks``, ``sequence``).
"""

from __future__ import annotations

import copy
import random
import sys
from typing import Any, Generator

from ..dsl.errors import RuleError
from .base import Decision, StateParts, Unfinished


class Procedure(StateParts):
    """``State``'s game and hand loop."""

    def _run(self, mid: tuple | None = None) -> Generator[Decision, Any, None]:
        """The game. ``mid``: resume a copy at the decision its original was
        paused at (``_hand``'s place and the pausing step's frame, see ``copy``)."""
        g = self.g
        # built from a snapshot (the set-up was done then) or copied mid-hand (the hand's start too)
        resumed = self._resume is not None or mid is not None
        if not resumed:
            game_vars = self._compiled.game_vars
            if game_vars is None:
                game_vars = self._compiled.game_vars = [
                    (name, per_seat, init) for name, (per_seat, init, _) in g.vars.items()
                ]
            self._set_vars(game_vars)
            for p in g.start:
                self._pay(p, None, bank=True)
            self._totals = self._money_totals()
            if self._forced_dealer is not None:
                self.dealer = self._forced_dealer
            elif g.dealer_draw is not None:
                self.dealer = self._draw_dealer(g.dealer_draw)
            elif g.dealer_seat is not None:
                self.dealer = g.dealer_seat(self) % self.n
            else:
                self.dealer = 0
            self._idle = 0  # hands in which nobody played: they count against the play limit too
        try:
            while True:
                if resumed:
                    resumed = False
                else:
                    if self._track and self.hand_no:
                        self._collapse()  # a counter kept from hand to hand: seen by whom saw the hand's cards
                    self.hand_no += 1
                    if self._snapshots:
                        self.snapshot = self._take_snapshot()
                yield from self._hand(mid)
                mid = None
                if self._hand_plays == 0:
                    self._idle += 1
                    if self.plays + self._idle > self.max_plays:
                        self.unfinished = True
                        break
                if self.hands_limit is not None and self.hand_no >= self.hands_limit:
                    self.truncated = True  # stopped by the user, not by the rules:
                    break  # no final settlement
                if g.hands is not None and self.hand_no >= g.hands.fn(self, None, None):
                    break
                if g.until is not None and g.until.fn(self, None, None):
                    break
                if g.hands is None and g.until is None:
                    break
                if g.next_dealer is not None:
                    self.dealer = g.next_dealer.fn(self, None, None) % self.n
            if not self.truncated and not self.unfinished and g.game_end:
                self._end_scores = None  # the scores the last hand ended with may change now
                self._effects(g.game_end, None)
        except Unfinished:
            self._end_scores = None
            self.unfinished = True
            self.emit({"type": "hand_end", "hand": self.hand_no, "winner": None, "reason": "unfinished"})
            self.hand_results.append(
                {
                    "hand": self.hand_no,
                    "winner": None,
                    "winners": [],
                    "won_by": None,
                    "scores": None,
                    "plays": self._hand_plays,
                    "reason": "unfinished",
                }
            )
            if self._on_hand is not None:
                self._on_hand(self, True)
        self._finish()

    def _take_snapshot(self) -> "Snapshot":
        """Everything the rest of the game depends on, at the top of a hand (new lists throughout)."""
        return Snapshot(self)

    def _restore(self, snap: "Snapshot") -> None:
        """Take ``snap``'s game as this state's own (copied into this state's lists: the maps keyed
        by the zones' ids stay right); ``_run`` then starts at that hand."""
        if snap.game is not self.g or snap.n != self.n:
            raise ValueError("a snapshot resumes a game of the same rules and players only")
        for z, cs in snap.zones.items():
            self.zones[z][:] = cs
        for z, per in snap.pzones.items():
            for mine, cs in zip(self.pzones[z], per):
                mine[:] = cs
        self.bal = {h: dict(b) for h, b in snap.bal.items()}
        self.vars = dict(snap.vars)
        self.pvars = {k: list(v) for k, v in snap.pvars.items()}
        if self._track:
            self._taint = dict(snap.taint)
        for a, v in zip(_SCALARS, snap.scalars):
            setattr(self, a, v)
        self.won = list(snap.won)
        self.declared = dict(snap.declared)
        self._counts = dict(snap.counts)
        self.hand_results = list(snap.hand_results)
        self.standings = list(snap.standings)
        self._touched = set(snap.touched)
        if isinstance(snap.rng, random.Random):  # a generator of the caller's: a copy of it
            self._rng = copy.copy(snap.rng)
        else:
            self.rng.setstate(snap.rng)
        self._deck, self._deal = snap.deck, snap.deal
        if self.events is not None and snap.events is not None:
            self.events = snap.events[: snap.n_events]
        self.snapshot = snap

    def _finish(self):
        g = self.g
        if g.standings is not None and self._end_scores is not None:
            scores = list(self._end_scores)  # read at the last hand's end, nothing played since
        elif g.standings is not None:
            score = g.standings.fn
            scores = [score(self, s, None) for s in range(self.n)]
        else:
            scores = [0] * self.n
        order = sorted(range(self.n), key=scores.__getitem__, reverse=True)  # stable: ties by seat
        standings, rank, last = [], 0, None
        for i, s in enumerate(order):
            if scores[s] != last:
                rank, last = i + 1, scores[s]
            standings.append({"seat": s, "score": last, "rank": rank})
        self.standings = standings
        self.check_invariants()
        self.finished = True
        if self._logging:
            self.emit(
                {
                    "type": "game_end",
                    "standings": standings,
                    "unfinished": self.unfinished,
                    "truncated": self.truncated,
                    "hands": self.hand_no,
                    "plays": self.plays,
                }
            )

    def _set_vars(self, entries: list) -> None:
        """Each counter of ``entries`` ((name, per seat, its initial value or None)) set to its
        initial value: 0 where it has none, for every seat if it is a seat's."""
        pvars, gvars, n = self.pvars, self.vars, self.n  # (read once: compiled, each is a look-up by name)
        for name, per_seat, init in entries:
            if init is not None:
                self._init_var(name, per_seat, init)
            elif per_seat:
                pvars[name] = [0] * n
            else:
                gvars[name] = 0

    def _init_var(self, name, per_seat, init):
        if per_seat:
            self.pvars[name] = [init(self, s) if init else 0 for s in range(self.n)]
        else:
            self.vars[name] = init(self) if init else 0

    def _draw_dealer(self, spec: dict) -> int:
        order = self.g.orders.get(spec.get("order") or "", None)
        if order is None and self.g.orders:
            order = self.g.orders.get("play") or next(iter(self.g.orders.values()))
        lowest = spec.get("lowest", True)
        seats = list(range(self.n))
        if len(self.pack_cards) < self.n:
            raise RuleError(
                f"the draw for dealer needs a card for each of {self.n} players",
                self.g.doc.pos(("dealer",)),
                code="runtime",
            )
        for _ in range(1000):
            cards = self.rng.sample(self.pack_cards, len(seats))  # each draws a card of the pack
            drawn = {s: cards[i] for i, s in enumerate(seats)}
            if self._logging:
                self.emit({"type": "draw_for_dealer", "cards": {str(s): drawn[s].name for s in seats}})
            vals = {s: order.get(drawn[s], 0) if order else drawn[s].canon for s in seats}
            best = (min if lowest else max)(vals.values())
            seats = [s for s in seats if vals[s] == best]
            if len(seats) == 1:
                if self._logging:
                    self.emit({"type": "dealer", "seat": seats[0]})
                return seats[0]
        raise RuleError(
            "the draw for dealer never decides: the order gives the drawn cards equal values",
            self.g.doc.pos(("dealer",)),
            code="runtime",
        )

    def _hand(self, mid: tuple | None = None) -> Generator[Decision, Any, None]:
        """One hand: its start, then the rule file's steps in order. ``mid``:
        (the index of the step paused in, ``stacked``, ``dealt``, that step's
        frame): resume there, with nothing before it run again."""
        g = self.g
        if mid is None:
            self.led = self.trump = self.winner = self.leader = None
            self.tricks_played = 0
            self.won = [0] * self.n
            self.declared = {}
            self._plays_at_hand = self.plays
            self._hand_over = False
            self._end_rule = ()
            hand_vars = self._compiled.hand_vars
            if hand_vars is None:
                hand_vars = self._compiled.hand_vars = [
                    (name, per_seat, init) for name, (per_seat, init, reset) in g.vars.items() if reset == "hand"
                ]
            if self._taint:
                self._vis_clear([name for name, _, _ in hand_vars])
            self._set_vars(hand_vars)
            self._gather()
            self._scores_at_hand = self._scores_now()
            first = self.hand_no == 1
            deck = self._deck if first else None
            stacked = deck is not None
            dealt = first and self._deal is not None
            if deck is not None:
                self.zones["pack"][:] = deck
            if self._logging:
                self.emit({"type": "hand_start", "hand": self.hand_no, "dealer": self.dealer})
            if self._on_hand is not None:
                self._on_hand(self, False)
            start, frame = 0, None
        else:
            start, stacked, dealt, frame = mid
        plan = self._compiled.step_plan
        if plan is None:  # each step's fields, read once (compiled, each is a look-up by name)
            plan = self._compiled.step_plan = tuple(
                [(st, st.kind, st.pos, st.when, _handler_name(st.kind)) for st in g.steps]
            )
        if mid is None:
            self._rounds = {}
        i = start - 1
        last = len(plan) - 1
        while i < last:  # a repeat step sends play back (``_jump``), at most its max times
            i += 1
            st, kind, pos, when, method = plan[i]
            if frame is not None:  # the step a copy resumes in: its ``when`` held then
                r = getattr(self, method)(st, frame)
                frame = None
                yield from r
                continue
            self._step_pos = pos
            self._cur_step = st
            if when is not None:
                fired = when.fn(self, None, None)
                if self._track:  # what it was tested on, to the counters the step may set
                    self._vis_step(st, fired)
                if not fired:
                    continue
            if kind == "shuffle" and (stacked or dealt):
                continue
            if kind == "deal" and dealt:
                self._place_deal(st)
                dealt = False
                continue
            handler = getattr(self, method)
            self._at = (i, stacked, dealt)  # where a copy made inside this step resumes
            r = handler(st)
            if r is not None:
                yield from r
            if self._guard:
                self._guard = frozenset()
            if self._jump is not None:
                i, self._jump = self._jump - 1, None
        self._step_pos = self._cur_step = None
        if self.winner is None and g.hand_winner is not None:
            self.winner = g.hand_winner.fn(self, None, None)
            self._end_rule = ("game", "hand_winner")
        if self._logging:
            self.emit(
                {
                    "type": "hand_end",
                    "hand": self.hand_no,
                    "winner": self.winner,
                    "plays": self._hand_plays,
                    "tricks": self.tricks_played,
                    **({"rule": list(self._end_rule)} if self._end_rule else {}),
                }
            )
        self.hand_results.append(self._hand_result())
        if self._on_hand is not None:
            self._on_hand(self, True)
        self.check_invariants(full=self._check_moves)

    def _scores_now(self) -> tuple | None:
        """Each seat's score by the rules' standings now, or None (no standings, or a
        score that can be read only at the end of the game)."""
        fn = self.g.standings
        if fn is None:
            return None
        try:
            score = fn.fn
            return tuple([score(self, s, None) for s in range(self.n)])
        except Exception:  # a score read only at the end (a count of what is not yet there)
            return None

    def _hand_result(self) -> dict:
        """The result of the hand just ended: its number, its winner, the moves and tricks
        played, and what each seat scored in it (``scores``: the change of its score by the
        rules' standings over the hand, or None). The winner is the one the rules name (the
        end condition that ended the hand, or ``game: hand_winner``; ``won_by: rules``);
        when they name none, the seat that scored the most in the hand, if one did
        (``won_by: score``); else None. ``winners``: the seats that scored the most (several
        when they tie: the side that won, the players who beat the one who lost), or the
        rules' winner, or none when nobody scored more than another."""
        start, end = self._scores_at_hand, self._scores_now()
        self._end_scores = end
        scores = [b - a for a, b in zip(start, end)] if start is not None and end is not None else None
        winner, by = self.winner, "rules" if self.winner is not None else None
        winners = [winner] if winner is not None else []
        if winner is None and scores:
            best = max(scores)
            if best > min(scores):
                winners, by = [s for s, x in enumerate(scores) if x == best], "score"
                winner = winners[0] if len(winners) == 1 else None
        return {
            "hand": self.hand_no,
            "winner": winner,
            "winners": winners,
            "won_by": by,
            "scores": scores,
            "plays": self._hand_plays,
            "tricks": self.tricks_played,
        }

    def _gather(self):
        """Every card back to the pack: the shared zones', then each seat's."""
        pack = self.zones["pack"]
        for z in self._all_zones:
            if z and z is not pack:
                pack.extend(z)
                z.clear()

    def _count_play(self):
        self.plays += 1
        if self.plays > self.max_plays:
            raise Unfinished()


_HANDLERS: dict[str, str] = {}


def _handler_name(kind: str) -> str:
    """``_step_<kind>``, one interned string per kind: a name made anew at each step misses
    Python's cache of attribute look-ups and walks the whole of ``State``'s bases."""
    name = _HANDLERS.get(kind)
    if name is None:
        name = _HANDLERS[kind] = sys.intern("_step_" + kind)
    return name


# the plain values a snapshot keeps as they are (numbers, seats, names, None)
_SCALARS = (
    "dealer",
    "leader",
    "led",
    "trump",
    "winner",
    "mover",
    "other",
    "hand_no",
    "tricks_played",
    "plays",
    "_plays_at_hand",
    "_hand_over",
    "unfinished",
    "truncated",
    "finished",
    "_step_pos",
    "_idle",
    "_totals",
)


class Snapshot:
    """A game at the top of a hand (taken by ``_run`` just before the hand's steps), from which a
    new state can resume it: zones, seat zones, money, counters, the hand's state, results so
    far, the random generator's state. Never changed once taken: a state resumed from it copies."""

    __slots__ = (
        "game",
        "n",
        "zones",
        "pzones",
        "bal",
        "vars",
        "pvars",
        "scalars",
        "won",
        "declared",
        "counts",
        "hand_results",
        "standings",
        "touched",
        "rng",
        "deck",
        "deal",
        "events",
        "n_events",
        "taint",
    )

    def __init__(self, st: Procedure):
        self.game = st.g
        self.n = st.n
        self.zones = {z: list(cs) for z, cs in st.zones.items()}
        self.pzones = {z: [list(cs) for cs in per] for z, per in st.pzones.items()}
        self.bal = {h: dict(b) for h, b in st.bal.items()}
        self.vars = dict(st.vars)
        self.pvars = {k: list(v) for k, v in st.pvars.items()}
        self.taint = dict(st._taint)
        self.scalars = tuple([getattr(st, a) for a in _SCALARS])
        self.won = list(st.won)
        self.declared = dict(st.declared)
        self.counts = dict(st._counts)
        self.hand_results = list(st.hand_results)  # each result a dict never changed once made
        self.standings = list(st.standings)
        self.touched = frozenset(st._touched)
        rng = st.rng
        self.rng = rng.getstate() if type(rng) is random.Random else copy.copy(rng)
        self.deck, self.deal = st._deck, st._deal
        self.events = st.events  # appended to only: its first n_events stay
        self.n_events = 0 if st.events is None else len(st.events)
