"""What the parts of the API's ``State`` (``views``, ``resampling``: one class per concern, each
in its own module, that ``State`` inherits) read of one another, declared for the type checker:
the attributes ``State`` sets, and its methods they call. Annotations only: nothing here
exists at run time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    import random

    from ..interpreter import state as _engine
    from .actions import Move
    from .game import Game

# (public event, who sees the full one: a seat, the seats of a tuple, -1 each his own hand of a deal; full)
Entry = tuple[dict, Union[int, tuple, None], Union[dict, None]]


class Parts:
    game: Game
    players: int
    _recipe: tuple[int, int | str, int | None, list | None, dict | None]
    _keep: bool
    _rng0: random.Random | None
    _lazy: bool
    _moves: list[Move]
    _applying: int
    _mark: tuple[int, int]
    _ev: list[Entry]
    _earl: list[list[Entry]]
    _views: dict[int, tuple[int, list, str]]
    _seen_: set[str]
    _e: _engine.State
    # the hand's record, made when first asked for (``State._rec``)
    _events: list[Entry]
    _earlier: list[list[Entry]]
    _earlier_views: dict[int, tuple[int, list, str]]
    _seen: set[str]
    _hand_mark: tuple[int, int]

    if TYPE_CHECKING:

        @property
        def engine(self) -> _engine.State: ...
        def clone(self) -> Any: ...
        def _check_seat(self, seat: int) -> None: ...
        def _knows(self, seat: int) -> set: ...
        def _cells_seen(self, seat: int | None, known: set | None) -> tuple | None: ...
        def _sees_all_counters(self, seat: int) -> bool: ...
        def _on_event(self, ev: dict) -> None: ...
        def _send(self, m: Any) -> None: ...
