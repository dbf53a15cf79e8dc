"""academie: historical card-game rules as cited, executable data."""

from __future__ import annotations

import os as _os
import typing as _typing

__version__ = "0.1.0"

# Installed, the subpackages dsl, interpreter, rules and sources lie inside this folder. In a
# checkout they are its siblings (the project's top-level folders): there the checkout's root
# is searched for them too, so that the code runs from a checkout as it is (python -m academie,
# a test's subprocess started in the checkout) and never mixes with another installed copy.
_root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if _os.path.isfile(_os.path.join(_root, "pyproject.toml")) and _os.path.isfile(
    _os.path.join(_root, "dsl", "expr.lark")
):
    __path__.append(_root)  # type: ignore[name-defined]  # noqa: F821

# The public API (academie/api/, docs/api.md) and ``agent``, a player by name (academie/players,
# docs/players.md), imported on first use so that the command line starts without them.
__all__ = [
    "ApiError",
    "Game",
    "GameOver",
    "IllegalMove",
    "InvalidSeat",
    "Move",
    "OtherGame",
    "State",
    "UnknownAction",
    "agent",
    "load_game",
    "state_from_record",
]

if _typing.TYPE_CHECKING:
    from .api import (
        ApiError,
        Game,
        GameOver,
        IllegalMove,
        InvalidSeat,
        Move,
        OtherGame,
        State,
        UnknownAction,  # noqa: F401
        load_game,
        state_from_record,
    )
    from .players import agent  # noqa: F401


def __getattr__(name: str):
    if name == "agent":
        from .players import agent

        return agent
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'academie' has no attribute {name!r}")
