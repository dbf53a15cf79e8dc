"""Flat Monte Carlo over sampled worlds: the cheap baseline for ``ismcts``."""

from __future__ import annotations

import random

from ..api import State
from . import Player, playout


class MonteCarlo(Player):
    """Each round draws a world the seat cannot tell from the state
    (``State.resample``) and plays every legal move in it, each followed by
    the same random play (one playout seed a round: common random numbers, so
    that two moves are compared on the same cards and the same later choices,
    not on two draws of them) to the end of the hand, or of the game; rounds
    are played until the iterations (playouts) are reached, the last round
    whole. The move with the best mean score (the seat's, less the table's
    mean) is chosen, ties to the first in canonical order."""

    name = "mc"
    PARAMS = {
        "iterations": (int, 300, "playouts per decision, shared among the legal moves (whole rounds of one world)"),
        "time": (float, None, "seconds per decision at most (stops before the iterations if sooner)"),
        "horizon": (str, "hand", "play out to the end of the hand in progress ('hand') or of the game ('game')"),
        "stakes": (
            str,
            "lie",
            "in a playout, name no new stake ('lie': the stakes as they lie are settled) or stake at random ('random')",
        ),
    }

    iterations: int
    time: float | None
    horizon: str
    stakes: str

    def search(self, state: State, legal: list[int]) -> int:
        seat = state.current_player()
        assert seat is not None
        rng = self.rng
        k = len(legal)
        total = [0.0] * k
        go = self._budget()
        i = 0
        while go(i):
            world = state.resample(seat, rng)
            seed = rng.getrandbits(64)
            for j in range(k):
                w = world.clone() if j < k - 1 else world
                w.apply_action(legal[j])
                total[j] += playout(w, state.players, random.Random(seed), self.horizon, self.stakes)[seat]
            i += k
        return legal[max(range(k), key=total.__getitem__)]
