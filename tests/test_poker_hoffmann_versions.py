"""The other versions of Poker Hoffmann gives (rules/poker/hoffmann.yaml's options,
hoffmann-1909-poker), played on stacked deals: Straight Poker ("Bluff"), Mistigris (the blank card wild), Stud Poker, the Tiger, note 35."""

import random

import academie
from academie.dsl.model import load_game
from academie.interpreter.state import State

# A (seat 0) deals; B (seat 1) is the elder hand; C, D, E are seats 2, 3, 4. The hands of
# Hoffmann's imaginary game (tests/test_poker_hoffmann.py), played here as dealt.
HANDS = [
    ["2C", "7D", "6S", "9C", "4C"],  # A: nothing, nine high
    ["AH", "QD", "3D", "QC", "5S"],  # B: a pair of queens
    ["AC", "3S", "4S", "9H", "2D"],  # C: nothing, ace high
    ["10H", "8H", "10S", "JC", "8D"],  # D: two pairs, tens and eights
    ["8C", "3C", "KH", "4H", "JS"],  # E: nothing, king high
]


def straight(hands=2):
    return State(load_game("poker/hoffmann", ("straight",)), 5, 0, dealer=0, deal={"hands": HANDS}, hands=hands)


def paid(st):
    return [-st.bal[s]["chip"] for s in range(5)]


def test_straight_the_buck_chips_for_all_and_no_hand_is_filled():
    st = straight()
    # "each player in turn puts in for all": the holder of the buck (B, the first deal's elder hand)
    assert paid(st) == [0, 5, 0, 0, 0] and st.bal["pool"]["chip"] == 5
    # "3. The elder hand, or "Age," has no privilege.": B speaks first, nothing to make good
    assert st.current_player() == 1 and st.legal_moves() == ["pass", "go"]
    st.apply("pass")  # "Any player may "pass," and come in again"
    st.apply("go")  # C goes two
    st.apply(2)
    st.apply("make-good")  # D
    st.apply("go-better")  # E makes good and goes three better: a raise
    st.apply(3)
    st.apply("pass-out")  # A
    # B passed, and E raised in the meantime: "in which case he is excluded"
    assert st.current_player() == 1 and st.legal_moves() == ["pass-out"]
    st.apply("pass-out")
    st.apply("make-good")  # C
    st.apply("make-good")  # D
    # "1. There is no filling of hands": the showdown at once, D's two pairs take the pool
    assert st.hand_no == 2
    assert st.bal[3]["chip"] == 5 + 15 - 5 and st.bal["pool"]["chip"] == 5  # the next deal's ante in it
    # "4. The deal passes, not in rotation, but to the player who takes the pool."
    assert st.dealer == 3
    # the buck passed to C, "who chips for the next deal"
    assert paid(st)[2] == 5 + 5


def test_straight_a_passer_comes_in_again_when_no_one_raised():
    st = straight()
    st.apply("pass")  # B
    st.apply("pass")  # C
    st.apply("go")  # D goes five
    st.apply(5)
    st.apply("pass-out")  # E
    st.apply("pass-out")  # A
    assert st.current_player() == 1 and st.legal_moves() == ["pass-out", "make-good", "go-better"]
    st.apply("make-good")  # B comes in again
    st.apply("pass-out")  # C
    assert st.hand_no == 2 and st.dealer == 3  # D's two pairs beat B's queens


def test_straight_all_pass_a_double_header_dealt_by_the_elder_hand():
    st = straight()
    for _ in range(5):
        st.apply("pass")
    # "6. If all pass ... there is a fresh contribution to the pool, and the elder hand deals. The
    # pool is then known as a "double header.""
    assert st.hand_no == 2 and st.dealer == 1
    assert st.bal["pool"]["chip"] == 10 and paid(st) == [0, 5, 5, 0, 0]


def test_straight_seeded_games_play_to_the_end_through_the_api():
    game = academie.load_game("poker/hoffmann+straight")
    for seed in range(6):
        state = game.new_state(players=4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        assert len(returns) == 4 and sum(returns) <= 0  # a double header left after the last deal stays in the pool


def showdown(a, b, options=("mistigris",)):
    """Two players stand pat, the first goes one and the second makes good: the pool's winner."""
    st = State(load_game("poker/hoffmann", options), 2, 0, dealer=0, deal={"hands": [a, b]}, hands=1)
    st.apply("make-good")  # the dealer goes in at two
    st.apply("stand-in")  # the Age stands in
    st.apply("pass")  # neither draws
    st.apply("pass")
    st.apply("go")
    st.apply(1)
    st.apply("make-good")
    assert st.is_terminal()
    return st.winner


def test_mistigris_is_shuffled_with_the_rest():
    # "Mistigris is the "blank" card usually sold with a pack ... This is shuffled with the rest"
    pack = load_game("poker/hoffmann", ("mistigris",)).pack(5)
    assert len(pack) == 53 and "JK" in [c.name for c in pack]
    assert len(load_game("poker/hoffmann", ()).pack(5)) == 52


def test_mistigris_makes_the_hands_hoffmann_names():
    # "if he has three sevens and mistigris, mistigris will represent the missing seven, and make
    # him "fours."": above a full of aces, below a natural four of eights
    sevens = ["7S", "7H", "7D", "JK", "2C"]
    assert showdown(sevens, ["AS", "AH", "AD", "KC", "KD"]) == 0
    assert showdown(sevens, ["8S", "8H", "8D", "8C", "3D"]) == 1
    # "In conjunction with two pairs, it makes the hand a "full."": above a flush, below fours
    pairs = ["9S", "9H", "4D", "4C", "JK"]
    assert showdown(pairs, ["2D", "5D", "8D", "JD", "KD"]) == 0
    assert showdown(pairs, ["3S", "3H", "3D", "3C", "2S"]) == 1
    # "If the player has four hearts and mistigris, he can claim a flush": above a straight
    hearts = ["2H", "6H", "9H", "QH", "JK"]
    assert showdown(hearts, ["5S", "6D", "7C", "8S", "9D"]) == 0
    # "and should his four hearts be in sequence, he is considered to hold a straight flush":
    # above four aces
    assert showdown(["5H", "6H", "7H", "8H", "JK"], ["AS", "AH", "AD", "AC", "KS"]) == 0


def test_mistigris_seeded_games_play_to_the_end_through_the_api():
    for ref in ("poker/hoffmann+mistigris", "poker/hoffmann+mistigris+straight"):
        game = academie.load_game(ref)
        for seed in range(4):
            state = game.new_state(players=6, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            assert len(state.returns()) == 6


# Stud: three players, A (seat 0) deals; the card face down to each, then four face up to each in
# turn from the elder hand, one at a time
STUD_DEAL = {
    "hands": [["2C"], ["AS"], ["KD"]],
    "stock": ["AH", "KH", "4H", "AD", "KS", "5H", "7C", "QC", "6H", "3S", "QD", "7H"]
    + [
        r + s
        for s in "DSHC"
        for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()
        if r + s not in {"2C", "AS", "KD", "AH", "KH", "4H", "AD", "KS", "5H", "7C", "QC", "6H", "3S", "QD", "7H"}
    ],
}


def test_stud_one_card_down_four_up_seen_by_all_and_the_concealed_card_decides():
    st = academie.load_game("poker/hoffmann+stud").new_state(players=3, seed=0, deal=STUD_DEAL, keep_events=True)
    seen = st.observation(0)
    # "one card only of each hand is dealt face downwards, the remaining four being dealt face upwards"
    assert seen["hand"] == ["2C"]
    assert [z["cards"] for z in seen["seat_zones"]["up"]] == [
        ["4H", "5H", "6H", "7H"],
        ["AH", "AD", "7C", "3S"],
        ["KH", "KS", "QC", "QD"],
    ]
    assert [e for e in seen["events"] if e["type"] == "deal"][0]["hand"] == ["2C"]  # the others' down cards unseen
    # "The players, beginning with the elder hand, make their stakes, raise, &c., as at the ordinary game"
    assert st.current_player() == 1
    for move in ("pass", "go", 3, "pass-out", "make-good"):
        st.apply(move)
    # "The concealed cards are then turned up, and the strongest hand takes the pool.": B's concealed ace
    # makes threes, C's concealed king a full, which takes it
    shown = {e["seat"]: e["cards"] for e in st.engine.events if e["type"] == "show" and len(e["cards"]) == 1}
    assert shown == {1: ["AS"], 2: ["KD"]}
    paid_out = [e for e in st.engine.events if e["type"] == "pay" and e["from"] == "pool"]
    assert [(e["to"], e["amount"]) for e in paid_out] == [(2, 3 + 3 + 3)]  # the ante for all and two stakes
    assert st.hand_no == 2 and st.engine.dealer == 2  # the deal to the taker, as at Straight Poker


def test_stud_seeded_games_play_to_the_end_through_the_api():
    game = academie.load_game("poker/hoffmann+stud")
    for seed in range(4):
        for players in (2, 6):
            state = game.new_state(players=players, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            assert len(state.returns()) == players


def test_the_tiger_is_one_degree_better_than_a_straight():
    # "The Tiger consists of the lowest "straight" that can be made, and reckons as one degree better
    # than an ordinary straight."
    tiger, broadway, flush = (
        ["AS", "2H", "3D", "4C", "5S"],
        ["AC", "KH", "QD", "JC", "10S"],
        ["2D", "5D", "8D", "JD", "KD"],
    )
    assert showdown(tiger, broadway, ("tiger",)) == 0
    assert showdown(tiger, broadway, ()) == 1  # without it, the lowest sequence
    assert showdown(tiger, flush, ("tiger",)) == 1  # one degree only: below a flush


def test_note_35_the_dealer_antes_and_speaks_last_before_the_draw():
    # "[35] As the game is sometimes played, the dealer, and not the Age, puts up the ante"
    st = State(load_game("poker/hoffmann", ("dealer-antes",)), 5, 0, dealer=0, deal={"hands": HANDS}, hands=1)
    assert paid(st) == [1, 0, 0, 0, 0]
    assert st.current_player() == 1 and st.legal_moves() == ["pass-out", "make-good", "go-better"]  # the Age first
    for _ in range(4):
        st.apply("make-good")  # B, C, D, E go in at two
    assert st.current_player() == 0 and st.legal_moves() == ["stand-in", "go-better"]  # the dealer last
    st.apply("stand-in")
    assert paid(st) == [2, 2, 2, 2, 2]  # the dealer's second counter paid as the betting closes
