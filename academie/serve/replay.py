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
from ..dsl.loader import Doc, digest_of, in_corpus, read_input
from ..dsl.model import GameDef
from ..dsl.text import safe
from ..narrate import Declared, Line, Part, lowest_draws, narrate, shown_of
from ..narrate import html as line_html
from .explain import explain

MAX_LOG_BYTES = 64 * 1024 * 1024
MAX_LINE = 1024 * 1024
MAX_EVENT_DEPTH = 16  # nesting of one event (a logged one goes 3 deep)
MAX_RULE_PATH = 64  # keys of an event's ``rule``
_INT_FIELDS = ("hand", "plays")  # a whole number wherever found (the steps are cut by them)
_SEAT_FIELDS = ("seat", "dealer")  # a seat or null


def game_record(game: GameDef, players: int, seed: int | str) -> dict:
    """The first line of a log (``play --log``): the game it records. ``rules``: the
    corpus id, or the rule file's absolute path (``corpus`` says which); ``options``;
    ``digest``: of the rule file and what it extends and imports (``digest_of``)."""
    doc = game.doc
    corpus = in_corpus(Path(doc.file))
    return {
        "type": "game",
        "rules": game.id if corpus else str(Path(doc.file).resolve()),
        "corpus": corpus,
        "options": list(game.options),
        "digest": digest_of(doc),
        "players": players,
        "seed": seed,
    }


def record_mismatch(record: dict, game: GameDef) -> str | None:
    """Why ``game`` is not the game ``record`` says the log was played with (None if it is)."""
    named = "+".join((str(record.get("rules")), *map(str, record.get("options") or ())))
    given = "+".join((game.id, *game.options))
    if sorted(map(str, record.get("options") or ())) != sorted(game.options):
        return f"the log records a game of {named}, not of {given} (other options)"
    if record.get("digest") != digest_of(game.doc):
        return (
            f"the log records a game of {named}, not of {given}: the rule files differ "
            f"(the log's digest is {str(record.get('digest'))[:80]})"
        )
    return None


def _depth(v: object, limit: int) -> bool:
    """Whether ``v`` is nested no more than ``limit`` levels deep (no recursion)."""
    todo = [(v, 1)]
    while todo:
        x, d = todo.pop()
        if d > limit:
            return False
        if isinstance(x, dict):
            todo += [(y, d + 1) for y in x.values()]
        elif isinstance(x, list):
            todo += [(y, d + 1) for y in x]
    return True


def _event_fault(ev: object) -> str | None:
    """What makes ``ev`` no event (None if it is one): the fields a replay relies on, checked."""
    if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
        return 'an event is a JSON object with a "type"'
    if not _depth(ev, MAX_EVENT_DEPTH):
        return f"an event nested more than {MAX_EVENT_DEPTH} levels deep"
    for k in _INT_FIELDS:
        v = ev.get(k)
        if k in ev and (isinstance(v, bool) or not isinstance(v, int) or abs(v) > 10**18):
            return f'"{k}" is a whole number, not {json.dumps(v)[:40]}'
    for k in _SEAT_FIELDS:
        v = ev.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or abs(v) > 10**6):
            return f'"{k}" is a seat (a whole number) or null, not {json.dumps(v)[:40]}'
    rule = ev.get("rule")
    if rule is not None and (
        not isinstance(rule, list)
        or len(rule) > MAX_RULE_PATH
        or not all(isinstance(k, (str, int)) and not isinstance(k, bool) for k in rule)
    ):
        return '"rule" is a list of keys and indices'
    return None


def read_game_log(path: str | Path) -> tuple[dict | None, list[dict]]:
    """The game record (None in a log written before there was one) and the events of a
    JSON Lines log. Only a regular file is read, at most ``MAX_LOG_BYTES``; lines are cut on
    "\n" alone (a name may hold U+2028); a line that is not an event is a ``LOG:line:col``
    error."""
    name = str(path)
    try:
        raw = read_input(path, MAX_LOG_BYTES, "the log")
    except RuleError as e:
        if e.diagnostics[0].code == "limit":
            raise RuleError(f"the log is more than {MAX_LOG_BYTES} bytes", Pos(name, 1, 1), code="limit") from None
        raise
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        at = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise RuleError(f"the log is not UTF-8 text ({e.reason})", Pos(name, at, col), code="log") from None
    record: dict | None = None
    events: list[dict] = []
    for i, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise RuleError("a line longer than a megabyte is no event", Pos(name, i, 1), code="log")
        try:
            ev = json.loads(line)
        except RecursionError:
            raise RuleError(
                f"an event nested more than {MAX_EVENT_DEPTH} levels deep", Pos(name, i, 1), code="log"
            ) from None
        except ValueError as e:
            raise RuleError(
                f"not JSON: {getattr(e, 'msg', e)}", Pos(name, i, getattr(e, "colno", 1)), code="log"
            ) from None
        fault = _event_fault(ev)
        if fault is not None:
            raise RuleError(fault, Pos(name, i, 1), code="log")
        if ev["type"] == "game":
            if record is not None or events:
                raise RuleError("the game record is the log's first line, once", Pos(name, i, 1), code="log")
            if not isinstance(ev.get("rules"), str) or not isinstance(ev.get("options", []), list):
                raise RuleError('the game record names its "rules" and "options"', Pos(name, i, 1), code="log")
            record = ev
            continue
        events.append(ev)
    if not events:
        raise RuleError("the log holds no event", Pos(name, 1, 1), code="log")
    return record, events


def read_log(path: str | Path) -> list[dict]:
    """The events of a JSON Lines log (``read_game_log`` without the record)."""
    return read_game_log(path)[1]


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
    if ("declared",) not in cache:  # the log's declarations, read in order across its steps
        data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
        got = data.get("vars")
        vars_: dict = got if isinstance(got, dict) else {}
        labels = {
            str(k): v["label"] for k, v in vars_.items() if isinstance(v, dict) and isinstance(v.get("label"), str)
        }
        wins = {str(k): v["wins"] for k, v in vars_.items() if isinstance(v, dict) and isinstance(v.get("wins"), dict)}
        start = {str(k): v.get("initial", 0) for k, v in vars_.items() if isinstance(v, dict)}
        cache[("declared",)] = Declared(shown_of(vars_), labels, wins, start)
    said = cache[("declared",)]
    out = []
    for ev in step["events"]:
        try:
            line = narrate(said.view(ev) if isinstance(ev, dict) else ev, draw_lowest=lowest)
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
