"""academie serve: play any rule file in the browser (a local web app)."""

from __future__ import annotations

import errno
import socket
import sys

import click

from ..dsl.text import safe
from .common import EXIT_USAGE, limit_flags, load, make_limits


@click.command()
@click.argument("rules", nargs=-1)
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (this machine only by default)."
)
@click.option(
    "--port", type=click.IntRange(min=1, max=65535), default=8765, show_default=True, help="Port to listen on."
)
@limit_flags
@click.pass_context
def serve(ctx, rules, host, port, **kw):
    """Serve a web page on which to play any game of the corpus, and the rule
    files RULES given here (paths, checked now), in the browser: choose the
    game, its options, the players and who sits where, click a card to play
    it, and see each payment, end of hand and refused move explained by the
    rule that caused it, in its source's words.

    Only the corpus and the files named here are ever run; a request names a
    game by its place in that list, never by a path. Each human seat has its
    own secret link. Stop with Ctrl-C."""
    try:
        import uvicorn

        from ..serve.app import create_app
        from ..serve.guard import is_loopback, uvicorn_settings
    except ImportError as e:  # the serve extra is not installed
        raise click.UsageError(
            f"academie serve needs Starlette and uvicorn ({e.name} is missing): pip install 'academie[serve]'"
        ) from None
    limits = make_limits(kw)
    for r in rules:
        load(r, (), limits)  # a faulty file is reported as file:line:col now, not in the browser
    app = create_app(list(rules), limits, host=host)
    sock = listen(ctx, host, port)
    shown = f"[{host}]" if ":" in host else host
    if not is_loopback(host):
        click.echo(
            safe(
                f"academie: warning: listening on {host}, not this machine only: anyone who can reach it on the "
                "network can start games, play the seats they hold links to and read what those seats see"
            ),
            err=True,
        )
    click.echo(
        safe(f"academie: serving {len(app.state.server.entries)} games on http://{shown}:{port}/ (Ctrl-C stops)")
    )
    sys.stdout.flush()  # said at once, also into a pipe: it is listening
    config = uvicorn.Config(app, **uvicorn_settings())
    uvicorn.Server(config).run(sockets=[sock])


def listen(ctx: click.Context, host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``, or a clear error (exit status 2) if the address
    cannot be found or the port is taken: before anything says it serves."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError) as e:
        _cannot(ctx, host, port, getattr(e, "strerror", None) or "no such address")
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as e:
        sock.close()
        why = "the port is in use" if e.errno == errno.EADDRINUSE else (e.strerror or str(e))
        _cannot(ctx, host, port, why)
    sock.set_inheritable(True)
    return sock


def _cannot(ctx: click.Context, host: str, port: int, why: str):
    click.echo(safe(f"academie: cannot listen on {host} port {port}: {why}"), err=True)
    ctx.exit(EXIT_USAGE)
