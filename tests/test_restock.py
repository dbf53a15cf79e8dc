"""Restocking, laying off in the turn and the card taken (docs/language.md, section 4, kind:
draw_meld, "Laying off in the turn; the card taken" and "Restocking") on stacked deals:
tests/concepts/rummy.yaml (basic Rummy) and the option ``restock`` of
tests/concepts/crazy_eights.yaml. A shuffled restock is a shuffle nobody sees: the new stock's
order is unknown to every seat, in its observation and in the worlds a search player draws."""

import random
from pathlib import Path

import academie
from academie.dsl.cards import parse_card

CONCEPTS = Path(__file__).parent / "concepts"
RUMMY = str(CONCEPTS / "rummy.yaml")
EIGHTS = str(CONCEPTS / "crazy_eights.yaml")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PACK = [r + s for s in "SHDC" for r in RANKS]


def rummy(hands, up, drawn, options=(), players=2):
    """Seat 1 deals, seat 0 plays first; ``up`` turned up on the discards; the stock's cards
    drawn in the order ``drawn``, then the rest of the pack."""
    given = {up, *drawn} | {c for h in hands for c in h}
    rest = [c for c in PACK if c not in given]
    stock = [up, *rest, *reversed(drawn)]  # the turnup takes the first, a draw the last
    game = academie.load_game(RUMMY, options)
    deal = {"hands": [[parse_card(c) for c in h] for h in hands], "stock": [parse_card(c) for c in stock]}
    return game.new_state(players=players, dealer=players - 1, deal=deal, keep_events=True)


def legal(st):
    return sorted(str(m) for m in st.legal_moves())


def do(st, *moves):
    for m in moves:
        st.apply(parse_card(m) if parse_card(m) is not None else m)


def zone(st, name, seat=None):
    cs = st.engine.zones[name] if seat is None else st.engine.pzones[name][seat]
    return [c.name for c in cs]


H0 = ["5S", "6S", "7S", "KD", "KC", "2H", "9D", "JC", "4C", "QH"]
H1 = ["8S", "3D", "3C", "3H", "10D", "JD", "AC", "6C", "7H", "2D"]


def test_a_meld_laid_down_apart_then_cards_laid_off_on_it_in_the_turn_by_its_owner_and_the_others():
    st = rummy([H0, H1], "9H", ["4S", "KH", "AD"])
    do(st, "draw")  # seat 0 draws 4S
    assert "pass" in legal(st) and "4S" in legal(st)
    do(st, "4S", "5S", "6S")
    # the seven of spades the one card that goes on: he is asked all the same, and then meld
    assert legal(st) == ["7S", "meld"]
    do(st, "7S")
    assert legal(st) == ["meld"]  # a run of four, laid down apart: asked, the one move left
    do(st, "meld")
    assert zone(st, "melded", 0) == ["4S", "5S", "6S", "7S"]
    do(st, "pass", "KD")
    # seat 1, in his turn, lays off the 8 of spades on seat 0's run
    do(st, "draw")  # KH
    assert "8S" in legal(st)
    do(st, "8S")
    # the 8 makes no meld of his hand: he is asked all the same, lay_off the one move left (made
    # at once, it told seat 0 that no card of his hand went with it)
    assert legal(st) == ["lay_off"] and zone(st, "melded", 0) == ["4S", "5S", "6S", "7S"]
    do(st, "lay_off")
    assert zone(st, "melded", 0) == ["4S", "5S", "6S", "7S", "8S"]
    assert [e for e in st.engine.events if e["type"] == "lay_off"] == [
        {"type": "lay_off", "seat": 1, "card": "8S", "on": 0}
    ]


def test_a_card_that_fits_no_meld_on_the_table_is_not_laid_off():
    st = rummy([H0, H1], "9H", ["4S", "KH", "AD"])
    do(st, "draw", "pass", "KD", "draw")
    assert "8S" not in legal(st)  # no meld on the table yet


def test_lay_off_in_turn_own_lays_off_on_his_own_melds_only(tmp_path):
    text = Path(RUMMY).read_text().replace("lay_off_in_turn: all", "lay_off_in_turn: own")
    path = tmp_path / "own.yaml"
    path.write_text(text)
    given = {"9H", "4S", "KH", "AD"} | set(H0) | set(H1)
    rest = [c for c in PACK if c not in given]
    game = academie.load_game(str(path))
    deal = {
        "hands": [[parse_card(c) for c in H0], [parse_card(c) for c in H1]],
        "stock": [parse_card(c) for c in ["9H", *rest, "AD", "KH", "4S"]],
    }
    st = game.new_state(players=2, dealer=1, deal=deal, keep_events=True)
    do(st, "draw", "4S", "5S", "6S", "7S", "meld", "pass", "KD", "draw")
    assert "8S" not in legal(st)  # seat 0's run is not his


def test_the_card_taken_from_the_pile_is_not_discarded_in_the_same_turn():
    st = rummy([H0, H1], "9H", ["4S", "KH", "AD"])
    do(st, "take")  # the 9 of hearts
    do(st, "pass")
    assert "9H" not in legal(st)
    assert "KD" in legal(st)
    do(st, "KD", "draw", "pass")
    assert "4S" in legal(st)  # a card drawn from the stock may be discarded at once


def _stock_out(st, turns=400):
    """Every turn: draw, lay nothing, discard the first card offered; until a restock or the end."""
    for _ in range(turns):
        if st.is_terminal():
            return
        if any(e["type"] == "restock" for e in st.engine.events):
            return
        moves = st.legal_moves()
        if "draw" in moves:
            st.apply("draw")
        elif "pass" in moves:
            st.apply("pass")
        else:
            st.apply(moves[0])


def test_the_pile_but_its_top_card_turned_over_makes_a_new_stock():
    st = rummy([H0, H1], "9H", [], options=["turned"])
    _stock_out(st)
    ev = [e for e in st.engine.events if e["type"] == "restock"]
    assert len(ev) == 1 and not ev[0]["shuffled"]
    pile = [e["card"] for e in st.engine.events if e["type"] == "discard"]
    assert zone(st, "discards") == [pile[-1]]  # the top card stays
    # turned over as it lies: the first card on the pile (the one turned up) is the new stock's top
    assert zone(st, "stock")[::-1] == ["9H", *pile[:-1]]
    assert not st.is_terminal()
    # every seat saw the pile: the new stock's order is known to all
    for seat in range(2):
        assert st.observation(seat)["zones"]["stock"]["cards"] == zone(st, "stock")


def test_the_pile_shuffled_makes_a_new_stock_whose_order_no_seat_sees():
    st = rummy([H0, H1], "9H", [])
    _stock_out(st)
    ev = [e for e in st.engine.events if e["type"] == "restock"]
    assert len(ev) == 1 and ev[0]["shuffled"]
    stock = zone(st, "stock")
    assert sorted(ev[0]["cards"]) == sorted(stock) and ev[0]["cards"] != stock  # named, not in their order
    for seat in range(2):
        assert st.observation(seat)["zones"]["stock"]["cards"] == []
    # a card drawn from the new stock is seen by its drawer alone
    mover = st.current_player()
    st.apply("draw")
    drawn = st.engine.hand[mover]
    for seat in range(2):
        took = [e for e in st.observation(seat)["events"] if e["type"] == "take"][-1]
        assert ("cards" in took) == (seat == mover), (seat, took)
    assert drawn


def test_restocks_are_bounded_then_the_hand_ends_as_before(tmp_path):
    text = Path(RUMMY).read_text().replace("restocks: 20", "restocks: 1", 1)
    path = tmp_path / "once.yaml"
    path.write_text(text)
    game = academie.load_game(str(path))
    st = game.new_state(players=2, seed=3, keep_events=True)
    for _ in range(2000):
        if st.is_terminal():
            break
        moves = st.legal_moves()
        st.apply("draw" if "draw" in moves else "pass" if "pass" in moves else moves[0])
    assert st.is_terminal()
    kinds = [e["type"] for e in st.engine.events]
    assert kinds.count("restock") == 1 and kinds.count("stock_out") == 1


def test_a_world_drawn_after_a_shuffled_restock_does_not_know_the_new_stock():
    """The cards of the new stock the seat has not seen since lie, in the worlds drawn for it,
    in other places than they truly do; those it drew lie where they did."""
    st = rummy([H0, H1], "9H", [])
    _stock_out(st)
    for _ in range(3):  # a few draws from the new stock, each discarding the first card offered
        for m in ("draw", "pass"):
            st.apply(m)
        st.apply(st.legal_moves()[0])
    seat = st.current_player()
    truth = zone(st, "stock")
    rng = random.Random(5)
    differs = 0
    for _ in range(6):
        world = st.resample(seat, rng)
        assert not getattr(world, "fallback", False)
        assert sorted(zone(world, "stock")) == sorted(truth)
        assert world.observation(seat)["hand"] == st.observation(seat)["hand"]
        differs += zone(world, "stock") != truth
    assert differs >= 5


def eights(hands, top, options):
    game = academie.load_game(EIGHTS, options)
    pack = game.gamedef.pack(2)
    used = {c for h in hands for c in h} | set(top)
    rest = [c.name for c in pack if c.name not in used]
    deal = {
        "hands": [[parse_card(c) for c in h] for h in hands],
        "stock": [parse_card(c) for c in rest + top[::-1]],
    }
    return game.new_state(players=2, dealer=1, deal=deal, keep_events=True)


def test_crazy_eights_with_restock_draws_on_from_the_pile_shuffled():
    """Five cards drawn each turn, then a card played if one may be: the stock runs out. Without
    the option no draw is offered then; with it, the pile but its top card is the new stock."""
    hands = [["2C", "5H", "9C", "3S", "4S", "6H", "7H"], ["6D", "7D", "JH", "QH", "10S", "AS", "KS"]]
    for options in ([], ["restock"]):
        st = eights(hands, ["5C"], options)
        for _ in range(400):
            events = st.engine.events
            if not st.engine.zones["stock"] or st.is_terminal() or events[-1]["type"] == "restock":
                break
            pile = zone(st, "discards")
            moves = st.legal_moves()
            cards = [m for m in moves if not isinstance(m, str)]
            st.apply("draw" if "draw" in moves else cards[0] if cards else moves[0])
        assert not st.is_terminal()
        if not options:
            assert not st.engine.zones["stock"] and "draw" not in st.legal_moves()
            continue
        restock = st.engine.events[-1]
        assert restock["type"] == "restock" and restock["shuffled"]
        assert sorted(zone(st, "stock")) == sorted(pile[:-1]) == sorted(restock["cards"])
        assert zone(st, "discards") == pile[-1:]
        assert "draw" in st.legal_moves()


def test_crazy_eights_with_restock_shows_no_seat_the_new_stock_nor_another_hand(tmp_path):
    """The differential visibility tests (tests/test_visibility_families.py) on Crazy Eights
    restocked: two deals alike to a seat look alike to it, and the worlds drawn for it too."""
    import test_visibility_families as vf

    text = Path(EIGHTS).read_text()
    assert "    blocked: players + 1\n" in text
    text = text.replace(
        "    blocked: players + 1\n", "    blocked: players + 1\n    restock: shuffle\n    restocks: 10\n", 1
    )
    path = tmp_path / "eights_restocked.yaml"
    path.write_text(text)
    vf.test_two_deals_alike_to_a_seat_look_alike_to_it(str(path))
    vf.test_a_world_drawn_for_a_seat_looks_to_it_as_the_real_game(str(path))


def test_the_card_taken_is_not_discarded_at_gin_either(tmp_path):
    """``discard_taken: forbidden`` with a knock (Gin Rummy as most books give it): the upcard
    taken is not among the discards offered; without the key it is (OpenSpiel's rule)."""
    text = (CONCEPTS / "gin_rummy.yaml").read_text()
    assert "    knocked: knocked\n" in text
    path = tmp_path / "gin.yaml"
    path.write_text(text.replace("    knocked: knocked\n", "    knocked: knocked\n    discard_taken: forbidden\n", 1))
    for ref, offered in ((str(CONCEPTS / "gin_rummy.yaml"), True), (str(path), False)):
        st = academie.load_game(ref).new_state(players=2, seed=1, keep_events=True)
        up = st.engine.zones["discards"][-1]
        assert "take" in st.legal_moves()
        st.apply("take")
        assert (up in st.legal_moves()) == offered
