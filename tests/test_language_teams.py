"""Partnerships and what goes with them (issue 13, item 2): teams by a pattern
or by seats, counters and standings by side, at: each, literal seats, and a
name for the card of a zone inside count/any/all. Proven on
tests/concepts/partners.yaml and small files written here."""

import textwrap
from pathlib import Path

import pytest

from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State

CONCEPT = str(Path(__file__).parent / "concepts" / "partners.yaml")
E = "editorial: {reason: r, evidence: e}"


def names(cards):
    return [c.name if hasattr(c, "name") else c for c in cards]


def partners(players=4, seed=1):
    g = load_game(CONCEPT)
    return play(State(g, players, seed, keep_events=True), make_agents(["random"], players, seed))


def test_sides_by_a_pattern():
    g = load_game(CONCEPT)
    assert g.team_of(4) == [0, 1, 0, 1]
    assert g.team_of(5) == [0, 1, 0, 1, 0]


@pytest.mark.parametrize("seed", range(6))
def test_a_counter_kept_by_side_is_the_sides_and_partners_share_their_rank(seed):
    st = partners(4, seed)
    pts = st.pvars["points"]
    assert pts[0] == pts[2] and pts[1] == pts[3]
    # every trick scored one point for its winner's side, and seat 0's side 10 when he took none
    tricks = [e for e in st.events if e["type"] == "trick"]
    by_side = [sum(1 for e in tricks if e["winner"] % 2 == side) for side in (0, 1)]
    assert pts[1] == by_side[1]
    assert pts[0] - by_side[0] in (0, 10, 20)
    ranks = {s["seat"]: s["rank"] for s in st.standings}
    assert ranks[0] == ranks[2] and ranks[1] == ranks[3]


def test_a_literal_seat_and_when_guard_an_effect():
    g = load_game(CONCEPT)
    seen = set()
    for seed in range(30):
        st = play(State(g, 4, seed, keep_events=True), make_agents(["random"], 4, seed))
        tricks = [e for e in st.events if e["type"] in ("trick", "hand_start")]
        hands, cur = [], None
        for e in tricks:
            if e["type"] == "hand_start":
                cur = []
                hands.append(cur)
            else:
                cur.append(e["winner"])
        bonus = 10 * sum(1 for h in hands if 0 not in h)
        side0 = sum(1 for h in hands for w in h if w % 2 == 0)
        assert st.pvars["points"][0] == side0 + bonus
        seen.add(bonus > 0)
    assert seen == {True, False}


def test_at_each_runs_the_effect_for_every_seat():
    st = State(load_game(CONCEPT), 4, 3, keep_events=True)
    deal = next(e for e in st.events if e["type"] == "deal")
    want = [sum(1 for c in h if c[:-1] in ("A", "K", "Q", "J")) for h in deal["hands"]]
    assert st.pvars["honours"] == want


def test_the_card_under_test_is_compared_with_the_cards_of_the_trick():
    deal = {
        "hands": [
            ["7S", "JS", "QS", "7H", "KH", "AH", "9D", "KD"],
            ["10S", "AS", "7D", "8D", "QD", "9C", "QC", "AC"],
            ["9S", "KS", "8H", "9H", "10H", "JH", "10D", "7C"],
            ["8S", "QH", "JD", "AD", "8C", "10C", "JC", "KC"],
        ]
    }
    st = State(load_game(CONCEPT), 4, 0, dealer=0, deal=deal, hands=1)
    st.apply("10S")  # seat 1 leads the ten of spades
    assert names(st.legal_moves()) == ["KS"]  # 9S would not win it: he must win if he can
    st.apply("KS")
    assert names(st.legal_moves()) == ["8S"]  # he cannot win it: he follows suit
    st.apply("8S")
    assert names(st.legal_moves()) == ["7S", "JS", "QS"]  # none beats the king: any spade


GAME = f"""\
title: sides
players: {{min: 4, max: 6, {E}}}
pack: {{suits: [S, H, D, C], ranks: [7, 8, 9, 10, J, Q, K, A], {E}}}
orders: {{play: {{ranks: [A, K, Q, J, 10, 9, 8, 7], {E}}}}}
zones: {{tricks: {{per_seat: true, {E}}}}}
"""
HAND = f"""\
hand:
  deal: {{kind: deal, hand: 4, {E}}}
  play:
    kind: tricks
    leader: dealer + 1
    {E}
    winner: {{key: [card.suit == led, rank(card)], {E}}}
    won_to: tricks
"""


def load(tmp_path, extra, hand=HAND, most=6):
    p = tmp_path / "g.yaml"
    p.write_text(GAME.replace("max: 6", f"max: {most}") + textwrap.dedent(extra) + hand)
    return p, load_game(str(p))


def test_sides_by_seats_and_standings_by_side(tmp_path):
    _, g = load(
        tmp_path,
        f"""\
        teams: {{sides: [[0, players - 1], [1, 2]], {E}}}
        game: {{standings: {{score: team_sum(tricks_won(seat)), {E}}}, {E}}}
        """,
        most=4,
    )
    assert g.team_of(4) == [0, 1, 1, 0]
    st = play(State(g, 4, 2), make_agents(["random"], 4, 2))
    score = {s["seat"]: s["score"] for s in st.standings}
    assert score[0] == score[3] == st.won[0] + st.won[3]
    assert score[1] == score[2] == st.won[1] + st.won[2]


@pytest.mark.parametrize(
    "teams, message",
    [
        ("{sides: [[0, 2], [1, 2]], " + E + "}", "seat 2 is on two sides"),
        ("{sides: [[0, 2], [1]], " + E + "}", "seat 3 is on no side"),
        (
            "{of: index(dealer) % 2, " + E + "}",
            "teams can only depend on the seat and the number of players, not on dealer",
        ),
        ("{" + E + "}", "teams: gives either of:"),
    ],
)
def test_a_wrong_side_is_a_located_error(tmp_path, teams, message):
    with pytest.raises(RuleError) as e:
        load(tmp_path, f"teams: {teams}\n")
    (d,) = e.value.diagnostics
    assert message in d.message
    assert d.pos.line == 6  # the teams: line


LOOK = f"""\
hand:
  deal: {{kind: deal, hand: 4, {E}}}
  look:
    kind: effects
    do:
      - set: {{has: "count(hand(5)) + (if any(hand(0), x, any(hand(1), y, y.suit == x.suit)) then 100 else 0)"}}
        {E}
    {E}
"""


@pytest.mark.parametrize(
    "seat1, has",
    [
        (["JH", "QS", "KS", "AS"], 104),  # seat 0 holds spades, and so does seat 1
        (["JH", "QH", "KH", "AH"], 4),  # seat 1 holds no spade
    ],
)
def test_a_literal_seat_is_taken_round_the_table_and_any_names_its_card(tmp_path, seat1, has):
    p = tmp_path / "g.yaml"
    p.write_text(GAME.replace("max: 6", "max: 4") + "vars: {has: {" + E + "}}\n" + LOOK)
    rest = [c for c in ["JS", "QS", "KS", "AS", "JH", "QH", "KH", "AH"] if c not in seat1]
    hands = [["7S", "8S", "9S", "10S"], seat1, ["7D", "8D", "9D", "10D"], rest]
    st = State(load_game(str(p)), 4, 0, dealer=3, deal={"hands": hands}, hands=1)
    assert st.vars["has"] == has  # hand(5) is hand(1) with four players; x a card of seat 0, y of seat 1


def test_a_name_for_the_card_that_already_means_something_is_refused(tmp_path):
    for bad, word in (("any(trick, card, card.suit == S)", "card"), ("any(trick, tricks, true)", "tricks")):
        with pytest.raises(RuleError) as e:
            load(tmp_path, f'game: {{until: "{bad}", {E}}}\n')
        assert f"'{word}' already means something" in e.value.diagnostics[0].message


# -- a partnership game written one step per rule ------------------------------------
SIDES_GAME = f"""\
title: four players in two sides, the dealer's last card turned up and his
players: {{min: 4, max: 4, {E}}}
pack: {{suits: [S, H, D, C], ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], {E}}}
orders: {{play: {{ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2], {E}}}}}
teams: {{sides: [[0, 2], [1, 3]], {E}}}
zones: {{tricks: {{per_seat: true, {E}}}}}
vars: {{score: {{per_team: true, {E}}}}}
hand:
  shuffle: {{kind: shuffle, cut_by: dealer - 1, {E}}}
  deal: {{kind: deal, hand: "if seat == dealer then 12 else 13", batches: 1, {E}}}
  turnup: {{kind: turnup, to: hand(dealer), {E}}}
  play:
    kind: tricks
    leader: dealer + 1
    {E}
    follow: {{must: [card.suit == led], {E}}}
    winner: {{key: [card.suit == trump, card.suit == led, rank(card)], {E}}}
    won_to: tricks
  odd:
    kind: effects
    do:
      - {{add: {{score: "team_sum(tricks_won(seat)) - 6"}}, at: each_side, when: "team_sum(tricks_won(seat)) > 6", {E}}}
    {E}
game:
  until: max_seats(score(seat)) >= 5
  next_dealer: dealer + 1
  standings: {{score: score(seat), {E}}}
  {E}
"""


@pytest.mark.parametrize("seed", range(4))
def test_a_partnership_game_in_one_step_per_rule_plays(tmp_path, seed):
    p = tmp_path / "sides.yaml"
    p.write_text(SIDES_GAME)
    g = load_game(str(p))
    st = play(State(g, 4, seed, keep_events=True), make_agents(["random"], 4, seed))
    assert not st.unfinished
    score = st.pvars["score"]
    assert score[0] == score[2] and score[1] == score[3] and max(score) >= 5
    top = [s["seat"] for s in st.standings if s["rank"] == 1]
    assert sorted(top) in ([0, 2], [1, 3])  # a side wins, both partners
    starts = [i for i, e in enumerate(st.events) if e["type"] == "hand_start"]
    odd = [0, 0]
    for i, j in zip(starts, starts[1:] + [len(st.events)]):
        events = st.events[i:j]
        dealer = events[0]["dealer"]
        up = next(e for e in events if e["type"] == "turnup")
        deal = next(e for e in events if e["type"] == "deal")
        assert [len(h) for h in deal["hands"]] == [12 if s == dealer else 13 for s in range(4)]
        played = {e["card"] for e in events if e["type"] == "play" and e["seat"] == dealer}
        assert up["card"] in played  # the turn-up was his, and he played it
        for side in (0, 1):
            won = sum(1 for e in events if e["type"] == "trick" and e["winner"] % 2 == side)
            odd[side] += max(0, won - 6)
    assert [odd[0], odd[1], odd[0], odd[1]] == score  # each_side: once for the side, not per partner
