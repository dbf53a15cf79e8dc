"""Draw Poker as Professor Hoffmann gives it (rules/poker/hoffmann.yaml, hoffmann-1909-poker): his
imaginary game of five players played move for move on a stacked deal — the Age's blind ante, the
first betting with its raises, the draw as a chosen-cards exchange, the second betting with the
Age holding the age, the bluff seen and the bluff that wins unseen."""

from academie.dsl.model import load_game
from academie.interpreter.state import State

# A (seat 0) deals; B (seat 1) is the Age; C, D, E are seats 2, 3, 4 (the diagram's order, the deal
# passing from A to B). The hands are Hoffmann's; A's, which he does not give, is poor.
DEAL = {
    "hands": [
        ["2C", "7D", "6S", "9C", "4C"],  # A
        [
            "AH",
            "QD",
            "3D",
            "QC",
            "5S",
        ],  # B: "ace of hearts, queen and three of diamonds, queen of clubs, and five of spades"
        [
            "AC",
            "3S",
            "4S",
            "9H",
            "2D",
        ],  # C: "ace of clubs, three and four of spades, nine of hearts and two of diamonds"
        [
            "10H",
            "8H",
            "10S",
            "JC",
            "8D",
        ],  # D: "ten and eight of hearts, ten of spades, knave of clubs, and eight of diamonds"
        ["8C", "3C", "KH", "4H", "JS"],  # E: "eight and three of clubs, king and four of hearts, and knave of spades"
    ],
    # the cards drawn, in turn from the Age: B the queen of hearts and nine of diamonds, C the knave
    # of diamonds, D the five of diamonds, E the ace of spades
    "stock": ["QH", "9D", "JD", "5D", "AS", "2H", "2S", "3H", "4D", "5C", "5H", "6C", "6D", "6H", "7C"]
    + ["7H", "7S", "8S", "9S", "10C", "10D", "JH", "QS", "KC", "KD", "KS", "AD"],
}


def game():
    return State(load_game("poker/hoffmann", ()), 5, 0, dealer=0, deal=DEAL, hands=1)


def paid(st):
    """What each seat has put into the pool so far (its balance, negated)."""
    return [-st.bal[s]["chip"] for s in range(5)]


def discard(st, *cards):
    for c in cards:
        st.apply(c)
    st.apply("pass")


def first_betting_and_draw(st):
    assert paid(st) == [0, 1, 0, 0, 0]  # the Age "has put up, by way of ante a single counter"
    assert st.current_player() == 2  # "C is the first to declare."
    assert st.legal_moves() == ["pass-out", "make-good", "go-better"]
    st.apply("make-good")  # "C, we will suppose, has simply made good the ante."
    assert paid(st)[2] == 2  # "he puts in the pool double the amount staked by the Age"
    st.apply("go-better")  # "D not only does the same, but goes four better."
    st.apply(4)
    assert paid(st)[3] == 6  # "He thus contributes in all, six counters to the pool"
    st.apply("go-better")  # "E makes good D's "raise," and goes three better, making in all nine counters."
    st.apply(3)
    assert paid(st)[4] == 9
    st.apply("pass-out")  # A "passes out, and throws up his cards"
    st.apply("make-good")  # B "must hand in eight counters, i.e. nine, less the single counter ... by way of ante"
    st.apply("make-good")  # "If C still elects to go in, he must pay seven counters, in addition to the two"
    st.apply("make-good")  # "D, in like manner, three counters."
    # "B, C, D and E have respectively raised or made good the raise (... nine counters each)"
    assert paid(st) == [0, 9, 9, 9, 9] and st.bal["pool"]["chip"] == 36
    # the draw, B first ("B has the first claim to draw"): each throws the cards he chooses
    assert st.current_player() == 1
    discard(st, "3D", "5S")  # B keeps "the pair and the ace of hearts"
    discard(st, "9H")  # "C exchanges the nine of hearts"
    discard(st, "JC")  # D "discards the odd card"
    discard(st, "3C")  # E "discards the three of clubs"
    hands = {s: sorted(str(c) for c in st.pzones["hand"][s]) for s in (1, 2, 3, 4)}
    assert "QH" in hands[1] and "9D" in hands[1]  # "He has now threes of queens."
    assert "JD" in hands[2] and "5D" in hands[3] and "AS" in hands[4]


def second_betting_to_b_s_last_choice(st):
    # "In regular order it would be for B (the Age) to start it, but he has the privilege ... of
    # "holding the age" ... C, therefore, is the first to declare."
    assert st.current_player() == 2 and st.legal_moves() == ["pass-out", "go"]
    st.apply("pass-out")  # C "decides to pass out"
    st.apply("go")  # D "goes five counters"
    st.apply(5)
    st.apply("go-better")  # E "makes good D's stake, but goes ten better"
    st.apply(10)
    assert st.current_player() == 1  # "A has already passed out; and it is, therefore, B's turn."
    st.apply("go-better")  # B "makes good the raise, and goes five better"
    st.apply(5)
    st.apply("pass-out")  # D "goes out also"
    st.apply("go-better")  # E "again goes the maximum (ten) better"
    st.apply(10)
    assert st.current_player() == 1 and st.legal_moves() == ["pass-out", "make-good", "go-better"]


def test_hoffmann_imaginary_game_b_sees_the_bluff_and_his_threes_take_the_pool():
    st = game()
    first_betting_and_draw(st)
    second_betting_to_b_s_last_choice(st)
    st.apply("make-good")  # "to make good E's raise and see him (in which case B would win)"
    assert st.is_terminal() and st.winner == 1
    assert sorted(e["seat"] for e in st.events if e["type"] == "show") == [1, 4]  # "all turn up their cards"
    # the pool: 36 before the draw, then D 5, E 30, B 30
    assert st.bal[1]["chip"] == 101 - 39 and paid(st) == [0, -62, 9, 14, 39]


def test_hoffmann_imaginary_game_b_passes_and_e_takes_the_pool_without_showing():
    st = game()
    first_betting_and_draw(st)
    second_betting_to_b_s_last_choice(st)
    st.apply("pass-out")  # "If he is a timid player, he may possibly ... adopt the latter course"
    assert st.is_terminal() and st.winner == 4  # "in which case E takes the pool without showing his cards"
    assert not [e for e in st.events if e["type"] == "show"]
    assert paid(st) == [0, 29, 9, 14, -52]


def showdown_of(a, b):
    """Two players stand pat, the first goes one and the second makes good: the pool's winner."""
    st = State(load_game("poker/hoffmann", ()), 2, 0, dealer=0, deal={"hands": [a, b]}, hands=1)
    st.apply("make-good")  # the dealer goes in at two
    st.apply("stand-in")  # the Age's stake stands at the double ante: he stands in
    st.apply("pass")  # the Age draws none
    st.apply("pass")  # nor the dealer
    st.apply("go")  # the dealer speaks first: the Age holds the age
    st.apply(1)
    st.apply("make-good")
    assert st.is_terminal()
    return st.winner


def test_hoffmann_the_ace_to_five_is_the_lowest_sequence_and_a_sequence_beats_threes():
    wheel = ["AS", "2H", "3D", "4C", "5S"]
    six_high = ["2S", "3H", "4D", "5C", "6S"]
    threes = ["KS", "KH", "KD", "9C", "8S"]
    assert showdown_of(wheel, threes) == 0  # "Ace, two, three, four, five, the lowest" sequence, still a straight
    assert showdown_of(wheel, six_high) == 1  # "that beginning with the highest card has the preference"


def test_hoffmann_two_pairs_compare_the_best_pair_then_the_indifferent_card():
    assert showdown_of(["KS", "KH", "3D", "3C", "2S"], ["QS", "QH", "JD", "JC", "AS"]) == 0
    # equal pairs: "the hand containing the highest indifferent card wins"
    assert showdown_of(["KS", "KH", "3D", "3C", "2S"], ["KD", "KC", "3H", "3S", "4S"]) == 1


def test_hoffmann_table_stakes_no_one_is_raised_beyond_what_he_has_before_him():
    # option table-stakes: sixty counters before each; "cannot be "raised" to any greater amount"
    g = load_game("poker/hoffmann", ("table-stakes",))
    st = State(
        g, 2, 0, dealer=0, deal={"hands": [["KS", "KH", "KD", "9C", "8S"], ["AS", "2H", "3D", "4C", "5S"]]}, hands=1
    )
    for _ in range(2):
        st.apply("go-better")  # the dealer, then the Age, twelve better each time
        st.apply(12)
        st.apply("go-better")
        st.apply(12)
    assert st.current_player() == 0 and [-st.bal[s]["chip"] for s in range(2)] == [38, 49]
    st.apply("go-better")
    assert st.legal_moves() == list(range(1, 11))  # 38 paid, 12 to make good: ten more is all he has
    st.apply(10)
    assert st.legal_moves() == ["pass-out", "make-good"]  # the Age cannot go better: all he has matches it
    st.apply("make-good")
    st.apply("pass")  # no draw
    st.apply("pass")
    # no betting after the draw (both have all they had in the pool); the sequence ace to five wins
    assert st.is_terminal() and st.winner == 1 and [st.bal[s]["chip"] for s in range(2)] == [-60, 60]


def test_hoffmann_straddle_each_doubles_to_the_limit_and_the_last_straddler_speaks_last():
    # option straddle: "the next player, instead of putting up two, would put up four, saying, "I
    # straddle you." The next player may in like manner "straddle the straddler," putting up eight
    # counters, and so on, up to the "limit,""
    st = State(load_game("poker/hoffmann", ("straddle",)), 5, 0, dealer=0, deal=DEAL, hands=1)
    assert st.current_player() == 2 and st.legal_moves() == ["straddle", "omit"]
    for _ in range(3):
        st.apply("straddle")
    assert paid(st) == [0, 1, 4, 8, 12]  # C four, D eight, E the limit of twelve: no more
    assert st.current_player() == 0 and st.legal_moves() == ["pass-out", "make-good"]
    for _ in range(4):
        st.apply("make-good")
    assert st.current_player() == 4 and st.legal_moves() == ["stand-in"]  # E, the last straddler, last
    st.apply("stand-in")
    assert paid(st) == [12, 12, 12, 12, 12]  # the Age's second counter paid with the rest


def test_hoffmann_straddle_omitted_is_extinguished():
    # "Should any player, however, omit to exercise the right in his turn, it is thereby extinguished"
    st = State(load_game("poker/hoffmann", ("straddle",)), 5, 0, dealer=0, deal=DEAL, hands=1)
    st.apply("straddle")
    st.apply("omit")  # D omits: E may not straddle
    assert st.current_player() == 3 and st.legal_moves() == ["pass-out", "make-good"]
    assert paid(st) == [0, 1, 4, 0, 0]


def _holds_openers(cards) -> bool:
    """A pair of jacks or anything better, worked out here from the cards alone."""
    ranks = [c.rank for c in cards]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    order = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    places = sorted(order.index(r) for r in set(ranks))
    straight = len(places) == 5 and (places[4] - places[0] == 4 or places == [0, 1, 2, 3, 12])
    flush = len({c.suit for c in cards}) == 1
    high_pair = any(ranks.count(r) >= 2 for r in ("J", "Q", "K", "A"))
    return high_pair or counts[0] >= 3 or counts[:2] == [2, 2] or straight or flush


def test_hoffmann_jack_pots_a_deal_no_one_goes_in_is_a_jack_pot_opened_only_with_jacks_or_better():
    # option jack-pots: "instead of the Age withdrawing the ante, each of the other players puts up a
    # like amount"; "There is in this case no Age, but any player who chances to hold a pair of jacks,
    # or anything better ... puts down any stake he pleases"
    g = load_game("poker/hoffmann", ("jack-pots",))
    offered = {True: 0, False: 0}
    opened = 0
    for seed in range(12):
        st = State(g, 5, seed, dealer=0, hands=5)
        for _ in range(4):
            st.apply("pass-out")  # C, D, E and A pass: the Age alone
        assert st.hand_no == 2 and st.bal["pool"]["chip"] == 5  # his ante, and one from each of the others
        assert st.vars["jack_pot"] == 1
        seat = st.current_player()
        assert seat == 2  # the next dealer's left: no Age
        while st.hand_no == 2 and "open" not in st.legal_moves() and st.legal_moves() == ["pass"]:
            assert not _holds_openers(st.hand[st.current_player()])
            offered[False] += 1
            st.apply("pass")
        if st.hand_no != 2:  # no one opened: each puts another chip in, a fresh deal
            assert st.bal["pool"]["chip"] == 10 and st.vars["jack_pot"] == 1
            continue
        opener = st.current_player()
        assert st.legal_moves() == ["pass", "open"] and _holds_openers(st.hand[opener])
        offered[True] += 1
        hand = sorted(c.name for c in st.hand[opener])
        st.apply("open")
        st.apply(3)
        for _ in range(4):
            st.apply("pass-out")  # no one goes in save the opener
        assert st.hand_no == 3
        opened += 1
        shows = [e for e in st.events if e["type"] == "show"]
        assert [(e["seat"], sorted(e["cards"])) for e in shows] == [(opener, hand)]  # he shows his openers
        assert st.vars["jack_pot"] == 0  # the jack-pot won
    assert offered[True] and offered[False] and opened


def _all_lost(options=("table-stakes",)):
    """Two deals at table stakes: in the first the dealer (seat 0) loses all his sixty counters."""
    g = load_game("poker/hoffmann", options)
    st = State(
        g, 2, 0, dealer=0, deal={"hands": [["KS", "KH", "KD", "9C", "8S"], ["AS", "2H", "3D", "4C", "5S"]]}, hands=2
    )
    for _ in range(2):
        st.apply("go-better")
        st.apply(12)
        st.apply("go-better")
        st.apply(12)
    st.apply("go-better")
    st.apply(10)
    st.apply("make-good")
    st.apply("pass")
    st.apply("pass")
    assert st.hand_no == 2 and [st.bal[s]["chip"] for s in range(2)] == [-60, 60]
    return st


def test_hoffmann_table_stakes_a_player_with_nothing_on_the_table_makes_it_good_or_retires():
    # "If a player has no money on the table, he must either make good the deficiency before taking
    # up his cards, or retire from the game."
    st = _all_lost()
    assert st.current_player() == 0 and st.legal_moves() == [0, 1]  # make good, or retire
    assert st.hand[0] == []  # before taking up his cards
    st.apply(0)  # he makes good the deficiency: sixty counters on the table again
    assert st.pvars["made_good"][0] == 60 and st.pvars["out"][0] == 0
    assert st.current_player() == 1  # the second deal goes on, he the Age (his ante paid)
    assert st.bal[0]["chip"] == -61
    st = _all_lost()
    st.apply(1)  # he retires: out of the deal from its start, no ante from him
    assert st.pvars["retired"][0] == 1 and st.pvars["out"][0] == 1
    assert st.current_player() == 1 and st.legal_moves()[-1] == "pass"  # the one left draws, as in the Draw game
    st.apply("pass")
    assert st.is_terminal() and [st.bal[s]["chip"] for s in range(2)] == [-60, 60]
