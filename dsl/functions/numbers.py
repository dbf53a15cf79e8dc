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
