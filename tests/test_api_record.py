"""What the API keeps between calls so that a move costs little: the legal
action ids of a decision (worked out once, never stale after a clone or a
move), and the hand's public record (made only when someone asks for it:
the same observation, information state and worlds whenever it is asked)."""

from __future__ import annotations

import random

import pytest

import academie

GAMES = [
    ("hearts/foster", 4),
    ("emprunt/lacombe", 4),
    ("polignac/boussac+capot", 4),
    ("piquet/hoyle", 2),
    ("francion/terrail", 3),
    ("quadrille/hoyle", 4),
]


def advance(state: academie.State, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("ref, n", GAMES)
def test_legal_actions_follow_each_copy_not_the_original(ref, n):
    # a clone and its original, at the same decision and with its legal ids asked for, then
    # sent down different moves: each one's legal ids are those of its own game (as replayed)
    rng = random.Random(5)
    state = academie.load_game(ref).new_state(players=n, seed=11)
    checked = 0
    while not state.is_terminal() and checked < 12:
        acts = state.legal_actions()
        copy = state.clone()
        assert copy.legal_actions() == acts
        if len(acts) > 1:
            a, b = rng.sample(acts, 2)
            state.apply_action(a)
            copy.apply_action(b)
            for s in (state, copy):  # each one's own, as its engine (and its replay) gives them
                assert s.legal_actions() == [s.move_to_action(m) for m in s.clone_by_replay().legal_moves()]
                assert s.legal_actions() == [s.move_to_action(m) for m in s.legal_moves()]
                assert s.current_player() == s.clone_by_replay().current_player()
            checked += 1
        else:
            state.apply_action(acts[0])
        advance(state, rng, rng.randrange(4))
    assert checked


def test_the_legal_ids_returned_are_the_callers():
    state = academie.load_game("hearts/foster").new_state(players=4, seed=2)
    acts = state.legal_actions()
    acts.clear()  # the caller's list: the state's own is unchanged
    assert state.legal_actions() == [state.move_to_action(m) for m in state.legal_moves()]


@pytest.mark.parametrize("ref, n", GAMES)
def test_the_record_is_the_same_whenever_it_is_asked_for(ref, n):
    # one state is asked for every seat's view after every move; another, the same game, only
    # at the end (its record then made afresh); a clone of the second too: all see the same
    game = academie.load_game(ref)
    watched = game.new_state(players=n, seed=3)
    quiet = game.new_state(players=n, seed=3)
    rng = random.Random(3)
    views = []
    for _ in range(70):
        if watched.is_terminal():
            break
        views = [watched.information_state_string(s) for s in range(n)]
        a = rng.choice(watched.legal_actions())
        watched.apply_action(a)
        quiet.apply_action(a)
    copy = quiet.clone()
    for s in range(n):
        assert quiet.information_state_string(s) == watched.information_state_string(s)
        assert copy.information_state_string(s) == watched.information_state_string(s)
        assert quiet.observation(s) == watched.observation(s)
    assert views  # the views were asked for along the way
    # and the two go on alike, with their records kept from now on
    advance(watched, random.Random(4), 30)
    advance(quiet, random.Random(4), 30)
    assert [quiet.information_state_string(s) for s in range(n)] == [
        watched.information_state_string(s) for s in range(n)
    ]


def test_the_engine_asked_for_is_the_one_that_plays_on():
    # a referee keeps state.engine: the moves applied afterwards, and the views asked for, are its
    state = academie.load_game("hearts/foster").new_state(players=4, seed=8)
    advance(state, random.Random(8), 10)
    engine = state.engine
    advance(state, random.Random(9), 10)
    state.observation(0)
    assert state.engine is engine
    assert engine.plays == len(state.history) and engine.current_player() == state.current_player()


def test_worlds_drawn_from_a_state_never_asked_before():
    # resample on a state that kept no record yet: the worlds are those of a state that kept it
    game = academie.load_game("hearts/foster")
    quiet = game.new_state(players=4, seed=6)
    watched = game.new_state(players=4, seed=6)
    watched.observation(0)
    rng = random.Random(6)
    for _ in range(23):
        a = rng.choice(quiet.legal_actions())
        quiet.apply_action(a)
        watched.apply_action(a)
    seat = quiet.current_player()
    for k in range(5):
        w1, w2 = quiet.resample(seat, random.Random(k)), watched.resample(seat, random.Random(k))
        assert w1.information_state_string(seat) == watched.information_state_string(seat)
        assert [h[:] for h in w1.engine.hand] == [h[:] for h in w2.engine.hand]


def test_a_move_sent_by_its_id_is_checked():
    game = academie.load_game("hearts/foster")
    state = game.new_state(players=4, seed=1)
    seat = state.current_player()
    legal = set(state.legal_actions())
    other = next(game.move_to_action(c) for s, h in enumerate(state.engine.hand) if s != seat for c in h)
    with pytest.raises(academie.IllegalMove):
        state.apply_action(other)
    with pytest.raises(academie.UnknownAction):
        state.apply_action(True)  # an int, but no action id
    with pytest.raises(academie.UnknownAction):
        state.apply_action(len(game._moves))
    assert set(state.legal_actions()) == legal and not state.history
