"""The steps that are not card play: pay, effects, shuffle (and cut), deal,
turn-up, announce.
"""

from __future__ import annotations

from operator import itemgetter
from random import Random

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
        rng = self.rng
        if type(rng) is not Random:  # a generator of the caller's (a subclass): its own shuffle and cut
            rng.shuffle(pack)
            if self._logging:
                self.emit({"type": "shuffle", "seat": self.dealer})
            if st.cut_by is not None and len(pack) > 2 * st.min_cut:
                at = st.min_cut + rng.randrange(len(pack) - 2 * st.min_cut + 1)
                pack[:] = pack[at:] + pack[:at]
                if self._logging:
                    self.emit({"type": "cut", "seat": st.cut_by(self) % self.n, "at": at})
            return
        getrandbits = rng.getrandbits
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
        first = st.first.fn(self, None, None) % n if st.first is not None else (self.dealer + 1) % n
        plans: dict = self._compiled.deal_plans.setdefault(id(st), {})
        if st.hand_expr is not None:  # sizes computed at every hand, for every seat
            sizes = tuple(self._deal_size(st, (first + k) % n) for k in range(n))
            if sum(sizes) > len(self.zones["pack"]):  # told before any plan is made for it
                raise RuleError(
                    f"the deal needs {sum(sizes)} cards for {n} players but {len(self.zones['pack'])} are left",
                    st.pos,
                    code="deal",
                )
            key: object = (n, sizes)
        else:
            sizes, key = None, n
        plan = plans.get(key)
        if plan is None:
            if len(plans) > 256:  # sizes that change at every hand: the table stays small
                plans.clear()
            plan = plans[key] = self._deal_plan(st) if sizes is None else self._sized_plan(st, sizes)
        need, take = plan
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

    def _deal_size(self, st: Step, seat: int) -> int:
        e = st.hand_expr
        assert e is not None, "only a deal whose size is an expression"
        v = e.fn(self, seat, None)
        if type(v) is not int or v < 0:
            raise RuleError(f"the deal gives seat {seat} {v!r} cards ({e.text})", e.pos, code="deal")
        return v

    def _sized_plan(self, st: Step, sizes: tuple):
        """The plan of a deal whose hands are ``sizes`` (the k-th seat from the
        first): round after round, each seat is dealt the round's batch, or
        what it still lacks; without batches, each hand at once."""
        n = self.n
        b = st.batches.get(n, st.batches.get(0))
        if b is None:
            rounds: list[int] | None = [max(sizes, default=0)] if sizes else []
        elif isinstance(b, int):
            rounds = None  # b each round until every hand is full
        else:
            rounds = list(b)
        places: list[list[int]] = [[] for _ in range(n)]
        left, i, r = list(sizes), 0, 0
        while any(left):
            if rounds is not None and r >= len(rounds):
                raise RuleError(
                    f"the batches {'-'.join(map(str, rounds))} deal fewer cards than the hands of "
                    f"{'/'.join(map(str, sizes))}",
                    st.pos,
                    code="deal",
                )
            size = max(b, 1) if isinstance(b, int) else rounds[r]  # type: ignore[index]
            for k in range(n):
                m = min(size, left[k])
                places[k].extend(range(i, i + m))
                i += m
                left[k] -= m
            r += 1
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
        if to is not None and self.hand_no == 1 and self._deal is not None and self._deal.get(to):
            zone = self.zones[to]  # a given deal already placed the turn-up
            if st.sets_trump:
                self.trump = zone[-1].suit
            self.emit({"type": "turnup", "card": zone[-1].name, "trump": self.trump})
            return
        if to is not None:
            zone = self.zones[to]
        else:
            assert st.to_expr is not None, "a turn-up step names its zone (the model requires one)"
            zone = st.to_expr.fn(self, None, None)
        pack = self.zones["pack"]
        if st.turn_from is not None:  # a card turned up from a zone of its own (a card kept face down)
            src_name = st.turn_from
        else:
            src_name = "pack" if pack else self._rest_zone() or ""
        src = self.zones.get(src_name, []) if src_name != "pack" else pack
        if not src:
            raise RuleError("no card left to turn up", st.pos, code="deal")
        if src is zone:
            raise RuleError(f"the turn-up is taken from {to} itself: turn it up into another zone", st.pos, code="deal")
        c = src.pop(0)
        zone.append(c)  # on top of what the zone holds
        owner = self._zone_owner.get(id(zone))
        if owner is not None:  # a seat's zone: the dealer's hand
            self._touched.add(owner)
            if id(zone) in self._hand_ids:
                zone.sort(key=canon_key)
        if st.sets_trump:
            self.trump = c.suit
        if st.rest is not None and pack:
            self.zones[st.rest].extend(pack)
            pack.clear()
        ev = {"type": "turnup", "card": c.name, "trump": self.trump}
        if self._copies:  # copies of a card: the place it was turned from says which copy is seen
            ev["from"] = src_name
        self.emit(ev)

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
