"""Values kept while a game is played, per what they read: the parts of an
expression evaluated once per card of a zone (``Tabling``), the truths of a
``count``/``any``/``all`` (``binder_truths``), a whole expression that passes over
zones (``Tabling.whole``). ``table_key`` decides, on the syntax, what a part's value
depends on; a table maps those values to the part's value.

A table only ever maps a key to the value the part gives for it (worked out, and
any error raised, by the part itself the first time): two threads filling one
table write the same value under a key, and each dict operation is atomic, so the
tables need no lock. What one evaluation hands to another (the card a ``count``
names, the state a lookup works on) is kept per thread (``cells.Cell``).
"""

from __future__ import annotations

from typing import Any, Callable

from lark import Tree

from ..cards import RANKS, SUITS
from ..cells import Cell
from ..closures import PLAIN_VALUES, SEAT_VALUES, Compiler
from ..expr import BOUND, Fn, Scope
from ..syntax import call_args, names_in, plain_name, source
from .groups import grouped

KEPT_CALLS: list[Callable] = []
"""Compilers of calls whose values are kept by a module that builds on this one (``counts``
registers its own when ``optimise`` is imported): each gives a function, or None for a call
it does not keep."""


class Optimising(Compiler):
    """The compiler with the optimisations on: a part evaluated once per card of a
    zone is compiled by ``Tabling``, and a ``count``/``any``/``all``/``sum_cards``/
    ``max_cards`` looks its cards' values up (``binder_truths``) when it can."""

    def sub(self, bound: frozenset, locals_: dict, per_card: bool = False, top=None) -> Compiler:
        if per_card:
            return Tabling(self.text, self.pos, self.scope, bound, locals_, top=top)
        return Optimising(self.text, self.pos, self.scope, bound, locals_)

    def truths(self, args, conv: Callable = bool) -> Callable | None:
        return binder_truths(self, args, conv)

    def c_call(self, node):
        f, k = super().c_call(node)
        g = grouped(self, node)  # a pass over a zone reading one field of the card
        for kept in KEPT_CALLS:  # e.g. a count over every seat's zone, kept while they hold the same cards
            if g is not None:
                break
            g = kept(self, node)
        return (f, k) if g is None else (g, k)


class _Truths(dict):
    """A test's truth for each card of a zone, for one set of the other values it reads,
    worked out (the test run, any error raised) when first asked for."""

    __slots__ = ("ev", "ctx", "conv")

    def __init__(self, ev: Callable, ctx: Cell, conv: Callable = bool):
        super().__init__()
        self.ev, self.ctx, self.conv = ev, ctx, conv

    def __missing__(self, x):
        st, s, c = self.ctx.v
        v = self[x] = self.conv(self.ev(st, s, c, x))
        return v


_LOOKUP_LIMIT = 1 << 11  # sets of values a count/any/all keeps truths for, then started again


def binder_truths(cp: Compiler, args, conv: Callable = bool) -> Callable | None:
    """For ``count``/``any``/``all(ZONE, TEST)`` or ``(ZONE, NAME, TEST)`` whose test reads
    nothing but cards and the hand's single values (``table_key``, no zone): a function
    of (state, seat, card, reduce) giving ``reduce`` (``sum``, ``any``, ``all``) of the truth
    of each card of the zone, looked up per set of the values the test reads besides the
    zone's card (the card, the named cards of
    enclosing counts, ``trump`` …). ``count(hand(seat), y, y.suit == card.suit and rank(y)
    >= rank(x))`` inside a sum over the hand is then a lookup per card of the hand.
    ``conv``: ``int`` for the number of a ``sum_cards``/``max_cards``. None for any other
    test."""
    if len(args) == 2:
        key = table_key(args[1], Optimising(cp.text, cp.pos, cp.scope, cp.bound | BOUND["card"], cp.locals))
        if key is None or key[1]:
            return None
        t = cp.lazy(args[1], "card")
        own = "card"

        def ev(st, s, c, x):
            return t(st, s, x)

    else:
        name = plain_name(args[1])
        if name is None:
            return None
        cell, _ = cp.named(args[1], "card")
        key = table_key(args[2], Optimising(cp.text, cp.pos, cp.scope, cp.bound, {**cp.locals, name: cell}))
        if key is None or key[1]:
            return None
        tn = cp.lazy(args[2], "card", local=(name, cell))
        own = "~" + name

        def ev(st, s, c, x):
            cell.v = x
            return tn(st, s, c)

    ctx = Cell()
    values = key[0]
    parts = [values[v] for v in sorted(values) if v != own]
    z, _ = cp.c(args[0])
    if not parts:
        look = _Truths(ev, ctx, conv).__getitem__

        def only(st, s, c, reduce):
            ctx.v = (st, s, c)
            v = reduce(map(look, z(st, s, c)))
            ctx.v = None  # the state is not kept once the count is made
            return v

        return only
    tables: dict = {}
    key_of = make_key(parts)  # one part (the usual case: the card, or a named card) is its own key

    def truths(st, s, c, reduce):
        k = key_of(st, s, c)
        tab = tables.get(k)
        if tab is None:
            if len(tables) >= _LOOKUP_LIMIT:
                tables.clear()
            tab = tables[k] = _Truths(ev, ctx, conv)
        ctx.v = (st, s, c)
        v = reduce(map(tab.__getitem__, z(st, s, c)))
        ctx.v = None
        return v

    return truths


# -- names whose value is known when the file is loaded ---------------------------------
CARD_ONLY_CALLS = frozenset({"rank"})


def literal_names(scope: Scope) -> set[str]:
    """The names whose value is known when the file is loaded (no state read)."""
    return {
        "true",
        "false",
        "none",
        *SUITS,
        *RANKS,
        *scope.currencies,
        *scope.orders,
        *scope.declarations,
        *scope.combinations,
    }


UNSEEN = object()
CONTEXT_LIMIT = 256  # tables kept per whole-hand filter (one per set of values read), then started again


# -- the parts of an argument evaluated once per card of a zone: their values kept -----------
BINDERS = frozenset({"count", "any", "all", "sum_cards", "max_cards"})  # a zone, then a card test or number
_PURE_CALLS = frozenset(
    {"rank", "run", "min", "max", "abs", "best", "count_of", "cards_of", "size_of", "top_of", "value_of"}
)  # a function of their arguments alone
_ZONE_TABLE_LIMIT = 1 << 12  # values kept per part keyed by a zone's cards (new at every hand), then started again
_TABLE_LIMIT = 1 << 16  # values kept per part keyed by cards and values, then started again


def _cell_getter(cell: Cell) -> Fn:
    return lambda st, s, c: cell.v


def _state_getter(attr: str) -> Fn:
    return lambda st, s, c: getattr(st, attr)


def _var_getter(name: str) -> Fn:
    return lambda st, s, c: st.vars[name]


def _cards_getter(zone: Fn) -> Fn:
    return lambda st, s, c: tuple(zone(st, s, c))


def table_key(node, cp: Compiler, skip: frozenset = frozenset()) -> tuple[dict[str, Fn], dict[str, Fn]] | None:
    """What the value of ``node`` depends on, if that is nothing but cards (the card
    under test, the cards an enclosing ``count``/``any``/``all``/``sum_cards``/``max_cards``
    names), their fields and ranks in an order, literals, the seat, the hand's single
    values (``led``, ``led_card``, ``trump``, ``dealer``, ``tricks_played``, …), the game's
    counters and the cards of zones (``hand(seat)``, ``trick``): (the values, each by
    name with how to read it; the zones, each by its text with how to read its cards).
    None when ``node`` reads anything else (money, counters of a seat, tricks won, a
    function of the seats, ``value``), or a zone named by a card of its own. Decided on
    the syntax, when the file is loaded: an expression changes nothing, so while these
    are the same its value is. ``skip``: the ids of parts left out (read apart)."""
    values: dict[str, Fn] = {}
    zones: dict[str, Any] = {}  # text -> the zone's node
    sc, literal = cp.scope, literal_names(cp.scope)

    def visit(n, inner: frozenset) -> bool:
        if not isinstance(n, Tree) or id(n) in skip:
            return True
        d = n.data
        if d == "name":
            name = str(n.children[0])
            if name in inner:
                return True
            if name in cp.locals:
                values["~" + name] = _cell_getter(cp.locals[name])
            elif name in ("card", "seat"):
                if name not in cp.bound:
                    return False
                values[name] = (lambda st, s, c: c) if name == "card" else (lambda st, s, c: s)
            elif name in SEAT_VALUES:
                values[name] = _state_getter(SEAT_VALUES[name])
            elif name in PLAIN_VALUES:
                values[name] = _state_getter(PLAIN_VALUES[name])
            elif name == "led_card":
                values[name] = lambda st, s, c: led_card_of(st)
            elif name in sc.vars:
                values[name] = _var_getter(name)
            elif name in sc.zones:
                zones[name] = n
            else:
                return name in literal
            return True
        if d == "call":
            fname = str(n.children[0])
            args = call_args(n)
            if fname in sc.seat_zones:
                text = source(cp.text, n)
                if len(args) != 1 or text is None or names_in(args[0]) & inner or not visit(args[0], inner):
                    return False
                zones[text] = n
                return True
            if fname in sc.seat_vars:
                return False  # a counter of a seat, named like a function: not a function of its seat
            if fname in BINDERS:
                if not args or not visit(args[0], inner):
                    return False
                if len(args) == 2:
                    return visit(args[1], inner | {"card"})
                if len(args) == 3:
                    own = plain_name(args[1])
                    return own is not None and visit(args[2], inner | {own})
                return len(args) == 1
            if fname in _PURE_CALLS:
                return all(visit(a, inner) for a in args)
            return False
        return all(visit(ch, inner) for ch in n.children)

    if not isinstance(node, Tree) or not visit(node, frozenset()):
        return None
    plain = Optimising(cp.text, cp.pos, cp.scope, cp.bound, cp.locals)
    return values, {z: _cards_getter(plain.c(zn)[0]) for z, zn in zones.items()}


def _nested(node) -> bool:
    """Whether a binder's argument holds another binder (or a ``run``): worked out again it
    costs a pass over a zone for each card, more than looking up a zone's cards does."""
    args = call_args(node)
    return any(isinstance(a, Tree) and _passes_over_a_zone(a) for a in args[1:])


def _passes_over_a_zone(tree) -> bool:
    """Whether ``tree`` holds a binder with a card test or a number (``count(ZONE)`` alone is
    a length) or a ``run``: each costs a pass over a zone's cards."""
    for sub in tree.iter_subtrees():
        if sub.data == "call":
            name = str(sub.children[0])
            args = call_args(sub)
            if name == "run" or (name in BINDERS and len(args) > 1):
                return True
    return False


def _trivial(node) -> bool:
    """A leaf, a list, or a field of a named card: reading it is as quick as looking it up."""
    return (
        not isinstance(node, Tree)
        or node.data in ("name", "number", "string", "card", "list")
        or (node.data == "attr" and isinstance(node.children[0], Tree) and node.children[0].data == "name")
    )


def _has_cond(node) -> bool:
    return any(t.data == "cond" for t in node.iter_subtrees())


def make_key(parts: list[Fn]) -> Fn:
    """A function of (state, seat, card) giving the values ``parts`` read: the value itself
    for one part, a tuple for more (unrolled up to three: a hot path)."""
    if len(parts) == 1:
        (p,) = parts

        def key(st, s, c):
            return p(st, s, c)

    elif len(parts) == 2:
        p, q = parts

        def key(st, s, c):
            return p(st, s, c), q(st, s, c)

    elif len(parts) == 3:
        p, q, r = parts

        def key(st, s, c):
            return p(st, s, c), q(st, s, c), r(st, s, c)

    else:

        def key(st, s, c):
            return tuple([p(st, s, c) for p in parts])

    return key


def tabulate(f: Fn, parts: list[Fn], table: dict, limit: int) -> Fn:
    """``f`` with its value kept in ``table`` for each set of the values ``parts``
    read (each part a function of (state, seat, card)); a value is worked out,
    and any error raised, by ``f`` itself the first time."""
    get = table.get
    if not parts:  # the card alone: the card is the key

        def by_card(st, s, c):
            v = get(c, UNSEEN)
            if v is UNSEEN:
                v = f(st, s, c)
                if len(table) >= limit:
                    table.clear()
                table[c] = v
            return v

        return by_card
    key = make_key(parts)

    def tabled(st, s, c):
        k = key(st, s, c)
        v = get(k, UNSEEN)
        if v is UNSEEN:
            v = f(st, s, c)
            if len(table) >= limit:
                table.clear()
            table[k] = v
        return v

    return tabled


class Tabling(Optimising):
    """Compiles an argument evaluated once per card of a zone (the test of a
    ``count``/``any``/``all``, the number of a ``sum_cards``/``max_cards``). Its
    parts whose value depends only on cards, values of the hand and cards of zones
    (``table_key``) keep their values: each ``count``/``any``/``all``/``sum_cards``/
    ``max_cards`` inside, per (the values it reads, the cards of its zones), in a
    table shared by every part of the rule file with the same text (the same sum
    over a hand written in three declarations is worked out once per hand and card)
    when it holds a binder or a ``run`` of its own (``_nested``: a single pass over a
    zone costs no more than making the key of the zone's cards does);
    a part with an ``if``, or the whole test of a ``count(ZONE, TEST)``, per the values
    it reads when it reads no zone. ``rank(y) >= rank(x)`` inside a count over a hand
    inside a sum over the hand is then worked out once per hand and pair of cards,
    not once per visit."""

    def __init__(self, text, pos, scope, bound, locals_=None, top=None):
        super().__init__(text, pos, scope, bound, locals_)
        self.top = top  # the whole test of a count(ZONE, TEST), kept per card even without an if

    def c(self, node):
        if isinstance(node, Tree) and not _trivial(node):
            binder = node.data == "call" and str(node.children[0]) in BINDERS
            if binder or node is self.top or _has_cond(node):
                key = table_key(node, self)
                if key is not None and (key[0] or key[1]) and (binder or not key[1]) and (not key[1] or _nested(node)):
                    values, zones = key
                    f, k = super().c(node) if binder else Optimising(*self._ctx()).c(node)
                    text = source(self.text, node)
                    ident = (text, tuple(sorted(values)), tuple(sorted(zones))) if text is not None else object()
                    table = self.scope.tables.setdefault(ident, {})
                    parts = [values[v] for v in sorted(values)] + [zones[z] for z in sorted(zones)]
                    if list(values) == ["card"] and not zones:
                        parts = []  # ``tabulate`` keys by the card itself
                    return tabulate(f, parts, table, _ZONE_TABLE_LIMIT if zones else _TABLE_LIMIT), k
        return super().c(node)

    def _ctx(self):
        return self.text, self.pos, self.scope, self.bound, self.locals

    def whole(self, tree, fn: Fn) -> Fn:
        """A whole expression about a seat or the game (an effect's value, a condition) that
        passes over a zone for each card of a zone (``_nested``: a binder holding a binder or a
        ``run``) and reads nothing but cards, values of the hand and the cards of zones
        (``table_key``): its value kept per those, in a table
        shared by the expressions of the rule file with the same text. A hand's point
        reckoned again in another world of a search where the seat holds the same cards is
        then looked up."""
        if not isinstance(tree, Tree) or not any(
            sub.data == "call" and str(sub.children[0]) in BINDERS and _nested(sub) for sub in tree.iter_subtrees()
        ):
            return fn
        key = table_key(tree, self)
        if key is None or not key[1]:
            return fn
        values, zones = key
        ident = ("whole", self.text, tuple(sorted(values)), tuple(sorted(zones)))
        parts = [values[v] for v in sorted(values)] + [zones[z] for z in sorted(zones)]
        return tabulate(fn, parts, self.scope.tables.setdefault(ident, {}), _ZONE_TABLE_LIMIT)


def led_card_of(st):
    trick = st.zones["trick"]
    return trick[0] if trick else None
