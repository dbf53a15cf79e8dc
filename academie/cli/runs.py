"""The options of the commands that play many games (``simulate``,
``compare``, ``reconstruct``): one decorator for the options they share,
so that the same option reads the same in each --help."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

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


def parallel_options(*, resume_help: str) -> Callable[[F], F]:
    """--backend, --scheduler and --resume of ``compare`` and ``reconstruct``
    (--workers is in ``skill_options``): where the games are played, and the
    checkpoint a run cut short goes on from."""
    return _stack(
        click.option(
            "--backend",
            type=click.Choice(["local", "dask"]),
            default="local",
            show_default=True,
            help="local: worker processes on this machine; dask: a Dask cluster (pip install 'academie[dask]'). "
            "The report is the same on either.",
        ),
        click.option(
            "--scheduler",
            metavar="ADDRESS",
            help="With --backend dask: the scheduler to use (tcp://host:8786); "
            "default: a local cluster of --workers processes.",
        ),
        click.option("--resume", "resume", type=click.Path(dir_okay=False), metavar="FILE", help=resume_help),
    )


RESUME_HELP = (
    "Keep the finished games in FILE (a checkpoint, rewritten atomically as each chunk of games ends); "
    "a run stopped and started again with the same arguments and FILE plays only the games not yet in it "
    "and gives the same report (any --workers). FILE of another run is refused."
)


def check_backend(backend: str, scheduler: str | None) -> None:
    """--backend and --scheduler, checked before any work: a usage error if they cannot be used."""
    if scheduler and backend != "dask":
        raise click.BadParameter("--scheduler is for --backend dask", param_hint="--scheduler")
    if backend == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise click.UsageError("--backend dask needs Dask: pip install 'academie[dask]'") from None


class RunFailure(click.ClickException):
    """The backend cannot be used, or the checkpoint is not this run's: a plain message, exit status 2."""

    exit_code = 2


@contextmanager
def run_errors(resume: str | None) -> Iterator[None]:
    """A backend that cannot be used or a checkpoint that cannot be read, as a plain message (exit status 2)."""
    from ..checkpoint import CheckpointError
    from ..dsl.text import safe
    from ..interpreter.simulate import BackendError

    try:
        yield
    except BackendError as e:
        raise RunFailure(safe(str(e))) from None
    except CheckpointError as e:
        raise RunFailure(safe(f"--resume {resume}: {e}")) from None
