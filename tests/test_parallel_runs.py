"""Searches that use the machine: ``compare`` and ``reconstruct`` spread their
games over worker processes (or a Dask cluster), give the same report for any
number of workers, and go on from a checkpoint (``--resume FILE``) after an
interruption, to the report an uninterrupted run gives."""

import json
import os
import pty
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from academie.compare import load_side, play_measures

ROOT = Path(__file__).parents[1]
SEARCH = "ismcts:iterations=10"  # a player that searches, kept quick
COMPARE = ["compare", "ecarte/hoyle", "ecarte/hoyle+second-discard", "--games", "3", "--agents", SEARCH]
SECONDS = re.compile(r'"seconds": [0-9.]+|in [0-9.]+ s\)')


def _play(run, *args):
    code, out, err = run(*COMPARE, "--json", *args)
    assert code == 0, err
    res = json.loads(out)
    res["play"].pop("seconds")
    return res


def _games_in(path) -> int:
    data = json.loads(Path(path).read_text())
    return sum(r["next"] + sum(b - a for a, b, _ in r["done"]) for r in data["runs"])


def test_compare_gives_the_same_report_on_1_and_2_workers_and_from_its_checkpoint(run, tmp_path):
    one = _play(run, "--workers", "1")
    ck = tmp_path / "ck.json"
    two = _play(run, "--workers", "2", "--resume", ck)
    assert two == one
    assert _games_in(ck) == 6  # both sides' games, kept
    again = _play(run, "--workers", "1", "--resume", ck)  # all finished: nothing played again
    assert again == one


def test_a_compare_stopped_after_some_games_goes_on_to_the_same_report(tmp_path):
    a, b = load_side("ecarte/hoyle"), load_side("ecarte/hoyle+second-discard")
    args = (a, b, 2, 4, "7", (SEARCH,), 50_000)
    whole = play_measures(*args, workers=1, strong=SEARCH, weak="random")

    class Stop(Exception):
        pass

    seen = []

    def stop_after_3(k):
        seen.append(k)
        if sum(seen) >= 3:
            raise Stop

    ck = str(tmp_path / "ck.json")
    with pytest.raises(Stop):
        play_measures(*args, workers=2, strong=SEARCH, weak="random", on_progress=stop_after_3, resume=ck)
    kept = _games_in(ck)
    assert 3 <= kept < 16
    later = []
    resumed = play_measures(*args, workers=2, strong=SEARCH, weak="random", on_progress=later.append, resume=ck)
    assert later[0] == kept and sum(later) == 16  # the kept games counted once, the rest played
    assert resumed["report"] == whole["report"]
    assert resumed["skill_a"] == whole["skill_a"] and resumed["skill_b"] == whole["skill_b"]


def test_a_compare_killed_midway_goes_on_from_its_checkpoint_to_the_same_report(run, tmp_path):
    whole = _play(run, "--workers", "1")
    ck = tmp_path / "ck.json"
    cmd = [sys.executable, "-m", "academie", *COMPARE, "--json", "--workers", "1", "--resume", str(ck)]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 300
        while not ck.exists() and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.01)
        p.send_signal(signal.SIGKILL)
    finally:
        p.wait(timeout=60)
    assert ck.exists()
    assert 1 <= _games_in(ck) < 6  # killed with some games kept and some to play
    resumed = _play(run, "--workers", "2", "--resume", ck)
    assert resumed == whole


def test_reconstruct_gives_the_same_report_on_1_and_2_workers_and_when_resumed(run, tmp_path):
    args = ["reconstruct", "polignac/boussac", "--games", "3", "--agents", SEARCH, "--json"]
    code, one, err = run(*args, "--workers", "1")
    assert code == 0, err
    ck = tmp_path / "ck.json"
    code, two, err = run(*args, "--workers", "2", "--resume", ck)
    assert code == 0, err
    assert json.loads(two) == json.loads(one)
    code, again, err = run(*args, "--workers", "2", "--resume", ck)
    assert code == 0 and json.loads(again) == json.loads(one)


def test_a_checkpoint_of_another_run_or_a_damaged_one_is_refused_plainly(run, tmp_path):
    ck = tmp_path / "ck.json"
    _play(run, "--workers", "1", "--resume", ck)
    code, out, err = run(*COMPARE, "--seed", "5", "--resume", ck)
    assert code == 2 and "checkpoint of another run" in err and "Traceback" not in err
    for text in ('{"format": 3', "[" * 100_000, '{"format": "academie-checkpoint/1", "run": 1}', "\x00\xff"):
        ck.write_bytes(text.encode("utf-8", "surrogateescape"))
        code, out, err = run(*COMPARE, "--resume", ck)
        assert code == 2 and "--resume" in err and "Traceback" not in err, err
    # a checkpoint of this run whose totals were tampered with: refused, not folded in
    good = tmp_path / "good.json"
    _play(run, "--workers", "1", "--resume", good)
    data = json.loads(good.read_text())
    data["runs"][0]["total"]["Design"]["seat_wins"] = {"q": [1, 0]}
    good.write_text(json.dumps(data))
    code, out, err = run(*COMPARE, "--resume", good)
    assert code == 2 and "--resume" in err and "Traceback" not in err, err


def test_the_checkpoint_is_not_an_input_and_needs_dask_only_for_the_dask_backend(run, tmp_path):
    rules = ROOT / "rules" / "ecarte" / "hoyle.yaml"
    code, out, err = run("compare", rules, "ecarte/hoyle", "--games", "1", "--resume", rules)
    assert code == 2 and "--resume" in err
    code, out, err = run(*COMPARE, "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "--scheduler is for --backend dask" in err


def test_the_dask_backend_gives_the_same_report(run):
    pytest.importorskip("distributed", reason="dask[distributed] not installed (pip install 'academie[dask]')")
    assert _play(run, "--backend", "dask", "--workers", "2") == _play(run, "--workers", "1")


def _on_tty(args: list[str]) -> tuple[str, str]:
    """``academie ARGS`` with its standard error on a pseudo-terminal: (stdout, stderr)."""
    master, slave = pty.openpty()
    with tempfile.TemporaryFile() as out_file:
        p = subprocess.Popen(
            [sys.executable, "-m", "academie", *args],
            stdout=out_file,
            stderr=slave,
            cwd=ROOT,
            env={**os.environ, "COLUMNS": "100"},
        )
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        assert p.wait(timeout=600) == 0, err
        os.close(master)
        out_file.seek(0)
        return out_file.read().decode("utf-8"), err.decode("utf-8", "replace")


def test_the_progress_bar_stays_quiet_in_json_on_workers_and_counts_resumed_games(tmp_path):
    ck = str(tmp_path / "ck.json")
    out, err = _on_tty([*COMPARE, "--json", "--workers", "2", "--resume", ck])
    assert err == "" and json.loads(out)["play"]["games"] == 3
    out, err = _on_tty([*COMPARE, "--workers", "2", "--resume", ck])  # all kept: the bar full at once
    assert "100%" in err, err


def _strength(*args) -> list[dict]:
    """``benchmarks/players.py strength`` on a quick cell: its figures, without the seconds per game."""
    cmd = [sys.executable, str(ROOT / "benchmarks" / "players.py"), "strength", "--only", "ecarte/hoyle"]
    cmd += ["--against", "random", "--iterations", "10", "--games", "4", *args]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["strength"]
    for r in rows:
        r.pop("seconds_per_game")
    return rows


def test_strength_runs_give_the_same_figures_on_any_workers_and_when_resumed(tmp_path):
    one = _strength("--workers", "1")
    out = tmp_path / "games.jsonl"
    assert _strength("--workers", "2", "--out", str(out)) == one
    lines = out.read_text().splitlines()
    assert sorted(json.loads(line)["seed"] for line in lines) == [0, 1, 2, 3]
    out.write_text(lines[2] + "\n" + lines[0][:25])  # killed after two games, the second line cut short
    assert _strength("--workers", "2", "--out", str(out), "--resume") == one
    kept = []
    for line in out.read_text().splitlines():
        try:
            kept.append(json.loads(line)["seed"])
        except ValueError:
            pass
    assert sorted(kept) == [0, 1, 2, 3]  # each seed played once: the kept game not again


def _games(path) -> dict[int, dict]:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines()]
    for r in rows:
        r.pop("seconds")
    return {r["seed"]: r for r in rows}


def test_a_strength_run_from_a_first_seed_plays_those_deals_as_a_run_from_zero(tmp_path):
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    _strength("--workers", "1", "--out", str(whole))
    _strength("--workers", "1", "--out", str(part), "--first-seed", "2", "--games", "2")
    games = _games(part)
    assert sorted(games) == [2, 3]  # seeds 2 and 3, not 0 and 1
    assert games == {s: r for s, r in _games(whole).items() if s >= 2}  # the same deals, seats and margins
