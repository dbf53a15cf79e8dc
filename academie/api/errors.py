"""The exceptions of the API's misuse (each also ``academie.X`` and ``academie.api.X``)."""

from __future__ import annotations


class ApiError(ValueError):
    """A call the API cannot honour: a wrong argument, not a fault of the rule file."""


class IllegalMove(ApiError):
    """The move is not one of the legal moves of the decision at hand."""


class GameOver(IllegalMove):
    """A move was made after the end of the game."""


class UnknownAction(IllegalMove):
    """An action id that no move of this game has, or a move this game never offers."""


class InvalidSeat(ApiError):
    """A seat (or a number of players) outside the game's table."""


class OtherGame(ApiError):
    """A pickled state or a state's record made with another rule file (or other options)
    than the one it is read against."""


for _cls in (ApiError, IllegalMove, GameOver, UnknownAction, InvalidSeat, OtherGame):
    _cls.__module__ = "academie.api"  # where they are documented and imported from
