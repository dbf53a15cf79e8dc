"""academie compare: two variants side by side, and how they play."""

from __future__ import annotations

import json

import click

from ..dsl.loader import Limits
from ..dsl.text import safe, safe_json
from ..outputs import check_targets, write_text
from .args import SEED, SEED_HELP, check_agents
from .common import input_files
from .paths import allow_path_option, allowed_paths


@click.command()
@click.argument("a")
@click.argument("b")
@click.option(
    "--option", "-o", "options", multiple=True, metavar="NAME", help="Switch on an option for both games (repeatable)."
)
@click.option("--option-a", "options_a", multiple=True, metavar="NAME", help="Switch on an option of A only.")
@click.option("--option-b", "options_b", multiple=True, metavar="NAME", help="Switch on an option of B only.")
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Also play this many games of each, on the same seeds, and compare the play.",
)
@click.option("--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest both allow).")
@click.option(
    "--seed",
    "-s",
    type=SEED,
    default="0",
    show_default=True,
    help="Base seed; game i of each uses seed SEED/i. " + SEED_HELP[0].upper() + SEED_HELP[1:] + ".",
)
@click.option(
    "--agents", "-a", default="random", show_default=True, metavar="A1,A2,…", help="Agents by seat (first, random)."
)
@click.option("--max-plays", type=click.IntRange(min=1), default=50_000, show_default=True, help="Play limit per game.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False),
    help="Also write one self-contained HTML page, with plots when --games is given.",
)
@allow_path_option
def compare(
    a, b, options, options_a, options_b, games, players, seed, agents, max_plays, as_json, html_file, allow_path
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
    """
    import time
    from ..compare import common_players, format_play, format_rules, load_side, play_measures, rules_diff, rules_json

    ags = agents.split(",")
    if "human" in ags:
        raise click.BadParameter("compare plays without a human", param_hint="--agents")
    check_agents(agents, len(ags), agents=("first", "random"))  # the names, before any work
    check_targets([("--html", html_file)], inputs=input_files(("A", a), ("B", b)))
    limits = Limits(allow=allowed_paths(allow_path))
    sa = load_side(a, tuple(options) + tuple(options_a), limits)
    sb = load_side(b, tuple(options) + tuple(options_b), limits)
    diff = rules_diff(sa, sb)
    played = None
    seconds = None
    if games:
        n = common_players(sa.game, sb.game, players)
        check_agents(agents, n, agents=("first", "random"))  # one, or one per seat
        seed_v = seed
        t0 = time.perf_counter()
        played = play_measures(sa, sb, n, games, seed_v, ags, max_plays)
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
            out["play"] = {k: played[k] for k in ("players", "games", "seed", "agents", "max_plays")}
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
