"""Whiskey Poker and note 39 as Hoffmann gives them (rules/poker/hoffmann.yaml's options whiskey and
higher-openers, hoffmann-1909-poker), played on stacked deals and seeded games."""

import random

import pytest

import academie
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.state import State

PASS, TAKE, KNOCK, EXCHANGE = 0, 1, 2, 3
# A (seat 0) deals; B (seat 1) is the elder hand; C is seat 2.
HANDS = [
    ["2C", "7D", "6S", "9C", "4C"],  # A: nothing
    ["AH", "QD", "3D", "QC", "5S"],  # B: a pair of queens
    ["AC", "3S", "4S", "9H", "2D"],  # C: nothing
]
WIDOW = ["KS", "KH", "KD", "7C", "7H"]  # a full of kings


def whiskey():
    g = load_game("poker/hoffmann", ("whiskey",))
    used = set(sum(HANDS, []) + WIDOW)
    rest = [c.name for c in g.pack(3) if c.name not in used]
    return State(g, 3, 0, dealer=0, deal={"hands": HANDS, "stock": WIDOW + rest}, hands=1)


def names(cards):
    return sorted(c.name if hasattr(c, "name") else c for c in cards)


def shown(st):
    return [sorted(e["cards"]) for e in st.events if e["type"] == "show" and "seat" not in e]


def test_whiskey_each_antes_and_there_is_no_betting():
    st = whiskey()
    # "Each player puts in the pool an agreed amount by way of ante."
    assert [st.bal[s]["chip"] for s in range(3)] == [-1, -1, -1] and st.bal["pool"]["chip"] == 3
    # "The elder hand may either play his own hand, pass, or take the widow." (or knock: see below)
    assert st.current_player() == 1 and st.legal_moves() == [PASS, TAKE, KNOCK]
    assert names(st.zones["widow"]) == names(WIDOW) and shown(st) == []  # the widow lies unseen


def test_whiskey_the_widow_taken_exchanges_round_the_table_and_a_knock():
    st = whiskey()
    st.apply(TAKE)
    # "He takes the spare hand, and lays his own on the table face upwards."
    assert names(st.hand[1]) == names(WIDOW)
    assert names(st.zones["widow"]) == names(HANDS[1]) and shown(st) == [names(HANDS[1])]
    # "The next in order is entitled to take in either of the exposed cards, discarding in its
    # place one of his own, which is added to the remaining four on the table."
    assert st.current_player() == 2 and st.legal_moves() == [KNOCK, EXCHANGE]
    st.apply(EXCHANGE)
    assert names(st.legal_moves()) == names(HANDS[1])
    st.apply("QC")
    st.apply("2D")
    assert names(st.zones["widow"]) == names(["AH", "QD", "3D", "5S", "2D"])
    assert shown(st)[-1] == names(["AH", "QD", "3D", "5S", "2D"])  # the card laid out, seen by all
    # "The next player has a like choice, and so on round and round"
    assert st.current_player() == 0
    st.apply(EXCHANGE)
    st.apply("QD")
    st.apply("2C")
    # "till some player is content with his hand, which he signifies by a knock on the table."
    assert st.current_player() == 1
    st.apply(KNOCK)
    # "Each of the other players may still make one more exchange": C, then A, each may decline
    assert st.current_player() == 2 and "pass" in st.legal_moves()
    st.apply("AH")
    st.apply("3S")
    assert st.current_player() == 0
    st.apply("pass")
    # "after which the cards are exposed, and the best hand takes the pool": B's full of kings
    assert st.is_terminal() and st.winner == 1
    assert [st.bal[s]["chip"] for s in range(3)] == [-1, 2, -1]


def test_whiskey_a_knock_before_the_widow_is_taken_turns_it_up_one_draw_each_other():
    st = whiskey()
    st.apply(PASS)  # B
    st.apply(KNOCK)  # C knocks before the widow is taken
    # "Should any player knock before the widow is taken, the five cards are turned up, and each
    # player (other than the one who knocked) has one draw from them."
    assert shown(st) == [names(WIDOW)]
    assert st.current_player() == 0 and "pass" in st.legal_moves()
    st.apply("KS")
    st.apply("2C")
    assert st.current_player() == 1
    st.apply("KH")
    st.apply("5S")
    assert st.is_terminal()  # C, who knocked, has no draw
    assert names(st.hand[1]) == names(["AH", "QD", "3D", "QC", "KH"])


def test_whiskey_a_round_of_passes_turns_the_widow_up_and_all_draw_in_rotation():
    st = whiskey()
    for _ in range(3):
        st.apply(PASS)
    # "Should the round of the table have been made without any one taking the widow, the five
    # cards are turned up, and the players draw from them in rotation until some one expresses
    # himself content."
    assert shown(st) == [names(WIDOW)]
    assert st.current_player() == 1 and st.legal_moves() == [KNOCK, EXCHANGE]
    st.apply(EXCHANGE)
    st.apply("KS")
    st.apply("5S")
    assert st.current_player() == 2 and not st.is_terminal()


def test_whiskey_after_ten_rounds_of_the_table_a_player_must_knock():
    st = whiskey()
    st.apply(TAKE)
    turns = 0
    while st.legal_moves() == [KNOCK, EXCHANGE]:
        st.apply(EXCHANGE)
        st.apply(st.legal_moves()[0])
        st.apply(st.legal_moves()[0])
        turns += 1
    assert turns == 30 and st.legal_moves() == [KNOCK]  # editorial: ten rounds of three
    st.apply(KNOCK)
    st.apply("pass")
    st.apply("pass")
    assert st.is_terminal()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_whiskey_seeded_games_play_to_the_end_through_the_api(players):
    game = academie.load_game("poker/hoffmann+whiskey")
    for seed in range(4):
        state = game.new_state(players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        assert len(returns) == players and sum(returns) == 0


def _opens(cards, least):
    """A pair of ``least`` or higher, or anything better by the scale, from the cards alone."""
    order = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    ranks = [c.rank for c in cards]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    places = sorted(order.index(r) for r in set(ranks))
    straight = len(places) == 5 and (places[4] - places[0] == 4 or places == [0, 1, 2, 3, 12])
    flush = len({c.suit for c in cards}) == 1
    pair = any(ranks.count(r) >= 2 and order.index(r) >= order.index(least) for r in set(ranks))
    return pair or counts[0] >= 3 or counts[:2] == [2, 2] or straight or flush


def test_note_39_queens_then_kings_then_aces_on_later_rounds_of_a_jack_pot():
    # "[39] Some players on a second round only allow the jack-pot to be opened by a pair of queens,
    # or better; on a third, only by a pair of kings, or better; and on a fourth, only by a pair of
    # aces, or better"
    g = load_game("poker/hoffmann", ("higher-openers",))
    asked = {}
    for seed in range(10):
        st = State(g, 6, seed, dealer=0, hands=6)
        for _ in range(5):
            st.apply("pass-out")  # no one goes in: the next deal is a jack-pot
        for hand, least in ((2, "J"), (3, "Q"), (4, "K"), (5, "A"), (6, "A")):
            assert st.hand_no == hand and st.vars["jack_pot"] == 1
            for _ in range(6):  # no one opens, holding the needful cards or not
                seat = st.current_player()
                may = "open" in st.legal_moves()
                assert may == _opens(st.hand[seat], least)
                asked[(least, may)] = asked.get((least, may), 0) + 1
                st.apply("pass")
        assert st.is_terminal()
    assert all(asked.get((x, y)) for x in "JQKA" for y in (True, False))


def test_note_39_is_not_the_plain_jack_pots():
    # without the note, jacks open every deal of a jack-pot
    g = load_game("poker/hoffmann", ("jack-pots",))
    st = State(g, 5, 1, dealer=0, hands=4)
    for _ in range(4):
        st.apply("pass-out")
    for _ in range(2):
        for _ in range(5):
            assert ("open" in st.legal_moves()) == _opens(st.hand[st.current_player()], "J")
            st.apply("pass")


def test_note_39_is_played_with_jack_pots_and_refused_beside_straight_poker():
    """``higher-openers`` is ``with: [jack-pots]``: the jack-pot's steps are there, and the
    versions that cannot be played with jack-pots refuse it too."""
    g = load_game("poker/hoffmann", ("higher-openers",))
    assert "open_jack_pot" in [st.name for st in g.steps]
    for other in ("straight", "stud", "whiskey", "dealer-antes"):
        with pytest.raises(RuleError, match="cannot be used together"):
            load_game("poker/hoffmann", ("higher-openers", other))
