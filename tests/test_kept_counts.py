"""Two values of a lead rule kept while what they read is the same (``dsl/optimise``):
``sum_seats(count(tricks(seat), TEST))``, TEST reading the card alone, kept with the
cards of the zones it counted over and counted again only for the cards that came
(``counts``); and, in a whole-hand filter with such a part worked out apart, the
value of a card that read the part, kept per the part's value (``hoisting``). Each
gives the value, and the error, of the plain expression (``optimise.off()``) on
zones that grow, shrink and change between calls, and on states taken in turn."""

import random

import pytest

from academie.dsl import optimise
from academie.dsl.cards import all_cards, parse_card
from academie.dsl.compiler import Scope, compile_expr
from academie.dsl.errors import Pos, RuleError
from academie.dsl.optimise.tables import Optimising
from academie.dsl.parse import parse

DECK = all_cards()
PLAY = {c: i for i, c in enumerate(sorted(DECK, key=lambda c: c.canon))}
BROKEN = "sum_seats(count(tricks(seat), card.suit == H or card == QS))"
LEAD = f"(tricks_played > 0 or card == 2C) and (card.suit != H or {BROKEN} > 0)"


def _scope():
    return Scope(zones={"trick"}, seat_zones={"hand", "tricks"}, vars={"limit"}, orders={"play": PLAY})


def _both(text, kind="game"):
    kept = compile_expr(text, Pos("<test>", 1, 1), _scope(), kind)
    with optimise.off():
        plain = compile_expr(text, Pos("<test>", 1, 1), _scope(), kind)
    return kept, plain


class _St:
    def __init__(self, tricks, hands=None, tricks_played=0):
        self.n = len(tricks)
        self.pzones = {"tricks": tricks, "hand": hands or [[] for _ in tricks]}
        self.zones = {"trick": []}
        self.vars = {"limit": 0}
        self.trump = self.led = self.dealer = self.leader = self.winner = self.mover = self.other = None
        self.tricks_played, self.hand_no = tricks_played, 1


def _kept_fn(text, kind="game"):
    from academie.dsl.expr import BOUND

    return Optimising(text, Pos("<t>", 1, 1), _scope(), BOUND[kind]).c(parse(text, Pos("<t>", 1, 1)))[0]


@pytest.mark.parametrize(
    "text,kept",
    [
        (BROKEN, True),
        ("sum_seats(count(tricks(seat), rank(card, play) > 40))", True),
        ("sum_seats(count(tricks(seat), card.suit == H and seat == 0))", False),  # reads the seat
        ("sum_seats(count(tricks(seat), card.suit == led))", False),  # reads a value of the hand
        ("sum_seats(count(tricks(seat), any(trick, x, x.suit == card.suit)))", False),  # reads a zone
        ("sum_seats(count(tricks(0), card.suit == H))", False),  # one seat's zone, each time
        ("count(tricks(seat), card.suit == H)", False),  # one seat's count: nothing to keep over the seats
    ],
)
def test_a_count_over_every_seats_zone_of_the_card_alone_is_kept(text, kept):
    fn = _kept_fn(text, "seat")
    assert (getattr(fn, "kept_over", None) == "tricks") is kept


@pytest.mark.parametrize("games", [1, 3])
def test_a_kept_count_follows_tricks_taken_a_new_hand_and_other_states(games):
    kept, plain = _both(BROKEN)
    rng = random.Random(3)
    states = []
    for _ in range(games):  # games in turn: the kept count is met with other zones at every call
        deck = DECK[:]
        rng.shuffle(deck)
        states.append((_St([[], [], [], []]), deck))
    for step in range(60):
        for st, deck in states:
            z = st.pzones["tricks"]
            if step % 17 == 16:  # a new hand: the zones emptied
                for x in z:
                    x.clear()
            elif deck:
                z[rng.randrange(4)].extend(deck[:4])  # a trick taken
                del deck[:4]
            if step % 11 == 5 and any(z):  # a card given back: a zone no longer grown from the kept one
                src = next(x for x in z if x)
                deck.append(src.pop(0))
            assert kept(st) == plain(st), (step, z)
            assert kept(st) == plain(st)


def test_a_kept_count_raises_the_plain_error_for_the_same_card():
    text = "sum_seats(count(tricks(seat), 12 / (rank(card, play) - 20) > 1))"
    kept, plain = _both(text)
    assert getattr(_kept_fn(text, "seat"), "kept_over", None) == "tricks"
    ok = [parse_card(x) for x in ("2S", "3S")]
    st = _St([ok[:], [], [], []])
    assert kept(st) == plain(st) == 0
    st.pzones["tricks"][2].append(sorted(DECK, key=lambda c: c.canon)[20])  # the card whose rank divides by zero
    with pytest.raises(RuleError) as a:
        plain(st)
    with pytest.raises(RuleError) as b:
        kept(st)
    assert str(a.value) == str(b.value)
    st.pzones["tricks"][2].pop()
    assert kept(st) == plain(st) == 0


def test_a_lead_rule_keeps_the_cards_that_read_the_part_per_its_value():
    kept, plain = _both(LEAD, "card")
    assert getattr(kept.filter, "kept_per", None) == "values, and the part's value"
    rng = random.Random(8)
    for game in range(40):
        deck = DECK[:]
        rng.shuffle(deck)
        hands = [sorted(deck[i * 13 : (i + 1) * 13], key=lambda c: c.canon) for i in range(4)]
        tricks: list = [[], [], [], []]
        st = _St(tricks, hands)
        for t in range(13):
            st.tricks_played = t
            seat = rng.randrange(4)
            hand = hands[seat]
            got = kept.filter(st, seat, hand)
            assert got == plain.filter(st, seat, hand) == [c for c in hand if plain.fn(st, seat, c)]
            assert kept.filter(st, seat, hand) == got  # again, every value kept
            for s in range(4):  # a trick: a card from each hand, to a seat's zone
                h = hands[s]
                if h:
                    tricks[seat if rng.random() < 0.5 else s].append(h.pop(rng.randrange(len(h))))
