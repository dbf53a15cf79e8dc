"""Capture play (``kind: capture``, the fishing family), proven on its concept file
(tests/concepts/capture.yaml), and Cassino's worked examples as Chambers's Encyclopædia prints
them, reproduced on stacked deals of rules/cassino/cassino.yaml."""

from __future__ import annotations

import random
from pathlib import Path

from academie.dsl.model import load_game
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"
RULES = Path(__file__).parent.parent / "rules"


def concept():
    return load_game(str(CONCEPTS / "capture.yaml"))


def cassino(*options):
    return load_game(str(RULES / "cassino" / "cassino.yaml"), options)


def names(moves):
    return [m.name if hasattr(m, "name") else m for m in moves]


def events(st, *types):
    return [e for e in st.events if e["type"] in types]


# -- the concept ---------------------------------------------------------------------------
# seat 0 leads (seat 1 deals); the stock's first four are turned face up to the table
CONCEPT_DEAL = {
    "hands": [["10S", "4H"], ["6S", "9H"]],
    "stock": [
        "9S",
        "AS",
        "4S",
        "6H",
        "2S",
        "3S",
        "2H",
        "3H",
        "5S",
        "5H",
        "7S",
        "7H",
        "8S",
        "8H",
        "KS",
        "KH",
        "10H",
        "AH",
    ],
}


def test_a_card_takes_several_sets_adding_up_to_it_and_a_cleared_table_is_a_sweep():
    st = State(concept(), 2, 0, dealer=1, deal=CONCEPT_DEAL, hands=1)
    assert [c.name for c in st.zones["table"]] == ["9S", "AS", "4S", "6H"]
    st.apply("10S")
    # every table card is part of a set making ten (9 + A, 4 + 6); or the ten is left there
    assert names(st.legal_moves()) == ["4S", "9S", "AS", "6H", "trail"]
    st.apply("9S")
    # with the nine only sets holding it: 9 + A, or 9 + A with 4 + 6; not taken yet
    assert names(st.legal_moves()) == ["4S", "AS", "6H"]
    st.apply("AS")
    assert names(st.legal_moves()) == ["4S", "6H", "take"]
    st.apply("4S")  # the six is then the only move, and the taking: both made without asking
    cap = events(st, "capture")
    assert cap == [{"type": "capture", "seat": 0, "card": "10S", "cards": ["9S", "AS", "4S", "6H"]}]
    assert sorted(c.name for c in st.pzones["won"][0]) == ["10S", "4S", "6H", "9S", "AS"]
    assert st.pvars["sweeps"] == [1, 0]  # on_capture: the table is empty
    assert st.current_player() == 1


def test_a_build_is_owned_taken_whole_and_only_by_a_card_of_its_value():
    deal = {
        "hands": [["4H", "10H"], ["6S", "AH"]],
        "stock": [
            "6H",
            "2S",
            "KS",
            "3S",
            "9S",
            "AS",
            "4S",
            "2H",
            "3H",
            "5S",
            "5H",
            "7S",
            "7H",
            "8S",
            "8H",
            "KH",
            "9H",
            "10S",
        ],
    }
    st = State(concept(), 2, 0, dealer=1, deal=deal, hands=1)
    st.apply("4H")
    # 4 + 6 makes ten, which seat 0 holds: a build; 4 + 2 or 4 + 3 make numbers he does not hold
    assert names(st.legal_moves()) == ["6H", "trail"]
    st.apply("6H")  # then "build" is the only move
    assert events(st, "build") == [{"type": "build", "seat": 0, "card": "4H", "cards": ["6H"], "value": 10}]
    b = st.builds[0]
    assert ([c.name for c in b[0]], b[1], b[2]) == (["6H", "4H"], 10, 0)  # its cards, its value, its owner
    # seat 1's six cannot take the six inside the build: it is left on the table; he is asked
    # all the same (a build could be made with cards of value on the table, had his hand the card)
    st.apply("6S")
    assert names(st.legal_moves()) == ["trail"]
    st.apply("trail")
    assert events(st, "trail")[-1] == {"type": "trail", "seat": 1, "card": "6S"}
    # seat 0 takes his build whole with the ten (his last card: played without asking)
    assert names(st.legal_moves()) == ["6H", "trail"]  # the build is named by its first card
    st.apply("6H")
    cap = events(st, "capture")[-1]
    assert (cap["card"], sorted(cap["cards"])) == ("10H", ["4H", "6H"])
    assert st.builds == []
    assert st.pvars["owned"] == [0, 0]


def test_a_king_without_value_is_taken_only_by_a_king_and_the_last_taker_has_the_rest():
    st = State(concept(), 2, 0, dealer=1, deal=CONCEPT_DEAL, hands=1)
    rng = random.Random(1)
    while not st.is_terminal():
        moves = st.legal_moves()
        st.apply("take" if "take" in moves else rng.choice(moves))
    caps = events(st, "capture")
    for e in caps:
        if e["card"].startswith("K"):
            assert all(c.startswith("K") for c in e["cards"])
        else:
            assert not any(c.startswith("K") for c in e["cards"])
    rest = events(st, "rest")
    last = caps[-1]["seat"]
    assert all(r["seat"] == last for r in rest)
    assert st.zones["table"] == []
    assert sum(len(w) for w in st.pzones["won"]) == 22


def test_every_move_offered_completes_a_legal_turn_and_copies_play_alike():
    g = concept()
    for seed in range(20):
        st = State(g, 2, seed, hands=1)
        rng = random.Random(seed)
        twins = []
        while not st.is_terminal():
            moves = st.legal_moves()
            assert moves
            if rng.random() < 0.1:  # a copy paused here, in the middle of a turn or not
                twin = st.copy()
                assert twin.legal_moves() == moves
                twins.append((twin, len(st.events)))
            m = rng.choice(moves)
            st.apply(m)
            for twin, _ in twins:
                twin.apply(m)
        assert sum(len(w) for w in st.pzones["won"]) + len(st.zones["table"]) == 22
        for twin, _ in twins:  # the same moves give the copy the same game
            assert twin.events == st.events
            assert twin.pvars == st.pvars


# -- Cassino, Chambers's worked examples ----------------------------------------------------
def cassino_deal(hands, table, rest=None):
    """A stacked Cassino deal for two: ``table`` the four turned face up, then the stock."""
    used = {c for h in hands for c in h} | set(table)
    pack = [c.name for c in cassino().pack(2)]
    return {"hands": hands, "stock": list(table) + [c for c in (rest or pack) if c not in used]}


def test_cassino_a_ten_takes_a_ten_or_a_nine_and_an_ace():
    # "thus a ten will take a ten, or a nine and an ace"
    deal = cassino_deal([["10D", "KS", "QS", "JS"], ["KH", "QH", "JH", "KC"]], ["10S", "9C", "AC", "5D"])
    st = State(cassino(), 2, 0, dealer=1, deal=deal, hands=1)
    st.apply("10D")
    assert names(st.legal_moves()) == ["10S", "9C", "AC", "trail"]
    st.apply("10S")
    assert names(st.legal_moves()) == ["9C", "AC", "take"]
    st.apply("9C")  # the ace then completes it, and the ten takes both sets at once
    assert events(st, "capture")[-1]["cards"] == ["10S", "9C", "AC"]


def test_cassino_a_ten_takes_four_aces_and_a_six():
    # "or four aces and a. six, or any combination of spots that make just ten"
    deal = cassino_deal([["10D", "KS", "QS", "JS"], ["AC", "QH", "JH", "KC"]], ["AS", "AH", "AD", "6C"])
    st = State(cassino(), 2, 0, dealer=0, deal=deal, hands=1)  # seat 1 leads
    st.apply("AC")
    st.apply("trail")  # seat 1 leaves his ace: four aces and a six on the table
    st.apply("10D")
    for c in ["AS", "AH", "AD", "AC"]:
        assert c in names(st.legal_moves())
        st.apply(c)
    assert events(st, "capture")[-1] == {
        "type": "capture",
        "seat": 0,
        "card": "10D",
        "cards": ["AS", "AH", "AD", "AC", "6C"],
    }


def test_cassino_a_build_of_six_raised_to_nine_then_ten_and_taken():
    # "if he builds a six, the next player may make it a nine, and the next still may put on an ace
    # and call it ten; but in building, the one who makes any par ticular number must hold the card
    # that will take it."
    deal = cassino_deal([["2H", "6H", "AH", "10C"], ["3D", "9D", "QS", "JS"]], ["4S", "KC", "QH", "7D"])
    st = State(cassino(), 2, 0, dealer=1, deal=deal, hands=1)
    st.apply("2H")
    assert names(st.legal_moves()) == ["4S", "trail"]  # 2 + 4: six, which he holds
    st.apply("4S")
    st.apply("3D")
    assert names(st.legal_moves()) == ["4S", "trail"]  # the build of six, raised to nine (he holds it)
    st.apply("4S")
    st.apply("AH")
    st.apply("4S")  # nine and an ace: ten
    assert [(e["seat"], e["card"], e["value"]) for e in events(st, "build")] == [
        (0, "2H", 6),
        (1, "3D", 9),
        (0, "AH", 10),
    ]
    b = st.builds[0]
    assert ([c.name for c in b[0]], b[1], b[2]) == (["4S", "2H", "3D", "AH"], 10, 0)
    st.apply("QS")
    st.apply("trail")  # seat 1 leaves his queen rather than take the queen of hearts
    st.apply("10C")
    st.apply("4S")  # the ten takes the build whole
    assert events(st, "capture")[-1]["cards"] == ["4S", "2H", "3D", "AH"]


def test_cassino_anyone_holding_the_number_may_take_a_build_and_a_progressive_build_cannot_be_made():
    # "a player puts a four on a six to make up ten ... but any one having a ten may take them before him"
    deal = cassino_deal([["4H", "10H", "9S", "3C"], ["10D", "KH", "QH", "JH"]], ["6S", "2D", "KC", "QC"])
    st = State(cassino(), 2, 0, dealer=1, deal=deal, hands=1)
    st.apply("4H")
    # a four on a two called six would be the progressive build ("generally ruled out as
    # irregular"): he holds no six, so the two is not offered; a four on a six makes ten, held
    assert names(st.legal_moves()) == ["6S", "trail"]
    st.apply("6S")
    st.apply("10D")
    assert "6S" in names(st.legal_moves())
    st.apply("6S")
    cap = events(st, "capture")[-1]
    assert (cap["seat"], cap["card"], sorted(cap["cards"])) == (1, "10D", ["4H", "6S"])


def test_cassino_the_counts_after_the_hands_are_played():
    # "the greatest number of cards counts the holder three, the greatest number of spades one,
    # big C. (the ten of diamonds) two, little C. (the deuce of spades) one, and each ace one"
    g = cassino()
    for seed in range(6):
        st = State(g, 2, seed, hands=1)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_moves()))
        won = [[c.name for c in w] for w in st.pzones["won"]]
        assert sum(map(len, won)) == 52
        want = [0, 0]
        for s in range(2):
            o = 1 - s
            want[s] += 3 if len(won[s]) > len(won[o]) else 0
            sp = [sum(c.endswith("S") for c in w) for w in won]
            want[s] += 1 if sp[s] > sp[o] else 0
            want[s] += 2 if "10D" in won[s] else 0
            want[s] += 1 if "2S" in won[s] else 0
            want[s] += sum(c.startswith("A") for c in won[s])
        assert st.pvars["counted"] == want
        assert st.pvars["score"] == want


def turn(st, card, *cards, end=None):
    """One turn: the card played, the table cards chosen, then ``end`` (take, build, trail) if asked."""
    seat = st.current_player()
    st.apply(card)
    for c in cards:
        assert c in names(st.legal_moves()), (c, names(st.legal_moves()))
        st.apply(c)
    if end is not None and st.decision_kind() == "capture" and st.current_player() == seat:
        assert end in st.legal_moves()
        st.apply(end)


def test_cassino_modern_an_ace_as_fourteen_takes_three_aces_four_deuces_and_a_tray():
    # "an ace may possibly take three other aces, four deuces. and a tray, making fourteen spots"
    deal = cassino_deal([["AC", "2D", "3S", "KS"], ["AD", "2C", "QH", "JH"]], ["AS", "AH", "2S", "2H"])
    st = State(cassino("modern"), 2, 0, dealer=0, deal=deal, hands=1)  # seat 1 leads
    for seat, card in [(1, "AD"), (0, "2D"), (1, "2C"), (0, "3S")]:
        assert st.current_player() == seat
        turn(st, card, end="trail")
    turn(st, "QH", end="trail")
    fourteen = ["AS", "AH", "AD", "2S", "2H", "2D", "2C", "3S"]
    turn(st, "AC", *fourteen[:-1], end="take")
    cap = events(st, "capture")[-1]
    assert (cap["seat"], cap["card"], sorted(cap["cards"])) == (0, "AC", sorted(fourteen))
    # in the game first described the ace counts one: it cannot take them
    st = State(cassino(), 2, 0, dealer=0, deal=deal, hands=1)
    for card in ["AD", "2D", "2C", "3S", "QH"]:
        turn(st, card, end="trail")
    st.apply("AC")
    assert "2S" not in names(st.legal_moves())


def test_cassino_modern_an_ace_takes_big_and_little_cassino_and_two_aces_six_points():
    # "or the flee may take the big and little C. and two aces, which would make six points in the
    # game" (10 + 2 + 1 + 1 = 14: the card that takes them is an ace counted fourteen)
    deal = cassino_deal([["AC", "KS", "QS", "JS"], ["KH", "QH", "JH", "KD"]], ["10D", "2S", "AS", "AH"])
    st = State(cassino("modern"), 2, 0, dealer=1, deal=deal, hands=1)
    turn(st, "AC", "10D", "2S", "AS", end="take")
    cap = events(st, "capture")[-1]
    assert sorted(cap["cards"]) == sorted(["10D", "2S", "AS", "AH"])
    taken = [cap["card"], *cap["cards"]]
    points = 2 * ("10D" in taken) + ("2S" in taken) + sum(c.startswith("A") for c in taken)
    assert points == 6
