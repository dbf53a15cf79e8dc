"""Flat Monte Carlo over sampled worlds: the cheap baseline for ``ismcts``."""

from __future__ import annotations

from ..api import State
from . import Player, playout


class MonteCarlo(Player):
    """Each iteration draws a world the seat cannot tell from the state
    (``State.resample``), plays the next legal move in turn in it and the rest
    at random (to the end of the hand, or of the game); the move with the best
    mean score (the seat's, less the table's mean) is chosen, ties to the
    first in canonical order."""

    name = "mc"
    PARAMS = {
        "iterations": (int, 300, "playouts per decision, shared among the legal moves"),
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
        count = [0] * k
        go = self._budget()
        i = 0
        while go(i):
            j = i % k
            world = state.resample(seat, rng)
            world.apply_action(legal[j])
            total[j] += playout(world, state.players, rng, self.horizon, self.stakes)[seat]
            count[j] += 1
            i += 1
        means = [t / c if c else float("-inf") for t, c in zip(total, count)]
        return legal[max(range(k), key=means.__getitem__)]
