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
    help="List every sentence: the rule elements citing it, or its kind and why, not only those not accounted for.",
)
def coverage(sources, as_json, every):
    """The ledger of each source text: every sentence cited or listed.

    SOURCES are source ids (see sources/*.yaml); none: every source. A
    sentence is accounted for when a quote of a rule file overlaps it (cited),
    when an entry of the not_rules: list of the source's metadata names it with
    its kind and why (listed), or when it is a heading. Listed debts (kinds
    variant-not-encoded and cannot-express) are listed apart.
    """
    from ..dsl.loader import source_ids
    from ..coverage import coverage as run_coverage, format_text, public

    known = source_ids()
    for s in sources:
        if s not in known:
            raise click.BadParameter(f"no source '{s}' (sources: {', '.join(sorted(known))})", param_hint="SOURCES")
    reports = run_coverage(list(sources) or None)
    if as_json:
        click.echo(safe_json(json.dumps(public(reports), indent=1, ensure_ascii=False)))
    else:
        click.echo(safe(format_text(reports, every)))
