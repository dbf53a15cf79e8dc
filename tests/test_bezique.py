"""Bezique (rules/bezique/bezique.yaml, after the New International Encyclopaedia): the article's
rules reproduced on stacked deals of the double pack — two equal cards, the leader's wins; after a
trick its winner declares, face up on the table, before the draw, the winner drawing first; the
declared cards are still played; the seven of trumps exchanged for the card turned up scores ten
and is taken up last; double bezique scores 500 — and what each seat sees."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import academie
from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.state import State

RULES = Path(__file__).parent.parent / "rules" / "bezique" / "bezique.yaml"
ALL = [card(r + s) for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")] * 2


def cards(*names):
    return [card(n) for n in names]


def names(cs):
    return sorted(c.name if hasattr(c, "name") else str(c) for c in cs)


def stacked(hands, turned, top):
    """A whole deal of the double pack: the hands, the card turned up for trumps, the stock with
    ``top`` on top (its first card drawn first), the rest of the two packs below."""
    left = Counter(ALL)
    left.subtract(Counter([c for h in hands for c in h] + list(top) + [turned]))
    assert all(k >= 0 for k in left.values()), "a card dealt more than twice"
    rest = [c for c in ALL if left[c] > 0 and not left.subtract({c: 1})]
    return {"hands": hands, "trump_card": [turned], "stock": list(top) + rest}


# clubs are trumps (the nine turned up): the bezique cards are the queen of spades and knave of diamonds.
# The dealer is seat 0; seat 1 leads.
HANDS = [
    cards("10H", "QS", "QS", "JD", "JD", "AS", "7C", "8D"),
    cards("10H", "8S", "9S", "9D", "7D", "8H", "9H", "7H"),
]
DEAL = stacked(HANDS, card("9C"), cards("KH", "10S", "AC", "JH", "KD", "QD"))


def start():
    return State(load_game(str(RULES)), 2, 0, dealer=0, deal=DEAL, hands=1)


def test_of_two_equal_cards_the_leader_wins_then_the_winner_draws_first():
    # "Tricks are taken as in whist, except when the cards are equal, such as two tens together,
    # when the leader wins the trick."
    st = start()
    assert st.trump == "C"
    st.apply(card("10H"))
    st.apply(card("10H"))
    assert [e["winner"] for e in st.events if e["type"] == "trick"] == [1]
    # "the winner tak ing the top card and the loser the next": seat 1 has nothing to declare
    assert card("KH") in st.hand[1] and card("10S") in st.hand[0]
    assert st.current_player() == 1


def test_double_bezique_scores_500_and_the_declared_cards_are_still_played():
    st = start()
    st.apply(card("10H"))
    st.apply(card("10H"))  # seat 1 wins, draws the king of hearts; seat 0 the ten of spades
    st.apply(card("8S"))
    st.apply(card("AS"))  # seat 0 wins
    moves = st.legal_moves()
    assert moves[0] == "pass" and {"bezique", "double_bezique", "seven_exchanged"} <= set(moves)
    st.apply("double_bezique")
    assert names(st.pzones["declared"][0]) == ["JD", "JD", "QS", "QS"]
    assert st.pvars["points"][0] == 500
    # declared before the draw: then the winner (seat 0) the ace of clubs, the loser the knave of hearts
    assert card("AC") in st.hand[0] and card("JH") in st.hand[1]
    # "they still form part of the hand, and can be led or played"
    assert st.current_player() == 0
    assert {"QS", "JD"} <= {m.name for m in st.legal_moves()}
    st.apply(card("QS"))
    assert names(st.pzones["declared"][0]) == ["JD", "JD", "QS"]


def test_a_bezique_then_another_bezique_of_the_other_copies_then_double_bezique():
    st = start()
    for m in ("10H", "10H", "8S", "AS"):
        st.apply(card(m))
    st.apply("bezique")
    assert names(st.pzones["declared"][0]) == ["JD", "QS"] and st.pvars["points"][0] == 40
    st.apply(card("8D"))  # seat 0 leads the eight of diamonds
    st.apply(card("7D"))  # seat 0 wins again
    # the shown pair may not make a bezique again, but the pair still in the hand may; both may make
    # double bezique (a meld of another kind)
    assert {"bezique", "double_bezique"} <= set(st.legal_moves())
    st.apply("double_bezique")
    assert st.pvars["points"][0] == 540
    assert names(st.pzones["declared"][0]) == ["JD", "JD", "QS", "QS"]


def test_the_seven_of_trumps_exchanged_for_the_turn_up_scores_ten_and_is_taken_up_last():
    # "10 for the seven of trumps played or exchanged"; "the trump card, or the one exchanged for it,
    # being taken up last"
    st = start()
    for m in ("10H", "10H", "8S", "AS"):
        st.apply(card(m))
    st.apply("seven_exchanged")
    assert st.pvars["points"][0] == 10
    assert card("9C") in st.hand[0] and card("7C") not in st.hand[0]
    assert st.zones["trump_card"] == [card("7C")] and st.pzones["declared"][0] == []
    # the rest of the stock drawn, the seven is the last card taken up, by the loser of that trick
    rng = random.Random(1)
    while st.zones["stock"]:
        st.apply(rng.choice([m for m in st.legal_moves() if m != "seven_exchanged"]))
    assert st.zones["trump_card"] == []
    assert any(card("7C") in st.hand[s] or card("7C") in st.pzones["declared"][s] for s in (0, 1))


def test_each_seat_sees_the_declared_cards_never_the_stock_nor_the_other_hand():
    game = academie.load_game(str(RULES))
    deal = {k: ([[c.name for c in h] for h in v] if k == "hands" else [c.name for c in v]) for k, v in DEAL.items()}
    s = game.new_state(seed=0, dealer=0, deal=deal)
    for m in ("10H", "10H", "8S", "AS", "double_bezique"):
        s.apply(m)
    obs = s.observation(1)
    assert sorted(obs["seat_zones"]["declared"][0]["cards"]) == ["JD", "JD", "QS", "QS"]
    assert obs["zones"]["stock"]["cards"] == []
    text = json.dumps(obs)
    for c in ("7C", "8D", "AC"):  # seat 0's hand, unseen by seat 1 (the ace of clubs drawn from the stock)
        assert f'"{c}"' not in text
