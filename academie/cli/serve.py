"""academie serve: play any rule file in the browser (a local web app)."""

from __future__ import annotations

import click

from ..dsl.text import safe
from .common import limit_flags, load, make_limits


@click.command()
@click.argument("rules", nargs=-1)
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (this machine only by default)."
)
@click.option(
    "--port", type=click.IntRange(min=1, max=65535), default=8765, show_default=True, help="Port to listen on."
)
@limit_flags
def serve(rules, host, port, **kw):
    """Serve a web page on which to play any game of the corpus, and the rule
    files RULES given here (paths, checked now), in the browser: choose the
    game, its options, the players and who sits where, click a card to play
    it, and see each payment, end of hand and refused move explained by the
    rule that caused it, in its source's words.

    Only the corpus and the files named here are ever run; a request names a
    game by its place in that list, never by a path. Stop with Ctrl-C."""
    try:
        from ..serve.app import create_app
        import uvicorn
    except ImportError as e:  # the serve extra is not installed
        raise click.UsageError(
            f"academie serve needs Starlette and uvicorn ({e.name} is missing): pip install 'academie[serve]'"
        ) from None
    limits = make_limits(kw)
    for r in rules:
        load(r, (), limits)  # a faulty file is reported as file:line:col now, not in the browser
    app = create_app(list(rules), limits)
    shown = f"[{host}]" if ":" in host else host
    click.echo(
        safe(f"academie: serving {len(app.state.server.entries)} games on http://{shown}:{port}/ (Ctrl-C stops)")
    )
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False)
