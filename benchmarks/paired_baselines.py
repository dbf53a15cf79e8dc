"""The paired gain of a ``strength --paired`` results file, its random baseline averaged over more
random players: each deal (game ``i``: seed ``i``, the searching player's seat) played again by
``K`` random players in that seat (seeds ``"{i}:{seat}:random-in-seat"``, the one ``--paired``
played, then ``"…:1"`` to ``"…:K-1"``), the others' seats as in the game. The gain of a deal is the
searching player's margin less the mean of those ``K`` margins: the same expectation as with one
random player (each is a random player on that deal), a smaller spread (a random player's own luck
is averaged over ``K``), the deals the same. The first baseline must give the margin the file
records for the random player in the seat (checked: the same deal, replayed).

    python benchmarks/paired_baselines.py results/players-strength-banking.jsonl lansquenet/eb11 \\
        --player mc --iterations 28 -k 20

``--player-param KEY=VALUE`` (as ``strength`` takes it) picks the deals played with that parameter
given; without it, those played with the player's defaults.

prints, for the deals of that cell, the paired gain with 1 baseline (as ``report`` gives it) and
with ``K`` (mean, 95 % interval, number of deals).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import academie

sys.path.insert(0, str(Path(__file__).resolve().parent))
import players as bench  # noqa: E402


def baselines(game: academie.Game, n: int, i: int, seat: int, k: int, opponent: str) -> list[float]:
    """The margins of ``k`` random players in ``seat`` on deal ``i``."""
    out = []
    for j in range(k):
        seed = f"{i}:{seat}:random-in-seat" + (f":{j}" if j else "")
        _, margin, _ = bench._play_seated(game, n, i, seat, academie.agent("random", seed=seed), opponent, 0)
        out.append(margin)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("game")
    ap.add_argument("--player", default="ismcts")
    ap.add_argument("--iterations", type=int, required=True)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("-k", type=int, default=20)
    ap.add_argument(
        "--player-param",
        dest="player_param",
        action="append",
        metavar="KEY=VALUE",
        help="the deals whose player had this parameter given (as strength --player-param; none: its defaults)",
    )
    args = ap.parse_args()
    try:
        params = bench.player_params(args.player_param)
    except ValueError as e:
        ap.error(str(e))
    digest = bench.rules_digest(args.game)
    rows = {
        r["seed"]: r
        for r in bench._read(args.file)
        if r["game"] == args.game
        and r["players"] == args.players
        and r["iterations"] == args.iterations
        and r.get("player", "ismcts") == args.player
        and r.get("params", {}) == params
        and r.get("rules") == digest
        and "random_margin" in r
    }
    game = academie.load_game(args.game)
    one, many = [], []
    for i in sorted(rows):
        r = rows[i]
        ms = baselines(game, args.players, i, r["seat"], args.k, r["against"])
        if ms[0] != r["random_margin"]:
            raise SystemExit(f"deal {i}: the random player in the seat got {ms[0]}, the file says {r['random_margin']}")
        one.append(r["margin"] - ms[0])
        many.append(r["margin"] - statistics.fmean(ms))
    for label, xs in (("1 random player", one), (f"the mean of {args.k} random players", many)):
        m, lo, hi = bench.mean_ci(xs)
        sd = statistics.stdev(xs) if len(xs) > 1 else float("nan")
        print(
            f"{args.game} {args.player}{''.join(f' {k}={v}' for k, v in sorted(params.items()))} {args.iterations}: {len(xs)} deals, gain over {label} in the seat "
            f"{m:+.2f} ({lo:+.2f} to {hi:+.2f}), spread {sd:.1f}"
        )


if __name__ == "__main__":
    main()
