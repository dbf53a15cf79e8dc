"""The options of the commands that play many games (``simulate``,
``compare``, ``reconstruct``): one decorator for the options they share,
so that the same option reads the same in each --help."""

from __future__ import annotations

from typing import Callable, TypeVar

import click

from .args import SEED, SEED_HELP

F = TypeVar("F", bound=Callable)


def _stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    """The decorators applied as if written in this order above a function (the first on top)."""

    def apply(f: F) -> F:
        for d in reversed(decorators):
            f = d(f)
        return f

    return apply


def run_options(
    *,
    games: click.IntRange,
    games_default: int,
    games_help: str,
    players_default: str,
    seed_game: str,
    agents_help: str,
    agents_default: str | None = "random",
) -> Callable[[F], F]:
    """--games, --players, --seed and --agents of a measuring run.
    ``players_default``: what the default is (``the fewest allowed``);
    ``seed_game``: which game a seed plays (``game i of each``);
    ``agents_default``: None where the help says the default itself."""
    return _stack(
        click.option("--games", "-n", type=games, default=games_default, show_default=True, help=games_help),
        click.option(
            "--players", "-p", type=click.IntRange(min=1), help=f"Number of players (default: {players_default})."
        ),
        click.option(
            "--seed",
            "-s",
            type=SEED,
            default="0",
            show_default=True,
            help=f"Base seed; {seed_game} uses seed SEED/i. " + SEED_HELP[0].upper() + SEED_HELP[1:] + ".",
        ),
        click.option(
            "--agents",
            "-a",
            default=agents_default,
            show_default=agents_default is not None,
            metavar="A1,A2,…",
            help=agents_help,
        ),
    )


def skill_options(*, strong_help: str, weak_help: str) -> Callable[[F], F]:
    """--strong and --weak (the skill run), --workers and --max-plays of ``compare`` and ``reconstruct``."""
    return _stack(
        click.option("--strong", metavar="AGENT", help=strong_help),
        click.option("--weak", metavar="AGENT", help=weak_help),
        click.option(
            "--workers",
            "-w",
            type=click.IntRange(1, 64),
            help="Worker processes (default: all cores); the report is the same for any number.",
        ),
        click.option(
            "--max-plays", type=click.IntRange(min=1), default=50_000, show_default=True, help="Play limit per game."
        ),
    )
