"""academie cite: the works a rule file rests on, as a bibliography."""

from __future__ import annotations

import json

import click

from ..dsl.loader import Limits
from ..dsl.text import safe, safe_json
from .common import option_flags
from .paths import allow_path_option, allowed_paths


@click.command()
@click.argument("rules")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "bibtex", "csl-json"]),
    default="text",
    show_default=True,
    help="Full entries in plain text, BibTeX, or CSL-JSON (the citation style language's data).",
)
@option_flags
@allow_path_option
def cite(rules, fmt, options, allow_path):
    """The works RULES cites (and the originals of the translations it
    cites), from the sources' metadata (sources/ID.yaml): authors, title,
    edition, year, pages, language, URL, licence and kind of text.

    RULES is a corpus id (polignac/boussac) or a path, as for render."""
    from .. import bibliography as bib
    from ..dsl.loader import resolve

    doc = resolve(rules, tuple(options), Limits(allow=allowed_paths(allow_path)))
    sids = bib.works(doc.sources())
    if fmt == "csl-json":
        click.echo(safe_json(json.dumps(bib.csl_json(sids), indent=1, ensure_ascii=False)))
    elif fmt == "bibtex":
        click.echo(safe(bib.bibtex(sids)), nl=False)
    else:
        click.echo(safe(bib.text(sids)), nl=False)
