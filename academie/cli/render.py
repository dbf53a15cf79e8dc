"""academie render: a rule file written back as rules a person can follow."""

from __future__ import annotations

import click

from ..dsl.loader import Limits
from ..dsl.text import safe
from ..outputs import check_targets, write_text
from .common import input_files, option_flags
from .paths import allow_path_option, allowed_paths


@click.command()
@click.argument("rules")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "html"]),
    default="md",
    show_default=True,
    help="Markdown, or one self-contained HTML page.",
)
@option_flags
@click.option("--output", "-O", type=click.Path(dir_okay=False), help="Write here instead of standard output.")
@allow_path_option
def render(rules, fmt, options, output, allow_path):
    """Write RULES back as rules a person can follow, in the order of a rule
    book (players and cards, the deal, the play, the end, the scoring); every
    statement is footnoted with its source passage, editorial choices are
    marked [editorial].

    RULES is a corpus id (enfle/academie), looked up only in the corpus, or a
    path: an argument that ends in .yaml or .yml, or starts with ./, ../, /
    or ~. Control characters of the rule file are written as visible escapes
    (\\x1b)."""
    from ..render import render as run

    check_targets([("--output", output)], inputs=input_files(("RULES", rules)))
    text = safe(run(rules, options, fmt, limits=Limits(allow=allowed_paths(allow_path))))
    if output:
        write_text(output, text)
    else:
        click.echo(text, nl=False)
