"""The shedding and asking steps (docs/language.md, section 4) on stacked deals: what a player
may play, draw or pass; the suit named on a wild card; skips, reversals and draws passed on;
going out and a blocked hand; asking a seat for a rank, cards handed over in sight of all,
go fish, books. tests/concepts/crazy_eights.yaml and go_fish.yaml."""

import random
from pathlib import Path

import pytest

import academie
from academie.dsl.cards import parse_card

CONCEPTS = Path(__file__).parent / "concepts"
EIGHTS = str(CONCEPTS / "crazy_eights.yaml")
FISH = str(CONCEPTS / "go_fish.yaml")


def deal(game, players, hands, stock_top):
    """A deal of the hands given; the stock holds the rest of the pack, ``stock_top`` drawn first."""
    pack = game.gamedef.pack(players)
    used = {c for h in hands for c in h} | set(stock_top)
    rest = [c.name for c in pack if c.name not in used]
    return {
        "hands": [[parse_card(c) for c in h] for h in hands],
        "stock": [parse_card(c) for c in rest + stock_top[::-1]],
    }


def legal(st):
    return sorted(st.action_to_string(a) for a in st.legal_actions())


def move(st, name):
    st.apply_action(st.game.move_to_action(name))


def names(x) -> list:
    """Every string in an observation."""
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for k, v in x.items() for s in names(k) + names(v)]
    if isinstance(x, list):
        return [s for v in x for s in names(v)]
    return []


def eights(hands, top, players=2, options=(), dealer=1):
    game = academie.load_game(EIGHTS, options)
    return game.new_state(players=players, dealer=dealer, deal=deal(game, players, hands, top), keep_events=True)


H0 = ["2C", "5H", "8S", "KD", "9C", "3S", "4S"]
H1 = ["6D", "7D", "JH", "QH", "10S", "AS", "KS"]


def test_a_card_of_the_suit_or_rank_of_the_top_card_or_an_eight_or_draw():
    # "play a card that either match the suit or the rank of the card on the top of the
    # discard pile … an 8 as a wild card … at anytime"; drawing is free (draw_freely)
    st = eights([H0, H1], ["5C"])
    assert st.current_player() == 0
    assert legal(st) == sorted(["2C", "5H", "9C", "8S", "draw"])


def test_an_eight_names_the_suit_the_next_must_follow():
    st = eights([H0, H1], ["5C"])
    move(st, "8S")
    assert st.current_player() == 0 and legal(st) == ["C", "D", "H", "S"]
    move(st, "H")
    assert st.current_player() == 1
    assert legal(st) == sorted(["JH", "QH", "draw"])  # hearts (no eight in hand)
    assert any(ev["type"] == "suit" and ev["value"] == "H" for ev in st.engine.events)


def test_five_draws_at_most_then_pass():
    st = eights([H0, H1], ["5C", "7H", "7S", "7C", "6H", "6S"])
    for _ in range(5):
        assert "draw" in legal(st)
        move(st, "draw")
    assert st.current_player() == 0
    assert "draw" not in legal(st) and "pass" in legal(st)
    assert "7C" in legal(st)  # a card drawn may be played
    move(st, "pass")
    assert st.current_player() == 1


def test_a_drawn_card_is_seen_by_its_drawer_alone():
    st = eights([H0, H1], ["5C", "7H"])
    move(st, "draw")
    assert "7H" in names(st.observation(0))
    assert "7H" not in names(st.observation(1))
    move(st, "5H")  # a card played: seen by all
    assert "5H" in names(st.observation(1))


def test_an_eight_turned_to_start_is_put_back_and_the_next_turned():
    st = eights([H0, H1], ["8D", "5C"])
    assert st.engine.zones["discards"][-1].name == "5C"
    stock = [c.name for c in st.engine.zones["stock"]]
    assert stock.index("8D") == len(stock) // 2  # in the middle, where all saw it go


def test_going_out_ends_the_hand_and_the_others_pay_for_their_cards():
    st = eights([["5H"], ["8D", "KC", "3C"]], ["5C"], options=("face-value",))
    move(st, "5H")
    assert st.is_terminal()
    assert st.returns() == [0, -(50 + 10 + 3)]


def test_openspiel_counts_a_number_card_by_its_place_in_the_pack():
    # OpenSpiel's ScoreUp: -(card + 2), the three of clubs card 4: -6 (its face value 3)
    st = eights([["5H"], ["8D", "KC", "3C"]], ["5C"])
    move(st, "5H")
    assert st.returns() == [0, -(50 + 10 + 6)]


def test_passes_round_the_table_with_the_stock_out_end_the_hand():
    # blocked: players + 1 passes in a row with the stock out (OpenSpiel's num_passes_)
    game = academie.load_game(EIGHTS)
    blocked = 0
    for seed in range(40):
        st = game.new_state(players=3, seed=f"blocked/{seed}", keep_events=True)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        evs = st.engine.events
        if not any(ev["type"] == "blocked" for ev in evs):
            continue
        blocked += 1
        tail = 0
        for ev in reversed(evs):
            if ev["type"] == "pass":
                tail += 1
            elif ev["type"] in ("discard", "take"):
                break
        assert tail == 4 and not st.engine.zones["stock"]  # since the last card played or drawn
        assert st.engine.winner is None and all(st.engine.hand)
    assert blocked > 10


def test_a_queen_skips_an_ace_reverses():
    hands = [["QC", "2S", "3S"], ["4D", "5D", "6D"], ["AC", "7H", "9H"], ["KC", "JD", "10D"]]
    st = eights(hands, ["9C"], players=4, options=("special-cards",), dealer=3)
    assert st.current_player() == 0
    move(st, "QC")
    assert st.current_player() == 2  # seat 1 skipped
    move(st, "AC")
    assert st.current_player() == 1  # the order turned round


def test_a_two_makes_the_next_draw_two_unless_he_plays_a_two():
    hands = [["2C", "3S", "4S"], ["2D", "5H", "6H"], ["7H", "9H", "JH"]]
    st = eights(hands, ["9C", "KD", "KH", "KS", "KC"], players=3, options=("special-cards",), dealer=2)
    move(st, "2C")
    assert st.current_player() == 1 and legal(st) == ["2D", "draw"]
    move(st, "2D")
    assert st.current_player() == 2 and legal(st) == ["draw"]
    move(st, "draw")  # four cards, all at once; his turn is over
    assert len(st.engine.hand[2]) == 7
    assert st.current_player() == 0


# -- asking ----------------------------------------------------------------------------------
def fish(hands, top, players=3):
    game = academie.load_game(FISH)
    return game.new_state(players=players, deal=deal(game, players, hands, top), keep_events=True)


F = [["2C", "2D", "3C", "4C", "5C"], ["2H", "6C", "6D", "7C", "7D"], ["8C", "8D", "9C", "9D", "10C"]]


def test_a_seat_then_a_rank_held():
    st = fish(F, ["KC"])
    assert st.current_player() == 0
    assert legal(st) == ["1", "2"]
    move(st, 1)
    assert legal(st) == ["ask_2", "ask_3", "ask_4", "ask_5"]


def test_the_cards_asked_for_are_handed_over_in_sight_of_all_and_the_asker_goes_on():
    st = fish(F, ["KC"])
    move(st, 1)
    move(st, "ask_2")
    assert sorted(c.name for c in st.engine.hand[0] if c.rank == "2") == ["2C", "2D", "2H"]
    assert "2H" in names(st.observation(2))
    assert st.current_player() == 0


def test_go_fish_a_card_drawn_is_seen_by_the_drawer_alone_and_the_turn_passes():
    st = fish(F, ["KC"])
    move(st, 2)
    move(st, "ask_3")
    assert "KC" in [c.name for c in st.engine.hand[0]]
    assert "KC" not in names(st.observation(1)) and "KC" not in names(st.observation(2))
    assert st.current_player() == 1


def test_the_rank_asked_for_drawn_is_shown_and_the_asker_goes_on():
    st = fish(F, ["3D"])
    move(st, 2)
    move(st, "ask_3")
    assert "3D" in names(st.observation(1))
    assert st.current_player() == 0


def test_four_of_a_rank_are_laid_down_as_a_book():
    st = fish(F, ["2S"])
    move(st, 1)
    move(st, "ask_2")  # 2H handed over
    move(st, 2)
    move(st, "ask_3")  # go fish: the 2S, the book of twos
    assert sorted(c.name for c in st.engine.pzones["books"][0]) == ["2C", "2D", "2H", "2S"]
    assert "2S" in names(st.observation(1))  # a book is face up
    assert st.current_player() == 1


def test_the_hand_ends_when_every_card_is_in_a_book():
    game = academie.load_game(FISH)
    h0 = [c.name for c in game.gamedef.pack(2) if c.rank != "2"] + ["2C", "2D", "2H"]
    d = {"hands": [[parse_card(c) for c in h] for h in (h0, ["2S"])], "stock": []}
    st = game.new_state(players=2, deal=d, keep_events=True)
    assert len(st.engine.pzones["books"][0]) == 48  # twelve books dealt, laid down at once
    assert legal(st) == ["ask_2"]
    move(st, "ask_2")
    assert st.is_terminal()
    assert st.returns() == [13, 0]


# -- in words ---------------------------------------------------------------------------------
def test_the_rule_book_says_the_steps_in_words():
    from academie.render import render

    eights_book = render(EIGHTS, options=("special-cards",))
    assert "plays first, then each in turn: a player plays a card of his hand onto the discards" in eights_book
    assert "an eight may be played on any, and its player names the suit to follow" in eights_book
    assert "5 cards at most in a turn" in eights_book
    assert "A queen makes the next player lose his turn; an ace turns the order of play round" in eights_book
    fish_book = render(FISH)
    assert "Seat 0 asks first. A player asks another who holds cards for a rank he holds himself" in fish_book


def test_the_play_is_told_in_words():
    from academie.narrate import narrate

    st = fish(F, ["KC"])
    move(st, 1)
    move(st, "ask_2")
    move(st, 2)
    move(st, "ask_3")
    told = [line.clause for ev in st.engine.events if (line := narrate(ev, symbols=False)) is not None]
    text = "\n".join(told)
    assert "seat 0 asks seat 1 for the 2s: 1 given" in text
    assert "seat 0 asks seat 2 for the 3s: none (go fish)" in text


# -- what a seat sees --------------------------------------------------------------------------
@pytest.mark.parametrize("ref", [EIGHTS, EIGHTS + "+special-cards", FISH])
def test_a_seat_sees_nothing_of_the_cards_it_has_not_seen(ref):
    # tests/test_visibility.py's check on the concept files: the cards a seat has not seen
    # exchanged among their places, the same moves made: its view is the same
    from test_visibility import _public_course, _view, counterfactuals

    lo, hi = academie.load_game(ref).players
    tried = 0
    for n in sorted({lo, 3}):
        # eight deals: in Go Fish most exchanges of unseen cards change what is asked and given
        # (the public course), and those are not compared
        for seed in range(8):
            for real, cf, seat, k in counterfactuals(ref, n, seed, points=6):
                if _public_course(real, seat) != _public_course(cf, seat):
                    continue
                tried += 1
                assert _view(real, seat) == _view(cf, seat), (ref, n, seed, k, seat)
    assert tried > 10


def test_the_terminal_and_the_web_page_ask_in_words():
    from academie.asking import question

    st = eights([H0, H1], ["5C"])
    q = question(st.engine, symbols=False)
    assert q["kind"] == "shed" and q["answers"]["draw"] == "draw the top card of the stock"
    move(st, "8S")
    assert question(st.engine)["kind"] == "suit"
    st = fish(F, ["KC"])
    q = question(st.engine)
    assert q["text"] == "Ask which player?" and q["answers"] == {"1": "seat 1", "2": "seat 2"}
    move(st, 1)
    assert question(st.engine)["answers"]["ask_2"] == "the 2s"


def test_a_wild_card_with_an_effect_names_the_suit_then_acts(tmp_path):
    # a wild card with an effect (a wild draw-four in the modern relatives; here a skip): the
    # suit is named, then the card acts
    text = Path(EIGHTS).read_text(encoding="utf-8").replace("skip: card.rank == Q", "skip: card.rank == 8")
    f = tmp_path / "wild_skip.yaml"
    f.write_text(text, encoding="utf-8")
    game = academie.load_game(str(f), ("special-cards",))
    hands = [["8C", "2S", "3S"], ["4D", "5D", "6D"], ["7H", "9H", "JH"]]
    st = game.new_state(players=3, dealer=2, deal=deal(game, 3, hands, ["9C"]), keep_events=True)
    move(st, "8C")
    assert st.current_player() == 0
    move(st, "H")
    assert st.current_player() == 2  # seat 1 skipped, after the suit was named
    assert legal(st) == sorted(["7H", "9H", "JH", "draw"])
