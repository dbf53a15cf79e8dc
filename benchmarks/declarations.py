"""The time of each declaration of a rule file, one seat, over random hands, compiled three
ways: every optimisation off, on without the passes grouped by a field of the card
(``dsl/optimise/groups.py``), and all on. Each way on a freshly loaded game (no value kept
from another way), the best of two rounds; the values of the three are checked equal.

    python benchmarks/declarations.py rules/piquet/hoyle.yaml
    python benchmarks/declarations.py rules/hoc/encyclopedie.yaml

The declarations are the rule file's ``set: {NAME: "…"}`` effects that read the seat's hand
and no counter (``max_cards(hand(seat), …)``, ``size_of(hand(seat), point)`` …); the hands are
12 cards of the game's ``play`` order.
"""

from __future__ import annotations

import random
import re
import sys
import time

from academie.dsl import optimise
from academie.dsl.compiler import compile_expr
from academie.dsl.errors import Pos
from academie.dsl.model import load_game
from academie.dsl.optimise import tables

MODES = ("off", "ungrouped", "on")


class _St:
    """Just what the declarations read."""

    def __init__(self, h0, h1):
        self.n = 2
        self.pzones = {"hand": [h0, h1]}
        self.zones = {"trick": []}
        self.vars: dict = {}
        self.trump = self.led = self.dealer = self.leader = self.winner = self.mover = self.other = None
        self.tricks_played = self.hand_no = 0


def _compile(path: str, text: str, mode: str):
    scope = load_game(path).scope
    if mode == "off":
        with optimise.off():
            return compile_expr(text, Pos("<bench>", 1, 1), scope, "seat")
    if mode == "ungrouped":
        grouped = tables.grouped
        tables.grouped = lambda cp, node: None  # type: ignore[assignment]
        try:
            return compile_expr(text, Pos("<bench>", 1, 1), scope, "seat")
        finally:
            tables.grouped = grouped
    return compile_expr(text, Pos("<bench>", 1, 1), scope, "seat")


def main(path: str, hands: int = 3000) -> None:
    exprs = [
        (name, text)
        for name, text in re.findall(r'set: \{(\w+): "([^"]*hand\(seat\)[^"]*)"\}', open(path).read())
        if not set(re.findall(r"(\w+)\(seat", text)) - {"hand"}  # reads the hand alone
    ]
    g = load_game(path)
    order = g.orders.get("play") or next(iter(g.orders.values()))
    deck = sorted(order, key=lambda c: c.canon)
    rng = random.Random(1)
    states = []
    for _ in range(hands):
        d = deck[:]
        rng.shuffle(d)
        states.append(_St(d[:12], d[12:24]))
    best: dict = {}
    values: dict = {}
    for _ in range(2):
        for mode in MODES:
            for name, text in exprs:
                f = _compile(path, text, mode)
                t = time.process_time()
                vals = [f(st, 0) for st in states]
                t = time.process_time() - t
                best[mode, name] = min(best.get((mode, name), t), t)
                values.setdefault(name, vals)
                assert vals == values[name], (name, mode)
    for name, _ in exprs:
        print(f"{name:10} " + "  ".join(f"{m} {best[m, name] * 1e6 / hands:6.1f} µs" for m in MODES))
    total = {m: sum(best[m, n] for n, _ in exprs) * 1e6 / hands for m in MODES}
    print(f"{'all':10} " + "  ".join(f"{m} {total[m]:6.1f} µs" for m in MODES))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "rules/piquet/hoyle.yaml")
