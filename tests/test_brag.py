"""Brag after the Britannica (rules/brag/eb11.yaml): its three stakes and the article's own
examples of the brag, on stacked deals (five players, seat 0 deals: the face-up cards go to
seats 1, 2, 3, 4, 0 from the top of the stock)."""

import pytest

from academie.dsl.cards import SUITS, RANKS
from academie.dsl.model import load_game
from academie.interpreter.state import State

PACK = [f"{r}{s}" for s in SUITS for r in RANKS]


def brag(hands, ups, options=()):
    """Seat k holds hands[k] face down and ups[k] face up."""
    used = {c for h in hands for c in h} | set(ups)
    stock = [ups[1], ups[2], ups[3], ups[4], ups[0]] + [c for c in PACK if c not in used]
    st = State(load_game("brag/eb11", options), 5, 0, dealer=0, deal={"hands": hands, "stock": stock}, hands=1)
    return st


def all_pass(st):
    while not st.is_terminal():
        st.apply("pass")


def won(st, stake):
    return {e["to"]: e["amount"] for e in st.events if e["type"] == "pay" and e["from"] == stake}


FILLER = [["4S", "6H"], ["5S", "7H"], ["8C", "9D"], ["4D", "6S"], ["5D", "7C"]]


def test_the_highest_card_turned_up_wins_the_first_stake_the_elder_on_equality():
    st = brag(FILLER, ["KH", "QS", "KS", "2C", "3C"])
    # kings at seats 0 (the dealer) and 2: the elder, the nearer the dealer's left, wins
    assert won(st, "first_stake") == {2: 5}


def test_the_ace_of_diamonds_is_always_a_winning_card():
    st = brag(FILLER, ["2H", "AH", "QS", "AD", "3C"])
    assert won(st, "first_stake") == {3: 5}  # "but the ace of diamonds is always a winning card"


@pytest.mark.parametrize(
    "a, b, winner",
    [
        # "two twos and the knave of clubs rank as a pair-royal in twos": it beats a pair of aces
        ((["2S", "2H"], "JC"), (["AS", "AH"], "KD"), "a"),
        # "two aces and the knave as a pair-royal in aces": it beats a natural pair-royal of kings
        ((["AS", "AH"], "JC"), (["KS", "KH"], "KD"), "a"),
        # "any pair-royal beats any pair"; pairs "take precedence according to the value"
        ((["3S", "3H"], "3D"), (["AS", "AH"], "KD"), "a"),
        ((["9S", "9H"], "2D"), (["10S", "10H"], "3D"), "b"),
        # the knave of clubs counted as any card makes a pair of the highest card beside it
        ((["AC", "KC"], "JC"), (["QS", "QH"], "2D"), "a"),
    ],
)
def test_the_brag_ranks_pairs_and_pairs_royal_with_the_club_knave_as_any_card(a, b, winner):
    hands = [list(h) for h in FILLER]
    ups = ["2C", "3H", "4H", "5H", "6D"]
    hands[1], ups[1] = a
    hands[2], ups[2] = b
    st = brag(hands, ups)
    all_pass(st)
    assert won(st, "second_stake") == {1 if winner == "a" else 2: 5}


def test_with_the_diamond_knave_two_threes_and_the_club_beat_two_threes_and_the_diamond():
    hands = [list(h) for h in FILLER]
    ups = ["2C", "JD", "JC", "5H", "6D"]
    hands[1], hands[2] = ["3S", "3H"], ["3D", "3C"]
    st = brag(hands, ups, ("diamond-knave",))
    all_pass(st)
    assert won(st, "second_stake") == {2: 5}  # the club knave's pair-royal beats the diamond's
    st = brag(hands, ups)  # without the option the diamond knave is a plain card: a pair of threes
    all_pass(st)
    assert won(st, "second_stake") == {2: 5}


def test_one_left_in_the_brag_takes_the_stake_unseen_and_a_declined_hand_is_not_shown_at_the_brag():
    st = brag(FILLER, ["2C", "3H", "4H", "5H", "6D"])
    st.apply("brag")  # seat 1
    for _ in range(4):
        st.apply("decline")
    assert won(st, "second_stake") == {1: 6}
    evs = st.events
    paid = next(i for i, e in enumerate(evs) if e["type"] == "pay" and e["from"] == "second_stake")
    assert not [e for e in evs[:paid] if e["type"] == "show"]  # nothing shown for the brag
    # every hand is in for the third stake, shown only after the brag is settled
    assert [e["seat"] for e in evs[paid:] if e["type"] == "show"] == [1, 2, 3, 4, 0]


def test_the_third_stake_goes_to_the_hand_nearest_thirty_one_aces_and_courts_ten():
    hands = [list(h) for h in FILLER]
    ups = ["2C", "3H", "4H", "5H", "6D"]
    hands[3], ups[3] = ["AS", "KH"], "9S"  # 29
    hands[4], ups[4] = ["QS", "JH"], "8D"  # 28
    st = brag(hands, ups)
    all_pass(st)
    assert won(st, "third_stake") == {3: 5}


@pytest.mark.parametrize("seed", range(6))
def test_no_seat_sees_another_face_down_card_before_the_third_stake_is_shown(seed):
    """Through the API, over seeded games played at random: at every move of the brag, what each
    seat may see holds no face-down card of another seat (a hand declined is never shown for the
    brag; every hand is shown only for the third stake, which all are in for)."""
    import json
    import random

    import academie

    s = academie.load_game("brag/eb11").new_state(5, seed=seed, keep_events=True)
    rng = random.Random(seed)
    checked = 0
    while not s.is_terminal():
        eng = s.engine
        for seat in range(5):
            obs = s.observation(seat)
            obs.pop("earlier_hands")  # the hands before, dealt from another shuffle
            text = json.dumps(obs)
            hidden = {c.name for o in range(5) if o != seat for c in eng.hand[o]}
            assert not [c for c in hidden if f'"{c}"' in text], (seed, seat)
            checked += len(hidden)
        s.apply(rng.choice(s.legal_moves()))
    assert checked
