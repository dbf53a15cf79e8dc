"""Many games in a row, with streamed statistics (memory does not grow with
the number of games: hand lengths are kept as a histogram)."""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from ..dsl.model import GameDef
from .agents import make_agents, play
from .state import State


def game_seed(seed, i: int) -> str:
    """The seed of game ``i`` of a simulation with base seed ``seed``."""
    return f"{seed}/{i}"


def play_one(game: GameDef, players: int, seed, agents: list[str], max_plays: int) -> State:
    st = State(game, players, seed, max_plays=max_plays, keep_events=False)
    return play(st, make_agents(agents, players, seed))


class Tally:
    """Running totals over games; two tallies merge (for parallel runs)."""

    def __init__(self, players: int):
        self.n = players
        self.games = 0
        self.wins = [0.0] * players
        self.unfinished = 0
        self.hand_plays: Counter = Counter()
        self.stats: Counter = Counter()

    def add(self, st: State) -> None:
        self.games += 1
        self.unfinished += st.unfinished
        top = [r["seat"] for r in st.standings if r["rank"] == 1]
        if not st.unfinished:
            for s in top:
                self.wins[s] += 1 / len(top)
        for h in st.hand_results:
            self.hand_plays[h["plays"]] += 1
        self.stats.update(st.stats)

    def merge(self, other: "Tally") -> None:
        self.games += other.games
        self.unfinished += other.unfinished
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.hand_plays.update(other.hand_plays)
        self.stats.update(other.stats)

    def report(self) -> dict:
        hands = sum(self.hand_plays.values())
        values = sorted(self.hand_plays.elements()) if hands <= 200_000 else None
        return {"games": self.games, "players": self.n, "wins_by_seat": self.wins,
                "unfinished": self.unfinished, "hands": hands,
                "hand_plays": {"median": _median(self.hand_plays),
                               "mean": (sum(k * v for k, v in self.hand_plays.items()) / hands) if hands else 0,
                               "max": max(self.hand_plays) if hands else 0},
                "totals": dict(self.stats)}


def _median(hist: Counter):
    total = sum(hist.values())
    if not total:
        return 0
    mid, acc = (total + 1) / 2, 0
    for k in sorted(hist):
        acc += hist[k]
        if acc >= mid:
            return k
    return 0


def run_games(game: GameDef, players: int, games: int, seed, agents: list[str], max_plays: int,
              progress: bool = False) -> dict:
    tally = Tally(players)
    it: Iterable[int] = range(games)
    if progress:
        import click
        with click.progressbar(it, label=f"{game.id}", file=None) as bar:
            for i in bar:
                tally.add(play_one(game, players, game_seed(seed, i), agents, max_plays))
    else:
        for i in it:
            tally.add(play_one(game, players, game_seed(seed, i), agents, max_plays))
    return tally.report()
