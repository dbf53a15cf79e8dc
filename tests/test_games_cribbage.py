"""Cribbage as Hoyle's Games, Improved gives it (rules/cribbage/cribbage.yaml): the worked
examples of the text as stacked deals (the twenty-nine, the two twenty-fours, the sequence in
play of six, four, trois, deuce, five and an ace), the go and the cards left unplayed at
five-card, the knave turned up, three for last, the order of the show, and the game won the
moment a player reaches 61."""

import pytest

from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.state import State

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def cribbage(*options):
    return load_game("rules/cribbage/cribbage.yaml", options)


def stacked(dealer_hand, pone_hand, starter, batch=1):
    """A pack (top first) that deals ``pone_hand`` to the non-dealer and ``dealer_hand`` to the
    dealer, the non-dealer first, ``batch`` cards at a time, then turns up ``starter``."""
    out = []
    for i in range(0, len(pone_hand), batch):
        out += pone_hand[i : i + batch] + dealer_hand[i : i + batch]
    out.append(starter)
    rest = [f"{r}{s}" for s in "SHDC" for r in RANKS if f"{r}{s}" not in out]
    return [card(c) for c in out + rest]


def start(g, dealer_hand, pone_hand, starter, lay_pone, lay_dealer, batch=1, standing=None):
    """A game whose first deal is stacked, seat 0 dealing, the cards laid out for the crib;
    ``standing``: the points of each seat as the cards are laid out."""
    st = State(g, 2, 0, dealer=0, deck=stacked(dealer_hand, pone_hand, starter, batch), keep_events=True)
    if standing is not None:
        st.pvars["points"][:] = standing
    for c in lay_pone + lay_dealer:  # the non-dealer (seat 1) lays out first
        st.apply(c)
    return st


def scores(st, step):
    """The points scored by the effects of ``step`` (the name of a step of the hand), in order."""
    return [
        (e["seat"], e["amount"]) for e in st.events if e["type"] == "score" and e.get("rule", [None, None])[1] == step
    ]


def play_out(st):
    while not st.finished and st.hand_no == 1:
        st.apply(st.legal_moves()[0])
    return st


def test_twenty_nine_three_fives_and_a_knave_with_the_fourth_five_of_the_knaves_suit_turned_up_in_crib():
    # "Twenty-nine is the greatest possible number that can be gained by the show of any hand, or
    # crib, ... composed of three fives and a knave, with a fourth five, of the same suit as the
    # knave turned up": the crib of five-card cribbage holds four cards
    st = start(
        cribbage(), ["5S", "JC", "2H", "7D", "KD"], ["5H", "5D", "9S", "10H", "QS"], "5C", ["5H", "5D"], ["5S", "JC"]
    )
    play_out(st)
    assert scores(st, "count_crib") == [(0, 29)]


def test_twenty_nine_in_hand_at_six_card():
    g = cribbage("six_card")
    st = start(
        g,
        ["2H", "3H", "7D", "8D", "KD", "QH"],
        ["5S", "5H", "5D", "JC", "9S", "10H"],
        "5C",
        ["9S", "10H"],
        ["QH", "KD"],
        batch=3,
    )
    play_out(st)
    assert scores(st, "count_non_dealer") == [(1, 29)]


@pytest.mark.parametrize(
    "hand, starter",
    [(["3S", "3H", "3D", "9C"], "3C"), (["4S", "4H", "5D", "6C"], "6H")],
    ids=["four threes and a nine", "two fours, one five and two sixes"],
)
def test_twenty_four_not_an_uncommon_number(hand, starter):
    # "twenty-four is not an uncommon number, and may be formed of four threes and a nine, or two
    # fours, one five, and two sixes"
    g = cribbage("six_card")
    st = start(
        g, ["2H", "7D", "8D", "KD", "QH", "10S"], [*hand, "KS", "QS"], starter, ["KS", "QS"], ["QH", "KD"], batch=3
    )
    play_out(st)
    assert scores(st, "count_non_dealer") == [(1, 24)]


def test_the_sequence_in_play_of_six_four_trois_deuce_five_and_an_ace():
    # "suppose a six first played, then a four, and afterwards a trois, should a deuce follow, it
    # will make a sequence of three ; then, if a five, it will be a sequence of five ; and if an ace
    # or seven succeed the five, a sequence of six"
    g = cribbage("six_card")
    st = start(
        g,
        ["4H", "2H", "AH", "KD", "QD", "JD"],
        ["6S", "3S", "5S", "KC", "QC", "JC"],
        "9C",
        ["QC", "JC"],
        ["QD", "JD"],
        batch=3,
    )
    before = list(st.pvars["points"])
    for c, seat, gain in [
        ("6S", 1, 0),
        ("4H", 0, 0),
        ("3S", 1, 0),
        ("2H", 0, 3 + 2),  # a sequence of three, and fifteen (6 4 3 2)
        ("5S", 1, 5),  # a sequence of five
        ("AH", 0, 6),  # a sequence of six
    ]:
        st.apply(c)
        assert st.pvars["points"][seat] - before[seat] == gain, c
        before = list(st.pvars["points"])


def test_a_ten_played_fourth_prevents_the_sequence():
    # "should a ten, or any other card that will not run on regular, be played as the fourth, the
    # sequences then will be totally prevented"
    g = cribbage("six_card")
    st = start(
        g,
        ["4H", "10H", "AH", "KD", "QD", "JD"],
        ["6S", "3S", "2S", "KC", "QC", "JC"],
        "9C",
        ["QC", "JC"],
        ["QD", "JD"],
        batch=3,
    )
    for c in ["6S", "4H", "3S", "10H"]:
        st.apply(c)
    before = list(st.pvars["points"])
    st.apply("2S")  # 6 4 3 10 2: no sequence (25)
    assert st.pvars["points"] == before


def test_five_card_the_go_scores_one_and_the_cards_left_are_not_played():
    # "he then says, Go, to his antagonist, who thereupon is entitled to score 1, and must play any
    # card or cards he has that will come in" and "Such cards as remain after this, are not to be played"
    g = cribbage()
    st = start(g, ["KS", "QS", "9H", "2D", "8C"], ["KH", "QH", "JD", "3C", "7S"], "4D", ["3C", "7S"], ["8C", "2D"])
    assert st.pvars["points"] == [0, 3]  # three for last to the non-dealer
    st.apply("KH")  # 10
    st.apply("KS")  # 20: a pair (2)
    st.apply("QH")  # 30
    # the dealer cannot come in with his 9: go; the non-dealer holds the JD: no
    assert [e["seat"] for e in st.events if e["type"] == "go"] == [0, 1]
    plays = [e for e in st.events if e["type"] == "play"]
    assert len(plays) == 3  # the cards left are not played
    assert scores(st, "play") == [(0, 2), (1, 1)]  # the pair, then the go to the last player


def test_thirty_one_scores_two_in_place_of_the_go_and_both_with_the_option():
    deal = (["KS", "QS", "AH", "2D", "8C"], ["KH", "QH", "JD", "3C", "7S"], "4D", ["3C", "7S"], ["8C", "2D"])
    for options, gain in [((), 2), (("go_and_thirty_one",), 3)]:
        st = start(cribbage(*options), *deal)
        for c in ["KH", "QS", "QH", "AH"]:  # 10 20 30 31
            st.apply(c)
        assert sum(a for s, a in scores(st, "play") if s == 0) == gain, options


def test_a_knave_turned_up_makes_two_for_the_dealer_and_three_for_last_is_the_first_deal_only():
    st = start(
        cribbage(), ["KS", "QS", "9H", "2D", "8C"], ["KH", "QH", "JD", "3C", "7S"], "JH", ["3C", "7S"], ["8C", "2D"]
    )
    assert st.pvars["points"] == [2, 3]
    play_out(st)
    assert st.hand_no == 2 or st.finished
    assert scores(st, "three_for_last") == [(1, 3)]


def test_the_game_is_won_the_moment_a_player_reaches_61_in_the_play():
    deal = (["KS", "QS", "9H", "2D", "8C"], ["KH", "QH", "JD", "3C", "7S"], "4D", ["3C", "7S"], ["8C", "2D"])
    st = start(cribbage(), *deal, standing=[59, 50])
    st.apply("KH")
    st.apply("KS")  # a pair: 61
    assert st.finished and st.pvars["points"][0] == 61
    assert [s["seat"] for s in st.standings if s["rank"] == 1] == [0]
    assert not any(e["type"] == "show" for e in st.events)


def test_the_non_dealer_counts_first_and_wins_before_the_dealer_counts():
    # "proceeds, the non-dealer first, then the dealer, to count and take for his hand and crib"
    # the non-dealer keeps 5 5 5 (with the king turned up: fifteens 4 ways, a pair-royal: 14), the
    # dealer 5 J K (fifteens 3 ways: 6 and his nob 1)
    deal = (["5C", "JD", "KH", "2D", "8C"], ["5S", "5H", "5D", "3C", "7S"], "KD", ["3C", "7S"], ["8C", "2D"])
    st = start(cribbage(), *deal, standing=[55, 50])
    play_out(st)  # in play the dealer makes a fifteen (2) and the go (1): 58
    assert st.finished
    assert st.pvars["points"] == [58, 64]  # the dealer's hand (9) would have made him 67
    assert scores(st, "count_dealer") == [] and scores(st, "count_crib") == []


def test_flushes_three_in_hand_four_in_crib_and_the_professed_gamesters_crib():
    # "Three cards of the same suit in hand, or four in crib, usually entitle the player to reckon
    # that number as a flush, and also one more when the turn-up card happens to be of the same suit"
    deal = (["2H", "4H", "6C", "8C", "KS"], ["3S", "7S", "9S", "10H", "QH"], "AS", ["10H", "QH"], ["6C", "8C"])
    st = play_out(start(cribbage(), *deal))
    # non-dealer: 3 7 9 of spades and the ace of spades: a flush of four, 3+... no fifteen: 4
    assert scores(st, "count_non_dealer") == [(1, 4)]
    deal = (["2H", "4H", "KH", "QH", "9C"], ["3S", "7S", "JH", "10H", "8D"], "AS", ["JH", "10H"], ["KH", "QH"])
    st = play_out(start(cribbage(), *deal))
    # crib J 10 K Q of hearts, the ace of spades turned up: a flush of four and a run of four
    assert scores(st, "count_crib") == [(0, 8)]
    st = play_out(start(cribbage("crib_flush_of_five"), *deal))
    assert scores(st, "count_crib") == [(0, 4)]  # the run alone


def test_the_crib_is_hidden_until_the_show_and_the_starter_unknown_until_turned_up():
    import academie

    game = academie.load_game("cribbage/cribbage")
    deck = stacked(["5S", "JC", "2H", "7D", "KD"], ["5H", "5D", "9S", "10H", "QS"], "5C")
    state = game.new_state(players=2, seed=0, dealer=0, deck=deck)
    state.apply("5H")
    for seat in (0, 1):
        obs = state.observation(seat)
        assert obs["zones"]["starter"] == {"count": 0, "cards": []}
        assert "5C" not in json_of(obs)
    for c in ["5D", "5S", "JC"]:
        state.apply(c)
    for seat in (0, 1):
        obs = state.observation(seat)
        assert obs["zones"]["crib"] == {"count": 4, "cards": []}  # laid out face down, even one's own
        assert obs["zones"]["starter"]["cards"] == ["5C"]  # turned up: seen by all
        other = ["5S", "JC"] if seat == 1 else ["5H", "5D"]
        assert not any(c in json_of(obs) for c in other)
    while state.hand_no == 1 and not state.is_terminal():
        state.apply(state.legal_moves()[0])
    shown = [e for e in state.observation(1)["earlier_hands"][0] if e["type"] == "show"]
    assert sorted(shown[-1]["cards"]) == ["5D", "5H", "5S", "JC"]  # the crib shown at the show


def json_of(obs):
    import json

    return json.dumps(obs)


def test_hoffmanns_two_illustrative_hands_end_at_twenty_and_twenty_seven():
    # Hoyle's Games Modernized (1909), the five-card game played out: "the score stands eight to
    # fifteen", then after A's deal "The game now stands--A 20, B 27." B (seat 0) deals first.
    g = cribbage()
    st = start(g, ["AH", "10H", "10C", "5S", "4D"], ["QH", "6H", "9C", "8D", "7S"], "QC", ["QH", "9C"], ["AH", "4D"])
    for c in ["7S", "10H", "8D", "5S"]:  # 7, 17, 25, 30: "Go," says A; B one for last card
        st.apply(c)
    while st.hand_no == 1 and not st.finished:
        st.apply(st.legal_moves()[0])
    assert scores(st, "play") == [(0, 1)]
    # A: fifteen two and a run of three, five; B: fifteen six and a pair, eight; crib: fifteen four and a pair, six
    assert scores(st, "count_non_dealer") == [(1, 5)]
    assert scores(st, "count_dealer") == [(0, 8)]
    assert scores(st, "count_crib") == [(0, 6)]
    assert st.pvars["points"] == [15, 8]
    # A (seat 1) deals the second hand
    deck = stacked(["5D", "9D", "3S", "10H", "6C"], ["KH", "8H", "7S", "8D", "3C"], "6D")
    st2 = State(g, 2, 0, dealer=1, deck=deck, keep_events=True)
    for c in ["KH", "3C", "6C", "9D"]:  # the non-dealer lays out first
        st2.apply(c)
    for c in ["8H", "10H", "8D", "5D"]:  # 8, 18, 26, 31: A makes thirty-one exactly, two points
        st2.apply(c)
    while st2.hand_no == 1 and not st2.finished:
        st2.apply(st2.legal_moves()[0])
    assert scores(st2, "play") == [(1, 2)]
    assert scores(st2, "count_non_dealer") == [(0, 12)]  # fifteen four, a pair, a run of three twice over
    assert scores(st2, "count_dealer") == [(1, 2)]  # fifteen two only
    assert scores(st2, "count_crib") == [(1, 8)]  # fifteen six and a pair
    # the second hand's own scores on the first hand's standing (the new state's three for last aside)
    a = 8 + sum(n for step in ["play", "count_dealer", "count_crib"] for s, n in scores(st2, step) if s == 1)
    b = 15 + sum(n for s, n in scores(st2, "count_non_dealer") if s == 0)
    assert (a, b) == (20, 27)


def test_the_game_of_121_at_six_card_goes_on_past_61():
    # Hoffmann: "it is customary to play six-card cribbage twice round the board, i.e. to make the
    # game 121 points"; Hoyle's board is 61, the default
    deal = (
        ["KS", "QS", "9H", "2D", "8C", "AC"],
        ["KH", "QH", "JD", "3C", "7S", "AD"],
        "4D",
        ["3C", "7S"],
        ["8C", "2D"],
    )
    for options, over in [(("six_card",), True), (("six_card", "game_of_121"), False)]:
        st = start(cribbage(*options), *deal, batch=3, standing=[59, 50])
        st.apply("KH")
        st.apply("KS")  # a pair: 61
        assert st.pvars["points"][0] == 61
        assert st.finished is over, options
    st = start(cribbage("six_card", "game_of_121"), *deal, batch=3, standing=[119, 50])
    st.apply("KH")
    st.apply("KS")  # a pair: 121
    assert st.finished and st.pvars["points"][0] == 121


@pytest.mark.parametrize(
    "fourth, points", [("KC", 0), ("KH", 4)], ids=["three of a suit: no flush", "four: a flush of four"]
)
def test_at_six_card_a_flush_in_hand_is_the_four_cards_of_one_suit(fourth, points):
    # Hoffmann: "Where the four cards of the hand (or all four of the crib, and the start) are of
    # the same suit, the value of the flush (four or five, as the case may be) must be added";
    # Hoyle's "three cards of the same suit in hand" is the three-card hand of five-card cribbage
    g = cribbage("six_card")
    dealer = ["5C", "6C", "9D", "10D", "AC", "JD"]
    pone = ["2H", "4H", "8H", fourth, "3S", "7D"]  # kept: 2 4 8 of hearts and the king; no fifteen, pair nor run
    st = play_out(start(g, dealer, pone, "QS", ["3S", "7D"], ["AC", "JD"], batch=3))
    assert scores(st, "count_non_dealer") == ([(1, points)] if points else [])
