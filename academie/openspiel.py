"""Any rule file as an OpenSpiel game, built on the public API (``academie.api``) alone.

    import academie.openspiel, pyspiel
    name = academie.openspiel.register("hearts/foster", players=4)
    game = pyspiel.load_game(name)            # or pyspiel.load_game(name, {"seeds": 64})

``register(ref, players=None)`` registers the rule file ``ref`` (a corpus id, an id with
options, or a path, as ``academie.load_game``) for a fixed number of players (default: the
fewest the rules allow) as a Python game of OpenSpiel, and returns its short name.

Chance: the shuffles are inside academie's seeded state, so the game has ONE chance node, at
the start, choosing the seed among ``seeds`` equally likely outcomes (a game parameter, 16 by
default): outcome ``i`` is ``game.new_state(players, seed=i)``. Every later shuffle and cut
follows from that seed; after the chance node every node is a decision of a seat.

Actions are academie's stable action ids (the cards of the full pack, then ``pass`` and the
declarations); observation strings are ``observation(seat, earlier_hands=False)`` as JSON
(what the seat sees of the hand in progress) and information-state strings are
``information_state_string(seat)`` (everything the seat has seen since the start: perfect
recall). Returns are ``returns()`` as floats (each seat's final score; 0 each before the end).

The API gives no bound on a game's length or its scores, so ``register`` estimates them by
playing ``probes`` games with uniformly random moves (seeds 0 … probes-1): the longest game
seen, doubled, plus the chance node, is ``max_game_length``; the largest absolute return seen,
times four (at least 1), bounds the utility both ways. They are estimates, not proofs (a game of
many hands can run long, and some scores have a long tail: ``docs/api-openspiel.md``); pass
``max_game_length`` or ``utility`` to ``register`` to give known bounds instead.

``serialize()`` / ``pyspiel.deserialize_game_and_state`` are OpenSpiel's own for Python games:
a pickle. Unpickling data you did not make yourself runs code: keep ``state.inner.to_record()``
(plain data) and rebuild with ``academie.state_from_record`` instead (``docs/api.md``).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import numpy as np
import pyspiel

from .api import ApiError, Game, State, load_game

__all__ = ["register", "AcademieGame", "AcademieState"]

_SEEDS = 16
MAX_ACTIONS = 100_000  # action ids a game may have here (OpenSpiel lists them all in its masks)
_REGISTERED: dict[str, tuple[pyspiel.GameType, pyspiel.GameInfo, str]] = {}


def short_name(game: Game, players: int) -> str:
    """The OpenSpiel short name of ``game`` for ``players`` players: ``academie_hearts_foster_4p``."""
    ref = "+".join((game.id, *game.options))
    return "academie_" + re.sub(r"[^A-Za-z0-9]+", "_", ref).strip("_").lower() + f"_{players}p"


def _probe(game: Game, players: int, probes: int) -> tuple[int, float]:
    """The longest game and the largest absolute return of ``probes`` uniformly random games."""
    rng = random.Random(0)
    longest, largest = 0, 0.0
    for seed in range(probes):
        s = game.new_state(players, seed=seed)
        n = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        longest = max(longest, n)
        largest = max([largest, *(abs(float(r)) for r in s.returns())])
    return longest, largest


def register(
    ref: str,
    players: int | None = None,
    *,
    probes: int = 64,
    max_game_length: int | None = None,
    utility: tuple[float, float] | None = None,
) -> str:
    """Register rule file ``ref`` for ``players`` players as an OpenSpiel game; return its short
    name for ``pyspiel.load_game``. Registering the same game and players again returns the same name
    (and keeps the first registration's bounds)."""
    game = load_game(ref)
    n = game.players[0] if players is None else players
    name = short_name(game, n)
    if name in _REGISTERED:
        return name
    game.check_actions(MAX_ACTIONS, "the OpenSpiel adapter")  # a legal-action mask is made of every id
    game.new_state(n)  # a wrong number of players raises the API's InvalidSeat here
    if max_game_length is None or utility is None:
        longest, largest = _probe(game, n, probes)
        if max_game_length is None:
            max_game_length = 1 + 2 * longest
        if utility is None:
            bound = max(1.0, 4.0 * largest)
            utility = (-bound, bound)
    gtype = pyspiel.GameType(
        short_name=name,
        long_name=f"academie {game.title} ({'+'.join((game.id, *game.options))}), {n} players",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"seeds": _SEEDS},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=_SEEDS,
        num_players=n,
        min_utility=float(utility[0]),
        max_utility=float(utility[1]),
        utility_sum=None,
        max_game_length=int(max_game_length),
    )
    _REGISTERED[name] = (gtype, info, ref)
    pyspiel.register_game(gtype, _game_class(name))
    return name


def _game_class(name: str) -> type:
    """A subclass of ``AcademieGame`` bound to the registered ``name`` (OpenSpiel builds it
    with the parameters alone)."""
    return type(f"AcademieGame_{name}", (AcademieGame,), {"_name": name})


class AcademieGame(pyspiel.Game):
    """An academie rule file as an OpenSpiel game (made by ``register``)."""

    _name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        gtype, info, ref = _REGISTERED[self._name]
        params = dict(params or {})
        seeds = int(params.get("seeds", _SEEDS))
        if seeds < 1:
            raise ValueError(f"seeds must be at least 1, not {seeds}")
        if seeds != info.max_chance_outcomes:
            info = pyspiel.GameInfo(
                num_distinct_actions=info.num_distinct_actions,
                max_chance_outcomes=seeds,
                num_players=info.num_players,
                min_utility=info.min_utility,
                max_utility=info.max_utility,
                utility_sum=None,
                max_game_length=info.max_game_length,
            )
        super().__init__(gtype, info, params)
        self.seeds = seeds
        self.academie = load_game(ref)
        self.players = info.num_players

    def new_initial_state(self) -> "AcademieState":
        return AcademieState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "AcademieObserver":
        return AcademieObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class AcademieState(pyspiel.State):
    """One game: a chance node choosing the seed, then academie's ``State``."""

    def __init__(self, game: AcademieGame):
        super().__init__(game)
        self.inner: State | None = None  # academie's state, once the seed is chosen
        self.seed: int | None = None
        self._seeds = game.seeds
        self._academie = game.academie
        self._players = game.players

    def current_player(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        p = self.inner.current_player()
        assert p is not None
        return p

    def _legal_actions(self, player: int) -> list[int]:
        assert self.inner is not None and player >= 0
        return self.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.inner is None
        p = 1.0 / self._seeds
        return [(i, p) for i in range(self._seeds)]

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            if not 0 <= action < self._seeds:
                raise ValueError(f"chance outcome {action}: the seeds are 0 to {self._seeds - 1}")
            self.seed = int(action)
            self.inner = self._academie.new_state(self._players, seed=self.seed)
        else:
            self.inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self._academie.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_terminal()

    def returns(self) -> list[float]:
        if self.inner is None:
            return [0.0] * self._players
        return [float(r) for r in self.inner.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "AcademieState":
        """A state drawn from those ``player_id`` cannot tell from this one: the seeds whose game,
        with the same moves, gives the seat the same information state, one chosen by
        ``probability_sampler()`` (a number in [0, 1)). It tries every seed (``seeds`` games
        replayed); the seat's own first hand often singles the true seed out."""
        game = self.get_game()
        if self.inner is None:
            return game.new_initial_state()
        key = self.inner.information_state_string(player_id)
        actions = [self._academie.move_to_action(m) for m in self.inner.history]
        worlds = []
        for seed in range(self._seeds):
            if seed == self.seed:
                worlds.append(seed)
                continue
            # its information state is asked for: its record kept from the start, not made afterwards
            other = State(self._academie, self._players, seed, _record=True)
            try:
                for a in actions:
                    other.apply_action(a)
            except ApiError:  # a move this world does not allow: not consistent
                continue
            if other.information_state_string(player_id) == key:
                worlds.append(seed)
        seed = worlds[min(len(worlds) - 1, int(probability_sampler() * len(worlds)))]
        state = game.new_initial_state()
        state.apply_action(seed)
        for a in actions:
            state.apply_action(a)
        return state

    def __str__(self) -> str:
        if self.inner is None:
            return "(seed not chosen)"
        moves = " ".join(self._academie.action_to_string(self._academie.move_to_action(m)) for m in self.inner.history)
        return f"seed {self.seed}: {moves}"


class AcademieObserver:
    """Strings only (no tensors): the information state (perfect recall) or the observation."""

    def __init__(self, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: AcademieState, player: int) -> None:
        pass

    def string_from(self, state: AcademieState, player: int) -> str:
        if state.inner is None:
            return "start"  # the chance node: no seat has seen anything yet
        if self.perfect_recall:
            return state.inner.information_state_string(player)
        return json.dumps(state.inner.observation(player, earlier_hands=False), sort_keys=True, separators=(",", ":"))
