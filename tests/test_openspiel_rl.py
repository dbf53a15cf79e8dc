"""OpenSpiel's deep RL trains on a corpus game: the JAX DQN of OpenSpiel's Python package, on its RL
environment over an academie rule file (information-state tensors as input, the legal actions as
the mask, the deal by chance), as a user of OpenSpiel would set it up.

JAX starts threads when imported, and a process that forks after that may deadlock (JAX warns so):
the training runs in a fresh interpreter of its own, so the rest of the suite, which forks worker
processes, never shares a process with JAX. On CI these packages are installed by the test extra
(pyproject.toml), so the test runs there; on a machine without JAX it says it is skipped."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

TRAIN = r"""
import numpy as np
import pyspiel
import flax.nnx as nn
import jax
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent
from open_spiel.python.jax import dqn

from academie import openspiel as aos


def params(agent):
    leaves = jax.tree_util.tree_leaves(nn.state(agent._q_network, nn.Param))
    return np.concatenate([np.asarray(x).ravel() for x in leaves])


game = pyspiel.load_game(aos.register("ecarte/hoyle", 2))
env = rl_environment.Environment(game, seed=0)
size = env.observation_spec()["info_state"][0]
assert size == game.information_state_tensor_shape()[0] > 0, size
n = env.action_spec()["num_actions"]
agent = dqn.DQN(
    0,
    state_representation_size=size,
    num_actions=n,
    hidden_layers_sizes=[32],
    replay_buffer_capacity=2000,
    batch_size=16,
    learn_every=4,
    min_buffer_size_to_learn=64,
    epsilon_decay_duration=1000,
    allow_checkpointing=False,
    seed=0,
)
other = random_agent.RandomAgent(1, n)
np.random.seed(0)
before = params(agent)
decisions = 0
for _ in range(40):
    ts = env.reset()
    while not ts.last():
        seat = ts.observations["current_player"]
        if seat == 0:
            legal = ts.observations["legal_actions"][0]
            assert len(ts.observations["info_state"][0]) == size
            out = agent.step(ts)
            assert out.action in legal, (out.action, legal)
            decisions += 1
        else:
            out = other.step(ts)
        ts = env.step([out.action])
    agent.step(ts)
    assert len(ts.rewards) == 2
assert decisions >= 300, decisions
assert agent.loss is not None and np.isfinite(float(agent.loss)), agent.loss
assert not np.allclose(before, params(agent)), "no learning step changed the network"
print("trained", decisions)
"""


def test_openspiels_dqn_trains_on_ecarte_against_a_random_seat():
    """A few hundred decisions of Écarté, seat 0 a DQN learning, seat 1 uniform random: every action
    the learner takes is one the game allows (the environment refuses others), the network's input
    is the information-state tensor of the size the game declares, learning steps run with a finite
    loss and change the network's weights."""
    for name in ("pyspiel", "jax", "flax", "optax"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed (the test extra installs it)")
    r = subprocess.run([sys.executable, "-c", TRAIN], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.startswith("trained"), r.stdout
