"""A check that lapses on a raise (``lapse_on_raise:`` of ``kind: betting``), proven on stacked deals
of tests/concepts/lapsing.yaml: three players, one card each, a bet and a raise of one chip. Made for
Hoffmann's Straight Poker, *"Any player may "pass," and come in again, unless some other player has
raised in the meantime, in which case he is excluded."*"""

from pathlib import Path

import pytest

from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.state import State

HERE = Path(__file__).parent / "concepts"


def play(moves, hands=("2S", "3S", "4S")):
    st = State(load_game(str(HERE / "lapsing.yaml"), ()), 3, 0, dealer=2, deal={"hands": [[c] for c in hands]})
    for m in moves:
        assert m in st.legal_moves(), (m, st.legal_moves())
        st.apply(m)
    return st


def test_a_seat_that_passed_comes_in_again_to_a_bet():
    st = play(["pass", "bet", "call"])
    assert st.current_player() == 0 and st.legal_moves() == ["fold", "call", "raise"]
    st.apply("call")
    assert st.is_terminal() and [st.bal[s]["chip"] for s in range(3)] == [-2, -2, 4]  # seat 2 holds the four


def test_a_seat_that_passed_is_excluded_once_the_bet_was_raised_in_the_meantime():
    st = play(["pass", "bet", "raise"])
    assert st.current_player() == 0 and st.legal_moves() == ["fold"]  # excluded: he can only throw up
    st.apply("fold")
    assert st.current_player() == 1 and st.legal_moves() == ["fold", "call", "raise"]  # the bettor was not passing
    st.apply("call")
    assert st.is_terminal() and [st.bal[s]["chip"] for s in range(3)] == [-1, -3, 4]


def test_a_seat_that_came_in_again_is_not_excluded_by_the_raise_it_answers():
    # seats 0 and 1 pass, seat 2 bets; seat 0 comes in again with a raise; seat 1, who passed before
    # the bet, now faces a bet and a raise: excluded; seat 2, the bettor, answers the raise
    st = play(["pass", "pass", "bet"])
    assert st.current_player() == 0 and st.legal_moves() == ["fold", "call", "raise"]
    st.apply("raise")
    assert st.current_player() == 1 and st.legal_moves() == ["fold"]  # passed, then a bet and a raise
    st.apply("fold")
    assert st.current_player() == 2 and st.legal_moves() == ["fold", "call", "raise"]  # the bettor


def test_a_round_all_pass_stakes_nothing_and_has_no_showdown():
    st = play(["pass", "pass", "pass"])
    assert st.is_terminal() and st.bal["pot"]["chip"] == 3


def test_a_lapsing_check_needs_a_round_that_checks(tmp_path):
    text = (
        (HERE / "lapsing.yaml")
        .read_text()
        .replace("    lapse_on_raise: true\n", "    lapse_on_raise: true\n    check: false\n")
    )
    p = tmp_path / "nocheck.yaml"
    p.write_text(text)
    with pytest.raises(RuleError, match="no check to lapse"):
        load_game(str(p), ())


def test_a_seat_that_came_in_again_answers_a_later_raise():
    # seat 0 passed, then came in again with a raise: a raise made after that is answered like any
    # other (he is excluded only by a raise made between his pass and his coming in)
    st = play(["pass", "pass", "bet", "raise", "fold", "raise"])
    assert st.current_player() == 0 and st.legal_moves() == ["fold", "call"]  # the cap reached: no raise
    st.apply("call")
    assert st.is_terminal()


def test_a_seat_that_came_in_again_with_a_call_answers_a_later_raise():
    # seats 0 and 1 pass, seat 2 bets, seat 0 makes it good (in again), seat 1 raises (he passed
    # before the bet: no raise in the meantime); seat 2 makes good; seat 0 answers the raise made after
    # he came in
    st = play(["pass", "pass", "bet", "call", "raise", "call"])
    assert st.current_player() == 0 and st.legal_moves() == ["fold", "call", "raise"]
