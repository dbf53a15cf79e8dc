"""The players that search (academie/players: ismcts, mc): through the public
API only, never peeking at a hidden card, seated from Python and from the
command line, the same seed giving the same game."""

from __future__ import annotations

import json
import random

import pytest

import academie
import academie.players  # noqa: F401  (registers mc and ismcts: the engine imports no player)
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State as Engine


def played(ref: str, n: int, seed: int, moves: int) -> academie.State:
    state = academie.load_game(ref).new_state(players=n, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:  # on to a real choice
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("name", ["ismcts", "mc"])
def test_a_player_chooses_a_legal_action_and_the_same_seed_the_same_one(name):
    state = played("hearts/foster", 4, 2, 9)
    assert len(state.legal_actions()) > 1
    a = academie.agent(name, iterations=60, seed=1).choose(state)
    assert a in state.legal_actions()
    assert academie.agent(name, iterations=60, seed=1).choose(state) == a
    assert state.history == played("hearts/foster", 4, 2, 9).history  # the state is not touched


@pytest.mark.parametrize(
    "ref, n, moves", [("hearts/foster", 4, 6), ("enfle/foster", 4, 9), ("francion/terrail", 3, 20)]
)
def test_a_player_never_sees_a_hidden_card(ref, n, moves):
    # two states the seat to move cannot tell apart (the true one and a world drawn for it, whose
    # other hands differ) get the same choice from the same player: its search reads nothing else
    state = played(ref, n, 3, moves)
    seat = state.current_player()
    world = state.resample(seat, random.Random(9))
    others = [s for s in range(n) if s != seat]
    assert any(world.engine.hand[s] != state.engine.hand[s] for s in others)
    for name in ("ismcts", "mc"):
        a = academie.agent(name, iterations=40, seed=5).choose(state)
        b = academie.agent(name, iterations=40, seed=5).choose(world)
        assert a == b


def test_one_legal_move_is_taken_without_search():
    state = academie.load_game("hearts/foster").new_state(players=4, seed=0)
    rng = random.Random(0)
    while len(state.legal_actions()) != 1:
        state.apply_action(rng.choice(state.legal_actions()))
    p = academie.agent("ismcts", iterations=10**7, seed=0)  # would take minutes if it searched
    assert p.choose(state) == state.legal_actions()[0]


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="no parameter 'iters'"):
        academie.agent("ismcts", iters=3)
    with pytest.raises(ValueError, match="at least 1"):
        academie.agent("mc", iterations=0)
    with pytest.raises(ValueError, match="more than 0"):
        academie.agent("ismcts", time=-1)
    with pytest.raises(ValueError, match="unknown player"):
        academie.agent("alphazero")
    with pytest.raises(ValueError, match="horizon"):
        academie.agent("ismcts", horizon="week")
    with pytest.raises(TypeError, match="public API"):
        academie.agent("ismcts").choose(Engine(academie.load_game("hearts/foster").gamedef, 4), 0, [])


def test_a_time_budget_stops_the_search():
    state = played("hearts/foster", 4, 2, 9)
    p = academie.agent("ismcts", time=0.05, iterations=10**6, seed=0)
    assert p.choose(state) in state.legal_actions()


def test_random_and_first_take_an_api_state():
    state = played("hearts/foster", 4, 2, 9)
    assert academie.agent("first").choose(state) == state.legal_actions()[0]
    assert academie.agent("random", seed=3).choose(state) in state.legal_actions()


def test_make_agents_seats_players_by_spec_and_play_drives_them():
    game = academie.load_game("polignac/boussac").gamedef
    agents = make_agents(["ismcts:iterations=20:c=1.0", "random", "mc:iterations=20", "first"], 4, 7)
    assert agents[0].iterations == 20 and agents[0].c == 1.0 and agents[2].name == "mc"
    st = play(Engine(game, 4, 7, keep_events=True), agents)
    assert st.is_terminal() and st.finished
    again = play(
        Engine(game, 4, 7, keep_events=True),
        make_agents(["ismcts:iterations=20:c=1.0", "random", "mc:iterations=20", "first"], 4, 7),
    )
    assert again.events == st.events  # the same seed, the same game


def test_ismcts_beats_random_at_hearts():
    # a small, fixed trial (the table in docs/players.md has the large ones): over 12 games of
    # hearts, ismcts at seat 0 among random players takes more points than the random seats' mean
    wins = []
    for seed in range(12):
        state = academie.load_game("hearts/foster").new_state(players=4, seed=seed)
        p = academie.agent("ismcts", iterations=60, seed=seed)
        r = academie.agent("random", seed=seed)
        while not state.is_terminal():
            state.apply_action((p if state.current_player() == 0 else r).choose(state))
        ret = state.returns()
        wins.append(ret[0] - sum(ret[1:]) / 3)
    assert sum(wins) / len(wins) > 0


def test_command_line_agents(run):
    args = (
        "play",
        "hearts/foster",
        "-p",
        "4",
        "-s",
        "3",
        "--agents",
        "ismcts:iterations=15,random,mc:iterations=15,random",
        "--json",
    )
    code, out, err = run(*args)
    assert code == 0, err
    first = json.loads(out)
    _, out2, _ = run(*args)
    assert json.loads(out2) == first
    for spec, message in [
        ("ismcts:iters=3,random,random,random", "no parameter 'iters'"),
        ("ismcts:iterations=0", "at least 1"),
        ("ismcts:300", "not a parameter"),
        ("random:seed=3", "takes no parameters"),
        ("uct", "unknown agent 'uct'"),
    ]:
        code, _, err = run("play", "hearts/foster", "-p", "4", "--agents", spec)
        assert code == 2 and message in err, (spec, err)


def test_simulate_with_players_is_the_same_for_any_workers(run):
    args = [
        "simulate",
        "hearts/foster",
        "-p",
        "4",
        "-n",
        "4",
        "-s",
        "1",
        "--agents",
        "ismcts:iterations=10,random,random,random",
        "--json",
    ]
    c1, one, e1 = run(*args, "--workers", "1")
    c2, two, e2 = run(*args, "--workers", "2", "--chunk", "1")
    assert c1 == 0 and c2 == 0, e1 + e2
    a, b = json.loads(one), json.loads(two)
    a.pop("seconds", None), b.pop("seconds", None)
    assert a == b


def test_playout_and_scores():
    # scores(): the standings' scores now; at the end, returns(). playout(rng, 1) stops at the end
    # of the hand in progress; playout(rng) plays the game out, as random moves through the API would
    state = academie.load_game("polignac/boussac").new_state(players=4, seed=3)
    start = state.scores()
    assert len(set(start)) == 1  # all alike before any card is played
    a = state.clone()
    scores = a.playout(random.Random(1), 1)
    assert a.is_terminal() and a.engine.hand_no == 1 and a.engine.truncated
    assert scores == a.returns()
    b = state.clone()
    final = b.playout(random.Random(1))
    assert b.engine.finished and not b.engine.truncated and final == b.returns()
    assert b.engine.hand_no > 1
    c = state.clone()
    rng = random.Random(2)
    while c.hand_no == 1:
        c.apply_action(rng.choice(c.legal_actions()))
    assert c.scores() != start  # a hand's result shows before the end
