"""academie compare: two variants side by side, and how they play."""

from __future__ import annotations

import json

import click

from ..dsl.loader import Limits
from ..dsl.text import safe, safe_json
from ..outputs import check_targets, write_text
from .common import input_files, progress
from .paths import allow_path_option, allowed_paths
from .runs import RESUME_HELP, check_backend, parallel_options, run_errors, run_options, skill_options


def check_play_agents(specs: list[str], players: int | None, hint: str = "--agents") -> None:
    """The agents of a measuring run, checked before any work: a usage error if not."""
    from ..measures import check_agent_specs

    try:
        check_agent_specs(specs, players)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint=hint) from None


@click.command()
@click.argument("a")
@click.argument("b")
@click.option(
    "--option", "-o", "options", multiple=True, metavar="NAME", help="Switch on an option for both games (repeatable)."
)
@click.option("--option-a", "options_a", multiple=True, metavar="NAME", help="Switch on an option of A only.")
@click.option("--option-b", "options_b", multiple=True, metavar="NAME", help="Switch on an option of B only.")
@run_options(
    games=click.IntRange(0, 10**9),
    games_default=0,
    games_help="Also play this many games of each, on the same seeds, and compare the play.",
    players_default="the fewest both allow",
    seed_game="game i of each",
    agents_help="Agents by seat (first, random, and any other the engine knows, with its parameters: NAME:K=V:…).",
)
@skill_options(
    strong_help="With --weak: also play each game with one STRONG player among WEAK ones (its seat turning with the "
    "game) and report the skill gap.",
    weak_help="The other players of the skill run (with --strong).",
)
@parallel_options(resume_help=RESUME_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False),
    help="Also write one self-contained HTML page, with plots when --games is given.",
)
@allow_path_option
def compare(
    a,
    b,
    options,
    options_a,
    options_b,
    games,
    players,
    seed,
    agents,
    strong,
    weak,
    workers,
    max_plays,
    backend,
    scheduler,
    resume,
    as_json,
    html_file,
    allow_path,
):
    """Compare two games A and B (corpus ids, or paths: ending in .yaml or
    .yml, or starting with ./, ../, / or ~) aspect by aspect:
    players, pack, orders, direction, deal, play, end of a hand, scoring,
    the game; each difference with the citations of both sides.

    \b
    Options: A+NAME switches option NAME on for that game only
    (polignac/boussac+capot), as do --option-a/--option-b; --option is
    for both. With --games N, N games of each are played on the same seeds
    and the measures are compared with 95% intervals.

    \b
    The games are spread over --workers processes (default: all cores) or
    a Dask cluster (--backend dask); game i is played with seed SEED/i
    whatever process plays it, so the report is the same for any number of
    workers. --resume FILE keeps the finished games in FILE as they end: run
    the same command again after an interruption and only the rest are
    played.
    """
    import time
    from ..compare import common_players, format_play, format_rules, load_side, play_measures, rules_diff, rules_json

    ags = agents.split(",")
    check_play_agents(ags, None)  # the names, before any work
    if bool(strong) != bool(weak):
        raise click.BadParameter("give both --strong and --weak", param_hint="--strong" if weak else "--weak")
    for spec, hint in ((strong, "--strong"), (weak, "--weak")):
        if spec:
            check_play_agents([spec], None, hint)
    check_backend(backend, scheduler)
    check_targets([("--html", html_file), ("--resume", resume)], inputs=input_files(("A", a), ("B", b)))
    limits = Limits(allow=allowed_paths(allow_path))
    sa = load_side(a, tuple(options) + tuple(options_a), limits)
    sb = load_side(b, tuple(options) + tuple(options_b), limits)
    diff = rules_diff(sa, sb)
    played = None
    seconds = None
    if games:
        n = common_players(sa.game, sb.game, players)
        check_play_agents(ags, n)  # one, or one per seat
        t0 = time.perf_counter()
        total = 2 * games * (2 if strong else 1)
        with run_errors(resume), progress(total, f"{sa.game.id} / {sb.game.id}", quiet=as_json) as step:
            played = play_measures(
                sa,
                sb,
                n,
                games,
                seed,
                ags,
                max_plays,
                workers,
                limits,
                strong,
                weak,
                step,
                backend=backend,
                scheduler=scheduler,
                resume=resume,
            )
        seconds = time.perf_counter() - t0
    if html_file:
        from ..compare_html import page

        write_text(html_file, safe(page(sa, sb, diff, played)))
    if as_json:
        out = {
            "a": {"id": sa.game.id, "title": sa.game.title, "options": sa.options},
            "b": {"id": sb.game.id, "title": sb.game.title, "options": sb.options},
            "rules": rules_json(diff),
        }
        if played:
            out["play"] = {k: played[k] for k in ("players", "games", "seed", "agents", "max_plays") if k in played}
            if strong:
                out["play"].update(strong=strong, weak=weak)
            out["play"].update(played["report"], seconds=round(seconds, 2))
        click.echo(safe_json(json.dumps(out, ensure_ascii=False, indent=1, default=str)))
        return
    click.echo(safe(format_rules(sa, sb, diff)))
    if played:
        click.echo("")
        click.echo(safe(format_play(played)))
        click.echo(f"({2 * games} games played in {seconds:.1f} s)")
    if html_file:
        click.echo(safe(f"wrote {html_file}"), err=True)
