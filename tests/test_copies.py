"""Copies of a card (``pack: copies:``): a game of two packs, proven on tests/concepts/copies.yaml
(a trick game: two copies in a hand are one move, the first played of two equal cards wins) and
tests/concepts/spider2.yaml (Spider with its 104 cards: the pile a card leaves is named when both
of its copies may move)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import academie
from academie.dsl.cards import parse_card
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"


def cards(text: str) -> list:
    return [parse_card(x) for x in text.split()]


def names(xs) -> list[str]:
    return [x.name if hasattr(x, "name") else x for x in xs]


# dealt three at a time from seat 1: seat 1 gets AS AS KS, AH AH KH; seat 0 10S 10S KS, 10H 10H KH
TWICE = cards("AS AS KS 10S 10S KS AH AH KH 10H 10H KH")


def test_two_packs_hold_every_card_twice_and_a_hand_holding_two_copies_offers_the_card_once():
    g = load_game(str(CONCEPTS / "copies.yaml"))
    assert len(g.pack(2)) == 12 and set(g.pack_counts(2).values()) == {2}
    st = State(g, 2, 0, deck=TWICE)
    assert names(st.hand[1]) == ["KS", "AS", "AS", "KH", "AH", "AH"]
    assert st.current_player() == 1 and names(st.legal_moves()) == ["KS", "AS", "KH", "AH"]
    st.apply("AS")  # one copy played, the other still held
    assert names(st.hand[1]) == ["KS", "AS", "KH", "AH", "AH"]
    st.check_invariants()


def test_of_two_equal_cards_the_first_played_wins_the_trick():
    st = State(load_game(str(CONCEPTS / "copies.yaml")), 2, 0, deck=TWICE, keep_events=True)
    st.apply("KS")  # seat 1 leads a king; seat 0 plays the other king of spades
    st.apply("KS")
    trick = [e for e in st.events if e["type"] == "trick"][-1]
    assert trick["cards"] == ["KS", "KS"] and trick["winner"] == 1
    st.apply("AH")  # seat 1 leads again; seat 0 cannot beat it
    st.apply("10H")
    st.apply("AS")
    st.apply("10S")
    assert [e["winner"] for e in st.events if e["type"] == "trick"] == [1, 1, 1]
    st.check_invariants()


def test_a_move_names_the_card_one_action_id_for_both_copies_and_the_tensor_counts_them():
    from academie.encoding import ObservationEncoder

    game = academie.load_game(str(CONCEPTS / "copies.yaml"))
    assert game.num_distinct_actions() == 6  # six cards, each twice: six ids
    st = game.new_state(players=2, seed=0, deck=[c.name for c in TWICE])
    acts = st.legal_actions()
    assert len(acts) == len(set(acts)) == 4
    enc = ObservationEncoder(game, 2)
    vec = enc.encode(st.observation(1))
    hand = vec[enc.layout["hand"]]
    assert hand[game.move_to_action(parse_card("AS"))] == 2 and hand[game.move_to_action(parse_card("KS"))] == 1
    assert enc.high[enc.layout["hand"]].max() == 2
    rng = random.Random(0)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert sorted(st.returns()) == [0, 12] or sum(st.returns()) == 12


def test_a_stacked_deck_and_a_deal_hold_each_card_as_often_as_the_pack_does():
    g = load_game(str(CONCEPTS / "copies.yaml"))
    with pytest.raises(RuleError, match="more times than the pack has copies"):
        State(g, 2, 0, deck=cards("AS AS AS KS 10S KS AH AH KH 10H 10H KH"))
    with pytest.raises(RuleError, match="lacks 1 card"):
        State(g, 2, 0, deck=TWICE[:-1])
    st = State(
        g, 2, 0, deal={"hands": [["AS", "AS", "KS", "AH", "AH", "KH"], ["10S", "10S", "KS", "10H", "10H", "KH"]]}
    )
    assert names(st.hand[0]) == ["KS", "AS", "AS", "KH", "AH", "AH"]
    with pytest.raises(RuleError, match="AS is dealt 3 times, of 2 copies"):
        State(g, 2, 0, deal={"hands": [["AS", "AS", "KS", "AH", "AH", "KH"], ["AS", "10S", "KS", "10H", "10H", "KH"]]})


def _doc(tmp_path, copies: str) -> str:
    text = (CONCEPTS / "copies.yaml").read_text().replace("  copies: 2\n", copies)
    p = tmp_path / "g.yaml"
    p.write_text(text)
    return str(p)


def test_part_of_a_pack_is_copied_by_a_card_test(tmp_path):
    ed = "editorial: {reason: r, evidence: e}"
    copies = (
        f'  copies: [{{cards: "card.rank == A", count: 3, {ed}}}, {{cards: "card.rank in [A, K]", count: 2, {ed}}}]\n'
    )
    g = load_game(_doc(tmp_path, copies))
    counts = {c.name: k for c, k in g.pack_counts(2).items()}  # the first entry that admits a card
    assert counts == {"AS": 3, "AH": 3, "KS": 2, "KH": 2, "10S": 1, "10H": 1}


@pytest.mark.parametrize(
    "copies, said",
    [
        ("  copies: 1000000\n", "copies: 1000000 copies of a card is more than the limit of 64"),
        (
            "  copies: [{cards: card.rank == A, count: 65, editorial: {reason: r, evidence: e}}]\n",
            "more than the limit of 64",
        ),
        (
            "  copies: [{cards: count(trick) > 0, count: 2, editorial: {reason: r, evidence: e}}]\n",
            "made before any game",
        ),
    ],
)
def test_absurd_copies_are_a_located_error(tmp_path, run, copies, said):
    path = _doc(tmp_path, copies)
    with pytest.raises(RuleError, match=said):
        load_game(path)
    code, out, err = run("validate", path)
    assert code != 0 and "Traceback" not in err and f"{path}:" in out + err


def test_the_pack_would_hold_more_cards_than_the_limit(tmp_path, run):
    text = (CONCEPTS / "copies.yaml").read_text()
    text = text.replace("suits: [S, H]", "suits: [S, H, D, C]").replace(
        "ranks: [10, K, A]", "ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]"
    )
    p = tmp_path / "g.yaml"
    p.write_text(text.replace("  copies: 2\n", "  copies: 40\n"))
    with pytest.raises(RuleError, match="more than the limit of 1000"):
        load_game(str(p))


# -- Spider with its 104 cards (tests/concepts/spider2.yaml) -------------------------------------
def spider_deck(up: dict[int, str]) -> list:
    """A 104-card deck, top first, whose columns show the face-up cards ``up`` (column: card);
    the other cards in pack order."""
    pack = load_game(str(CONCEPTS / "spider2.yaml")).pack(1)
    at = {i: 50 + i - 1 if i <= 4 else 40 + i - 1 for i in range(1, 11)}  # the last card of each column
    deck: list = [None] * 104
    rest = list(pack)
    for col, name in up.items():
        c = parse_card(name)
        rest.remove(c)
        deck[at[col]] = c
    for i in range(104):
        if deck[i] is None:
            deck[i] = rest.pop(0)
    return deck


def test_spider_is_played_with_104_cards_and_the_pile_a_copy_leaves_is_named():
    g = load_game(str(CONCEPTS / "spider2.yaml"))
    assert len(g.pack(1)) == 104
    deck = spider_deck({1: "5H", 2: "5H", 3: "6S", 4: "6C", 5: "KD", 6: "KD", 7: "QC", 8: "QC", 9: "9D", 10: "9D"})
    st = State(g, 1, 0, deck=deck, hands=1, keep_events=True)
    z = st.zones
    assert z["tableau1"][-1].name == z["tableau2"][-1].name == "5H" and len(z["stock"]) == 50
    moves = names(st.legal_moves())
    assert moves.count("5H") == 1  # one move for both copies
    st.apply("5H")  # both copies could go: which pile it leaves
    assert st.decision_kind() == "from" and names(st.legal_moves()) == ["tableau1", "tableau2"]
    c = st.clone() if hasattr(st, "clone") else st.copy()
    assert c.decision_kind() == "from" and names(c.legal_moves()) == ["tableau1", "tableau2"]
    st.apply("tableau2")
    assert st.decision_kind() == "place" and names(st.legal_moves()) == ["tableau3", "tableau4"]
    c = st.copy()  # a copy at the second decision keeps the pile named
    c.apply("tableau4")
    assert names(c.zones["tableau4"])[-1] == "5H" and len(c.zones["tableau2"]) == 5
    st.apply("tableau3")
    assert names(z["tableau3"])[-2:] == ["6S", "5H"] and len(z["tableau2"]) == 5 and len(z["tableau1"]) == 6
    assert [e for e in st.events if e["type"] == "move"][-1]["from"] == "tableau2"
    st.check_invariants()


def test_spider_of_two_packs_plays_through_the_api_and_never_shows_a_face_down_card():
    game = academie.load_game(str(CONCEPTS / "spider2.yaml"))
    for seed in range(3):
        st = game.new_state(players=1, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            acts = st.legal_actions()
            assert len(acts) == len(set(acts))
            obs = st.observation(0)
            eng = st.engine
            down, _ = eng.pile_down
            assert obs["zones"]["stock"]["cards"] == []  # the stock: never named
            for z, k in down.items():  # each column: its face-up cards, never one below them
                assert obs["zones"][z]["cards"] == [c.name for c in eng.zones[z][k:]]
            st.apply_action(rng.choice(acts))
        st.engine.check_invariants()
