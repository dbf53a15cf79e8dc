"""The ``academie`` command line: one module per command, registered on the
group of ``app``. ``main`` is the entry point (``academie = academie.cli:main``)."""

from __future__ import annotations

from .app import main
from .cite import cite
from .compare import compare
from .coverage import coverage
from .listing import list_cmd
from .play import play
from .reconstruct import reconstruct
from .render import render
from .replay import replay
from .serve import serve
from .simulate import simulate
from .site import site
from .validate import validate

for _command in (list_cmd, play, simulate, validate, coverage, render, compare, site, cite, reconstruct, serve, replay):
    main.add_command(_command)

__all__ = ["main"]
