"""A Lansquenet punter written by hand, the yardstick of what the search can gain there.

It stakes the most (4) on each rank in the middle that has fewer copies unseen than the banker's
card (a stake on such a rank is matched, and lost, less often than the banker's card is, which
pays it) and nothing elsewhere, from what its seat sees alone (``State.observation``). Played as
``benchmarks/players.py strength --paired`` plays ``ismcts`` (game ``i``: seed ``i``, the seat
``i`` mod 2, random players elsewhere, and the same game with a random player in that seat):

    python benchmarks/lansquenet_counting.py 200

prints its gain over the random player in the same seat on the same deal (mean, 95 % interval).
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

import academie

sys.path.insert(0, str(Path(__file__).resolve().parent))
import players as bench  # noqa: E402

RANKS = {"ace": "A", "deuce": "2", "tray": "3", "four": "4", "five": "5", "six": "6", "seven": "7"}
RANKS |= {"eight": "8", "nine": "9", "ten": "10", "knave": "J", "queen": "Q", "king": "K"}
SHOWN = ("left1", "left2", "own", "table", "dead", "drawn")


class Counting:
    """4 on each rank in the middle with fewer copies unseen than the banker's card, 0 elsewhere."""

    def __init__(self) -> None:
        self.named: str | None = None

    def choose(self, state: academie.State) -> int:
        seat = state.current_player()
        view = state.observation(seat)
        zones = view["zones"]
        moves = {str(state.game.action_to_move(a)): a for a in state.legal_actions()}
        seen = Counter(c[:-1] for z in SHOWN for c in zones[z]["cards"])
        own = zones["own"]["cards"][0][:-1]
        good = {c[:-1] for c in zones["table"]["cards"] if c[:-1] != own and seen[c[:-1]] > seen[own]}
        if view["decision"] == "stake":
            for target, rank in RANKS.items():
                if target in moves and view["pvars"][f"stake:{rank}"][seat] != (4 if rank in good else 0):
                    self.named = rank
                    return moves[target]
            return moves["pass"]
        return moves["4" if self.named in good else "0"]


def main() -> None:
    game = academie.load_game("lansquenet/eb11")
    gains = []
    for i in range(int(sys.argv[1]) if len(sys.argv) > 1 else 200):
        seat = i % 2
        _, margin, _ = bench._play_seated(game, 2, i, seat, Counting(), "random", 0)
        base = academie.agent("random", seed=f"{i}:{seat}:random-in-seat")
        _, base_margin, _ = bench._play_seated(game, 2, i, seat, base, "random", 0)
        gains.append(margin - base_margin)
    n = len(gains)
    mean = sum(gains) / n
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in gains) / (n - 1) / n) if n > 1 else math.inf
    print(f"{n} games: gain {mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f}) a game over random in the seat")


if __name__ == "__main__":
    main()
