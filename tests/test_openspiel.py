"""academie.openspiel: rule files registered as OpenSpiel games, loaded with pyspiel.load_game,
played at random, checked by OpenSpiel's own random simulation test, and played by its bots
(uniform random, MCTS, IS-MCTS)."""

import json
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import academie  # noqa: E402
from academie import openspiel as aos  # noqa: E402
from academie.dsl.loader import corpus_ids, resolve  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

PLAYABLE = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]


def _variants():
    for cid in PLAYABLE:
        yield cid
        for opt in resolve(cid).data.get("options") or {}:
            yield f"{cid}+{opt}"


def play_random(state, rng):
    """Play ``state`` to its end with uniformly random moves (chance by its odds); the length."""
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            p = state.current_player()
            legal = state.legal_actions()
            assert legal and legal == state.legal_actions(p)
            assert state.information_state_string(p) == state.information_state_string()
            state.apply_action(int(rng.choice(legal)))
        n += 1
    return n


@pytest.mark.parametrize("ref", list(_variants()))
def test_every_game_loads_and_plays_through_pyspiel(ref):
    game = academie.load_game(ref)
    lo, hi = game.players
    for players in sorted({lo, hi}):
        name = aos.register(ref, players)
        assert aos.register(ref, players) == name  # registering again: the same name
        g = pyspiel.load_game(name)
        t = g.get_type()
        assert t.short_name == name
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert g.num_players() == players
        assert g.num_distinct_actions() == game.num_distinct_actions()
        rng = np.random.RandomState(players)
        for _ in range(2):
            s = g.new_initial_state()
            assert s.is_chance_node() and len(s.chance_outcomes()) == 16
            n = play_random(s, rng)
            assert n <= g.max_game_length()
            r = s.returns()
            assert len(r) == players
            assert all(g.min_utility() <= x <= g.max_utility() for x in r)


@pytest.mark.parametrize(
    "ref,players",
    [
        ("hearts/foster", 4),
        ("enfle/academie", 4),
        ("polignac/boussac+capot", 5),
        ("francion/terrail", 3),
        ("emprunt/lacombe", 3),
    ],
)
def test_openspiels_random_simulation_test(ref, players):
    g = pyspiel.load_game(aos.register(ref, players))
    pyspiel.random_sim_test(g, num_sims=3, serialize=True, verbose=False)


def test_the_chance_outcome_is_the_seed_and_the_strings_are_the_apis():
    game = academie.load_game("hearts/foster")
    g = pyspiel.load_game(aos.register("hearts/foster", 4))
    s = g.new_initial_state()
    assert s.information_state_string(0) == s.information_state_string(1) == "start"
    s.apply_action(7)
    ref = game.new_state(4, seed=7)
    for _ in range(5):
        a = s.legal_actions()[-1]
        assert s.action_to_string(s.current_player(), a) == game.action_to_string(a)
        s.apply_action(a)
        ref.apply_action(a)
    for seat in range(4):
        assert s.information_state_string(seat) == ref.information_state_string(seat)
        assert json.loads(s.observation_string(seat)) == ref.observation(seat, earlier_hands=False)
    assert s.information_state_string(0) != s.information_state_string(1)
    assert s.current_player() == ref.current_player()
    assert s.legal_actions() == ref.legal_actions()


def test_clone_serialize_and_the_seeds_parameter():
    name = aos.register("enfle/academie", 4)
    g = pyspiel.load_game(name, {"seeds": 3})
    assert g.max_chance_outcomes() == 3
    s = g.new_initial_state()
    assert [o for o, _ in s.chance_outcomes()] == [0, 1, 2]
    s.apply_action(2)
    for _ in range(10):
        s.apply_action(s.legal_actions()[0])
    c = s.clone()
    before = s.history()
    c.apply_action(c.legal_actions()[0])
    assert s.history() == before and c.history() == before + [c.history()[-1]]
    d = g.deserialize_state(s.serialize())
    assert d.history() == s.history()
    assert d.information_state_string(1) == s.information_state_string(1)
    assert pickle.loads(pickle.dumps(s)).history() == s.history()


def test_a_wrong_number_of_players_is_refused():
    with pytest.raises(academie.InvalidSeat):
        aos.register("hearts/foster", 9)


def test_uniform_random_bots_through_evaluate_bots():
    g = pyspiel.load_game(aos.register("polignac/boussac", 4))
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(4)]
    rng = np.random.RandomState(3)
    for _ in range(3):
        r = evaluate_bots.evaluate_bots(g.new_initial_state(), bots, rng)
        assert len(r) == 4 and all(g.min_utility() <= x <= g.max_utility() for x in r)


def _midgame(g, seed, moves):
    s = g.new_initial_state()
    s.apply_action(seed)
    for _ in range(moves):
        s.apply_action(s.legal_actions()[0])
    return s


def test_resampling_keeps_the_seats_information_state():
    g = pyspiel.load_game(aos.register("hearts/foster", 4))
    s = _midgame(g, 5, 6)
    p = s.current_player()
    for _ in range(3):
        r = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.history()[1:] == s.history()[1:]


def test_mcts_and_ismcts_play_a_few_moves():
    g = pyspiel.load_game(aos.register("hearts/foster", 4))
    ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = {
        "mcts": mcts.MCTSBot(g, 2.0, 8, ev, random_state=np.random.RandomState(1), solve=False),
        "ismcts": ismcts.ISMCTSBot(g, ev, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(2)),
    }
    for bot in bots.values():
        s = _midgame(g, 3, 4)
        for _ in range(3):
            a = bot.step(s)
            assert a in s.legal_actions()
            s.apply_action(a)
