"""A suit named by a player, and sides that change from hand to hand (the
bidding games: a trump named by the player who takes the hand, a partner
called by a king). Proven on tests/concepts/calling.yaml through the public
API, and on small files written here for the errors."""

import random
import textwrap
from pathlib import Path

import pytest

import academie
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State as EngineState

CONCEPT = str(Path(__file__).parent / "concepts" / "calling.yaml")
E = "editorial: {reason: r, evidence: e}"


def hands_of(events):
    """The events of each hand, in order."""
    out: list[list[dict]] = []
    for e in events:
        if e["type"] == "hand_start":
            out.append([])
        if out:
            out[-1].append(e)
    return out


def taker_of(hand):
    decl = {e["declaration"]: e["seat"] for e in hand if e["type"] == "declare"}
    return decl.get("alone", decl.get("leave", hand[0]["dealer"])), "alone" in decl


def test_the_taker_names_the_trump_and_the_trick_play_follows_it():
    game = academie.load_game(CONCEPT)
    state = game.new_state(players=4, seed=5, keep_events=True)
    rng = random.Random(5)
    named = 0
    while not state.is_terminal():
        if state.decision_kind() == "suit" and state.engine.trump is None:
            assert state.legal_moves() == ["S", "H", "D", "C"]
            pick = rng.choice(state.legal_moves())
            state.apply(pick)
            assert state.engine.trump == pick  # the suit named is the hand's trump
            named += 1
            continue
        state.apply(rng.choice(state.legal_moves()))
    assert named == 4
    for hand in hands_of(state.engine.events):
        taker, _ = taker_of(hand)
        suits = [e for e in hand if e["type"] == "suit"]
        assert suits[0]["seat"] == taker and suits[0]["trump"] == suits[0]["value"]
        trump = suits[0]["value"]
        plays = [e for e in hand if e["type"] in ("play", "trick")]
        trick: list[tuple[int, str]] = []
        for e in plays:
            if e["type"] == "play":
                trick.append((e["seat"], e["card"]))
                continue
            led = trick[0][1][-1]
            trumps = [x for x in trick if x[1][-1] == trump]
            best = trumps or [x for x in trick if x[1][-1] == led]
            order = "7 8 9 10 J Q K A".split()
            assert e["winner"] == max(best, key=lambda x: order.index(x[1][:-1]))[0]
            trick = []


def test_a_called_king_is_one_the_caller_does_not_hold_and_its_holder_is_his_side():
    g = load_game(CONCEPT)
    calls = 0
    for seed in range(12):
        st = play(EngineState(g, 4, seed, keep_events=True), make_agents(["random"], 4, seed))
        for hand in hands_of(st.events):
            taker, alone = taker_of(hand)
            deal = next(e for e in hand if e["type"] == "deal")["hands"]
            call = [e for e in hand if e["type"] == "suit" and e.get("into") == "king"]
            if alone:
                assert call == []
                continue
            calls += 1
            (c,) = call
            assert "trump" not in c  # sets_trump: false
            kings = [x for x in deal[taker] if x[0] == "K"]
            if len(kings) < 4:
                assert "K" + c["value"] not in deal[taker]
            partner = next(s for s in range(4) if "K" + c["value"] in deal[s])
            won = [0] * 4
            for e in hand:
                if e["type"] == "trick":
                    won[e["winner"]] += 1
            side = {taker, partner}
            # each seat of the side that took the trick scores it: new sides each hand
            ours = sum(won[s] for s in side)
            assert sum(won) == 8 and ours <= 8
    assert calls > 5


def test_counters_by_side_follow_the_sides_of_each_hand():
    g = load_game(CONCEPT)
    st = play(EngineState(g, 4, 3, keep_events=True), make_agents(["random"], 4, 3))
    points = [0] * 4
    for hand in hands_of(st.events):
        taker, alone = taker_of(hand)
        deal = next(e for e in hand if e["type"] == "deal")["hands"]
        call = [e for e in hand if e["type"] == "suit" and e.get("into") == "king"]
        partner = taker if alone else next(s for s in range(4) if "K" + call[0]["value"] in deal[s])
        sides = [{taker, partner}, set(range(4)) - {taker, partner}]
        for e in hand:
            if e["type"] == "trick":
                for s in next(x for x in sides if e["winner"] in x):
                    points[s] += 1
    assert st.pvars["points"] == points
    assert [r["score"] for r in sorted(st.standings, key=lambda r: r["seat"])] == points


def test_suits_have_action_ids_after_the_numbers_and_are_public():
    game = academie.load_game(CONCEPT)
    n = game.num_distinct_actions()
    assert [game.action_to_string(a) for a in range(n - 4, n)] == ["S", "H", "D", "C"]
    assert game.move_to_action("h") == n - 3
    state = game.new_state(players=4, seed=1)
    while state.decision_kind() != "suit":
        state.apply(state.legal_moves()[0])
    assert state.legal_actions() == [n - 4, n - 3, n - 2, n - 1]
    chooser = state.current_player()
    state.apply_action(n - 2)  # diamonds
    assert state.engine.trump == "D"
    for s in range(4):
        ev = [e for e in state.observation(s, earlier_hands=False)["events"] if e["type"] == "suit"]
        assert ev == [{"type": "suit", "seat": chooser, "value": "D", "trump": "D"}]


def test_a_copy_taken_at_a_suit_decision_plays_on_as_the_original():
    game = academie.load_game(CONCEPT)
    state = game.new_state(players=4, seed=7, keep_events=True)
    while state.decision_kind() != "suit":
        state.apply(state.legal_moves()[-1])
    copy = state.clone()
    for s in (state, copy):
        rng = random.Random(1)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_moves()))
    assert copy.engine.events == state.engine.events and copy.returns() == state.returns()


GAME = f"""\
title: suits
players: {{min: 4, max: 4, {E}}}
pack: {{suits: [S, H, D], ranks: [J, Q, K, A], {E}}}
vars: {{called: {{per_seat: true, holds: suit, {E}}}, bid: {{per_seat: true, {E}}}}}
hand:
  deal: {{kind: deal, hand: 3, {E}}}
"""


def load(tmp_path, text):
    p = tmp_path / "g.yaml"
    p.write_text(GAME + textwrap.indent(textwrap.dedent(text), "  "))
    return p, load_game(str(p))


def test_value_is_the_suit_under_test_inside_a_card_test(tmp_path):
    """allow reads value inside any(hand(seat), …): the suit, not the card tested."""
    step = (
        "c: {kind: choose_suit, who: seat == 0, into: called, sets_trump: false, "
        f"allow: 'not any(hand(seat), card.suit == value)', {E}}}"
    )
    p, g = load(tmp_path, step)
    deal = {"hands": [["JS", "QS", "KS"], ["AS", "JH", "QH"], ["KH", "AH", "JD"], ["QD", "KD", "AD"]]}
    st = EngineState(g, 4, 0, dealer=3, deal=deal, hands=1)
    assert st.decision_kind() == "suit" and st.legal_moves() == ["H", "D"]


@pytest.mark.parametrize(
    "text, message",
    [
        (f"c: {{kind: choose_suit, into: bid, {E}}}", "not a counter that holds a suit"),
        (f"c: {{kind: choose_suit, sets_trump: false, {E}}}", "keeps the suit"),
        (f"c: {{kind: choose_suit, suits: [C], {E}}}", "'C' is not a suit of the pack"),
        (f"c: {{kind: choose_number, max: 2, into: called, {E}}}", "not a counter kept per seat"),
        (f"c: {{kind: choose_suit, allow: value > 2, {E}}}", "suit"),
        (f"c: {{kind: choose_number, max: 2, into: bid, allow: value == S, {E}}}", "suit"),
        (f"e: {{kind: effects, do: [{{add: {{called: 1}}, at: each, {E}}}]}}", "only a choose_suit step"),
        (f"e: {{kind: effects, do: [{{set: {{bid: 'called(seat) + 1'}}, at: each, {E}}}]}}", "suit"),
    ],
)
def test_a_faulty_suit_choice_is_a_located_error(tmp_path, text, message):
    with pytest.raises(RuleError) as e:
        load(tmp_path, text)
    d = next(d for d in e.value.diagnostics if message in d.message)
    assert d.pos.file == str(tmp_path / "g.yaml") and d.pos.line >= 6


def test_a_counter_holding_a_suit_takes_no_initial_value(tmp_path):
    p = tmp_path / "g.yaml"
    p.write_text(GAME.replace("holds: suit,", "holds: suit, initial: 1,"))
    with pytest.raises(RuleError) as e:
        load_game(str(p))
    assert "holds a suit" in str(e.value)


def test_sides_read_from_the_hand_need_each_hand(tmp_path):
    base = f"teams: {{of: 'if seat == holder(AS) then 0 else 1', {E}}}\n"
    p = tmp_path / "g.yaml"
    p.write_text(GAME.replace("hand:\n", base + "hand:\n"))
    with pytest.raises(RuleError) as e:
        load_game(str(p))
    assert "the sides are fixed for the game" in str(e.value)
    p.write_text(GAME.replace("hand:\n", base.replace("{of:", "{each_hand: true, of:") + "hand:\n"))
    g = load_game(str(p))
    deal = {"hands": [["JS", "QS", "KS"], ["AS", "JH", "QH"], ["KH", "AH", "JD"], ["QD", "KD", "AD"]]}
    st = EngineState(g, 4, 0, dealer=3, deal=deal, hands=1)
    from academie.dsl.compiler import sides_of

    assert sides_of(st) == [0, 1, 0, 0]  # the holder of the ace of spades against the others


def test_quadrille_plays_and_keeps_its_money():
    g = load_game("quadrille/hoyle")
    for seed in range(6):
        st = play(EngineState(g, 4, seed, keep_events=True), make_agents(["random"], 4, seed))
        st.check_invariants()
        assert sum(st.bal[s]["counter"] for s in range(4)) == 160
        for hand in hands_of(st.events):
            deal = next(e for e in hand if e["type"] == "deal")["hands"]
            assert [len(h) for h in deal] == [10] * 4
            assert not any(c[:-1] in ("8", "9", "10") for h in deal for c in h)
            named = [e for e in hand if e["type"] == "suit" and e.get("trump")]
            assert len(named) == 1
