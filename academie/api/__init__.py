"""The engine as a library: load a rule file, play it move by move, copy a
state, and see it as one seat may see it.

    import academie
    game = academie.load_game("hearts/foster")
    state = game.new_state(players=4, seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()

A ``Game`` is one compiled rule file (with its options). A ``State`` is one
game of it, built on the interpreter's state and driven one decision at a
time. Moves are the interpreter's own: a card (``academie.dsl.cards.Card``,
named ``"QS"``, ``"10H"``) or a declaration's name (``"pass"`` declines). Every
move has a stable action id: the cards of the game's full pack in canonical
order, then (in a game with declarations) ``pass`` and the declarations in the
order the rule file gives.

``clone()`` copies a state as it is, paused at its decision (the
interpreter's ``copy``: nothing is played again); ``clone_by_replay()`` (the
reference) and pickling rebuild a state from how the game was created (rule
file, options, players, seed, dealer, deck, deal) and every move applied
since. ``docs/api.md`` describes every call.

The modules, by what they do: ``errors`` (the exceptions of misuse), ``actions`` (moves and
their action ids), ``game`` (``Game``, ``load_game``), ``state`` (``State``: moves, the end,
copies), ``views`` (what a seat sees: the hand's public record, ``observation``),
``resampling`` and ``worlds`` (the worlds a seat cannot tell apart), ``records``
(``state_from_record``); ``parts`` declares what the parts of ``State`` share. Every public
name is imported from here.
"""

from __future__ import annotations

from ..dsl.cards import parse_card as parse_card
from ..dsl.loader import split_ref as split_ref
from .actions import PASS as PASS
from .actions import Move
from .errors import ApiError, GameOver, IllegalMove, InvalidSeat, OtherGame, UnknownAction
from .game import Game, load_game
from .game import _game_of_record as _game_of_record
from .records import state_from_record
from .state import State
from .state import follow_rule_of as follow_rule_of
from .worlds import _World as _World

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
    "load_game",
    "state_from_record",
]
# also read here (imported ``as`` themselves): ``follow_rule_of`` (the terminal), ``PASS``,
# ``parse_card`` and ``split_ref`` (benchmarks), ``_World`` (tests), ``_game_of_record`` (what a
# pickled ``Game`` of an earlier version names)
