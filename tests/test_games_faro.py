"""Faro after Hoyle's Games, Improved (hoyle-improved-faro): the rules of the text played on
stacked packs — the coup (a card to the banker's right, one to his left), the doublet, two of a
punter's cards in one coup, the hocly and the last card, the eight cards in which a stake may not
be withdrawn."""

from pathlib import Path

from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.state import State

RULES = Path(__file__).parent.parent / "rules" / "faro" / "hoyle.yaml"
FIRST = ["KS", "5H", "5D", "5S", "9C", "2H"]
LAST = ["QH", "JS"]  # the hocly (the last card but one) and the last card


def stacked(first=FIRST, last=LAST):
    """A pack: ``first`` on top, ``last`` at the bottom, the other cards between in their order."""
    names = [r + s for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    middle = [n for n in names if n not in first and n not in last]
    return [card(n) for n in [*first, *middle, *last]]


def new(*options, first=FIRST, last=LAST):
    return State(load_game(str(RULES), options), 3, 0, dealer=0, deck=stacked(first, last), hands=1)


def punt(st, stakes=None):
    """One stake step: each punter in turn (seats 1, 2) stakes as ``stakes`` says, then passes."""
    stakes = stakes or {}
    for seat in (1, 2):
        assert st.decision.seat == seat and st.decision_kind() == "stake"
        for target, amount in stakes.get(seat, {}).items():
            st.apply(target)
            st.apply(amount)
        st.apply("pass")


def money(st):
    return [st.bal[s]["money"] for s in range(3)]


def test_the_banker_wins_on_his_right_and_loses_on_his_left_and_the_stake_won_stays():
    st = new()
    punt(st, {1: {"king": 2}, 2: {"five": 3}})
    # KS to the right: the bank wins seat 1's two; 5H to the left: the bank pays seat 2 three
    assert [e["card"] for e in st.events if e["type"] == "turnup"] == ["KS", "5H"]
    assert money(st) == [2 - 3, -2, 3]
    assert st.pvars["stake:K"][1] == 0 and st.pvars["stake:5"][2] == 3


def test_a_doublet_loses_half_the_stake():
    st = new()
    punt(st, {2: {"five": 3}})  # KS, 5H: seat 2 paid three
    punt(st)  # 5D, 5S: a doublet, seat 2 loses half of three (one, the lesser half), the stake taken down
    assert money(st) == [-3 + 1, 0, 3 - 1]
    assert st.pvars["stake:5"][2] == 0


def test_two_of_a_punters_cards_in_one_coup_is_a_drawn_game():
    st = new()
    punt(st)
    punt(st)
    punt(st, {1: {"nine": 4, "deuce": 4}})  # 9C to the right, 2H to the left: one for the other
    assert money(st) == [0, 0, 0]
    pays = [e for e in st.events if e["type"] == "pay"]
    assert [(e["from"], e["to"], e["amount"]) for e in pays] == [(1, 0, 4), (0, 1, 4)]


def test_the_pack_is_dealt_out_coup_after_coup_and_the_hocly_goes_to_the_bank():
    st = new()
    while len(st.zones["stock"]) > 2:
        punt(st)
    punt(st, {1: {"queen": 2}, 2: {"knave": 3}})  # the last coup: QH (hocly), JS (the last card)
    assert st.is_terminal()
    assert len([e for e in st.events if e["type"] == "turnup"]) == 52  # 26 coups
    assert money(st) == [2, -2, 0]  # the hocly is the bank's; the last card neither wins nor loses
    assert all(v == [0, 0, 0] for k, v in st.pvars.items() if k.startswith("stake:"))  # stakes taken back


def test_with_the_hocly_given_up_the_last_coup_neither_wins_nor_loses():
    st = new("hocly-given-up")
    while len(st.zones["stock"]) > 2:
        punt(st)
    punt(st, {1: {"queen": 2}, 2: {"knave": 3}})
    assert st.is_terminal() and money(st) == [0, 0, 0]


def test_with_eight_cards_or_fewer_left_a_stake_may_not_be_withdrawn():
    st = new()
    while len(st.zones["stock"]) > 12:  # no ace is left among the last twelve cards
        punt(st)
    punt(st, {2: {"ace": 3}})
    st.apply("pass")  # seat 1
    st.apply("ace")  # ten cards left: seat 2 may still take his stake down
    assert st.legal_moves() == [0, 1, 2, 3, 4]
    st.apply(3)
    st.apply("pass")
    assert len(st.zones["stock"]) == 8
    st.apply("pass")
    st.apply("ace")  # eight left: he may raise it, not lower it
    assert st.legal_moves() == [3, 4]


def strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from strings(v)


def test_nobody_sees_a_card_of_the_stock_before_it_is_turned():
    import academie

    game = academie.load_game("faro/hoyle")
    state = game.new_state(players=3, seed=1)
    names = {c.name for c in state.engine.pack_cards}
    for _ in range(3):  # three coups, nobody staking
        turned = {c.name for z in ("right", "left") for c in state.engine.zones[z]}
        for seat in range(3):
            seen = set(strings(state.observation(seat))) & names
            assert seen == turned  # the cards turned up, and none of the stock
        while True:
            state.apply("pass")
            if state.current_player() == 1:
                break
