"""Cells: what one part of an expression hands to another within one evaluation
(the card ``count(ZONE, x, …)`` names while its test runs, the state a lookup works
on, the parts a hoisting filter has worked out). A compiled expression is shared by
every state of its game, and those states may be played by several threads at once:
each thread has its own value in a cell (``threading.local``), so one thread's
evaluation never reads a value another thread's put there."""

from __future__ import annotations

import threading
from typing import Any


class Cell(threading.local):
    """One value per thread (``v``), ``initial`` in a thread until it sets one."""

    v: Any

    def __init__(self, initial: Any = None) -> None:
        self.v = initial
