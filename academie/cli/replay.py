"""academie replay: step through a logged game trick by trick."""

from __future__ import annotations

import sys

import click

from ..dsl.text import safe
from ..outputs import atomic_write, check_targets
from .common import input_files, limit_flags, load, make_limits, option_flags, with_options


def _explained(rule: dict) -> list[str]:
    out = []
    for c in rule["cites"]:
        out.append(f'      § "{c["quote"]}" ({c["title"] or c["source"] or "no source"})')
    for e in rule["editorial"]:
        out.append(f"      § editorial: {e['reason']}")
    if not out:
        out.append(f"      § {rule['element']}")
    return out


@click.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.argument("rules", required=False)
@option_flags
@click.option(
    "--step/--no-step",
    default=None,
    help="Wait for Enter after each trick (default: when standard input is a terminal; q then Enter stops).",
)
@click.option("--html", "html_file", type=click.Path(dir_okay=False), help="Write the replay as a web page here.")
@limit_flags
def replay(log, rules, options, step, html_file, **kw):
    """Replay LOG (an event log written by play --log) trick by trick: each
    event in words, and, when RULES names the rule file the game was played
    with (a corpus id or a path, options after a plus), the rule that acted
    (a payment, a pick-up, the end of a hand) in its source's words.

    --html FILE writes the same as a page: one section per trick, each rule
    opening on its quotation."""
    from ..dsl.errors import Pos, RuleError
    from ..dsl.loader import is_path
    from ..serve.replay import html_body, lines, read_game_log, record_mismatch, steps

    check_targets([("--html", html_file)], inputs=[("LOG", log)] + (input_files(("RULES", rules)) if rules else []))
    limits = make_limits(kw)
    doc = None
    title = f"Replay of {log}"
    record, events = read_game_log(log)  # the log first: a bad one is said before any rule file is read
    game = None
    if rules:
        rules, options = with_options(rules, options)
        if not options and record is not None:  # the log's own options, unless others are asked for
            options = tuple(map(str, record.get("options") or ()))
        game = load(rules, options, limits)
    elif record is not None and record.get("corpus") is True and not is_path(record["rules"]):
        game = load(record["rules"], tuple(map(str, record.get("options") or ())), limits)
    elif record is not None:  # a path is never read because a log names it
        click.echo(
            safe(f"(the log was played with the rule file {record['rules']}: give it after the log to see its rules)"),
            err=True,
        )
    if game is not None:
        if record is None:
            click.echo(
                safe(f"warning: {log} does not record its game (an older log): {game.id} is taken on trust"), err=True
            )
        else:
            why = record_mismatch(record, game)
            if why is not None and rules:
                raise RuleError(why, Pos(str(log), 1, 1), code="log")
            if why is not None:  # the corpus's file has changed since: its rules would be told wrong
                click.echo(safe(f"warning: {why}; the rules that acted are not shown"), err=True)
                game = None
    if game is not None:
        doc = game.doc
        title = f"{game.title} ({game.id}{''.join('+' + o for o in game.options)}): replay of {log}"
    if html_file:
        from markupsafe import Markup

        from ..render import CSS, env

        note = "" if doc else "The rule file was not given: the rules that acted are not explained."
        page = (
            env()
            .get_template("page.html.j2")
            .render(title=title, css=CSS, nav=[], body=Markup(html_body(title, events, doc, note)))
        )
        with atomic_write(html_file) as f:
            f.write(safe(page))
        click.echo(safe(f"replay written to {html_file}"))
        return
    if step is None:
        step = sys.stdin.isatty()
    click.echo(safe(title))
    if doc is None:
        click.echo("(give the rule file after the log to see each rule that acted, in its source's words)")
    cache: dict = {}
    all_steps = steps(events)
    for i, s in enumerate(all_steps, 1):
        click.echo(safe(f"\n-- {s['title']} ({i}/{len(all_steps)})"))
        said = None
        for line, rule in lines(s, doc, cache):
            click.echo(safe("  " + line.text))
            for d in line.details:  # a deal's hands, the standings
                click.echo(safe("    " + d.clause))
            if rule is not None and rule is not said:  # a rule's words once for the events in a row it caused
                for ln in _explained(rule):
                    click.echo(safe(ln))
            said = rule
        if step and i < len(all_steps):
            try:
                answer = input("[Enter: next, q: stop] ")
            except EOFError:
                break
            if answer.strip().lower().startswith("q"):
                break
