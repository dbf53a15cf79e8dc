"""What every part of the interpreter shares: the decision a player takes, the
errors of play, and the canonical order's keys. No state lives here."""
from __future__ import annotations

from operator import attrgetter

from ..dsl.cards import RANKS, SUITS, Card

DEFAULT_MAX_PLAYS = 50_000
PASS = "pass"


class InvariantError(AssertionError):
    """The interpreter broke one of its own invariants: a bug, never a user error."""


class Unfinished(Exception):
    """The play limit is reached: the procedure stops, the game is reported
    "unfinished" (raised inside the procedure, caught by it)."""


class Abandoned(Exception):
    """An agent cannot choose any more (a person's input ended): the game
    stops here. Not a fault of the rule file, nor of the interpreter."""

    def __init__(self, message: str, seat: int | None = None):
        super().__init__(message)
        self.seat = seat


class Decision:
    __slots__ = ("seat", "moves", "kind")

    def __init__(self, seat: int, moves: list, kind: str):
        self.seat, self.moves, self.kind = seat, moves, kind


def runtime_message(e: Exception) -> str:
    """What an expression's failure in play means for the rules (the Python
    error after it, for whoever debugs the rule file)."""
    detail = f"({type(e).__name__}: {e})"
    if isinstance(e, TypeError) and "NoneType" in str(e):
        return ("a seat is none at this point of play (a winner, leader, holder or declarer not decided yet) "
                f"and is used as a number or a seat {detail}")
    if isinstance(e, TypeError):
        return f"values of different kinds are combined {detail}"
    if isinstance(e, (KeyError, IndexError)):
        return f"a seat, zone or money holder is used that does not exist here {detail}"
    return f"{type(e).__name__}: {e}"


def move_name(m) -> str:
    return m.name if isinstance(m, Card) else str(m)


# the canonical order's sort key, read in C (no Python call per card)
canon_key = attrgetter("canon")
# the canonical order puts the cards of each suit together: suit -> [first, last + 1) of their keys
SUIT_SPAN = {s: (i * len(RANKS), (i + 1) * len(RANKS)) for i, s in enumerate(SUITS)}
