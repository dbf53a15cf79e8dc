"""Moves per second through the public API, this checkout against another
version of the API (``academie/api.py`` or ``academie/api/`` at a git revision), in one run: for every corpus
game and option, and modern Hearts (``tests/concepts/leads.yaml``) beside
OpenSpiel's Hearts driven from Python.

    PYTHONPATH=$PWD python benchmarks/api.py --base main
    PYTHONPATH=$PWD python benchmarks/api.py --base main --only hearts --seconds 1 --repeat 5

A figure is whole random games (``new_state``, then ``legal_actions`` and
``apply_action`` until the end, one call per move, as a search does) counted
in moves per second of the process's CPU time. The two versions are timed in
turn, ``--repeat`` times each, and the best of each kept, so that the load of
the machine falls on both alike; only the API is taken from the
base revision (the interpreter is this checkout's). ``--clone`` times instead
a state cloned at mid-game and played out (the clone+playout of
``benchmarks/corpus.py``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import academie
from academie import api as new_api

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import MODERN_HEARTS, openspiel, variants  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def base_api(rev: str):
    """``academie/api.py`` (or the package ``academie/api/``) as it is at git revision ``rev``,
    loaded beside this one."""

    def show(path: str) -> str:
        return subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout

    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, "academie/api.py", "academie/api/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    folder = Path(tempfile.mkdtemp())
    if "academie/api.py" in listed:
        path, search = folder / "api_base.py", None
        path.write_text(show("academie/api.py"))
    else:  # a package: its modules import one another relatively
        for name in listed:
            if name.endswith(".py"):
                (folder / Path(name).name).write_text(show(name))
        path, search = folder / "__init__.py", [str(folder)]
    spec = importlib.util.spec_from_file_location("academie._api_base", path, submodule_search_locations=search)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _game(api, ref: str):
    base, named = api.split_ref(ref)
    from academie.dsl.model import load_game as compile_game

    return api.Game(compile_game(base, list(named)), base, tuple(named))


def _whole(game, n: int, seeds, rng: random.Random) -> int:
    state = game.new_state(players=n, seed=f"bench/{next(seeds)}")
    moves = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return moves


def _playout(mid, rng: random.Random) -> int:
    s = mid.clone()
    moves = 0
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        moves += 1
    return moves


def _mid(game, n: int):
    rng = random.Random(0)
    full = game.new_state(players=n, seed="bench/mid")
    while not full.is_terminal():
        full.apply_action(rng.choice(full.legal_actions()))
    mid = game.new_state(players=n, seed="bench/mid")
    for m in full.history[: len(full.history) // 2]:
        mid.apply(m)
    return mid


def measure(apis: dict, ref: str, players: int, seconds: float, repeat: int, clone: bool) -> dict:
    games = {k: _game(a, ref) for k, a in apis.items()}
    lo, hi = next(iter(games.values())).players
    n = min(max(players, lo), hi)
    best = dict.fromkeys(apis, 0.0)
    mids = {k: _mid(g, n) for k, g in games.items()} if clone else {}
    for _ in range(repeat):
        for k, g in games.items():  # in turn: the machine's load falls on both
            seeds, rng = iter(range(10**9)), random.Random(1)
            done, t0 = 0, time.process_time()
            while True:
                done += _playout(mids[k], rng) if clone else _whole(g, n, seeds, rng)
                el = time.process_time() - t0
                if el >= seconds:
                    break
            best[k] = max(best[k], done / el)
    return {"game": ref, "players": n, **{f"{k}_moves_s": v for k, v in best.items()}}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="main", help="the git revision whose academie/api.py is compared (default main)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=0.5, help="the least CPU time of each timing")
    ap.add_argument("--repeat", type=int, default=3, help="timings of each version (the best is kept)")
    ap.add_argument("--only", default=None, help="only the rule files whose label contains this")
    ap.add_argument("--concepts", action="store_true", help="the concept files too (modern Hearts always)")
    ap.add_argument("--clone", action="store_true", help="clone at mid-game and play out, not whole games")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    apis = {"base": base_api(a.base), "new": new_api}
    rows = []
    for label, ref in variants():
        if a.only and a.only not in label:
            continue
        if label.startswith("concepts/") and not a.concepts and ref != MODERN_HEARTS:
            continue
        r = measure(apis, ref, a.players, a.seconds, a.repeat, a.clone)
        r["label"] = label
        r["speedup"] = r["new_moves_s"] / r["base_moves_s"]
        rows.append(r)
        if not a.json:
            print(
                f"{label:36} {r['players']:>2}  base {r['base_moves_s']:>9,.0f}  new {r['new_moves_s']:>9,.0f}"
                f"  ×{r['speedup']:.2f}",
                flush=True,
            )
    peer = None
    hearts = next((r for r in rows if r["label"] == "concepts/leads"), None)
    if hearts is not None and not a.clone:
        peer = openspiel(a.seconds, a.repeat)
    summary = {}
    if peer is not None and hearts is not None:
        for k in ("base", "new"):
            summary[f"modern_hearts_{k}_over_openspiel_python"] = hearts[f"{k}_moves_s"] / peer["python_plays_s"]
    if a.json:
        print(json.dumps({"rows": rows, "openspiel": peer, "summary": summary}, indent=1))
        return
    if peer is not None:
        print(f"\nOpenSpiel hearts driven from Python: {peer['python_plays_s']:,.0f} plays/s")
    for k, v in summary.items():
        print(f"{k}: {v:.2f}")


if __name__ == "__main__":
    academie.load_game  # the package imported before the base module is loaded beside it
    main()
