"""Decisions other than playing a card (issue 13, item 1): a seat chooses a
number (a bid, with the dealer's "hook") or cards (passed to another seat by
the hand number, a free discard drawn back from the stock). Proven on
tests/concepts/choose.yaml through the public API, and on small files
written here for the errors."""

import random
import textwrap
from pathlib import Path

import pytest

import academie
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State as EngineState

CONCEPT = str(Path(__file__).parent / "concepts" / "choose.yaml")
E = "editorial: {reason: r, evidence: e}"


def walk(players, seed, pick=None):
    """A whole game through the API, random moves (or ``pick``), with every
    decision's (kind, seat, legal moves, the state before) in order."""
    game = academie.load_game(CONCEPT)
    state = game.new_state(players=players, seed=seed, keep_events=True)
    rng = random.Random(seed)
    seen = []
    while not state.is_terminal():
        moves = state.legal_moves()
        seen.append((state.decision_kind(), state.current_player(), moves))
        state.apply((pick or rng.choice)(moves))
    return state, seen


def hand_events(state, hand_no):
    evs = state.engine.events
    starts = [i for i, e in enumerate(evs) if e["type"] == "hand_start"] + [len(evs)]
    return evs[starts[hand_no - 1] : starts[hand_no]]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_cards_are_passed_by_the_hand_number_all_at_once(players):
    state, _ = walk(players, 11)
    n = players
    for h in range(1, 5):
        evs = hand_events(state, h)
        deal = next(e for e in evs if e["type"] == "deal")
        gives = [e for e in evs if e["type"] == "deliver" and e["to"] == "hand"]
        if h == 4:  # every fourth hand: no passing
            assert gives == []
            continue
        step = {1: 1, 2: -1, 3: 2}[h]
        assert len(gives) == n
        for g in gives:
            assert g["to_seat"] == (g["seat"] + step) % n and len(g["cards"]) == 3
            assert set(g["cards"]) <= set(deal["hands"][g["seat"]])  # from his own dealt hand
        # the chosen cards move only when every seat has chosen: all the choices come first
        kinds = [e["type"] for e in evs if e["type"] in ("choose", "deliver")]
        assert kinds[: 3 * n] == ["choose"] * (3 * n)
        # after the pass, a hand is what was dealt, less what it gave, plus what it got
        first_discard = next(i for i, e in enumerate(evs) if e["type"] == "deliver" and e["to"] == "discards")
        for s in range(n):
            given = next(g for g in gives if g["seat"] == s)["cards"]
            got = next(g for g in gives if g["to_seat"] == s)["cards"]
            hand = (set(deal["hands"][s]) - set(given)) | set(got)
            chosen = [e["card"] for e in evs[:first_discard] if e["type"] == "choose" and e["seat"] == s][3:]
            assert set(chosen) <= hand  # his discards are chosen from the hand he holds after the pass


def test_a_free_discard_is_drawn_back_and_counted():
    state, seen = walk(4, 5)
    eng = state.engine
    for h in range(1, 5):
        evs = hand_events(state, h)
        discards = [e for e in evs if e["type"] == "deliver" and e["to"] == "discards"]
        draws = {e["seat"]: e["cards"] for e in evs if e["type"] == "take" and e["to"] == "hand"}
        assert len(discards) == 4
        for d in discards:
            assert 0 <= len(d["cards"]) <= 3
            assert all(not c.startswith("A") for c in d["cards"])  # aces may not be thrown out
            assert len(draws.get(d["seat"], [])) == len(d["cards"])  # as many drawn as thrown
    assert [len(h) for h in eng.hand] == [0, 0, 0, 0]
    # the discard offers pass once the least (0) is chosen, and never an ace
    discard_moves = [m for k, _, m in seen if k == "choose" and "pass" in m]
    assert discard_moves and all(not (hasattr(c, "rank") and c.rank == "A") for m in discard_moves for c in m)


def test_each_seats_bid_is_kept_and_the_dealer_is_hooked():
    game = academie.load_game(CONCEPT)
    state = game.new_state(players=4, seed=3, keep_events=True)
    rng = random.Random(3)
    hooked = 0
    while not state.is_terminal():
        moves = state.legal_moves()
        eng = state.engine
        if state.decision_kind() == "number":
            seat = state.current_player()
            held = len(eng.hand[seat])
            if seat == eng.dealer:  # the others have bid: the one number that makes the tricks is refused
                others = sum(eng.pvars["bid"][s] for s in range(4) if s != seat)
                assert moves == [v for v in range(held + 1) if v != held - others]
                hooked += 0 <= held - others <= held
                state.apply(rng.choice(moves))
            else:
                assert moves == list(range(held + 1))
                state.apply(rng.choice(moves[:2]))  # low bids: the dealer is hooked
            assert eng.pvars["bid"][seat] == state.engine.events[-1]["value"]  # kept, and logged
            continue
        state.apply(rng.choice(moves))
    assert hooked == 4
    for h in range(1, 5):
        evs = hand_events(state, h)
        dealer = evs[0]["dealer"]
        numbers = [e for e in evs if e["type"] == "number"]
        assert [e["seat"] for e in numbers] == [(dealer + 1 + k) % 4 for k in range(4)]
        assert all(e["into"] == "bid" for e in numbers)
        tricks = sum(1 for e in evs if e["type"] == "trick")
        assert sum(e["value"] for e in numbers) != tricks  # the bids never add up to the tricks


def test_the_bids_are_read_by_the_score():
    state, _ = walk(4, 8)
    eng = state.engine
    score = [0] * 4
    for h in range(1, 5):
        evs = hand_events(state, h)
        bids = {e["seat"]: e["value"] for e in evs if e["type"] == "number"}
        won = [0] * 4
        for e in evs:
            if e["type"] == "trick":
                won[e["winner"]] += 1
        for s in range(4):
            score[s] += 10 + bids[s] if won[s] == bids[s] else 0
    assert eng.pvars["score"] == score


def test_a_seat_sees_its_own_choices_and_what_it_is_given_and_nothing_else():
    game = academie.load_game(CONCEPT)
    state = game.new_state(players=4, seed=2)
    rng = random.Random(2)
    while state.engine.hand_no == 1 and not any(
        e["type"] == "deliver" for e in state.observation(0, earlier_hands=False)["events"]
    ):
        state.apply(rng.choice(state.legal_moves()))
    obs = [state.observation(s, earlier_hands=False) for s in range(4)]
    for s in range(4):
        chooses = [e for e in obs[s]["events"] if e["type"] == "choose"]
        assert all(("card" in e) == (e["seat"] == s) for e in chooses)
        for g in (e for e in obs[s]["events"] if e["type"] == "deliver"):
            assert ("cards" in g) == (s in (g["seat"], g["to_seat"]))
            assert (len(g["cards"]) if "cards" in g else g["count"]) == 3
    # nobody's observation names a card of another seat's hand
    for s in range(4):
        others = {c.name for t in range(4) if t != s for c in state.engine.hand[t]}
        text = state.information_state_string(s)
        given_to_s = {c for g in obs[s]["events"] if g["type"] == "deliver" and "cards" in g for c in g["cards"]}
        assert not any(f'"{c}"' in text for c in others - given_to_s)


def test_numbers_and_pass_have_stable_action_ids():
    game = academie.load_game(CONCEPT)
    ids = {game.action_to_string(a): a for a in range(game.num_distinct_actions())}
    assert "pass" in ids and "0" in ids and str(game.gamedef.number_bound) in ids
    assert game.gamedef.number_bound == 52  # max: is an expression: bounded by the pack
    assert game.move_to_action(7) == ids["7"] == game.move_to_action("7")
    with pytest.raises(academie.UnknownAction):
        game.move_to_action(53)


def test_agents_play_the_choices_inside_the_loops_as_move_by_move():
    g = load_game(CONCEPT)
    a = play(EngineState(g, 4, 9, keep_events=True), make_agents(["random"], 4, 9))
    b = EngineState(g, 4, 9, keep_events=True)
    agents = make_agents(["random"], 4, 9)
    while not b.is_terminal():
        b.apply(agents[b.current_player()].choose(b, b.current_player(), b.legal_moves()))
    assert a.events == b.events
    first = play(EngineState(g, 4, 9, keep_events=True), make_agents(["first"], 4, 9))
    dealers = [e["dealer"] for e in first.events if e["type"] == "hand_start"]
    numbers = [e for e in first.events if e["type"] == "number"]
    # the first agent bids the least it may: 0, or 1 for a dealer hooked at 0
    assert all(e["value"] == 0 for i, e in enumerate(numbers) if e["seat"] != dealers[i // 4])
    assert {e["value"] for i, e in enumerate(numbers) if e["seat"] == dealers[i // 4]} <= {0, 1}
    # and takes the first card offered before it passes: it throws out three cards (aces kept)
    thrown = [e["cards"] for e in first.events if e["type"] == "deliver" and e["to"] == "discards"]
    assert thrown and all(len(cs) == 3 and not any(c.startswith("A") for c in cs) for cs in thrown)


GAME = f"""\
title: choices
players: {{min: 3, max: 4, {E}}}
pack: {{suits: [S, H, D, C], ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], {E}}}
zones: {{stock: {{{E}}}}}
vars: {{bid: {{per_seat: true, {E}}}, total: {{{E}}}}}
hand:
  deal: {{kind: deal, hand: 5, rest: stock, {E}}}
"""


def load(tmp_path, step):
    p = tmp_path / "g.yaml"
    p.write_text(GAME + textwrap.indent(textwrap.dedent(step), "  "))
    return p, load_game(str(p))


@pytest.mark.parametrize(
    "step, message",
    [
        (f"b: {{kind: choose_number, max: 3, {E}}}", "into"),
        (f"b: {{kind: choose_number, max: 3, into: total, {E}}}", "not a counter kept per seat"),
        (f"b: {{kind: choose_number, into: bid, {E}}}", "max: or count:"),
        (f"b: {{kind: choose_number, max: 3, into: bid, count: 2, {E}}}", "leave out min: and max:"),
        (f"b: {{kind: choose_number, max: 3, into: bid, allow: card.rank == A, {E}}}", "'card' is not defined"),
        (f"b: {{kind: choose_cards, max: 3, to: stock, cards: value > 2, {E}}}", "'value' is not defined here"),
        (f"b: {{kind: choose_cards, max: 3, to: nowhere, {E}}}", "nowhere"),
        (f"b: {{kind: choose_cards, to: stock, {E}}}", "how many cards"),
    ],
)
def test_a_faulty_choice_is_a_located_error(tmp_path, step, message):
    with pytest.raises(RuleError) as e:
        load(tmp_path, step)
    p = tmp_path / "g.yaml"
    d = next(d for d in e.value.diagnostics if message in d.message)
    assert d.pos.file == str(p) and d.pos.line >= 7


def test_a_number_above_the_games_bound_is_a_located_error_in_play(tmp_path):
    p, g = load(tmp_path, f"b: {{kind: choose_number, min: 2, max: 'count(hand(seat)) * 20', into: bid, {E}}}")
    assert g.number_bound == 52
    with pytest.raises(RuleError) as e:
        EngineState(g, 3, 1)
    pos = e.value.diagnostics[0].pos
    assert "more than this game's greatest number, 52" in str(e.value) and (pos.line, pos.col) > (8, 40)


def test_no_allowed_number_is_a_located_error_in_play(tmp_path):
    p, g = load(tmp_path, f"b: {{kind: choose_number, max: 3, allow: value > 3, into: bid, {E}}}")
    with pytest.raises(RuleError) as e:
        EngineState(g, 3, 1)
    assert "has no number to choose" in str(e.value)


def test_a_literal_max_sets_the_bound(tmp_path):
    p, g = load(tmp_path, f"b: {{kind: choose_number, min: 60, max: 80, into: bid, {E}}}")
    assert g.number_bound == 80
    game = academie.load_game(str(p))
    state = game.new_state(players=3, seed=1)
    assert state.legal_moves() == list(range(60, 81)) and state.decision_kind() == "number"
    seat = state.current_player()
    state.apply_action(game.move_to_action(75))
    assert state.engine.pvars["bid"][seat] == 75 and state.current_player() == (seat + 1) % 3


@pytest.mark.parametrize(
    "step, message",
    [
        (f"b: {{kind: choose_cards, count: 6, to: stock, {E}}}", "count: 6 is 6 cards, but hand(seat) holds only 5"),
        (
            f"b: {{kind: choose_cards, min: 2, max: 3, cards: card == AS, to: stock, {E}}}",
            "min: 2 is 2 cards, but hand(seat) holds only ",
        ),
    ],
)
def test_choosing_more_cards_than_the_zone_holds_is_a_located_error_in_play(tmp_path, step, message):
    """As ``take``'s count: not as many cards as there are, in silence."""
    p, g = load(tmp_path, step)
    with pytest.raises(RuleError) as e:
        EngineState(g, 3, 1)
    (d,) = e.value.diagnostics
    assert message in d.message and d.code == "runtime"
    assert d.pos.file == str(p) and d.pos.line == 8 and d.pos.col > 20  # at the count or the min
