"""Vingt-un after Hoyle's Games, Improved (hoyle-improved-vingt-un): the rules of the text played on
stacked packs — the natural paid double and taking the deal, the player who passes 21 paying at
once, the dealer's draw (his vingt-un taking double, his passing 21 paying all who stand), the
ace eleven or one, equal numbers neither paying nor receiving."""

from pathlib import Path

from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.state import State

RULES = Path(__file__).parent.parent / "rules" / "vingt-un" / "hoyle.yaml"


def stacked(first):
    """A pack with ``first`` on top (the first card to seat 1, then seat 2, then the dealer, seat 0;
    the second cards likewise; then the cards drawn), the others after in their order."""
    names = [r + s for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    return [card(n) for n in [*first, *[n for n in names if n not in first]]]


def new(first, hands=1):
    return State(load_game(str(RULES)), 3, 0, dealer=0, deck=stacked(first), hands=hands)


def stake(st, stakes):
    """The stakes: seats 1 and 2 in turn each put ``stakes[seat]`` on his hand (0: nothing)."""
    for seat in (1, 2):
        assert st.decision.seat == seat and st.decision_kind() == "stake"
        if stakes[seat]:
            st.apply("hand")
            st.apply(stakes[seat])  # his one target staked, his turn is over
        else:
            st.apply("pass")


def answer(st, seat, *draws):
    """``seat`` is asked, and draws (1) or stands (0) as ``draws`` says."""
    for d in draws:
        assert st.decision.seat == seat, (st.decision.seat, seat)
        st.apply(d)


def money(st):
    return [st.bal[s]["stake"] for s in range(3)]


def test_a_natural_is_paid_double_by_the_dealer_and_takes_the_deal():
    # seat 1: A, K (a natural); seat 2: 9, 8; the dealer: 10, 7
    st = new(["AS", "9H", "10D", "KS", "8H", "7D"], hands=2)
    stake(st, {1: 2, 2: 3})
    assert money(st) == [-4, 4, 0]  # double stakes of the dealer; seat 2's stake neither won nor lost
    assert st.dealer == 1  # the deal is his


def test_a_player_passing_21_pays_his_stake_at_once_and_is_not_paid_when_the_dealer_passes_it():
    # seat 1: 10, 6, draws 9 (25); seat 2: 9, 9 stands (18); the dealer: 10, 6, draws K (26)
    st = new(["10S", "9H", "10D", "6S", "9C", "6D", "9S", "KH"])
    stake(st, {1: 2, 2: 3})
    answer(st, 1, 1)
    assert money(st) == [2, -2, 0]  # paid directly, before the others are asked
    assert [c.name for c in st.zones["thrown"]] and not st.hand[1]  # his cards thrown up
    answer(st, 2, 0)
    answer(st, 0, 1)
    assert st.is_terminal()
    assert money(st) == [2 - 3, -2, 3]  # the dealer over 21 pays all who have not thrown up


def test_the_dealers_vingt_un_takes_double_from_all_who_stand_but_one_with_21():
    # seat 1: 10, 9 stands (19); seat 2: 7, 4, draws K (21); the dealer: 10, 5, draws 6 (21)
    st = new(["10S", "7H", "10D", "9S", "4H", "5D", "KH", "6C"])
    stake(st, {1: 2, 2: 3})
    answer(st, 1, 0)
    answer(st, 2, 1, 0)  # at 21 he is asked again, and stands
    answer(st, 0, 1, 0)
    assert st.is_terminal()
    assert money(st) == [4, -4, 0]  # double from seat 1; with seat 2 a drawn game


def test_higher_numbers_are_paid_single_lower_pay_equal_neither_and_an_ace_counts_one_or_eleven():
    # seat 1: A, 5, draws 9 (15: the ace one) against the dealer's 10, 8 (18): pays;
    # seat 2: A, 8 (19: the ace eleven) stands: paid single
    st = new(["AS", "AH", "10D", "5S", "8H", "8D", "9C"])
    stake(st, {1: 2, 2: 3})
    answer(st, 1, 1, 0)
    assert st.pvars["total"][1] == 15
    answer(st, 2, 0)
    answer(st, 0, 0)
    assert st.is_terminal()
    assert money(st) == [2 - 3, -2, 3]


def test_equal_numbers_neither_pay_nor_receive():
    st = new(["10S", "9H", "10D", "8S", "9C", "8D"])  # 18, 18, 18
    stake(st, {1: 2, 2: 3})
    answer(st, 1, 0)
    answer(st, 2, 0)
    answer(st, 0, 0)
    assert st.is_terminal() and money(st) == [0, 0, 0]
