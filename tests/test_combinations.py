"""Combinations (``combinations:``, docs/language.md): sets, pairs, runs, flushes, sums and a
ranking of hands, found in a zone by ``best``, ``count_of``, ``cards_of``, ``size_of``,
``top_of`` and ``value_of``; proven on tests/concepts/combinations.yaml."""

import random
from pathlib import Path

import pytest

from academie.dsl.cards import card
from academie.dsl.combinations import find
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.state import State

CONCEPT = Path(__file__).parent / "concepts" / "combinations.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(str(CONCEPT))


def played(game, *hands):
    """The counters of a one-hand game whose seats hold ``hands`` (five cards each)."""
    st = State(game, len(hands), 0, dealer=0, deal={"hands": [h.split() for h in hands]}, hands=1)
    while not st.is_terminal():  # the cards played out: the counters were set before
        st.apply(st.legal_moves()[0])
    return st.pvars


def key(game, hand: str, name: str = "poker") -> int:
    return find(game.scope.combinations[name], [card(x) for x in hand.split()]).key


# A poker hand's ranking, best first: "a straight flush, fours, full, flush, straight,
# triplets, two pairs, one pair, highest card" (Nuttall), each tie broken by the cards.
POKER = [
    ("royal straight flush", "AS KS QS JS 10S"),
    ("straight flush", "9H 8H 7H 6H 5H"),
    ("straight flush, the ace low", "5C 4C 3C 2C AC"),
    ("fours of aces", "AS AH AD AC 2S"),
    ("fours of kings, an ace beside", "KS KH KD KC AS"),
    ("fours of kings, a queen beside", "KS KH KD KC QS"),
    ("full, kings over twos", "KS KH KD 2C 2D"),
    ("full, queens over aces", "QS QH QD AC AD"),
    ("flush, ace jack nine five three", "AH JH 9H 5H 3H"),
    ("flush, ace jack nine five two", "AD JD 9D 5D 2D"),
    ("flush, king high", "KH QH JH 9H 7H"),
    ("straight, ace high", "AS KD QC JH 10S"),
    ("straight, ten high", "10S 9H 8D 7C 6S"),
    ("straight, five high (the ace low)", "5S 4H 3D 2C AS"),
    ("triplets of eights, ace king", "8S 8H 8D AC KD"),
    ("triplets of eights, ace queen", "8C 8H 8D AC QD"),
    ("triplets of sevens", "7S 7H 7D AC KD"),
    ("two pairs, jacks and fours, an ace", "JS JH 4D 4C AS"),
    ("two pairs, jacks and fours, a king", "JC JD 4S 4H KS"),
    ("two pairs, tens and nines", "10S 10H 9D 9C AS"),
    ("one pair of aces", "AS AH 9D 5C 3S"),
    ("one pair of aces, a lower third card", "AC AD 8D 5H 3H"),
    ("one pair of twos", "2S 2H AD KC QS"),
    ("highest card, ace queen nine five three", "AS QH 9D 5C 3S"),
    ("highest card, ace queen nine five two", "AS QH 9D 5C 2S"),
    ("highest card, king", "KS QH 9D 5C 3S"),
    ("highest card, seven", "7S 5H 4D 3C 2S"),
]


def test_poker_hands_rank_as_the_table_says(game):
    keys = [key(game, hand) for _, hand in POKER]
    for (better, a), (worse, b), ka, kb in zip(POKER, POKER[1:], keys, keys[1:]):
        assert ka > kb, f"{better} ({a}) should beat {worse} ({b})"


@pytest.mark.parametrize(
    "a, b",
    [
        ("AS KS QS JS 10S", "AH KH QH JH 10H"),
        ("JS JH 4D 4C AS", "JC JD 4S 4H AD"),
        ("AS QH 9D 5C 3S", "AD QC 9H 5S 3D"),
        ("5S 4H 3D 2C AS", "5H 4S 3C 2D AH"),
    ],
)
def test_hands_equal_but_for_their_suits_tie(game, a, b):
    assert key(game, a) == key(game, b)


def test_the_key_reads_category_then_ranks(game):
    # hexadecimal: the category (9 a straight flush … 1 the highest card), then five ranks
    assert hex(key(game, "AS KS QS JS 10S")) == "0x9dcba9"
    assert hex(key(game, "5S 4H 3D 2C AS")) == "0x543210"  # the ace low counts below the two
    assert hex(key(game, "7S 7H 7D KC KD")) == "0x7666cc"  # the three first, then the two


def test_the_best_five_of_seven_cards(game):
    # a straight among seven cards, though the seven hold a pair too
    assert hex(key(game, "9S 8H 7D 6C 5S 5H 2D")) == "0x587654"
    # a full from two triplets: the higher three, then two of the lower
    assert hex(key(game, "9S 9H 9D 4C 4S 4H 2D")) == "0x788833"


def test_the_ranking_decides_a_showdown(game):
    got = played(game, "KS KH KD 2C 2D", "AH JH 9H 5H 3H", "QS QH QD AC AD")
    assert got["score"] == [1, 0, 0]  # kings full beat queens full and the flush
    got = played(game, "JS JH 4D 4C AS", "JC JD 4S 4H AD")
    assert got["score"] == [1, 1]  # equal hands both best


def test_runs_of_one_suit_sets_and_the_point(game):
    # Piquet's reckoning: point (cards of a suit, then pips), sequence (length, then top), sets
    got = played(game, "KS QS JS 9S 8S", "QH JH 10H 9H 2C", "AC AD AH AS 10D")
    assert got["point_held"][0] == 500 + 10 + 10 + 10 + 9 + 8
    assert got["point_held"][1] == 400 + 10 + 10 + 10 + 9
    assert got["seq"][:2] == [10 * 3 + 12, 10 * 4 + 11]  # K Q J (the king 12th); Q J 10 9
    assert got["seqs"][:2] == [100 * 1 + 10 * 3, 100 * 1 + 10 * 4]  # one sequence each, no quint
    assert got["set_held"] == [0, 0, 10 * 4 + 13]  # four aces; 10D alone is no set


def test_two_runs_and_a_quint(game):
    got = played(game, "AS KS QS 7H 6H", "AD KD QD JD 10D")
    # 7H 6H are two cards only: one sequence of three; the other seat a quint
    assert got["seqs"] == [100 * 1 + 10 * 3, 100 * 1 + 10 * 5 + 1]


def test_a_cribbage_hand_counted(game):
    # 5 5 5 J with a 5: "twenty-nine" without the turn-up's nob — four fives and a jack:
    # fifteens: J with each 5 (4), three fives (4) = 8 ways; pairs: six; no run, no flush
    got = played(game, "5S 5H 5D 5C JS", "2C 3C 4C 6C 7C")
    assert got["fifteens"][0] == 8
    assert got["crib"][0] == 2 * 8 + 2 * 6
    got = played(game, "4S 5H 6D 6C 2S", "2C 3C 4C 7C 8C")
    # 4 5 6 6 2: fifteens 4+5+6 twice = 2; one pair; a double run of three (4 5 6, 4 5 6): 6 cards
    assert got["fifteens"][1] == 2
    assert got["crib"][1] == 2 * 2 + 2 * 1 + 6


def test_a_cribbage_flush_and_run_ace_low(game):
    got = played(game, "AH 2H 3H 4H 9C", "KS QS JS 10S 9S")
    # A 2 3 4 run of four, four hearts, fifteens: 2+4+9, A+2+3+9 = 2
    assert got["crib"][0] == 2 * 2 + 4 + 4
    # K Q J 10 9 of spades: a run of five, a flush of five, no fifteen
    assert got["crib"][1] == 5 + 5


def test_a_combination_must_be_declared(tmp_path):
    text = CONCEPT.read_text().replace('"best(hand(seat), poker)"', '"best(hand(seat), pokr)"')
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(RuleError) as e:
        load_game(str(p))
    assert "expected the name of a combination" in str(e.value)


def test_a_ranking_names_combinations_of_the_file(tmp_path):
    text = CONCEPT.read_text().replace("straight_flush, fours, full", "straight_flush, five, full")
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(RuleError) as e:
        load_game(str(p))
    assert "'five' is no combination of this file" in str(e.value)


def test_a_combination_is_not_named_like_a_counter(tmp_path):
    text = (
        CONCEPT.read_text()
        .replace("  pairs: {kind: pairs", "  fifteens: {kind: pairs")
        .replace("count_of(hand(seat), pairs)", "count_of(hand(seat), fifteens)")
    )
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(RuleError) as e:
        load_game(str(p))
    assert "'fifteens' already names something else" in str(e.value)


def melds(game, hand: str):
    return find(game.scope.combinations["melds"], [card(x) for x in hand.split()])


def test_melds_are_laid_out_no_card_twice_the_most_pips_first(game):
    # the four of spades ends a run A 2 3 4 or makes three fours with 4H 4D: A 2 3 and three
    # fours and 7 8 9 of clubs lay out 42 pips in nine cards; the king of hearts is left
    got = melds(game, "AS 2S 3S 4S 4H 4D 7C 8C 9C KH")
    assert (got.count, got.cards, got.value) == (3, 9, 1 + 2 + 3 + 4 * 3 + 7 + 8 + 9)
    # four of a rank laid out as one set; nothing else melds
    got = melds(game, "5S 5H 5D 5C 9C KH")
    assert (got.count, got.cards, got.value) == (1, 4, 20)
    # a run of five is one combination of five cards, not a run of three and two left
    got = melds(game, "5S 6S 7S 8S 9S")
    assert (got.count, got.cards, got.value) == (1, 5, 35)
    assert melds(game, "AS 3S 5H 7D 9C").count == 0


def test_melds_of_a_large_zone_are_refused_rather_than_searched_forever(game):
    from academie.dsl.combinations import MAX_SPLITS

    pack = [f"{r}{s}" for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    with pytest.raises(ValueError, match=str(MAX_SPLITS)):
        melds(game, " ".join(pack))


@pytest.mark.parametrize(
    "text",
    ["size_of(hand(seat), point)", "count_of(hand(seat), trio)", "size_of(hand(seat), sequence)"],
)
def test_a_combination_read_again_after_the_hand_changed_is_worked_out_anew(game, text):
    """What a combination finds is kept per the zone's cards and read from there first: a
    hand that changes between two reads (a card played, then taken back) gives its new value,
    never the one kept for the cards it held before."""
    from academie.dsl.compiler import compile_expr
    from academie.dsl.errors import Pos

    fn = compile_expr(text, Pos("<test>", 1, 1), game.scope, "seat").fn
    hands = ["AS KS QS JS 10S", "AH AD AC 9H 8D"]
    st = State(game, 2, 0, dealer=0, deal={"hands": [h.split() for h in hands]}, hands=1)
    hand = st.pzones["hand"][0]
    full = fn(st, 0, None)
    assert full == {"size_of(hand(seat), point)": 5, "count_of(hand(seat), trio)": 0}.get(text, 5)
    gone = [c for c in hand if c.rank in ("Q", "J")]
    for c in gone:
        hand.remove(c)  # the same list, holding other cards
    assert fn(st, 0, None) == {"size_of(hand(seat), point)": 3}.get(text, 0)
    hand.extend(gone)
    hand.sort(key=lambda c: c.canon)
    assert fn(st, 0, None) == full
    other = st.pzones["hand"][1]
    if text.startswith("count_of"):
        assert fn(st, 1, None) == 1  # three aces
        other.remove(card("AC"))
        assert fn(st, 1, None) == 0


@pytest.mark.parametrize(
    "hand, top",
    [
        ("8H KH AS 7S", "K"),  # two suits of two cards and eighteen: the one the cards meet first
        ("AS 7S 8H KH", "A"),
        ("7S 8H KH AS", "A"),
        ("KH 8H 9D 9C 7S AS", "K"),
        ("9D AS 7S 8H KH 9C", "A"),
    ],
)
def test_a_flush_tied_with_another_is_the_one_the_cards_meet_first(hand, top):
    # the suits are found as bits in the notation's order; a tie is settled in the order met
    point = load_game(str(Path(__file__).parent.parent / "rules" / "piquet" / "hoyle.yaml")).scope.combinations["point"]
    f = find(point, [card(x) for x in hand.split()])
    assert (f.size, f.value) == (2, 18)
    assert f.top == point.strength[top]


def test_what_a_set_keeps_per_hand_is_bounded_and_the_same_as_counting():
    # a set is looked up by the ranks held so that they may make it (three or four of a rank for
    # a tricon): what it keeps stays small over many hands, and every value is the count's
    from academie.dsl import combinations as comb

    trio = load_game(str(Path(__file__).parent.parent / "rules" / "hoc" / "encyclopedie.yaml")).scope.combinations[
        "trio"
    ]
    trio.memo.clear()
    rng = random.Random(3)
    deck = [card(r + s) for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") for s in "SHDC"]
    for _ in range(3000):
        hand = tuple(rng.sample(deck, 12))
        got = comb._find_set(trio, hand)
        want = comb._set_of(trio, comb._rank_counts(trio, hand))
        assert (got.count, got.cards, got.key, got.size, got.top, got.value) == (
            want.count,
            want.cards,
            want.key,
            want.size,
            want.top,
            want.value,
        )
    assert len(trio.memo) < 400  # by every rank's count it was some 3,000 (one a hand)


def test_a_whole_number_written_with_a_point_is_the_integer(tmp_path):
    # JSON Schema takes 4.0 for an integer: the combination is built with ints, finds ints, and the
    # compiled module (which takes no float where an int is declared) builds and finds it alike
    text = CONCEPT.read_text()
    text = text.replace("full: {kind: set, sizes: [3, 2],", "full: {kind: set, sizes: [3.0, 2.0],")
    text = text.replace("trio: {kind: set, min: 3,", "trio: {kind: set, min: 3, max: 4.0,")
    text = text.replace("    total: 15", "    total: 15.0")
    assert text.count(".0") >= 4
    path = tmp_path / "combinations.yaml"
    path.write_text(text)
    floats, ints = load_game(str(path)).scope.combinations, load_game(str(CONCEPT)).scope.combinations
    for name, hand in (("full", "KS KH KD 2C 2D"), ("trio", "AS AH AD KC"), ("fifteen", "10S 5H KD AC 4C")):
        got, want = (
            find(floats[name], [card(x) for x in hand.split()]),
            find(ints[name], [card(x) for x in hand.split()]),
        )
        fields = ("count", "cards", "key", "size", "top", "value")
        assert [getattr(got, f) for f in fields] == [getattr(want, f) for f in fields]
        assert all(type(getattr(got, f)) is int for f in fields), (name, got)
