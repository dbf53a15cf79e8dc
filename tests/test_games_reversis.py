"""Reversis after Hoyle's Games, Improved and Enlarged (pp. 284-288), played on
stacked deals: the quinola pools, the great quinola kept from the discard, the
reversis and its payment, the party and its ties, the espagnolette."""

from academie.dsl.model import load_game
from academie.interpreter.state import State


def names(cards):
    return [c.name if hasattr(c, "name") else c for c in cards]


def hand(text):
    return text.split()


def start(deal, dealer):
    return State(load_game("reversis/hoyle"), 4, 0, dealer=dealer, deal=deal, hands=1, keep_events=True)


def play_out(st, choices, prefer):
    """Make the choices (put out, then exchange: {seat: card}, each seat in
    turn), then play every trick: each seat plays the first card of its
    preference list that is legal, else its first legal card."""
    for step in choices:
        for _ in range(4):
            seat = st.current_player()
            assert st.decision_kind() == "choose"
            st.apply(step[seat])
    while not st.is_terminal():
        seat = st.current_player()
        legal = names(st.legal_moves())
        st.apply(next((c for c in prefer.get(seat, []) if c in legal), legal[0]))
    return st


def pays(st, step=None, index=None):
    out = []
    for e in st.events:
        if e["type"] != "pay":
            continue
        rule = e.get("rule", [])
        if step is not None and (len(rule) < 2 or rule[1] != step):
            continue
        if index is not None and (len(rule) < 4 or rule[3] != index):
            continue
        out.append((e["from"], e["to"], e["amount"]))
    return out


# Each seat holds one suit: 0 the spades (the dealer, twelve), 1 the clubs, 2 the
# diamonds, 3 the hearts; the twos of clubs and hearts and the three of clubs are
# the three cards left for taking in.
SUITS = {
    "hands": [
        hand("AS KS QS JS 9S 8S 7S 6S 5S 4S 3S 2S"),
        hand("AC KC QC JC 9C 8C 7C 6C 5C 4C 3D"),
        hand("AD KD QD JD 9D 8D 7D 6D 5D 4D 2D"),
        hand("AH KH QH JH 9H 8H 7H 6H 5H 4H 3H"),
    ],
    "widow": ["3C", "2C", "2H"],
}
ACES_OUT = {1: "AC", 2: "AD", 3: "AH", 0: "AS"}


def test_the_pools_hold_twenty_six_and_thirteen_fish_and_the_quinolas_stay_out_of_the_discard():
    # "The great quinola pool is to consist of twenty-six fish ... The little quinola pool,
    # consisting of thirteen fish": "The dealer always puts two fish into the great quinola
    # pool, and one into the little ; besides which every player, at the commencement, puts
    # into the former six fish, and into the latter three" (4 x 6 + 2, 4 x 3 + 1)
    st = start(SUITS, dealer=0)
    assert st.bal["great_pool"]["fish"] == 26 and st.bal["little_pool"]["fish"] == 13
    assert [st.bal[s]["fish"] for s in range(4)] == [388, 391, 391, 391]
    st.apply("AC")
    st.apply("AD")
    # "the knave of hearts, or great quinola, which cannot be put to the discard, unless
    # there are three stakes, or a hundred fish in the pool"; the little likewise (fifty)
    assert st.current_player() == 3
    legal = names(st.legal_moves())
    assert "JH" not in legal and "QH" not in legal and "KH" in legal


def test_the_great_quinola_goes_to_the_discard_when_its_pool_holds_a_hundred_fish():
    st = start(SUITS, dealer=0)
    st.bal["great_pool"]["fish"] += 74  # three stakes: a hundred fish
    st.bal[0]["fish"] -= 74
    st.apply("AC")
    st.apply("AD")
    legal = names(st.legal_moves())
    assert "JH" in legal and "QH" not in legal


# The dealer is seat 2 (twelve diamonds); seat 3, the eldest, holds the hearts, seat 1
# the clubs but the king, which seat 0 takes in.
QUINOLAS = {
    "hands": [
        hand("AS KS QS JS 9S 8S 7S 6S 5S 4S 3S"),
        hand("AC QC JC 9C 8C 7C 6C 5C 4C 2C 2S"),
        hand("AD KD QD JD 9D 8D 7D 6D 5D 4D 3D 2D"),
        hand("AH KH QH JH 9H 8H 7H 6H 5H 4H 3H"),
    ],
    "widow": ["2H", "KC", "3C"],
}


def test_a_quinola_forced_pays_its_pool_and_one_placed_is_paid_from_it():
    st = start(QUINOLAS, dealer=2)
    # the aces put out; seat 3 takes in 2H, seat 0 KC, seat 1 3C; across, seat 3 gives the
    # great quinola to seat 1, his only heart
    put_out = {3: "AH", 0: "AS", 1: "AC", 2: "AD"}
    across = {3: "JH", 1: "2S", 0: "3S", 2: "2D"}
    prefer = {
        3: ["2H", "QH"],  # leads 2H; places the little quinola on the first club
        1: ["JH", "QC"],  # the great quinola forced on 2H; then leads a club
        0: ["2D", "KC"],  # the king of clubs wins the club
        2: ["3S", "3D"],
    }
    play_out(st, [put_out, across], prefer)
    tricks = [e for e in st.events if e["type"] == "trick"]
    assert tricks[0]["cards"] == ["2H", "2D", "JH", "3S"] and tricks[0]["winner"] == 1
    assert tricks[1]["cards"] == ["QC", "3D", "QH", "KC"] and tricks[1]["winner"] == 0
    # "if either of them be forced, the person who forces receives the same payment from each
    # player" (six fish), "all payments wrhatever are double to the person who sits opposite"
    assert pays(st, "play")[:3] == [(0, 3, 6), (1, 3, 12), (2, 3, 6)]
    # "The great quinola placed upon a renounce, receives six fish ; the little quinola three":
    # paid by the winner of the trick, as for an ace
    assert pays(st, "play")[3] == (0, 3, 3)
    # "each time the quinolas are forced, gergi or led out, the stakes are to be paid": seat 1
    # pays the great pool its twenty-six; "Each time either or both of the quinolas are placed,
    # or played on a renounce, they are entitled to the stakes attached to them": the little
    # pool pays seat 3 its thirteen
    settle = pays(st, "settle")
    assert [p for p in settle if "pool" in str(p[0]) or "pool" in str(p[1])] == [
        (1, "great_pool", 26),
        ("little_pool", 3, 13),
    ]
    assert st.bal["great_pool"]["fish"] == 52 and st.bal["little_pool"]["fish"] == 0
    st.check_invariants()


def reversis_hand(across_from_3):
    st = start(SUITS, dealer=0)
    across = {1: "3D", 2: "2C", 3: across_from_3, 0: "2S"}
    prefer = {
        1: ["KC", "QC", "JC", "9C", "8C", "7C", "6C", "5C", "4C", "KH"],
        3: ["JH", "QH"],  # places the quinolas on the first clubs
        2: ["2S", "2D"],
        0: ["2C", "3S", "4S"],
    }
    return play_out(st, [ACES_OUT, across], prefer)


def test_the_reversis_made_is_paid_eighty_fish_twenty_each_and_forty_by_the_opposite():
    # seat 3 gives seat 1 the king of hearts, the best heart left: seat 1 wins every trick
    st = reversis_hand("KH")
    assert {e["winner"] for e in st.events if e["type"] == "trick"} == {1}
    settle = pays(st, "settle")
    # "The payment for the reversis made or broken, is eighty fish ; each player paying twenty,
    # and the opposite party forty, when the reversis is made"
    reversis = [p for p in settle if p[1] == 1 and p[2] in (20, 40)]
    assert sorted(reversis) == [(0, 1, 20), (2, 1, 20), (3, 1, 40)]
    assert sum(p[2] for p in reversis) == 80
    # "When every trick is made by the same person, there is no party"; "when the reversis is
    # attempted, the stakes are neither received or paid, except by him who undertakes it"
    assert not any("pool" in str(p[0]) or "pool" in str(p[1]) for p in settle)
    # "All consolations paid for aces or quinolas, by the person undertaking the reversis, are
    # to be returned on winning it": 12 and 6 for the quinolas placed by seat 3 (opposite)
    assert (1, 3, 12) in pays(st, "play") and (1, 3, 6) in pays(st, "play")
    assert (3, 1, 18) in settle
    assert [st.bal[s]["fish"] for s in range(4)] == [368, 471, 371, 351]
    st.check_invariants()


def test_the_reversis_broken_is_paid_eighty_fish_to_the_breaker():
    # seat 3 gives seat 1 a low heart: seat 1 wins the first nine tricks and leads the heart to
    # the tenth, which seat 3 wins
    st = reversis_hand("2H")
    winners = [e["winner"] for e in st.events if e["type"] == "trick"]
    assert winners[:9] == [1] * 9 and winners[9] == 3
    # "when broken, the whole is paid by the person whose reversis is broken ; that is, he pays
    # the person breaking it exactly the same number of fish he would have received had he won it"
    settle = pays(st, "settle")
    assert (1, 3, 80) in settle
    assert not any(p[1] == 1 and p[2] in (20, 40) for p in settle)
    assert not any(p[0] == 3 and p[1] == 1 for p in settle)  # consolations not returned
    st.check_invariants()


def party_hand(across_from_3, prefer):
    st = start(SUITS, dealer=0)
    across = {1: "3C", 2: "2C", 3: across_from_3, 0: "2S"}
    return play_out(st, [ACES_OUT, across], prefer)


def test_the_party_equal_points_and_tricks_goes_to_him_who_dealt_last():
    # seats 1 and 2 take every trick; the dealer (0) and the player at his left (3) take none:
    # "if points and tricks be equal, then he who dealt last wins"
    prefer = {
        1: ["KC", "3D", "2H"],
        2: ["2S", "4D", "5D", "6D", "7D", "8D", "9D", "JD", "QD", "KD"],
        3: ["3C", "JH", "QH"],
        0: ["2C", "3S", "4S"],
    }
    st = party_hand("2H", prefer)
    winners = {e["winner"] for e in st.events if e["type"] == "trick"}
    assert winners == {1, 2}
    # the party: the points in the discard (the four aces, the ace of diamonds reckoning 5),
    # and "To the points in the discard, four are to be added for the party": 4 + 5 + 4 + 4 + 4
    party = pays(st, "settle", 0)
    assert sorted(party) == [(1, 0, 21), (2, 0, 42), (3, 0, 21)]


def test_the_party_equal_points_goes_to_him_who_has_fewest_tricks():
    # seat 3 wins one trick without points (4H on 3H); the dealer none: "he who has not a trick
    # has the preference over a trick without points"
    prefer = {
        1: ["3H", "4C", "KC", "3D"],
        2: ["2S", "4D", "5D", "6D", "7D", "8D", "9D", "JD", "QD", "KD"],
        3: ["4H", "3C", "JH", "QH"],
        0: ["3S", "2C", "4S"],
    }
    st = party_hand("3H", prefer)
    won = [e["winner"] for e in st.events if e["type"] == "trick"]
    assert won.count(3) == 1 and 0 not in won
    party = pays(st, "settle", 0)
    assert sorted(party) == [(1, 0, 21), (2, 0, 42), (3, 0, 21)]


def test_the_espagnolette_may_renounce_in_every_suit():
    # "The espaynolette is either simply four aces, or three aces and one quinola, or two aces
    # and two quinolas. The player holding it has a right to renounce in every suit"
    deal = {
        "hands": [
            hand("KS QS JS 9S 8S 7S 6S 5S 4S 3S 2S"),
            hand("AS AC AD JH 6C 7C 8C 9C JC QC KC 2H"),
            hand("KD QD JD 9D 8D 7D 6D 5D 4D 3D 5C"),
            hand("AH KH QH 9H 8H 7H 6H 5H 4H 3H 4C"),
        ],
        "widow": ["2D", "3C", "2C"],
    }
    st = start(deal, dealer=1)
    for choice in ({2: "3D", 3: "3H", 0: "2S", 1: "2H"}, {2: "2D", 0: "3S", 3: "4H", 1: "KC"}):
        for _ in range(4):
            st.apply(choice[st.current_player()])
    assert st.pvars["esp"] == [0, 1, 0, 0]  # three aces and the great quinola
    st.apply("5C")  # seat 2 leads a club; seats 3 and 0 must follow
    assert names(st.legal_moves()) == ["3C", "4C", "KC"]
    st.apply("3C")
    assert names(st.legal_moves()) == ["2C"]
    st.apply("2C")
    # seat 1 holds clubs, and may play any card
    assert len(st.legal_moves()) == 11 and "AD" in names(st.legal_moves())
    st.apply("AD")  # he places the ace of diamonds: he plays the espagnolette
    assert st.pvars["renounced"] == [0, 1, 0, 0]
    # "The person who gives an ace upon a renounce, receives a fish from the person who wins a
    # trick ; and if it be the ace of diamonds, he is to receive two"
    assert pays(st, "play") == [(2, 1, 2)]


def test_the_espagnolette_pays_the_reversis_singly_for_all_the_company():
    # seat 2 keeps three aces and the great quinola, and renounces; seat 1 makes the reversis
    deal = {
        "hands": [
            hand("KS QS JS 9S 8S 7S 6S 5S 4S 3S 2S 5D"),
            hand("KC QC JC 9C 8C 7C 6C 5C 4C 3C 2C"),
            hand("AC AD AS JH KD QD JD 9D 8D 7D 6D"),
            hand("AH KH QH 9H 8H 7H 6H 5H 4H 3H 2H"),
        ],
        "widow": ["4D", "3D", "2D"],
    }
    st = start(deal, dealer=0)
    put_out = {1: "2C", 2: "6D", 3: "2H", 0: "2S"}
    across = {1: "4D", 2: "3D", 3: "AH", 0: "5D"}  # seat 3 gives seat 1 the ace of hearts
    prefer = {
        1: ["KC", "QC", "JC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "AH"],
        2: ["AD", "AS", "JH", "KD", "QD", "JD", "9D", "8D", "7D", "5D", "AC"],  # the ace of clubs last
        3: ["QH", "KH"],
        0: ["4D"],
    }
    play_out(st, [put_out, across], prefer)
    assert st.pvars["esp"] == [0, 0, 1, 0] and st.pvars["renounced"] == [0, 0, 1, 0]
    assert {e["winner"] for e in st.events if e["type"] == "trick"} == {1}
    # "If the reversis be won or broken, the espagnolette pays singly for all the company"
    settle = pays(st, "settle")
    assert (2, 1, 80) in settle
    assert not any(p[1] == 1 and p[2] in (20, 40) for p in settle)
    st.check_invariants()


def test_the_espagnolettes_quinola_forced_pays_its_stake_and_consolation_to_him_that_forces():
    deal = {
        "hands": [
            hand("KS QS JS 9S 8S 7S 6S 5S 4S 3S 2S"),
            hand("AS AC AD JH 6C 7C 8C 9C JC QC KC 2H"),
            hand("KD QD JD 9D 8D 7D 6D 5D 4D 3D 5C"),
            hand("AH KH QH 9H 8H 7H 6H 5H 4H 3H 4C"),
        ],
        "widow": ["2D", "3C", "2C"],
    }
    st = start(deal, dealer=1)
    put_out = {2: "3D", 3: "3H", 0: "2S", 1: "2H"}
    across = {2: "2D", 3: "4C", 0: "3S", 1: "KC"}  # seat 1 keeps one heart, the great quinola
    prefer = {
        2: ["5C", "3S"],
        3: ["KC", "AH", "3C"],  # wins the club, leads the ace of hearts, then the three of clubs
        0: ["2C", "2D"],
        1: ["AD", "JH", "4C"],  # places the ace of diamonds, then his quinola falls to the ace
    }
    play_out(st, [put_out, across], prefer)
    tricks = [e for e in st.events if e["type"] == "trick"]
    assert tricks[1]["cards"] == ["AH", "2D", "JH", "3S"] and tricks[1]["winner"] == 3
    assert st.pvars["esp"] == [0, 1, 0, 0]
    play = pays(st, "play")
    assert (3, 1, 4) in play  # the ace of diamonds placed: two fish, double from the opposite
    # "If, by another player having the ace or king of hearts, the espagnolette has in any part
    # of the game either of his quinolas forced, he pays the stake and his consolation to him that
    # forces": his six fish (double, opposite) to seat 3, and nobody else pays for it ...
    assert (1, 3, 12) in play and (0, 3, 6) not in play and (2, 3, 6) not in play
    # ... and, the hand over, the stake of twenty-six to seat 3 instead of the pool
    settle = pays(st, "settle")
    assert (1, 3, 26) in settle and not any(p[1] == "great_pool" for p in settle)
    st.check_invariants()


def test_the_deal_and_the_forty_points_as_hoyle_counts_them():
    """ "the non-dealers will have eleven cards each, and the dealer twelve, with three
    remaining"; "the points in the tricks are forty, each ace reckoning 4, king 3, queen
    2, and knave 1": the points in the four players' tricks and in the cards put out make
    forty, whatever the hand."""
    from academie.interpreter.agents import make_agents, play

    value = {"A": 4, "K": 3, "Q": 2, "J": 1}
    for seed in range(4):
        st = State(load_game("reversis/hoyle"), 4, seed, dealer=0, hands=1, keep_events=True)
        deal = next(e for e in st.events if e["type"] == "deal")
        assert [len(h) for h in deal["hands"]] == [12, 11, 11, 11] and len(deal["widow"]) == 3
        st = play(st, make_agents(["random"], 4, seed))
        put_out = sum(value.get(c.name[:-1], 0) for c in st.zones["party"])
        assert sum(st.pvars["points"]) + put_out == 40, seed
