"""What compiling expressions to Python source would gain: Piquet's point and best sequence
(``rules/piquet/hoyle.yaml``, the ``reckon`` step), as the compiler's closures work them out,
against the same expressions written out as Python source the way a compiler from the
expression tree would write them (a comprehension for each ``max_cards``/``sum_cards``/
``count``, the order a table, ``run`` a helper), on the same random hands of twelve cards.

A probe, not a compiler: the two functions below are written by hand, word for word from
the expressions, and checked equal to them on every hand timed. Each round loads the rule
file afresh and deals new hands (the compiled game keeps some values per the cards a hand
holds, which the same hands again would find kept).

    PYTHONPATH=$PWD python benchmarks/compile_probe.py --hands 2000 --rounds 3
"""

from __future__ import annotations

import argparse
import random
import time
from types import SimpleNamespace

from academie.dsl.cards import card
from academie.dsl.model import load_game

PACK = [card(r + s) for s in "SHDC" for r in ["7", "8", "9", "10", "J", "Q", "K", "A"]]


def _run(zone, c, order) -> int:
    r = order.get(c, -1)
    if r < 0:
        return 0
    held = {order.get(y, -1) for y in zone if y.suit == c.suit}
    n = 0
    while r - n in held:
        n += 1
    return n


def point(st, s, order) -> int:
    """max_cards(hand(seat), 100 * count(hand(seat), x, x.suit == card.suit) + sum_cards(hand(seat),
    x, if x.suit == card.suit then (if x.rank == A then 11 else min(10, rank(x) + 6)) else 0))"""
    h = st.pzones["hand"][s]
    return max(
        [
            100 * sum([1 for x in h if x.suit == c.suit])
            + sum([((11 if x.rank == "A" else min(10, order.get(x, -1) + 6)) if x.suit == c.suit else 0) for x in h])
            for c in h
        ],
        default=0,
    )


def sequence(st, s, order) -> int:
    """max_cards(hand(seat), if run(hand(seat), card) >= 3 then 10 * run(hand(seat), card) +
    rank(card) else 0)"""
    h = st.pzones["hand"][s]
    return max(
        [
            (10 * _run(st.pzones["hand"][s], c, order) + order.get(c, -1))
            if _run(st.pzones["hand"][s], c, order) >= 3
            else 0
            for c in h
        ],
        default=0,
    )


def _expressions(game) -> dict:
    step = next(s for s in game.steps if getattr(s, "name", None) == "reckon")
    return {name: e for eff in step.effects for name, (_, e) in eff.args.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(0)
    best: dict = {}
    for _ in range(args.rounds):
        game = load_game("piquet/hoyle")
        order, exprs = game.orders["play"], _expressions(game)
        states = []
        for _ in range(args.hands):
            rng.shuffle(PACK)
            states.append(SimpleNamespace(pzones={"hand": [sorted(PACK[:12], key=lambda c: c.canon), []]}))
        for name, written in (("pt", point), ("sq", sequence)):
            fn = exprs[name].fn
            t = time.process_time()
            closures = [fn(st, 0, None) for st in states]
            a = time.process_time() - t
            t = time.process_time()
            source = [written(st, 0, order) for st in states]
            b = time.process_time() - t
            assert closures == source, name
            ca, cb = best.get(name, (a, b))
            best[name] = (min(a, ca), min(b, cb))
    for name, (a, b) in best.items():
        n = args.hands
        print(f"{name}: closures {a / n * 1e6:.1f} µs, written as source {b / n * 1e6:.1f} µs a hand: {a / b:.2f}×")


if __name__ == "__main__":
    main()
