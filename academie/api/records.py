"""A state as plain data and back: ``state_from_record`` reads what ``State.to_record`` gives
(safe on untrusted data: plain JSON, no code)."""

from __future__ import annotations

from typing import Any

from ..dsl.errors import RuleError
from .actions import _shown
from .errors import ApiError, UnknownAction
from .game import Game, _game_of_record, _same_game
from .state import State

_MAX_RECORD_MOVES = 1_000_000  # moves a record may hold (a game of the corpus makes a few hundred)


def state_from_record(record: Any, game: "Game | None" = None) -> "State":
    """The state ``State.to_record()`` gave, rebuilt: the game made the same way, each move
    applied again and checked. Safe on untrusted data (plain JSON, no code): ``game`` must be
    the recorded game (``OtherGame`` if not); without it, only a corpus id is loaded, never a
    path. ``ApiError`` (``UnknownAction``, ``IllegalMove``, ``GameOver``, ``InvalidSeat``) for a
    record that is not one."""
    if not isinstance(record, dict):
        raise ApiError(f"a state's record is a dict, not {type(record).__name__}")
    rec = record.get("game")
    if game is None:
        game = _game_of_record(rec, paths=False)
    elif not isinstance(rec, dict):
        raise ApiError('a state\'s record names its game ({"rules", "options", "digest"})')
    else:
        _same_game(game, rec)
    moves, deck, deal = record.get("moves", []), record.get("deck"), record.get("deal")
    if not isinstance(moves, list) or len(moves) > _MAX_RECORD_MOVES:
        raise ApiError(f"a state's moves are a list of at most {_MAX_RECORD_MOVES:,} names")
    if deck is not None and not isinstance(deck, list):
        raise ApiError("a deck is a list of cards")
    if deal is not None and not isinstance(deal, dict):
        raise ApiError("a deal is a dict of zones")
    try:
        state = game.new_state(
            record.get("players"),  # type: ignore[arg-type]
            record.get("seed", 0),
            dealer=record.get("dealer"),
            deck=deck,
            deal=deal,
            keep_events=record.get("keep_events") is True,
        )
    except RuleError as e:  # a deck or deal that does not fit the game
        raise ApiError(e.diagnostics[0].message) from None
    for m in moves:
        if not isinstance(m, (str, int)) or isinstance(m, bool):
            raise UnknownAction(f"a move is recorded by its name, not {_shown(m)}")
        state.apply(m)
    return state
