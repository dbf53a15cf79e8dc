"""The ``academie`` command group: how every command's errors are shown and
what exit status they give (docs/security.md)."""

from __future__ import annotations

import os
import sys

import click

from ..dsl.errors import RuleError
from ..dsl.text import safe
from ..interpreter.state import Abandoned, InvariantError
from ..outputs import STATUS, failed_stream, silence_stdout
from .common import EXIT_USAGE


class AcademieGroup(click.Group):
    """Turns user errors into located messages and exit status 2, never a traceback."""

    def main(self, *args, **kwargs):
        try:
            return super().main(*args, **kwargs)
        except SystemExit as e:  # what is still buffered for standard output is written now
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            status = _flush_stdout(code)
            if status != code:
                raise SystemExit(status) from None
            raise

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except click.ClickException as e:
            raise _escaped(e) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.ClickException as e:  # a usage error may quote an argument: shown escaped
            raise _escaped(e) from None
        except RuleError as e:
            click.echo(e.format(), err=True)
            ctx.exit(EXIT_USAGE)
        except Abandoned as e:  # a person's input ended (Ctrl-D, < /dev/null)
            click.echo(f"academie: {e}", err=True)
            ctx.exit(EXIT_USAGE)
        except InvariantError as e:
            click.echo(
                safe(f"academie: internal invariant broken: {e} (please report this with the command line)"), err=True
            )
            ctx.exit(3)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except Exception as e:  # pragma: no cover - a bug; show it plainly, not as a traceback
            stream = failed_stream(e)
            if stream:  # a closed pipe or a full disk: not a bug, not the rule file's
                _output_failed(ctx, e, stream)
            if os.environ.get("ACADEMIE_DEBUG"):
                raise
            click.echo(
                safe(
                    f"academie: internal error: {type(e).__name__}: {e}\n"
                    "(set ACADEMIE_DEBUG=1 to see the traceback, and please report it)"
                ),
                err=True,
            )
            ctx.exit(3)


def _escaped(e: click.ClickException) -> click.ClickException:
    """A usage error whose message quotes an argument (a file name, a value)
    with its control characters escaped, as everything else printed is."""
    e.message = safe(e.message)  # type: ignore[misc]  # click marks it Final; escaping it in place keeps ctx and param
    return e


def _output_failed(ctx, e: OSError, stream: str):
    """Standard output (or error) failed. A closed pipe (output piped into
    head, less …): stop quietly with the status the command had decided, else
    141 as if killed by SIGPIPE. Anything else (a full disk): a message and
    exit status 2."""
    silence_stdout(stream)
    if isinstance(e, BrokenPipeError):
        ctx.exit(ctx.meta.get(STATUS, 141))
    if stream == "stdout":
        click.echo(f"academie: cannot write standard output: {e.strerror or e}", err=True)
    ctx.exit(EXIT_USAGE)


def _flush_stdout(status: int) -> int:
    """Flush standard output at the end of a command; the exit status, changed
    if standard output cannot be written (a full disk: 2, with a message; a
    closed pipe: the command's own status, quietly)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return status
    except OSError as e:
        silence_stdout()
        click.echo(f"academie: cannot write standard output: {e.strerror or e}", err=True)
        return status if status not in (0, 1) else EXIT_USAGE
    except (AttributeError, ValueError):  # no standard output, or closed
        pass
    return status


@click.group(cls=AcademieGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="academie")
def main():
    """academie: historical card-game rules as cited, executable data.

    Every game, and every source's variant of it, is a rule file (YAML) whose
    elements cite their sources. The same interpreter plays any of them.

    \b
    Start with:
      academie list                          the games of the corpus, by family
      academie play enfle/academie -p 5      a game of L'Enflé, random players
      academie simulate enfle/academie -n 1000
    """
