"""The players' playouts at a banking game (``stake`` steps): nobody names a new stake in them
(``State.playout(stakes=False)``, the players' default ``stakes="lie"``), so that a stake chosen
at the root is played out as it lies, not taken down or raised at random at the next card, and
the search finds the stake the unseen cards favour (docs/players.md, *Stakes in the playouts*)."""

from __future__ import annotations

import random

import academie
import academie.players  # noqa: F401  (registers mc and ismcts)

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _named(state: academie.State, name: str) -> int:
    (a,) = [a for a in state.legal_actions() if str(state.game.action_to_move(a)) == name]
    return a


def stacked_lansquenet() -> academie.State:
    """Lansquenet for two, the punter (seat 1) to name a stake: the banker's card a king (three
    kings unseen), the fives in the middle with two fives matched (one five unseen), a nine in
    the middle (three unseen). A stake on the five is won before it is lost three times in four
    (+2 for a stake of 4); on the nine, as often won as lost; on any other rank, taken back."""
    top = ["3H", "8H", "KS", "5C", "5D", "5H", "9C"]
    rest = [r + s for s in "SHDC" for r in RANKS if r + s not in top]
    random.Random(0).shuffle(rest)
    state = academie.load_game("lansquenet/eb11").new_state(players=2, seed=0, dealer=0, deck=top + rest)
    while sum(state.observation(1)["zones"][z]["count"] for z in ("table", "dead")) < 4:
        state.apply_action(_named(state, "pass"))
    zones = state.observation(1)["zones"]
    assert zones["table"]["cards"] == ["5C", "9C"] and zones["dead"]["cards"] == ["5D", "5H"]
    assert zones["own"]["cards"] == ["KS"] and state.current_player() == 1
    return state


def test_a_playout_that_names_no_stake_settles_only_the_stakes_that_lie():
    # Faro from its first decision, nothing staked: played out with no stake named, nobody wins
    # or loses anything; at random, stakes are named and settled
    state = academie.load_game("faro/hoyle").new_state(players=2, seed=4)
    assert state.decision_kind() == "stake"
    for j in range(5):
        assert state.clone().playout(random.Random(j), stakes=False) == [0, 0]
    assert any(state.clone().playout(random.Random(j)) != [0, 0] for j in range(5))
    # a stake of 4 on the five, then none: the hand settles that stake alone, won or lost (4), in
    # the worlds the punter cannot tell from the deal (the unseen cards in another order)
    s = stacked_lansquenet()
    s.apply_action(_named(s, "five"))
    s.apply_action(_named(s, "4"))
    outcomes = [tuple(s.resample(1, random.Random(j)).playout(random.Random(j), 1, stakes=False)) for j in range(40)]
    assert set(outcomes) == {(4, -4), (-4, 4)}
    assert 20 <= outcomes.count((-4, 4)) <= 38  # won three times in four


def test_a_game_without_stakes_plays_out_alike_either_way():
    state = academie.load_game("hearts/foster").new_state(players=4, seed=1)
    for j in range(3):
        assert state.clone().playout(random.Random(j), 1, stakes=False) == state.clone().playout(random.Random(j), 1)


def test_ismcts_stakes_on_the_rank_the_unseen_cards_favour():
    """At the stacked decision the five is the one stake worth making (+2 at 4 units; every other
    rank 0): ``ismcts`` at 100 iterations names it in most seeds, and then stakes 3 or 4 on it.
    With random stakes in its playouts (``stakes="random"``, the players' playouts before) the
    stake is taken down or changed at random a card or two later in each playout, its worth
    there is a fifth of +2, the random stakes' spread four times as large: it named the five in 1
    of 10 seeds at 50 iterations, none at 200, as a random choice of 14 would."""
    state = stacked_lansquenet()
    five = _named(state, "five")
    named = [academie.agent("ismcts", iterations=100, seed=s).choose(state) for s in range(6)]
    assert named.count(five) >= 4
    state.apply_action(five)
    most = {_named(state, "3"), _named(state, "4")}
    amounts = [academie.agent("ismcts", iterations=100, seed=s).choose(state) for s in range(6)]
    assert set(amounts) <= most  # a random choice of 0 to 4: 2 seeds in 5


def test_the_stakes_parameter_is_checked():
    import pytest

    with pytest.raises(ValueError, match="stakes is 'lie' or 'random'"):
        academie.agent("ismcts", stakes="some")
    assert academie.agent("mc", stakes="random").stakes == "random"
    assert academie.agent("ismcts").stakes == "lie"


def test_mc_compares_the_moves_on_the_same_cards():
    """``mc`` plays every legal move in each world it draws, with the same random play after it
    (common random numbers): a stake of 4 on the nine already lying (won or lost as often, ±4 a
    world) weighs the same on every move and cancels out, so the five (+2 at 4 units, as at the
    decision before) is told from the ranks that stake nothing at 28 iterations. Each move in a
    world of its own, as before, the nine's ±4 is drawn anew for each: it named the five in 6 of
    20 seeds (8 at 14 iterations), against 14 of 20 now."""
    state = stacked_lansquenet()
    state.apply_action(_named(state, "nine"))
    state.apply_action(_named(state, "4"))
    five = _named(state, "five")
    named = [academie.agent("mc", iterations=28, seed=s).choose(state) for s in range(20)]
    assert named.count(five) >= 11
