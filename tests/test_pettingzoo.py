"""The PettingZoo adapter (academie/pettingzoo.py): PettingZoo's own API and seed tests on every
corpus game and option at its fewest players, random masked playouts to the end, the encoding."""

import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # in the test extra: never skipped

import academie
from academie.dsl.loader import corpus_ids, resolve
from academie.pettingzoo import AcademieEnv, env, raw_env

PLAYABLE = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]
VARIANTS = PLAYABLE + [f"{cid}+{opt}" for cid in PLAYABLE for opt in resolve(cid).data.get("options") or {}]

# PettingZoo's checker recommends a Box observation; a Dict with an action mask is what its own
# card games use, and it warns about it for every environment not on its own list.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def _unexpected(caught):
    return [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]


def playout(e, rng):
    """Random legal actions (from the mask) until every agent is done: (steps, rewards summed)."""
    steps, total = 0, {agent: 0.0 for agent in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0, "a live agent with no legal action"
            action = int(rng.choice(legal))
            steps += 1
        e.step(action)
    return steps, total


@pytest.mark.parametrize("ref", VARIANTS)
def test_api_test(ref):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(ref), num_cycles=1000)  # enough cycles to play every corpus game to its end
    assert _unexpected(caught) == []


@pytest.mark.parametrize("ref", VARIANTS)
def test_seed_test(ref):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_test(lambda: env(ref), num_cycles=1000)
    assert _unexpected(caught) == []


@pytest.mark.parametrize("ref", VARIANTS)
def test_random_playout_reaches_the_end(ref):
    game = academie.load_game(ref)
    e = env(ref, seed=5)
    e.reset()
    steps, total = playout(e, np.random.default_rng(0))
    assert steps > 0
    assert e.agents == []
    inner: AcademieEnv = e.unwrapped
    state = inner.game_state
    assert state is not None and state.is_terminal()
    # the same game through the API alone: the same seed and moves give the same returns
    replay = game.new_state(players=game.players[0], seed=5)
    for move in state.history:
        replay.apply(move)
    assert replay.returns() == state.returns()
    returns = [float(r) for r in state.returns()]
    mean = sum(returns) / len(returns)
    assert total == pytest.approx({f"player_{i}": r - mean for i, r in enumerate(returns)})


def test_rewards_as_scores_and_more_players():
    e = env("hearts/foster", players=5, seed=2, rewards="scores")
    e.reset()
    assert e.possible_agents == [f"player_{i}" for i in range(5)]
    _, total = playout(e, np.random.default_rng(1))
    returns = e.unwrapped.game_state.returns()
    assert total == {f"player_{i}": float(r) for i, r in enumerate(returns)}


def test_spaces_and_encoding():
    game = academie.load_game("polignac/boussac+capot")
    e = raw_env(game, seed=11)
    e.reset()
    assert e.action_space("player_0").n == game.num_distinct_actions() == 34
    space = e.observation_space("player_0")
    enc = e.encoder
    assert space["observation"].shape == (enc.size,)
    for agent in e.agents:
        seat = e.agent_name_mapping[agent]
        obs = e.observe(agent)
        view = e.game_state.observation(seat)
        vec = obs["observation"]
        hand = [game.action_to_string(int(a)) for a in np.flatnonzero(vec[enc.layout["hand"]])]
        assert hand == view["hand"]  # own hand only, in canonical (action id) order
        mask = obs["action_mask"]
        if e.game_state.current_player() == seat:
            assert list(np.flatnonzero(mask)) == e.game_state.legal_actions()
            assert vec[enc.layout["current"]][0] == 1
        else:
            assert not mask.any()
        # hand sizes, relative to the observing seat
        sizes = vec[enc.layout["hand_sizes"]].tolist()
        assert sizes == [view["hand_sizes"][(seat + i) % e.num_players] for i in range(e.num_players)]


def test_observation_never_shows_another_hand():
    e = raw_env("hearts/foster", seed=4)
    e.reset()
    rng = np.random.default_rng(3)
    enc = e.encoder
    while e.agents and not any(e.terminations.values()):
        state = e.game_state
        for seat, agent in enumerate(e.possible_agents):
            vec = e.observe(agent)["observation"]
            for other in range(e.num_players):
                if other == seat:
                    continue
                theirs = set(state.observation(other)["hand"])
                shown = {
                    game_card
                    for game_card in theirs
                    if vec[enc.layout["hand"]][state.move_to_action(game_card)]
                    or vec[enc.layout["trick"]][state.move_to_action(game_card)]
                    or vec[enc.layout["seen"]][state.move_to_action(game_card)]
                }
                assert not shown, (seat, other, shown)
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))


def test_illegal_action_raises_and_changes_nothing():
    e = env("hearts/foster", seed=1)
    e.reset()
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.unwrapped.game_state.history[:]
    with pytest.raises(academie.IllegalMove):
        e.step(illegal)
    assert e.unwrapped.game_state.history == before


def test_reset_seeds():
    a, b = raw_env("enfle/academie", seed=9), raw_env("enfle/academie", seed=9)
    a.reset()
    b.reset()
    assert a.game_state == b.game_state
    a.reset(seed=3)
    b.reset(seed=3)
    assert a.game_state == b.game_state
    a.reset()  # a new game, its seed drawn from a generator seeded by the last seed given
    b.reset()
    assert a.game_seed != 3 and a.game_seed == b.game_seed and a.game_state == b.game_state
    assert pickle.loads(pickle.dumps(a.game_state)) == a.game_state


def test_render_and_close():
    e = env("francion/terrail", seed=1, render_mode="ansi")
    e.reset()
    text = e.render()
    assert isinstance(text, str) and "francion/terrail" in text and "player_0" in text
    assert raw_env("hearts/foster").render() is None  # no render_mode: nothing drawn
    e.close()
    with pytest.raises(ValueError):
        raw_env("hearts/foster", render_mode="rgb_array")


CONCEPTS = sorted(
    str(f) for f in (Path(__file__).parent / "concepts").glob("*.yaml") if not resolve(str(f)).data.get("abstract")
)


@pytest.mark.parametrize("ref", PLAYABLE + CONCEPTS)
def test_api_test_most_players_and_concept_files(ref):
    most = academie.load_game(ref).players[1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(ref, players=most), num_cycles=1000)
        seed_test(lambda: env(ref, players=most), num_cycles=1000)
    assert _unexpected(caught) == []
