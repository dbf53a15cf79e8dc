"""Four games a historian reaches for, written with the language as it now is,
one step per rule (tests/games/*.yaml), played through, and checked on the
rule that makes each of them: Oh Hell's bids never add up with the dealer's
hook; Hearts' passed cards arrive, left, right, across, and are held on every
fourth hand; Whist's sides share their score; Écarté's free discards are drawn
back."""

import random
from collections import Counter
from pathlib import Path

import pytest

from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State

GAMES = Path(__file__).parent / "games"


def game(name):
    return load_game(str(GAMES / f"{name}.yaml"))


def played(name, players, seed):
    st = play(State(game(name), players, seed, keep_events=True), make_agents(["random"], players, seed))
    st.check_invariants()
    assert st.is_terminal()
    return st


def hands_of(events):
    """The events of each hand, in order."""
    out = []
    for e in events:
        if e["type"] == "hand_start":
            out.append([])
        if out:
            out[-1].append(e)
    return out


def kinds(name):
    return Counter(step.kind for step in game(name).steps)


@pytest.mark.parametrize("name", ["ohhell", "hearts_passing", "whist_partners", "ecarte_discards"])
def test_one_step_per_rule_no_ladder(name):
    # one deal, at most one turn-up, one choice of each kind: no step repeated for a size or a seat
    k = kinds(name)
    assert k["deal"] == 1 and k["turnup"] <= 1 and k["choose_number"] <= 1 and k["choose_cards"] <= 1


# -- Oh Hell ------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 7])
@pytest.mark.parametrize("seed", range(3))
def test_oh_hell_shrinks_and_the_bids_never_add_up(players, seed):
    st = played("ohhell", players, seed)
    score = [0] * players
    hands = hands_of(st.events)
    assert len(hands) == 7
    for no, evs in enumerate(hands, 1):
        dealer = evs[0]["dealer"]
        deal = next(e for e in evs if e["type"] == "deal")
        assert [len(h) for h in deal["hands"]] == [8 - no] * players  # seven, six, … one
        bids = [e for e in evs if e["type"] == "number"]
        assert [e["seat"] for e in bids] == [(dealer + 1 + k) % players for k in range(players)]  # the dealer last
        tricks = [e for e in evs if e["type"] == "trick"]
        assert len(tricks) == 8 - no
        assert sum(e["value"] for e in bids) != len(tricks)  # the hook
        won = Counter(e["winner"] for e in tricks)
        for e in bids:
            score[e["seat"]] += 10 + e["value"] if won[e["seat"]] == e["value"] else 0
    assert st.pvars["score"] == score


def test_oh_hell_the_dealer_is_refused_the_number_that_makes_the_tricks():
    g = game("ohhell")
    refused = 0
    for seed in range(10):
        st = State(g, 4, seed, keep_events=True)
        rng = random.Random(seed)
        while not st.is_terminal():
            moves = st.legal_moves()
            if st.decision_kind() == "number" and st.current_player() == st.dealer:
                held = len(st.hand[st.dealer])
                others = sum(st.pvars["bid"][s] for s in range(4) if s != st.dealer)
                assert moves == [v for v in range(held + 1) if v != held - others]
                refused += 0 <= held - others <= held
            st.apply(rng.choice(moves))
    assert refused > 0


# -- Hearts with passing ---------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_hearts_passed_cards_arrive_left_right_across_and_hold(seed):
    st = played("hearts_passing", 4, seed)
    hands = hands_of(st.events)
    assert len(hands) == 4
    for no, evs in enumerate(hands, 1):
        deal = next(e for e in evs if e["type"] == "deal")["hands"]
        gives = [e for e in evs if e["type"] == "deliver"]
        plays = {s: {e["card"] for e in evs if e["type"] == "play" and e["seat"] == s} for s in range(4)}
        if no == 4:  # the fourth hand is held: every seat plays what it was dealt
            assert gives == []
            assert all(plays[s] == set(deal[s]) for s in range(4))
            continue
        step = {1: 1, 2: -1, 3: 2}[no]
        assert sorted(g["seat"] for g in gives) == [0, 1, 2, 3]
        for g in gives:
            assert g["to_seat"] == (g["seat"] + step) % 4 and len(g["cards"]) == 3
            assert set(g["cards"]) <= set(deal[g["seat"]])
            assert set(g["cards"]) <= plays[g["to_seat"]]  # they arrived: the receiver plays them
        for s in range(4):  # what a seat plays is its deal, less what it gave, plus what it got
            given = next(g["cards"] for g in gives if g["seat"] == s)
            got = next(g["cards"] for g in gives if g["to_seat"] == s)
            assert plays[s] == (set(deal[s]) - set(given)) | set(got)
    # a point a heart, thirteen for the queen of spades: 26 a hand
    assert sum(st.pvars["points"]) == 4 * 26


# -- Whist with partnerships -----------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_whist_sides_share_their_score(seed):
    st = played("whist_partners", 4, seed)
    score = st.pvars["score"]
    assert score[0] == score[2] and score[1] == score[3]
    expect = [0, 0]
    for evs in hands_of(st.events):
        dealer = evs[0]["dealer"]
        deal = next(e for e in evs if e["type"] == "deal")["hands"]
        turn = next(e for e in evs if e["type"] == "turnup")
        assert [len(h) for h in deal] == [12 if s == dealer else 13 for s in range(4)]
        # the turn-up is the dealer's: he plays it
        assert any(e["type"] == "play" and e["seat"] == dealer and e["card"] == turn["card"] for e in evs)
        won = Counter(e["winner"] % 2 for e in evs if e["type"] == "trick")
        held = deal[:]
        held[dealer] = held[dealer] + [turn["card"]]
        honours = Counter(
            s % 2 for s in range(4) for c in held[s] if c[-1] == turn["trump"] and c[:-1] in ("A", "K", "Q", "J")
        )
        for side in (0, 1):
            expect[side] += max(0, won[side] - 6) + (honours[side] // 2 if honours[side] >= 3 else 0)
    assert [score[0], score[1]] == expect
    assert max(expect) >= 5  # the game is five points
    ranks = {s["seat"]: s["rank"] for s in st.standings}
    assert ranks[0] == ranks[2] and ranks[1] == ranks[3]


# -- Écarté with a free choice of discards -----------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_ecarte_discards_are_drawn_back_and_the_second_must_win_if_he_can(seed):
    st = played("ecarte_discards", 2, seed)
    order = ["7", "8", "9", "10", "A", "J", "Q", "K"]
    points = [0, 0]
    for evs in hands_of(st.events):
        dealer = evs[0]["dealer"]
        thrown = [e for e in evs if e["type"] == "deliver"]
        assert [e["seat"] for e in thrown] == [1 - dealer, dealer]  # the dealer's adversary first
        drawn = {e["seat"]: e["cards"] for e in evs if e["type"] == "take" and e["to"] == "hand"}
        for e in thrown:
            assert len(drawn.get(e["seat"], [])) == len(e["cards"])  # as many drawn as thrown
        deal = next(e for e in evs if e["type"] == "deal")["hands"]
        hand = {s: set(deal[s]) - set(next(t["cards"] for t in thrown if t["seat"] == s)) for s in (0, 1)}
        for s in (0, 1):
            hand[s] |= set(drawn.get(s, []))
            assert len(hand[s]) == 5
            assert hand[s] == {e["card"] for e in evs if e["type"] == "play" and e["seat"] == s}
        plays = [e for e in evs if e["type"] == "play"]
        for lead, second in zip(plays[::2], plays[1::2]):
            held = hand[second["seat"]]
            led = lead["card"]
            over = [c for c in held if c[-1] == led[-1] and order.index(c[:-1]) > order.index(led[:-1])]
            if over:
                assert second["card"] in over  # he must win the trick if he can
            hand[lead["seat"]].discard(lead["card"])
            held.discard(second["card"])
        won = Counter(e["winner"] for e in evs if e["type"] == "trick")
        for s in (0, 1):
            points[s] += 2 if won[s] == 5 else 1 if won[s] >= 3 else 0
    assert st.pvars["points"] == points and max(points) >= 5
