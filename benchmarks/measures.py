"""What the design measures cost ``academie simulate``, per corpus game, in one run.

    PYTHONPATH=$PWD python benchmarks/measures.py                  # every corpus game, 300 games each
    PYTHONPATH=$PWD python benchmarks/measures.py --games 1000 --only enfle --json

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
their tallies agree.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy  # noqa: F401  (imported before the timings: the measures' report reads it)

from academie.dsl.loader import corpus_ids, resolve
from academie.dsl.model import load_game
from academie.interpreter.simulate import Job, simulate
from academie.interpreter.state import DEFAULT_MAX_PLAYS
from academie.measures import DesignCollector


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


def time_game(ref: str, options: tuple, players: int | None, games: int, repeat: int, seed) -> dict:
    game = load_game(ref, list(options))
    n = min(max(players or game.min_players, game.min_players), game.max_players)
    plain = Job(ref, options, n, seed, ("random",), DEFAULT_MAX_PLAYS)
    measured = Job(ref, options, n, seed, ("random",), DEFAULT_MAX_PLAYS, collector=DesignCollector)
    best = {"without": float("inf"), "with": float("inf")}
    tallies = {}
    for _ in range(repeat):
        for name, job in (("without", plain), ("with", measured)):
            t0 = time.process_time()
            tally = simulate(job, games, workers=1, game=game)
            if job.collector is not None:
                tally.extra.design.report()  # the measures' report is part of their cost
            best[name] = min(best[name], time.process_time() - t0)
            tallies[name] = tally
    a, b = tallies["without"].report(), tallies["with"].report()
    if a != b:
        raise SystemExit(f"{ref}: the games with and without the measures differ")
    return {
        "game": ref + "".join("+" + o for o in options),
        "players": n,
        "games": games,
        "without_s": best["without"],
        "with_s": best["with"],
        "ratio": best["with"] / best["without"],
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games of each rule file per timing (default 300)")
    ap.add_argument("--repeat", type=int, default=3, help="timings of each, taken in turn; the least is kept")
    ap.add_argument("--players", type=int, default=None, help="players (default: the fewest each game allows)")
    ap.add_argument("--seed", default="bench", help="the base seed of the games (default: bench)")
    ap.add_argument("--only", default=None, help="only the rule files whose id contains this")
    ap.add_argument("--options", action="store_true", help="also every option of every game")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rows = []
    for ref, options in games_to_time(a.options):
        if a.only and a.only not in ref:
            continue
        r = time_game(ref, options, a.players, a.games, a.repeat, a.seed)
        rows.append(r)
        if not a.json:
            print(
                f"{r['game']:36} {r['players']:>2}  without {r['without_s']:7.3f} s  with {r['with_s']:7.3f} s"
                f"  ratio {r['ratio']:.2f}",
                flush=True,
            )
    if a.json:
        print(json.dumps({"games": a.games, "repeat": a.repeat, "seed": a.seed, "rows": rows}, indent=1))
    elif rows:
        print(f"largest ratio: {max(r['ratio'] for r in rows):.2f}")


if __name__ == "__main__":
    main()
