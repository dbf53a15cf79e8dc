"""Melds declared in trick play (``declare:`` of ``kind: tricks``, interpreter/declare.py): the
concept file tests/concepts/declaring.yaml — after a trick its winner may show a meld, laid face
up on his table and scored; the cards shown are played from the table; a card shown serves again
only in a meld of another kind; both draw from the stock after the declaration, the winner first;
the last cards are played under strict rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from academie.api.game import load_game as load_api
from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.state import State

HERE = Path(__file__).parent
CONCEPT = HERE / "concepts" / "declaring.yaml"
ALL = [card(r + s) for s in "SHDC" for r in ("9", "J", "Q", "K", "10", "A")]


def cards(*names):
    return [card(n) for n in names]


def names(cs):
    return sorted(c.name if hasattr(c, "name") else str(c) for c in cs)


def stacked(hands, turned, top):
    """A whole deal: the hands, the card turned up for trumps, and the stock with ``top`` on top
    (its first card drawn first), the rest of the pack below."""
    given = {c for h in hands for c in h} | set(top) | {turned}
    return {"hands": hands, "trump_card": [turned], "stock": top + [c for c in ALL if c not in given]}


# the dealer is seat 0, seat 1 leads; hearts are trumps (the nine turned up); the stock's next
# cards: the king of hearts, the ten of spades, the ace of clubs, the knave of hearts
HANDS = [cards("KS", "QS", "KC", "KD", "10D", "9C"), cards("AS", "9S", "JC", "9D", "JD", "QD")]
DEAL = stacked(HANDS, card("9H"), cards("KH", "10S", "AC", "JH"))


def start(path=CONCEPT):
    return State(load_game(str(path)), 2, 0, dealer=0, deal=DEAL, hands=1)


def test_the_winner_shows_a_meld_on_his_table_scores_it_then_both_draw_winner_first():
    st = start()
    assert st.trump == "H"
    st.apply(card("9D"))
    st.apply(card("10D"))  # the ten heads the nine: seat 0 wins
    # before the draw, the winner may declare: his marriage of spades (the king of diamonds has no queen)
    assert st.current_player() == 0
    assert st.legal_moves() == ["pass", "marriage"]
    assert len(st.zones["stock"]) == 11  # nothing drawn yet
    st.apply("marriage")
    assert names(st.pzones["shown"][0]) == ["KS", "QS"]
    assert st.pvars["points"] == [20, 0]
    # then the draw: the winner the top card, the loser the next
    assert card("KH") in st.hand[0] and card("10S") in st.hand[1]
    assert [e for e in st.events if e["type"] == "meld"] == [
        {"type": "meld", "seat": 0, "cards": ["QS", "KS"], "as": "marriage"}
    ]
    # the cards shown stay his to play: the hand and the table offered together
    assert st.current_player() == 0
    assert names(st.legal_moves()) == names(cards("KC", "KD", "9C", "KH", "KS", "QS"))


def test_a_card_shown_serves_again_only_in_a_meld_of_another_kind():
    st = start()
    for m in ("9D", "10D", "marriage", "9C", "JC"):  # seat 1 takes the second trick with the knave of clubs
        st.apply(card(m) if m != "marriage" else m)
    assert st.current_player() == 1 and card("AC") in st.hand[1] and card("JH") in st.hand[0]
    st.apply(card("9S"))
    st.apply(card("QS"))  # the queen of spades, played from the table, heads the nine
    assert names(st.pzones["shown"][0]) == ["KS"]
    # four kings: the king of spades on the table (shown in a marriage) with three from the hand
    assert st.legal_moves() == ["pass", "four_kings"]
    st.apply("four_kings")
    assert names(st.pzones["shown"][0]) == ["KC", "KD", "KH", "KS"]
    assert st.pvars["points"] == [100, 0]


def test_reuse_never_forbids_a_card_shown_before(tmp_path):
    text = CONCEPT.read_text().replace("      table: shown\n", "      table: shown\n      reuse: never\n", 1)
    path = tmp_path / "never.yaml"
    path.write_text(text)
    st = start(path)
    for m in ("9D", "10D", "marriage", "9C", "JC", "9S", "QS"):
        st.apply(card(m) if m != "marriage" else m)
    # the king of spades was shown: four kings cannot be declared, nothing is asked
    assert st.current_player() == 0 and "four_kings" not in st.legal_moves()


def test_the_loser_of_a_trick_is_not_asked():
    st = start()
    st.apply(card("9D"))
    st.apply(card("9C"))  # seat 0 does not follow (no duty while the stock lasts): seat 1 wins
    # seat 0 holds a marriage of spades, but he lost the trick: seat 1 leads at once
    assert st.current_player() == 1 and all(not isinstance(m, str) for m in st.legal_moves())


def test_a_meld_all_of_whose_cards_are_shown_is_not_declared_again():
    st = start()
    for m in ("9D", "10D", "marriage", "KH", "9S"):  # seat 0 leads the king of trumps and wins
        st.apply(card(m) if m != "marriage" else m)
    # the king and queen of spades lie on his table, shown as a marriage: not a marriage again
    assert st.current_player() == 0 and all(not isinstance(m, str) for m in st.legal_moves())


def test_a_copy_resumes_at_a_declaration():
    st = start()
    st.apply(card("9D"))
    st.apply(card("10D"))
    other = st.copy()
    assert other.legal_moves() == st.legal_moves() == ["pass", "marriage"]
    other.apply("pass")
    st.apply("marriage")
    assert other.pzones["shown"][0] == [] and other.pvars["points"] == [0, 0]
    assert names(st.pzones["shown"][0]) == ["KS", "QS"]


def test_the_melds_shown_are_seen_by_the_other_seat_and_nothing_else_of_the_hand():
    s = load_api(str(CONCEPT)).new_state(seed=0, dealer=0, deal=plain(DEAL))
    for m in ("9D", "10D", "marriage"):
        s.apply(m)
    obs = s.observation(1)
    assert obs["seat_zones"]["shown"][0] == {"count": 2, "cards": ["QS", "KS"]}
    hidden = {"KC", "KD", "9C", "KH"}  # seat 0's hand: never named to seat 1
    text = s.information_state_string(1)
    assert not any(f'"{c}"' in text for c in hidden)


def plain(deal):
    return {k: ([[c.name for c in h] for h in v] if k == "hands" else [c.name for c in v]) for k, v in deal.items()}


@pytest.mark.parametrize("seed", range(12))
def test_after_the_stock_the_follower_heads_the_trick_if_able_else_follows_else_trumps(seed):
    rng = random.Random(seed)
    st = State(load_game(str(CONCEPT)), 2, seed, hands=1)
    checked = 0
    while st.decision is not None:
        moves = st.legal_moves()
        if st.decision.kind == "play" and not st.zones["stock"] and not st.zones["trump_card"] and st.zones["trick"]:
            led = st.zones["trick"][0]
            seat = st.current_player()
            mine = st.hand[seat] + st.pzones["shown"][seat]
            order = ["9", "J", "Q", "K", "10", "A"]
            head = [c for c in mine if c.suit == led.suit and order.index(c.rank) > order.index(led.rank)]
            follow = [c for c in mine if c.suit == led.suit]
            trump = [c for c in mine if c.suit == st.trump]
            assert names(moves) == names(head or follow or trump or mine)
            checked += 1
        st.apply(rng.choice(moves))
    assert checked == 6  # the six tricks played after the stock


def test_of_two_ways_of_a_meld_the_winner_names_a_card_of_the_one_he_shows():
    hands = [cards("KS", "QS", "KC", "QC", "10D", "9C"), cards("AS", "9S", "JC", "9D", "JD", "QD")]
    st = State(load_game(str(CONCEPT)), 2, 0, dealer=0, deal=stacked(hands, card("9H"), []), hands=1)
    st.apply(card("9D"))
    st.apply(card("10D"))
    assert st.legal_moves() == ["pass", "marriage"]
    st.apply("marriage")
    # two marriages: he names a card that is in one and not the other
    assert names(st.legal_moves()) == ["KC", "KS", "QC", "QS"]
    st.apply(card("QC"))
    assert names(st.pzones["shown"][0]) == ["KC", "QC"] and st.pvars["points"] == [20, 0]
    assert [e for e in st.events if e["type"] == "choose"] == [{"type": "choose", "seat": 0, "card": "QC"}]


def test_ways_of_a_meld_with_copies_of_a_card_are_told_apart_by_the_cards_held_in_different_numbers():
    from academie.dsl.combinations import Combination
    from academie.interpreter.declare import _telling, ways_of

    four = Combination("four", "set", least=4, most=4, strength={"A": 8}, ranks=frozenset({"A"}))
    hand = cards("AS", "AS", "AH", "AD", "AC")  # two copies of the ace of spades (two packs)
    ways = ways_of(four, hand)
    assert sorted(names(w) for w in ways) == [
        ["AC", "AD", "AH", "AS"],
        ["AC", "AD", "AS", "AS"],
        ["AC", "AH", "AS", "AS"],
        ["AD", "AH", "AS", "AS"],
    ]
    # every card tells some ways apart, the ace of spades too (held once or twice)
    assert names(_telling(ways, ())) == ["AC", "AD", "AH", "AS"]
    chosen = (card("AS"), card("AS"))
    left = [w for w in ways if w.count(card("AS")) == 2]
    assert names(_telling(left, chosen)) == ["AC", "AD", "AH"]
