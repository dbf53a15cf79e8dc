"""academie list: the games and variants of the corpus."""

from __future__ import annotations

import json

import click

from ..dsl.families import FAMILIES, family_heading, family_rank
from ..dsl.loader import corpus_ids, resolve
from ..dsl.text import safe, safe_json


# -- commands ----------------------------------------------------------------------
@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON (each game with its family).")
@click.option(
    "--family",
    "families",
    multiple=True,
    type=click.Choice(list(FAMILIES)),
    help="Only the games of this family of play (may be given more than once).",
)
def list_cmd(as_json, families):
    """List the games and variants of the corpus, with players and sources,
    grouped by family of play (trick, stops, vying, banking, adding, fishing,
    draw-and-meld, patience, shedding, in that order; a game naming no family last)."""
    rows = []
    for cid in corpus_ids():
        doc = resolve(cid)
        d = doc.data
        if families and d.get("family") not in families:
            continue
        srcs = doc.sources()
        p = d.get("players") or {}
        rows.append(
            {
                "id": cid,
                "title": d.get("title", cid),
                "family": d.get("family"),
                "players": [p.get("min"), p.get("max")],
                "sources": srcs,
                "options": sorted((d.get("options") or {})),
                "extends": _extends(cid),
                "abstract": bool(d.get("abstract")),
            }
        )
    if as_json:
        click.echo(safe_json(json.dumps(rows, indent=1, ensure_ascii=False)))
        return
    if not rows:
        click.echo(f"no {' or '.join(families)} games in the corpus")
        return
    groups: dict = {}
    for r in sorted(rows, key=lambda r: family_rank(r["family"])):  # stable: by id within a family
        groups.setdefault(r["family"], []).append(r)
    for i, (family, group) in enumerate(groups.items()):
        meaning = FAMILIES.get(family)
        click.echo(("\n" if i else "") + family_heading(family) + (f": {meaning}" if meaning else ""))
        _rows(group)


def _rows(rows):
    for r in rows:
        pl = "fragment" if r["abstract"] else f"{r['players'][0]}-{r['players'][1]} players"
        click.echo(safe(f"{r['id']:<22} {r['title']:<28} {pl:<13} sources: {', '.join(r['sources'])}", True))
        if r["extends"]:
            click.echo(safe(f"{'':<22}   a variant of {r['extends']}", True))
        if r["options"]:
            click.echo(safe(f"{'':<22}   options: {', '.join(r['options'])}", True))


def _extends(cid):
    from ..dsl.loader import find_rules, load_file

    path, _ = find_rules(cid)
    data, _ = load_file(path)
    return data.get("extends")
