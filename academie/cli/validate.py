"""academie validate: rule files checked against the schema, the language
and their sources."""

from __future__ import annotations

import json

import click

from ..dsl.loader import corpus_ids
from ..dsl.text import safe, safe_json
from ..outputs import STATUS
from .common import limit_flags, make_limits


@click.command()
@click.argument("rules", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as a JSON list.")
@click.option(
    "--playouts",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="Random games per number of players and option (0: none).",
)
@click.option(
    "--max-plays",
    type=click.IntRange(min=1),
    default=20_000,
    show_default=True,
    help="Play limit of each random game: beyond it the game is reported unfinished (a warning).",
)
@limit_flags
@click.pass_context
def validate(ctx, rules, as_json, playouts, max_plays, **kw):
    """Check rule files: structure, expressions, references, options,
    citations against the sources, the arithmetic of the deal (the rules'
    and the sources'), and a few random games.

    RULES are corpus ids (enfle/academie), looked up only in the corpus, or
    paths (an argument that ends in .yaml or .yml, or starts with ./, ../, /
    or ~); none: the whole corpus.
    Exit status: 0 no errors (warnings allowed), 1 errors, 2 misuse.
    """
    from ..dsl.loader import find_rules, missing_hint
    from ..validate import validate as run_validate

    refs = list(rules) or corpus_ids()
    for r in refs:
        try:
            find_rules(r)
        except FileNotFoundError:
            raise click.BadParameter(
                safe(
                    f"no rule file '{r}': not a file, nor a corpus id"
                    + (missing_hint(r) or f" (corpus: {', '.join(corpus_ids())})"),
                    True,
                ),
                param_hint="RULES",
            ) from None
    report = run_validate(refs, playouts=playouts, limits=make_limits(kw), max_plays=max_plays)
    ctx.meta[STATUS] = 1 if report.errors else 0  # kept if the report is cut by a closed pipe
    if as_json:
        click.echo(safe_json(json.dumps([d.as_json() for d in report.diagnostics], indent=1, ensure_ascii=False)))
    else:
        for d in report.diagnostics:
            click.echo(d.format(severity=True))
        click.echo(
            f"{len(report.files)} file(s) checked: {report.errors} error(s), {report.warnings} warning(s)", err=True
        )
    ctx.exit(1 if report.errors else 0)
