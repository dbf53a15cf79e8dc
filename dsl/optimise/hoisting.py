"""Hoisting: a whole-hand filter for a card test with a costly part that does not
read the card (``card.suit != H or sum_seats(...) > 0``), that part worked out at
most once per call, for the first card that needs it."""

from __future__ import annotations

from itertools import compress
from typing import Any, Callable

from lark import Token, Tree

from ..errors import Pos
from ..cells import Cell
from ..expr import BOUND, Scope
from ..syntax import call_args
from .tables import CONTEXT_LIMIT, UNSEEN, Optimising, make_key, table_key

_CARD_BINDERS = ("count", "any", "all")
READS_PART = object()  # kept for a card whose value read the part worked out apart
_KEYS = (
    bool,
    int,
    str,
    type(None),
)  # the values of a part its cards' values are kept by  # their second argument is a card test of its own


def _reads_card(node) -> bool:
    """Whether ``node`` reads the card under test (a ``card`` not bound anew by a
    ``count``/``any``/``all`` inside it: ``(ZONE, TEST)`` binds it, ``(ZONE,
    NAME, TEST)`` leaves it to the card under test)."""
    if isinstance(node, Token):
        return False
    if node.data == "name":
        return str(node.children[0]) == "card"
    if node.data == "call" and str(node.children[0]) in _CARD_BINDERS:
        args = call_args(node)
        return any(_reads_card(a) for a in (args[:1] if len(args) == 2 else args))
    return any(_reads_card(ch) for ch in node.children if ch is not None)


def _hoistable(tree) -> dict[int, int]:
    """The largest parts of ``tree`` that do not read the card and call a
    function (the costly parts): id(node) -> its slot. Parts inside a
    function's arguments are left alone (a function may bind ``seat`` or
    ``card`` anew there)."""
    found: dict[int, int] = {}

    def visit(node) -> None:
        if not isinstance(node, Tree):
            return
        if not _reads_card(node) and any(isinstance(t, Tree) and t.data == "call" for t in node.iter_subtrees()):
            found[id(node)] = len(found)
            return
        if node.data == "call":
            return
        for ch in node.children:
            visit(ch)

    visit(tree)
    return found


class Hoisting(Optimising):
    """Compiles a card test with each part that does not read the card worked
    out at most once per whole-hand filter call (when first needed, so that
    what is evaluated, and any error it raises, is what the per-card closure
    does)."""

    def __init__(self, text, pos, scope, bound, slots: dict[int, int], cell: Cell, used: Cell):
        super().__init__(text, pos, scope, bound)
        self.slots, self.cell, self.used = slots, cell, used
        self.parts: dict[int, Callable] = {}  # slot -> the part worked out once per call

    def c(self, node):
        fn, k = super().c(node)
        i = self.slots.get(id(node)) if isinstance(node, Tree) else None
        if i is None:
            return fn, k
        cell, used = self.cell, self.used

        def part(st, s, c):  # the part, worked out once per call (without marking the card as reading it)
            memo = cell.v
            if i in memo:
                return memo[i]
            v = memo[i] = fn(st, s, c)
            return v

        self.parts[i] = part

        def once(st, s, c):
            used.v = True  # the card's value read this part
            memo = cell.v
            if i in memo:
                return memo[i]
            v = memo[i] = fn(st, s, c)
            return v

        return once, k


def hoisting_filter(text: str, pos: Pos, scope: Scope, tree):
    """A whole-hand filter for a card test with a costly part that does not
    read the card (``card.suit != H or sum_seats(...) > 0``): that part is
    evaluated once per call, for the first card that needs it, and its value
    reused for the others (the seat and the state are the same for every card
    of a call). None when the test has no such part."""
    slots = _hoistable(tree)
    if not slots:
        return None
    cell = Cell()
    used = Cell(False)
    hoister = Hoisting(text, pos, scope, BOUND["card"], slots, cell, used)
    fn, _ = hoister.c(tree)
    # the rest of the test: if it reads only the card, the hand's values and the cards of
    # shared zones, a card's value that read none of the parts worked out apart depends on
    # those alone, and is kept per set of them. With one part worked out apart, a card that
    # read it reads it again for the same set (what it reads before it is the same), and its
    # value depends on the part's value besides: it is kept per set and that value
    hoisted = frozenset(slots)
    key = table_key(tree, Optimising(text, pos, scope, BOUND["card"]), hoisted)
    if key is not None and all(z in scope.zones for z in key[1]):
        values, zones = key
        parts = [values[v] for v in sorted(values) if v != "card"] + [zones[z] for z in sorted(zones)]
        tables: dict = {}
        by_part: dict = {}  # (set of values, the part's value) -> card -> value (of any card met with them)
        part: Any = hoister.parts[0] if len(slots) == 1 else None
        key_of = make_key(parts)

        def kept(st, s, cards):
            k = key_of(st, s, None)
            tab = tables.get(k)
            if tab is None:
                if len(tables) >= CONTEXT_LIMIT:
                    tables.clear()
                tab = tables[k] = {}
            vals = list(map(tab.get, cards))
            if None not in vals and READS_PART not in vals:  # every card's value kept (none is None), in C
                return list(compress(cards, vals))
            saved = cell.v
            cell.v = {}
            try:
                reads: Any = None  # the values kept for the part's value, once it is worked out (False: none)
                if (
                    part is not None and None not in vals
                ):  # only cards that read the part: it is worked out, as they would
                    reads = _reads(k, part(st, s, None))
                    if reads is not False:
                        vals = list(map(reads.get, cards))
                        if None not in vals:
                            return list(compress(cards, vals))
                out = []
                for c in cards:
                    v = tab.get(c, UNSEEN)
                    if v is READS_PART:
                        if reads is None:
                            reads = _reads(k, part(st, s, c))
                        v = reads.get(c, UNSEEN) if reads is not False else UNSEEN
                        if v is UNSEEN:
                            v = fn(st, s, c)
                            if reads is not False:
                                reads[c] = v
                    elif v is UNSEEN:
                        used.v = False
                        v = fn(st, s, c)
                        if not used.v:
                            tab[c] = v
                            if type(reads) is dict:
                                reads[c] = v
                        elif part is not None:
                            tab[c] = READS_PART
                            if reads is None:
                                reads = _reads(k, part(st, s, c))  # worked out for this card already
                            if reads is not False:
                                reads[c] = v
                    elif type(reads) is dict:
                        reads[c] = v
                    if v:
                        out.append(c)
                return out
            finally:
                cell.v = saved

        def _reads(k, pv):
            """The values kept for the cards met with ``k`` and the part's value ``pv``
            (False when the part's value is not one they are kept by)."""
            if type(pv) not in _KEYS:
                return False
            reads = by_part.get((k, pv))
            if reads is None:
                if len(by_part) >= CONTEXT_LIMIT:
                    by_part.clear()
                reads = by_part[(k, pv)] = {}
            return reads

        kept.kept_per = "values, and the part's value" if part is not None else "values"  # type: ignore[attr-defined]
        return kept

    def filt(st, s, cards):
        saved = cell.v
        cell.v = {}
        try:
            return [c for c in cards if fn(st, s, c)]
        finally:
            cell.v = saved

    return filt
