"""Wild cards (``wild:`` of a ranking, dsl/wild.py) and the joker (``pack: jokers:``), proven on
tests/concepts/wild.yaml (five-card showdown, the joker and the deuces wild) and on Hoffmann's
mistigris (rules/poker/hoffmann.yaml, option mistigris; tests/test_poker_hoffmann_versions.py)."""

from pathlib import Path

import pytest

from academie.dsl.cards import card, parse_card
from academie.dsl.combinations import find
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.dsl.wild import find_wild
from academie.interpreter.state import State

HERE = Path(__file__).parent / "concepts"
GAME = load_game(str(HERE / "wild.yaml"), ())
COMBS = GAME.scope.combinations


def category(*names) -> int:
    """The hand's category in the poker table: 9 a straight flush … 1 the highest card."""
    return find_wild(COMBS["poker"], [card(n) for n in names]).key >> (4 * 5)


def winner(a, b):
    st = State(GAME, 2, 0, dealer=0, deal={"hands": [a, b]})
    st.apply("check")
    st.apply("check")
    assert st.is_terminal()
    return st.winner


def test_the_joker_is_a_card_of_the_pack_of_no_suit_and_no_rank():
    pack = GAME.pack(2)
    assert len(pack) == 53 and pack[-1].name == "JK"
    assert parse_card("jk") is card("JK") and card("JK").suit == "" and card("JK").rank == "JK"


def test_a_wild_card_stands_for_the_card_that_makes_the_best_hand():
    assert category("7S", "7H", "7D", "JK", "3C") == 8  # three sevens and a wild card: fours
    assert category("9S", "9H", "4D", "4C", "2S") == 7  # two pairs and a wild card: a full
    assert category("4H", "5H", "6H", "JK", "2C") == 9  # three hearts in sequence and two wild: a straight flush
    assert category("3H", "6H", "9H", "QH", "JK") == 6  # four hearts and a wild card: a flush
    assert category("3S", "6H", "9H", "QH", "KD") == 1  # no wild card: nothing
    # at the showdown: fours of sevens above a full of aces, below a natural four of eights
    assert winner(["7S", "7H", "7D", "JK", "3C"], ["AS", "AH", "AD", "KC", "KD"]) == 0
    assert winner(["7S", "7H", "7D", "JK", "3C"], ["8S", "8H", "8D", "8C", "3D"]) == 1
    # a straight flush made with two wild cards above four aces
    assert winner(["4H", "5H", "6H", "JK", "2C"], ["AS", "AH", "AD", "AC", "KS"]) == 0


def test_a_wild_card_stands_for_a_card_its_holder_does_not_hold():
    # four aces and the joker: no five of a kind, but four aces and the best card left, a king,
    # equal to the natural hand of four aces and a king (the pot shared)
    assert (
        find_wild(COMBS["poker"], [card(n) for n in ("AS", "AH", "AD", "AC", "JK")]).key
        == find(COMBS["poker"], [card(n) for n in ("AS", "AH", "AD", "AC", "KS")]).key
    )


def test_a_hand_without_wild_cards_ranks_as_without_the_construct():
    plain = load_game("poker/hoffmann", ()).scope.combinations["poker"]
    for hand in (("KS", "KH", "3D", "3C", "4S"), ("QS", "JH", "10D", "9C", "8S"), ("AS", "7S", "5S", "4S", "3S")):
        cards = [card(n) for n in hand]
        assert find_wild(COMBS["poker"], cards).key == find(plain, cards).key


def test_a_joker_not_wild_is_left_out_of_a_combination():
    # the concept's pair is not wild: a pair of sevens and the joker hold one pair, not threes
    cards = [card(n) for n in ("7S", "7H", "JK", "3C", "9D")]
    assert find_wild(COMBS["pair"], cards).count == 1
    assert find_wild(COMBS["threes"], cards).count == 0


def test_wild_is_refused_on_anything_but_a_ranking_and_names_cards(tmp_path):
    text = (HERE / "wild.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("fours: {kind: set, size: 4,", "fours: {kind: set, size: 4, wild: [JK],"))
    with pytest.raises(RuleError, match="only a ranking has wild cards"):
        load_game(str(bad), ())
    bad.write_text(text.replace("wild: [JK, 2S", "wild: [XX, 2S"))
    with pytest.raises(RuleError, match="'XX' is not a card"):
        load_game(str(bad), ())


def test_four_wild_cards_and_a_natural_make_the_best_straight_flush():
    # the four deuces and a nine of diamonds: K Q J 10 9 of diamonds (no ace above the nine: the nine
    # is held); the deuces and a seven: J 10 9 8 7 of hearts. Choices alike but for the suits no
    # natural card is of are ranked once (the concept's five wild cards ask for no more than the bound)
    assert category("2S", "2H", "2D", "2C", "9D") == 9
    assert category("2S", "2H", "2D", "2C", "9D") == category("KD", "QD", "JD", "10D", "9D")
    assert find_wild(COMBS["poker"], [card(n) for n in ("2S", "2H", "2D", "JK", "7H")]).key == (
        find(COMBS["poker"], [card(n) for n in ("JH", "10H", "9H", "8H", "7H")]).key
    )


def test_more_wild_cards_than_the_bound_allows_are_a_located_error(tmp_path):
    every = ", ".join(c.name for c in GAME.pack(2))
    p = tmp_path / "allwild.yaml"
    p.write_text((HERE / "wild.yaml").read_text().replace("wild: [JK, 2S, 2H, 2D, 2C]", f"wild: [{every}]"))
    st = State(
        load_game(str(p), ()),
        2,
        0,
        dealer=0,
        deal={"hands": [["AS", "KS", "QS", "JS", "10S"], ["3H", "4H", "5H", "6H", "8C"]]},
    )
    st.apply("check")
    with pytest.raises(RuleError, match=r"allwild\.yaml:\d+:\d+: .*would rank more than 100000 hands"):
        st.apply("check")


def test_a_joker_in_a_game_of_tricks_is_a_located_error_at_load(tmp_path):
    # a card of no suit led to a trick had no suit to follow: the game stopped at the lead
    text = (HERE / "leads.yaml").read_text()
    assert text.count("\npack:\n") == 1
    p = tmp_path / "jokertricks.yaml"
    p.write_text(text.replace("\npack:\n", "\npack:\n  jokers: 1\n"))
    with pytest.raises(RuleError, match=r"jokertricks\.yaml:\d+:\d+: .*a game of tricks has no joker"):
        load_game(str(p), ())


def test_a_joker_in_a_game_of_asking_is_a_located_error_at_load(tmp_path):
    # the joker, of no rank, made no book: its holder, the last with a card, had no one to ask and
    # the turn went round for ever
    text = (HERE / "go_fish.yaml").read_text()
    assert text.count("\npack:\n") <= 1
    p = tmp_path / "jokerasking.yaml"
    joker = "\npack:\n  jokers: 1\n"
    p.write_text(text.replace("\npack:\n", joker) if "\npack:\n" in text else text + joker)
    with pytest.raises(RuleError, match=r"jokerasking\.yaml:\d+:\d+: .*a game of asking has no joker"):
        load_game(str(p), ())
