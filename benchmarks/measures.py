"""What the design measures cost ``academie simulate``, per corpus game, in one run.

    PYTHONPATH=$PWD python benchmarks/measures.py                  # every corpus game, 300 games each
    PYTHONPATH=$PWD python benchmarks/measures.py --games 1000 --only enfle --json
    PYTHONPATH=$PWD python benchmarks/measures.py --base 5314f0d   # the measures of that revision too

For every playable corpus game (no options; ``--options`` adds them) at its
fewest players (``--players`` to ask for more, clamped to what it allows),
random players: ``--games`` games played as ``academie simulate -w 1`` plays
them (``interpreter.simulate.simulate`` in this process), with the measures
(``DesignCollector``, the default of the command) and without
(``--no-measures``), the two taking turns (without, with, without, with, …)
``--repeat`` times; each figure is the least CPU time (``time.process_time``)
of its turns. The machine is shared: compare the figures of one run (the
ratios), not the runs. Printed: the seconds of each and the ratio with /
without. Both play the same games (the same seeds): the script checks that
their tallies agree. With ``--base REV``, a third turn in each round: the
measures of ``academie/measures*.py`` as they are at git revision ``REV``, loaded
beside this checkout's (the interpreter is this checkout's), and its ratio to
without, and the script checks that both give the same measures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import tempfile
import time
from pathlib import Path

import academie
import numpy  # noqa: F401  (imported before the timings: the measures' report reads it)

from academie.dsl.loader import corpus_ids, resolve
from academie.dsl.model import load_game
from academie.interpreter.simulate import Job, simulate
from academie.interpreter.state import DEFAULT_MAX_PLAYS
from academie.measures import DesignCollector

ROOT = Path(__file__).resolve().parent.parent


def base_measures(rev: str):
    """The measures of git revision ``rev`` (``academie/measures.py`` and, since they were split,
    its ``academie/measures_*.py``), loaded beside this checkout's as ``academie._base_measures*``."""
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, "academie/"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    tmp = Path(tempfile.mkdtemp())
    for name in names:
        stem = Path(name).name
        if not (stem == "measures.py" or (stem.startswith("measures_") and stem.endswith(".py"))):
            continue
        text = subprocess.run(
            ["git", "show", f"{rev}:{name}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        (tmp / ("_base_" + stem)).write_text(text.replace("from .measures", "from ._base_measures"))
    academie.__path__.append(str(tmp))
    return importlib.import_module("academie._base_measures")


def games_to_time(options: bool) -> list[tuple[str, tuple]]:
    out = []
    for cid in corpus_ids():
        data = resolve(cid).data
        if data.get("abstract"):
            continue
        out.append((cid, ()))
        if options:
            out.extend((cid, (o,)) for o in data.get("options") or {})
    return out


def time_game(ref: str, options: tuple, players: int | None, games: int, repeat: int, seed, base=None) -> dict:
    game = load_game(ref, list(options))
    n = min(max(players or game.min_players, game.min_players), game.max_players)
    jobs = {
        "without": Job(ref, options, n, seed, ("random",), DEFAULT_MAX_PLAYS),
        "with": Job(ref, options, n, seed, ("random",), DEFAULT_MAX_PLAYS, collector=DesignCollector),
    }
    if base is not None:
        jobs["base"] = Job(ref, options, n, seed, ("random",), DEFAULT_MAX_PLAYS, collector=base.DesignCollector)
    best = {k: float("inf") for k in jobs}
    tallies = {}
    for _ in range(repeat):
        for name, job in jobs.items():
            t0 = time.process_time()
            tally = simulate(job, games, workers=1, game=game)
            if job.collector is not None:
                tally.extra.design.report()  # the measures' report is part of their cost
            best[name] = min(best[name], time.process_time() - t0)
            tallies[name] = tally
    a, b = tallies["without"].report(), tallies["with"].report()
    if a != b:
        raise SystemExit(f"{ref}: the games with and without the measures differ")
    out = {
        "game": ref + "".join("+" + o for o in options),
        "players": n,
        "games": games,
        "without_s": best["without"],
        "with_s": best["with"],
        "ratio": best["with"] / best["without"],
    }
    if base is not None:
        if tallies["base"].extra.design.report() != tallies["with"].extra.design.report():
            # the one known difference: the base summed the win share by kind of player in floats
            out["base_differs"] = True
        out["base_with_s"] = best["base"]
        out["base_ratio"] = best["base"] / best["without"]
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games of each rule file per timing (default 300)")
    ap.add_argument("--repeat", type=int, default=3, help="timings of each, taken in turn; the least is kept")
    ap.add_argument("--players", type=int, default=None, help="players (default: the fewest each game allows)")
    ap.add_argument("--seed", default="bench", help="the base seed of the games (default: bench)")
    ap.add_argument("--only", default=None, help="only the rule files whose id contains this")
    ap.add_argument("--options", action="store_true", help="also every option of every game")
    ap.add_argument("--base", default=None, help="also time the measures of this git revision")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    base = base_measures(a.base) if a.base else None
    rows = []
    for ref, options in games_to_time(a.options):
        if a.only and a.only not in ref:
            continue
        r = time_game(ref, options, a.players, a.games, a.repeat, a.seed, base)
        rows.append(r)
        if not a.json:
            was = f"  {a.base} {r['base_with_s']:7.3f} s  ratio {r['base_ratio']:.2f}" if base else ""
            print(
                f"{r['game']:28} {r['players']:>2}  without {r['without_s']:7.3f} s  with {r['with_s']:7.3f} s"
                f"  ratio {r['ratio']:.2f}{was}",
                flush=True,
            )
    if a.json:
        print(
            json.dumps({"games": a.games, "repeat": a.repeat, "seed": a.seed, "base": a.base, "rows": rows}, indent=1)
        )
    elif rows:
        print(f"largest ratio: {max(r['ratio'] for r in rows):.2f}")


if __name__ == "__main__":
    main()
