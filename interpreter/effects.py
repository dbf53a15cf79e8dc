"""Effects and money: the rule file's effects (take, end_trick, pay, set, add)
as functions of (state, seat), built once per rule file; moving cards
between zones; payments and transfers between money holders. A state is
typed here as ``base.StateParts``: this module imports nothing of ``state``
(which is built from it).
"""

from __future__ import annotations

from dataclasses import replace
from operator import itemgetter
from typing import Any, Callable

from ..dsl import codegen
from ..dsl.compiler import sides_of
from ..dsl.cells import Cell
from ..dsl.closures import SEAT_VALUES
from ..dsl.errors import Pos, RuleError
from ..dsl.model import Effect, GameDef, Payment
from ..dsl.reads import OVER_ALL_SEATS, reads_seat
from .base import StateParts, canon_key
from .counter_events import _logged_counters, _tracked_counters
from .effect_code import code_runner
from .visibility import NOTHING, guard_taint, plan


class Effects(StateParts):
    """``State``'s effects, card moves and payments."""

    def _effects(self, effects: list[Effect], seat):
        """Run ``effects`` for ``seat``. Returns the seat that leads next if
        an ``end_trick`` effect ended the trick (the effects after it are not
        run), else None."""
        return self._runner(effects)(self, seat)

    def _runner(self, effects: list[Effect]) -> Callable[[Any, Any], int | None]:
        """``effects`` as one function of (state, seat), built once per rule
        file (kept with the game): each effect a closure over its compiled
        expressions, so that running them looks nothing up by name."""
        if self._track:  # the atoms of hidden cards each counter's value depends on recorded too
            runners = self._compiled.tracked
            run = runners.get(id(effects))
            if run is None:
                run = runners[id(effects)] = build_runner(effects, self.g)
            return run
        runners = self._compiled.runners
        run = runners.get(id(effects))
        if run is None:
            run = runners[id(effects)] = build_runner(effects)
        return run

    def _move_cards(
        self, cards: list, dst: list, seat, to_name: str, src: list | None = None, rule: tuple = (), filtered=False
    ):
        """Move ``cards`` into zone ``dst``. ``src`` is the zone they all come
        from when known (a whole zone moves when ``cards is src``); otherwise
        each card is looked for in every zone. ``rule``: the path of the effect
        that moves them, for the event. ``filtered``: the cards the first of ``src``
        that pass a test (not its top ones): the sink is told so (``"filtered"``), the log not."""
        if not cards:
            return
        if src is not None and cards is src and src is not dst:
            moved = src[:] if self._logging else None
            dst.extend(src)
            src.clear()
        else:
            moved = list(cards)
            if src is not None and cards is src:
                src.clear()
            elif src is not None:
                for c in moved:
                    src.remove(c)
            else:
                for c in moved:
                    for zone in self._all_zones:
                        if c in zone:
                            zone.remove(c)
                            break
            dst.extend(moved)
        owner = self._zone_owner
        if id(src) in owner:
            self._touched.add(owner[id(src)])
        o = owner.get(id(dst))
        if o is not None:
            self._touched.add(o)
            if id(dst) in self._hand_ids:
                dst.sort(key=canon_key)
        self._counts["takes"] += 1
        if self._logging and moved is not None:
            ev = {"type": "take", "seat": seat, "cards": [c.name for c in moved], "to": to_name}
            if rule:
                ev["rule"] = list(rule)
            if self._copies:  # copies of a card: where they came from says whether they were seen there
                ev["from"] = self.zone_named(src).get("zone", "?") if src is not None else "?"
            if filtered and self._sink is not None:  # (the rules say so: the worlds drawn read it)
                if self.events is not None:
                    self.events.append(ev)
                self._sink({**ev, "filtered": True})
                return
            self.emit(ev)

    def _draw_top(self, seat: int, stock: list, hand: list, stock_name: str) -> Any:
        """The top card of ``stock`` (the zone ``stock_name``) into ``seat``'s hand, kept in its
        order; he alone sees it (a ``take`` event naming the card, the zone it came from)."""
        c = stock.pop()
        hand.append(c)
        hand.sort(key=canon_key)
        self._touched.add(seat)
        if self._logging:
            self.emit({"type": "take", "seat": seat, "from": stock_name, "to": "hand", "cards": [c.name]})
        return c

    def _money_totals(self) -> dict[str, int]:
        holders = self.bal.values()
        tot = {}
        for c in self.g.currencies:
            tot[c] = sum(map(itemgetter(c), holders))
        return tot

    def _pay(self, p: Payment, seat, bank: bool = False):
        """Make payment ``p``. With ``from: each`` (or ``to: each``) every seat
        in play order from the dealer's next pays (or is paid), ``seat`` bound
        to it in every expression; otherwise one payment, ``seat`` bound to the
        seat the rule is about (the player who borrowed, renounced …)."""
        plan = self._compiled.ante.get(id(p))
        if plan is None:
            plan = self._compiled.ante[id(p)] = _pay_plan(p, self.g)
        shape, payer, payee, where, exclude, amount, unit, path = plan
        if payer is not None and payee is not None and not bank:  # one payment
            if where is None or where(self, seat, None):
                self._transfer(payer(self, seat, None), payee(self, seat, None), amount(self, seat, None), unit, path)
            return
        n = self.n
        first = self.dealer + 1
        if bank:
            order = [(first + k) % n for k in range(n)]
            for t in order if payee is None else [payee(self, seat, None)]:
                amt = amount(self, t, None)
                self.bal[self._holder(t)][unit] += amt
                if self._logging:
                    self.emit({"type": "give", "to": self._holder(t), "amount": amt, "unit": unit, **_rule(path)})
            return
        if shape == ANTE:
            # each seat pays a set amount to a set money zone (an ante): one evaluation, no calls per seat
            assert payee is not None, "an ante has its payee"
            to, amt, bal = self._holder(payee(self, None, None)), amount(self, None, None), self.bal
            if amt > 0:
                for k in range(first, first + n):
                    s = k % n
                    if s != to:
                        bal[s][unit] -= amt
                        bal[to][unit] += amt
                        if self._logging:
                            self.emit({"type": "pay", "from": s, "to": to, "amount": amt, "unit": unit, **_rule(path)})
            return
        if shape == ONE_PAYEE:
            # each pays one payee one amount, the payee excepted: neither reads the paying seat nor
            # what a payment changes, so each is evaluated once
            assert payee is not None, "a payment to one payee has its payee"
            to, amt = payee(self, None, None), amount(self, None, None)
            if type(to) is not int:  # a money zone, or none: each transfer as it comes
                for k in range(first, first + n):
                    s = k % n
                    if exclude is None or to != s:
                        self._transfer(s, to, amt, unit, path)
                return
            if amt <= 0:
                return
            # to a seat: what ``_transfer`` does, inline
            bal, to_h, logging = self.bal, to % n, self._logging
            for k in range(first, first + n):
                s = k % n
                if (exclude is not None and to == s) or s == to_h:
                    continue
                bal[s][unit] -= amt
                bal[to_h][unit] += amt
                if logging:
                    self.emit({"type": "pay", "from": s, "to": to_h, "amount": amt, "unit": unit, **_rule(path)})
            return
        transfer = self._transfer
        if shape == PAYEE_EXCEPTED:  # ``except`` is the payee's own expression: read once for each seat
            assert payee is not None, "a payee excepted is a payee"
            for k in range(first, first + n):
                s = k % n
                if where is not None and not where(self, s, None):
                    continue
                to = payee(self, s, None)
                if to == s:
                    continue
                transfer(s, to, amount(self, s, None), unit, path)
            return
        for k in range(first, first + n):
            s = k % n
            if where is not None and not where(self, s, None):
                continue
            if exclude is not None and exclude(self, s, None) == s:
                continue
            transfer(
                s if payer is None else payer(self, s, None),
                s if payee is None else payee(self, s, None),
                amount(self, s, None),
                unit,
                path,
            )

    def _transfer(self, frm, to, amount: int, unit: str, rule: tuple = ()) -> None:
        if frm is None or to is None or amount <= 0:
            return
        bal = self.bal
        frm = frm % self.n if type(frm) is int else self._holder(frm)
        to = to % self.n if type(to) is int else self._holder(to)
        if frm == to:
            return
        bal[frm][unit] -= amount
        bal[to][unit] += amount
        if self._logging:
            self.emit({"type": "pay", "from": frm, "to": to, "amount": amount, "unit": unit, **_rule(rule)})

    def _holder(self, h):
        if isinstance(h, int):
            return h % self.n
        if h in self.bal:
            return h
        raise RuleError(f"'{h}' cannot hold money", self._step_pos or Pos(self.g.doc.file, 1, 1), code="runtime")


PER_SEAT, ANTE, ONE_PAYEE, PAYEE_EXCEPTED = 0, 1, 2, 3
"""The shapes of a payment from each seat (``_pay_shape``): its parts evaluated for each
paying seat; a set amount to a money zone (an ante); a payee and an amount that read
neither the paying seat nor money (the seats' places, the number of players), the payee
excepted when ``except`` is the payee's own expression; a payee excepted by its own
expression, read for each seat (once, not twice)."""

# what a payee or an amount may read and be the same for every paying seat, whatever was paid
_FIXED = frozenset({*SEAT_VALUES, "players"})


def _once(e, game: GameDef) -> bool:
    """``e`` is the same for every paying seat, whatever was paid: it reads the seats' places
    and the number of players, or else counters (which no payment changes), ``seat`` only
    rebound by a function over the seats (``top_seat(sq(seat))``, ``nseq(top_seat(sq(seat)))``)."""
    if e.names <= _FIXED:
        return True
    return e.names <= _FIXED | OVER_ALL_SEATS | frozenset(game.vars) | {"seat"} and not reads_seat(e.text)


def _pay_shape(p: Payment, game: GameDef) -> int:
    if p.payer is not None or p.payee is None:
        return PER_SEAT
    same = p.exclude is not None and p.exclude.text.strip() == p.payee.text.strip()
    if p.where is None:
        if p.exclude is None and p.payee.names <= set(game.pools) and not p.amount.names:
            return ANTE
        if (p.exclude is None or same) and _once(p.payee, game) and _once(p.amount, game):
            return ONE_PAYEE
    return PAYEE_EXCEPTED if same else PER_SEAT


def _pay_plan(p: Payment, game: GameDef) -> tuple:
    """What ``_pay`` reads of a payment, once: its shape and its parts' closures."""
    return (
        _pay_shape(p, game),
        p.payer.fn if p.payer is not None else None,
        p.payee.fn if p.payee is not None else None,
        p.where.fn if p.where is not None else None,
        p.exclude.fn if p.exclude is not None else None,
        p.amount.fn,
        p.unit,
        p.path,
    )


def _rule(path: tuple) -> dict:
    """The ``rule`` key of an event: the path of the rule element that acted (none if unknown)."""
    return {"rule": list(path)} if path else {}


def build_watcher(effects: list[Effect], watch: frozenset[str]) -> Callable[[StateParts, Any], Any] | None:
    """``effects`` as one generated function that gives back whether a counter of ``watch`` may
    have changed (``effect_code.code_runner``), or None: when generated code is off, or an effect
    is not a ``set``/``add`` written inline."""
    if not codegen.enabled():
        return None
    fns = [effect_fn(e, None) for e in effects]
    return code_runner(effects, fns, _logged_counters, lambda e: effect_fn(replace(e, when=None)), watch)


def build_runner(effects: list[Effect], track: GameDef | None = None) -> Callable[[StateParts, Any], int | None]:
    """Only ``end_trick`` gives a seat back; the effects after an
    unconditional one are never run. ``track``: the game, when the atoms of
    hidden cards the counters' values depend on are recorded (``visibility``)."""
    fns = [effect_fn(e, track) for e in effects]
    if track is None and codegen.enabled():  # one generated function for the list, when it pays
        made = code_runner(effects, fns, _logged_counters, lambda e: effect_fn(replace(e, when=None)))
        if made is not None:
            return made
    ends = [i for i, e in enumerate(effects) if e.op == "end_trick"]
    if ends and all(effects[i].when is None and effects[i].at is None for i in ends):
        body, end = fns[: ends[0]], effects[ends[0]]
        ld = end.args["leader"]
        if ld is None or ld.text.strip() == "seat":  # the seat in hand leads: no call
            if len(body) == 1:
                only = body[0]

                def run(st, seat):
                    only(st, seat)
                    return seat

                setattr(run, "whole", getattr(only, "whole", None))  # the move, then the seat leads
            else:

                def run(st, seat):
                    for f in body:
                        f(st, seat)
                    return seat
        else:
            last = fns[ends[0]]

            def run(st, seat):
                for f in body:
                    f(st, seat)
                return last(st, seat)
    elif not fns:

        def run(st, seat):
            return None
    elif len(fns) == 1:
        run = fns[0]
    else:

        def run(st, seat):
            for f in fns:
                r = f(st, seat)
                if r is not None:
                    return r
            return None

    return run


def effect_fn(e: Effect, track: GameDef | None = None) -> Callable[[StateParts, Any], int | None]:
    op, a, path = e.op, e.args, e.path
    counters = op in ("set", "add")
    if op == "take":
        fsrc, fdst, test, to_name = a["from"].fn, a["to"].fn, a["cards"], a["to_name"]
        src_name, own = a["from_shared"], a["to_own"]
        count = a.get("count")
        if count is not None:
            f = _take_count(fsrc, fdst, test, count, to_name, a["from"].text)
        elif test is None and src_name is not None and own is not None:
            # the whole of a shared zone to a zone of the seat's own: no expression to evaluate
            def f(st, seat):
                src = st.zones[src_name]
                if not src:
                    return None
                dst = st.pzones[own][seat]
                moved = src[:] if st._logging else None
                dst.extend(src)
                src.clear()
                st._touched.add(seat)
                if dst is st.hand[seat]:
                    dst.sort(key=canon_key)
                st._counts["takes"] += 1
                if moved is not None:
                    ev = {"type": "take", "seat": seat, "cards": [c.name for c in moved], "to": to_name, **_rule(path)}
                    if st._copies:  # copies of a card: where they came from says whether they were seen there
                        ev["from"] = src_name
                    st.emit(ev)
                return None

            setattr(f, "whole", (src_name, own))  # for a loop that does this move itself
        elif test is None:

            def f(st, seat):
                src = fsrc(st, seat, None)
                st._move_cards(src, fdst(st, seat, None), seat, to_name, src, path)
        else:
            filt = test.filter

            def f(st, seat):
                src = fsrc(st, seat, None)
                st._move_cards(filt(st, seat, src), fdst(st, seat, None), seat, to_name, src, path)
    elif op == "end_trick":
        ld = a["leader"]
        if ld is None:

            def f(st, seat):
                return seat
        else:
            fld = ld.fn

            def f(st, seat):
                return fld(st, seat, None) % st.n
    elif op == "pay":
        payment = a["payment"]
        if payment.payer is not None and payment.payee is not None:  # one payment: as _pay makes it
            payer, payee, amount, unit, ppath = (
                payment.payer.fn,
                payment.payee.fn,
                payment.amount.fn,
                payment.unit,
                payment.path,
            )
            pwhere = payment.where.fn if payment.where is not None else None

            def f(st, seat):
                if pwhere is None or pwhere(st, seat, None):
                    st._transfer(payer(st, seat, None), payee(st, seat, None), amount(st, seat, None), unit, ppath)

        else:

            def f(st, seat):
                st._pay(payment, seat)
    elif op == "stake":
        fon = a["on"].fn if a["on"] is not None else None
        fto = a["to"].fn

        def f(st, seat):
            st._set_stake(seat, fon(st, seat, None) if fon is not None else None, fto(st, seat, None), path)
    elif track is not None:
        f = _tracked_counters(e, track)
    else:
        items = list(a.items())
        team = e.team_vars
        logged = _logged_counters(e)
        if team:  # a counter kept by team: every seat of the side holds the side's value

            def f(st, seat):
                if st._logging:
                    return logged(st, seat)
                side = sides_of(st)
                for name, (per_seat, expr) in items:
                    v = expr(st, seat)
                    if per_seat:
                        target = st.pvars[name]
                        mates = [x for x in range(st.n) if side[x] == side[seat]] if name in team else [seat]
                        for x in mates:
                            target[x] = v if op == "set" else target[x] + v
                    else:
                        st.vars[name] = v if op == "set" else st.vars[name] + v

        elif len(items) == 1:  # one counter: its closure called directly, no loop
            name1, (per_seat1, expr1) = items[0]
            fn1, setting = expr1.fn, op == "set"
            if per_seat1:

                def f(st, seat):
                    if st._logging:
                        return logged(st, seat)
                    v = fn1(st, seat, None)
                    if setting:
                        st.pvars[name1][seat] = v
                    else:
                        st.pvars[name1][seat] += v

            else:

                def f(st, seat):
                    if st._logging:
                        return logged(st, seat)
                    v = fn1(st, seat, None)
                    st.vars[name1] = v if setting else st.vars[name1] + v

        else:
            fitems = [(name, per_seat, expr.fn) for name, (per_seat, expr) in items]

            def f(st, seat):
                if st._logging:
                    return logged(st, seat)
                for name, per_seat, fn in fitems:
                    v = fn(st, seat, None)
                    if per_seat:
                        target = st.pvars[name]
                        if op == "set":
                            target[seat] = v
                        else:
                            target[seat] += v
                    else:
                        st.vars[name] = v if op == "set" else st.vars[name] + v

    wplan = plan(e.when, track) if track is not None and counters and e.when is not None else None
    if e.each:  # at: each: for every seat from the dealer's next, when: tested for each
        inner0, sides = f, e.each == "each_side"
        when0: Any = e.when.fn if e.when is not None else None  # the test's closure (st, seat, card)
        if wplan is not None:  # the guard's atoms recorded for each seat's cells
            wplan0, when1 = wplan, when0

            saved = Cell(NOTHING)  # the guard before this seat's, per thread (a compiled game is shared)

            def guarded(st, s, c=None):
                atoms = guard_taint(st, e, wplan0, s, True)
                if when1(st, s, None):
                    saved.v = st._guard
                    st._guard = saved.v | atoms
                    return True
                return False

            when0 = guarded
            inner1 = inner0

            def inner0(st, s):
                try:
                    return inner1(st, s)
                finally:
                    st._guard = saved.v

        def f(st, seat):
            n, first = st.n, st.dealer + 1
            side, met = (sides_of(st) if sides else None), set()
            for k in range(n):
                s = (first + k) % n
                if side is not None:  # each_side: the first seat of each side met
                    if side[s] in met:
                        continue
                    met.add(side[s])
                if when0 is None or when0(st, s, None):
                    inner0(st, s)
            return None

        return f

    if e.at is not None:
        inner2, at = f, e.at
        atf = at.fn

        def f(st, seat):
            seat = atf(st, seat, None)
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise RuleError(f"at: {at.text} names no seat here (it is {seat!r})", at.pos, code="runtime")
            return inner2(st, seat % st.n)

        aplan = plan(e.at, track) if track is not None and counters else None
        if aplan is not None:  # whose cell is set tells what the seat was worked out from
            inner4, ap = f, aplan

            def f(st, seat):
                before = st._guard
                st._guard = before | guard_taint(st, e, ap, seat, False)
                try:
                    return inner4(st, seat)
                finally:
                    st._guard = before

    if e.when is not None and wplan is not None:  # the guard's atoms recorded (fired or not)
        inner, when, wp = f, e.when, wplan

        def f(st, seat):
            atoms = guard_taint(st, e, wp, seat, False)
            if when(st, seat):
                before = st._guard
                st._guard = before | atoms
                try:
                    return inner(st, seat)
                finally:
                    st._guard = before
            return None

    elif e.when is not None:  # tested first, about the seat in hand: it guards at:
        inner, wfn = f, e.when.fn  # the test's closure, called directly

        def f(st, seat):
            if wfn(st, seat, None):
                return inner(st, seat)
            return None

    return f


def _take_count(fsrc, fdst, test, count, to_name: str, src_text: str):
    """``take`` with ``count:``: the first N cards of the zone (of those
    passing ``cards``), from its top; fewer there is a located error."""
    fcount = count.fn

    def f(st, seat):
        src = fsrc(st, seat, None)
        pool = src if test is None else test.filter(st, seat, src)
        k = fcount(st, seat, None)
        if not isinstance(k, int) or k < 0:
            raise RuleError(f"count: {count.text} is {k!r}, not a number of cards", count.pos, code="runtime")
        if k > len(pool):
            raise RuleError(
                f"count: {count.text} is {k} cards, but {src_text} holds only {len(pool)}", count.pos, code="runtime"
            )
        if k:
            st._move_cards(pool[:k], fdst(st, seat, None), seat, to_name, src, (), test is not None)
        return None

    return f
