"""Draw-and-meld play (``kind: draw_meld``, interpreter/meld.py): the concept file
tests/concepts/meld.yaml (a card drawn into the hand, cards laid out one by one then
``meld``, a discard) and Conquian (rules/conquian/conquian.yaml: a card drawn turned up,
laid out at once or refused)."""

from __future__ import annotations

from pathlib import Path

import pytest

import academie
from academie.dsl.cards import card, parse_card
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State

HERE = Path(__file__).parent
CONCEPT = HERE / "concepts" / "meld.yaml"
RULES = HERE.parent / "rules" / "conquian" / "conquian.yaml"


def cards(*names):
    return [card(n) for n in names]


def stacked(hands, top):
    """A whole deal: the hands, and the stock with ``top`` on top (its last cards), the rest of
    the forty cards below."""
    given = {c for h in hands for c in h} | set(top)
    rest = [card(r + s) for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    return {"hands": hands, "stock": [c for c in rest if c not in given] + top}


def names(cs):
    return sorted(c.name if hasattr(c, "name") else str(c) for c in cs)


# seat 1 plays first (the dealer is seat 0); the stock's top is its last card
DEAL = stacked(
    [cards("AS", "2S", "9D", "9C", "6H", "7C", "10D"), cards("3H", "4H", "5H", "8S", "8D", "2C", "10C")],
    cards("AD", "AC", "4D", "3S", "8C"),
)


def test_only_cards_that_can_still_complete_a_meld_are_offered_then_meld_lays_them():
    st = State(load_game(str(CONCEPT)), 2, 0, dealer=0, deal=DEAL, hands=1)
    # nothing to take yet: the one move, draw, is made without asking (the 8 of clubs, into his hand)
    assert st.current_player() == 1
    assert card("8C") in st.hand[1]
    # a run of hearts and a set of eights may be laid: the 2 and 10 of clubs can complete nothing
    assert names(st.legal_moves()) == names(cards("3H", "4H", "5H", "8S", "8D", "8C")) + ["pass"]
    st.apply(card("3H"))
    # with the 3 of hearts chosen, the eights may still join (a set beside the run)
    assert names(st.legal_moves()) == names(cards("4H", "5H", "8S", "8D", "8C")) + ["pass"]
    st.apply(card("4H"))
    assert "meld" not in st.legal_moves()  # two cards are no meld
    st.apply(card("5H"))
    assert "meld" in st.legal_moves()
    st.apply("meld")
    assert names(st.pzones["melded"][1]) == ["3H", "4H", "5H"]
    # a second laying out: the eights; the 2 and 10 of clubs still cannot be laid
    assert names(st.legal_moves()) == names(cards("8S", "8D", "8C")) + ["pass"]
    for c in ("8S", "8D", "8C"):
        st.apply(card(c))
    st.apply("meld")
    assert names(st.legal_moves()) == ["10C", "2C"]  # the discard
    st.apply(card("2C"))
    assert st.current_player() == 0 and set(st.legal_moves()) == {"take", "draw"}
    st.apply("take")  # the 2 of clubs, into seat 0's hand
    assert card("2C") in st.hand[0]
    # nothing he holds lays out: he is asked only for his discard
    assert names(st.legal_moves()) == names(cards("AS", "2S", "9D", "9C", "6H", "7C", "10D", "2C"))


def test_a_pass_that_ends_the_turn_is_asked_even_when_it_is_the_only_move(tmp_path):
    # with no discard, a pass ends the turn in sight of the other: made without asking only when
    # nothing of the hand lays out, it would tell the other so (docs/language.md, kind: draw_meld)
    text = CONCEPT.read_text()
    assert "    drawn: hand\n" in text
    path = tmp_path / "no_discard.yaml"
    path.write_text(text.replace("    drawn: hand\n", "    drawn: hand\n    discard: false\n", 1))
    deal = stacked(
        [cards("2D", "4D", "6S", "8S", "10H", "2C", "4C"), cards("AS", "3S", "5S", "7S", "9S", "2H", "4H")],
        cards("8C", "6D"),
    )
    st = State(load_game(str(path)), 2, 0, dealer=0, deal=deal, hands=1)
    # seat 1 draws the 6 of diamonds: nothing of his lays out, yet he is asked
    assert st.current_player() == 1 and card("6D") in st.hand[1]
    assert st.legal_moves() == ["pass"]
    st.apply("pass")
    assert st.current_player() == 0 and card("8C") in st.hand[0]  # seat 0 draws, and is asked too
    assert st.legal_moves() == ["pass"]


def test_a_card_is_laid_off_on_the_players_own_melds():
    deal = stacked(
        [cards("AS", "2S", "9D", "9C", "5D", "7C", "10S"), cards("3H", "4H", "5H", "2C", "10C", "7D", "7S")],
        cards("AD", "AC", "4D", "3S", "6H", "2D", "9S"),
    )
    st = State(load_game(str(CONCEPT)), 2, 0, dealer=0, deal=deal, hands=1)
    # the 9 of spades is drawn without asking; he lays out his run of hearts
    for c in ("3H", "4H", "5H"):
        st.apply(card(c))
    st.apply("meld")
    st.apply(card("9S"))  # nothing more lays out: his discard
    st.apply("draw")  # seat 0 draws the 2 of diamonds, lays nothing, discards it
    st.apply(card("2D"))
    st.apply("draw")  # seat 1 draws the 6 of hearts: it lays out only on his run
    assert names(st.legal_moves()) == ["6H", "pass"]
    st.apply(card("6H"))
    st.apply("meld")
    assert names(st.pzones["melded"][1]) == ["3H", "4H", "5H", "6H"]


def _named(v, out: set) -> set:
    """Every card named anywhere in an observation."""
    if isinstance(v, str):
        if parse_card(v) is not None:
            out.add(v)
    elif isinstance(v, dict):
        for k, x in v.items():
            _named(k, out)
            _named(x, out)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _named(x, out)
    return out


def test_what_a_seat_sees_holds_no_card_of_the_stock_nor_of_the_others_hand():
    for path in (CONCEPT, RULES):
        g = academie.load_game(str(path) if path == CONCEPT else "conquian/conquian")
        for seed in range(4):
            st = g.new_state(players=2, seed=seed)
            e = st.engine
            dealt = [{c.name for c in h} for h in e.hand]  # the hands as dealt
            pile = e.zones["discards" if path == CONCEPT else "faced"]
            tables = e.pzones["melded" if path == CONCEPT else "down"]
            steps, shown = 0, set()  # the cards ever face up: on the pile or a table
            while not st.is_terminal() and steps < 300 and e.hand_no == 1:  # the first hand
                steps += 1
                shown |= {c.name for z in (pile, *tables) for c in z}
                for seat in range(2):
                    seen = _named(st.observation(seat, earlier_hands=False), set())
                    assert not seen & {c.name for c in e.zones["stock"]}, (path.name, seed, seat)
                    # a card dealt to the other and never out of his hand is never named
                    hidden = dealt[1 - seat] & {c.name for c in e.hand[1 - seat]} - shown
                    assert not seen & hidden, (path.name, seed, seat, seen & hidden)
                acts = st.legal_actions()
                st.apply_action(acts[(seed + steps) % len(acts)])


def test_hands_of_the_concept_play_to_the_end():
    for seed in range(10):
        st = play(State(load_game(str(CONCEPT)), 2, seed), make_agents(["random"], 2, seed))
        assert not st.unfinished
        st.check_invariants()


def _conquian(hands, top):
    deal = stacked(hands, top)
    return State(load_game(str(RULES)), 2, 0, dealer=0, deal={"hands": deal["hands"], "stock": deal["stock"]}, hands=1)


def test_conquian_the_first_with_eleven_cards_down_wins():
    # "The game is won by the player who first gets eleven cards down": ten dealt, the eleventh drawn
    st = _conquian(
        [
            cards("6S", "7S", "9S", "6C", "7C", "9C", "10C", "8D", "10D", "10H"),
            cards("AH", "2H", "3H", "4H", "5H", "AD", "2D", "3D", "4D", "5D"),
        ],
        cards("6H"),
    )
    # seat 1 plays first: the 6 of hearts is turned up; every card of his hand may go with it
    assert names(st.legal_moves()) == names(st.hand[1]) + ["pass"]
    for c in sorted(st.hand[1], key=lambda c: c.canon):
        st.apply(c)
    st.apply("meld")
    assert len(st.pzones["down"][1]) == 11 and not st.hand[1]
    assert st.winner == 1 and st.pvars["won"] == [0, 1]


def test_conquian_a_card_drawn_is_faced_refused_and_taken_by_the_other_only_to_lay_it_out():
    st = _conquian(
        [
            cards("7C", "8C", "AS", "3S", "5S", "7S", "AH", "3H", "5H", "7H"),
            cards("2S", "4S", "6S", "8S", "2H", "4H", "6H", "8H", "2D", "4D"),
        ],
        cards("10D", "9C"),
    )
    # seat 1's 9 of clubs lays out with nothing of his: he is asked all the same, pass his one
    # move (asked only when his hand went with the card, he would tell seat 0 so), and it is
    # refused, faced on the stock
    assert [e["type"] for e in st.events][-1] == "draw" and st.current_player() == 1
    assert st.legal_moves() == ["pass"]
    st.apply("pass")
    assert [e["type"] for e in st.events][-2:] == ["draw", "refuse"]
    assert st.zones["faced"] == cards("9C") and len(st.hand[1]) == 10
    # seat 0 may take it (it makes a sequence with his 7 and 8) or turn up the next card
    assert st.current_player() == 0 and set(st.legal_moves()) == {"take", "draw"}
    st.apply("take")
    assert "pass" not in st.legal_moves()  # a card taken is laid out at once
    assert names(st.legal_moves()) == ["7C", "8C"]
    st.apply(card("7C"))
    st.apply(card("8C"))
    st.apply("meld")
    assert names(st.pzones["down"][0]) == ["7C", "8C", "9C"]
    st.apply(card("AS"))  # and discards: the ace of spades faced for seat 1
    assert len(st.hand[0]) + len(st.pzones["down"][0]) == 10
    # seat 1 may not take the ace (nothing of his lays it out), yet he is asked: draw his one move
    assert st.zones["faced"][0] == card("AS") and st.current_player() == 1
    assert st.legal_moves() == ["draw"]


# -- the knock, the laying down and the laying off (tests/concepts/gin_rummy.yaml) ------------
GIN = HERE / "concepts" / "gin_rummy.yaml"
GIN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def gin_state(hand0, hand1, up):
    """Seat 0 plays first (seat 1 deals); ``up`` is the card turned up on the discards."""
    given = {*hand0, *hand1, up}
    rest = [c for c in (card(r + s) for s in "SCDH" for r in GIN_RANKS) if c not in given]
    deal = {"hands": [list(hand0), list(hand1)], "stock": [up, *rest]}  # a draw takes the last
    return State(load_game(str(GIN)), 2, 0, dealer=1, deal=deal, hands=1)


def lay(st, *cs):
    """The cards chosen one by one, then meld: each asked, the one move left too (which cards
    complete a meld is the seat's hand's secret)."""
    for c in cs:
        st.apply(card(c))
    st.apply("meld")


def test_a_knock_within_the_limit_then_melds_laid_down_and_cards_laid_off_and_the_difference_paid():
    st = gin_state(
        cards("AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KD"),
        cards("7H", "8H", "9S", "4S", "KC", "KH", "KS", "5C", "10D", "3D"),
        card("2C"),
    )
    assert st.pzones and st.zones["discards"] == [card("2C")]
    assert set(st.legal_moves()) == {"take", "pass"}  # the upcard offered before any draw
    st.apply("take")
    assert "knock" in st.legal_moves()  # the king out, the two left: two, ten or less
    st.apply("knock")
    assert names(st.legal_moves()) == ["2C", "KD"]  # only discards that keep him within ten
    st.apply(card("KD"))
    # he lays down his melds one at a time; no pass while his hand counts more than ten
    assert names(st.legal_moves()) == names(cards("AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H"))
    for meld in (("9C", "9D", "9H"), ("AS", "2S", "3S"), ("4H", "5H", "6H")):
        lay(st, *meld)
    # the two of clubs alone is left: he is asked all the same, pass his one move; the other lays
    # off on his melds
    assert st.current_player() == 0 and st.legal_moves() == ["pass"]
    st.apply("pass")
    assert st.current_player() == 1
    assert names(st.legal_moves()) == ["4S", "7H", "9S", "pass"]
    st.apply(card("7H"))
    assert names(st.legal_moves()) == ["4S", "8H", "9S", "pass"]  # the run laid off on goes on
    for c in ("8H", "9S", "4S"):
        st.apply(card(c))
    # laid off: the cards lie with the knocker's melds; nothing more goes on them, he is asked all
    # the same (pass his one move); then he lays down his own melds
    assert {"4S", "7H", "8H", "9S"} <= set(names(st.pzones["melded"][0]))
    assert st.legal_moves() == ["pass"]
    st.apply("pass")
    assert names(st.legal_moves()) == ["KC", "KH", "KS", "pass"]
    lay(st, "KC", "KH", "KS")
    # nothing more to lay down: he is asked all the same, pass his one move
    assert st.current_player() == 1 and st.legal_moves() == ["pass"]
    st.apply("pass")
    assert st.is_terminal()
    # the knocker counts 2, the other 5 + 10 + 3 = 18: the knocker wins 16
    assert st.pvars["score"] == [16, -16] and st.pvars["knocked"] == [1, 0]


def test_nothing_is_laid_off_on_a_gin_hand_and_gin_wins_25_more():
    st = gin_state(
        cards("AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "10H"),
        cards("8H", "4S", "KC", "KH", "KS", "5C", "10D", "3D", "QD", "JC"),
        card("7H"),
    )
    st.apply("take")
    st.apply("knock")
    st.apply(card("10H"))
    for meld in (("9C", "9D", "9H"), ("AS", "2S", "3S"), ("4H", "5H", "6H", "7H")):
        lay(st, *meld)
    assert st.current_player() == 1
    assert names(st.legal_moves()) == ["KC", "KH", "KS", "pass"]  # no laying off the 8H or 4S on gin
    st.apply("pass")
    assert st.is_terminal()
    # the other counts 8 + 4 + 30 + 5 + 10 + 3 + 10 + 10 = 80, all of it: 80 and 25 for gin
    assert st.pvars["score"] == [105, -105]


def test_an_undercut_pays_the_other_the_difference_and_25():
    st = gin_state(
        cards("AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "QD"),
        cards("7H", "8H", "9S", "4S", "KC", "KH", "KS", "AC", "2C", "5D"),
        card("10D"),
    )
    st.apply("take")
    st.apply("knock")  # the queen out, the ten left: ten, at the limit
    st.apply(card("QD"))
    for meld in (("9C", "9D", "9H"), ("AS", "2S", "3S"), ("4H", "5H", "6H")):
        lay(st, *meld)
    st.apply("pass")
    for c in ("7H", "8H", "9S", "4S", "pass"):
        st.apply(card(c) if c != "pass" else c)
    lay(st, "KC", "KH", "KS")
    st.apply("pass")
    assert st.is_terminal()
    # the knocker counts 10, the other 1 + 2 + 5 = 8, less: he wins the 2 and 25
    assert st.pvars["score"] == [-27, 27]


def test_a_laying_down_without_a_knock_or_a_count_is_a_located_error(tmp_path):
    text = GIN.read_text()
    for key, message in (
        ("    knock_at_most:", "needs both deadwood and knock_at_most"),
        ("    counts:", "needs counts"),
    ):
        bad = tmp_path / "bad.yaml"
        bad.write_text("\n".join(line for line in text.splitlines() if not line.startswith(key)))
        with pytest.raises(RuleError) as err:
            load_game(str(bad))
        assert message in str(err.value) and "bad.yaml:" in str(err.value)
