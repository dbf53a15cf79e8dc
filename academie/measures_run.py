"""Measuring runs: games 0 … N-1 played (game ``i`` on the seed
``game_seed(seed, i)``) and folded into a ``Design`` or a ``Skill``, in this
process or on worker processes, with the same totals for any number of
workers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from . import players as _players  # noqa: F401  (registers the players that search: a worker reads their names)
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
        return r.play(seed, self.maker(seed), self.job.max_plays, self.maker.built_in)

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
        reader.play(s, maker(s), max_plays, maker.built_in)
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


@dataclass(frozen=True)
class Run:
    """One measuring run: games 0 … games-1 of the rules ``ref`` with ``options``
    at ``players`` seats, game i on the seed ``game_seed(seed, i)``, folded into
    a ``Design`` (``kind`` "design", ``agents`` by seat: one for all, or one per
    seat) or a ``Skill`` (``kind`` "skill", ``agents`` = (strong, weak))."""

    kind: str
    ref: str
    options: tuple
    players: int
    games: int
    seed: Any
    agents: tuple
    max_plays: int = DEFAULT_MAX_PLAYS
    limits: Any = None

    def fresh(self) -> Design | Skill:
        if self.kind == "design":
            return Design(self.players, tuple(_seat_names(self.agents, self.players)))
        return Skill(self.players, self.agents[0], self.agents[1])

    def key(self, game: GameDef) -> dict:
        """What names the run in a checkpoint: all that decides its games (not the workers, nor the limits)."""
        from .checkpoint import digest

        return {
            "kind": self.kind,
            "ref": self.ref,
            "options": list(self.options),
            "rules": digest(game.doc.data),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "agents": list(self.agents),
            "max_plays": self.max_plays,
        }


def _chunk(task: tuple) -> tuple:
    """Games a … b-1 of run ``r``: (r, a, b, totals), or (r, a, b, diagnostics)
    of a rule error (they pickle; the exception would lose its position)."""
    r, run, a, b = task
    try:
        g = _load(run.ref, tuple(run.options), run.limits)
        if run.kind == "design":
            return r, a, b, run_design(g, run.players, a, b, run.seed, run.agents, run.max_plays)
        strong, weak = run.agents
        return r, a, b, run_skill(g, run.players, a, b, run.seed, strong, weak, run.max_plays)
    except RuleError as e:
        return r, a, b, e.diagnostics


def chunk_size(games: int, workers: int) -> int:
    """About 16 chunks per worker (balance), at most 10,000 games each."""
    return max(1, min(10_000, games // (max(1, workers) * 16)))


def measure_runs(
    runs: list[Run],
    workers: int | None = 1,
    *,
    backend: str = "local",
    scheduler: str | None = None,
    chunk: int | None = None,
    games: Sequence[GameDef | None] | None = None,
    on_progress: Callable[[int], None] | None = None,
    resume: str | None = None,
) -> list[Design | Skill]:
    """Play every run and fold each into its totals, the chunks of all the runs
    spread over ``workers`` processes (default: all cores; ``backend`` "dask":
    a Dask cluster, at ``scheduler`` or a local one), each loading the rules by
    ``ref`` and ``options`` (``games``: the runs' compiled rules, used in this
    process and by forked workers). Each run's chunks are folded in the order
    of their games whatever order they finish in, and the totals are exact:
    any ``workers`` gives the same. ``on_progress(k)`` is called as each chunk
    of k games finishes. ``resume``: a checkpoint file (``academie.checkpoint``),
    written as each chunk finishes; the games it holds are not played again."""
    from .interpreter.simulate import run_tasks

    compiled = [
        _load(r.ref, tuple(r.options), r.limits) if g is None else g for r, g in zip(runs, games or [None] * len(runs))
    ]
    for r, g in zip(runs, compiled):  # worker processes started by fork find them compiled
        _LOADED[(r.ref, tuple(r.options), r.limits)] = g
    if workers is None:
        import os

        workers = os.cpu_count() or 1
    sizes = [chunk or chunk_size(r.games, workers) for r in runs]
    totals = [r.fresh() for r in runs]
    nexts = [0] * len(runs)  # games folded into each run's totals
    done: list[dict] = [{} for _ in runs]  # chunks finished beyond them: start -> (stop, totals)
    ck = None
    if resume is not None:
        from .checkpoint import Checkpoint

        ck = Checkpoint(resume, {"runs": [r.key(g) for r, g in zip(runs, compiled)]})
        saved = ck.load()
        if saved is not None:
            sizes = saved["sizes"]
            for i, st in enumerate(saved["runs"]):
                totals[i], nexts[i], done[i] = st["total"], st["next"], st["done"]
            if on_progress is not None:
                on_progress(sum(nexts) + sum(b - a for d in done for a, (b, _) in d.items()))
    tasks = [
        (i, r, a, min(a + sizes[i], r.games))
        for i, r in enumerate(runs)
        for a in range(nexts[i], r.games, sizes[i])
        if a not in done[i]
    ]
    if not tasks:
        return totals
    from contextlib import closing

    results = run_tasks(_chunk, tasks, max(1, min(workers, len(tasks))), backend=backend, scheduler=scheduler)
    with closing(results):  # leaving early (an error, Ctrl-C) stops the workers at once
        for i, a, b, part in results:
            if not isinstance(part, (Design, Skill)):
                raise RuleError(part)
            done[i][a] = (b, part)
            while nexts[i] in done[i]:  # folded in the order of the games
                stop, p = done[i].pop(nexts[i])
                totals[i].merge(p)  # type: ignore[arg-type]
                nexts[i] = stop
            if ck is not None:
                ck.save(sizes, totals, nexts, done)
            if on_progress is not None:
                on_progress(b - a)
    return totals


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
    """Play games 0 … games-1 of one run and fold them (``measure_runs``):
    ``kind`` "design" (a ``Design``, ``agents`` by seat) or "skill" (a
    ``Skill``, ``agents`` = (strong, weak))."""
    run = Run(kind, ref, tuple(options), players, games, seed, tuple(agents), max_plays, limits)
    return measure_runs([run], workers, chunk=chunk, games=[game], on_progress=on_progress)[0]
