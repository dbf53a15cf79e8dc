"""Built-in functions of cards: ``count``, ``any``, ``all`` (a zone's cards, or those
passing a test), ``sum_cards``, ``max_cards`` (a number for each card of a zone),
``rank`` (a card's place in an order), ``run`` (an unbroken run of ranks) and
``holder`` (the seat holding a card).

Each builder is called by the compiler as ``build(cp, node, args)`` (``cp`` the
``closures.Compiler``, seen as ``building.Building``, ``node`` the call, ``args`` its argument nodes, their number
already checked) and gives (closure, kind)."""

from __future__ import annotations

from ..kinds import NUMERIC
from .building import Building as Compiler


def zone_test(cp: Compiler, args):
    """The zone and the card test of count/any/all: ``(ZONE, TEST)``, ``card``
    bound to each card of the zone; or ``(ZONE, NAME, TEST)``, NAME bound to
    each card of the zone and ``card`` keeping its meaning (the card under
    test, compared with the cards of the trick). Gives (zone, test of one
    card of the zone as (st, s, c, x))."""
    z, k = cp.c(args[0])
    cp.need(args[0], k, "zone")
    if len(args) == 2:
        t = cp.lazy(args[1], "card", "bool")
        return z, (lambda st, s, c, x: t(st, s, x))
    return named_test(cp, z, args)


def named_test(cp: Compiler, z, args):
    cell, name_node = cp.named(args[1], "card")
    t = cp.lazy(args[2], "card", "bool", local=(str(name_node.children[0]), cell))

    def test(st, s, c, x):
        cell.v = x
        return t(st, s, c)

    return z, test


def f_count(cp: Compiler, node, args):
    z, k = cp.c(args[0])
    cp.need(args[0], k, "zone")
    if len(args) == 1:
        return (lambda st, s, c: len(z(st, s, c))), "num"
    z, t = zone_test(cp, args)
    look = cp.truths(args)
    if look is not None:
        return (lambda st, s, c: look(st, s, c, sum)), "num"
    return (lambda st, s, c: sum(1 for x in z(st, s, c) if t(st, s, c, x))), "num"


def f_any(cp, node, args):
    z, t = zone_test(cp, args)
    look = cp.truths(args)
    if look is not None:
        return (lambda st, s, c: look(st, s, c, any)), "bool"
    return (lambda st, s, c: any(t(st, s, c, x) for x in z(st, s, c))), "bool"


def f_all(cp, node, args):
    z, t = zone_test(cp, args)
    look = cp.truths(args)
    if look is not None:
        return (lambda st, s, c: look(st, s, c, all)), "bool"
    return (lambda st, s, c: all(t(st, s, c, x) for x in z(st, s, c))), "bool"


def f_cards_fold(fn):
    """``sum_cards``/``max_cards``: a number for each card of a zone, added up
    or the greatest (0 for an empty zone). ``(ZONE, EXPR)`` binds ``card`` to
    each card; ``(ZONE, NAME, EXPR)`` binds NAME, ``card`` keeping its meaning
    (so that a card can be measured against the other cards of the zone)."""

    def build(cp: Compiler, node, args):
        z, k = cp.c(args[0])
        cp.need(args[0], k, "zone")
        if len(args) == 2:
            e = cp.lazy(args[1], "card", *NUMERIC)
            look = cp.truths(args, int)
            if look is not None:  # each card's number looked up per the other values read
                return (lambda st, s, c: look(st, s, c, fn)), "num"
            return (lambda st, s, c: fn([int(e(st, s, x)) for x in z(st, s, c)])), "num"
        cell, name_node = cp.named(args[1], "card")
        e = cp.lazy(args[2], "card", *NUMERIC, local=(str(name_node.children[0]), cell))
        look = cp.truths(args, int)
        if look is not None:
            return (lambda st, s, c: look(st, s, c, fn)), "num"

        def fold(st, s, c):
            out = []
            for x in list(z(st, s, c)):
                cell.v = x
                out.append(int(e(st, s, c)))
            return fn(out)

        return fold, "num"

    return build


def f_rank(cp, node, args):
    f, k = cp.c(args[0])
    cp.need(args[0], k, "card")
    order = order_of(cp, node, args[1] if len(args) == 2 else None)
    return (lambda st, s, c: order.get(f(st, s, c), -1)), "num"


def order_of(cp, node, arg):
    """The order named by ``arg``, or when it is None the default one: ``play``,
    or the only order of the file."""
    orders = cp.scope.orders
    if arg is not None:
        return orders[cp.symbol(arg, "an order", orders)]
    if len(orders) == 1:
        return next(iter(orders.values()))
    if "play" in orders:
        return orders["play"]
    name = str(node.children[0])
    call = "rank(card" if name == "rank" else f"{name}(ZONE, card"
    cp.fail(node, f"{call}) needs the name of an order: {call}, ORDER)")


def f_run(cp, node, args):
    """``run(ZONE, CARD)``, ``run(ZONE, CARD, ORDER)``: how many ranks of the card's
    suit the zone holds in an unbroken run ending at the card's rank and going down
    (the card's rank number in the order, the number one below, …, until one is
    missing); 0 when the zone holds no card of that suit and rank. A rank held twice
    counts once."""
    z, kz = cp.c(args[0])
    cp.need(args[0], kz, "zone")
    f, k = cp.c(args[1])
    cp.need(args[1], k, "card")
    order = order_of(cp, node, args[2] if len(args) == 3 else None)
    get = order.get

    def run(st, s, c):
        x = f(st, s, c)
        r = get(x, -1)
        if r < 0:
            return 0
        suit = x.suit
        held = {get(y, -1) for y in z(st, s, c) if y.suit == suit}
        n = 0
        while r - n in held:
            n += 1
        return n

    return run, "num"


def f_holder(cp, node, args):
    f, k = cp.c(args[0])
    cp.need(args[0], k, "card")
    zone = "hand"

    def holder(st, s, c):
        x = f(st, s, c)
        for i, h in enumerate(st.pzones[zone]):
            if x in h:
                return i
        return None

    return holder, "seat"


def f_joined(cp, node, args):
    """``joined(ZONE, ZONE, …)``: the cards of several zones together, as one zone to read
    (a hand counted with the card turned up)."""
    fs = []
    for a in args:
        f, k = cp.c(a)
        cp.need(a, k, "zone")
        fs.append(f)

    def joined(st, s, c):
        return [x for f in fs for x in f(st, s, c)]

    return joined, "zone"
