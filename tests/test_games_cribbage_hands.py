"""Hoffmann's (Hoyle's Games Modernized, 1909) other cribbages, the options of
rules/cribbage/cribbage.yaml: seven-card (seven dealt, five kept, played as six-card, 181 up),
three-handed (five each, one from each hand and one from the pack to the crib), four-handed
(partners, one card each to the crib, the cards played right out, 121 up) and the lurch (double
stakes to a loser short of half the game). Seeded games played through the API at each option's
number of players, and stacked deals for what each section says."""

import random

import pytest

import academie
from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.state import State

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def stacked(hands, then=()):
    """A pack (top first) dealing ``hands[i]`` to the seat ``i`` places after the dealer (seat 0),
    one card at a time from the dealer's left, the dealer last; then the cards ``then``."""
    n = len(hands)
    order = [hands[(k % n)] for k in range(1, n)] + [hands[0]]
    out = [h[i] for i in range(len(hands[0])) for h in order] + list(then)
    rest = [f"{r}{s}" for s in "SHDC" for r in RANKS if f"{r}{s}" not in out]
    return [card(c) for c in out + rest]


def scores(st, step):
    return [
        (e["seat"], e["amount"]) for e in st.events if e["type"] == "score" and e.get("rule", [None, None])[1] == step
    ]


def first_hand(st):
    while not st.finished and st.hand_no == 1:
        st.apply(st.legal_moves()[0])
    return st


def seeded(option, players, seed):
    """A whole seeded game through the API, moves at random: the state at its end."""
    game = academie.load_game("cribbage/cribbage", [option])
    st = game.new_state(players, seed=seed, keep_events=True)
    rng = random.Random(f"{option}:{seed}")
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_moves()))
    return st


@pytest.mark.parametrize(
    "option, players, total",
    [("seven_card", 2, 181), ("three_handed", 3, 61), ("four_handed", 4, 121), ("lurch", 2, 61)],
)
def test_each_option_plays_whole_seeded_games_at_its_number_of_players(option, players, total):
    game = academie.load_game("cribbage/cribbage", [option])
    assert game.players == (players, players)
    for seed in range(3):
        st = seeded(option, players, seed)
        points = st.engine.pvars["points"]
        top = {s["seat"] for s in st.observation(0)["standings"] if s["rank"] == 1}
        assert {s for s in range(players) if points[s] >= total} == top  # the winner (or side) alone is up


def test_seven_card_seven_dealt_five_kept_no_three_for_last_the_cards_played_out():
    # "seven cards are dealt to each player, two being thrown out for crib, and five left in hand,
    # or, with the start, six"; "played in the same manner as the six-card game"
    g = load_game("rules/cribbage/cribbage.yaml", ("seven_card",))
    dealer = ["2H", "3H", "4H", "5H", "6H", "KC", "QC"]
    pone = ["2S", "3S", "4S", "5S", "6S", "KD", "QD"]
    st = State(g, 2, 0, dealer=0, deck=stacked([dealer, pone], ["9C"]), keep_events=True)
    assert [len(h) for h in st.hand] == [7, 7]
    assert st.pvars["points"] == [0, 0]  # no three for last
    for c in ["KD", "QD", "KC", "QC"]:
        st.apply(c)
    assert [len(h) for h in st.hand] == [5, 5]
    first_hand(st)
    assert sum(1 for e in st.events if e["type"] == "play") == 10  # all the cards played out
    shown = {e["seat"]: e["cards"] for e in st.events if e["type"] == "show" and "seat" in e}
    assert sorted(shown[1]) == sorted(pone[:5])  # the five kept, shown
    # 2 3 4 5 6 of spades with the nine of clubs: four fifteens (6+9, 2+4+9, 4+5+6, 2+3+4+6: 8), a
    # run of five (5) and a flush of the hand's five cards (5)
    assert scores(st, "count_non_dealer") == [(1, 8 + 5 + 5)]


def test_seven_card_game_is_181():
    # "it is customary to make the game three times round the board, i.e. 181 points."
    g = load_game("rules/cribbage/cribbage.yaml", ("seven_card",))
    dealer = ["KS", "QS", "9H", "2D", "8C", "AC", "AH"]
    pone = ["KH", "QH", "JD", "3C", "7S", "AD", "AS"]
    for standing, over in [([59, 50], False), ([179, 50], True)]:
        st = State(g, 2, 0, dealer=0, deck=stacked([dealer, pone], ["4D"]), keep_events=True)
        st.pvars["points"][:] = standing
        for c in ["3C", "7S", "8C", "2D", "KH", "KS"]:  # laid out; then a pair in play
            st.apply(c)
        assert st.pvars["points"][0] == standing[0] + 2
        assert st.finished is over


def test_three_handed_the_crib_is_made_up_from_the_pack_unseen_and_the_dealers_left_leads_and_shows_first():
    # "five cards are dealt to each, one card of each hand being laid out for crib, with one card
    # from the top of the pack to complete it. The start is then cut for in the usual manner. The
    # player to the dealer's left has first lead and first show, and deals in the succeeding hand."
    game = academie.load_game("cribbage/cribbage", ["three_handed"])
    hands = [["5C", "JD", "KH", "2D", "8C"], ["5S", "5H", "5D", "3C", "7S"], ["9S", "9H", "4C", "AC", "QD"]]
    st = game.new_state(players=3, seed=0, dealer=0, deck=stacked(hands, ["JC", "KD"]))
    assert [len(h) for h in st.engine.hand] == [5, 5, 5]
    assert st.engine.pvars["points"] == [0, 0, 0]  # no three for last
    for c in ["3C", "AC", "2D"]:  # seats 1, 2, then the dealer, lay out one each
        st.apply(c)
    crib = [c.name for c in st.engine.zones["crib"]]
    assert sorted(crib) == ["2D", "3C", "AC", "JC"]  # the pack's top card completes the crib
    assert [c.name for c in st.engine.zones["starter"]] == ["KD"]
    for seat in range(3):
        obs = st.observation(seat)
        assert obs["zones"]["crib"]["count"] == 4
        assert "JC" not in repr(obs)  # the pack's card is seen by no one
    assert st.current_player() == 1  # the dealer's left leads
    while st.hand_no == 1 and not st.is_terminal():
        st.apply(st.legal_moves()[0])
    first = st.observation(1)["earlier_hands"][0]
    shows = [e.get("seat") for e in first if e["type"] == "show"]
    assert shows == [1, 2, 0, None]  # the dealer's left first, the dealer, then the crib
    assert sorted(next(e["cards"] for e in first if e["type"] == "show" and "seat" not in e)) == sorted(crib)
    assert st.observation(0)["dealer"] == 1  # the dealer's left deals the next hand
    assert all(len(h) == 5 for h in st.engine.hand)
    # the first hand: 5 5 5 7 with the king turned up: fifteens four ways (8) and a pair-royal (6)
    got = [e["amount"] for e in first if e["type"] == "score" and e.get("rule", [0, 0])[1] == "count_non_dealer"]
    assert got == [14]


def test_four_handed_partners_score_as_one_the_crib_of_four_the_cards_played_right_out():
    # "two play as partners against the other two, each pair sitting facing each other"; "each puts
    # out one for the crib, which belongs ... to the dealer"; "One partner scores for both."; "The
    # cards are played right out, as in the six-card game."
    g = load_game("rules/cribbage/cribbage.yaml", ("four_handed",))
    hands = [
        ["5C", "JD", "KH", "2D", "8C"],
        ["5S", "5H", "5D", "3C", "7S"],
        ["9S", "9H", "4C", "AC", "QD"],
        ["10S", "10H", "6C", "6D", "QH"],
    ]
    st = State(g, 4, 0, dealer=0, deck=stacked(hands, ["KD"]), keep_events=True)
    for c in ["3C", "AC", "QH", "2D"]:
        st.apply(c)
    assert sorted(c.name for c in st.zones["crib"]) == ["2D", "3C", "AC", "QH"]
    first_hand(st)
    assert sum(1 for e in st.events if e["type"] == "play") == 16  # every card played
    pts = st.pvars["points"]
    assert pts[0] == pts[2] and pts[1] == pts[3]
    # seat 1 (5 5 5 7, the king turned up: fifteens four ways and a pair-royal, 14) and seat 3 (10 10 6 6
    # with the king: two pairs, 4) score for one side; the crib (3 A Q 2 and the king: fifteens 3+2+Q
    # and 3+2+K, 4, and the run A 2 3, 3) for the dealer's
    assert scores(st, "count_non_dealer") == [(1, 14)]
    assert scores(st, "count_third") == [(1, 4)]
    assert scores(st, "count_crib") == [(0, 4 + 3)]
    # what seat 1 and seat 3 made is one count (a side's score is told as its first seat's)
    assert pts[1] == sum(e["amount"] for e in st.events if e["type"] == "score" and e["seat"] == 1) >= 14 + 4


def test_four_handed_game_is_121_and_partners_share_the_win():
    game = academie.load_game("cribbage/cribbage", ["four_handed"])
    for seed in range(2):
        st = seeded("four_handed", 4, seed)
        points = st.engine.pvars["points"]
        assert max(points) >= 121
        top = sorted(s["seat"] for s in st.observation(0)["standings"] if s["rank"] == 1)
        assert top in ([0, 2], [1, 3])
    assert game.players == (4, 4)


@pytest.mark.parametrize("loser, pays", [(29, 2), (30, 2), (31, 1), (50, 1)])
def test_the_lurch_the_loser_short_of_half_the_game_pays_double(loser, pays):
    # "If the loser has made less than half the specified number of points, he is "lurched," and
    # pays double the agreed stake." Half of 61 is 30 1/2: 30 is lurched, 31 is not.
    g = load_game("rules/cribbage/cribbage.yaml", ("lurch",))
    hands = [["KS", "QS", "9H", "2D", "8C"], ["KH", "QH", "JD", "3C", "7S"]]
    st = State(g, 2, 0, dealer=0, deck=stacked(hands, ["4D"]), keep_events=True)
    st.pvars["points"][:] = [59, loser]
    for c in ["3C", "7S", "8C", "2D", "KH", "KS"]:  # laid out; the dealer pairs the king: 61
        st.apply(c)
    assert st.finished and st.pvars["points"] == [61, loser]
    paid = [(e["from"], e["to"], e["amount"]) for e in st.events if e["type"] == "pay"]
    assert paid == [(1, 0, pays)]
