"""academie site: the corpus as a static web site."""

from __future__ import annotations

from pathlib import Path

import click

from ..outputs import check_targets


@click.command()
@click.argument("outdir", type=click.Path(file_okay=False))
def site(outdir):
    """Write a static site of the whole corpus into OUTDIR: an index, a page
    per rule file (the rules, footnoted), a page per source (the passages
    cited highlighted, the uncovered ones marked), and the variants of each
    game compared. It opens from the file system (index.html)."""
    import time
    from ..site import build

    check_targets([], folders=[("OUTDIR", outdir)])
    t0 = time.perf_counter()
    pages = build(outdir)
    click.echo(
        f"{len(pages)} pages written to {outdir} in {time.perf_counter() - t0:.1f} s; "
        f"open {Path(outdir) / 'index.html'}"
    )
