"""Compilation to closures: an expression's parse tree to a closure ``f(st, s, c)``.

* ``st`` is the running game state (``interpreter.state.State``); closures
  read only the documented attributes listed in ``expr.StateView``;
* ``s`` is the seat an expression speaks of (``seat``), or None;
* ``c`` is the card a card test speaks of (``card``), or None.

Names are resolved at compile time against the rule file's vocabulary
(``Scope``): an unknown name, a wrong number of arguments or a card test where
no card is bound is a located error before any game is played. Nothing is
``eval``-ed, and an expression cannot reach any Python attribute: ``.suit``,
``.rank`` and ``.colour`` are grammar-level card fields.

``Compiler`` compiles each construct of the grammar (``c_NAME`` for the tree
node ``NAME``), checking kinds as it goes (``kinds.Checker``); the operators on
numbers and seats are compiled in ``arithmetic``, and a call of a
built-in function is compiled by its builder in ``functions``. It keeps no
value from one call of a closure to the next: the optimisations that do
(``optimise``) are its subclasses, which ``compiler.compile_expr`` uses unless
they are switched off.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from lark import Tree

from .arithmetic import Arithmetic
from .cards import RANKS, SUITS, card as _card
from .cells import Cell
from .errors import Diagnostic, Pos, RuleError
from .expr import BOUND, Fn, Scope
from .functions import FUNCTIONS
from .suggest import suggest
from .syntax import chain_operands, is_bound_card, plain_name, text_of

SEAT_VALUES = {"dealer": "dealer", "leader": "leader", "winner": "winner", "mover": "mover", "other": "other"}
PLAIN_VALUES = {"players": "n", "led": "led", "trump": "trump", "hand_no": "hand_no", "tricks_played": "tricks_played"}


class Compiler(Arithmetic):
    """Compiles the expression ``text`` (found at ``pos``) against ``scope``, with the
    variables ``bound`` (``BOUND``) and the cards named by the expression itself
    (``locals_``: name -> its cell) in reach."""

    def __init__(self, text: str, pos: Pos, scope: Scope, bound: frozenset, locals_: dict | None = None):
        self.text, self.pos, self.scope, self.bound = text, pos, scope, bound
        self.locals: dict[str, Cell] = locals_ or {}  # names given to a zone's card: any(trick, x, …)

    # -- what the optimisations change (``optimise``) --------------------------
    def sub(self, bound: frozenset, locals_: dict, per_card: bool = False, top=None) -> Compiler:
        """The compiler of a part evaluated with other names bound (once per card of a
        zone when ``per_card``, or per seat): here, a plain one. ``top``: the whole test
        of a ``count(ZONE, TEST)``."""
        return Compiler(self.text, self.pos, self.scope, bound, locals_)

    def truths(self, args, conv: Callable = bool) -> Callable | None:
        """For ``count``/``any``/``all``/``sum_cards``/``max_cards`` with arguments ``args``:
        a function of (state, seat, card, reduce) that looks up each card's value instead
        of working it out, or None to work each out (here, always None)."""
        return None

    # -- dispatch -------------------------------------------------------
    def c(self, node) -> tuple[Fn, str]:
        """Compile a node into (closure, type). Types: num bool seat card suit
        rank zone holder list none any."""
        kind = node.data if isinstance(node, Tree) else node.type
        method = getattr(self, "c_" + str(kind), None)
        if method is None:  # pragma: no cover - grammar and compiler out of step
            self.fail(node, f"unsupported construct {kind}")
        return method(node)

    def c_number(self, node):
        v = int(node.children[0])
        return (lambda st, s, c: v), "num"

    def c_string(self, node):
        v = str(node.children[0])[1:-1]
        return (lambda st, s, c: v), "str"

    def c_card(self, node):
        v = _card(str(node.children[0]))
        return (lambda st, s, c: v), "card"

    def const(self, node) -> bool:
        """Whether ``node`` is a literal: its value is known when the file is
        loaded (a number, string, card, suit, rank, true/false/none, or a list
        or negation of those). Decided on the syntax, never by running it."""
        if isinstance(node, Tree):
            if node.data in ("number", "string", "card"):
                return True
            if node.data == "name":
                n = str(node.children[0])
                sc = self.scope
                if (
                    n in self.bound
                    or n in SEAT_VALUES
                    or n in PLAIN_VALUES
                    or n in ("seat", "card", "value")
                    or n in self.locals
                ):
                    return False
                if n in sc.zones or n in sc.vars or n in sc.pools or n in sc.seat_zones or n in sc.seat_vars:
                    return False
                return True  # true/false/none, a suit, a rank, or the name of a currency, order, declaration
            if node.data == "list":
                return all(self.const(ch) for ch in (node.children[0].children if node.children else []))
            if node.data == "neg":
                return self.const(node.children[0])
        return False

    def c_list(self, node):
        children = node.children[0].children if node.children else []
        items = [self.c(ch) for ch in children]
        fns = [f for f, _ in items]
        kinds = {k for _, k in items}
        if all(self.const(ch) for ch in children):
            v = frozenset(f(None, None, None) for f in fns)
            return (lambda st, s, c: v), "list:" + ("|".join(sorted(kinds)))
        return (lambda st, s, c: frozenset(f(st, s, c) for f in fns)), "list"

    def c_name(self, node):
        name = sys.intern(str(node.children[0]))  # the same object as the state's key: found by identity
        sc = self.scope
        cell = self.locals.get(name)
        if cell is not None:
            return (lambda st, s, c: cell.v), "card"
        if name in ("seat", "card"):
            if name not in self.bound:
                what = "a card test" if name == "card" else "an expression about a seat"
                self.fail(node, f"'{name}' is not defined here: it can only be used in {what}")
            if name == "seat":
                return (lambda st, s, c: s), "seat"
            return (lambda st, s, c: c), "card"
        if name == "value":  # the number or suit under test (kept on the state: a card test inside may nest)
            if "value" not in self.bound:
                self.fail(
                    node,
                    "'value' is not defined here: it can only be used in a choose_number or choose_suit step's allow",
                )
            return (lambda st, s, c: st.under_test), ("suit" if "value:suit" in self.bound else "num")
        if name in ("true", "false"):
            v = name == "true"
            return (lambda st, s, c: v), "bool"
        if name == "none":
            return (lambda st, s, c: None), "none"
        if name in SEAT_VALUES:
            a = SEAT_VALUES[name]
            return getter(a), "seat"
        if name == "led_card":  # the first card of the trick in progress (none before the lead)
            return (lambda st, s, c: st.zones["trick"][0] if st.zones["trick"] else None), "card"
        if name == "last_card":  # the card played last to the trick in progress (none before the lead)
            return (lambda st, s, c: st.zones["trick"][-1] if st.zones["trick"] else None), "card"
        if name in PLAIN_VALUES:
            a = PLAIN_VALUES[name]
            return getter(a), ("suit" if name in ("led", "trump") else "num")
        if name == "onto":  # the card a moving card would be laid on (patience; none for an empty pile)
            return (lambda st, s, c: st.onto), "card"
        if name in sc.zones:
            return (lambda st, s, c: st.zones[name]), "zone"
        if name in sc.families:  # a family of piles: the cards of all of them
            piles = sc.families[name]
            return (lambda st, s, c: [x for z in piles for x in st.zones[z]]), "zone"
        if name in sc.vars:
            return (lambda st, s, c: st.vars[name]), ("suit" if name in sc.suit_vars else "num")
        if name in sc.pools:
            return (lambda st, s, c: name), "holder"
        if name in sc.seat_zones or name in sc.seat_vars:
            self.fail(node, f"'{name}' belongs to each seat: write {name}(seat) or {name}(SEAT)")
        if name in SUITS:
            return (lambda st, s, c: name), "suit"
        if name in RANKS:
            return (lambda st, s, c: name), "rank"
        if name in sc.currencies or name in sc.orders or name in sc.declarations or name in sc.combinations:
            return (lambda st, s, c: name), "symbol:" + name
        self.fail(node, f"unknown name '{name}'" + suggest(name, self._known()))

    def _known(self):
        sc = self.scope
        return (
            set(self.bound)
            | set(self.locals)
            | set(SEAT_VALUES)
            | set(PLAIN_VALUES)
            | {"led_card", "last_card", "onto"}
            | sc.zones
            | set(sc.families)
            | sc.seat_zones
            | sc.vars
            | sc.seat_vars
            | sc.pools
            | sc.currencies
            | set(sc.orders)
            | sc.declarations
            | set(sc.combinations)
            | set(FUNCTIONS)
        )

    def c_attr(self, node):
        base, name = node.children
        f, k = self.c(base)
        attr = str(name)
        self.need_card_field(name, k, attr)
        direct = is_bound_card(base)
        if attr == "suit":
            return ((lambda st, s, c: c.suit) if direct else (lambda st, s, c: f(st, s, c).suit)), "suit"
        if attr == "rank":
            return ((lambda st, s, c: c.rank) if direct else (lambda st, s, c: f(st, s, c).rank)), "rank"
        return ((lambda st, s, c: c.colour) if direct else (lambda st, s, c: f(st, s, c).colour)), "str"

    def c_neg(self, node):
        f, k = self.c(node.children[0])
        self.need(node.children[0], k, "num")
        return (lambda st, s, c: -f(st, s, c)), "num"

    def c_not_op(self, node):
        f = self._truth(node.children[0], "'not' takes a truth value")
        return (lambda st, s, c: not f(st, s, c)), "bool"

    def _truth(self, node, what: str = "'and', 'or' join truth values"):
        """An operand of ``and`` / ``or`` / ``not``, the test of an ``if``."""
        f, k = self.c(node)
        self.need_truth(node, k, what)
        return f

    def c_and_op(self, node):
        fns = [self._truth(x) for x in chain_operands(node)]
        if len(fns) == 2:
            a, b = fns
            return (lambda st, s, c: a(st, s, c) and b(st, s, c)), "bool"

        def all_of(st, s, c):
            v = True
            for f in fns:
                v = f(st, s, c)
                if not v:
                    return v
            return v

        return all_of, "bool"

    def c_or_op(self, node):
        fns = [self._truth(x) for x in chain_operands(node)]
        if len(fns) == 2:
            a, b = fns
            return (lambda st, s, c: a(st, s, c) or b(st, s, c)), "bool"

        def any_of(st, s, c):
            v = False
            for f in fns:
                v = f(st, s, c)
                if v:
                    return v
            return v

        return any_of, "bool"

    def c_cond(self, node):
        t = self._truth(node.children[0], "'if' tests a truth value")
        a, ka = self.c(node.children[1])
        b, kb = self.c(node.children[2])
        self.same_branches(node, ka, kb)
        return (lambda st, s, c: a(st, s, c) if t(st, s, c) else b(st, s, c)), (ka if ka == kb else "any")

    def _rank_literal(self, node, other_kind):
        """Numbers compared with a rank are rank names: card.rank == 10."""
        if other_kind in ("rank",) and isinstance(node, Tree) and node.data == "number":
            v = str(node.children[0])
            if v not in RANKS:
                self.fail(node, f"{v} is not a rank")
            return (lambda st, s, c: v), "rank"
        if other_kind == "rank" and isinstance(node, Tree) and node.data == "list" and node.children:
            vals = []
            for ch in node.children[0].children:
                f, k = self._rank_literal(ch, "rank")
                if k != "rank" or not self.const(ch):
                    self.fail(ch, "a list of ranks must hold ranks only (A K Q J 10 … 2)")
                vals.append(f(None, None, None))
            ranks = frozenset(vals)
            return (lambda st, s, c: ranks), "list:rank"
        return self.c(node)

    def _pair(self, node):
        left, right = node.children[0], node.children[-1]
        fl, kl = self.c(left)
        fr, kr = self._rank_literal(right, kl)
        if kr == "rank" and kl == "num":
            fl, kl = self._rank_literal(left, "rank")
        return fl, kl, fr, kr

    def c_compare(self, node):
        fl, kl, fr, kr = self._pair(node)
        op = str(node.children[1])
        self.comparison(node, op, kl, kr)
        f = {
            "==": lambda a, b: a == b,
            "!=": lambda a, b: a != b,
            "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b,
            ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b,
        }[op]
        if self.const(node.children[-1]):
            v = fr(None, None, None)
            left = node.children[0]
            if (
                op in ("==", "!=")
                and isinstance(left, Tree)
                and left.data == "call"
                and str(left.children[0]) == "count"
                and len(left.children[1].children) == 1
            ):
                zarg = left.children[1].children[0]
                zf, zk = self.c(zarg)  # count(ZONE) == k: no count closure
                self.need(zarg, zk, "zone")
                if (
                    v == 0
                    and op == "=="
                    and isinstance(zarg, Tree)
                    and zarg.data == "call"
                    and str(zarg.children[0]) in self.scope.seat_zones
                    and len(zarg.children) > 1
                    and plain_name(zarg.children[1].children[0]) == "seat"
                ):
                    zname = str(zarg.children[0])  # count(NAME(seat)) == 0
                    return (lambda st, s, c: not st.pzones[zname][s]), "bool"
                if op == "==":
                    return (
                        (lambda st, s, c: not zf(st, s, c)) if v == 0 else (lambda st, s, c: len(zf(st, s, c)) == v)
                    ), "bool"
                return (
                    (lambda st, s, c: bool(zf(st, s, c))) if v == 0 else (lambda st, s, c: len(zf(st, s, c)) != v)
                ), "bool"
            if op == "==":
                return (lambda st, s, c: fl(st, s, c) == v), "bool"
            if op == "!=":
                return (lambda st, s, c: fl(st, s, c) != v), "bool"
            return (lambda st, s, c: f(fl(st, s, c), v)), "bool"
        if op == "==":
            return (lambda st, s, c: fl(st, s, c) == fr(st, s, c)), "bool"
        if op == "!=":
            return (lambda st, s, c: fl(st, s, c) != fr(st, s, c)), "bool"
        return (lambda st, s, c: f(fl(st, s, c), fr(st, s, c))), "bool"

    def c_in_op(self, node):
        fl, kl, fr, kr = self._pair(node)
        self.membership(node, kl, kr)
        if kr == "zone":
            return (lambda st, s, c: fl(st, s, c) in fr(st, s, c)), "bool"
        return (lambda st, s, c: fl(st, s, c) in fr(st, s, c)), "bool"

    def c_not_in_op(self, node):
        fl, kl, fr, kr = self._pair(node)
        self.membership(node, kl, kr)
        return (lambda st, s, c: fl(st, s, c) not in fr(st, s, c)), "bool"

    # -- calls ------------------------------------------------------------
    def c_call(self, node):
        name_tok = node.children[0]
        name = sys.intern(str(name_tok))
        args = list(node.children[1].children) if len(node.children) > 1 else []
        sc = self.scope
        if name in sc.seat_zones or name in sc.seat_vars:
            if len(args) != 1:
                self.fail(node, f"{name}(SEAT) takes one seat")
            f, k = self.seat_arg(args[0])
            bound_seat = isinstance(args[0], Tree) and args[0].data == "name" and str(args[0].children[0]) == "seat"
            if name in sc.seat_zones:
                if bound_seat:
                    return (lambda st, s, c: st.pzones[name][s]), "zone"
                return (lambda st, s, c: st.pzones[name][f(st, s, c)]), "zone"
            held = "suit" if name in sc.suit_vars else "num"
            if bound_seat:
                return (lambda st, s, c: st.pvars[name][s]), held
            return (lambda st, s, c: st.pvars[name][f(st, s, c)]), held
        spec = FUNCTIONS.get(name)
        if spec is None:
            self.fail(
                name_tok, f"unknown function '{name}'" + suggest(name, set(FUNCTIONS) | sc.seat_zones | sc.seat_vars)
            )
        lo, hi, build = spec
        if not (lo <= len(args) <= (hi if hi is not None else 99)):
            want = f"{lo}" if lo == hi else (f"{lo} to {hi}" if hi else f"at least {lo}")
            self.fail(node, f"{name}() takes {want} argument{'s' if hi != 1 else ''}, not {len(args)}")
        return build(self, node, args)

    def seat_arg(self, node) -> tuple[Fn, str]:
        """A seat argument: a seat, or a number (a literal seat, ``hand(0)``),
        taken round the table. A seat that is none is a located error."""
        f, k = self.c(node)
        self.need(node, k, "seat", "num")
        if k == "seat":
            return f, k
        where, text = self.where(node), text_of(self.text, node)

        def seat_of(st, s, c):
            v = f(st, s, c)
            if type(v) is not int:
                raise RuleError(Diagnostic(where, f"{text!r} names no seat here (it is {v!r})", code="runtime"))
            return v % st.n

        return seat_of, "seat"

    def named(self, node, kind: str) -> tuple[Cell, Any]:
        """``any(ZONE, NAME, TEST)``: NAME is each card of the zone in turn
        (a cell the loop fills, one value per thread), while ``card`` keeps its own meaning."""
        name = str(node.children[0]) if isinstance(node, Tree) and node.data == "name" else None
        if name is None:
            self.fail(node, "expected a name for the card of the zone here (any(trick, x, rank(x) > rank(card)))")
        if (
            name in self._known() - set(self.locals)
            or name in ("seat", "card", "true", "false", "none")
            or name in SUITS
            or name in RANKS
        ):
            self.fail(node, f"'{name}' already means something: give the card of the zone another name")
        return Cell(), node

    def lazy(self, node, kind: str, *wanted, local: tuple | None = None) -> Fn:
        """Compile an argument that is evaluated once per card or per seat
        (its value one of the types ``wanted``, if given). ``local``: (name,
        cell) of a card named by the expression itself, bound beside ``card``."""
        if local is not None:
            sub = self.sub(self.bound, {**self.locals, local[0]: local[1]}, per_card=True)
        elif kind == "card":
            sub = self.sub(self.bound | BOUND[kind], self.locals, per_card=True, top=node)
        else:
            sub = self.sub(self.bound | BOUND[kind], self.locals)
        f, k = sub.c(node)
        if wanted:
            self.need(node, k, *wanted)
        return f

    def symbol(self, node, kinds: str, table) -> str:
        if isinstance(node, Tree) and node.data == "name":
            n = str(node.children[0])
            if n in table:
                return n
        self.fail(
            node,
            f"expected the name of {kinds} here"
            + (f" (one of: {', '.join(sorted(table))})" if table else " (none is declared)"),
        )


def getter(attr):
    return lambda st, s, c: getattr(st, attr)
