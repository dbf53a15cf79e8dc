"""Built-in functions of banking games: ``top`` (the card on top of a zone, the
last turned up) and ``staked`` (what a seat has staked, on a card's rank or in
all).

Stakes are kept by the engine (interpreter/banking.py) as per-seat counters named
``stake:TARGET`` (a rank, or an outcome named by a ``stake`` step)."""

from __future__ import annotations

from .building import Building as Compiler

STAKE = "stake:"  # the prefix of the counters that keep the stakes


def f_top(cp: Compiler, node, args):
    """``top(ZONE)``: the card last put on the zone (none when it is empty)."""
    z, k = cp.c(args[0])
    cp.need(args[0], k, "zone")

    def top(st, s, c):
        zone = z(st, s, c)
        return zone[-1] if zone else None

    return top, "card"


def f_staked(cp: Compiler, node, args):
    """``staked(SEAT)``: all the seat has staked; ``staked(SEAT, CARD)``: what it
    has staked on the card's rank (0 when none, or when the card is none)."""
    f, _ = cp.seat_arg(args[0])
    if len(args) == 1:

        def total(st, s, c):
            seat = f(st, s, c)
            return sum(v[seat] for k, v in st.pvars.items() if k.startswith(STAKE))

        return total, "num"
    g, k = cp.c(args[1])
    cp.need(args[1], k, "card", "none")

    def on(st, s, c):
        card = g(st, s, c)
        if card is None:
            return 0
        per = st.pvars.get(STAKE + card.rank)
        return per[f(st, s, c)] if per is not None else 0

    return on, "num"
