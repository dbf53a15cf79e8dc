"""Straddles (``straddle:`` of ``kind: betting``) and openers (``open:``), proven on stacked deals of
tests/concepts/straddle.yaml (four players, a blind of one chip, straddles up to eight) and
tests/concepts/openers.yaml (three players, a round opened only with a pair, the pot carried over a
deal no one opens)."""

from pathlib import Path

import academie
from academie.dsl.model import load_game
from academie.interpreter.state import State

HERE = Path(__file__).parent / "concepts"


def straddle(hands, moves):
    st = State(load_game(str(HERE / "straddle.yaml"), ()), 4, 0, dealer=0, deal={"hands": [[c] for c in hands]})
    for m in moves:
        assert m in st.legal_moves(), (m, st.legal_moves())
        st.apply(m)
    return st


def test_each_straddle_doubles_the_highest_stake_up_to_the_limit_and_the_last_straddler_speaks_last():
    st = straddle(["2S", "3S", "4S", "5S"], [])
    assert st.current_player() == 2 and st.legal_moves() == ["straddle", "decline"]
    st = straddle(["2S", "3S", "4S", "5S"], ["straddle", "straddle", "straddle"])
    assert [st.pvars["staked"][s] for s in range(4)] == [8, 1, 2, 4]  # 1 doubled to 2, 4, 8
    # a fourth would pass the limit of eight: no more straddles; the round begins after the last
    # straddler (seat 0), who speaks last
    assert st.current_player() == 1 and st.legal_moves() == ["fold", "call"]
    for m in ("call", "call", "call"):
        st.apply(m)
    assert st.current_player() == 0 and st.legal_moves() == ["check"]
    st.apply("check")
    assert st.is_terminal()
    assert [st.bal[s]["chip"] for s in range(4)] == [-8, -8, -8, 24]  # seat 3 holds the five


def test_a_seat_that_declines_ends_the_straddles():
    st = straddle(["2S", "3S", "4S", "5S"], ["straddle", "decline"])
    assert [st.pvars["staked"][s] for s in range(4)] == [0, 1, 2, 0]
    # seat 0 is not offered a straddle: the round begins with the one who declined
    assert st.current_player() == 3 and st.legal_moves() == ["fold", "call"]
    moves = [(e["seat"], e["move"], e["amount"]) for e in st.events if e["type"] == "bet"]
    assert moves == [(2, "straddle", 2), (3, "decline", 0)]


def test_without_a_straddle_the_round_begins_at_its_first():
    st = straddle(["2S", "3S", "4S", "5S"], ["decline"])
    assert st.current_player() == 2 and st.legal_moves() == ["fold", "call"]
    for m in ("call", "call", "call"):
        st.apply(m)
    assert st.current_player() == 1 and st.legal_moves() == ["check"]  # the blind, as every seat, acts once


def openers(hands, moves):
    st = State(load_game(str(HERE / "openers.yaml"), ()), 3, 0, dealer=0, deal={"hands": hands})
    for m in moves:
        assert m in st.legal_moves(), (m, st.legal_moves())
        st.apply(m)
    return st


PAIR = [["9S", "KH"], ["QS", "QH"], ["AS", "10H"]]  # seat 1 alone holds a pair


def test_only_a_seat_holding_openers_may_open_and_none_is_bound_to():
    st = openers(PAIR, [])
    assert st.current_player() == 1 and st.legal_moves() == ["check", "bet"]
    st.apply("check")
    assert st.current_player() == 2 and st.legal_moves() == ["check"]
    st.apply("check")
    assert st.current_player() == 0 and st.legal_moves() == ["check"]


def test_an_opener_no_one_calls_shows_his_hand_and_takes_the_pot():
    st = openers(PAIR, ["bet", "fold", "fold"])
    shows = [e for e in st.events if e["type"] == "show"]
    assert [(e["seat"], sorted(e["cards"])) for e in shows] == [(1, ["QH", "QS"])]
    assert [(e["to"], e["amount"]) for e in st.events if e["type"] == "pay" and e["from"] == "pot"] == [(1, 4)]
    # once shown, his cards are known to every seat
    api = academie.load_game(str(HERE / "openers.yaml")).new_state(players=3, seed=0, dealer=0, deal={"hands": PAIR})
    api.apply("bet")
    assert "QS" not in str(api.observation(0))  # not before
    api.apply("fold")
    api.apply("fold")
    for seat in (0, 2):
        shown = [e for e in api.observation(seat)["earlier_hands"][0] if e["type"] == "show"]
        assert [sorted(e["cards"]) for e in shown] == [["QH", "QS"]]


def test_a_player_who_calls_the_opener_is_shown_the_hands_at_the_showdown():
    st = openers(PAIR, ["bet", "call", "fold"])
    shows = [e["seat"] for e in st.events if e["type"] == "show"]
    assert shows == [1, 2]  # the showdown's, once: the opener's hand is not shown twice
    assert [(e["to"], e["amount"]) for e in st.events if e["type"] == "pay" and e["from"] == "pot"] == [(1, 5)]


def test_a_pot_no_one_opens_lies_for_the_next_deal_each_anteing_again():
    st = openers(PAIR, ["check", "check", "check"])
    assert not [e for e in st.events if e["type"] == "show"]
    assert st.hand_no == 2 and st.bal["pot"]["chip"] == 6  # three chips carried, three more


def test_what_the_others_see_of_a_check_does_not_say_whether_the_seat_could_open():
    game = academie.load_game(str(HERE / "openers.yaml"))
    seen = []
    for hands in (PAIR, [["9S", "KH"], ["QS", "JH"], ["AS", "10H"]]):
        st = game.new_state(players=3, seed=0, dealer=0, deal={"hands": hands})
        st.apply("check")
        seen.append([e for e in st.observation(0)["events"] if e["type"] == "bet"])
    assert seen[0] == seen[1] and seen[0]
