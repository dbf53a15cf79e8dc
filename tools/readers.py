"""The commands that read the rules back to a person: ``render``,
``compare`` and ``site``. Registered on the ``academie`` group by cli.py."""
from __future__ import annotations

import json
from pathlib import Path

import click

from .dsl.errors import Pos, RuleError


def _option_flag(f):
    return click.option("--option", "-o", "options", multiple=True, metavar="NAME",
                        help="Switch on a named option of the rule file (repeatable).")(f)


@click.command()
@click.argument("rules")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="Markdown, or one self-contained HTML page.")
@_option_flag
@click.option("--output", "-O", type=click.Path(dir_okay=False), help="Write here instead of standard output.")
def render(rules, fmt, options, output):
    """Write RULES back as rules a person can follow, in the order of a rule
    book (players and cards, the deal, the play, the end, the scoring); every
    statement is footnoted with its source passage, editorial choices are
    marked [editorial]."""
    from .render import render as run
    text = run(rules, options, fmt)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
