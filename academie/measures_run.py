"""Measuring runs: games 0 … N-1 played (game ``i`` on the seed
``game_seed(seed, i)``) and folded into a ``Design`` or a ``Skill``, in this
process or on worker processes, with the same totals for any number of
workers."""

from __future__ import annotations

from typing import Callable

from .dsl.errors import RuleError
from .dsl.model import GameDef
from .interpreter.agents import agent_maker, make_agents
from .interpreter.simulate import game_seed
from .interpreter.state import DEFAULT_MAX_PLAYS, State
from .measures_design import Design, Skill
from .measures_read import Reader, game_measures


class DesignCollector:
    """The design measures of a simulation (``interpreter.simulate.Job.collector``):
    plays each game with a ``Reader`` and folds it into a ``Design``."""

    def __init__(self, job):
        self.job = job
        self.design = Design(job.players, tuple(_seat_names(job.agents, job.players)))
        self.maker = agent_maker(list(job.agents), job.players)  # the spec read once per chunk
        self.reader: Reader | None = None

    def play(self, game: GameDef, seed, i: int) -> State:
        r = self.reader
        if r is None or r.game is not game:
            r = self.reader = Reader(self.design, game)
        return r.play(seed, self.maker(seed), self.job.max_plays)

    def merge(self, other: "DesignCollector") -> None:
        self.design.merge(other.design)

    def __getstate__(self) -> dict:
        """Its totals go back from a worker process; the agents' maker and the reader (which holds
        the compiled rules) stay there."""
        return {"job": self.job, "design": self.design}

    def __setstate__(self, state: dict) -> None:
        self.job, self.design = state["job"], state["design"]
        self.maker = agent_maker(list(self.job.agents), self.job.players)
        self.reader = None


def check_agent_specs(specs: list[str], players: int | None = None) -> None:
    """Raise ValueError, said plainly, unless ``specs`` name agents the engine
    can make (each alone; with ``players``, also one for all seats or one per
    seat) and none of them is a human."""
    if "human" in specs:
        raise ValueError("measures are played without a human")
    for spec in specs:
        make_agents([spec], 1, "check")
    if players is not None and len(specs) not in (1, players):
        raise ValueError(f"{len(specs)} agents for {players} players: give one, or one per seat")


# -- running ----------------------------------------------------------------------------------
def _seat_names(agents, players: int) -> list[str]:
    names = list(agents)
    return names * players if len(names) == 1 else names


def run_design(game: GameDef, players: int, start: int, stop: int, seed, agents, max_plays: int) -> Design:
    d = Design(players, tuple(_seat_names(agents, players)))
    maker, reader = agent_maker(list(agents), players), Reader(d, game)
    for i in range(start, stop):
        s = game_seed(seed, i)
        reader.play(s, maker(s), max_plays)
    return d


def skill_agents(strong: str, weak: str, players: int, i: int) -> list[str]:
    """The seats of game i of a skill run: the strong player at seat i mod n."""
    names = [weak] * players
    names[i % players] = strong
    return names


def run_skill(game: GameDef, players: int, start: int, stop: int, seed, strong: str, weak: str, max_plays: int):
    k = Skill(players, strong, weak)
    for i in range(start, stop):
        s = game_seed(seed, i)
        m = game_measures(game, players, s, skill_agents(strong, weak, players, i), max_plays)
        k.add(i % players, m)
    return k


_LOADED: dict = {}


def _load(ref: str, options: tuple, limits=None) -> GameDef:
    key = (ref, options, limits)
    if key not in _LOADED:
        from .dsl.model import load_game

        _LOADED[key] = load_game(ref, list(options), limits)
    return _LOADED[key]


def _chunk(task: tuple) -> tuple:
    """Games a … b-1 of a task: (a, totals), or (a, diagnostics) of a rule
    error (they pickle; the exception would lose its position)."""
    kind, ref, options, limits, players, a, b, seed, agents, max_plays = task
    try:
        g = _load(ref, options, limits)
        if kind == "design":
            return a, run_design(g, players, a, b, seed, agents, max_plays)
        strong, weak = agents
        return a, run_skill(g, players, a, b, seed, strong, weak, max_plays)
    except RuleError as e:
        return a, e.diagnostics


def _merge(total, part) -> None:
    if isinstance(part, (Design, Skill)):
        total.merge(part)
    else:
        raise RuleError(part)


def measure(
    kind: str,
    ref: str,
    options: tuple,
    players: int,
    games: int,
    seed,
    agents,
    max_plays: int = DEFAULT_MAX_PLAYS,
    workers: int | None = 1,
    limits=None,
    game: GameDef | None = None,
    chunk: int | None = None,
    on_progress: Callable[[int], None] | None = None,
):
    """Play games 0 … games-1 and fold them: ``kind`` "design" (a ``Design``,
    ``agents`` by seat) or "skill" (a ``Skill``, ``agents`` = (strong, weak)).
    On ``workers`` processes, each loading the rules by ``ref`` and
    ``options``; the totals are exact, so any ``workers`` gives the same.
    ``on_progress(k)`` is called as each chunk of k games is folded in."""
    if game is not None:
        _LOADED[(ref, tuple(options), limits)] = game
    if workers is None:
        import os

        workers = os.cpu_count() or 1
    # about 16 chunks per worker (balance), at most 10,000 games each: the chunks are made as they are sent
    size = chunk or max(1, min(10_000, games // (max(1, workers) * 16)))
    count = -(-games // size)
    tasks = (
        (kind, ref, tuple(options), limits, players, a, min(a + size, games), seed, tuple(agents), max_plays)
        for a in range(0, games, size)
    )
    total: Design | Skill
    if kind == "design":
        total = Design(players, tuple(_seat_names(agents, players)))
    else:
        total = Skill(players, agents[0], agents[1])
    sizes = (min(a + size, games) - a for a in range(0, games, size))  # the chunks come back in order
    if workers <= 1 or count <= 1:
        for _, part in map(_chunk, tasks):
            _merge(total, part)
            if on_progress is not None:
                on_progress(next(sizes))
        return total
    from multiprocessing import Pool

    # the workers ignore Ctrl-C: this process gets it, and leaving the block terminates them
    with Pool(min(workers, count), initializer=_ignore_interrupts) as pool:
        for _, part in pool.imap(_chunk, tasks):
            _merge(total, part)
            if on_progress is not None:
                on_progress(next(sizes))
        pool.close()
        pool.join()
    return total


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
