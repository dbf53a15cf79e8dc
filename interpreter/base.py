"""What every part of the interpreter shares: the decision a player takes, the
errors of play, and the canonical order's keys. No state lives here."""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterator

from ..dsl.cards import RANKS, SUITS, Card

if TYPE_CHECKING:
    from ..dsl.errors import Pos
    from ..dsl.model import Effect, EndRule, GameDef, Payment, Step
    from .compiled import Compiled

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
        return (
            "a seat is none at this point of play (a winner, leader, holder or declarer not decided yet) "
            f"and is used as a number or a seat {detail}"
        )
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


class _Parts(type):
    """The metaclass of the parts of ``State``: an ordinary ``type``. It is there for the optional
    compiled build (mypyc, ``academie/build_native.py``): a class with a metaclass of its own is
    compiled as an ordinary Python class, with its methods in C, which the parts need, being
    mixed together into one class whose attributes each part sets."""


class StateParts(metaclass=_Parts):
    """What the parts of ``State`` (one class per concern, each in its own
    module) read and call of one another, declared for the type checker: the
    attributes ``State.__init__`` sets, and the methods of the other parts.
    Annotations only: nothing here exists at run time."""

    g: GameDef
    n: int
    seed: int | str
    max_plays: int
    hands_limit: int | None
    events: list[dict] | None
    pack_cards: list[Card]
    zones: dict[str, list[Card]]
    pzones: dict[str, list[list[Card]]]
    hand: list[list[Card]]
    bal: dict[Any, dict[str, int]]
    vars: dict[str, Any]
    pvars: dict[str, list]
    dealer: int
    leader: int | None
    led: str | None
    trump: str | None
    winner: Any
    mover: int | None
    other: int | None
    under_test: Any = None  # the number or suit a choose step's allow is testing (read as value)
    hand_no: int
    tricks_played: int
    won: list[int]
    declared: dict[str, int]
    plays: int
    unfinished: bool
    truncated: bool
    finished: bool
    standings: list[dict]
    hand_results: list[dict]
    _scores_at_hand: tuple | None
    _end_scores: tuple | None
    _compiled: Compiled
    _sink: Callable[[dict], None] | None
    _on_hand: Callable[[Any, bool], None] | None
    _logging: bool
    _check_moves: bool
    _forced_dealer: int | None
    _pack_set: frozenset[Card]
    _copies: bool  # the pack holds copies of a card (pack: copies:)
    _all_zones: list[list[Card]]
    _zone_owner: dict[int, int]
    _hand_ids: frozenset[int]
    _touched: set[int]
    restock_orders: tuple
    _short_cfg: dict[int, tuple]
    _inline: tuple | None
    _deck: list[Card] | None
    _deal: dict | None
    _totals: dict[str, int] | None
    _plays_at_hand: int
    _hand_over: bool
    _counts: dict[str, int]
    _auto: Any
    _step_pos: Pos | None
    _cur_step: Step | None  # the step being played (read by follow_tier)
    _end_rule: tuple  # the path of the end condition that ended the hand, if one did
    _draw_inline: bool
    _idle: int
    _snapshots: bool
    _resume: Any
    snapshot: Any
    _at: tuple
    _frame: tuple
    _track: bool  # the atoms of hidden cards each counter depends on recorded (visibility)
    _taint: dict
    _guard: frozenset
    _rounds: dict  # step index -> the times a repeat step went back in this hand (a new dict on change)
    _jump: int | None  # the step a repeat step sends play back to
    melded_as: dict  # tricks with declare: (seat, card) -> per copy on the table, the melds it was shown in

    if TYPE_CHECKING:

        @property
        def rng(self) -> random.Random: ...
        @property
        def _hand_plays(self) -> int: ...
        def emit(self, ev: dict) -> None: ...
        def check_invariants(self, full: bool = True) -> None: ...
        def _ask(self, seat: int, moves: list) -> Any: ...
        def _drawn_inline(self) -> list | None: ...
        def _end_scan(self, st: Step, end_play: list) -> Any: ...
        def _on_play_watched(self, st: Step, end_play: list) -> Any: ...
        def _ask_card(self, seat: int, options: list) -> Any: ...
        def _choice(self, kind: str, seat: int, moves: list, frame: tuple) -> Generator[Decision, Any, Any]: ...
        def _illegal(self, seat: int, move: Any, moves: list) -> None: ...
        def _count_play(self) -> None: ...
        def _choosers(self, st: Step) -> list[int]: ...
        def _set_stake(self, seat: int, card: Any, amount: int, path: tuple = ()) -> None: ...
        def _check_card_count(self) -> None: ...
        def zone_named(self, zone: list) -> dict: ...
        def _agents_inline(self) -> tuple: ...
        def _place_deal(self, st: Step) -> None: ...
        def _legal(self, st: Step, seat: int, first: int = 0) -> tuple[list, bool]: ...
        def _playable(self, st: Step, seat: int) -> list: ...
        def _unshow(self, seat: int, c: Any) -> None: ...
        def _draw_top(self, seat: int, stock: list, hand: list, stock_name: str) -> Any: ...
        def _restock(self, spec: Any, stock: list, pile: list) -> bool: ...
        def _declare_window(self, st: Step, seat: int, frame: tuple | None) -> Iterator[Decision]: ...
        def _check_end(self, rules: list[EndRule], mover: int) -> bool: ...
        def _short_loop_fits(self, st: Step) -> bool: ...
        def _tricks_drawn(self, st: Step, uniform: list, leader: int | None = None) -> None: ...
        def _effects(self, effects: list[Effect], seat: Any) -> int | None: ...
        def _runner(self, effects: list[Effect]) -> Callable[[Any, Any], int | None]: ...
        def _move_cards(
            self, cards: list, dst: list, seat: Any, to_name: str, src: list | None = None, rule: tuple = ()
        ) -> None: ...
        def _pay(self, p: Payment, seat: Any, bank: bool = False) -> None: ...
        def _money_totals(self) -> dict[str, int]: ...
        def _step_tricks(self, st: Step) -> Iterator[Decision] | None: ...
        def _collapse(self) -> None: ...
        def _vis_clear(self, names: Any) -> None: ...
        def _vis_chosen(self, name: str, seat: int) -> None: ...
        def _vis_step(self, st: Step, fired: bool) -> None: ...
