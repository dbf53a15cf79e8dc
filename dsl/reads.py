"""What an expression reads, worked out once from its text: the zones whose cards it looks at and
the counters it reads. The interpreter uses it to know what hidden information a counter's value
depends on (``interpreter/visibility.py``): an expression that reads no zone and no counter costs
nothing when it is evaluated.

A zone is read when the expression looks at its cards (``count(hand(seat), TEST)``, ``sum_cards``,
``max_cards``, ``run``, ``any``, ``all``, ``holder``); ``count(ZONE)`` alone reads its size, which
every seat sees. A zone of each seat is read for the seat in hand (``hand(seat)``, ``seat`` bound by
the effect) or, written otherwise (``hand(dealer)``, or ``seat`` rebound by ``top_seat``,
``sum_seats`` …), for every seat. A ``count``/``any``/``all`` whose test reads the card alone and
single values (no ``seat``, no zone, no card named outside it) also names the cards of the pack that
pass the test: knowing where each of those lies tells the count as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from lark import Token, Tree

from .compiler import Expr, Scope, compile_expr, parser
from .errors import Pos, RuleError

# functions that bind ``seat`` to every seat in turn inside their argument
_SEAT_BINDERS = frozenset({"top_seat", "count_seats", "sum_seats", "max_seats", "min_seats", "team_sum"})
# those that bind it to every seat of the table (``team_sum`` binds it over the side of the seat in hand)
OVER_ALL_SEATS = _SEAT_BINDERS - {"team_sum"}
# functions that look at the cards of the zone given first
_ZONE_FOLDS = frozenset(
    {
        "count",
        "any",
        "all",
        "sum_cards",
        "max_cards",
        "run",
        "best",
        "count_of",
        "cards_of",
        "size_of",
        "top_of",
        "value_of",
        "tail_of",
    }
)
_TEAM_FUNCTIONS = frozenset({"team", "teams", "team_sum"})
# functions that give their argument again in another kind: they read what it reads, branches included
_CONVERSIONS = frozenset({"index"})
# names a test may not hold for the cards of the pack that pass it to tell the count
_IMPURE = _SEAT_BINDERS | _ZONE_FOLDS | {"holder", "seat", "value", "led_card", "team", "teams", "onto"}


@dataclass(frozen=True)
class Cell:
    """A counter read: ``name``, kept per seat or not; ``each``: every seat's cell (else the seat's in hand)."""

    name: str
    per_seat: bool
    each: bool


@dataclass(frozen=True)
class ZoneRead:
    """The cards of a zone looked at. ``each``: a zone of each seat, read for every seat (else
    for the seat in hand). ``test``: the card test of a count whose passing cards, known, tell it."""

    name: str
    per_seat: bool
    each: bool
    test: Expr | None = None


@dataclass(frozen=True)
class Branch:
    """``if COND then A else B`` (not inside a function that binds a card or a seat): the value
    depends on what COND reads and on the branch taken alone. ``cond`` is COND compiled on its own."""

    cond: Expr
    test: "Reads | None"
    then: "Reads | None"
    other: "Reads | None"


@dataclass(frozen=True)
class Reads:
    zones: tuple[ZoneRead, ...]
    cells: tuple[Cell, ...]
    branches: tuple[Branch, ...] = ()


def reads_of(text: str, scope: Scope, pos: Pos | None = None, teams: str | None = None) -> Reads | None:
    """What the expression ``text`` reads, or None when it reads no card of a zone and no counter
    (its value then tells nothing hidden). ``teams``: the text of the expression that makes the
    sides each hand (``teams: {of: …}``), read by ``team``, ``teams`` and ``team_sum``."""
    tree = parser().parse(str(text))
    return _Walk(str(text), scope, pos or Pos("<expr>", 1, 1), teams).reads(tree)


class _Walk:
    def __init__(self, text: str, scope: Scope, pos: Pos, teams: str | None):
        self.text, self.scope, self.pos, self.teams = text, scope, pos, teams
        self.zones: list[ZoneRead] = []
        self.cells: list[Cell] = []
        self._teams_done = False
        self.branches: list[Branch] = []

    def reads(self, tree: Any) -> Reads | None:
        """What ``tree`` (a top-level part of the expression) reads, or None for nothing hidden."""
        self.visit(tree, False, frozenset(), top=True)
        if not self.zones and not self.cells and not self.branches:
            return None
        return Reads(tuple(dict.fromkeys(self.zones)), tuple(dict.fromkeys(self.cells)), tuple(self.branches))

    def part(self, node: Any) -> Reads | None:
        return _Walk(self.text, self.scope, self.pos, self.teams).reads(node)

    def visit(self, node: Any, rebound: bool, local: frozenset, top: bool = False) -> None:
        if isinstance(node, Token) or not isinstance(node, Tree):
            return
        sc = self.scope
        if top and node.data == "cond":
            cond = self.compiled(node.children[0], "seat")
            if cond is not None:
                asked, then, other = (self.part(ch) for ch in node.children)
                if asked is not None or then is not None or other is not None:
                    self.branches.append(Branch(cond, asked, then, other))
                return
        if node.data == "name":
            n = str(node.children[0])
            if n in local:
                return
            if n in sc.vars:
                self.cells.append(Cell(n, False, False))
            elif n in sc.zones:
                self.zones.append(ZoneRead(n, False, False))
            elif n in sc.families:  # a family of piles: each of its zones
                self.zones.extend(ZoneRead(z, False, False) for z in sc.families[n])
            return
        if node.data == "call":
            name = str(node.children[0])
            args = list(node.children[1].children) if len(node.children) > 1 else []
            if name in _CONVERSIONS and len(args) == 1:  # index(SEAT): the same value, read the same way
                self.visit(args[0], rebound, local, top)
                return
            if name in sc.seat_zones or name in sc.seat_vars:
                each = rebound or not _is_seat(args[0])
                if name in sc.seat_zones:
                    self.zones.append(ZoneRead(name, True, each))
                else:
                    self.cells.append(Cell(name, True, each))
                for a in args:
                    self.visit(a, rebound, local)
                return
            if name in _TEAM_FUNCTIONS:
                self.team_reads()
            if name == "holder":
                card = args[0] if args else None
                # holder(AS): where the card lies tells it
                where = (
                    self.compiled_text(f"card == {card.children[0]}", "card")
                    if isinstance(card, Tree) and card.data == "card"
                    else None
                )
                self.zones.append(ZoneRead("hand", True, True, where))
            if name in _ZONE_FOLDS and args:
                zone, rest = args[0], args[1:]
                if name == "count" and not rest:  # the zone's size: seen by every seat
                    if isinstance(zone, Tree) and zone.data == "call":
                        for a in zone.children[1].children if len(zone.children) > 1 else []:
                            self.visit(a, rebound, local)
                    return
                before = len(self.zones)
                self.visit(zone, rebound, local)
                if name in ("count", "any", "all") and len(rest) == 1 and len(self.zones) == before + 1:
                    pure = self.pure_test(rest[0], local)
                    if pure is not None:
                        z = self.zones[-1]
                        self.zones[-1] = ZoneRead(z.name, z.per_seat, z.each, pure)
                if len(rest) == 2:  # (ZONE, NAME, TEST): NAME is the zone's card
                    nm = rest[0]
                    if isinstance(nm, Tree) and nm.data == "name":
                        local = local | {str(nm.children[0])}
                    rest = rest[1:]
                for a in rest:
                    self.visit(a, rebound, local)
                return
            inner = rebound or name in _SEAT_BINDERS
            for a in args:
                self.visit(a, inner, local)
            return
        for ch in node.children:
            self.visit(ch, rebound, local)

    def team_reads(self) -> None:
        if self.teams is None or self._teams_done:
            return
        self._teams_done = True
        self.visit(parser().parse(self.teams), True, frozenset())

    def pure_test(self, node: Any, local: frozenset) -> Expr | None:
        """The test of a count as a card test of its own, when it reads the card and single values alone."""
        sc = self.scope
        names = {str(t) for t in node.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME")}
        if names & (_IMPURE | local | sc.zones | sc.seat_zones | set(sc.families)):
            return None
        return self.compiled(node, "card")

    def compiled(self, node: Any, kind: str) -> Expr | None:
        """The part ``node`` of the expression compiled on its own (``kind``: what it binds)."""
        meta = getattr(node, "meta", None)
        if meta is None or getattr(meta, "empty", True):
            return None
        return self.compiled_text(self.text[meta.start_pos : meta.end_pos], kind)

    def compiled_text(self, src: str, kind: str) -> Expr | None:
        try:
            return compile_expr(src, self.pos, self.scope, kind)
        except RuleError:
            return None


def reads_seat(text: str) -> bool:
    """Whether ``text`` reads the seat in hand: ``seat`` anywhere but inside a function that binds
    it to every seat of the table (``top_seat(sq(seat))`` does not; ``sq(seat) + 1`` and
    ``team_sum(sq(seat))``, over the seat's own side, do)."""
    todo: list[Any] = [parser().parse(str(text))]
    while todo:
        node = todo.pop()
        if not isinstance(node, Tree):
            continue
        if node.data == "name" and str(node.children[0]) == "seat":
            return True
        if node.data == "call" and str(node.children[0]) in OVER_ALL_SEATS:
            continue
        todo.extend(node.children)
    return False


def _is_seat(node: Any) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) == "seat"


def _effects_of(obj: Any, seen: set) -> Iterator[Any]:
    """Every effect held anywhere in the compiled game ``obj`` (steps, their tricks' effects, the end)."""
    from .gamedef import Effect

    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Effect):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from _effects_of(x, seen)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from _effects_of(x, seen)
    elif hasattr(obj, "__dataclass_fields__") and not isinstance(obj, (Expr, Scope)):
        for f in obj.__dataclass_fields__:
            if not f.startswith("_") and f not in ("doc", "scope"):
                yield from _effects_of(getattr(obj, f, None), seen)


def reading_cards(game: Any, others: bool = False) -> dict[str, Pos]:
    """The counters whose value may be worked out from cards of the seats' zones (directly, or from
    another such counter), each with the place of an effect that sets it so: {counter: position}.
    ``others``: only those worked out from the cards of another seat than the one whose cell it is."""
    scope = game.scope
    if scope is None:
        return {}
    teams = game.teams[1].text if game.teams is not None and game.teams[0] == "hand" else None
    sets: list[tuple[str, Pos, list[Reads]]] = []
    for e in [*_effects_of(game.steps, set()), *_effects_of(game.game_end, set())]:
        if e.op not in ("set", "add"):
            continue
        exprs = [e.when, *(ex for _, ex in e.args.values())]
        found = [r for r in (reads_of(x.text, scope, x.pos, teams) for x in exprs if x is not None) if r is not None]
        for name in e.args:
            sets.append((name, e.pos, found))
    any_seat = _fixed_point(sets, None)
    return _fixed_point(sets, any_seat) if others else any_seat


def _fixed_point(sets: list, any_seat: dict | None) -> dict[str, Pos]:
    out: dict[str, Pos] = {}
    changed = True
    while changed:
        changed = False
        for name, pos, found in sets:
            if name not in out and any(_reads_cards(r, out, any_seat) for r in found):
                out[name] = pos
                changed = True
    return out


def _reads_cards(r: Reads, hidden: dict, any_seat: dict | None) -> bool:
    """Whether ``r`` reads the cards of a seat's zone, or a counter in ``hidden``; with ``any_seat``
    (the counters reading any seat's cards), only another seat's cards or counters of another seat."""
    if any_seat is None:
        if any(z.per_seat for z in r.zones) or any(c.name in hidden for c in r.cells):
            return True
    elif any(z.per_seat and z.each for z in r.zones) or any(
        c.name in hidden or (c.each and c.name in any_seat) for c in r.cells
    ):
        return True
    return any(
        x is not None and _reads_cards(x, hidden, any_seat) for b in r.branches for x in (b.test, b.then, b.other)
    )
