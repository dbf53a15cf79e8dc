"""Built-in functions of counters and money: ``balance`` (a holder's money in a
currency), ``tricks_won`` (a seat's tricks this hand), ``min``, ``max`` and ``abs``."""

from __future__ import annotations

from ..kinds import NUMERIC


def f_balance(cp, node, args):
    h, k = cp.c(args[0])
    cp.need(args[0], k, "seat", "holder", "num")
    if k == "num":
        h, k = cp.seat_arg(args[0])
    cur = cp.symbol(args[1], "a currency", cp.scope.currencies)
    return (lambda st, s, c: st.bal[h(st, s, c)][cur]), "num"


def f_tricks_won(cp, node, args):
    f, k = cp.seat_arg(args[0])
    return (lambda st, s, c: st.won[f(st, s, c)]), "num"


def f_minmax(fn):
    def build(cp, node, args):
        fs = []
        for a in args:
            f, k = cp.c(a)
            cp.need(a, k, *NUMERIC)
            fs.append(f)
        return (lambda st, s, c: fn(f(st, s, c) for f in fs)), "num"

    return build


def f_abs(cp, node, args):
    f, k = cp.c(args[0])
    cp.need(args[0], k, "num")
    return (lambda st, s, c: abs(f(st, s, c))), "num"


def f_builds(cp, node, args):
    """``builds(SEAT)``: the builds a seat owns on a capture step's layout (0 outside one)."""
    f, k = cp.seat_arg(args[0])

    def builds(st, s, c):
        x = f(st, s, c)
        return sum(1 for b in st.builds if b[2] == x)

    return builds, "num"


def f_build_value(cp, node, args):
    """``build_value(CARD)``: the value of the build the card lies in (0: the card is in none)."""
    f, k = cp.c(args[0])
    cp.need(args[0], k, "card")

    def build_value(st, s, c):
        x = f(st, s, c)
        for b in st.builds:
            if x in b[0]:
                return b[1]
        return 0

    return build_value, "num"
