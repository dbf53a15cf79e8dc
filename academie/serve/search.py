"""The search players of ``academie serve`` (``SEARCHERS``): their moves sought in worker
processes, ``MAX_SEARCHES`` at once over every table of the process, each within a budget
(``SEARCH_ITERATIONS``, ``SEARCH_SECONDS``), while the server goes on answering."""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .. import api

SEARCHERS = ("ismcts", "mc")
SEARCH_ITERATIONS = 200  # a search player's budget per move: a fraction of a second on the corpus games
SEARCH_SECONDS = 2.0  # ... and at most this long, whatever the game
MAX_SEARCHES = 2  # search players thinking at once, over all tables (others wait their turn)

_PROCESSES: ProcessPoolExecutor | None = None
_PROCESSES_LOCK = threading.Lock()


def _searched(state: api.State, agent: str, seed: str) -> int:
    """In a worker process: the search player's move (an action id) in ``state``."""
    from .. import players

    return players.agent(agent, iterations=SEARCH_ITERATIONS, time=SEARCH_SECONDS, seed=seed).choose(state)


_THREADS: ThreadPoolExecutor | None = None


def searches() -> ThreadPoolExecutor:
    """The threads that wait for the worker processes' moves: ``MAX_SEARCHES``, shared by
    every app of the process, so that a table's move waits its turn behind the others'."""
    global _THREADS
    with _PROCESSES_LOCK:
        if _THREADS is None:
            _THREADS = ThreadPoolExecutor(max_workers=MAX_SEARCHES, thread_name_prefix="academie-search")
        return _THREADS


class Stopping(Exception):
    """No more searches: the server's process is ending."""


def search(state: api.State, agent: str, seed: str) -> int:
    """The move of search player ``agent`` in ``state``, sought in one of ``MAX_SEARCHES`` worker
    processes (the server's own process goes on answering; a game's compiled tables are
    never shared between threads). A pool whose worker died is made again."""
    global _PROCESSES
    with _PROCESSES_LOCK:
        if _PROCESSES is None:
            _PROCESSES = ProcessPoolExecutor(max_workers=MAX_SEARCHES, mp_context=multiprocessing.get_context("spawn"))
        pool = _PROCESSES
    try:
        future = pool.submit(_searched, state, agent, seed)
    except RuntimeError:  # the pool was shut down: the process is ending
        raise Stopping() from None
    try:
        return future.result(timeout=SEARCH_SECONDS + 60)
    except BrokenProcessPool:
        with _PROCESSES_LOCK:
            if _PROCESSES is pool:
                _PROCESSES = None
        raise
