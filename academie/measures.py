"""Per-game measures of simulated play, and the statistics to compare them.

A small serial runner of its own (``run``): ``State`` + ``make_agents`` +
``play``, with an event sink that cuts the game's counters (``State.stats``)
into hands. Game ``i`` uses the seed ``game_seed(seed, i)`` of
``interpreter.simulate``, so two games compared are played on the same seeds.

Intervals: a proportion has a Wilson score interval; a mean is given as mean
± 1.96·SE; a difference of two proportions has Newcombe's hybrid score
interval, a difference of two means ± 1.96·sqrt(SE_a² + SE_b²). All at 95 %.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .dsl.model import GameDef
from .interpreter.agents import make_agents, play
from .interpreter.simulate import game_seed
from .interpreter.state import DEFAULT_MAX_PLAYS, State

Z = 1.959964
HAND_COUNTERS = ("plays", "tricks", "takes", "borrows", "draws", "lead_changes", "declarations")


def game_measures(game: GameDef, players: int, seed, agents=("random",), max_plays: int = DEFAULT_MAX_PLAYS) -> dict:
    """Play one game; return its measures: per hand (the counters of
    ``State.stats`` within the hand, its dealer, its eldest hand — the seat
    after the dealer, who leads first — and its winner), and per game (the
    first dealer, the winners, whether the play limit stopped it)."""
    hands: list[dict] = []
    cur: dict = {}
    first_dealer: list[int] = []

    def sink(ev):
        t = ev["type"]
        if t == "hand_start":
            if not first_dealer:
                first_dealer.append(ev["dealer"])
            cur.clear()
            cur.update(dealer=ev["dealer"], start=dict(st_ref[0].stats) if st_ref else {})
        elif t == "hand_end":
            stats = st_ref[0].stats if st_ref else {}  # no decision yet: nothing counted
            start = cur.get("start", {})
            h = {k: stats.get(k, 0) - start.get(k, 0) for k in HAND_COUNTERS}
            h.update(dealer=cur.get("dealer"), winner=ev.get("winner"), unfinished=ev.get("reason") == "unfinished")
            hands.append(h)

    st_ref: list[State] = []
    # State runs the rules up to the first decision in its constructor: the sink
    # must find the state; stats start at zero, so an empty start is exact.
    st = State(game, players, seed, max_plays=max_plays, keep_events=False, sink=sink)
    st_ref.append(st)
    play(st, make_agents(list(agents), players, seed))
    n = players
    top = [r["seat"] for r in st.standings if r["rank"] == 1]
    fd = first_dealer[0] if first_dealer else 0
    return {
        "hands": hands,
        "first_dealer": fd,
        "winners": top,
        "unfinished": st.unfinished,
        # winners as positions after the first dealer: 1 = eldest hand, n = the dealer
        "winner_positions": [((s - fd - 1) % n) + 1 for s in top],
    }


@dataclass
class Collected:
    players: int
    games: int = 0
    unfinished: int = 0
    per_hand: dict = field(default_factory=lambda: {k: [] for k in HAND_COUNTERS})
    hands_per_game: list = field(default_factory=list)
    eldest_wins: int = 0  # hands won by the seat after the dealer
    decided_hands: int = 0  # hands with a winner
    position_wins: list = field(default_factory=list)  # game wins by position, ties shared

    def add(self, m: dict) -> None:
        if not self.position_wins:
            self.position_wins = [0.0] * self.players
        self.games += 1
        self.unfinished += bool(m["unfinished"])
        self.hands_per_game.append(len(m["hands"]))
        for h in m["hands"]:
            if h["unfinished"]:
                continue
            for k in HAND_COUNTERS:
                self.per_hand[k].append(h[k])
            if h["winner"] is not None:
                self.decided_hands += 1
                self.eldest_wins += h["winner"] == (h["dealer"] + 1) % self.players
        if not m["unfinished"]:
            for p in m["winner_positions"]:
                self.position_wins[p - 1] += 1 / len(m["winner_positions"])


def run(
    game: GameDef, players: int, games: int, seed, agents=("random",), max_plays: int = DEFAULT_MAX_PLAYS
) -> Collected:
    c = Collected(players)
    for i in range(games):
        c.add(game_measures(game, players, game_seed(seed, i), agents, max_plays))
    return c


# -- statistics ---------------------------------------------------------------------------
def wilson(k: float, n: int, z: float = Z) -> tuple[float, float, float]:
    """(p, low, high): the Wilson score interval of k successes in n."""
    if n <= 0:
        return (float("nan"),) * 3
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(xs: list[float], z: float = Z) -> tuple[float, float, float, float]:
    """(mean, low, high, se): mean ± z·SE."""
    n = len(xs)
    if n == 0:
        return (float("nan"),) * 4
    m = sum(xs) / n
    if n == 1:
        return m, m, m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    se = math.sqrt(var / n)
    return m, m - z * se, m + z * se, se


def newcombe(k1, n1, k2, n2) -> tuple[float, float, float]:
    """(d, low, high): p2 - p1 with Newcombe's hybrid score interval."""
    p1, l1, u1 = wilson(k1, n1)
    p2, l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def mean_diff(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """(d, low, high): mean(b) - mean(a) ± 1.96·sqrt(SE_a² + SE_b²)."""
    ma, _, _, sa = mean_ci(a)
    mb, _, _, sb = mean_ci(b)
    d = mb - ma
    h = Z * math.sqrt(sa * sa + sb * sb)
    return d, d - h, d + h
