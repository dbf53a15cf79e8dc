"""``benchmarks/players.py advantage``: the value of an agent's decisions over random ones, measured
on the true state with common random numbers (docs/players.md, *Decisions measured*)."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from test_strength_seats import _bench

ROOT = Path(__file__).resolve().parent.parent
KNOWN = str(ROOT / "tests" / "games" / "advantage.yaml")


class _Last:
    """Always the last legal action: the most points, where points are picked."""

    def choose(self, state):
        return state.legal_actions()[-1]


def _game(b, agent, i=0, n=2, **kw):
    return b.advantage_game(b.academie.load_game(KNOWN), n, i, 0, agent, rollouts=4, **kw)


@pytest.mark.parametrize("n", [2, 3])
def test_a_choice_that_changes_nothing_is_worth_exactly_0_and_the_best_pick_its_known_edge(n):
    """Seat 0 names a number nobody reads (advantage exactly 0: every action's playouts are the
    same, the other seats' random picks included, only because they draw the same numbers), then
    picks 0 to 3 points: the last (3) is worth 3 - 1.5 over a random pick, the first (0) -1.5,
    with the other seats' picks as noise in every playout."""
    b = _bench()
    for i in range(3):
        best = _game(b, _Last(), i, n)
        assert best["decisions"] == 4 and best["hands"] == 2 and best["kinds"] == ["number"] * 4
        assert best["advantages"][0::2] == [0.0, 0.0]
        assert best["advantages"][1::2] == pytest.approx([1.5, 1.5], abs=1e-9)
        worst = _game(b, b.academie.agent("first"), i, n)
        assert worst["advantages"] == pytest.approx([0.0, -1.5, 0.0, -1.5], abs=1e-9)
    (row,) = b.advantage_summary(
        [{"game": KNOWN, "players": n, "agent": "last", **_game(b, _Last(), i, n)} for i in range(4)]
    )
    assert row["per_decision"] == 0.75 and row["per_hand"] == 1.5 and row["games"] == 4
    assert row["by_kind_games"] == 4 and row["by_kind"] == {
        "number": {"decisions": 16, "per_decision": 0.75, "per_decision_ci": [0.75, 0.75]}
    }


def test_the_actions_are_valued_with_common_random_numbers():
    """The sums of an idle choice's playouts are equal for every action (the noise is there: other
    rollout seeds give other sums)."""
    b = _bench()
    state = b.academie.load_game(KNOWN).new_state(players=2, seed="x")
    state.apply_action(state.legal_actions()[0])  # seat 1 names its number; seat 0's turn
    assert state.current_player() == 0
    legal = state.legal_actions()
    sums = b.action_values(state, 0, legal, 8, "k", "hand")
    assert len(set(sums)) == 1
    assert {b.action_values(state, 0, legal, 8, f"k{j}", "hand")[0] for j in range(6)} != {sums[0]}
    # valued on worlds drawn for the seat instead of the true state: the playouts still draw alike
    assert len(set(b.action_values(state, 0, legal, 8, "k", "hand", worlds=True))) == 1


def test_a_random_agent_comes_out_near_0_and_the_same_seed_gives_the_same_numbers():
    b = _bench()
    rows = []
    for i in range(30):
        agent = b.academie.agent("random", seed=f"control/{i}")
        rows.append({"game": KNOWN, "players": 2, "agent": "random", **_game(b, agent, i)})
    (row,) = b.advantage_summary(rows)
    lo, hi = row["per_decision_ci"]
    assert lo < 0 < hi and abs(row["per_decision"]) < 0.3 and hi - lo < 0.8
    again = _game(b, b.academie.agent("random", seed="control/7"), 7)
    assert {k: v for k, v in again.items() if k != "seconds"} == {
        k: v for k, v in rows[7].items() if k not in ("seconds", "game", "players", "agent")
    }


def test_a_sample_of_the_decisions_is_scaled_to_the_hand_and_the_interval_is_clustered_by_game():
    b = _bench()
    rows = [
        {"game": "g", "players": 2, "agent": "a", "decisions": 10, "advantages": [1.0, 0.0], "hands": 2, "seconds": 1},
        {"game": "g", "players": 2, "agent": "a", "decisions": 4, "advantages": [-1.0, 1.0], "hands": 1, "seconds": 1},
        {"game": "g", "players": 2, "agent": "a", "decisions": 6, "advantages": [2.0], "hands": 1, "seconds": 1},
    ]
    (row,) = b.advantage_summary(rows)
    assert row["per_decision"] == 0.6  # (1 + 0 + 2) / 5 decisions measured
    assert row["per_hand"] == 4.25  # (1 * 10/2 + 0 + 2 * 6) / 4 hands
    lo, hi = row["per_decision_ci"]
    assert lo < 0.6 < hi
    r, r_lo, r_hi = b.ratio_ci([1.0, 1.0], [1, 1])
    assert (r, r_lo, r_hi) == (1.0, 1.0, 1.0)  # no spread between games, no width
    assert math.isclose(b.t975(30), 2.042, abs_tol=1e-3) and b.t975(4) == 2.776


def test_the_command_writes_each_game_resumes_and_reports(tmp_path):
    out = tmp_path / "adv.jsonl"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "players.py"), "advantage", "--only", KNOWN]
    cmd += ["--agent", "random", "--games", "3", "--rollouts", "2", "--out", str(out), "--json"]
    first = subprocess.run(cmd, capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["i"] for r in rows] == [0, 1, 2] and "random game 2" in first.stderr
    again = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, check=True)
    assert len(out.read_text().splitlines()) == 3  # nothing played again
    assert json.loads(again.stdout) == json.loads(first.stdout)
    rep = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "players.py"), "report-advantage", str(out), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(rep.stdout) == json.loads(first.stdout)
