"""``ismcts``'s ``root`` parameter: ``ucb`` (the default) plays exactly as before it existed;
``paired`` searches every root move once in each world drawn, with the same random play after it
(common random numbers, as ``mc``), so that what the world already settles weighs alike on every
move compared (docs/players.md, *How ismcts searches*)."""

from __future__ import annotations

import pytest

import academie
import academie.players  # noqa: F401  (registers mc and ismcts)
from test_players_stakes import _named, stacked_lansquenet


def _nine_staked() -> academie.State:
    """The stacked decision of tests/test_players_stakes.py with 4 already staked on the nine (won
    or lost as often: ±4 a world, whatever is named next); the five is still worth +2 at 4 units,
    every other rank 0."""
    state = stacked_lansquenet()
    state.apply_action(_named(state, "nine"))
    state.apply_action(_named(state, "4"))
    return state


def test_the_default_root_plays_as_before():
    """The moves ismcts chose for these seeds before ``root`` existed (taken from the code then)."""
    state = _nine_staked()
    before = [64, 65, 57, 59, 53, 57, 52, 55]
    for root in ({}, {"root": "ucb"}):
        assert [academie.agent("ismcts", iterations=28, seed=s, **root).choose(state) for s in range(8)] == before
    st = academie.load_game("hearts/foster").new_state(players=4, seed=3)
    p = academie.agent("ismcts", iterations=40, seed=7)
    moves = []
    for _ in range(12):
        a = p.choose(st)
        moves.append(a)
        st.apply_action(a)
    assert moves == [20, 18, 16, 13, 6, 9, 5, 2, 34, 38, 33, 26]


def test_a_paired_root_tells_the_favoured_stake_through_a_stake_already_lying():
    """At 28 iterations (two rounds of the 14 moves) ``root=paired`` named the five in 26 of 40
    seeds, ``ucb`` in 11 (each root move in a world of its own: the nine's ±4 drawn anew for each,
    twice the five's worth). With the pairing broken (a world and a seed drawn for each move, the
    rest as it is) ``paired`` named it in 14: a flat search of two worlds a move, the five lost in
    the nine's spread."""
    state = _nine_staked()
    five = _named(state, "five")

    def count(root: str) -> int:
        return sum(academie.agent("ismcts", iterations=28, seed=s, root=root).choose(state) == five for s in range(40))

    paired, ucb = count("paired"), count("ucb")
    assert paired >= 21 and paired >= ucb + 8, (paired, ucb)


def test_a_paired_root_is_repeatable_and_checked():
    state = _nine_staked()
    a = [academie.agent("ismcts", iterations=30, seed=s, root="paired").choose(state) for s in range(3)]
    assert a == [academie.agent("ismcts", iterations=30, seed=s, root="paired").choose(state) for s in range(3)]
    assert academie.agent("ismcts").root == "ucb"
    with pytest.raises(ValueError, match="root is 'ucb' or 'paired'"):
        academie.agent("ismcts", root="some")
