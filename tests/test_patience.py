"""Patience (``kind: patience``): one player, piles with face-down cards, moves by build rules,
the stock drawn, won or lost; proven on tests/concepts/patience.yaml, and Lady Cadogan's
Klondike (rules/klondike/cadogan.yaml) played on stacked deals."""

from __future__ import annotations

import random
from pathlib import Path

import academie
from academie.dsl.cards import parse_card
from academie.dsl.model import load_game
from academie.interpreter.agents import FirstAgent
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"


def concept():
    return load_game(str(CONCEPTS / "patience.yaml"))


def names(xs):
    return [x.name if hasattr(x, "name") else x for x in xs]


def cards(*xs):
    return [parse_card(x) for x in xs]


# top of the stock first: the first column 2S (up); the second AS (down) and 3H (up); the stock AH 2H 3S
SMALL = cards("2S", "AS", "3H", "AH", "2H", "3S")


def test_a_run_is_moved_whole_a_space_takes_the_top_rank_a_card_uncovered_turns_up_and_the_game_is_won():
    st = State(concept(), 1, 0, deck=SMALL, hands=1)
    z = st.zones
    assert names(z["tableau1"]) == ["2S"] and names(z["tableau2"]) == ["AS", "3H"]
    assert names(z["stock"]) == ["AH", "2H", "3S"]
    assert names(st.legal_moves()) == ["2S", "draw"]  # 2S onto 3H: black on red, one lower
    st.apply("2S")  # one place it may go: no second decision
    assert names(z["tableau2"]) == ["AS", "3H", "2S"] and z["tableau1"] == []
    assert names(st.legal_moves()) == ["3H", "draw"]  # the face-up cards of a column move together: 3H, not 2S
    st.apply("3H")  # into the space (a 3, the highest rank)
    assert names(z["tableau1"]) == ["3H", "2S"]
    assert [e for e in st.events if e["type"] == "turn"][-1] == {"type": "turn", "card": "AS", "zone": "tableau2"}
    assert "AS" in names(st.legal_moves())
    st.apply("AS")  # two empty foundations: the pile is a second decision
    assert st.decision_kind() == "place" and names(st.legal_moves()) == ["foundation1", "foundation2"]
    st.apply("foundation2")
    assert names(z["foundation2"]) == ["AS"]
    st.apply("2S")  # onto its ace
    st.apply("draw")
    assert names(z["waste"]) == ["AH"]
    st.apply("AH")  # the one empty foundation
    st.apply("draw")
    st.apply("2H")
    st.apply("3H")  # onto 2H, or into the space the ace left
    assert names(st.legal_moves()) == ["foundation1", "tableau2"]
    st.apply("foundation1")
    st.apply("draw")
    st.apply("3S")
    st.apply("foundation2")
    assert st.is_terminal() and st.winner == 0
    assert st.vars["won"] == 1 and st.standings[0]["score"] == 1


def test_no_move_left_loses():
    # 3S on top of the first column, the second AH (down) under 3H: no build, the stock drawn out
    deck = cards("3S", "AH", "3H", "2S", "2H", "AS")
    st = State(concept(), 1, 0, deck=deck, hands=1)
    moves = []
    while not st.is_terminal():
        m = st.legal_moves()
        moves.append(names(m))
        st.apply(m[0])
    assert st.winner is None and st.vars["won"] == 0


def test_a_move_that_brings_back_a_position_seen_is_not_offered():
    # two spaces and a king-like 3: sent to the other space and back would repeat the position
    deck = cards("3S", "AH", "2H", "AS", "3H", "2S")
    st = State(concept(), 1, 0, deck=deck, hands=1)
    # the first column 3S; the second AH (down), 2H (up): 2H onto 3S
    st.apply("2H")
    st.apply("AH")  # the ace turned up, to a foundation (two empty: which)
    st.apply("foundation1")
    assert st.zones["tableau2"] == []
    # 3S with 2H on it may go to the empty second column ...
    assert "3S" in names(st.legal_moves())
    st.apply("3S")
    assert names(st.zones["tableau2"]) == ["3S", "2H"]
    # ... but not back: that position was seen
    assert "3S" not in names(st.legal_moves())


def test_random_play_always_ends():
    game = academie.load_game(str(CONCEPTS / "patience.yaml"))
    for seed in range(30):
        st = game.new_state(players=1, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_moves()))
            n += 1
            assert n < 1000


# -- Lady Cadogan's Klondike (rules/klondike/cadogan.yaml) -------------------------------------------
def klondike():
    return load_game("klondike/cadogan")


def stacked(first: list[str]) -> list:
    """A pack with ``first`` on top, the other cards after them in notation order."""
    top = cards(*first)
    rest = sorted(set(klondike().pack(1)) - set(top), key=lambda c: c.canon)
    return top + rest


def test_klondike_layout_seven_face_up_and_twenty_eight_in_all():
    # "and so on until there are seven cards face up and twenty-eight in the layout"
    st = State(klondike(), 1, 0, hands=1)
    piles = [st.zones[f"tableau{i}"] for i in range(1, 8)]
    assert [len(p) for p in piles] == [1, 2, 3, 4, 5, 6, 7] and sum(map(len, piles)) == 28
    shown = [e["card"] for e in st.events if e["type"] == "turn"]
    assert shown == [p[-1].name for p in piles]  # the last card of each column, and no other
    assert len(st.zones["stock"]) == 24


def test_klondike_layout_is_laid_in_rows():
    # the first card face up, six face down to its right; below the first face-down card one face up …
    deck = stacked([])
    st = State(klondike(), 1, 0, deck=deck, hands=1)
    names_ = [c.name for c in deck]
    assert [c.name for c in st.zones["tableau1"]] == [names_[0]]
    assert [c.name for c in st.zones["tableau2"]] == [names_[1], names_[7]]
    assert [c.name for c in st.zones["tableau7"]] == [names_[i] for i in (6, 12, 17, 21, 24, 26, 27)]


def test_klondike_the_face_up_cards_of_a_column_move_together_and_a_space_takes_a_king_only():
    # row 1: 9S | 10H (down) … ; row 2: on column 2 the 10H face up ... set so that column 2 shows 10H
    # columns: 1: 9S; 2: x, 10H; 3: x, x, JS; the rest anything
    order = [
        "9S",
        "2C",
        "3C",
        "4C",
        "5C",
        "6C",
        "7C",  # row 1 (9S up, the others down)
        "10H",
        "8C",
        "9C",
        "10C",
        "JC",
        "QC",  # row 2 (10H up on column 2)
        "JS",
        "KC",
        "AH",
        "2H",
        "3H",  # row 3 (JS up on column 3)
        "4H",
        "5H",
        "6H",
        "7H",  # row 4 (4H up on column 4)
        "8H",
        "9H",
        "JH",  # row 5 (8H up on column 5)
        "QH",
        "KH",  # row 6 (QH up on column 6)
        "KS",  # row 7 (KS up on column 7)
    ]
    st = State(klondike(), 1, 0, deck=stacked(order), hands=1)
    top = {i: st.zones[f"tableau{i}"][-1].name for i in range(1, 8)}
    assert top == {1: "9S", 2: "10H", 3: "JS", 4: "4H", 5: "8H", 6: "QH", 7: "KS"}
    st.apply("9S")  # onto 10H (black on red): column 1 is empty
    assert [c.name for c in st.zones["tableau2"]][-2:] == ["10H", "9S"]
    legal = names(st.legal_moves())
    assert "9S" not in legal  # 9S may not leave 10H alone: the face-up cards of a column move together
    assert "10H" in legal  # 10H and 9S together onto JS
    assert "4H" not in legal  # the space takes a king only
    st2 = st.copy()
    st2.apply("QH")  # onto KS, the one place it may go: not the space
    assert [c.name for c in st2.zones["tableau7"]][-2:] == ["KS", "QH"] and st2.zones["tableau1"] == []
    st.apply("10H")
    assert [c.name for c in st.zones["tableau3"]][-3:] == ["JS", "10H", "9S"]
    assert [e for e in st.events if e["type"] == "turn"][-1]["zone"] == "tableau2"  # the card under turned up


def test_klondike_settlement_52_counters_paid_5_for_each_card_founded():
    # "The player pays 52 counters for the pack and he is paid 5 counters for every card he gets down"
    st = State(klondike(), 1, 3, hands=1)
    agent = FirstAgent()
    while not st.is_terminal():
        st.apply(agent.choose(st, 0, st.legal_moves()))
    founded = sum(len(st.zones[f"foundation{i}"]) for i in range(1, 5))
    assert st.vars["founded"] == founded and st.vars["counters"] == 5 * founded - 52
    assert st.standings[0]["score"] == 5 * founded - 52
    assert st.vars["won"] == (founded == 52)


def test_klondike_observations_never_name_a_face_down_card_nor_the_stock():
    game = academie.load_game("klondike/cadogan")
    for seed in range(5):
        st = game.new_state(players=1, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            e = st.engine
            seen_up = {e.zones[z][-1].name for z in e.zones if z.startswith("tableau") and e.zones[z]}
            hidden = {c.name for c in e.zones["stock"]}
            for z in (f"tableau{i}" for i in range(1, 8)):
                pile = e.zones[z]
                shown = set(st.observation(0)["zones"][z]["cards"])
                hidden |= {c.name for c in pile if c.name not in shown}
            text = st.information_state_string(0)
            obs = st.observation(0)
            named = {c for z in obs["zones"].values() for c in z["cards"]}
            assert not (named & hidden) and seen_up <= named
            assert not any(f'"{c}"' in text for c in {c.name for c in e.zones["stock"]})
            st.apply_action(rng.choice(st.legal_actions()))


# -- free cells: the construct writes FreeCell (tests/concepts/freecell.yaml) -------------------------
# columns: 1: AH 2H 4S; 2: 3S 4H AS; 3: 3H 2S (a run: 2S black on 3H red)
FREECELL = cards("AH", "3S", "3H", "2H", "4H", "2S", "4S", "AS")


def test_a_run_moves_as_far_as_the_free_cells_allow():
    st = State(load_game(str(CONCEPTS / "freecell.yaml")), 1, 0, deck=FREECELL, hands=1)
    z = st.zones
    assert [names(z[f"tableau{i}"]) for i in (1, 2, 3)] == [["AH", "2H", "4S"], ["3S", "4H", "AS"], ["3H", "2S"]]
    assert "3H" in names(st.legal_moves())  # 3H and 2S onto 4S: two free cells, three cards at most
    st.apply("AS")  # to a foundation or a cell: which
    assert names(st.legal_moves()) == ["foundation1", "foundation2", "cell1", "cell2"]
    st.apply("cell1")
    st.apply("4H")  # to the other cell, the one place it may go
    assert names(z["cell2"]) == ["4H"]  # the cells are full: one card at a time
    assert "3H" not in names(st.legal_moves())
    st.apply("AS")  # from its cell to a foundation: a cell free again
    st.apply("foundation1")
    assert "3H" in names(st.legal_moves())
    st.apply("3H")
    assert names(z["tableau1"]) == ["AH", "2H", "4S", "3H", "2S"] and z["tableau3"] == []


# -- a row dealt from the stock, complete suits taken off: Spider (tests/concepts/spider.yaml) --------
# columns: 1: AH (down) 3S; 2: 2H (down) 4H; 3: 4S; the stock AS 3H 2S
SPIDER = cards("AH", "2H", "4S", "3S", "4H", "AS", "3H", "2S")


def test_a_row_is_dealt_onto_every_column_and_a_complete_suit_is_taken_off_whole():
    st = State(load_game(str(CONCEPTS / "spider.yaml")), 1, 0, deck=SPIDER, hands=1)
    z = st.zones
    st.apply("3S")  # onto either four, whatever the suit
    assert names(st.legal_moves()) == ["tableau2", "tableau3"]
    st.apply("tableau3")
    assert names(z["tableau1"]) == ["AH"]  # turned up
    st.apply("draw")  # a card onto each column
    assert [names(z[f"tableau{i}"]) for i in (1, 2, 3)] == [["AH", "AS"], ["2H", "4H", "3H"], ["4S", "3S", "2S"]]
    assert "draw" not in names(st.legal_moves())  # the stock is out
    st.apply("AS")
    assert "4S" in names(st.legal_moves())  # four of one suit, king to ace: off together
    st.apply("4S")
    st.apply("foundation1")
    assert names(z["foundation1"]) == ["4S", "3S", "2S", "AS"] and z["tableau3"] == []


def test_no_row_is_dealt_while_a_column_is_empty():
    # columns: 1: AH (down) 4H; 2: 2H (down) 2S; 3: 3S; the stock AS 3H 4S
    deck = cards("AH", "2H", "3S", "4H", "2S", "AS", "3H", "4S")
    st = State(load_game(str(CONCEPTS / "spider.yaml")), 1, 0, deck=deck, hands=1)
    assert "draw" in names(st.legal_moves())
    st.apply("3S")  # onto 4H: the third column is empty
    assert st.zones["tableau3"] == [] and "draw" not in names(st.legal_moves())


def test_a_simulation_counts_a_patience_won_only_when_the_rules_say_so(run):
    import json

    code, out, err = run("simulate", "klondike/cadogan", "-n", 10, "-s", 0, "--json")
    assert code == 0, err
    report = json.loads(out)
    # random play does not win Cadogan's Klondike in ten deals; alone, the player is always "first"
    assert report["players"] == 1 and report["wins_by_seat"] == [0.0]
    code, out, err = run("simulate", str(CONCEPTS / "patience.yaml"), "-n", 20, "-s", 0, "--json")
    assert 0 < json.loads(out)["wins_by_seat"][0] < 20


# -- OpenSpiel's Klondike (tests/concepts/klondike_openspiel.yaml) and the fields made for it ----------
def variant(tmp_path: Path, old: str, new: str, name: str = "v.yaml", *more: tuple[str, str]):
    """tests/concepts/patience.yaml with ``old`` replaced by ``new`` (and each further pair), once each
    and each there."""
    text = (CONCEPTS / "patience.yaml").read_text()
    for a, b in ((old, new), *more):
        assert a in text
        text = text.replace(a, b, 1)
    path = tmp_path / name
    path.write_text(text)
    return load_game(str(path))


TABLEAU_MOVE = "empty: card.rank == 3, editorial: {reason: a test, evidence: a test of the language}}\n      - {from: waste, to: tableau"
REPEAT = "    goal: foundation\n"


def test_a_whole_pile_is_not_moved_to_an_empty_one_when_whole_is_false(tmp_path):
    deck = cards("3S", "AH", "2H", "AS", "3H", "2S")  # as in the test above: 3S alone, then a space beside it
    for whole, offered in ((None, True), (False, False)):
        game = (
            concept()
            if whole is None
            else variant(tmp_path, TABLEAU_MOVE, TABLEAU_MOVE.replace("3,", "3, whole: false,"))
        )
        st = State(game, 1, 0, deck=deck, hands=1)
        st.apply("2H")
        st.apply("AH")
        st.apply("foundation1")
        assert st.zones["tableau2"] == []
        # 3S with 2H on it is the whole first column: to the space, it changes nothing but the column
        assert ("3S" in names(st.legal_moves())) is offered


def test_spaces_first_sends_a_card_to_the_first_empty_pile_without_asking(tmp_path):
    found = "empty: card.rank == A, editorial: {reason: a test, evidence: a test of the language}}\n      - {from: waste, to: foundation"
    game = variant(tmp_path, found, found.replace("== A,", "== A, spaces: first,"))
    st = State(game, 1, 0, deck=cards("2S", "AS", "3H", "AH", "2H", "3S"), hands=1)
    st.apply("2S")
    st.apply("3H")
    st.apply("AS")  # two empty foundations: the first, no second decision
    assert st.decision_kind() == "play" and names(st.zones["foundation1"]) == ["AS"]


def test_positions_may_come_back_and_the_limit_ends_the_patience(tmp_path):
    deck = cards("3S", "AH", "2H", "AS", "3H", "2S")
    game = variant(
        tmp_path,
        REPEAT,
        REPEAT + "    repeat: true\n    limit: {moves: 6, editorial: {reason: a test, evidence: a test}}\n",
    )
    st = State(game, 1, 0, deck=deck, hands=1)
    st.apply("2H")
    st.apply("AH")
    st.apply("foundation1")
    st.apply("3S")
    assert names(st.zones["tableau2"]) == ["3S", "2H"]
    assert "3S" in names(st.legal_moves())  # back: the position was seen, and may come again
    st.apply("3S")
    assert names(st.zones["tableau1"]) == ["3S", "2H"]
    st.apply("3S")  # the fifth move (the pile a card goes to is no move of its own)
    assert not st.is_terminal()
    st.apply("3S")  # the sixth: the limit
    assert st.is_terminal() and st.winner is None


def test_with_turns_every_card_turned_face_up_counts_for_the_limit_and_turned_counts_the_uncovered(tmp_path):
    deck = cards("3S", "AH", "2H", "AS", "3H", "2S")
    text = (
        REPEAT + "    repeat: true\n    limit: {moves: 5, turns: true, editorial: {reason: a test, evidence: a test}}\n"
    )
    up = "vars:\n  up: {shown: public, label: turned, editorial: {reason: a test, evidence: a test}}\n"
    game = variant(tmp_path, REPEAT, text + "    turned: up\n", "v.yaml", ("vars:\n", up))
    st = State(game, 1, 0, deck=deck, hands=1)  # two cards laid face up: 2 of 5
    assert st.vars["up"] == 0
    st.apply("2H")  # 3
    assert st.vars["up"] == 1  # AH uncovered and turned: 4
    st.apply("AH")
    st.apply("foundation1")  # 5: the end
    assert st.is_terminal() and st.vars["up"] == 1


def test_any_card_of_a_pile_every_third_taken_out_alone_and_the_others_close_up():
    game = load_game(str(CONCEPTS / "klondike_openspiel.yaml"))
    # the columns: 28 cards, none an ace nor a two (each column's last card face up); then the waste
    waste = ["AS", "AH", "5D", "AD", "2S", "6D"]
    pool = [
        c for c in sorted(game.pack(1), key=lambda c: c.canon) if c.name[:-1] not in ("A", "2") and c.name not in waste
    ]
    cols = pool[:28]
    rest = [c for c in game.pack(1) if c not in cols and c.name not in waste]
    st = State(game, 1, 0, deck=cols + cards(*waste) + sorted(rest, key=lambda c: c.canon), hands=1)
    assert names(st.zones["waste"][:6]) == waste
    legal = names(st.legal_moves())
    assert "AS" in legal and "AD" in legal  # the 1st and the 4th
    assert "AH" not in legal  # the 2nd
    st.apply("AS")  # to the first foundation, none asked
    assert names(st.zones["foundation1"]) == ["AS"] and names(st.zones["waste"][:5]) == waste[1:]
    legal = names(st.legal_moves())
    assert "AH" in legal and "2S" in legal and "AD" not in legal  # closed up: AH is 1st, 2S 4th


def test_a_patience_whose_positions_may_come_back_needs_a_limit(tmp_path):
    import pytest

    from academie.dsl.errors import RuleError

    with pytest.raises(RuleError) as e:
        variant(tmp_path, REPEAT, REPEAT + "    repeat: true\n")
    assert "limit" in str(e.value) and "v.yaml" in str(e.value)
    with pytest.raises(RuleError) as e:
        variant(tmp_path, "cards: face_up,", "cards: face_up, every: 3,", "w.yaml")
    assert "cards: any" in str(e.value)


def test_the_openspiel_score_counts_the_foundations_the_uncovered_and_the_waste_taken():
    game = load_game(str(CONCEPTS / "klondike_openspiel.yaml"))
    for seed in range(5):
        e = State(game, 1, seed, hands=1)
        rng = random.Random(seed)
        while not e.is_terminal():
            e.apply(rng.choice(e.legal_moves()))
        ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        founded = [c for i in range(1, 5) for c in e.zones[f"foundation{i}"]]
        points = sum(max(10, 100 - 10 * ranks.index(c.name[:-1])) for c in founded)
        turns = sum(1 for ev in e.events if ev["type"] == "turn") - 31  # the layout turned 7 + 24
        assert e.returns() == [points + 20 * turns + 20 * (24 - len(e.zones["waste"]))]
