"""academie reconstruct: every editorial reading of a rule file, played and weighed."""

from __future__ import annotations

import json

import click

from ..dsl.loader import Limits
from ..dsl.text import safe, safe_json
from ..outputs import check_targets, write_text
from .common import input_files, progress
from .compare import check_play_agents
from .paths import allow_path_option, allowed_paths
from .runs import RESUME_HELP, check_backend, parallel_options, run_errors, run_options, skill_options


@click.command()
@click.argument("rules")
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="NAME",
    help="Switch on an option in every reading (repeatable).",
)
@run_options(
    games=click.IntRange(1, 1_000_000),
    games_default=200,
    games_help="Games of each reading (and as many again for the skill run).",
    players_default="the fewest allowed",
    seed_game="game i of each reading",
    agents_help="Agents by seat for the measures of each reading (NAME or NAME:K=V:…).",
)
@skill_options(
    strong_help="With --weak: the better player of the skill run.",
    weak_help="With --strong: the other players of the skill run.",
)
@parallel_options(resume_help=RESUME_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), help="Also write one self-contained HTML page.")
@allow_path_option
def reconstruct(
    rules,
    options,
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
    """Play every reading of RULES and rank them. The readings are the file
    as written and each of its options that carries an editorial note (a
    reading of a silent or damaged source), switched on alone. Each is played on the same seeds and weighed on three questions:
    does the game end, is it balanced between the seats, does it reward the
    better player (with --strong and --weak: one strong player among weak
    ones, its seat turning with the game). The ranking is explained in words.

    \b
    The games are spread over --workers processes (default: all cores) or
    a Dask cluster (--backend dask), with the same report for any number;
    --resume FILE keeps the finished games, so that the same command run
    again after an interruption plays only the rest.
    """
    from ..reconstruct import format_text, html_page, readings_of, reconstruct as run

    ags = agents.split(",")
    check_play_agents(ags, None)
    if bool(strong) != bool(weak):
        raise click.BadParameter("give both --strong and --weak", param_hint="--strong" if weak else "--weak")
    for spec, hint in ((strong, "--strong"), (weak, "--weak")):
        if spec:
            check_play_agents([spec], None, hint)
    check_backend(backend, scheduler)
    check_targets([("--html", html_file), ("--resume", resume)], inputs=input_files(("RULES", rules)))
    limits = Limits(allow=allowed_paths(allow_path))
    if players is not None:
        check_play_agents(ags, players)
    total = len(readings_of(rules, options, limits)) * games * (2 if strong else 1)
    with run_errors(resume), progress(total, rules, quiet=as_json) as step:
        res = run(
            rules,
            options,
            players,
            games,
            seed,
            ags,
            strong,
            weak,
            max_plays,
            workers,
            limits,
            step,
            backend=backend,
            scheduler=scheduler,
            resume=resume,
        )
    if html_file:
        write_text(html_file, safe(html_page(res)))
    if as_json:
        click.echo(safe_json(json.dumps(res, ensure_ascii=False, indent=1, default=str)))
    else:
        click.echo(safe(format_text(res)))
    if html_file:
        click.echo(safe(f"wrote {html_file}"), err=True)
