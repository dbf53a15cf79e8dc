"""Compile expression strings into Python closures.

An expression is parsed by the lark grammar ``expr.lark`` once, when its rule
file is loaded, and turned into a closure ``f(st, s, c)``:

* ``st`` is the running game state (``interpreter.state.State``); closures
  read only the documented attributes listed in ``StateView`` below;
* ``s`` is the seat an expression speaks of (``seat``), or None;
* ``c`` is the card a card test speaks of (``card``), or None.

Names are resolved at compile time against the rule file's vocabulary
(``Scope``): an unknown name, a wrong number of arguments or a card test where
no card is bound is a located error before any game is played. Nothing is
``eval``-ed, and an expression cannot reach any Python attribute: ``.suit``,
``.rank`` and ``.colour`` are grammar-level card fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, NoReturn

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .cards import RANKS, SUITS, card as _card
from .errors import Diagnostic, Pos, RuleError

Fn = Callable[[Any, Any, Any], Any]

# The attributes of the game state that compiled closures may read.
StateView = (
    "n",
    "dealer",
    "leader",
    "led",
    "trump",
    "winner",
    "hand_no",
    "tricks_played",
    "zones",
    "pzones",
    "vars",
    "pvars",
    "bal",
    "won",
    "declared",
    "mover",
    "other",
    "g",  # the GameDef: its sides (``team_of``)
)


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The expression parser, built once per process."""
    grammar = resources.files(__package__).joinpath("expr.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


@dataclass
class Scope:
    """The names a rule file declares, which its expressions may use."""

    zones: set[str] = field(default_factory=set)  # shared zones
    seat_zones: set[str] = field(default_factory=set)  # one per seat: hand(seat)
    vars: set[str] = field(default_factory=set)  # game counters
    seat_vars: set[str] = field(default_factory=set)  # one per seat: points(seat)
    pools: set[str] = field(default_factory=set)  # money holders that are not seats
    currencies: set[str] = field(default_factory=set)
    orders: dict[str, dict] = field(default_factory=dict)  # name -> {Card: strength}
    declarations: set[str] = field(default_factory=set)
    suit_vars: set[str] = field(default_factory=set)  # counters that hold a suit (holds: suit), not a number
    # the values kept by parts of expressions evaluated once per card (``_TablingCompiler``), by the part's text
    tables: dict = field(default_factory=dict, compare=False, repr=False)


class Expr:
    """A compiled expression: the closure, its source text and position.

    ``names`` is every name the expression reads (for dependency checks);
    ``filter(st, s, cards)``, on card tests, returns the cards that pass, in
    one call for a whole hand."""

    __slots__ = ("fn", "text", "pos", "kind", "names", "filter", "shape")

    def __init__(self, fn: Fn, text: str, pos: Pos, kind: str, names=frozenset(), filter=None, shape=None):
        self.fn, self.text, self.pos, self.kind = fn, text, pos, kind
        self.names = names
        self.shape = shape  # a normal form of a few common shapes, for the engine's fast paths
        self.filter = filter or (lambda st, s, cards: [c for c in cards if fn(st, s, c)])

    def __call__(self, st, s=None, c=None):
        return self.fn(st, s, c)

    def __repr__(self) -> str:
        return f"Expr({self.text!r})"


# Which variables each kind of expression may use.
BOUND = {
    "game": frozenset(),
    "seat": frozenset({"seat"}),
    "card": frozenset({"card", "seat"}),
    "value": frozenset({"value", "seat"}),  # a number a seat may choose (choose_number's ``allow``)
    "suit_value": frozenset({"value", "seat", "value:suit"}),  # a suit a seat may choose (choose_suit's ``allow``)
}

_SEAT_VALUES = {"dealer": "dealer", "leader": "leader", "winner": "winner", "mover": "mover", "other": "other"}
_PLAIN_VALUES = {"players": "n", "led": "led", "trump": "trump", "hand_no": "hand_no", "tricks_played": "tricks_played"}


class _Compiler:
    def __init__(self, text: str, pos: Pos, scope: Scope, bound: frozenset, locals_: dict | None = None):
        self.text, self.pos, self.scope, self.bound = text, pos, scope, bound
        self.locals: dict[str, list] = locals_ or {}  # names given to a zone's card: any(trick, x, …)

    def whole(self, tree, fn: Fn) -> Fn:
        """The compiled expression as it is called from outside (``_TablingCompiler`` keeps
        some values): here, itself."""
        return fn

    # -- errors ---------------------------------------------------------
    def where(self, node) -> Pos:
        meta = getattr(node, "meta", None)
        if isinstance(node, Token) and node.line is not None and node.column is not None:
            line, col = node.line, node.column
        elif meta is not None and not getattr(meta, "empty", True):
            line, col = meta.line, meta.column
        else:
            return self.pos
        return self.pos.shift(line - 1, col - 1)

    def fail(self, node, message: str) -> NoReturn:
        raise RuleError(Diagnostic(self.where(node), message, code="expression"))

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
                    or n in _SEAT_VALUES
                    or n in _PLAIN_VALUES
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
        name = str(node.children[0])
        sc = self.scope
        cell = self.locals.get(name)
        if cell is not None:
            return (lambda st, s, c: cell[0]), "card"
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
        if name in _SEAT_VALUES:
            a = _SEAT_VALUES[name]
            return _getter(a), "seat"
        if name == "led_card":  # the first card of the trick in progress (none before the lead)
            return (lambda st, s, c: st.zones["trick"][0] if st.zones["trick"] else None), "card"
        if name == "last_card":  # the card played last to the trick in progress (none before the lead)
            return (lambda st, s, c: st.zones["trick"][-1] if st.zones["trick"] else None), "card"
        if name in _PLAIN_VALUES:
            a = _PLAIN_VALUES[name]
            return _getter(a), ("suit" if name in ("led", "trump") else "num")
        if name in sc.zones:
            return (lambda st, s, c: st.zones[name]), "zone"
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
        if name in sc.currencies or name in sc.orders or name in sc.declarations:
            return (lambda st, s, c: name), "symbol:" + name
        self.fail(node, f"unknown name '{name}'" + suggest(name, self._known()))

    def _known(self):
        sc = self.scope
        return (
            set(self.bound)
            | set(self.locals)
            | set(_SEAT_VALUES)
            | set(_PLAIN_VALUES)
            | {"led_card", "last_card"}
            | sc.zones
            | sc.seat_zones
            | sc.vars
            | sc.seat_vars
            | sc.pools
            | sc.currencies
            | set(sc.orders)
            | sc.declarations
            | set(FUNCTIONS)
        )

    def c_attr(self, node):
        base, name = node.children
        f, k = self.c(base)
        attr = str(name)
        if k not in ("card", "any"):
            self.fail(name, f"'.{attr}' applies to a card, not to a {k}")
        direct = _is_bound_card(base)
        if attr == "suit":
            return ((lambda st, s, c: c.suit) if direct else (lambda st, s, c: f(st, s, c).suit)), "suit"
        if attr == "rank":
            return ((lambda st, s, c: c.rank) if direct else (lambda st, s, c: f(st, s, c).rank)), "rank"
        if attr == "colour":
            return ((lambda st, s, c: c.colour) if direct else (lambda st, s, c: f(st, s, c).colour)), "str"
        self.fail(name, f"a card has no field '{attr}' (it has .suit, .rank, .colour)")

    def c_neg(self, node):
        f, k = self.c(node.children[0])
        self._need(node.children[0], k, "num")
        return (lambda st, s, c: -f(st, s, c)), "num"

    def c_not_op(self, node):
        f = self._truth(node.children[0], "'not' takes a truth value")
        return (lambda st, s, c: not f(st, s, c)), "bool"

    def _truth(self, node, what: str = "'and', 'or' join truth values"):
        """An operand of ``and`` / ``or`` / ``not``, the test of an ``if``: a truth
        value (a comparison, a test, true/false). ``pot or 10`` is a mistake, not a
        number, and ``if dealer then …`` a seat, not a test."""
        f, k = self.c(node)
        if k not in ("bool", "any"):
            self.fail(node, f"{what} (comparisons, tests), not {_article(k)}{_truth_hint(k)}")
        return f

    def c_and_op(self, node):
        fns = [self._truth(x) for x in _chain(node)]
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
        fns = [self._truth(x) for x in _chain(node)]
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
        ca, cb = _BRANCH_CLASS.get(ka), _BRANCH_CLASS.get(kb)
        if ca and cb and ca != cb:
            self.fail(node, f"the two branches give {_article(ka)} and {_article(kb)}: both must give the same kind")
        return (lambda st, s, c: a(st, s, c) if t(st, s, c) else b(st, s, c)), (ka if ka == kb else "any")

    def _need(self, node, kind, *wanted):
        if kind not in wanted and kind != "any":
            self.fail(node, f"expected {' or '.join(_article(w) for w in wanted)} here, found {_article(kind)}")

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
        if op in ("<", "<=", ">", ">=") and ("rank" in (kl, kr) or "suit" in (kl, kr)):
            self.fail(node, "ranks and suits have no order of their own: compare rank(card) instead")
        if op in ("<", "<=", ">", ">="):
            for side, k in ((node.children[0], kl), (node.children[-1], kr)):
                if k == "card":
                    self.fail(side, "a card has no order of its own: compare rank(card) or card.rank instead")
                if k not in _ORDERED:
                    self.fail(side, f"'{op}' compares numbers or seats, not a {_kind_name(k)}")
        else:
            self._comparable(node, kl, kr)
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
                self._need(zarg, zk, "zone")
                if (
                    v == 0
                    and op == "=="
                    and isinstance(zarg, Tree)
                    and zarg.data == "call"
                    and str(zarg.children[0]) in self.scope.seat_zones
                    and len(zarg.children) > 1
                    and _plain(zarg.children[1].children[0]) == "seat"
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

    def _comparable(self, node, kl, kr):
        """``==`` and ``!=`` between values that can never be equal (a card
        and a number, a suit and a card …) is a mistake in the rules."""
        cl, cr = _CLASS.get(kl), _CLASS.get(kr)
        if cl and cr and cl != cr and not {cl, cr} <= {"text", "suit", "rank"}:  # a suit is its letter
            hint = ""
            if "card" in (cl, cr):
                hint = ": compare card.suit, card.rank or rank(card) instead"
            self.fail(node, f"a {_kind_name(kl)} is compared with a {_kind_name(kr)}, which it can never equal{hint}")

    def _membership(self, node, kl, kr):
        if kr == "zone":
            if kl not in ("card", "any"):
                self.fail(node.children[0], f"a zone holds cards, not a {_kind_name(kl)}")
        elif not (kr == "any" or kr.startswith("list")):
            self.fail(node.children[-1], f"'in' needs a zone or a list [...] on its right, not a {_kind_name(kr)}")

    def c_in_op(self, node):
        fl, kl, fr, kr = self._pair(node)
        self._membership(node, kl, kr)
        if kr == "zone":
            return (lambda st, s, c: fl(st, s, c) in fr(st, s, c)), "bool"
        return (lambda st, s, c: fl(st, s, c) in fr(st, s, c)), "bool"

    def c_not_in_op(self, node):
        fl, kl, fr, kr = self._pair(node)
        self._membership(node, kl, kr)
        return (lambda st, s, c: fl(st, s, c) not in fr(st, s, c)), "bool"

    def c_binop(self, node):
        """A chain ``a + b - c …`` (left-associative, any length) is compiled
        one term after another, without recursing per term; a long chain
        runs as one loop rather than as nested closures."""
        spine = [node]
        while isinstance(spine[-1].children[0], Tree) and spine[-1].children[0].data == "binop":
            spine.append(spine[-1].children[0])
        f, k = self.c(spine[-1].children[0])
        steps = []
        for n in reversed(spine):
            f, k, step = self._binop(n, f, k)
            steps.append(step)
        if len(steps) <= 8:
            return f, k
        first = self.c(spine[-1].children[0])[0]

        def chain(st, s, c):
            v = first(st, s, c)
            for fr, op in steps:
                v = op(st, v, fr(st, s, c))
            return v

        return chain, k

    def _binop(self, node, fl, kl):
        """One link of a chain: (closure of the chain so far, its type, and
        (right operand, how to combine) for the loop form)."""
        left, op, right = node.children
        fr, kr = self.c(right)
        op = str(op)
        for n, k in ((left, kl), (right, kr)):
            self._need(n, k, "num", "seat")
            if k == "seat" and op in "*/%":
                self.fail(n, f"'{op}' works on numbers, and a seat is not one" + _INDEX_HINT)
        if op in "+-" and (kl == "seat" or kr == "seat"):
            if op == "+" and kl == "seat" and kr == "seat":
                self.fail(node, "two seats cannot be added: add a number of places to a seat")
            if op == "-" and kl == "num":
                self.fail(node, "a seat cannot be taken from a number")
            if op == "-" and kl == "seat" and kr == "seat":  # distance in play order
                return (
                    (lambda st, s, c: (fl(st, s, c) - fr(st, s, c)) % st.n),
                    "num",
                    (fr, lambda st, a, b: (a - b) % st.n),
                )
            if op == "+":
                return (
                    (lambda st, s, c: (fl(st, s, c) + fr(st, s, c)) % st.n),
                    "seat",
                    (fr, lambda st, a, b: (a + b) % st.n),
                )
            return (
                (lambda st, s, c: (fl(st, s, c) - fr(st, s, c)) % st.n),
                "seat",
                (fr, lambda st, a, b: (a - b) % st.n),
            )
        if op == "+":
            return (lambda st, s, c: fl(st, s, c) + fr(st, s, c)), "num", (fr, lambda st, a, b: a + b)
        if op == "-":
            return (lambda st, s, c: fl(st, s, c) - fr(st, s, c)), "num", (fr, lambda st, a, b: a - b)
        if op == "*":
            return (lambda st, s, c: fl(st, s, c) * fr(st, s, c)), "num", (fr, lambda st, a, b: a * b)
        # '/' and '%': a divisor known when the file is loaded must not be 0; one
        # computed in play is checked when it is computed, at the expression's place
        if self.const(right) and fr(None, None, None) == 0:
            self.fail(right, f"division by zero: '{op}' by 0")
        where = self.where(right)
        what = "division" if op == "/" else "remainder"

        def by_zero():
            return RuleError(
                Diagnostic(where, f"{what} by zero: the divisor {_text(self.text, right)!r} is 0 here", code="runtime")
            )

        if op == "/":

            def div_of(st, a, b):
                try:
                    return a // b
                except ZeroDivisionError:
                    raise by_zero() from None

            def div(st, s, c):
                return div_of(st, fl(st, s, c), fr(st, s, c))

            return div, "num", (fr, div_of)

        def mod_of(st, a, b):
            try:
                return a % b
            except ZeroDivisionError:
                raise by_zero() from None

        def mod(st, s, c):
            return mod_of(st, fl(st, s, c), fr(st, s, c))

        return mod, "num", (fr, mod_of)

    # -- calls ------------------------------------------------------------
    def c_call(self, node):
        name_tok = node.children[0]
        name = str(name_tok)
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
        self._need(node, k, "seat", "num")
        if k == "seat":
            return f, k
        where, text = self.where(node), _text(self.text, node)

        def seat_of(st, s, c):
            v = f(st, s, c)
            if type(v) is not int:
                raise RuleError(Diagnostic(where, f"{text!r} names no seat here (it is {v!r})", code="runtime"))
            return v % st.n

        return seat_of, "seat"

    def named(self, node, kind: str) -> tuple[list, Any]:
        """``any(ZONE, NAME, TEST)``: NAME is each card of the zone in turn
        (a cell the loop fills), while ``card`` keeps its own meaning."""
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
        return [None], node

    def lazy(self, node, kind: str, *wanted, local: tuple | None = None) -> Fn:
        """Compile an argument that is evaluated once per card or per seat
        (its value one of the types ``wanted``, if given). ``local``: (name,
        cell) of a card named by the expression itself, bound beside ``card``."""
        if local is not None:
            sub: _Compiler = _TablingCompiler(
                self.text, self.pos, self.scope, self.bound, {**self.locals, local[0]: local[1]}
            )
        elif kind == "card":
            sub = _TablingCompiler(self.text, self.pos, self.scope, self.bound | BOUND[kind], self.locals, top=node)
        else:
            sub = _Compiler(self.text, self.pos, self.scope, self.bound | BOUND[kind], self.locals)
        f, k = sub.c(node)
        if wanted:
            self._need(node, k, *wanted)
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


# Types of values: which can be ordered (< >), and which can never equal one another.
_ORDERED = ("num", "seat", "any")
_NUMERIC = ("num", "bool")  # a seat is not a number: index(SEAT) is its place at the table
# What the two branches of an ``if`` must agree on: a seat and a number, or a truth value and a number, differ.
_BRANCH_CLASS = {
    "num": "number",
    "seat": "seat",
    "bool": "truth value",
    "card": "card",
    "suit": "suit",
    "rank": "rank",
    "str": "text",
    "zone": "zone",
}
_INDEX_HINT = ": write index(SEAT) for a seat's place at the table (0, 1, … players - 1)"
_CLASS = {
    "num": "number",
    "seat": "number",
    "card": "card",
    "suit": "suit",
    "rank": "rank",
    "str": "text",
    "zone": "zone",
}
_KIND_NAMES = {
    "num": "number",
    "bool": "truth value",
    "str": "text",
    "none": "none",
    "holder": "money zone",
    "zone": "zone (of cards)",
}


def _kind_name(k: str) -> str:
    if k.startswith("list"):
        return "list"
    if k.startswith("symbol:"):
        return f"name ({k[7:]})"
    return _KIND_NAMES.get(k, k)


def _truth_hint(k: str) -> str:
    """How to make a truth value of a value of kind ``k``."""
    if k == "seat":
        return ": compare it with a seat (seat == dealer)"
    if k == "num":
        return ": compare it with a number (hand_no % 4 == 0, count(hand(seat)) > 0)"
    return ""


def _article(k: str) -> str:
    """``a number``, ``a zone (of cards)``: a type as a reader says it."""
    name = _kind_name(k)
    return ("an " if name[0] in "aeiou" else "a ") + name


def _text(text: str, node) -> str:
    """The source text of ``node`` (a one-line expression), else the whole text."""
    meta = getattr(node, "meta", None)
    if isinstance(node, Token) and node.start_pos is not None:
        return text[node.start_pos : node.end_pos]
    if meta is not None and not getattr(meta, "empty", True) and meta.start_pos is not None:
        return text[meta.start_pos : meta.end_pos]
    return text


def _getter(attr):
    return lambda st, s, c: getattr(st, attr)


def suggest(name, known) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


# -- built-in functions ----------------------------------------------------
def _zone_test(cp: _Compiler, args):
    """The zone and the card test of count/any/all: ``(ZONE, TEST)``, ``card``
    bound to each card of the zone; or ``(ZONE, NAME, TEST)``, NAME bound to
    each card of the zone and ``card`` keeping its meaning (the card under
    test, compared with the cards of the trick). Gives (zone, test of one
    card of the zone as (st, s, c, x))."""
    z, k = cp.c(args[0])
    cp._need(args[0], k, "zone")
    if len(args) == 2:
        t = cp.lazy(args[1], "card", "bool")
        return z, (lambda st, s, c, x: t(st, s, x))
    return _named_test(cp, z, args)


def _named_test(cp: _Compiler, z, args):
    cell, name_node = cp.named(args[1], "card")
    t = cp.lazy(args[2], "card", "bool", local=(str(name_node.children[0]), cell))

    def test(st, s, c, x):
        cell[0] = x
        return t(st, s, c)

    return z, test


class _Truths(dict):
    """A test's truth for each card of a zone, for one set of the other values it reads,
    worked out (the test run, any error raised) when first asked for."""

    __slots__ = ("ev", "ctx", "conv")

    def __init__(self, ev: Callable, ctx: list, conv: Callable = bool):
        super().__init__()
        self.ev, self.ctx, self.conv = ev, ctx, conv

    def __missing__(self, x):
        st, s, c = self.ctx[0]
        v = self[x] = self.conv(self.ev(st, s, c, x))
        return v


_LOOKUP_LIMIT = 1 << 11  # sets of values a count/any/all keeps truths for, then started again


def _truths(cp: _Compiler, args, conv: Callable = bool) -> Callable | None:
    """For ``count``/``any``/``all(ZONE, TEST)`` or ``(ZONE, NAME, TEST)`` whose test reads
    nothing but cards and the hand's single values (``_table_key``, no zone): a function
    of (state, seat, card, reduce) giving ``reduce`` (``sum``, ``any``, ``all``) of the truth
    of each card of the zone, looked up per set of the values the test reads besides the
    zone's card (the card, the named cards of
    enclosing counts, ``trump`` …). ``count(hand(seat), y, y.suit == card.suit and rank(y)
    >= rank(x))`` inside a sum over the hand is then a lookup per card of the hand.
    ``conv``: ``int`` for the number of a ``sum_cards``/``max_cards``. None for any other
    test."""
    if len(args) == 2:
        key = _table_key(args[1], _Compiler(cp.text, cp.pos, cp.scope, cp.bound | BOUND["card"], cp.locals))
        if key is None or key[1]:
            return None
        t = cp.lazy(args[1], "card")
        own = "card"

        def ev(st, s, c, x):
            return t(st, s, x)

    else:
        name = _plain(args[1])
        if name is None:
            return None
        cell, _ = cp.named(args[1], "card")
        key = _table_key(args[2], _Compiler(cp.text, cp.pos, cp.scope, cp.bound, {**cp.locals, name: cell}))
        if key is None or key[1]:
            return None
        tn = cp.lazy(args[2], "card", local=(name, cell))
        own = "~" + name

        def ev(st, s, c, x):
            cell[0] = x
            return tn(st, s, c)

    ctx: list = [None]
    values = key[0]
    parts = [values[v] for v in sorted(values) if v != own]
    z, _ = cp.c(args[0])
    if not parts:
        look = _Truths(ev, ctx, conv).__getitem__

        def only(st, s, c, reduce):
            ctx[0] = (st, s, c)
            v = reduce(map(look, z(st, s, c)))
            ctx[0] = None  # the state is not kept once the count is made
            return v

        return only
    tables: dict = {}
    key_of = _key_of(parts)  # one part (the usual case: the card, or a named card) is its own key

    def truths(st, s, c, reduce):
        k = key_of(st, s, c)
        tab = tables.get(k)
        if tab is None:
            if len(tables) >= _LOOKUP_LIMIT:
                tables.clear()
            tab = tables[k] = _Truths(ev, ctx, conv)
        ctx[0] = (st, s, c)
        v = reduce(map(tab.__getitem__, z(st, s, c)))
        ctx[0] = None
        return v

    return truths


def _f_count(cp: _Compiler, node, args):
    z, k = cp.c(args[0])
    cp._need(args[0], k, "zone")
    if len(args) == 1:
        return (lambda st, s, c: len(z(st, s, c))), "num"
    z, t = _zone_test(cp, args)
    look = _truths(cp, args)
    if look is not None:
        return (lambda st, s, c: look(st, s, c, sum)), "num"
    return (lambda st, s, c: sum(1 for x in z(st, s, c) if t(st, s, c, x))), "num"


def _f_any(cp, node, args):
    z, t = _zone_test(cp, args)
    look = _truths(cp, args)
    if look is not None:
        return (lambda st, s, c: look(st, s, c, any)), "bool"
    return (lambda st, s, c: any(t(st, s, c, x) for x in z(st, s, c))), "bool"


def _f_all(cp, node, args):
    z, t = _zone_test(cp, args)
    look = _truths(cp, args)
    if look is not None:
        return (lambda st, s, c: look(st, s, c, all)), "bool"
    return (lambda st, s, c: all(t(st, s, c, x) for x in z(st, s, c))), "bool"


def _f_cards_fold(fn):
    """``sum_cards``/``max_cards``: a number for each card of a zone, added up
    or the greatest (0 for an empty zone). ``(ZONE, EXPR)`` binds ``card`` to
    each card; ``(ZONE, NAME, EXPR)`` binds NAME, ``card`` keeping its meaning
    (so that a card can be measured against the other cards of the zone)."""

    def build(cp: _Compiler, node, args):
        z, k = cp.c(args[0])
        cp._need(args[0], k, "zone")
        if len(args) == 2:
            e = cp.lazy(args[1], "card", *_NUMERIC)
            look = _truths(cp, args, int)
            if look is not None:  # each card's number looked up per the other values read
                return (lambda st, s, c: look(st, s, c, fn)), "num"
            return (lambda st, s, c: fn([int(e(st, s, x)) for x in z(st, s, c)])), "num"
        cell, name_node = cp.named(args[1], "card")
        e = cp.lazy(args[2], "card", *_NUMERIC, local=(str(name_node.children[0]), cell))
        look = _truths(cp, args, int)
        if look is not None:
            return (lambda st, s, c: look(st, s, c, fn)), "num"

        def fold(st, s, c):
            out = []
            for x in list(z(st, s, c)):
                cell[0] = x
                out.append(int(e(st, s, c)))
            return fn(out)

        return fold, "num"

    return build


def _f_rank(cp, node, args):
    f, k = cp.c(args[0])
    cp._need(args[0], k, "card")
    order = _order_of(cp, node, args[1] if len(args) == 2 else None)
    return (lambda st, s, c: order.get(f(st, s, c), -1)), "num"


def _order_of(cp, node, arg):
    """The order named by ``arg``, or when it is None the default one: ``play``,
    or the only order of the file."""
    orders = cp.scope.orders
    if arg is not None:
        return orders[cp.symbol(arg, "an order", orders)]
    if len(orders) == 1:
        return next(iter(orders.values()))
    if "play" in orders:
        return orders["play"]
    name = str(node.children[0])
    call = "rank(card" if name == "rank" else f"{name}(ZONE, card"
    cp.fail(node, f"{call}) needs the name of an order: {call}, ORDER)")


def _f_run(cp, node, args):
    """``run(ZONE, CARD)``, ``run(ZONE, CARD, ORDER)``: how many ranks of the card's
    suit the zone holds in an unbroken run ending at the card's rank and going down
    (the card's rank number in the order, the number one below, …, until one is
    missing); 0 when the zone holds no card of that suit and rank. A rank held twice
    counts once."""
    z, kz = cp.c(args[0])
    cp._need(args[0], kz, "zone")
    f, k = cp.c(args[1])
    cp._need(args[1], k, "card")
    order = _order_of(cp, node, args[2] if len(args) == 3 else None)
    get = order.get

    def run(st, s, c):
        x = f(st, s, c)
        r = get(x, -1)
        if r < 0:
            return 0
        suit = x.suit
        held = {get(y, -1) for y in z(st, s, c) if y.suit == suit}
        n = 0
        while r - n in held:
            n += 1
        return n

    return run, "num"


def _f_balance(cp, node, args):
    h, k = cp.c(args[0])
    cp._need(args[0], k, "seat", "holder", "num")
    if k == "num":
        h, k = cp.seat_arg(args[0])
    cur = cp.symbol(args[1], "a currency", cp.scope.currencies)
    return (lambda st, s, c: st.bal[h(st, s, c)][cur]), "num"


def _f_tricks_won(cp, node, args):
    f, k = cp.seat_arg(args[0])
    return (lambda st, s, c: st.won[f(st, s, c)]), "num"


def sides_of(st) -> list[int]:
    """Each seat's side (0, 1, … in the order first met by seat): fixed for the
    game (``GameDef.team_of``), or, with ``teams: {each_hand: true}``, worked
    out from the hand in progress each time it is read."""
    t = st.g.teams
    if t is None or t[0] != "hand":
        return st.g.team_of(st.n)
    fn = t[1].fn
    names: dict = {}
    return [names.setdefault(fn(st, x, None), len(names)) for x in range(st.n)]


def _f_team(cp, node, args):
    f, k = cp.seat_arg(args[0])
    return (lambda st, s, c: sides_of(st)[f(st, s, c)]), "num"


def _f_team_sum(cp, node, args):
    """The sum of EXPR over the seats of the side of ``seat`` (``seat``
    rebound to each of them)."""
    if "seat" not in cp.bound:
        cp.fail(node, "team_sum(…) sums over the side of the seat in hand: it needs an expression about a seat")
    e = cp.lazy(args[0], "seat", *_NUMERIC)

    def team_sum(st, s, c):
        side = sides_of(st)
        mine = side[s]
        return sum(e(st, x, c) for x in range(st.n) if side[x] == mine)

    return team_sum, "num"


def _f_teams(cp, node, args):
    return (lambda st, s, c: max(sides_of(st)) + 1), "num"


def _seat_order(st):
    """Seats in play order starting from the one after the dealer."""
    n, d = st.n, st.dealer
    return [(d + 1 + i) % n for i in range(n)]


def _f_top_seat(cp, node, args):
    e = cp.lazy(args[0], "seat", *_NUMERIC)

    def top(st, s, c):
        best, best_v = None, None
        for x in _seat_order(st):
            v = e(st, x, c)
            if best_v is None or v > best_v:
                best, best_v = x, v
        return best

    return top, "seat"


def _f_count_seats(cp, node, args):
    e = cp.lazy(args[0], "seat", "bool")
    return (lambda st, s, c: sum(1 for x in range(st.n) if e(st, x, c))), "num"


def _f_sum_seats(cp, node, args):
    e = cp.lazy(args[0], "seat", *_NUMERIC)
    return (lambda st, s, c: sum(e(st, x, c) for x in range(st.n))), "num"


def _f_seats_extreme(fn):
    def build(cp, node, args):
        e = cp.lazy(args[0], "seat", *_NUMERIC)
        return (lambda st, s, c: fn(e(st, x, c) for x in range(st.n))), "num"

    return build


def _f_minmax(fn):
    def build(cp, node, args):
        fs = []
        for a in args:
            f, k = cp.c(a)
            cp._need(a, k, *_NUMERIC)
            fs.append(f)
        return (lambda st, s, c: fn(f(st, s, c) for f in fs)), "num"

    return build


def _f_abs(cp, node, args):
    f, k = cp.c(args[0])
    cp._need(args[0], k, "num")
    return (lambda st, s, c: abs(f(st, s, c))), "num"


def _f_declared(cp, node, args):
    d = cp.symbol(args[0], "a declaration", cp.scope.declarations)
    return (lambda st, s, c: d in st.declared), "bool"


def _f_declarer(cp, node, args):
    d = cp.symbol(args[0], "a declaration", cp.scope.declarations)
    return (lambda st, s, c: st.declared.get(d)), "seat"


def _f_index(cp, node, args):
    """``index(SEAT)``: the seat's place at the table as a number (0, 1, …
    players - 1), for arithmetic on seats or to keep a seat in a counter. A seat
    that is none (``declarer(NAME)`` when none was declared) is a located error."""
    f, k = cp.c(args[0])
    cp._need(args[0], k, "seat")
    where, text = cp.where(args[0]), _text(cp.text, args[0])

    def index(st, s, c):
        v = f(st, s, c)
        if type(v) is not int:
            raise RuleError(Diagnostic(where, f"{text!r} names no seat here (it is {v!r})", code="runtime"))
        return v

    return index, "num"


def _f_holder(cp, node, args):
    f, k = cp.c(args[0])
    cp._need(args[0], k, "card")
    zone = "hand"

    def holder(st, s, c):
        x = f(st, s, c)
        for i, h in enumerate(st.pzones[zone]):
            if x in h:
                return i
        return None

    return holder, "seat"


# name -> (min args, max args, builder)
FUNCTIONS = {
    "count": (1, 3, _f_count),
    "any": (2, 3, _f_any),
    "all": (2, 3, _f_all),
    "sum_cards": (2, 3, _f_cards_fold(sum)),
    "max_cards": (2, 3, _f_cards_fold(lambda vs: max(vs, default=0))),
    "rank": (1, 2, _f_rank),
    "run": (2, 3, _f_run),
    "balance": (2, 2, _f_balance),
    "tricks_won": (1, 1, _f_tricks_won),
    "team": (1, 1, _f_team),
    "team_sum": (1, 1, _f_team_sum),
    "teams": (0, 0, _f_teams),
    "top_seat": (1, 1, _f_top_seat),
    "count_seats": (1, 1, _f_count_seats),
    "sum_seats": (1, 1, _f_sum_seats),
    "max_seats": (1, 1, _f_seats_extreme(max)),
    "min_seats": (1, 1, _f_seats_extreme(min)),
    "min": (1, None, _f_minmax(min)),
    "max": (1, None, _f_minmax(max)),
    "abs": (1, 1, _f_abs),
    "declared": (1, 1, _f_declared),
    "declarer": (1, 1, _f_declarer),
    "holder": (1, 1, _f_holder),
    "index": (1, 1, _f_index),
}


def compile_expr(text: str, pos: Pos, scope: Scope, kind: str = "game", limits=None) -> Expr:
    """Parse and compile ``text`` (found at ``pos``) into an ``Expr``.

    ``kind`` says what is bound: ``game`` (nothing), ``seat`` (``seat``),
    ``card`` (``card`` and ``seat``), ``value`` (``value``, a number a seat
    may choose, and ``seat``). ``limits`` (the loader's ``Limits``)
    bound the length, the nesting and the integers of the expression: each is
    checked on the text before it is parsed, and the nesting again on the tree."""
    from .loader import Limits

    limits = limits or Limits()
    text = str(text)
    _check_text(text, pos, limits)
    try:
        tree = parser().parse(text)
    except UnexpectedInput as e:
        raise RuleError(
            Diagnostic(
                pos.shift(e.line - 1 if e.line > 0 else 0, (e.column - 1) if e.column > 0 else len(text)),
                _parse_message(e, text),
                code="syntax",
            )
        ) from None
    _check_depth(tree, text, pos, limits)
    cp = _Compiler(text, pos, scope, BOUND[kind])
    try:
        fn, k = cp.c(tree)
    except RecursionError:
        raise RuleError(
            Diagnostic(pos, "the expression is nested too deeply to compile (lower --max-expr-depth)", code="limit")
        ) from None
    if kind in ("game", "seat"):
        fn = _TablingCompiler(text, pos, scope, BOUND[kind]).whole(tree, fn)
    names = frozenset(str(t) for t in _tokens(tree) if t.type == "NAME")
    filt = None
    if kind == "card":
        filt = (
            _card_filter(cp, tree)
            or _context_filter(fn, tree, scope)
            or _zone_filter(fn, tree, cp)
            or _hoisting_filter(text, pos, scope, tree)
        )
    return Expr(fn, text, pos, k, names, filt, _shape(tree))


_CHAINS = ("binop", "and_op", "or_op")  # left-associative: a chain of any length is one level


def _check_text(text: str, pos: Pos, limits) -> None:
    """Refuse, before parsing, an expression longer than the limit, nested
    deeper than the limit in brackets, or holding too long an integer."""
    import re

    if len(text) > limits.expr_length:
        raise RuleError(
            Diagnostic(
                pos,
                f"the expression is {len(text)} characters long, more than the limit "
                f"of {limits.expr_length} (raise it with --max-expr-length)",
                code="limit",
            )
        )
    depth, line, col = 0, 0, 0
    for ch in text:
        if ch in "([":
            depth += 1
            if depth > limits.expr_depth:
                raise RuleError(
                    Diagnostic(
                        pos.shift(line, col),
                        f"the expression is nested more than "
                        f"{limits.expr_depth} levels deep (raise the limit with "
                        "--max-expr-depth)",
                        code="limit",
                    )
                )
        elif ch in ")]":
            depth = max(depth - 1, 0)
        if ch == "\n":
            line, col = line + 1, 0
        else:
            col += 1
    for m in re.finditer(r"[0-9]+", text):
        if m.end() - m.start() > limits.int_digits:
            before = text[: m.start()]
            at = pos.shift(before.count("\n"), m.start() - (before.rfind("\n") + 1))
            raise RuleError(
                Diagnostic(
                    at,
                    f"this integer has more than {limits.int_digits} digits (raise the limit with --max-int-digits)",
                    code="limit",
                )
            )


def _check_depth(tree, text: str, pos: Pos, limits) -> None:
    """Refuse a tree nested deeper than the limit (``- - - … 1``, ``not not
    …``), counting a chain of the same operator as one level. Iterative."""
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if d > limits.expr_depth:
            meta = getattr(node, "meta", None)
            at = pos.shift(meta.line - 1, meta.column - 1) if meta is not None and not meta.empty else pos
            raise RuleError(
                Diagnostic(
                    at,
                    f"the expression is nested more than {limits.expr_depth} levels deep "
                    "(raise the limit with --max-expr-depth)",
                    code="limit",
                )
            )
        for i, ch in enumerate(node.children):
            if isinstance(ch, Tree):
                same = i == 0 and node.data in _CHAINS and ch.data == node.data
                stack.append((ch, d if same else d + 1))


def _tokens(tree):
    """Every token of a tree, without recursion."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            yield node
        elif isinstance(node, Tree):
            stack.extend(reversed(node.children))


def _chain(node) -> list:
    """The operands of a left-associative chain ``a and b and c`` (same operator)."""
    out = []
    while (
        isinstance(node, Tree)
        and node.data in _CHAINS
        and isinstance(node.children[0], Tree)
        and node.children[0].data == node.data
    ):
        out.append(node.children[-1])
        node = node.children[0]
    out += [node.children[-1], node.children[0]] if isinstance(node, Tree) and node.data in _CHAINS else [node]
    return out[::-1]


def _shape(tree) -> str | None:
    """``card.suit == led`` (either way round) is recognised, whatever its spacing."""
    if isinstance(tree, Tree) and tree.data == "compare" and str(tree.children[1]) == "==":
        sides = {_plain(tree.children[0]), _plain(tree.children[2])}
        if sides == {"card.suit", "led"}:
            return "card.suit == led"
        left, right = tree.children[0], tree.children[2]  # count(hand(seat)) == 0
        if (
            isinstance(right, Tree)
            and right.data == "number"
            and str(right.children[0]) == "0"
            and isinstance(left, Tree)
            and left.data == "call"
            and str(left.children[0]) == "count"
            and len(left.children[1].children) == 1
        ):
            z = left.children[1].children[0]
            if (
                isinstance(z, Tree)
                and z.data == "call"
                and str(z.children[0]) == "hand"
                and len(z.children) > 1
                and len(z.children[1].children) == 1
                and _plain(z.children[1].children[0]) == "seat"
            ):
                return "count(hand(seat)) == 0"
    return None


def _plain(node) -> str | None:
    if isinstance(node, Tree) and node.data == "name":
        return str(node.children[0])
    if isinstance(node, Tree) and node.data == "attr" and _is_bound_card(node.children[0]):
        return "card." + str(node.children[1])
    return None


def _is_bound_card(node) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) == "card"


def _card_filter(cp: _Compiler, tree):
    """A whole-hand filter for the common shape ``card.FIELD == VALUE`` (or
    ``!=``), VALUE not depending on the card: VALUE is computed once per call,
    not once per card. Other shapes use the per-card closure."""
    if not (isinstance(tree, Tree) and tree.data == "compare" and str(tree.children[1]) in ("==", "!=")):
        return None
    left, right = tree.children[0], tree.children[2]
    if not (isinstance(left, Tree) and left.data == "attr" and _is_bound_card(left.children[0])):
        return None
    if any(t.type == "NAME" and str(t) == "card" for t in _tokens(right)) if isinstance(right, Tree) else False:
        return None
    field_ = str(left.children[1])
    if field_ not in ("suit", "rank", "colour"):
        return None
    vf, _ = cp._rank_literal(right, "rank") if field_ == "rank" else cp.c(right)
    eq = str(tree.children[1]) == "=="
    if field_ == "suit":
        if eq:

            def same_suit(st, s, cards):
                v = vf(st, s, None)
                return [c for c in cards if c.suit == v]

            return same_suit

        def other_suit(st, s, cards):
            v = vf(st, s, None)
            return [c for c in cards if c.suit != v]

        return other_suit
    get = (lambda c: c.rank) if field_ == "rank" else (lambda c: c.colour)

    def filt(st, s, cards):
        v = vf(st, s, None)
        return [c for c in cards if (get(c) == v) == eq]

    return filt


_FLOW_HINT = " (inside a YAML list [...] or mapping {...} a comma ends the item: put the expression in quotes)"


def _parse_message(e: UnexpectedInput, text: str) -> str:
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        return _parse_message_plain(e, text) + _FLOW_HINT
    return _parse_message_plain(e, text)


def _parse_message_plain(e: UnexpectedInput, text: str) -> str:
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        return f"expression ends too early: {text!r}"
    if isinstance(e, UnexpectedToken):
        expected = sorted(x for x in e.expected if not x.startswith("__"))
        hint = f" (expected {', '.join(_pretty_terms(expected[:6]))})" if expected else ""
        return f"unexpected '{e.token}' in expression{hint}"
    if isinstance(e, UnexpectedCharacters):
        return f"unexpected character {text[e.pos_in_stream or 0]!r} in expression"
    return f"cannot read expression: {e}"


_TERMS = {
    "RPAR": "')'",
    "LPAR": "'('",
    "COMMA": "','",
    "NAME": "a name",
    "NUMBER": "a number",
    "CARD": "a card",
    "STRING": "a string",
    "RSQB": "']'",
    "LSQB": "'['",
    "CMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "$END": "the end of the expression",
    "MINUS": "'-'",
    "DOT": "'.'",
    "THEN": "'then'",
    "ELSE": "'else'",
    "IN": "'in'",
    "AND": "'and'",
    "OR": "'or'",
    "NOT": "'not'",
    "IF": "'if'",
}


def _pretty_terms(names):
    return [_TERMS.get(n, n) for n in names]


# -- a whole-hand filter that works out once what does not depend on the card ----------
_CARD_BINDERS = ("count", "any", "all")  # their second argument is a card test of its own


def _reads_card(node) -> bool:
    """Whether ``node`` reads the card under test (a ``card`` not bound anew by a
    ``count``/``any``/``all`` inside it: ``(ZONE, TEST)`` binds it, ``(ZONE,
    NAME, TEST)`` leaves it to the card under test)."""
    if isinstance(node, Token):
        return False
    if node.data == "name":
        return str(node.children[0]) == "card"
    if node.data == "call" and str(node.children[0]) in _CARD_BINDERS:
        args = _call_args(node)
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


class _HoistingCompiler(_Compiler):
    """Compiles a card test with each part that does not read the card worked
    out at most once per whole-hand filter call (when first needed, so that
    what is evaluated, and any error it raises, is what the per-card closure
    does)."""

    def __init__(self, text, pos, scope, bound, slots: dict[int, int], cell: list, used: list):
        super().__init__(text, pos, scope, bound)
        self.slots, self.cell, self.used = slots, cell, used

    def c(self, node):
        fn, k = super().c(node)
        i = self.slots.get(id(node)) if isinstance(node, Tree) else None
        if i is None:
            return fn, k
        cell, used = self.cell, self.used

        def once(st, s, c):
            used[0] = True  # the card's value read this part
            memo = cell[0]
            if i in memo:
                return memo[i]
            v = memo[i] = fn(st, s, c)
            return v

        return once, k


def _hoisting_filter(text: str, pos: Pos, scope: Scope, tree):
    """A whole-hand filter for a card test with a costly part that does not
    read the card (``card.suit != H or sum_seats(...) > 0``): that part is
    evaluated once per call, for the first card that needs it, and its value
    reused for the others (the seat and the state are the same for every card
    of a call). None when the test has no such part."""
    slots = _hoistable(tree)
    if not slots:
        return None
    cell: list = [None]
    used: list = [False]
    fn, _ = _HoistingCompiler(text, pos, scope, BOUND["card"], slots, cell, used).c(tree)
    # the rest of the test: if it reads only the card, the hand's values and the cards of
    # shared zones, a card's value that read none of the parts worked out apart depends on
    # those alone, and is kept per set of them (a card that read one is worked out each call)
    hoisted = frozenset(slots)
    key = _table_key(tree, _Compiler(text, pos, scope, BOUND["card"]), hoisted)
    if key is not None and all(z in scope.zones for z in key[1]):
        values, zones = key
        parts = [values[v] for v in sorted(values) if v != "card"] + [zones[z] for z in sorted(zones)]
        tables: dict = {}

        def kept(st, s, cards):
            k = tuple([p(st, s, None) for p in parts])
            tab = tables.get(k)
            if tab is None:
                if len(tables) >= _CONTEXT_LIMIT:
                    tables.clear()
                tab = tables[k] = {}
            saved = cell[0]
            cell[0] = {}
            try:
                out = []
                for c in cards:
                    v = tab.get(c, _UNSEEN)
                    if v is _UNSEEN:
                        used[0] = False
                        v = fn(st, s, c)
                        if not used[0]:
                            tab[c] = v
                    if v:
                        out.append(c)
                return out
            finally:
                cell[0] = saved

        return kept

    def filt(st, s, cards):
        saved = cell[0]
        cell[0] = {}
        try:
            return [c for c in cards if fn(st, s, c)]
        finally:
            cell[0] = saved

    return filt


# -- a card test that reads only the card: its value kept card by card ------------------
_CARD_ONLY_CALLS = frozenset({"rank"})


def _literal_names(scope: Scope) -> set[str]:
    """The names whose value is known when the file is loaded (no state read)."""
    return {"true", "false", "none", *SUITS, *RANKS, *scope.currencies, *scope.orders, *scope.declarations}


def _card_only(node, scope: Scope) -> bool:
    """Whether the test ``node`` reads nothing but the card (its fields, its rank
    in an order, literals): then its value is a function of the card alone."""
    allowed = _literal_names(scope) | {"card"}
    for sub in node.iter_subtrees() if isinstance(node, Tree) else ():
        if sub.data == "call" and str(sub.children[0]) not in _CARD_ONLY_CALLS:
            return False
        if sub.data == "name" and str(sub.children[0]) not in allowed:
            return False
    return isinstance(node, Tree)


_UNSEEN = object()


# -- the parts of an argument evaluated once per card of a zone: their values kept -----------
_BINDERS = frozenset({"count", "any", "all", "sum_cards", "max_cards"})  # a zone, then a card test or number
_PURE_CALLS = frozenset({"rank", "run", "min", "max", "abs"})  # a function of their arguments alone
_ZONE_TABLE_LIMIT = 1 << 12  # values kept per part keyed by a zone's cards (new at every hand), then started again
_TABLE_LIMIT = 1 << 16  # values kept per part keyed by cards and values, then started again


def _cell_getter(cell: list) -> Fn:
    return lambda st, s, c: cell[0]


def _state_getter(attr: str) -> Fn:
    return lambda st, s, c: getattr(st, attr)


def _var_getter(name: str) -> Fn:
    return lambda st, s, c: st.vars[name]


def _cards_getter(zone: Fn) -> Fn:
    return lambda st, s, c: tuple(zone(st, s, c))


def _source(text: str, node) -> str | None:
    """The text of ``node`` in its expression, or None when the parser kept no place for it."""
    meta = getattr(node, "meta", None)
    if meta is None or getattr(meta, "empty", True) or meta.start_pos is None:
        return None
    return text[meta.start_pos : meta.end_pos]


def _names_in(node) -> set[str]:
    return {str(t) for t in _tokens(node) if t.type == "NAME"} if isinstance(node, Tree) else set()


def _table_key(node, cp: _Compiler, skip: frozenset = frozenset()) -> tuple[dict[str, Fn], dict[str, Fn]] | None:
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
    sc, literal = cp.scope, _literal_names(cp.scope)

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
            elif name in _SEAT_VALUES:
                values[name] = _state_getter(_SEAT_VALUES[name])
            elif name in _PLAIN_VALUES:
                values[name] = _state_getter(_PLAIN_VALUES[name])
            elif name == "led_card":
                values[name] = lambda st, s, c: _led_card(st)
            elif name in sc.vars:
                values[name] = _var_getter(name)
            elif name in sc.zones:
                zones[name] = n
            else:
                return name in literal
            return True
        if d == "call":
            fname = str(n.children[0])
            args = _call_args(n)
            if fname in sc.seat_zones:
                text = _source(cp.text, n)
                if len(args) != 1 or text is None or _names_in(args[0]) & inner or not visit(args[0], inner):
                    return False
                zones[text] = n
                return True
            if fname in sc.seat_vars:
                return False  # a counter of a seat, named like a function: not a function of its seat
            if fname in _BINDERS:
                if not args or not visit(args[0], inner):
                    return False
                if len(args) == 2:
                    return visit(args[1], inner | {"card"})
                if len(args) == 3:
                    own = _plain(args[1])
                    return own is not None and visit(args[2], inner | {own})
                return len(args) == 1
            if fname in _PURE_CALLS:
                return all(visit(a, inner) for a in args)
            return False
        return all(visit(ch, inner) for ch in n.children)

    if not isinstance(node, Tree) or not visit(node, frozenset()):
        return None
    plain = _Compiler(cp.text, cp.pos, cp.scope, cp.bound, cp.locals)
    return values, {z: _cards_getter(plain.c(zn)[0]) for z, zn in zones.items()}


def _call_args(node) -> list:
    """The argument nodes of a call (none for ``teams()``)."""
    return list(node.children[1].children) if len(node.children) > 1 and node.children[1] is not None else []


def _nested(node) -> bool:
    """Whether a binder's argument holds another binder (or a ``run``): worked out again it
    costs a pass over a zone for each card, more than looking up a zone's cards does."""
    args = _call_args(node)
    return any(isinstance(a, Tree) and _passes_over_a_zone(a) for a in args[1:])


def _passes_over_a_zone(tree) -> bool:
    """Whether ``tree`` holds a binder with a card test or a number (``count(ZONE)`` alone is
    a length) or a ``run``: each costs a pass over a zone's cards."""
    for sub in tree.iter_subtrees():
        if sub.data == "call":
            name = str(sub.children[0])
            args = _call_args(sub)
            if name == "run" or (name in _BINDERS and len(args) > 1):
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


def _key_of(parts: list[Fn]) -> Fn:
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


def _tabled(f: Fn, parts: list[Fn], table: dict, limit: int) -> Fn:
    """``f`` with its value kept in ``table`` for each set of the values ``parts``
    read (each part a function of (state, seat, card)); a value is worked out,
    and any error raised, by ``f`` itself the first time."""
    get = table.get
    if not parts:  # the card alone: the card is the key

        def by_card(st, s, c):
            v = get(c, _UNSEEN)
            if v is _UNSEEN:
                v = f(st, s, c)
                if len(table) >= limit:
                    table.clear()
                table[c] = v
            return v

        return by_card
    key = _key_of(parts)

    def tabled(st, s, c):
        k = key(st, s, c)
        v = get(k, _UNSEEN)
        if v is _UNSEEN:
            v = f(st, s, c)
            if len(table) >= limit:
                table.clear()
            table[k] = v
        return v

    return tabled


class _TablingCompiler(_Compiler):
    """Compiles an argument evaluated once per card of a zone (the test of a
    ``count``/``any``/``all``, the number of a ``sum_cards``/``max_cards``). Its
    parts whose value depends only on cards, values of the hand and cards of zones
    (``_table_key``) keep their values: each ``count``/``any``/``all``/``sum_cards``/
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
            binder = node.data == "call" and str(node.children[0]) in _BINDERS
            if binder or node is self.top or _has_cond(node):
                key = _table_key(node, self)
                if key is not None and (key[0] or key[1]) and (binder or not key[1]) and (not key[1] or _nested(node)):
                    values, zones = key
                    f, k = super().c(node) if binder else _Compiler(*self._ctx()).c(node)
                    text = _source(self.text, node)
                    ident = (text, tuple(sorted(values)), tuple(sorted(zones))) if text is not None else object()
                    table = self.scope.tables.setdefault(ident, {})
                    parts = [values[v] for v in sorted(values)] + [zones[z] for z in sorted(zones)]
                    if list(values) == ["card"] and not zones:
                        parts = []  # ``_tabled`` keys by the card itself
                    return _tabled(f, parts, table, _ZONE_TABLE_LIMIT if zones else _TABLE_LIMIT), k
        return super().c(node)

    def _ctx(self):
        return self.text, self.pos, self.scope, self.bound, self.locals

    def whole(self, tree, fn: Fn) -> Fn:
        """A whole expression about a seat or the game (an effect's value, a condition) that
        passes over a zone for each card of a zone (``_nested``: a binder holding a binder or a
        ``run``) and reads nothing but cards, values of the hand and the cards of zones
        (``_table_key``): its value kept per those, in a table
        shared by the expressions of the rule file with the same text. A hand's point
        reckoned again in another world of a search where the seat holds the same cards is
        then looked up."""
        if not isinstance(tree, Tree) or not any(
            sub.data == "call" and str(sub.children[0]) in _BINDERS and _nested(sub) for sub in tree.iter_subtrees()
        ):
            return fn
        key = _table_key(tree, self)
        if key is None or not key[1]:
            return fn
        values, zones = key
        ident = ("whole", self.text, tuple(sorted(values)), tuple(sorted(zones)))
        parts = [values[v] for v in sorted(values)] + [zones[z] for z in sorted(zones)]
        return _tabled(fn, parts, self.scope.tables.setdefault(ident, {}), _ZONE_TABLE_LIMIT)


# -- a card test that reads only the card and a few values of the hand: tabulated -------
_CONTEXT_LIMIT = 256  # tables kept per test (one per set of values read), then started again


def _value_getter(attr: str) -> Callable:
    return lambda st: getattr(st, attr)


def _counter_getter(name: str) -> Callable:
    return lambda st: st.vars[name]


def _led_card(st):
    trick = st.zones["trick"]
    return trick[0] if trick else None


def _context_filter(fn: Fn, tree, scope: Scope):
    """A whole-hand filter for a test that reads the card and nothing else but
    the seat, the hand's single values (``led``, ``led_card``, ``trump``,
    ``tricks_played``, ``dealer``, …) and the game's counters: the test's value
    for each card is kept per set of those
    values (``tricks_played > 0 or card.suit != H``: one table while
    ``tricks_played`` is 0, one after). None for any other test."""
    if not isinstance(tree, Tree):
        return None
    allowed = _literal_names(scope) | {"card"}
    values: dict[str, Callable] = {}  # name -> how its value is read from the state
    seat = False
    for sub in tree.iter_subtrees():
        if sub.data == "call" and str(sub.children[0]) not in _CARD_ONLY_CALLS:
            return None
        if sub.data == "name":
            n = str(sub.children[0])
            if n == "seat":
                seat = True
            elif n in _SEAT_VALUES:
                values[n] = _value_getter(_SEAT_VALUES[n])
            elif n in _PLAIN_VALUES:
                values[n] = _value_getter(_PLAIN_VALUES[n])
            elif n == "led_card":
                values[n] = _led_card
            elif n in scope.vars:
                values[n] = _counter_getter(n)
            elif n not in allowed:
                return None
    if not values and not seat:
        return None  # the card alone: the per-card closure is as quick
    read = [values[n] for n in sorted(values)]
    return _kept_filter(fn, lambda st, s: (s if seat else None, *[get(st) for get in read]), "values")


def _kept_filter(fn: Fn, key_of: Callable[[Any, Any], tuple], per: str):
    """A whole-hand filter that keeps each card's value of ``fn`` per key
    (``key_of(state, seat)``: the values the test reads besides the card),
    each worked out, and any error raised, by ``fn`` itself the first time.
    ``filter.kept_per`` says what the key holds (``per``)."""
    tables: dict = {}

    def filt(st, s, cards):
        k = key_of(st, s)
        tab = tables.get(k)
        if tab is None:
            if len(tables) >= _CONTEXT_LIMIT:
                tables.clear()
            tab = tables[k] = {}
        out = []
        for c in cards:
            v = tab.get(c, _UNSEEN)
            if v is _UNSEEN:
                v = tab[c] = fn(st, s, c)
            if v:
                out.append(c)
        return out

    filt.kept_per = per  # type: ignore[attr-defined]
    return filt


def _zone_filter(fn: Fn, tree, cp: _Compiler):
    """A whole-hand filter for a test that reads the card and nothing else but the
    seat, the hand's single values, the game's counters and the cards of shared zones
    (``all(trick, x, x.suit != led or rank(card) > rank(x))``): the test's value for
    each card is kept per set of those values and cards (``_table_key``), each worked
    out, and any error raised, by the test itself the first time. None for a test
    that reads a seat's zone (the hand it filters changes at every call) or anything
    else."""
    key = _table_key(tree, cp)
    if key is None:
        return None
    values, zones = key
    if not zones or not all(z in cp.scope.zones for z in zones):
        return None
    parts = [values[v] for v in sorted(values) if v != "card"] + [zones[z] for z in sorted(zones)]
    return _kept_filter(fn, lambda st, s: tuple([p(st, s, None) for p in parts]), "values and zones")
