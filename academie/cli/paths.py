"""Which folders a user's rule file may extend or import from."""

from __future__ import annotations

from pathlib import Path

import click


def allow_path_option(f):
    return click.option(
        "--allow-path",
        "allow_path",
        multiple=True,
        metavar="DIR",
        type=click.Path(exists=True, file_okay=False),
        help="Let rule files extend or import files under DIR too (repeatable). By default a rule file "
        "reaches only corpus ids and files under its own folder.",
    )(f)


def allowed_paths(dirs) -> tuple:
    """The folders of --allow-path, absolute with symlinks resolved (workers may start elsewhere)."""
    return tuple(str(Path(d).expanduser().resolve()) for d in dirs)
