"""A pass over a zone whose number or test reads only one field of the card (its suit,
its rank) is worked out once per group of cards with that field (``dsl/optimise/groups``):
the point of a hand is reckoned per suit, not per card. The values are those of the
plain pass over every card, on random hands: counts and sums weigh each group by its
cards, a greatest takes each group once, an order that tells cards of a rank apart
is not grouped by rank, and an error is the one the plain pass raises."""

import random

import pytest
from lark import Tree

from academie.dsl import optimise
from academie.dsl.cards import parse_card
from academie.dsl.compiler import Scope, compile_expr
from academie.dsl.errors import Pos, RuleError
from academie.dsl.optimise import groups
from academie.dsl.parse import parse

RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
PLAY = {parse_card(r + s): i for s in "SHDC" for i, r in enumerate(RANKS)}
TRUMPS = {c: v + (8 if c.suit == "H" else 0) for c, v in PLAY.items()}  # hearts above the rest
DECK = sorted(PLAY, key=lambda c: c.canon)


def _scope():
    return Scope(zones={"trick"}, seat_zones={"hand"}, vars={"limit"}, orders={"play": PLAY, "trumps": TRUMPS})


def _both(text):
    kept = compile_expr(text, Pos("<test>", 1, 1), _scope(), "seat")
    with optimise.off():
        plain = compile_expr(text, Pos("<test>", 1, 1), _scope(), "seat")
    return kept, plain


class _St:
    def __init__(self, hands, limit=0):
        self.n = len(hands)
        self.pzones = {"hand": hands}
        self.zones = {"trick": []}
        self.vars = {"limit": limit}
        self.trump = self.led = self.dealer = self.leader = self.winner = self.mover = self.other = None
        self.tricks_played = self.hand_no = 0


POINT = (
    "max_cards(hand(seat), 100 * count(hand(seat), x, x.suit == card.suit) + "
    "sum_cards(hand(seat), x, if x.suit == card.suit then rank(x, play) + 7 else 0))"
)
SET = (
    "max_cards(hand(seat), if rank(card, play) >= 3 and count(hand(seat), x, x.rank == card.rank) >= 3 "
    "then 10 * count(hand(seat), x, x.rank == card.rank) + rank(card, play) else 0)"
)
SHAPES = [
    POINT,
    SET,
    "sum_cards(hand(seat), count(hand(seat), x, x.suit == card.suit))",
    "sum_cards(hand(seat), if rank(card) >= 4 and count(hand(seat), x, x.rank == card.rank) == 3 then 3 else 0)",
    "count(hand(seat), count(hand(seat), x, x.suit == card.suit) >= 3)",
    "count(hand(seat), count(hand(seat), x, x.colour == card.colour) > 5)",
    "any(hand(seat), count(hand(seat), x, x.rank == card.rank) == 4)",
    "all(hand(seat), count(hand(seat), x, x.suit == card.suit) >= 2)",
    "max_cards(hand(seat), sum_cards(hand(seat), x, if x.suit == card.suit then rank(x) - limit else 0))",
    "max_cards(hand(seat), count(hand(seat), x, rank(x, trumps) > rank(card, trumps)))",  # not by rank
    "sum_cards(hand(seat), count(hand(seat), x, x.rank == card.rank) * rank(card, trumps))",  # not by rank
]


@pytest.mark.parametrize("text", SHAPES)
def test_a_grouped_pass_gives_the_plain_value_on_random_hands(text):
    kept, plain = _both(text)
    rng = random.Random(text)
    for i in range(400):
        deck = DECK[:]
        rng.shuffle(deck)
        st = _St([deck[: rng.randint(0, 14)], deck[16:28]], limit=rng.randint(-2, 2))
        assert kept(st, 0) == plain(st, 0), (text, st.pzones["hand"][0])


def _call(text):
    tree = parse(text, Pos("<test>", 1, 1))
    assert isinstance(tree, Tree) and tree.data == "call"
    return tree


@pytest.mark.parametrize(
    "text,grouped",
    [
        (POINT, True),  # by suit
        (SET, True),  # by rank: the play order gives every card of a rank one place
        ("count(hand(seat), count(hand(seat), x, x.colour == card.colour) > 5)", True),
        ("max_cards(hand(seat), count(hand(seat), x, rank(x, trumps) > rank(card, trumps)))", False),
        ("max_cards(hand(seat), count(hand(seat), x, x.suit == card.suit) + rank(card, play))", False),  # two
        ("count(hand(seat), card.suit == H)", False),  # no pass inside: nothing to save
    ],
)
def test_the_passes_grouped_are_those_reading_one_field(text, grouped):
    from academie.dsl.optimise.tables import Optimising

    cp = Optimising(text, Pos("<test>", 1, 1), _scope(), frozenset({"seat"}))
    assert (groups.grouped(cp, _call(text)) is not None) is grouped


def test_an_error_is_the_plain_passs():
    kept, plain = _both("sum_cards(hand(seat), 10 / (count(hand(seat), x, x.suit == card.suit) - limit))")
    st = _St([[parse_card(c) for c in ("9H", "7S", "8S")], []], limit=2)
    with pytest.raises(RuleError) as a:
        plain(st, 0)
    with pytest.raises(RuleError) as b:
        kept(st, 0)
    assert str(a.value) == str(b.value)
