"""The fast paths give what the plain closures give: every card test's
whole-hand filter (tabulated per card, per the hand's values, or with its costly
part worked out once) against the test applied card by card, at decisions of
random games of every corpus game, option and concept file; and the split
winner keys against the keys evaluated whole."""

import random
from pathlib import Path

import pytest

import academie
from academie.dsl.errors import Pos, RuleError
from academie.dsl.compiler import Scope, compile_expr
from academie.dsl.cards import parse_card
from academie.dsl.loader import corpus_ids, resolve
from academie.interpreter.fastpath import KeyPlan

CONCEPTS = Path(__file__).parent / "concepts"


def _refs():
    files = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]
    files += [str(f) for f in sorted(CONCEPTS.glob("*.yaml")) if not resolve(str(f)).data.get("abstract")]
    for ref in files:
        yield ref
        for opt in resolve(ref).data.get("options") or {}:
            yield f"{ref}+{opt}"


def _card_tests(gd):
    """Each card test of a tricks step, and whether it is asked when following (True: the tiers
    and free cards) or when leading (False: the lead test), as the loops ask them."""
    for st in gd.steps:
        if st.kind == "tricks":
            yield from ((e, True) for e in st.must)
            if st.free is not None:
                yield st.free, True
            if st.lead_test is not None:
                yield st.lead_test, False


@pytest.mark.parametrize("ref", list(_refs()), ids=lambda r: Path(r).stem if ".yaml" in r else r)
def test_every_filter_gives_the_test_card_by_card(ref):
    game = academie.load_game(ref)
    lo, hi = game.players
    tests = list(_card_tests(game.gamedef))
    tricks = [st for st in game.gamedef.steps if st.kind == "tricks"]
    checked = 0
    for n in sorted({lo, hi, min(max(4, lo), hi)}):
        for seed in range(3):
            state = game.new_state(players=n, seed=f"paths/{seed}")
            rng = random.Random(seed)
            while not state.is_terminal():
                eng = state.engine
                for e, following in tests:
                    if following != (eng.led is not None):
                        continue  # never asked here: a follow rule has no card led to read
                    for seat in range(n):
                        hand = eng.hand[seat]
                        assert e.filter(eng, seat, hand) == [c for c in hand if e.fn(eng, seat, c)], e.text
                        checked += 1
                # the winner keys, split or whole, on the cards of the trick so far
                for st in tricks:
                    plays = [(seat, c) for seat in range(n) for c in eng.hand[seat][:2]]
                    if eng.led is not None and plays:
                        whole = [tuple(f.fn(eng, s, c) for f in st.winner_key) for s, c in plays]
                        assert KeyPlan(st.winner_key, eng.g).keys(eng, plays) == whole
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked or not tests


SCOPE = Scope(zones={"trick"}, seat_zones={"hand", "tricks"}, orders={"play": {}})


def _expr(text):
    return compile_expr(text, Pos("<test>", 1, 1), SCOPE, "card")


class _St:
    """Just what the expressions below read."""

    def __init__(self, tricks_played=0, trick=(), tricks=((), ())):
        self.tricks_played = tricks_played
        self.n = 2
        self.zones = {"trick": list(trick)}
        self.pzones = {"tricks": [list(t) for t in tricks], "hand": [[], []]}
        self.led = self.trump = None


CARDS = [parse_card(x) for x in ("2C", "QS", "5H", "AH", "KD")]


def test_a_tier_reading_the_hands_values_is_tabulated_per_value():
    e = _expr("tricks_played > 0 or (card.suit != H and card != QS)")
    first, later = _St(0), _St(3)
    assert e.filter(first, 0, CARDS) == [c for c in CARDS if c.name in ("2C", "KD")]
    assert e.filter(later, 0, CARDS) == CARDS  # another table once tricks_played changed
    assert e.filter(first, 0, CARDS) == [c for c in CARDS if c.name in ("2C", "KD")]


def test_a_costly_part_that_does_not_read_the_card_is_worked_out_when_first_needed():
    # the division fails on the first trick: only for a card that needs it, as card by card
    e = _expr("card.suit == H or count(trick) / tricks_played > 0")
    st = _St(0, trick=[parse_card("3C")])
    hearts = [c for c in CARDS if c.suit == "H"]
    assert e.filter(st, 0, hearts) == hearts  # never evaluated: no error
    with pytest.raises(RuleError, match="division by zero"):
        e.filter(st, 0, CARDS)
    with pytest.raises(RuleError, match="division by zero"):
        [c for c in CARDS if e.fn(st, 0, c)]
    later = _St(1, trick=[parse_card("3C")])
    assert e.filter(later, 0, CARDS) == [c for c in CARDS if e.fn(later, 0, c)] == CARDS
    empty = _St(1)  # the same test on another state: worked out again, not reused
    assert e.filter(empty, 0, CARDS) == hearts


def test_a_card_test_inside_count_is_kept_card_by_card_per_card():
    e = _expr("sum_seats(count(tricks(seat), card.suit == H or card == QS)) > 0 or card.suit != H")
    none = _St(2, tricks=[[parse_card("2C")], [parse_card("KD")]])
    some = _St(2, tricks=[[parse_card("2C")], [parse_card("QS")]])
    assert e.filter(none, 0, CARDS) == [c for c in CARDS if c.suit != "H"]
    assert e.filter(some, 0, CARDS) == CARDS
    assert e.filter(none, 0, CARDS) == [c for c in CARDS if e.fn(none, 0, c)]


def test_a_test_reading_a_counter_is_not_kept_card_by_card():
    # the counter changes between calls: the inner test must be evaluated again
    scope = Scope(zones={"trick"}, vars={"limit"}, orders={"play": {parse_card("5H"): 5, parse_card("AH"): 14}})
    e = compile_expr("count(trick, rank(card) > limit) > 0", Pos("<test>", 1, 1), scope, "card")
    st = _St(trick=[parse_card("5H"), parse_card("AH")])
    st.vars = {"limit": 10}
    assert e.filter(st, 0, CARDS) == CARDS and e.fn(st, 0, CARDS[0])
    st.vars = {"limit": 20}
    assert e.filter(st, 0, CARDS) == [] and not e.fn(st, 0, CARDS[0])


def test_modern_hearts_concept_file_restricts_leads_and_the_first_trick():
    # tests/concepts/leads.yaml, the benchmark beside OpenSpiel's Hearts: the two of clubs
    # opens, no heart nor the queen of spades on the first trick unless nothing else, hearts
    # led only once a heart or the queen of spades has been taken
    game = academie.load_game(str(CONCEPTS / "leads.yaml"))
    seen = set()
    for seed in range(150):  # a void in clubs on the first trick is rare
        state = game.new_state(players=4, seed=f"leads/{seed}")
        rng = random.Random(seed)
        while not state.is_terminal():
            eng, seat = state.engine, state.current_player()
            hand, legal = eng.hand[seat], state.legal_moves()
            points = [c for c in hand if c.suit == "H" or c.name == "QS"]
            taken = any(c.suit == "H" or c.name == "QS" for pile in eng.pzones["tricks"] for c in pile)
            if eng.led is None and eng.tricks_played == 0:
                assert [c.name for c in legal] == ["2C"]
                seen.add("opening")
            elif eng.led is None and not taken and len(points) < len(hand):
                assert all(c.suit != "H" for c in legal)
                seen.add("unbroken")
            elif eng.led is not None and not any(c.suit == eng.led for c in hand):
                if eng.tricks_played == 0 and len(points) < len(hand):
                    assert not any(c in points for c in legal) and legal
                    seen.add("first trick")
                else:
                    assert legal == hand
            state.apply(rng.choice(legal))
    assert seen == {"opening", "unbroken", "first trick"}


def test_a_tier_reading_a_counter_and_the_led_card_is_tabulated_per_value():
    scope = Scope(zones={"trick"}, vars={"strict"}, orders={"play": {}})
    e = compile_expr("card != AH and (strict == 0 or card.suit == led_card.suit)", Pos("<t>", 1, 1), scope, "card")
    st = _St(trick=[parse_card("3C")])
    st.vars = {"strict": 0}
    assert e.filter(st, 0, CARDS) == [c for c in CARDS if c.name != "AH"]
    st.vars = {"strict": 1}  # another table for another value of the counter
    assert e.filter(st, 0, CARDS) == [parse_card("2C")]
    st.zones["trick"] = [parse_card("9H")]  # and for another led card
    assert e.filter(st, 0, CARDS) == [parse_card("5H")]
