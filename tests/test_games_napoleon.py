"""Napoleon at St. Helena after Lady Cadogan (rules/napoleon/cadogan.yaml): two packs (pack:
copies: 2), forty cards face up in four rows of ten, eight foundations up in suit from the aces,
marriages down in suit, one card at a time, the stock turned once onto the talon. The chapter
prints no worked example: a stacked deal played out to a won game stands for one."""

from __future__ import annotations

import random

import academie
from academie.dsl.cards import parse_card
from academie.dsl.model import load_game
from academie.interpreter.state import State

SUITS = ["S", "S", "H", "H", "D", "D", "C", "C"]  # the eight foundations' suits, a copy each


def won_deck() -> list:
    """Columns 1-8: from the top row down, 4 3 2 A of one suit (each suit twice); columns 9, 10:
    the eight fives; the stock: the sixes to the kings, a rank at a time, each suit twice."""
    deck: list = [None] * 104
    for f, s in enumerate(SUITS):
        for row, r in enumerate(["4", "3", "2", "A"]):
            deck[10 * row + f] = parse_card(r + s)
    fives = [parse_card("5" + s) for s in SUITS]
    for row in range(4):
        deck[10 * row + 8], deck[10 * row + 9] = fives[2 * row], fives[2 * row + 1]
    rest = [parse_card(r + s) for r in ["6", "7", "8", "9", "10", "J", "Q", "K"] for s in SUITS]
    return deck[:40] + rest


def names(xs) -> list[str]:
    return [x.name if hasattr(x, "name") else x for x in xs]


def test_forty_cards_face_up_in_four_rows_of_ten_the_rest_the_stock():
    st = State(load_game("napoleon/cadogan"), 1, 0, deck=won_deck(), keep_events=True)
    z = st.zones
    assert len(st.pack_cards) == 104
    assert [len(z[f"tableau{i}"]) for i in range(1, 11)] == [4] * 10 and len(z["stock"]) == 64
    assert names(z["tableau1"]) == ["4S", "3S", "2S", "AS"]  # the top row first, the lowest last
    assert sum(1 for e in st.events if e["type"] == "turn") == 40  # every card of the rows face up
    # only the lowest row is available (Rule I): the eight aces, and a five onto nothing
    assert names(st.legal_moves()) == ["AS", "AH", "AD", "AC", "draw"]


def test_a_stacked_deal_is_played_out_to_a_won_game_both_aces_of_a_suit_founding():
    st = State(load_game("napoleon/cadogan"), 1, 0, deck=won_deck(), keep_events=True)
    z = st.zones
    st.apply("AS")  # two aces of spades available: which column's
    assert st.decision_kind() == "from" and names(st.legal_moves()) == ["tableau1", "tableau2"]
    st.apply("tableau2")
    assert st.decision_kind() == "place" and len(st.legal_moves()) == 8  # any empty foundation
    st.apply("foundation1")
    assert names(z["tableau2"]) == ["4S", "3S", "2S"] and names(z["tableau1"])[-1] == "AS"
    moves = 3
    while st.decision is not None:  # the rest: a card to a foundation whenever one can go, else turn the stock
        path = _to_foundation(st)
        for m in path or ["draw"]:
            st.apply(m)
        moves += 1
        assert moves < 200
    assert st.winner == 0 and sum(len(z[f"foundation{i}"]) for i in range(1, 9)) == 104
    assert all(names(z[f"foundation{i}"])[-1][0] == "K" for i in range(1, 9))
    assert st.vars["won"] is True and st.vars["founded"] == 104
    st.check_invariants()


def play(st, card: str, src: str | None = None, dst: str | None = None) -> None:
    """Move ``card``, naming the pile it leaves and where it goes when asked."""
    st.apply(card)
    if st.decision_kind() == "from":
        st.apply(src)
    if st.decision_kind() == "place":
        st.apply(dst)


def test_marriages_are_down_in_suit_one_card_at_a_time_and_a_vacancy_takes_any_card():
    st = State(load_game("napoleon/cadogan"), 1, 0, deck=won_deck())
    play(st, "AC", "tableau7", "foundation1")
    play(st, "2C", "tableau7", "foundation1")
    play(st, "3C", "tableau7", "foundation1")
    assert names(st.zones["tableau7"]) == ["4C"] and names(st.zones["tableau10"])[-1] == "5C"
    st.apply("4C")
    where = names(st.legal_moves()) if st.decision_kind() == "place" else []
    # onto either 5C (the two copies at the foot of columns 9 and 10: its suit, one higher) or its foundation
    assert where == ["foundation1", "tableau9", "tableau10"]
    st.apply("tableau10")
    play(st, "AS", "tableau1", "foundation2")
    play(st, "2S", "tableau1", "foundation2")
    play(st, "3S", "tableau1", "foundation2")
    assert names(st.zones["tableau1"]) == ["4S"] and "tableau9" not in _places(st, "4S")  # never on a 5 of clubs
    assert st.zones["tableau7"] == []  # a vacancy: any available card may fill it
    assert "tableau7" in _places(st, "AS")
    # a card with another below it is never available (Rule I): of the two 5C, the one under 4C stays
    c = st.copy()
    c.apply("5C")  # no choice of column: column 9's alone may move (into the vacancy)
    assert names(c.zones["tableau7"]) == ["5C"] and names(c.zones["tableau10"])[-2:] == ["5C", "4C"]
    assert len(c.zones["tableau9"]) == 3


def _founded(st) -> int:
    return sum(len(st.zones[f"foundation{i}"]) for i in range(1, 9))


def _to_foundation(st) -> list | None:
    """The decisions that put a card on a foundation now, or None."""
    for card in names(st.legal_moves()):
        if card == "draw":
            continue
        c = st.copy()
        c.apply(card)
        froms = names(c.legal_moves()) if c.decision_kind() == "from" else [None]
        for f in froms:
            d = c.copy()
            if f is not None:
                d.apply(f)
            path = [card] + ([f] if f else [])
            if d.decision_kind() == "place":
                found = [m for m in names(d.legal_moves()) if m.startswith("foundation")]
                if found:
                    return path + [found[0]]
            elif _founded(d) > _founded(st):
                return path
    return None


def _places(st, card: str) -> list:
    c = st.copy()
    c.apply(card)
    if c.decision_kind() == "from":
        c.apply(names(c.legal_moves())[0])
    return names(c.legal_moves()) if c.decision_kind() == "place" else []


def test_napoleon_plays_through_the_api_never_naming_the_stock():
    game = academie.load_game("napoleon/cadogan")
    for seed in range(3):
        st = game.new_state(players=1, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            obs = st.observation(0)
            assert obs["zones"]["stock"]["cards"] == []  # the next card is unknown
            assert obs["zones"]["stock"]["count"] == len(st.engine.zones["stock"])
            st.apply_action(rng.choice(st.legal_actions()))
        st.engine.check_invariants()
