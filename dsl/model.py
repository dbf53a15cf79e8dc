"""The model of a game: a resolved rule document compiled into a static ``GameDef``.

Everything the interpreter needs is prepared once: the pack for each number of players, the
orders as card -> strength tables, every expression as a closure. The interpreter never looks at
the YAML again.

The data classes are gamedef.py (``GameDef``, ``Step``, ``Effect``, ``Payment``, ``EndRule``, and
what is worked out from them alone); building and checking them from a document is build_game.py
(the sections and the checks of the whole game), build_steps.py (the steps of a hand) and
build_pieces.py (expressions, effects, payments). Their names are offered here.
"""

from __future__ import annotations

from .build_game import GameBuilder, compile_doc, load_game
from .gamedef import (
    BUILTIN_SEAT_ZONES,
    BUILTIN_ZONES,
    MAX_NUMBER,
    STEP_KINDS,
    Effect,
    EndRule,
    GameDef,
    PackContext,
    Payment,
    Step,
    deal_plan,
    team_table,
)

__all__ = [
    "BUILTIN_SEAT_ZONES",
    "BUILTIN_ZONES",
    "MAX_NUMBER",
    "STEP_KINDS",
    "Effect",
    "EndRule",
    "GameBuilder",
    "GameDef",
    "PackContext",
    "Payment",
    "Step",
    "compile_doc",
    "deal_plan",
    "load_game",
    "team_table",
]
