"""academie simulate: many games, on worker processes or a Dask cluster."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from ..dsl.text import safe, safe_json
from ..interpreter.simulate import MAX_CHUNK, MAX_GAMES
from ..interpreter.state import DEFAULT_MAX_PLAYS
from ..outputs import AtomicFile, check_targets
from .runs import run_options
from .common import (  # noqa: F401  (Eta: the time left, kept importable from here)
    EXIT_USAGE,
    Eta,
    inputs_of,
    limit_flags,
    load,
    make_limits,
    option_flags,
    players_for,
    progress,
    with_options,
)


@click.command()
@click.argument("rules")
@run_options(
    games=click.IntRange(1, MAX_GAMES),
    games_default=100,
    games_help=f"Number of games (at most {MAX_GAMES}; memory does not grow with it).",
    players_default="the fewest allowed",
    seed_game="game i",
    agents_help="Agents by seat: first, random, or a search player with its parameters after colons "
    "(ismcts:iterations=300, mc:iterations=100; docs/players.md); one name for all. Default: random.",
    agents_default=None,
)
@option_flags
@click.option(
    "--max-plays", type=click.IntRange(min=1), default=DEFAULT_MAX_PLAYS, show_default=True, help="Play limit per game."
)
@click.option(
    "--workers",
    "-w",
    type=click.IntRange(min=1),
    help="Worker processes (default: all cores; "
    "at most the number of cores, and never more than there are chunks of games); 1 plays in this process.",
)
@click.option("--force-workers", is_flag=True, help="Allow more --workers than this machine has cores.")
@click.option(
    "--backend",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="local: worker processes on this machine; dask: a Dask cluster (pip install 'academie[dask]').",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="With --backend dask: the scheduler to use (tcp://host:8786); "
    "default: a local cluster of --workers processes.",
)
@click.option(
    "--chunk",
    type=click.IntRange(1, MAX_CHUNK),
    help=f"Games per task sent to a worker, at most {MAX_CHUNK} (default: chosen from --games and --workers).",
)
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), help="Write one row per game here (CSV).")
@click.option(
    "--jsonl", "jsonl_file", type=click.Path(dir_okay=False), help="Write one row per game here (JSON Lines)."
)
@click.option(
    "--measures/--no-measures",
    default=True,
    show_default=True,
    help="Also report the design measures (docs/measures.md); --no-measures plays faster (up to 1.8 times).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@limit_flags
def simulate(
    rules,
    games,
    players,
    seed,
    agents,
    options,
    max_plays,
    workers,
    force_workers,
    backend,
    scheduler,
    chunk,
    csv_file,
    jsonl_file,
    measures,
    as_json,
    **kw,
):
    """Play many games of RULES (a corpus id or a path, as in play; options
    may follow a plus) and report the share of games each seat wins (with
    95% intervals), hand lengths, how often the play limit was hit, and the
    design measures of docs/measures.md.

    Game i is played with seed SEED/i, so the report is the same whatever
    --workers, --chunk or --backend. --csv / --jsonl write per game: its
    index, seed, winning seats, hands, plays, whether it was unfinished and
    the final scores, in game order.
    """
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores and not force_workers and not scheduler:
        raise click.BadParameter(
            f"{workers} workers, but this machine has {cores} cores (add --force-workers to start them all the same)",
            param_hint="--workers",
        )
    if scheduler and backend != "dask":
        raise click.BadParameter("--scheduler is for --backend dask", param_hint="--scheduler")
    if backend == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise click.UsageError("--backend dask needs Dask: pip install 'academie[dask]'") from None
    rules, options = with_options(rules, options)
    check_targets([("--csv", csv_file), ("--jsonl", jsonl_file)], inputs=inputs_of(rules))
    limits = make_limits(kw)
    game = load(rules, options, limits)
    n = players_for(game, players)
    names = (agents or "random").split(",")
    if "human" in names:
        raise click.BadParameter("simulate plays without a human", param_hint="--agents")
    from ..measures import DesignCollector, check_agent_specs

    try:
        check_agent_specs(names, n)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--agents") from None
    from ..interpreter.simulate import BackendError, Job, simulate as run
    from ..dsl.loader import is_path

    ref = str(Path(rules).expanduser().absolute()) if is_path(rules) else rules  # workers may start elsewhere
    writers = []
    job = Job(
        ref,
        tuple(options),
        n,
        seed,
        tuple(names),
        max_plays,
        rows=bool(csv_file or jsonl_file),
        limits=limits,
        collector=DesignCollector if measures else None,
    )

    def on_rows(rows):
        for w in writers:
            w.write(rows)

    try:
        for f, kind in ((csv_file, "csv"), (jsonl_file, "jsonl")):
            if f:
                writers.append(_RowWriter(f, kind, n))
        with progress(games, game.id, quiet=as_json) as step:
            tally = run(
                job,
                games,
                workers=workers,
                backend=backend,
                scheduler=scheduler,
                chunk=chunk,
                game=game,
                on_progress=step,
                on_rows=on_rows,
            )
        for w in writers:
            w.close()
    except BaseException as e:
        for w in writers:
            w.abort()
        if isinstance(e, BackendError):
            raise _BackendFailure(str(e)) from None
        raise
    report = tally.report()
    report["win_share_by_seat"] = win_shares(tally)
    if tally.extra is not None:
        report["measures"] = tally.extra.design.report()
    if as_json:
        click.echo(safe_json(json.dumps(report, ensure_ascii=False)))
        return
    click.echo(safe(f"{game.title} ({game.id}), {n} players, {games} games, seed {seed}, agents {','.join(names)}"))
    click.echo(safe(format_report(report, max_plays)))


def win_shares(tally) -> list[dict]:
    """Each seat's share of the finished games won (a tie of k counting 1/k), with its 95% Wilson interval."""
    from ..measures import wilson

    finished = tally.games - tally.unfinished
    out = []
    for w in tally.wins:
        p, lo, hi = wilson(float(w), finished)
        out.append({"wins": float(w), "games": finished, "p": p if finished else None, "low": lo, "high": hi})
    return out


def _pct(x: dict) -> str:
    return "n/a" if x.get("p") is None else f"{x['p']:.1%} [{x['low']:.1%}, {x['high']:.1%}]"


def _ci(x: dict, fmt: str = ".2f") -> str:
    if x.get("mean") is None:
        return "n/a"
    return f"{x['mean']:{fmt}} [{x['low']:{fmt}}, {x['high']:{fmt}}]"


def format_report(report: dict, max_plays: int) -> str:
    """The report in words: percentages with their 95% intervals."""
    from ..compare_text import balance_text
    from ..measures import wilson

    n = report["players"]
    lines = [
        "  games won (the rules name the player the winner; 95% Wilson intervals):"
        if n == 1
        else f"  games won by seat (first place, ties shared; 95% Wilson intervals; an even share is {1 / n:.1%}):"
    ]
    for s, x in enumerate(report["win_share_by_seat"]):
        lines.append(f"    seat {s}: {_pct(x):<24} ({x['wins']:g} of {x['games']} games)")
    h = report["hand_plays"]
    m = report.get("measures")
    mean = _ci(m["per_hand"]["plays"], ".1f") if m else f"{h['mean']:.1f}"
    lines.append(f"  plays per hand: median {h['median']}, mean {mean}, max {h['max']} ({report['hands']} hands)")
    games = report["games"]
    p, lo, hi = wilson(report["unfinished"], games)
    lines.append(f"  unfinished games (play limit {max_plays}): {report['unfinished']} ({p:.1%} [{lo:.1%}, {hi:.1%}])")
    if not m:
        return "\n".join(lines)
    lines.append("  design measures (docs/measures.md; 95% intervals):")
    rows = [
        ("games won by the first leader (AdvantageP1)", _pct(m["advantage_first_player"] or {})),
        ("games won by the first dealer", _pct(m["advantage_dealer"] or {})),
        ("hands won by the first leader (the seat after the dealer)", _pct(m["hands_won_by_first_leader"])),
        ("hands won by the dealer", _pct(m["hands_won_by_dealer"])),
        ("Balance (1 - the largest gap between two seats' win shares)", balance_text(m)),
        ("fairness: χ² test of an even share of wins by position, p", _num(m["fairness"]["p_value"], ".3g")),
        ("hands per game", _ci(m["duration"]["hands_per_game"])),
        ("plays per game (DurationMoves)", _ci(m["duration"]["plays_per_game"], ".1f")),
        ("LeadChange (share of hand ends where the leader changes)", _ci(m["lead_change"])),
        ("Drama (share of hand ends where the final winner trails)", _ci(m["drama"])),
        ("DecisivenessMoves (share of the game until it is decided)", _ci(m["decisiveness"])),
    ]
    one_hand = m["duration"]["hands_per_game"]["mean"] == 1 and m["duration"]["hands_per_game"]["se"] == 0
    for label, v in rows:
        if v == "n/a" and one_hand:
            v = "n/a (a game is one hand)"
        lines.append(f"    {label:<62} {v}")
    by_agent = m.get("win_share_by_agent") or {}
    if len(by_agent) > 1:
        lines.append("  games won per seat, by kind of player (mean over games of the share of its seats):")
        for name, v in by_agent.items():
            lines.append(f"    {name:<30} {_ci(v, '.1%')}  (seats {', '.join(map(str, v['seats']))}; even {1 / n:.1%})")
    return "\n".join(lines)


def _num(x, fmt: str = ".2f") -> str:
    return "n/a" if x is None else format(x, fmt)


class _BackendFailure(click.ClickException):
    """The simulation backend cannot be used: a plain message, exit status 2."""

    exit_code = EXIT_USAGE


class _RowWriter:
    """Per-game rows, written as they come to a fresh temporary file beside
    FILE, renamed to FILE at the end (academie.outputs.AtomicFile)."""

    def __init__(self, path: str, kind: str, players: int):
        self.path, self.kind = path, kind
        self.f = AtomicFile(path, newline="")
        if kind == "csv":
            import csv

            self.csv = csv.writer(self.f)
            self.csv.writerow(
                ["game", "seed", "winners", "hands", "plays", "unfinished"] + [f"score_{s}" for s in range(players)]
            )

    def write(self, rows):
        for r in rows:
            if self.kind == "csv":
                self.csv.writerow(
                    [
                        r["game"],
                        r["seed"],
                        " ".join(map(str, r["winners"])),
                        r["hands"],
                        r["plays"],
                        int(r["unfinished"]),
                    ]
                    + list(r["scores"])
                )
            else:
                self.f.write(safe_json(json.dumps(r, ensure_ascii=False)) + "\n")

    def close(self):
        self.f.commit()

    def abort(self):
        self.f.discard()
