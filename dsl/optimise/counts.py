"""A count over every seat's zone of a kind, its test reading the card alone, kept while the
zones hold the same cards.

``sum_seats(count(tricks(seat), card.suit == H or card == QS))`` (whether any point has
been taken yet) is, plainly, a count over each seat's zone, one seat after the other, at
every call: in a lead rule, at every card offered at every lead. Its value is the count
over the cards of all those zones, seat 0's first, and depends on nothing but them (the
test reads the card alone: ``table_key``). So it is kept with a copy of the zones it was
counted over, and given again while the zones hold the same cards (one comparison of
lists, in C); when a card has come or gone (a trick taken), it is counted again, each
card's truth looked up (worked out, and any error raised, by the test itself the first
time a card is met, as ``binder_truths`` does). The same value, or the same error, as
the plain count: the cards are met in the plain order.
"""

from __future__ import annotations

from operator import eq

from lark import Tree

from ..cells import Cell
from ..closures import Compiler
from ..expr import BOUND, Fn
from ..syntax import call_args, plain_name
from .tables import Optimising, _Truths, table_key


def kept_seat_count(cp: Compiler, node) -> Fn | None:
    """The kept closure of ``sum_seats(count(ZONE(seat), TEST))`` (``node``, compiled plainly
    already, so checked), ZONE a zone of each seat and TEST reading nothing but the card;
    None for any other call."""
    if str(node.children[0]) != "sum_seats":
        return None
    args = call_args(node)
    if len(args) != 1 or not (isinstance(args[0], Tree) and args[0].data == "call"):
        return None
    inner = args[0]
    if str(inner.children[0]) != "count":
        return None
    cargs = call_args(inner)
    if len(cargs) != 2:
        return None
    zone, test = cargs
    if not (isinstance(zone, Tree) and zone.data == "call" and str(zone.children[0]) in cp.scope.seat_zones):
        return None
    zargs = call_args(zone)
    if len(zargs) != 1 or plain_name(zargs[0]) != "seat":
        return None
    if not isinstance(test, Tree):
        return None
    seat_cp = Optimising(cp.text, cp.pos, cp.scope, cp.bound | BOUND["seat"], cp.locals)
    key = table_key(test, Optimising(cp.text, cp.pos, cp.scope, seat_cp.bound | BOUND["card"], cp.locals))
    if key is None or key[1] or set(key[0]) - {"card"}:
        return None  # the test reads more than the card
    t = seat_cp.lazy(test, "card", "bool")
    ctx = Cell()
    truths = _Truths(lambda st, s, c, x: t(st, s, x), ctx)
    look, known = truths.__getitem__, truths.get
    name = str(zone.children[0])
    kept: list = [None]  # (a copy of each seat's zone, each one's count, their sum): one entry, replaced whole

    def count(st, s, c):
        zs = st.pzones[name]
        k = kept[0]
        if k is not None and len(k[0]) == len(zs):
            snaps, counts, total = k
            same = list(map(eq, zs, snaps))  # each zone against its copy, in C
            if False not in same:
                return total
            if same.count(False) == 1:  # one zone changed (a trick taken): if it grew, its new cards
                i = same.index(False)
                z, was = zs[i], snaps[i]
                n = len(was)
                if len(z) > n and z[:n] == was:
                    new = z[n:]
                    vals: list = list(map(known, new))
                    if None in vals:  # a card not met before: its truth worked out
                        ctx.v = (st, s, c)
                        try:
                            vals = list(map(look, new))
                        finally:
                            ctx.v = None
                    d = sum(vals)
                    snaps, counts = snaps[:], counts[:]
                    snaps[i] = z[:]
                    counts[i] += d
                    kept[0] = (snaps, counts, total + d)
                    return total + d
        else:
            k = ([[]] * len(zs), [0] * len(zs), 0)
        snaps, counts = [], []
        ctx.v = (st, s, c)
        try:
            for z, was, m in zip(zs, k[0], k[1]):
                if z != was:
                    n = len(was)
                    if len(z) >= n and z[:n] == was:  # cards added: only those counted
                        m += sum(map(look, z[n:]))
                    else:
                        m = sum(map(look, z))
                    was = z[:]
                snaps.append(was)
                counts.append(m)
        finally:
            ctx.v = None  # the state is not kept once the count is made
        total = sum(counts)
        kept[0] = (snaps, counts, total)
        return total

    count.kept_over = name  # type: ignore[attr-defined]
    return count
