"""academie coverage: which sentences of each source the rule files cite."""

from __future__ import annotations

import json

import click

from ..dsl.text import safe, safe_json


@click.command()
@click.argument("sources", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="List every sentence with the rule elements citing it, not only the uncovered ones.",
)
def coverage(sources, as_json, every):
    """Which sentences of each source text the rule files cite.

    SOURCES are source ids (see sources/*.yaml); none: every source. A
    sentence is covered when a quote overlaps it; sentences matching a
    not_rules: prefix of the source's metadata, and headings, do not count.
    """
    from ..dsl.loader import source_ids
    from ..coverage import coverage as run_coverage, format_text

    known = source_ids()
    for s in sources:
        if s not in known:
            raise click.BadParameter(f"no source '{s}' (sources: {', '.join(sorted(known))})", param_hint="SOURCES")
    reports = run_coverage(list(sources) or None)
    if as_json:
        click.echo(safe_json(json.dumps(reports, indent=1, ensure_ascii=False)))
    else:
        click.echo(safe(format_text(reports, every)))
