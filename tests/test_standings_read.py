"""The standings at the game's end are the scores the last hand ended with when nothing has
been played since (they are not worked out a third time), and are worked out again when the
game's end pays or moves something (``game: end``): the final standings are always the
standings' scores of the final state."""

from pathlib import Path

import pytest

from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"


def _counted(gd):
    """The game's standings expression, counting the seats it is read for."""
    calls = []
    fn = gd.standings.fn

    def score(st, s, c):
        calls.append(s)
        return fn(st, s, c)

    gd.standings.fn = score
    return calls, fn


def _final_scores(st, fn):
    return {r["seat"]: r["score"] for r in st.standings}, {s: fn(st, s, None) for s in range(st.n)}


@pytest.mark.parametrize("logged", [False, True])
def test_a_one_hand_game_reads_its_standings_at_the_hands_start_and_end_only(logged):
    gd = load_game(str(CONCEPTS / "leads.yaml"))
    calls, fn = _counted(gd)
    for i in range(5):
        del calls[:]
        st = State(gd, 4, f"standings/{i}", keep_events=logged, check="hand", agents=make_agents(["random"], 4, str(i)))
        assert st.finished
        assert len(calls) == 2 * 4  # the hand's start and its end; the standings take the end's
        got, now = _final_scores(st, fn)
        assert got == now
        assert st.hand_results[-1]["scores"] == [now[s] for s in range(4)]  # from 0 each


def test_standings_after_a_game_end_that_pays_are_read_again():
    gd = load_game(str(CONCEPTS / "penalty.yaml"))
    calls, fn = _counted(gd)
    for i in range(5):
        st = State(gd, 3, f"standings/{i}", keep_events=False, check="hand", agents=make_agents(["random"], 3, str(i)))
        assert st.finished and not st.unfinished
        got, now = _final_scores(st, fn)
        assert got == now  # the bundles paid at the game's end counted
