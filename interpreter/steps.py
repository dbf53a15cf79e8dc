"""The steps that are not card play: pay, effects, shuffle (and cut), deal,
turn-up, announce.
"""

from __future__ import annotations

from operator import itemgetter

from ..dsl.errors import RuleError
from ..dsl.model import Step, deal_plan
from .base import PASS, Decision, StateParts, canon_key


class Steps(StateParts):
    """``State``'s ``_step_<kind>`` for every kind but tricks and sequence."""

    def _step_pay(self, st: Step):
        payment = st.payment
        assert payment is not None, "a pay step has its payment (the model requires one)"
        self._pay(payment, None)

    def _step_effects(self, st: Step):
        self._effects(st.effects, None)

    def _step_shuffle(self, st: Step):
        pack = self.zones["pack"]
        getrandbits = self.rng.getrandbits
        # Fisher-Yates, each place drawn uniformly by rejection from getrandbits: the
        # algorithm of random.shuffle, without a Python call per card
        for i in range(len(pack) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            pack[i], pack[j] = pack[j], pack[i]
        if self._logging:
            self.emit({"type": "shuffle", "seat": self.dealer})
        if st.cut_by is not None and len(pack) > 2 * st.min_cut:
            n = len(pack) - 2 * st.min_cut + 1  # the cut: min_cut … len - min_cut, uniformly
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            at = st.min_cut + j
            pack[:] = pack[at:] + pack[:at]
            if self._logging:
                self.emit({"type": "cut", "seat": st.cut_by(self) % self.n, "at": at})

    def _step_deal(self, st: Step):
        n = self.n
        plans = self._compiled.deal_plans.setdefault(id(st), {})
        plan = plans.get(n)
        if plan is None:
            plan = plans[n] = self._deal_plan(st)
        need, take = plan
        first = st.first.fn(self, None, None) % n if st.first is not None else (self.dealer + 1) % n
        pack = self.zones["pack"]
        if len(pack) < need:
            raise RuleError(
                f"the deal needs {need} cards for {n} players but {len(pack)} are left", st.pos, code="deal"
            )
        hands = self.hand
        for k in range(n):  # the k-th seat from the first gets the cards at its places in the pack
            h = hands[(first + k) % n]
            h.extend(take[k](pack))
            h.sort(key=canon_key)
        rest = pack[need:]
        del pack[:]
        if st.rest is not None:
            self.zones[st.rest].extend(rest)
        else:
            pack.extend(rest)
        self._touched.update(range(n))
        if self._logging:
            ev = {"type": "deal", "hands": [[c.name for c in h] for h in hands]}
            if st.rest is not None:
                ev[st.rest] = [c.name for c in self.zones[st.rest]]
            self.emit(ev)

    def _deal_plan(self, st: Step):
        """For a deal step and this many players: the number of cards dealt,
        and for the k-th seat from the first a function giving the cards the
        batches put in its hand (from their places in the pack)."""
        n = self.n
        per, batches, _ = deal_plan(st, n)
        if per is None:
            raise RuleError(f"the deal says nothing for {n} players", st.pos, code="deal")
        places: list[list[int]] = [[] for _ in range(n)]
        i = 0
        for size in batches:
            for k in range(n):
                places[k].extend(range(i, i + size))
                i += size
        take = [
            itemgetter(*pl) if len(pl) > 1 else itemgetter(slice(pl[0], pl[0] + 1) if pl else slice(0, 0))
            for pl in places
        ]
        return i, take

    def _place_deal(self, st: Step):
        deal = self._deal
        assert deal is not None, "placed only when a deal was given"
        pack = self.zones["pack"]
        pack.clear()
        for seat, cs in enumerate(deal["hands"]):
            self.hand[seat][:] = sorted(cs, key=canon_key)
        self._touched.update(range(self.n))
        for z, cs in deal.items():
            if z != "hands":
                self.zones[z][:] = cs
        ev = {"type": "deal", "hands": [[c.name for c in h] for h in self.hand]}
        for z in deal:
            if z != "hands":
                ev[z] = [c.name for c in self.zones[z]]
        self.emit(ev)

    def _step_turnup(self, st: Step):
        to = st.to
        assert to is not None, "a turn-up step names its zone (the model requires one)"
        zone = self.zones[to]
        if zone:  # a given deal already placed the turn-up
            if st.sets_trump:
                self.trump = zone[-1].suit
            self.emit({"type": "turnup", "card": zone[-1].name, "trump": self.trump})
            return
        pack = self.zones["pack"]
        src = pack if pack else self.zones.get(self._rest_zone() or "", [])
        if not src:
            raise RuleError("no card left to turn up", st.pos, code="deal")
        c = src.pop(0)
        zone.append(c)
        if st.sets_trump:
            self.trump = c.suit
        if st.rest is not None and pack:
            self.zones[st.rest].extend(pack)
            pack.clear()
        self.emit({"type": "turnup", "card": c.name, "trump": self.trump})

    def _rest_zone(self):
        for st in self.g.steps:
            if st.kind == "deal" and st.rest:
                return st.rest
        return None

    def _step_announce(self, st: Step, frame: tuple | None = None):
        """Each seat in turn from the first may declare or pass. ``frame``: a
        copy resumes at the seat its original was paused at (the options are
        worked out again: nothing has changed them since)."""
        if frame is None:
            first = st.first.fn(self, None, None) % self.n if st.first is not None else (self.dealer + 1) % self.n
            k0 = 0
        else:
            first, k0 = frame
        for k in range(k0, self.n):
            seat = (first + k) % self.n
            options = [PASS] + [
                d
                for d in st.declarations
                if sum(1 for x in self.declared if x == d) < self.g.declarations.get(d, 1) and d not in self.declared
            ]
            if len(options) == 1:
                continue
            if self._auto is not None:
                choice = self._ask(seat, options)
            else:
                self._frame = (first, k)
                choice = yield Decision(seat, options, "announce")
            if choice != PASS:
                self.declared[choice] = seat
                self._counts["declarations"] += 1
                self.emit({"type": "declare", "seat": seat, "declaration": choice})
