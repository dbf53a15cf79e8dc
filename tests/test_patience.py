"""Patience (``kind: patience``): one player, piles with face-down cards, moves by build rules,
the stock drawn, won or lost; proven on tests/concepts/patience.yaml, and Lady Cadogan's
Klondike (rules/klondike/cadogan.yaml) played on stacked deals."""

from __future__ import annotations

import random
from pathlib import Path

import academie
from academie.dsl.cards import parse_card
from academie.dsl.model import load_game
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"


def concept():
    return load_game(str(CONCEPTS / "patience.yaml"))


def names(xs):
    return [x.name if hasattr(x, "name") else x for x in xs]


def cards(*xs):
    return [parse_card(x) for x in xs]


# top of the stock first: the first column 2S (up); the second AS (down) and 3H (up); the stock AH 2H 3S
SMALL = cards("2S", "AS", "3H", "AH", "2H", "3S")


def test_a_run_is_moved_whole_a_space_takes_the_top_rank_a_card_uncovered_turns_up_and_the_game_is_won():
    st = State(concept(), 1, 0, deck=SMALL, hands=1)
    z = st.zones
    assert names(z["tableau1"]) == ["2S"] and names(z["tableau2"]) == ["AS", "3H"]
    assert names(z["stock"]) == ["AH", "2H", "3S"]
    assert names(st.legal_moves()) == ["2S", "draw"]  # 2S onto 3H: black on red, one lower
    st.apply("2S")  # one place it may go: no second decision
    assert names(z["tableau2"]) == ["AS", "3H", "2S"] and z["tableau1"] == []
    assert names(st.legal_moves()) == ["3H", "draw"]  # the face-up cards of a column move together: 3H, not 2S
    st.apply("3H")  # into the space (a 3, the highest rank)
    assert names(z["tableau1"]) == ["3H", "2S"]
    assert [e for e in st.events if e["type"] == "show"][-1] == {"type": "show", "card": "AS", "zone": "tableau2"}
    assert "AS" in names(st.legal_moves())
    st.apply("AS")  # two empty foundations: the pile is a second decision
    assert st.decision_kind() == "place" and names(st.legal_moves()) == ["foundation1", "foundation2"]
    st.apply("foundation2")
    assert names(z["foundation2"]) == ["AS"]
    st.apply("2S")  # onto its ace
    st.apply("draw")
    assert names(z["waste"]) == ["AH"]
    st.apply("AH")  # the one empty foundation
    st.apply("draw")
    st.apply("2H")
    st.apply("3H")  # onto 2H, or into the space the ace left
    assert names(st.legal_moves()) == ["foundation1", "tableau2"]
    st.apply("foundation1")
    st.apply("draw")
    st.apply("3S")
    st.apply("foundation2")
    assert st.is_terminal() and st.winner == 0
    assert st.vars["won"] == 1 and st.standings[0]["score"] == 1


def test_no_move_left_loses():
    # 3S on top of the first column, the second AH (down) under 3H: no build, the stock drawn out
    deck = cards("3S", "AH", "3H", "2S", "2H", "AS")
    st = State(concept(), 1, 0, deck=deck, hands=1)
    moves = []
    while not st.is_terminal():
        m = st.legal_moves()
        moves.append(names(m))
        st.apply(m[0])
    assert st.winner is None and st.vars["won"] == 0


def test_a_move_that_brings_back_a_position_seen_is_not_offered():
    # two spaces and a king-like 3: sent to the other space and back would repeat the position
    deck = cards("3S", "AH", "2H", "AS", "3H", "2S")
    st = State(concept(), 1, 0, deck=deck, hands=1)
    # the first column 3S; the second AH (down), 2H (up): 2H onto 3S
    st.apply("2H")
    st.apply("AH")  # the ace turned up, to a foundation (two empty: which)
    st.apply("foundation1")
    assert st.zones["tableau2"] == []
    # 3S with 2H on it may go to the empty second column ...
    assert "3S" in names(st.legal_moves())
    st.apply("3S")
    assert names(st.zones["tableau2"]) == ["3S", "2H"]
    # ... but not back: that position was seen
    assert "3S" not in names(st.legal_moves())


def test_random_play_always_ends():
    game = academie.load_game(str(CONCEPTS / "patience.yaml"))
    for seed in range(30):
        st = game.new_state(players=1, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_moves()))
            n += 1
            assert n < 1000
