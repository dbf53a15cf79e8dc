"""What the commands share: option groups, loading the rules, reading deck
and deal files, checking players and agents."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Callable, Iterator

import click

from ..dsl.cards import parse_card
from ..dsl.errors import Pos, RuleError, remember_text
from ..dsl.loader import Limits, load_yaml, split_ref
from ..dsl.text import safe, split_lines
from ..dsl.model import GameDef, load_game
from ..interpreter.agents import make_agents
from .args import check_agents
from .paths import allow_path_option, allowed_paths

EXIT_USAGE = 2


# -- helpers -----------------------------------------------------------------------
def option_flags(f):
    f = click.option(
        "--option",
        "-o",
        "options",
        multiple=True,
        metavar="NAME",
        help="Switch on a named option of the rule file (repeatable).",
    )(f)
    return f


# The loader's limits a user can raise: (option, field of Limits, the most it may be raised to, help).
# Applied in this order; click shows them in the reverse one.
LIMIT_OPTIONS = (
    ("--max-quote-length", "quote_length", None, "Refuse a quoted passage longer than this many characters."),
    ("--max-expr-depth", "expr_depth", 200, "Refuse an expression nested deeper than this (at most 200)."),
    ("--max-expr-length", "expr_length", None, "Refuse an expression longer than this many characters."),
    ("--max-int-digits", "int_digits", 4000, "Refuse an integer of more digits than this (at most 4000)."),
    ("--max-cards", "cards", 100_000, "Refuse a pack, hand or deal of more cards than this (at most 100000)."),
    ("--max-players", "players", 10_000, "Refuse a game for more players than this (at most 10000)."),
    ("--max-nodes", "nodes", None, "Refuse a document of more nodes than this (after aliases)."),
    ("--max-depth", "depth", None, "Refuse a document nested deeper than this."),
    ("--max-file-size", "file_bytes", None, "Refuse a rule or deal file larger than this many bytes."),
)


def limit_flags(f):
    """Resource limits of the loader, which a user can raise, and --allow-path."""
    d = Limits()
    for flag, field, most, text in LIMIT_OPTIONS:
        f = click.option(
            flag, type=click.IntRange(min=1, max=most), default=getattr(d, field), show_default=True, help=text
        )(f)
    return allow_path_option(f)


def make_limits(kw: dict) -> Limits:
    values = {field: kw.pop(flag[2:].replace("-", "_")) for flag, field, _, _ in LIMIT_OPTIONS}
    return Limits(**values, allow=allowed_paths(kw.pop("allow_path", ())))


def with_options(rules: str, options) -> tuple[str, tuple]:
    """RULES may name options after a plus, as ``compare`` takes them:
    ``hearts/foster+sweepstakes`` is ``hearts/foster -o sweepstakes``."""
    base, named = split_ref(rules)
    return base, tuple(named) + tuple(o for o in options if o not in named)


def load(rules: str, options, limits: Limits | None = None) -> GameDef:
    return load_game(rules, tuple(options), limits)


def players_for(game: GameDef, players: int | None) -> int:
    if players is None:
        return game.min_players
    if not (game.min_players <= players <= game.max_players):
        raise RuleError(
            f"{game.id} is for {game.min_players} to {game.max_players} players, not {players}",
            game.doc.pos(("players",)),
            code="players",
        )
    return players


def read_deck(path: str, limits: Limits | None = None):
    """The cards of a deck file, each with the place it is written."""
    text = read_text(path, limits, "deck file")
    cards = []
    for ln, line in enumerate(split_lines(text), 1):
        line = line.split("#", 1)[0]  # comments
        col = 0
        for tok in line.replace(",", " ").split(" "):
            if tok:
                c = parse_card(tok)
                if c is None:
                    raise RuleError(
                        f"'{tok}' is not a card (write rank + suit: AS, 10H, KD, 7C)",
                        Pos(path, ln, col + 1),
                        code="deck",
                    )
                cards.append((c, Pos(path, ln, col + 1)))
            col += len(tok) + 1
    if not cards:
        raise RuleError("the deck file holds no cards", Pos(path, 1, 1), code="deck")
    return cards


def check_deck(cards, pack, path: str, n: int):
    """A stacked deck holds each card of the pack exactly once."""
    in_pack = set(pack)
    seen: dict[object, Pos] = {}
    for c, pos in cards:
        if c not in in_pack:
            raise RuleError(f"{c} is not in this game's pack for {n} players", pos, code="deck")
        if c in seen:
            raise RuleError(
                f"{c} is in the deck twice (first at line {seen[c].line}, column {seen[c].col})", pos, code="deck"
            )
        seen[c] = pos
    missing = [c.name for c in pack if c not in seen]
    if missing:
        end = cards[-1][1] if cards else Pos(path, 1, 1)
        raise RuleError(
            f"the deck lacks {len(missing)} card(s) of the pack for {n} players: {', '.join(missing)}", end, code="deck"
        )
    return [c for c, _ in cards]


def read_text(path: str, limits: Limits | None = None, what: str = "file") -> str:
    """A deck or deal file's text: a regular file only, its size bounded, a BOM dropped."""
    from ..dsl.loader import decode_utf8, read_input

    text = decode_utf8(read_input(path, (limits or Limits()).file_bytes, what), path).removeprefix("\ufeff")
    remember_text(path, text)
    return text


def read_deal(path: str, limits: Limits | None = None):
    text = read_text(path, limits, "deal file")
    data, positions = load_yaml(text, path, limits)
    return {"data": data, "positions": positions}


def seat_agents(spec: str | None, n: int, seed):
    return make_agents(check_agents(spec, n), n, seed)


def inputs_of(rules: str, *others) -> list:
    """The files a command reads (for check_targets: no output may replace one)."""
    from ..dsl.loader import is_path

    return [("RULES", rules)] * (is_path(rules) and os.path.isfile(rules)) + [o for o in others if o[1]]


def input_files(*args) -> list:
    """The rule files among the arguments (options after a plus taken off):
    no output may replace one."""
    from ..dsl.loader import is_path, split_ref

    files = ((name, split_ref(ref)[0]) for name, ref in args)
    return [(name, path) for name, path in files if is_path(path) and os.path.isfile(path)]


class Eta:
    """The time left, from the rate of play since the first chunk of games
    came back (the start of the workers and the loading of the rules are no
    part of it): none until a second one has come back a second later."""

    def __init__(self, total: int, clock=None):
        import time

        self.total, self.clock = total, clock or time.monotonic
        self.count, self.first, self.t0 = 0, 0, 0.0

    def done(self, k: int) -> str | None:
        now = self.clock()
        if self.count == 0:
            self.first, self.t0 = k, now
        self.count += k
        played, spent = self.count - self.first, now - self.t0
        if played <= 0 or spent < 1.0 or self.count >= self.total:  # chunks of several workers come together
            return None
        left = int((self.total - self.count) * spent / played + 0.5)
        return f"about {left // 60}:{left % 60:02d} left"


@contextmanager
def progress(total: int, label: str, quiet: bool = False) -> Iterator[Callable[[int], None] | None]:
    """A progress bar with the time left (``Eta``) on standard error, for work
    that may run for more than a few seconds (``simulate``, ``compare``,
    ``reconstruct``): shown only when standard error is a terminal and not
    ``quiet`` (``--json``), so that a pipe or a file gets nothing of it. Yields
    the function to call as k more units are done, or None when no bar is
    shown."""
    if quiet or total <= 0 or not sys.stderr.isatty():
        yield None
        return
    eta = Eta(total)
    shown: Callable[[str | None], str | None] = lambda x: x  # noqa: E731  (shows the time left that Eta gives)
    with click.progressbar(
        length=total,
        label=safe(label, True),
        file=sys.stderr,
        show_eta=False,  # click's counts the start of the workers as playing time: Eta's does not
        item_show_func=shown,
    ) as bar:

        def step(k: int) -> None:
            bar.update(k, eta.done(k))

        yield step
