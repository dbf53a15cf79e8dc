"""Lansquenet after the Encyclopaedia Britannica, 1911 (eb11-lansquenet): the rules of the article
played on stacked packs — stakes on the cards in the middle, a card that matches none laid there to
be staked on, a matched card's stakes won by the bank, the deal over when the banker's own card is
matched (the bank paying the stakes standing), the second deal when both cards at his left are
matched first, and France's reading (matching wins) as an option."""

from pathlib import Path

from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.state import State
from test_games_faro import money, punt  # a stake step of the punters, seats 1 and 2; their money

RULES = Path(__file__).parent.parent / "rules" / "lansquenet" / "eb11.yaml"
# two to the banker's left (4S, 3H), his own (KS), the rejouissance (2S), then the cards turned
FIRST = ["4S", "3H", "KS", "2S", "5H", "2D", "KD"]


def new(*options, first=FIRST, hands=1):
    names = [r + s for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    deck = [card(n) for n in [*first, *[n for n in names if n not in first]]]
    return State(load_game(str(RULES), options), 3, 0, dealer=0, deck=deck, hands=hands)


def test_a_card_matching_none_is_laid_in_the_middle_a_matched_stake_is_the_banks_and_his_card_ends_the_deal():
    st = new()
    punt(st, {1: {"deuce": 2}})  # on the rejouissance; 5H turned matches nothing: laid in the middle
    assert [c.name for c in st.zones["table"]] == ["2S", "5H"]
    punt(st, {2: {"five": 3}})  # 2D matches the rejouissance: seat 1's two are the bank's
    assert money(st) == [2, -2, 0]
    punt(st)  # KD matches the banker's own card: the deal is over, he pays the stake standing
    assert st.is_terminal()
    assert money(st) == [2 - 3, -2, 3]


def test_a_stake_on_a_rank_not_in_the_middle_is_taken_back():
    st = new()
    punt(st, {1: {"five": 4}})  # no five in the middle yet: the stake does not stand
    punt(st)  # 2D
    punt(st)  # KD
    assert money(st) == [0, 0, 0]


def test_both_cards_at_his_left_matched_before_his_own_give_the_banker_a_second_deal():
    st = new(first=["4S", "3H", "KS", "2S", "4D", "3D", "KD"], hands=2)
    for _ in range(3):
        punt(st)
    assert st.dealer == 0 and st.hand_no == 2


def test_the_bank_passes_otherwise():
    st = new(hands=2)
    for _ in range(3):
        punt(st)
    assert st.dealer == 1 and st.hand_no == 2


def test_in_france_matching_wins_for_the_punter():
    st = new("matching-wins")
    punt(st, {1: {"deuce": 2}})
    punt(st, {2: {"five": 3}})  # 2D: seat 1 is paid two
    assert money(st) == [-2, 2, 0]
