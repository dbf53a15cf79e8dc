"""Vingt-Un after Hoffmann (hoffmann-1909-vingt-un): the rules of the chapter played on stacked packs —
the worked example of drawing, the stake made on the first card, the dealer's double, the naturals paid
double (the dealer's cancelled by a punter's), the player over paying at once, twenty-one paid double,
ties to the dealer, the dealer over paying all who stand, the deal passing on a punter's natural but
not in the first round of a deal, and the cards drawn dealt face up."""

from pathlib import Path

from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.state import State
from test_visibility import _names

RULES = Path(__file__).parent.parent / "rules" / "vingt-un" / "hoffmann.yaml"


def stacked(first):
    """A pack with ``first`` on top (the first card to seat 1, then seat 2, then the dealer, seat 0;
    the second cards likewise; then the cards drawn), the others after in their order."""
    names = [r + s for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    return [card(n) for n in [*first, *[n for n in names if n not in first]]]


def new(first, hands=1, options=()):
    g = load_game(str(RULES), options=list(options)) if options else load_game(str(RULES))
    return State(g, 3, 0, dealer=0, deck=stacked(first), hands=hands)


def stake(st, stakes, double=0):
    """Seats 1 and 2 each stake ``stakes[seat]`` on their first card; the dealer doubles or not."""
    for seat in (1, 2):
        assert st.decision.seat == seat, (st.decision.seat, seat)
        st.apply(stakes[seat])
    assert st.decision.seat == 0
    st.apply(double)


def answer(st, seat, *draws, both=None):
    """``seat`` is asked, and draws (1) or stands (0) as ``draws`` says; a punter is first asked whether
    he goes on both (``both``, default no)."""
    if seat != 0:
        assert st.decision.seat == seat, (st.decision.seat, seat)
        st.apply(both or 0)
    for d in draws:
        assert st.decision.seat == seat, (st.decision.seat, seat)
        st.apply(d)


def money(st):
    return [st.bal[s]["counter"] for s in range(3)]


def test_the_worked_example_of_drawing_and_the_elder_hand_going_over():
    # the elder hand (seat 1): "a six and an eight", "has received a ten": over, he pays at once;
    # seat 2: "an ace and a two", draws a "two" (15), a "seven" (12), a "three" (15), a "five" (20), stands;
    # the dealer: 10, 7 (17) stands: he pays seat 2
    st = new(["6S", "AH", "10D", "8S", "2H", "7D", "10S", "2C", "7C", "3C", "5C"])
    stake(st, {1: 2, 2: 3})
    assert st.pvars["total"][2] == 13  # "either three or thirteen"
    answer(st, 1, 1)
    assert money(st) == [2, -2, 0]  # "at once hands his stake to the dealer"
    assert not st.hand[1] and not st.pzones["drawn"][1]
    assert sorted(c.name for c in st.zones["thrown"]) == ["10S", "6S", "8S"]  # thrown up face down
    answer(st, 2, 1)  # "Thirteen is not good enough to stand upon"
    seen = [st.pvars["total"][2]]
    for _ in range(3):
        assert st.decision.seat == 2
        st.apply(1)  # "Again he says, "Card,""
        seen.append(st.pvars["total"][2])
    assert seen == [15, 12, 15, 20]  # "making him fifteen", "twenty-two, or twelve", "still only fifteen"
    assert st.decision.seat == 2
    st.apply(0)  # "when he of course "stands""
    answer(st, 0, 0)
    assert st.is_terminal()
    assert money(st) == [2 - 3, -2, 3]


def test_the_cards_drawn_are_dealt_face_up():
    st = new(["6S", "AH", "10D", "8S", "2H", "7D", "10S", "2C"])
    stake(st, {1: 1, 2: 1})
    answer(st, 1, 1)  # over: his cards thrown up
    answer(st, 2, 1)
    # "(This third card, and all following, are dealt face upwards.)": each card drawn is turned up
    assert [e["card"] for e in st.events if e["type"] == "turnup"] == ["10S", "2C"]
    assert [c.name for c in st.pzones["drawn"][2]] == ["2C"] and sorted(c.name for c in st.hand[2]) == ["2H", "AH"]


def test_the_dealers_natural_takes_double_and_quadruple_when_he_doubled_a_punters_natural_cancels_it():
    # seat 1: 9, 8; seat 2: A, K (a natural); the dealer: A, Q (a natural), doubled
    st = new(["9S", "AH", "AD", "8S", "KH", "QD"])
    stake(st, {1: 2, 2: 3}, double=1)
    assert st.is_terminal()  # nobody draws
    assert money(st) == [8, -8, 0]  # "if he has "doubled," quadruple"; the two naturals cancel


def test_a_punters_natural_is_paid_double_and_he_draws_no_card():
    # seat 1: A, J (natural); seat 2: 10, 9 stands; the dealer: 10, 8 stands
    st = new(["AS", "10H", "10D", "JS", "9H", "8D"])
    stake(st, {1: 2, 2: 3})
    assert money(st) == [-4, 4, 0]
    answer(st, 2, 0)  # seat 1 is not asked
    answer(st, 0, 0)
    assert st.is_terminal()
    assert money(st) == [-4 - 3, 4, 3]


def test_twenty_one_is_paid_double_and_ties_go_to_the_dealer():
    # seat 1: 10, 4, draws 7 (21): paid double; seat 2: 10, 8 (18) ties the dealer's 10, 8: pays him
    st = new(["10S", "10H", "10D", "4S", "8H", "8D", "7C"])
    stake(st, {1: 2, 2: 3})
    answer(st, 1, 1, 0)
    answer(st, 2, 0)
    answer(st, 0, 0)
    assert st.is_terminal()
    assert money(st) == [-4 + 3, 4, -3]


def test_the_dealers_drawn_twenty_one_takes_double_even_from_a_twenty_one():
    # seat 1: 10, 4, draws 7 (21); seat 2: 10, 9 (19); the dealer: 10, 5, draws 6 (21)
    st = new(["10S", "10H", "10D", "4S", "9H", "5D", "7C", "6C"])
    stake(st, {1: 2, 2: 3})
    answer(st, 1, 1, 0)
    answer(st, 2, 0)
    answer(st, 0, 1, 0)
    assert st.is_terminal()
    assert money(st) == [4 + 6, -4, -6]  # "(twenty-ones included)"


def test_the_dealer_over_pays_all_but_those_who_overdrew():
    # seat 1: 10, 6, draws 9 (over); seat 2: 9, 9 (18) stands; the dealer: 10, 6, draws K (over)
    st = new(["10S", "9H", "10D", "6S", "9C", "6D", "9S", "KH"])
    stake(st, {1: 2, 2: 3}, double=1)
    answer(st, 1, 1)
    assert money(st) == [4, -4, 0]  # doubled
    answer(st, 2, 0)
    answer(st, 0, 1)
    assert st.is_terminal()
    assert money(st) == [4 - 6, -4, 6]


def test_a_punters_natural_passes_the_deal_but_not_in_the_first_round():
    # seat 1: A, J (a natural); seat 2: 10, 9; the dealer: 10, 8
    first = ["AS", "10H", "10D", "JS", "9H", "8D"]
    st = new(first, hands=2)
    stake(st, {1: 1, 2: 1})
    answer(st, 2, 0)
    answer(st, 0, 0)
    assert st.dealer == 0  # the first round of a deal: "it does not have this effect"
    st = new(first, hands=2)
    st.vars["round"] = 2  # the same cards in the second round of the deal
    stake(st, {1: 1, 2: 1})
    answer(st, 2, 0)
    answer(st, 0, 0)
    assert st.dealer == 1 and st.vars["round"] == 1  # the deal passed to the left; his first round


def test_a_dealers_natural_keeps_him_the_deal():
    st = new(["9S", "8H", "AD", "8S", "7H", "QD"], hands=2)
    st.vars["round"] = 2
    stake(st, {1: 1, 2: 1})
    assert st.dealer == 0 and st.vars["round"] == 3


def test_going_on_both_plays_two_hands_each_paid_on_its_own_merits():
    # seat 1: 8, 8 goes on both: a card face down on each (10 and 3), stands on 18, draws a 9 on 11 (20),
    # stands; seat 2: 10, 7 stands; the dealer: 10, 9 (19): the first hand (18) pays, the second (20) is paid
    st = new(["8S", "10H", "10D", "8H", "7H", "9D", "10C", "3C", "9C"])
    stake(st, {1: 2, 2: 1})
    answer(st, 1, 0, both=1)  # "I go on both"; stands on the first hand
    assert sorted(c.name for c in st.hand[1]) == ["10C", "8S"] or sorted(c.name for c in st.hand[1]) == ["10C", "8H"]
    assert len(st.pzones["second"][1]) == 2 and st.pvars["total2"][1] == 11
    assert st.decision.seat == 1
    st.apply(1)  # a card on the second hand, face up
    assert [c.name for c in st.pzones["drawn2"][1]] == ["9C"] and st.pvars["total2"][1] == 20
    st.apply(0)
    answer(st, 2, 0)
    answer(st, 0, 0)
    assert st.is_terminal()
    assert money(st) == [2 - 2 + 1, -2 + 2, -1]  # "Each hand pays or receives on its own merits"


def test_only_alike_cards_may_go_on_both():
    st = new(["8S", "10H", "10D", "9H", "7H", "9D"])
    stake(st, {1: 2, 2: 1})
    assert st.decision.seat == 1 and 1 not in st.legal_moves()  # an eight and a nine are not alike


def test_the_dealers_cards_and_the_punters_first_two_stay_hidden_the_cards_drawn_are_seen():
    import academie

    game = academie.load_game(str(RULES))
    st = game.new_state(players=3, seed=0, dealer=0, deck=stacked(["6S", "5H", "10D", "8S", "8H", "7D", "2C", "9C"]))
    for m in (1, 1, 0, 0, 1):  # the stakes, no double; seat 1 answers one hand and draws the 2C
        st.apply(m)
    seen = [_names(st.observation(s), set()) for s in range(3)]
    assert not {"10D", "7D"} & (seen[1] | seen[2])  # the dealer's cards, face down
    assert not {"5H", "8H"} & (seen[0] | seen[1]) and not {"6S", "8S"} & (seen[0] | seen[2])
    assert all("2C" in s for s in seen)  # the card drawn, dealt face up
    st.apply(0)  # seat 1 stands on 16
    st.apply(0)  # seat 2: one hand
    st.apply(1)  # draws the 9C: over, his first two cards thrown face down
    seen = [_names(st.observation(s), set()) for s in range(3)]
    assert not {"5H", "8H"} & (seen[0] | seen[1])
    st.apply(0)  # the dealer stands on 17: his cards and the standing punter's are turned up
    assert st.hand_no == 2  # the next round is dealt; the events of the first are still in the view
    seen = [_names(st.observation(s), set()) for s in range(3)]
    assert {"10D", "7D", "6S", "8S"} <= seen[2] and not {"5H", "8H"} & seen[1]


def test_a_punters_natural_against_the_dealers_still_ends_the_deal():
    # seat 1: A, K; the dealer: A, Q: the naturals cancel, but one occurred "in any hand but the dealer's"
    st = new(["AS", "9H", "AD", "KS", "8H", "QD"], hands=2)
    st.vars["round"] = 2
    stake(st, {1: 2, 2: 1})
    assert money(st) == [2, 0, -2]
    assert st.dealer == 1


def test_imaginary_tens_one_card_after_the_stakes_ten_points_added_an_ace_a_natural():
    # option imaginary-tens: the stakes first, then one card each: seat 1 an ace (a natural), seat 2 a
    # seven (17) draws a three (20); the dealer a king ("twenty") stands: seat 1 paid double, seat 2 ties
    st = new(["AS", "7H", "KD", "3C"], options=["imaginary-tens"])
    for seat in (1, 2):
        assert st.decision.seat == seat and not st.hand[seat]  # "stakes before receiving his card"
        st.apply(2)
    assert st.pvars["total"] == [20, 21, 17] and st.pvars["natural"][1] == 1
    assert money(st) == [-4, 4, 0]
    assert st.decision.seat == 2  # one card: he is not asked whether he goes on both
    st.apply(1)
    assert st.pvars["total"][2] == 20
    st.apply(0)
    answer(st, 0, 0)
    assert st.is_terminal()
    assert money(st) == [-4 + 2, 4, -2]  # a tie goes to the dealer
