"""``academie simulate`` across processes: speed-up with --workers and memory against the number of games.

    python benchmarks/parallel.py                          # 10,000 games, 6 players, workers 1 and 2
    python benchmarks/parallel.py --workers 1,2,4 --memory 1000,10000 --json

Each measurement runs the command line in a fresh process; wall time is the best
of ``--repeat`` runs (the speed-up is also given with the command's own start,
the wall time of a one-game run, taken off both sides); peak RSS is that of the
largest process of the run (the command, or one of its workers), as the kernel
reports it to ``wait4``. The reports of all runs of the same seed must be
identical: the script checks it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time


def _cli() -> list[str]:
    exe = shutil.which("academie")
    return [exe] if exe else [sys.executable, "-c", "from academie.cli import main; main()"]


def run(args: list[str]) -> tuple[float, int, dict]:
    """(wall seconds, peak RSS in KiB, the JSON report) of one run."""
    t = time.perf_counter()
    p = subprocess.Popen(_cli() + args + ["--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {p.returncode}\n{err.decode()}")
    return dt, ru.ru_maxrss, json.loads(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="enfle/academie")
    ap.add_argument("-p", "--players", type=int, default=6)
    ap.add_argument(
        "-n",
        "--games",
        type=int,
        default=10000,
        help="games per timed run (default 10000: long enough that the command's start weighs little)",
    )
    ap.add_argument("--workers", default="1,2", help="worker counts to time (default 1,2)")
    ap.add_argument("--memory", default="1000,10000", help="game counts for peak RSS ('' to skip)")
    ap.add_argument("--memory-workers", type=int, default=1, help="--workers for the memory runs (default 1)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    base = ["simulate", a.rules, "-p", str(a.players), "-s", "bench"]
    out = {"cores": os.cpu_count(), "games": a.games, "players": a.players, "speed": [], "memory": []}
    reports = []
    for w in [int(x) for x in a.workers.split(",")]:
        best, rss = float("inf"), 0
        for _ in range(a.repeat):
            dt, m, rep = run(base + ["-n", str(a.games), "-w", str(w)])
            best, rss = min(best, dt), max(rss, m)
            reports.append(rep)
        out["speed"].append({"workers": w, "seconds": best, "games_per_s": a.games / best, "peak_rss_kib": rss})
    # the command's own start (interpreter, imports, loading the rules), paid whatever the
    # number of workers: the wall time of a one-game run
    start = min(run(base + ["-n", "1", "-w", "1"])[0] for _ in range(a.repeat))
    out["start_seconds"] = start
    t1 = out["speed"][0]["seconds"]
    for r in out["speed"]:
        r["speedup"] = t1 / r["seconds"]
        r["speedup_after_start"] = (t1 - start) / (r["seconds"] - start)
    out["identical_reports"] = all(r == reports[0] for r in reports)
    for g in [int(x) for x in a.memory.split(",") if x]:
        dt, m, rep = run(base + ["-n", str(g), "-w", str(a.memory_workers)])
        out["memory"].append({"games": g, "workers": a.memory_workers, "seconds": dt, "peak_rss_kib": m})
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{a.rules}, {a.players} players, {a.games} games, {out['cores']} cores, best of {a.repeat}")
    for r in out["speed"]:
        print(
            f"  --workers {r['workers']}: {r['seconds']:6.2f} s  {r['games_per_s']:7.1f} games/s  "
            f"speed-up {r['speedup']:.2f}x ({r['speedup_after_start']:.2f}x after the start)  "
            f"peak RSS {r['peak_rss_kib'] / 1024:.0f} MiB"
        )
    print(f"  the command's start (a one-game run): {out['start_seconds']:.2f} s")
    print(f"  reports identical across runs and worker counts: {out['identical_reports']}")
    for r in out["memory"]:
        print(
            f"  {r['games']:>7} games, --workers {r['workers']}: {r['seconds']:6.1f} s, peak RSS {r['peak_rss_kib'] / 1024:.1f} MiB"
        )
    if not out["identical_reports"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
