"""The fast clone (the interpreter's state copied as it is, paused at its decision, the procedure
resumed from its place) against the reference clone (a replay from the start): for every corpus game and
option and every concept file, at many decisions of seeded random games, the two give the
same state, and played on with the same moves, the same game to its end."""

import copy
import pickle
import random
from pathlib import Path

import pytest

import academie
from academie.dsl.loader import corpus_ids, resolve
from academie.interpreter.short_loop import short_loop_fits
from academie.interpreter.state import State as EngineState

CONCEPTS = Path(__file__).parent / "concepts"


def _variants():
    for cid in corpus_ids():
        if resolve(cid).data.get("abstract"):
            continue
        yield cid
        for opt in resolve(cid).data.get("options") or {}:
            yield f"{cid}+{opt}"
    for f in sorted(CONCEPTS.glob("*.yaml")):
        if not resolve(str(f)).data.get("abstract"):
            yield str(f)


def seen(state):
    """Everything each seat may know, and the decision at hand."""
    return (
        [state.information_state_string(s) for s in range(state.players)],
        state.legal_actions(),
        state.current_player(),
        state.history,
    )


def same_to_the_end(fast, slow, rng):
    """Both played on with the same random moves: the same views, returns, standings and log."""
    while not slow.is_terminal():
        assert fast.legal_actions() == slow.legal_actions()
        if rng.random() < 0.05:
            assert seen(fast) == seen(slow)
        a = rng.choice(slow.legal_actions())
        fast.apply_action(a)
        slow.apply_action(a)
    assert fast.is_terminal()
    assert seen(fast) == seen(slow)
    assert fast.returns() == slow.returns() and fast.standings() == slow.standings()
    assert fast.engine.events == slow.engine.events
    assert fast.engine.stats == slow.engine.stats and fast.engine.hand_results == slow.engine.hand_results


@pytest.mark.parametrize("ref", list(_variants()), ids=lambda r: Path(r).stem if r.endswith(".yaml") else r)
def test_fast_clone_is_the_replay_clone(ref):
    game = academie.load_game(ref)
    rng = random.Random(ref)
    for players in sorted(set(game.players)):
        for seed in (1, "clone"):
            state = game.new_state(players=players, seed=seed, keep_events=True)
            decisions = checks = 0
            while True:
                # the first decisions, a hand's first ones, a sample of the others (at most 8), the end
                fresh = state.engine._hand_plays == 0 and rng.random() < 0.3
                if decisions < 2 or ((fresh or rng.random() < 0.03) and checks < 8) or state.is_terminal():
                    checks += 1
                    before = seen(state)
                    log = list(state.engine.events)
                    fast, slow = state.clone(), state.clone_by_replay()
                    assert fast.engine is not state.engine
                    assert seen(fast) == seen(slow) == before
                    assert fast.engine.events == slow.engine.events == log
                    assert fast == slow == state
                    same_to_the_end(fast, slow, random.Random(decisions))
                    assert seen(state) == before and state.engine.events == log  # the original untouched
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1


def test_clone_of_a_clone_and_pickle_round_trip():
    game = academie.load_game("francion/terrail")
    state = game.new_state(players=4, seed=5)
    rng = random.Random(0)
    for _ in range(150):
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.engine.hand_no > 1
    c = state.clone()
    for _ in range(30):  # the clone's own snapshots, hands later
        c.apply_action(rng.choice(c.legal_actions()))
    cc, ref = c.clone(), c.clone_by_replay()
    assert seen(cc) == seen(ref)
    same_to_the_end(cc, ref, random.Random(1))
    p = pickle.loads(pickle.dumps(c))
    assert p == c and seen(p) == seen(c)
    d = copy.deepcopy(c)
    assert d == c and d.engine is not c.engine and seen(d) == seen(c)


def test_a_stacked_first_hand_clones_too():
    game = academie.load_game("hearts/foster")
    deck = [c.name for c in sorted(game.gamedef.pack(4), key=lambda c: c.canon)]
    state = game.new_state(players=4, seed=2, dealer=1, deck=deck)
    rng = random.Random(3)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    fast, slow = state.clone(), state.clone_by_replay()
    assert seen(fast) == seen(slow)
    same_to_the_end(fast, slow, random.Random(4))


def test_engine_copy_at_every_decision_plays_on_alike():
    """The interpreter's own copy, at every decision of a game with announcements and renounces
    (a copy resumes inside an announcement, a trick and after a renounce's pick-up alike): the
    same decision, then the same game and log as the original, which moves on the copy leave
    untouched."""
    for ref in ("polignac/boussac+capot", "enfle/academie", "emprunt/lacombe"):
        game = academie.load_game(ref)
        eng = EngineState(game.gamedef, 4, 7)
        rng = random.Random(ref)
        while not eng.is_terminal():
            if rng.random() < 0.2:
                before = (eng.legal_moves(), eng.current_player(), list(eng.events), eng.returns())
                c = eng.copy()
                assert (c.legal_moves(), c.current_player(), c.events) == before[:3]
                r = random.Random(len(eng.events))
                while not c.is_terminal():  # the copy played on alone
                    c.apply(r.choice(c.legal_moves()))
                assert (eng.legal_moves(), eng.current_player(), eng.events, eng.returns()) == before
                again, ref_game = eng.copy(), eng.copy()
                r1, r2 = random.Random(1), random.Random(1)
                while not ref_game.is_terminal():
                    again.apply(r1.choice(again.legal_moves()))
                    ref_game.apply(r2.choice(ref_game.legal_moves()))
                assert again.events == ref_game.events and again.returns() == ref_game.returns()
            eng.apply(rng.choice(eng.legal_moves()))
        assert eng.copy().is_terminal()


def test_a_state_played_by_agents_inside_the_loops_is_not_copied():
    from academie.interpreter.agents import RandomAgent

    game = academie.load_game("hearts/foster")
    eng = EngineState(game.gamedef, 4, 1)
    seen = []

    class Peek(RandomAgent):
        def choose(self, state, seat, moves):
            if not seen:
                with pytest.raises(ValueError):
                    state.copy()
                seen.append(seat)
            return moves[0]

    eng.run_with([Peek(0) for _ in range(4)])
    assert seen and eng.is_terminal()


def test_engine_snapshots_off_by_default_and_resume():
    game = academie.load_game("polignac/boussac")
    eng = EngineState(game.gamedef, 4, 7)
    assert eng.snapshot is None
    eng = EngineState(game.gamedef, 4, 7, snapshots=True)
    rng = random.Random(0)
    while eng.hand_no < 3:
        eng.apply(rng.choice(eng.legal_moves()))
    snap = eng.snapshot  # the top of hand 3, no move made in it yet
    again = EngineState(game.gamedef, 4, 7, resume=snap)
    assert again.hand_no == eng.hand_no == 3 and again.events == eng.events
    while not eng.is_terminal():
        assert again.legal_moves() == eng.legal_moves() and again.current_player() == eng.current_player()
        m = rng.choice(eng.legal_moves())
        eng.apply(m)
        again.apply(m)
    assert again.is_terminal() and again.returns() == eng.returns() and again.events == eng.events
    with pytest.raises(ValueError):  # a snapshot of another game
        EngineState(academie.load_game("hearts/foster").gamedef, 4, 7, resume=snap)


def _playout_outcome(state, seed):
    eng = state.engine
    scores = state.playout(random.Random(seed), hands=1)
    zones = {k: [c.name for c in v] for k, v in eng.zones.items()}
    pzones = {k: [[c.name for c in z] for z in per] for k, per in eng.pzones.items()}
    return scores, eng.stats, eng.won, eng.hand_results, eng.bal, zones, pzones, eng.winner


@pytest.mark.parametrize("ref", list(_variants()), ids=lambda r: Path(r).stem if r.endswith(".yaml") else r)
def test_a_playout_from_a_mid_hand_copy_takes_the_short_loop(ref, monkeypatch):
    """A copy paused mid-hand (mostly mid-trick), played out by random agents: the tricks after the
    one in progress go to the short loop (the general loop hands them over at the next trick's
    start), the playout is the very game the general loop alone plays with the same draws, and
    the same draws from the same copy give the same playout."""
    game = academie.load_game(ref)
    handed = []
    real = EngineState._tricks_drawn

    def counting(self, st, uniform, leader=None):
        handed.append(leader is not None)
        return real(self, st, uniform, leader)

    monkeypatch.setattr(EngineState, "_tricks_drawn", counting)
    n = min(max(4, game.players[0]), game.players[1])
    state = game.new_state(players=n, seed="rollout")
    rng = random.Random(ref)
    copies = 0
    while not state.is_terminal() and copies < 8:
        eng = state.engine
        # mostly a trick in progress; now and then any decision (a lead, an announcement, ...)
        if rng.random() < (0.3 if eng.led is not None else 0.05):
            copies += 1
            for seed in range(2):
                monkeypatch.setattr(EngineState, "_draw_inline", True)
                short = _playout_outcome(state.clone(), seed)
                assert _playout_outcome(state.clone(), seed) == short  # the same draws, the same playout
                monkeypatch.setattr(EngineState, "_draw_inline", False)
                general = _playout_outcome(state.clone(), seed)
                assert short == general, f"{ref}, copy {copies}, seed {seed}"
        state.apply_action(rng.choice(state.legal_actions()))
    # where the short loop applies (a tricks step without effects after each card nor a lead
    # that passes on: those are the general loop's)
    tricks = any(st.kind == "tricks" and short_loop_fits(st) for st in game.gamedef.steps)
    assert any(handed) or not tricks or not copies, (ref, copies)
