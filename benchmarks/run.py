"""The interpreter against L'Enflé written by hand, in one process.

    python benchmarks/run.py                 # 1,000 hands per player count, 4 to 8 players
    python benchmarks/run.py --hands 4000 --json
    python benchmarks/run.py --game piquet --repeat 5   # every game against its hand-written equivalent

For each player count both play the same number of hands (random agents, the
interpreter as ``academie simulate`` runs it: ``State`` with keep_events=False)
and the report gives hands per second for each, the interpreter's speed as a
fraction of the hand-written game's ("speed") and the ratio of their times
(interpreter / hand-written: "slower"). Each timing is the best of
``--repeat`` runs, the interpreter's and the hand-written game's runs taken
in turn. Peak memory (tracemalloc) is measured
in a separate run, since tracing slows everything down. Both play the same
distributions (mean plays per hand, tricks and takes per hand are printed side by
side as a check), not the same games.

Then: the time to load and compile each rule file of the corpus (resolve +
compile_doc), cold (the per-process caches of the expression parser and the
schema validator cleared first) and warm; the time to validate the corpus if the
command line has a ``validate`` command; and the interpreter's speed on any
other game of the corpus (no hand-written version of those), skipped if there
is none.

With ``--game piquet``, only this: each game that has a hand-written
equivalent against it, the interpreter on Piquet (``rules/piquet/hoyle.yaml``,
2 players) and Piquet written by hand (``piquet_direct.py``), L'Enflé (4
players, ``enfle_direct.py``), Emprunt (``rules/emprunt/lacombe.yaml``, 4
players, ``emprunt_direct.py``), Whist (``rules/whist/hoyle.yaml``, whole
rubbers, ``whist_direct.py``) and Hoc (``rules/hoc/encyclopedie.yaml``, 2
players, whole games of two hands, ``hoc_direct.py``), timed in turn in this process by their CPU time
(``time.process_time``), each the best of ``--repeat``; ``--games`` games of
Piquet, and of each other game about as many plays, the interpreter and the
hand-written game the same number of games. Printed: plays and games per
second for each, how many times as long the interpreter takes as the
hand-written game on each game (a play, a game), and the L'Enflé / Piquet ratio
of plays per second for the interpreter and for the hand-written games: the
corpus's speed spread (the slowest game against the fastest) as the
interpreter has it and as the games themselves have it.
"pooled": the interpreter's time over every round against the hand-written
game's (the same games in both each round): with short rounds many times
(``--games 15 --repeat 40``) the ratio least moved by a machine whose speed
changes from one moment to the next.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import emprunt_direct  # noqa: E402
import enfle_direct  # noqa: E402
import hoc_direct  # noqa: E402
import piquet_direct  # noqa: E402
import whist_direct  # noqa: E402

from academie.dsl import checking, compiler, loader  # noqa: E402
from academie.dsl.loader import corpus_ids, resolve  # noqa: E402
from academie.dsl.model import compile_doc, load_game  # noqa: E402
from academie.interpreter.simulate import Tally, game_seed, play_one  # noqa: E402
from academie.interpreter.state import DEFAULT_MAX_PLAYS  # noqa: E402

ENFLE = "enfle/academie"
PIQUET = "piquet/hoyle"
EMPRUNT = "emprunt/lacombe"
WHIST = "whist/hoyle"
HOC = "hoc/encyclopedie"


def _interp_games(game, n: int, games: int, seed="bench") -> dict:
    tally = Tally(n)
    for i in range(games):
        tally.add(play_one(game, n, game_seed(seed, i), ["random"], DEFAULT_MAX_PLAYS))
    return tally.report()


def _direct_games(n: int, games: int, seed="bench") -> dict:
    return enfle_direct.run_games(n, games, seed)


def _timed(fn, repeat: int):
    best, out = math.inf, None
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def _peak(fn) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def bench_enfle(players: list[int], hands: int, repeat: int) -> list[dict]:
    game = load_game(ENFLE)
    rows = []
    for n in players:
        games = max(1, -(-hands // n))  # a game of L'Enflé has n hands
        # the two alternate, so that a slow spell of the machine falls on both
        ti = td = math.inf
        for r in range(repeat):  # new games at each round, as in bench_yardsticks
            t, ri = _timed(lambda: _interp_games(game, n, games, f"bench/{r}"), 1)
            ti = min(ti, t)
            t, rd = _timed(lambda: _direct_games(n, games, f"bench/{r}"), 1)
            td = min(td, t)
        small = max(1, games // 10)
        mi = _peak(lambda: _interp_games(game, n, small))
        md = _peak(lambda: _direct_games(n, small))
        hi, hd = ri["hands"], rd["hands"]
        rows.append(
            {
                "players": n,
                "games": games,
                "hands": hi,
                "interpreter_s": ti,
                "direct_s": td,
                "interpreter_hands_per_s": hi / ti,
                "direct_hands_per_s": hd / td,
                "ratio": (ti / hi) / (td / hd),
                "peak_kib_interpreter": mi / 1024,
                "peak_kib_direct": md / 1024,
                "peak_games": small,
                "check": {
                    k: {"interpreter": v(ri), "direct": v(rd)}
                    for k, v in {
                        "plays_per_hand": lambda r: r["hand_plays"]["mean"],
                        "tricks_per_hand": lambda r: r["totals"]["tricks"] / r["hands"],
                        "takes_per_hand": lambda r: r["totals"]["takes"] / r["hands"],
                    }.items()
                },
            }
        )
    return rows


def _clear_caches():
    compiler.parser.cache_clear()
    for f in (checking.schema, checking._validator, loader.source_ids):
        f.cache_clear()
    loader._FILE_CACHE.clear()


def bench_compile(repeat: int) -> list[dict]:
    rows = []
    for cid in corpus_ids():
        cold = []
        for _ in range(repeat):
            _clear_caches()
            t = time.perf_counter()
            compile_doc(resolve(cid))
            cold.append(time.perf_counter() - t)
        warm, _ = _timed(lambda: compile_doc(resolve(cid)), repeat)
        t = time.perf_counter()
        doc = resolve(cid)
        t_resolve = time.perf_counter() - t
        t = time.perf_counter()
        compile_doc(doc)
        t_compile = time.perf_counter() - t
        rows.append(
            {
                "id": cid,
                "cold_ms": min(cold) * 1e3,
                "warm_ms": warm * 1e3,
                "resolve_ms": t_resolve * 1e3,
                "compile_ms": t_compile * 1e3,
            }
        )
    return rows


def bench_validate(repeat: int) -> dict | None:
    from academie.cli import main

    if "validate" not in getattr(main, "commands", {}):
        return None
    from click.testing import CliRunner

    times = []
    code = None
    for _ in range(repeat):
        _clear_caches()
        t = time.perf_counter()
        r = CliRunner().invoke(main, ["validate"])
        times.append(time.perf_counter() - t)
        code = r.exit_code
    return {"files": len(corpus_ids()), "cold_s": min(times), "exit_code": code}


def bench_others(hands: int, repeat: int) -> list[dict]:
    rows = []
    for cid in corpus_ids():
        if cid.startswith("enfle/"):
            continue
        try:
            game = load_game(cid)
        except Exception as e:  # a rule file still being written: report, go on
            rows.append({"id": cid, "error": f"{type(e).__name__}: {e}"})
            continue
        if game.abstract:
            continue
        for n in sorted({game.min_players, game.max_players}):
            probe = _interp_games(game, n, 1)
            per_game = max(1, probe["hands"])
            games = max(1, -(-hands // per_game))
            t, r = math.inf, None
            for k in range(repeat):  # new games at each round
                tk, rk = _timed(lambda: _interp_games(game, n, games, f"bench/{k}"), 1)
                if r is None or tk / max(1, rk["hands"]) < t / max(1, r["hands"]):
                    t, r = tk, rk
            rows.append(
                {
                    "id": cid,
                    "players": n,
                    "games": games,
                    "hands": r["hands"],
                    "hands_per_s": r["hands"] / t,
                    "plays_per_s": r["totals"].get("plays", 0) / t,
                }
            )
    return rows


def _cpu_timed(fn) -> tuple[float, dict]:
    gc.collect()
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def bench_yardsticks(
    games: int, repeat: int, enfle_players: int = 4, emprunt_players: int = 4, hoc_players: int = 2
) -> dict:
    """The interpreter and the hand-written game on Piquet, L'Enflé, Emprunt,
    Whist and Hoc: plays and games per second by CPU time, each the best of
    ``repeat``, the ten taken in turn at each round (so that a slow spell of the
    machine falls on all). Each game is played as many times by both; L'Enflé,
    Emprunt, Whist and Hoc about as many plays as the ``games`` games of Piquet
    (a probe of the hand-written games)."""
    gp, ge = load_game(PIQUET), load_game(ENFLE)
    gm, gw, gh = load_game(EMPRUNT), load_game(WHIST), load_game(HOC)
    n, m, h = enfle_players, emprunt_players, hoc_players
    per_p = piquet_direct.run_games(50, "probe")["totals"]["plays"] / 50
    per_e = enfle_direct.run_games(n, 50, "probe")["totals"]["plays"] / 50
    per_m = emprunt_direct.run_games(m, 50, "probe")["totals"]["plays"] / 50
    per_w = whist_direct.run_games(50, "probe")["totals"]["plays"] / 50
    per_h = hoc_direct.run_games(h, 50, "probe")["totals"]["plays"] / 50
    games_e = max(1, round(games * per_p / per_e))
    games_m = max(1, round(games * per_p / per_m))
    games_w = max(1, round(games * per_p / per_w))
    games_h = max(1, round(games * per_p / per_h))
    # each round plays new games (seeds bench/ROUND/…): the interpreter keeps some values per
    # the cards a hand holds, and the same games played again would find them kept
    runs = {
        ("piquet", "interpreter"): lambda seed: _interp_games(gp, 2, games, seed),
        ("piquet", "direct"): lambda seed: piquet_direct.run_games(games, seed),
        ("enfle", "interpreter"): lambda seed: _interp_games(ge, n, games_e, seed),
        ("enfle", "direct"): lambda seed: _direct_games(n, games_e, seed),
        ("emprunt", "interpreter"): lambda seed: _interp_games(gm, m, games_m, seed),
        ("emprunt", "direct"): lambda seed: emprunt_direct.run_games(m, games_m, seed),
        ("whist", "interpreter"): lambda seed: _interp_games(gw, 4, games_w, seed),
        ("whist", "direct"): lambda seed: whist_direct.run_games(games_w, seed),
        ("hoc", "interpreter"): lambda seed: _interp_games(gh, h, games_h, seed),
        ("hoc", "direct"): lambda seed: hoc_direct.run_games(h, games_h, seed),
    }
    best = dict.fromkeys(runs, math.inf)  # seconds a play, the least of the rounds
    best_game = dict.fromkeys(runs, math.inf)  # seconds a game, the least of the rounds
    total = dict.fromkeys(runs, 0.0)  # seconds over every round (a slow spell of the machine falls on both)
    reports: dict = {}
    for r in range(repeat):
        for key, fn in runs.items():
            t, rep = _cpu_timed(lambda: fn(f"bench/{r}"))
            total[key] += t
            best_game[key] = min(best_game[key], t / rep["games"])
            if t / rep["totals"]["plays"] < best[key]:
                best[key], reports[key] = t / rep["totals"]["plays"], rep
    rows = {}
    for game, players, count in (
        ("piquet", 2, games),
        ("enfle", n, games_e),
        ("emprunt", m, games_m),
        ("whist", 4, games_w),
        ("hoc", h, games_h),
    ):
        ri, rd = reports[game, "interpreter"], reports[game, "direct"]
        pi, pd = ri["totals"]["plays"], rd["totals"]["plays"]
        rows[game] = {
            "players": players,
            "games": count,
            "plays_interpreter": pi,
            "plays_direct": pd,
            "interpreter_s": best[game, "interpreter"] * pi,
            "direct_s": best[game, "direct"] * pd,
            "interpreter_plays_per_s": 1 / best[game, "interpreter"],
            "direct_plays_per_s": 1 / best[game, "direct"],
            "interpreter_games_per_s": 1 / best_game[game, "interpreter"],
            "direct_games_per_s": 1 / best_game[game, "direct"],
            "plays_per_hand": {"interpreter": pi / ri["hands"], "direct": pd / rd["hands"]},
        }
        row = rows[game]
        row["slower"] = row["direct_plays_per_s"] / row["interpreter_plays_per_s"]
        row["slower_games"] = row["direct_games_per_s"] / row["interpreter_games_per_s"]
        # every round's time summed, each side's (the same games each round): the ratio a short
        # round repeated many times gives, less moved by the machine's speed from one round to the next
        row["slower_pooled"] = total[game, "interpreter"] / total[game, "direct"]
    return {
        "python": sys.version.split()[0],
        "repeat": repeat,
        "clock": "process_time",
        "games": rows,
        "enfle_over_piquet": {
            "interpreter": rows["enfle"]["interpreter_plays_per_s"] / rows["piquet"]["interpreter_plays_per_s"],
            "direct": rows["enfle"]["direct_plays_per_s"] / rows["piquet"]["direct_plays_per_s"],
        },
    }


YARDSTICKS = (
    ("Piquet", "piquet"),
    ("L'Enflé", "enfle"),
    ("Emprunt", "emprunt"),
    ("Whist", "whist"),
    ("Hoc", "hoc"),
)


def print_yardsticks(out: dict) -> None:
    rows = out["games"]
    print(
        f"Each game against its own hand-written equivalent, random players; "
        f"CPU time, best of {out['repeat']} (Python {out['python']})"
    )
    print(
        f"{'game':<9} {'players':>7} {'games':>6} {'plays':>8} {'interp plays/s':>15} {'direct plays/s':>15} "
        f"{'slower':>7} {'interp games/s':>15} {'direct games/s':>15} {'slower':>7} {'pooled':>7}"
        "  plays/hand interp~direct"
    )
    for label, key in YARDSTICKS:
        r = rows[key]
        c = r["plays_per_hand"]
        print(
            f"{label:<9} {r['players']:>7} {r['games']:>6} {r['plays_interpreter']:>8,} "
            f"{r['interpreter_plays_per_s']:>15,.0f} {r['direct_plays_per_s']:>15,.0f} {r['slower']:>6.2f}x "
            f"{r['interpreter_games_per_s']:>15,.1f} {r['direct_games_per_s']:>15,.1f} {r['slower_games']:>6.2f}x "
            f"{r['slower_pooled']:>6.2f}x  "
            f"{c['interpreter']:.1f} ~ {c['direct']:.1f}"
        )
    q = out["enfle_over_piquet"]
    print(
        f"L'Enflé / Piquet, plays per second: the interpreter {q['interpreter']:.2f}x, "
        f"the hand-written games {q['direct']:.2f}x"
    )
    print(
        "(slower: the interpreter's time for a play, then for a game, over the hand-written game's, the best"
        " rounds; pooled: its time over every round, over the hand-written game's)"
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000, help="hands per player count (default 1000)")
    ap.add_argument("--players", default="4-8", help="player counts: 4-8 or 4,8 (default 4-8)")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many timed runs (default 3)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument(
        "--game",
        choices=("enfle", "piquet"),
        default="enfle",
        help="piquet: time the interpreter and the hand-written games on Piquet and on L'Enflé "
        "(4 players) by CPU time, and nothing else (default: enfle, the report above)",
    )
    ap.add_argument("--games", type=int, default=400, help="with --game piquet: games of Piquet a timing (default 400)")
    a = ap.parse_args(argv)
    if a.game == "piquet":
        ys = bench_yardsticks(a.games, a.repeat)
        if a.json:
            print(json.dumps(ys, indent=1))
        else:
            print_yardsticks(ys)
        return
    if "-" in a.players:
        lo, hi = map(int, a.players.split("-"))
        players = list(range(lo, hi + 1))
    else:
        players = [int(x) for x in a.players.split(",")]
    out = {
        "python": sys.version.split()[0],
        "hands": a.hands,
        "repeat": a.repeat,
        "enfle": bench_enfle(players, a.hands, a.repeat),
        "compile": bench_compile(a.repeat),
        "validate": bench_validate(a.repeat),
        "other_games": bench_others(a.hands, a.repeat),
    }
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"L'Enflé, {a.hands} hands per player count, best of {a.repeat} (Python {out['python']})")
    print(
        f"{'players':>7} {'interp hands/s':>15} {'direct hands/s':>15} {'speed':>6} {'slower':>7} "
        f"{'peak KiB interp':>16} {'peak KiB direct':>16}  plays/hand interp~direct"
    )
    for r in out["enfle"]:
        c = r["check"]["plays_per_hand"]
        print(
            f"{r['players']:>7} {r['interpreter_hands_per_s']:>15,.0f} {r['direct_hands_per_s']:>15,.0f} "
            f"{1 / r['ratio']:>6.2f} {r['ratio']:>6.2f}x {r['peak_kib_interpreter']:>16,.0f} "
            f"{r['peak_kib_direct']:>16,.0f}  {c['interpreter']:.1f} ~ {c['direct']:.1f}"
        )
    ratios = [r["ratio"] for r in out["enfle"]]
    gm = statistics.geometric_mean(ratios)
    print(
        f"speed of the interpreter / the hand-written game: {1 / gm:.2f} (geometric mean; "
        f"min {1 / max(ratios):.2f}, max {1 / min(ratios):.2f}); it takes {gm:.2f}x as long"
    )
    print("\nload + compile a rule file (resolve + compile_doc), best of", a.repeat)
    for r in out["compile"]:
        print(
            f"  {r['id']:<24} cold {r['cold_ms']:7.1f} ms   warm {r['warm_ms']:6.1f} ms "
            f"(resolve {r['resolve_ms']:.1f} + compile {r['compile_ms']:.1f})"
        )
    v = out["validate"]
    print(
        "\nvalidate the corpus: "
        + (
            "no 'academie validate' command yet: skipped"
            if v is None
            else f"{v['files']} files in {v['cold_s'] * 1e3:.0f} ms (exit {v['exit_code']})"
        )
    )
    if out["other_games"]:
        print("\nother games (interpreter only)")
        for r in out["other_games"]:
            if "error" in r:
                print(f"  {r['id']:<24} cannot be loaded: {r['error']}")
            else:
                print(
                    f"  {r['id']:<24} {r['players']} players: {r['hands_per_s']:,.0f} hands/s, "
                    f"{r['plays_per_s']:,.0f} plays/s ({r['hands']} hands)"
                )
    else:
        print("\nother games: none in rules/ besides L'Enflé yet (emprunt, francion …): skipped")


if __name__ == "__main__":
    main()
