"""A logged game, step by step: the events of a log (``play --log``) cut into
steps (the start of each hand, then each trick, then the end of the hand),
each event in words with the rule that acted and its source's words. Used by
``academie replay`` (in the terminal, or as a page with ``--html``) and by the
site's replay pages, which need no script: each step is a section reached by
its own link.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from ..dsl.errors import Pos, RuleError
from ..dsl.loader import Doc
from ..dsl.text import safe
from ..narrate import Line, Part, lowest_draws, narrate
from ..narrate import html as line_html
from .explain import explain

MAX_LOG_BYTES = 64 * 1024 * 1024
MAX_LINE = 1024 * 1024


def read_log(path: str | Path) -> list[dict]:
    """The events of a JSON Lines log; a line that is not an event is a
    ``file:line:col`` error."""
    p = Path(path)
    name = str(path)
    try:
        size = p.stat().st_size
        if size > MAX_LOG_BYTES:
            raise RuleError(f"the log is {size} bytes, more than {MAX_LOG_BYTES}", Pos(name, 1, 1), code="limit")
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise RuleError(f"the log is not UTF-8 text ({e.reason})", Pos(name, 1, 1), code="log") from None
    except OSError as e:
        raise RuleError(f"cannot read the log: {e.strerror}", Pos(name, 1, 1), code="log") from None
    events = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise RuleError("a line longer than a megabyte is no event", Pos(name, i, 1), code="log")
        try:
            ev = json.loads(line)
        except ValueError as e:
            raise RuleError(f"not JSON: {getattr(e, 'msg', e)}", Pos(name, i, 1), code="log") from None
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            raise RuleError('an event is a JSON object with a "type"', Pos(name, i, 1), code="log")
        events.append(ev)
    if not events:
        raise RuleError("the log holds no event", Pos(name, 1, 1), code="log")
    return events


def steps(events: list[dict]) -> list[dict]:
    """``[{"title", "events"}]``: the set-up and deal of each hand, each trick
    (from its first card to the next trick's, with what its end caused: the
    take, the payments), the end of each hand, the end of the game. A trick
    broken off (a renouncer picks up the cards, the trick goes back to the
    pack) ends there too."""
    out: list[dict] = []
    cur: list[dict] = []
    hand, trick, in_trick = 0, 0, False
    title = "Before the first hand"

    def close(next_title: str) -> None:
        nonlocal cur, title
        if cur:
            out.append({"title": title, "events": cur})
        cur, title = [], next_title

    for ev in events:
        t = ev.get("type")
        if t == "hand_start":
            hand, trick, in_trick = ev.get("hand", hand + 1), 0, False
            close(f"Hand {hand}: the deal")
        elif t == "play" and not in_trick:
            trick, in_trick = trick + 1, True
            close(f"Hand {hand}, trick {trick}")
        elif t == "hand_end":
            in_trick = False
            close(f"Hand {ev.get('hand', hand)}: the end")
        elif t == "game_end":
            close("The end of the game")
        cur.append(ev)
        if t == "trick" or (t == "take" and ev.get("to") in ("hand", "pack") and in_trick):
            in_trick = False
    close("")
    return out


def lines(step: dict, doc: Doc | None, cache: dict | None = None) -> list[tuple[Line, dict | None]]:
    """Each event of a step in words (``academie/narrate.py``), with its rule
    explained (when the rules are known); an event this log holds in a shape
    the engine does not write (an older log, one edited by hand) is named by
    its type."""
    cache = {} if cache is None else cache
    lowest = lowest_draws(doc.data) if doc is not None else None
    out = []
    for ev in step["events"]:
        try:
            line = narrate(ev, draw_lowest=lowest)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            line = Line(str(ev.get("type")), (Part(f"({safe(str(ev.get('type')), one_line=True)} event)"),), "line")
        if line is None:
            continue
        rule = None
        if doc is not None and "rule" in ev:
            k = repr(ev["rule"])
            if k not in cache:
                cache[k] = explain(doc, ev["rule"])
            rule = cache[k]
        out.append((line, rule))
    return out


def html_body(title: str, events: list[dict], doc: Doc | None, note: str = "") -> str:
    """A replay as HTML without script: a table of contents, then one section
    per step with links to the previous and next ones; every rule that acted
    opens (``<details>``) on its source's words."""
    e = html.escape
    all_steps = steps(events)
    cache: dict = {}
    parts = [f"<h1>{e(title)}</h1>"]
    if note:
        parts.append(f"<p class='small'>{e(note)}</p>")
    parts.append("<nav class='toc'><ol>")
    parts += [f'<li><a href="#step{i}">{e(s["title"])}</a></li>' for i, s in enumerate(all_steps, 1)]
    parts.append("</ol></nav>")
    for i, s in enumerate(all_steps, 1):
        nav = []
        if i > 1:
            nav.append(f'<a href="#step{i - 1}">← previous</a>')
        if i < len(all_steps):
            nav.append(f'<a href="#step{i + 1}">next →</a>')
        parts.append(f'<section class="step" id="step{i}"><h2>{e(s["title"])}</h2><ol class="events">')
        for line, rule in lines(s, doc, cache):
            li = line_html(line)
            if rule is not None:
                li += " " + rule_html(rule)
            parts.append(f"<li>{li}</li>")
        parts.append("</ol><p class='stepnav'>" + " · ".join(nav) + "</p></section>")
    return "\n".join(parts)


def rule_html(rule: dict) -> str:
    e = html.escape
    inner = []
    for c in rule["cites"]:
        inner.append(f"<blockquote>{e(c['quote'])}</blockquote><cite>{e(c['title'] or c['source'] or '')}</cite>")
    for ed in rule["editorial"]:
        inner.append(f"<p class='small'>Editorial: {e(ed['reason'])} (evidence: {e(ed['evidence'])})</p>")
    inner.append(f"<p class='small'>rule element: <code>{e(rule['element'])}</code></p>")
    return f'<details class="rule"><summary title="{e(rule["path"])}">§</summary>{"".join(inner)}</details>'
