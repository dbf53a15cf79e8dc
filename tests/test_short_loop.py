"""The short trick loop (agents that draw uniformly, asked inline, no event log)
plays the same games as the general loop: for every game of the corpus and every
option, the same seeds give the same hands, standings and counters either way."""

from pathlib import Path

import pytest

from academie.dsl.loader import corpus_ids, resolve
from academie.dsl.model import load_game
from academie.interpreter.short_loop import short_loop_fits
from academie.interpreter.simulate import play_one
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"
PLAYABLE = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]
# the concept files whose trick play takes other branches of the short loop: a renounce
# trigger that pays (and the player plays on), tricks won to a shared zone, effects after
# each trick; a renouncer who takes another zone than the trick, an end after the trick
PLAYABLE += [str(f) for f in sorted(CONCEPTS.glob("*.yaml")) if not resolve(str(f)).data.get("abstract")]


def _variants():
    for cid in PLAYABLE:
        yield cid, ()
        for opt in resolve(cid).data.get("options") or {}:
            yield cid, (opt,)


def _outcome(game, n, seed):
    st = play_one(game, n, seed, ["random"], 50_000)
    zones = {k: [c.name for c in v] for k, v in st.zones.items()}
    hands = [[c.name for c in h] for h in st.hand]
    return st.standings, st.hand_results, st.stats, st.bal, zones, hands, st.unfinished


@pytest.mark.parametrize(
    "cid,opts",
    list(_variants()),
    ids=lambda v: "+".join(v) if isinstance(v, tuple) else Path(v).stem if v.endswith(".yaml") else v,
)
def test_short_loop_plays_the_same_games(cid, opts, monkeypatch):
    game = load_game(cid, list(opts))
    used = []
    real = State._tricks_drawn

    def counting(self, st, uniform):
        used.append(1)
        return real(self, st, uniform)

    monkeypatch.setattr(State, "_tricks_drawn", counting)
    for n in sorted({game.min_players, game.max_players}):
        for seed in range(6):
            monkeypatch.setattr(State, "_draw_inline", True)
            short = _outcome(game, n, f"short/{seed}")
            monkeypatch.setattr(State, "_draw_inline", False)
            general = _outcome(game, n, f"short/{seed}")
            assert short == general, f"{cid}{'+' + '+'.join(opts) if opts else ''}, {n} players, seed {seed}"
    tricks = [st for st in game.steps if st.kind == "tricks"]
    eligible = any(short_loop_fits(st) for st in tricks)
    assert bool(used) == eligible  # the short loop ran exactly where it applies


def test_short_loop_stops_at_the_play_limit(monkeypatch):
    game = load_game("enfle/academie")
    outcomes = []
    for short in (True, False):
        monkeypatch.setattr(State, "_draw_inline", short)
        st = play_one(game, 4, "limit", ["random"], 30)
        assert st.unfinished and st.plays == 31
        assert st.hand_results[-1]["reason"] == "unfinished"
        st.check_invariants()  # cards and chips all accounted for
        outcomes.append((st.hand_results, st.stats, [[c.name for c in h] for h in st.hand]))
    assert outcomes[0] == outcomes[1]


def test_an_agent_that_chooses_otherwise_is_asked():
    # a subclass of the random agent with a choice of its own: the loop must not draw for it
    from academie.interpreter.agents import RandomAgent

    class Lowest(RandomAgent):
        asked = 0

        def choose(self, state, seat, moves):
            Lowest.asked += 1
            return moves[0]

    game = load_game("enfle/academie")
    st = State(game, 4, 3, keep_events=False, check="hand", agents=[Lowest(seed=s) for s in range(4)])
    assert st.finished and Lowest.asked == st.plays


def test_the_files_take_both_short_loops():
    # the plainest shape has a loop of its own; the others (lead tests, later tiers, free cards,
    # keys that read the trick) take the other: the test above plays both
    from academie.interpreter.short_loop import plain_shape

    shapes = {
        plain_shape(st)
        for cid in PLAYABLE
        for st in load_game(cid).steps
        if st.kind == "tricks" and short_loop_fits(st)
    }
    assert shapes == {True, False}
