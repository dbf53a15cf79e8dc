"""PettingZoo AEC environments for any rule file, built on the public API (`academie.api`).

`env(ref, players=None, seed=None, render_mode=None)` gives a `pettingzoo.AECEnv` (wrapped in
PettingZoo's order-enforcing and out-of-bounds wrappers) whose agents `player_0 …` are the seats.
An action is an action id of the game (`Discrete(game.num_distinct_actions())`); an observation is
`{"observation": float32 vector, "action_mask": int8 vector}`. The vector is made from
`State.observation(seat)` alone (what that seat may know); its layout is `ObservationEncoder`'s,
described in docs/api-pettingzoo.md. Rewards come once, at the end of the game, from `returns()`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .api import Game, State, load_game
from .encoding import ObservationEncoder as _Encoder

__all__ = ["AcademieEnv", "ObservationEncoder", "env", "raw_env"]

REWARDS = ("centered", "scores")
RENDER_MODES = ("human", "ansi")
MAX_ACTIONS = 100_000  # action ids a game may have here (each has its place in the action mask)


class ObservationEncoder(_Encoder):
    """``academie.encoding.ObservationEncoder`` (its layout is described there and in
    docs/api.md), with its gymnasium space."""

    def space(self) -> spaces.Box:
        return spaces.Box(low=self.low, high=self.high, dtype=np.float32)


class AcademieEnv(AECEnv):
    """One game of a rule file as a PettingZoo AEC environment (unwrapped; `env()` wraps it)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "academie_v0", "is_parallelizable": False}

    def __init__(
        self,
        ref: str | Game,
        players: int | None = None,
        seed: int | str | None = None,
        render_mode: str | None = None,
        rewards: str = "centered",
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {render_mode!r}")
        if rewards not in REWARDS:
            raise ValueError(f"rewards must be one of {REWARDS}, not {rewards!r}")
        self.game: Game = load_game(ref) if isinstance(ref, str) else ref
        self.num_players: int = players if players is not None else self.game.players[0]
        self.default_seed = seed
        self.render_mode = render_mode
        self.reward_kind = rewards
        self.encoder = ObservationEncoder(self.game, self.num_players)
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agent_name_mapping = {agent: i for i, agent in enumerate(self.possible_agents)}
        n = self.game.num_distinct_actions()
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": self.encoder.space(),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._rng = random.Random(seed)
        self.game_state: State | None = None
        self.game_seed: int | str | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            game_seed: int | str = seed
            self._rng = random.Random(seed)  # later resets without a seed follow from this one
        elif self.default_seed is not None and self.game_state is None:
            game_seed = self.default_seed
        else:
            game_seed = self._rng.randrange(2**31)
        self.game_seed = game_seed
        self.game_state = self.game.new_state(players=self.num_players, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._update_selection()
        if self.game_state.is_terminal():  # a game over before its first decision
            self._finish()

    def _update_selection(self) -> None:
        assert self.game_state is not None
        seat = self.game_state.current_player()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def _finish(self) -> None:
        assert self.game_state is not None
        returns = [float(r) for r in self.game_state.returns()]
        if self.reward_kind == "centered":
            mean = sum(returns) / len(returns)
            returns = [r - mean for r in returns]
        for agent in self.agents:
            self.rewards[agent] = returns[self.agent_name_mapping[agent]]
            self.terminations[agent] = True
            self.infos[agent] = {"returns": list(self.game_state.returns()), "standings": self.game_state.standings()}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game_state is not None, "reset() before observe()"
        seat = self.agent_name_mapping[agent]
        obs = self.game_state.observation(seat, earlier_hands=False)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.game_state.current_player() == seat:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.encoder.encode(obs), "action_mask": mask}

    def step(self, action: int | None) -> None:
        assert self.game_state is not None, "reset() before step()"
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None, "a live agent must act"
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.game_state.apply_action(int(action))
        if self.game_state.is_terminal():
            self._finish()
        self._update_selection()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_text(self) -> str:
        """The table as text: the game, each hand, the shared zones, the scores."""
        if self.game_state is None:
            return f"{self.game.id}: not started (reset() first)"
        state = self.game_state
        lines = [
            f"{self.game.id} ({self.num_players} players, seed {self.game_seed}), moves made: {len(state.history)}"
        ]
        for seat in range(self.num_players):
            obs = state.observation(seat, earlier_hands=False)
            mark = "*" if state.current_player() == seat else " "
            score = sum(obs["balances"].get(str(seat), {}).values())
            lines.append(f"{mark} player_{seat} score {score}: {' '.join(obs['hand'])}")
        obs0 = state.observation(0, earlier_hands=False)
        for name, zone in sorted(obs0["zones"].items()):
            lines.append(f"  {name} ({zone['count']}): {' '.join(zone['cards'])}")
        if state.is_terminal():
            lines.append(f"  over: returns {state.returns()}")
        elif state.current_player() is not None:
            moves = [state.action_to_string(a) for a in state.legal_actions()]
            lines.append(f"  player_{state.current_player()} to {state.decision_kind()}: {' '.join(moves)}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def raw_env(
    ref: str | Game,
    players: int | None = None,
    seed: int | str | None = None,
    render_mode: str | None = None,
    rewards: str = "centered",
) -> AcademieEnv:
    """The environment without PettingZoo's wrappers."""
    return AcademieEnv(ref, players=players, seed=seed, render_mode=render_mode, rewards=rewards)


def env(
    ref: str | Game,
    players: int | None = None,
    seed: int | str | None = None,
    render_mode: str | None = None,
    rewards: str = "centered",
) -> AECEnv:
    """An AEC environment for the rule file `ref` (a corpus id, id+options, or a path).

    `players` defaults to the fewest the rules allow; `seed` is the first game's seed when
    `reset()` is called without one (later resets without a seed draw one from a generator seeded
    with it, or with the last seed given to `reset`); `rewards` is
    `"centered"` (each final score minus the mean of the table's) or `"scores"` (`returns()`).
    An illegal action id raises `academie.IllegalMove`, and changes nothing.
    """
    e: AECEnv = raw_env(ref, players=players, seed=seed, render_mode=render_mode, rewards=rewards)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
