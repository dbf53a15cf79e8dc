"""Many games in a row, with streamed statistics (memory does not grow with
the number of games: hand lengths are kept as a histogram).

A simulation is cut into chunks of consecutive game indices. Game ``i`` always
uses the seed ``game_seed(seed, i)``, whichever process plays it, and the totals
of two chunks merge exactly (integers, and wins as fractions), in any order: so
a run gives the same report serially, on K worker processes (``backend="local"``)
or on a Dask cluster (``backend="dask"``). Each worker loads the rule file
itself, by corpus id or path, with the options switched on: compiled rules are
closures and do not travel between processes.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Generator, Iterable, Iterator

from ..dsl.errors import RuleError
from ..dsl.loader import Limits
from ..dsl.model import GameDef
from .agents import PLAYERS, AgentMaker, agent_maker, play, register
from .state import State

BACKENDS = ("local", "dask")
MAX_GAMES = 10**9  # games of one simulation
MAX_CHUNK = 10_000  # games per chunk (its rows are held until it is written)
CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler and hear back from it


class BackendError(Exception):
    """The backend cannot be used (no scheduler at that address, no answer,
    a cluster that cannot start): said plainly, not a rule error."""


def game_seed(seed, i: int) -> str:
    """The seed of game ``i`` of a simulation with base seed ``seed``."""
    return f"{seed}/{i}"


def play_one(game: GameDef, players: int, seed, agents: list[str], max_plays: int) -> State:
    return play_made(game, players, seed, _maker(agents, players), max_plays)


def play_made(game: GameDef, players: int, seed, maker: AgentMaker, max_plays: int) -> State:
    """One game of a run, its agents made by ``maker`` (``agent_maker``: the spec read once per run)."""
    ags = maker(seed)
    if not maker.built_in and any(getattr(a, "needs_api", False) for a in ags):  # players that search
        return play(State(game, players, seed, max_plays=max_plays, keep_events=False, check="hand"), ags)
    return State(game, players, seed, max_plays=max_plays, keep_events=False, check="hand", agents=ags)


# (spec, players) -> its AgentMaker, for specs of built-in agents only (a registered
# player's name may be given another factory later)
_MAKERS: dict[tuple, AgentMaker] = {}


def _maker(agents: list[str], players: int) -> AgentMaker:
    key = (tuple(agents), players)
    m = _MAKERS.get(key)
    if m is None:
        m = agent_maker(agents, players)
        if m.built_in and len(_MAKERS) < 64:
            _MAKERS[key] = m
    return m


class Tally:
    """Running totals over games; two tallies merge (for parallel runs), and
    the result does not depend on the order of the merges."""

    def __init__(self, players: int):
        self.n = players
        self.games = 0
        self.sole = [0] * players  # games won alone, by seat
        self.shared: Counter = Counter()  # (seat, winners) -> games won in a tie of that many
        self.unfinished = 0
        self.hand_plays: Counter = Counter()
        self.stats: Counter = Counter()
        self.extra: Any = None  # the totals of the job's collector, if it has one

    @property
    def wins(self) -> list[Fraction]:
        """Games won by each seat, a tie of k counting 1/k (exact)."""
        w = [Fraction(x) for x in self.sole]
        for (s, k), v in self.shared.items():
            w[s] += Fraction(v, k)
        return w

    def add(self, st: State) -> None:
        self.games += 1
        self.unfinished += st.unfinished
        if not st.unfinished and self.n == 1:  # alone (a patience): won only when the rules say so
            if any(h["winner"] == 0 for h in st.hand_results):
                self.sole[0] += 1
        elif not st.unfinished:
            top = [r["seat"] for r in st.standings if r["rank"] == 1]
            if len(top) == 1:
                self.sole[top[0]] += 1
            else:
                for s in top:
                    self.shared[s, len(top)] += 1
        hp = self.hand_plays
        for h in st.hand_results:
            hp[h["plays"]] += 1
        stats = self.stats
        for k, v in st.stats.items():
            stats[k] += v

    def merge(self, other: "Tally") -> None:
        self.games += other.games
        self.unfinished += other.unfinished
        self.sole = [a + b for a, b in zip(self.sole, other.sole)]
        self.shared.update(other.shared)
        self.hand_plays.update(other.hand_plays)
        self.stats.update(other.stats)
        if other.extra is not None:
            if self.extra is None:
                self.extra = other.extra
            else:
                self.extra.merge(other.extra)

    def report(self) -> dict:
        hands = sum(self.hand_plays.values())
        return {
            "games": self.games,
            "players": self.n,
            "wins_by_seat": [float(w) for w in self.wins],
            "unfinished": self.unfinished,
            "hands": hands,
            "hand_plays": {
                "median": _median(self.hand_plays),
                "mean": (sum(k * v for k, v in self.hand_plays.items()) / hands) if hands else 0,
                "max": max(self.hand_plays) if hands else 0,
            },
            "totals": {k: self.stats[k] for k in sorted(self.stats)},
        }


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


def game_row(i: int, seed, st: State) -> dict:
    """One game's line for --csv / --jsonl."""
    return {
        "game": i,
        "seed": seed,
        "winners": [r["seat"] for r in st.standings if r["rank"] == 1],
        "hands": st.hand_no,
        "plays": st.plays,
        "unfinished": bool(st.unfinished),
        "scores": st.returns(),
    }


# -- chunks: what a worker does -----------------------------------------------------
@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play its games: the rule file by corpus id
    or path (not the compiled rules), and the simulation's parameters."""

    rules: str
    options: tuple
    players: int
    seed: object
    agents: tuple
    max_plays: int
    rows: bool = False
    limits: Limits | None = None  # the size limits to load the rule file with (None: the defaults)
    # a class made once per chunk as collector(job): its play(game, seed, i) plays game i and returns the
    # finished State, keeping totals of its own; merge(other) adds another chunk's (in any order)
    collector: Any = None
    # the registered players its agents name, (name, factory) (by default those registered now): a
    # worker registers them before it reads the agents, whatever it has imported (a Dask worker)
    registered: tuple = ()

    def __post_init__(self) -> None:
        if not self.registered:
            names = sorted({str(a).split(":")[0].strip() for a in self.agents})
            object.__setattr__(self, "registered", tuple((n, PLAYERS[n]) for n in names if n in PLAYERS))


_LOADED = threading.local()


def _games() -> dict:
    games = getattr(_LOADED, "games", None)
    if games is None:
        games = _LOADED.games = {}
    return games


def _game(rules: str, options: tuple, limits: Limits | None = None) -> GameDef:
    """The compiled rules, once per process and thread: a compiled rule file
    fills tables and cells while it is played, so two threads of one worker
    (a Dask worker with several threads) each play their own."""
    games = _games()
    key = (rules, options, limits)
    g = games.get(key)
    if g is None:
        from ..dsl.model import load_game

        g = games[key] = load_game(rules, options, limits)
    return g


def run_chunk(job: Job, start: int, stop: int, game: GameDef | None = None):
    """Play games ``start … stop-1``: (start, Tally, rows or None). A rule error
    comes back as its diagnostics (they pickle; the exception would lose its
    position), raised again by the caller."""
    try:
        g = game if game is not None else _game(job.rules, job.options, job.limits)
        tally = Tally(job.players)
        rows: list | None = [] if job.rows else None
        for name, factory in job.registered:
            register(name, factory)
        maker = agent_maker(list(job.agents), job.players)  # the spec read once per chunk
        extra = tally.extra = job.collector(job) if job.collector is not None else None
        for i in range(start, stop):
            s = game_seed(job.seed, i)
            st = extra.play(g, s, i) if extra is not None else play_made(g, job.players, s, maker, job.max_plays)
            tally.add(st)
            if rows is not None:
                rows.append(game_row(i, s, st))
        return start, tally, rows
    except RuleError as e:
        return start, e.diagnostics, None


def chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    """The chunks of a simulation, made one at a time as they are sent: the
    memory of a run does not depend on the number of games."""
    return ((a, min(a + size, games)) for a in range(0, games, size))


def chunk_count(games: int, size: int) -> int:
    return -(-games // size)


def default_chunk(games: int, workers: int) -> int:
    """Small enough that every worker gets many (load balance, progress),
    large enough that sending them costs nothing next to playing them."""
    return max(1, min(250, games // (workers * 16) or 1))


# -- running ------------------------------------------------------------------------
def simulate(
    job: Job,
    games: int,
    *,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    chunk: int | None = None,
    game: GameDef | None = None,
    on_progress: Callable[[int], None] | None = None,
    on_rows: Callable[[list[dict]], None] | None = None,
) -> Tally:
    """Play ``games`` games of ``job`` and return the merged Tally.

    ``workers``: processes (default: all cores); 1 plays in this process, with
    ``game`` if given. ``on_progress(k)`` is called as each chunk of k games
    finishes; ``on_rows(rows)`` with the per-game rows (if ``job.rows``), always
    in game-index order."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    workers = workers or os.cpu_count() or 1
    if game is not None:  # worker processes started by fork find it compiled
        _games()[(job.rules, tuple(job.options), job.limits)] = game
    size = chunk or default_chunk(games, workers)
    parts, count = chunks(games, size), chunk_count(games, size)
    workers = max(1, min(workers, count))  # never more workers than chunks to play
    if backend == "dask":
        results = _dask_results(job, parts, count, workers, scheduler)
    elif workers == 1:
        results = (run_chunk(job, a, b, game) for a, b in parts)
    else:
        results = _pool_results(job, parts, count, workers)
    return _collect(results, job.players, on_progress, on_rows)


def _collect(results: Iterable, players: int, on_progress, on_rows) -> Tally:
    total = Tally(players)
    pending: dict[int, list] = {}  # rows of chunks that finished before an earlier one
    nxt = 0
    for start, tally, rows in results:
        if not isinstance(tally, Tally):
            raise RuleError(tally)
        total.merge(tally)
        if on_rows is not None and rows is not None:
            pending[start] = rows
            while nxt in pending:
                rs = pending.pop(nxt)
                on_rows(rs)
                nxt += len(rs)
        if on_progress is not None:
            on_progress(tally.games)
    return total


def _window(count: int, workers: int) -> int:
    """Chunks in flight at once: enough to keep every worker busy, few enough
    that results waiting for an earlier chunk stay few."""
    return min(count, workers * 4)


def _pool_results(job: Job, parts, count: int, workers: int) -> Iterator:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    todo = iter(parts)
    with ProcessPoolExecutor(max_workers=workers) as ex:
        running = {ex.submit(run_chunk, job, a, b) for a, b in _take(todo, _window(count, workers))}
        try:
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for f in sorted(done, key=lambda f: f.result()[0]):
                    for a, b in _take(todo, 1):
                        running.add(ex.submit(run_chunk, job, a, b))
                    yield f.result()
        finally:
            for f in running:
                f.cancel()


def _take(it, k: int):
    out = []
    for _ in range(k):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out


def _dask_client(workers: int, scheduler: str | None):
    """A Dask client on the cluster at ``scheduler``, or on a local cluster of ``workers``
    processes started here; the cluster (None when it is not ours to close); and Dask's
    ``as_completed``."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RuleError("the dask backend needs Dask: pip install 'academie[dask]'", code="backend") from None
    cluster = None
    if scheduler:
        client = _connect(Client, scheduler)
    else:
        try:
            import logging

            with _interrupts_held():  # the worker processes never see Ctrl-C: this process stops them
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
                client = Client(cluster)
        except Exception as e:
            if cluster is not None:
                cluster.close()
            raise BackendError(f"cannot start a local Dask cluster: {e}") from None
    return client, cluster, as_completed


def _dask_results(job: Job, parts, count: int, workers: int, scheduler: str | None) -> Iterator:
    client, cluster, as_completed = _dask_client(workers, scheduler)
    try:
        if scheduler:  # as many chunks in flight as the cluster has threads
            workers = sum(client.nthreads().values()) or workers
        todo = iter(parts)
        first = [client.submit(run_chunk, job, a, b, pure=False) for a, b in _take(todo, _window(count, workers))]
        ac = as_completed(first)
        for f in ac:
            for a, b in _take(todo, 1):
                ac.add(client.submit(run_chunk, job, a, b, pure=False))
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


class _interrupts_held:
    """Ignore SIGINT while the local cluster starts: its worker processes
    inherit the ignored signal, so a Ctrl-C reaches this process alone (which
    closes the cluster) and no worker prints a traceback. A Ctrl-C pressed
    during the few seconds of the start is lost. Does nothing outside the main
    thread, where signals cannot be set."""

    def __enter__(self):
        import signal
        import warnings

        self.old = None
        try:
            old = signal.getsignal(signal.SIGINT)
            if old is not None:  # a handler that Python can put back
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                self.old = old
        except (OSError, ValueError):
            self.old = None
        self.warnings = warnings.catch_warnings()
        self.warnings.__enter__()
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        return self

    def __exit__(self, *exc):
        import signal

        self.warnings.__exit__(*exc)
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
        return False


def _connect(Client, address: str):
    """A client of the scheduler at ``address``, or a BackendError within
    about CONNECT_TIMEOUT seconds: an address that cannot be read, a port
    that refuses, and a port that accepts and never answers (which Dask's own
    timeout does not cover: the client is made in a thread that is given up
    on)."""
    import threading

    box: dict = {}

    def connect():
        try:
            box["client"] = Client(address, timeout=CONNECT_TIMEOUT)
        except BaseException as e:  # handed to the caller, below
            box["error"] = e

    t = threading.Thread(target=connect, name="academie-dask-connect", daemon=True)
    t.start()
    t.join(CONNECT_TIMEOUT + 2)
    if t.is_alive():
        raise BackendError(f"no answer from a Dask scheduler at {address} within {CONNECT_TIMEOUT:g} s")
    e = box.get("error")
    if e is not None:
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise e
        why = str(e) or type(e).__name__
        raise BackendError(f"cannot reach a Dask scheduler at {address}: {why}") from None
    return box["client"]


# -- any tasks ----------------------------------------------------------------------
def run_tasks(
    fn: Callable[[Any], Any],
    tasks: Iterable,
    workers: int,
    *,
    backend: str = "local",
    scheduler: str | None = None,
) -> Generator[Any, None, None]:
    """``fn(task)`` for each of ``tasks``, on ``workers`` processes of this
    machine (``backend="local"``; 1 runs them here, in order) or on a Dask
    cluster (``backend="dask"``, at ``scheduler`` or a local one). The results
    come as the tasks finish, in any order: ``fn`` returns what identifies its
    task. ``fn`` and the tasks are sent by pickle: ``fn`` a module's function,
    each task small (a worker loads the rule file itself). The workers ignore
    Ctrl-C: this process gets it, and leaving the loop stops them."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if backend == "dask":
        yield from _dask_tasks(fn, tasks, workers, scheduler)
    elif workers <= 1:
        yield from map(fn, tasks)
    else:
        from multiprocessing import Pool

        with Pool(workers, initializer=_ignore_interrupts) as pool:  # leaving the block terminates them
            yield from pool.imap_unordered(fn, tasks)


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _dask_tasks(fn, tasks: Iterable, workers: int, scheduler: str | None) -> Iterator:
    client, cluster, as_completed = _dask_client(workers, scheduler)
    try:
        if scheduler:  # as many tasks in flight as the cluster has threads
            workers = sum(client.nthreads().values()) or workers
        todo = iter(tasks)
        ac = as_completed([client.submit(fn, t, pure=False) for t in _take(todo, workers * 4)])
        for f in ac:
            for t in _take(todo, 1):
                ac.add(client.submit(fn, t, pure=False))
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
