"""Compilation to Python source: a checked expression's parse tree to one Python
expression, compiled once when the rule file is loaded, where the closures of
``closures`` call one closure per part at every evaluation.

Only the parse tree that the closure compiler has already checked (every name
resolved, every kind checked) is read, and nothing of the rule file's text is
ever put in the source: the parts written are fixed Python operators and
attribute names of the engine's own; every name of the rule file (a counter, a
zone, a string, a suit) is a constant of the function's namespace under a
made-up name (``_k12``), and a number is written as the ``repr`` of the ``int``
it was read as. A part this module does not write (a card test, a built-in
function other than those over the seats, a division by a number not known when
the file is loaded …) is its closure, compiled by the same compiler as before and
called from the source (``_k7(st, s, c)``), so it gives the same value and raises
the same located error. The source is compiled with ``compile()`` and run with an
empty ``__builtins__``: the few built-ins it calls (``len``, ``max`` …) are
constants of its namespace too.

Bounds: a part deeper than ``MAX_DEPTH`` in the tree, or met after ``MAX_NODES``
parts were written, is a closure; so the source of one expression is at most a
few thousand characters and never nested deeper than the closures were.

``enabled()`` says whether expressions are compiled this way (on, unless the
environment sets ``ACADEMIE_CODEGEN=0``, or within ``off()``); with it off every
expression is its closure, the reference the tests hold this path equal to.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator

from lark import Tree

from .cards import RANKS, SUITS
from .closures import PLAIN_VALUES, SEAT_VALUES, Compiler
from .expr import BOUND
from .functions.combinations import FIELDS as COMBINATION_FIELDS, worked_out
from .syntax import chain_operands

MAX_DEPTH = 24  # parts nested deeper are closures
MAX_NODES = 96  # parts written per expression; the rest are closures
MAX_EFFECTS = 64  # effects per generated list (a longer list runs as closures)
_UNROLL_SEATS = (2, 3, 4)  # a max_seats … over so many seats is written out, seat by seat …
_UNROLL_CHARS = 160  # … when the value about one seat is no longer than this, …
_UNROLL_BUDGET = 4000  # … until so many characters were written out for one expression

_ON: ContextVar[bool | None] = ContextVar("academie_codegen", default=None)
_IDS = itertools.count()
_CARD_FIELDS = {"suit": "suit", "rank": "rank", "colour": "colour"}  # the grammar's card fields
_SEAT_OPS = {"+": "+", "-": "-"}
_NUM_OPS = {"+": "+", "-": "-", "*": "*"}
_CMP_OPS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_OVER_SEATS = ("max_seats", "min_seats", "sum_seats", "count_seats")
BUILTINS = {
    "_len": len,
    "_max": max,
    "_min": min,
    "_sum": sum,
    "_range": range,
    "_type": type,
    "_int": int,
    "_tuple": tuple,
}


def enabled() -> bool:
    """Whether expressions and effect lists compiled now become Python source."""
    v = _ON.get()
    if v is not None:
        return v
    return os.environ.get("ACADEMIE_CODEGEN", "1").strip() not in ("0", "off", "no", "false")


@contextmanager
def switched(on: bool) -> Iterator[None]:
    """Compile with source generation on or off, in this thread, within the ``with``."""
    token = _ON.set(on)
    try:
        yield
    finally:
        _ON.reset(token)


def off():
    """``switched(False)``: every expression compiled within is its closure."""
    return switched(False)


def const_name(ns: dict, value: Any) -> str:
    """A made-up name for ``value`` in the namespace ``ns``."""
    name = f"_k{next(_IDS)}"
    if type(value) is str:  # one object with the key it looks up (a counter's name): found by identity
        value = sys.intern(value)
    ns[name] = value
    return name


class Code:
    """The source of one expression (``src``, reading ``st``, the seat ``s`` and the
    card ``c``) and the constants it names (``ns``)."""

    __slots__ = ("src", "ns", "written", "limit", "check")

    def __init__(self, src: str, ns: dict, written: int):
        self.src, self.ns, self.written = src, ns, written
        self.limit: int | None = None  # an integer value must lie strictly within ±limit …
        self.check: Callable | None = None  # … else this closure (the bounded expression's) raises the error

    def bounded(self, limit: int, check: Callable) -> Code:
        """The same source, its integer values bounded (``build_pieces.bounded``)."""
        out = Code(self.src, self.ns, self.written)
        out.limit, out.check = limit, check
        return out


class _Writer:
    def __init__(self, ns: dict):
        self.ns = ns
        self.written = 0
        self.unrolled = 0  # characters of seats' values written out (``w_call``)

    def k(self, value: Any) -> str:
        return const_name(self.ns, value)

    def closure(self, cp: Compiler, node, sv: str, cv: str) -> tuple[str, str]:
        f, kind = cp.c(node)
        return f"{self.k(f)}(st, {sv}, {cv})", kind

    def w(self, cp: Compiler, node, sv: str, cv: str, depth: int) -> tuple[str, str]:
        """(source, kind) of ``node``; ``sv``/``cv``: the variables of the seat and card."""
        if depth <= MAX_DEPTH and self.written < MAX_NODES and isinstance(node, Tree):
            method = getattr(self, "w_" + str(node.data), None)
            if method is not None:
                got = method(cp, node, sv, cv, depth + 1)
                if got is not None:
                    self.written += 1
                    return got
        return self.closure(cp, node, sv, cv)

    def literal(self, cp: Compiler, node) -> tuple[str, str]:
        f, kind = cp.c(node)
        v = f(None, None, None)
        if type(v) is int:
            return repr(v), kind
        return self.k(v), kind

    # -- the constructs written as source --------------------------------
    def w_number(self, cp, node, sv, cv, depth):
        return repr(int(node.children[0])), "num"

    def w_string(self, cp, node, sv, cv, depth):
        return self.literal(cp, node)

    def w_card(self, cp, node, sv, cv, depth):
        return self.literal(cp, node)

    def w_list(self, cp, node, sv, cv, depth):
        return self.literal(cp, node) if cp.const(node) else None

    def w_name(self, cp, node, sv, cv, depth):
        name = str(node.children[0])
        sc = cp.scope
        if name in cp.locals or name in ("card", "value", "onto"):
            return None  # read as the closures read them (``onto`` before a counter of that name)
        if name == "seat":
            return (sv, "seat") if "seat" in cp.bound else None
        if name in ("true", "false"):
            return ("True" if name == "true" else "False"), "bool"
        if name == "none":
            return "None", "none"
        if name in ("led_card", "last_card"):  # the first or last card of the trick in progress, or none
            t = f"st.zones[{self.k('trick')}]"
            return f"({t}[{0 if name == 'led_card' else -1}] if {t} else None)", "card"
        if name in SEAT_VALUES:
            return f"st.{SEAT_VALUES[name]}", "seat"
        if name in PLAIN_VALUES:
            return f"st.{PLAIN_VALUES[name]}", ("suit" if name in ("led", "trump") else "num")
        if name in sc.zones:
            return f"st.zones[{self.k(name)}]", "zone"
        if name in sc.families:
            return None
        if name in sc.vars:
            return f"st.vars[{self.k(name)}]", ("suit" if name in sc.suit_vars else "num")
        if name in sc.pools:
            return self.k(name), "holder"
        if name in sc.seat_zones or name in sc.seat_vars:
            return None
        if name in SUITS:
            return self.k(name), "suit"
        if name in RANKS:
            return self.k(name), "rank"
        return None  # a currency, order, declaration: its closure (and its kind)

    def w_attr(self, cp, node, sv, cv, depth):
        base, name = node.children
        field = _CARD_FIELDS.get(str(name))
        if field is None:
            return None
        b, kind = self.w(cp, base, sv, cv, depth)
        if kind != "card":
            return None
        return f"({b}).{field}", ("str" if field == "colour" else field)

    def w_neg(self, cp, node, sv, cv, depth):
        a, kind = self.w(cp, node.children[0], sv, cv, depth)
        return f"(-{a})", "num"

    def w_not_op(self, cp, node, sv, cv, depth):
        a, _ = self.w(cp, node.children[0], sv, cv, depth)
        return f"(not {a})", "bool"

    def w_and_op(self, cp, node, sv, cv, depth):
        parts = [self.w(cp, x, sv, cv, depth)[0] for x in chain_operands(node)]
        return "(" + " and ".join(parts) + ")", "bool"

    def w_or_op(self, cp, node, sv, cv, depth):
        parts = [self.w(cp, x, sv, cv, depth)[0] for x in chain_operands(node)]
        return "(" + " or ".join(parts) + ")", "bool"

    def w_cond(self, cp, node, sv, cv, depth):
        t, _ = self.w(cp, node.children[0], sv, cv, depth)
        a, ka = self.w(cp, node.children[1], sv, cv, depth)
        b, kb = self.w(cp, node.children[2], sv, cv, depth)
        return f"({a} if {t} else {b})", (ka if ka == kb else "any")

    def _pair(self, cp, node, sv, cv, depth) -> tuple[str, str] | None:
        """Both sides of a comparison, as ``closures.Compiler._pair`` reads them: a number
        or list beside a rank is ranks (then the closure pair's value is a constant)."""
        left, right = node.children[0], node.children[-1]
        a, kl = self.w(cp, left, sv, cv, depth)
        if kl == "rank" and isinstance(right, Tree) and right.data in ("number", "list"):
            f, kr = cp._rank_literal(right, kl)
            if kr not in ("rank", "list:rank"):
                return None
            return a, self.k(f(None, None, None))
        b, kr = self.w(cp, right, sv, cv, depth)
        if kr == "rank" and kl == "num":
            return None  # the left side is read as a rank: its closure
        return a, b

    def w_compare(self, cp, node, sv, cv, depth):
        op = _CMP_OPS.get(str(node.children[1]))
        pair = self._pair(cp, node, sv, cv, depth) if op is not None else None
        if pair is None:
            return None
        return f"({pair[0]} {op} {pair[1]})", "bool"

    def w_in_op(self, cp, node, sv, cv, depth):
        pair = self._pair(cp, node, sv, cv, depth)
        return None if pair is None else (f"({pair[0]} in {pair[1]})", "bool")

    def w_not_in_op(self, cp, node, sv, cv, depth):
        pair = self._pair(cp, node, sv, cv, depth)
        return None if pair is None else (f"({pair[0]} not in {pair[1]})", "bool")

    def w_binop(self, cp, node, sv, cv, depth):
        left, op, right = node.children
        op = str(op)
        a, kl = self.w(cp, left, sv, cv, depth)
        if op in ("/", "%"):  # only by a number known now (not 0: checked when compiled)
            divisor = int(str(right.children[0])) if isinstance(right, Tree) and right.data == "number" else 0
            if divisor == 0:
                return None
            return f"({a} {'//' if op == '/' else '%'} {divisor!r})", "num"
        b, kr = self.w(cp, right, sv, cv, depth)
        if op in _SEAT_OPS and (kl == "seat" or kr == "seat"):
            kind = "num" if (op == "-" and kl == "seat" and kr == "seat") else "seat"
            return f"(({a} {_SEAT_OPS[op]} {b}) % st.n)", kind
        if op not in _NUM_OPS:
            return None
        return f"({a} {_NUM_OPS[op]} {b})", "num"

    def w_call(self, cp, node, sv, cv, depth):
        name = str(node.children[0])
        args = list(node.children[1].children) if len(node.children) > 1 else []
        sc = cp.scope
        if (name in sc.seat_zones or name in sc.seat_vars) and len(args) == 1:
            a, kind = self.w(cp, args[0], sv, cv, depth)
            if kind != "seat":
                return None  # a number taken round the table, checked: its closure
            if name in sc.seat_zones:
                return f"st.pzones[{self.k(name)}][{a}]", "zone"
            return f"st.pvars[{self.k(name)}][{a}]", ("suit" if name in sc.suit_vars else "num")
        if name == "tricks_won" and len(args) == 1:  # the tricks a seat has won this hand
            a, kind = self.w(cp, args[0], sv, cv, depth)
            return (f"st.won[{a}]", "num") if kind == "seat" else None
        if name == "count" and len(args) == 1:  # the cards of a zone
            z, kind = self.w(cp, args[0], sv, cv, depth)
            return (f"_len({z})", "num") if kind == "zone" else None
        if name in COMBINATION_FIELDS and len(args) == 2:
            return self._combination(cp, node, name, args, sv, cv, depth)
        if name in _OVER_SEATS and len(args) == 1 and _plain_over_seats(args[0], sc):
            sub = cp.sub(cp.bound | BOUND["seat"], cp.locals)
            x = f"_x{depth}"
            e, kind = self.w(sub, args[0], x, cv, depth)
            call = f"{self.k(_over_seats(name, e, x, self.ns))}(st, {sv}, {cv})"
            if len(e) > _UNROLL_CHARS or self.unrolled > _UNROLL_BUDGET:
                return call, "num"
            self.unrolled += len(e) * sum(_UNROLL_SEATS)
            # for two, three or four seats, each seat's value written out (no call, no loop)
            seat = re.compile(rf"\b{x}\b")
            for n in reversed(_UNROLL_SEATS):
                values = [seat.sub(str(i), e) for i in range(n)]
                call = f"({_unrolled(name, values, depth, kind in ('num', 'bool'))} if st.n == {n} else {call})"
            return call, "num"
        return None

    def _combination(self, cp, node, name, args, sv, cv, depth):
        """``best(ZONE, C)``, ``count_of``…: the field read from what the combination keeps per
        the zone's cards, or worked out and kept there (an error said where it was written): no
        closure called on the way."""
        comb = cp.scope.combinations.get(str(args[1].children[0])) if isinstance(args[1], Tree) else None
        if comb is None or comb.wild or args[1].data != "name":
            return None
        z, kind = self.w(cp, args[0], sv, cv, depth)
        if kind != "zone":
            return None
        miss = self.k(worked_out(comb, cp.where(node)))
        t = f"_t{depth}"
        return (
            f"({self.k(comb.cache)}.get({t} := _tuple({z})) or {miss}({t})).{COMBINATION_FIELDS[name]}",
            "num",
        )


# each seat's value taken into the result, as max(), min(), sum() and the count take them
# (max and min keep the first of equal values): no list built
_TAKE = {
    "max_seats": ("_r = _v if {x} == 0 or _v > _r else _r", "_r"),
    "min_seats": ("_r = _v if {x} == 0 or _v < _r else _r", "_r"),
    "sum_seats": ("_r = _r + _v", "0"),
    "count_seats": ("_r = _r + 1 if _v else _r", "0"),
}


def _unrolled(name: str, values: list[str], depth: int, numbers: bool) -> str:
    """``max_seats``/``min_seats``/``sum_seats``/``count_seats`` of the sources ``values`` (one a
    seat, in order), taken as ``_over_seats``'s loop takes them (max and min the first of equal
    values, a sum from 0); of two numbers or truths (``numbers``), the greater or lesser by one
    comparison, no call (``depth`` names the two values held; values of another kind may not
    compare, and the error is then max()'s own)."""
    if numbers and len(values) == 2 and name in ("max_seats", "min_seats"):
        a, b = f"_a{depth}", f"_b{depth}"
        return f"({b} if ({a} := {values[0]}) {'<' if name == 'max_seats' else '>'} ({b} := {values[1]}) else {a})"
    if name == "max_seats":
        return f"_max({', '.join(values)})"
    if name == "min_seats":
        return f"_min({', '.join(values)})"
    if name == "sum_seats":
        return "(0 + " + " + ".join(values) + ")"
    return "(" + " + ".join(f"(1 if {v} else 0)" for v in values) + ")"


def _over_seats(name: str, e: str, x: str, ns: dict) -> Callable:
    """``max_seats``/``min_seats``/``sum_seats``/``count_seats`` of the source ``e`` about the
    seat ``x``, as a function of (state, seat, card) looping over the seats."""
    take, start = _TAKE[name]
    src = (
        "def _over(st, s, c):\n"
        f"    _r = {'None' if start == '_r' else start}\n"
        f"    for {x} in _range(st.n):\n"
        f"        _v = {e}\n"
        f"        {take.format(x=x)}\n"
        "    return _r\n"
    )
    return build(src, ns, "_over")


def _plain_over_seats(node, scope) -> bool:
    """Whether the expression about each seat of a ``max_seats``/``sum_seats``… calls
    nothing but a seat's counters and zones (then no optimisation keeps its value)."""
    return all(
        str(sub.children[0]) in scope.seat_vars or str(sub.children[0]) in scope.seat_zones
        for sub in node.iter_subtrees()
        if sub.data == "call"
    )


def expr_code(cp: Compiler, tree) -> Code | None:
    """The source of the checked expression ``tree`` (compiled by ``cp``), or None if
    none of it would be written (it is a closure)."""
    ns: dict = {}
    wr = _Writer(ns)
    try:
        src, _ = wr.w(cp, tree, "s", "c", 0)
    except RecursionError:
        return None
    if not wr.written:
        return None
    return Code(src, ns, wr.written)


def pays(code: Code) -> bool:
    """Whether the source is worth a function of its own (more than one part written:
    a plain name or number is as quick as its closure)."""
    return code.written > 1


def function(code: Code) -> Callable:
    """The expression as a function of (state, seat, card), as a closure is."""
    return build("def _fn(st, s, c):\n    return " + code.src + "\n", code.ns, "_fn")


# what a generated function reads of the state again and again: taken into a local once (the
# state never rebinds them while a function runs; the source holds no string literal)
_HOISTED = (
    ("_pv", "pvars", re.compile(r"\bst\.pvars\[")),
    ("_gv", "vars", re.compile(r"\bst\.vars\[")),
    ("_pz", "pzones", re.compile(r"\bst\.pzones\[")),
    ("_gz", "zones", re.compile(r"\bst\.zones\[")),
)


def hoisted(lines: list[str], least: int = 2) -> list[str]:
    """The lines of a generated function (``def`` first) with ``st.pvars``, ``st.vars``,
    ``st.pzones`` and ``st.zones`` read once at its start, each that it reads ``least`` times
    or more (1 for a function whose reads are in a loop over the seats)."""
    body = "\n".join(lines[1:])
    head = []
    for local, attr, pattern in _HOISTED:
        if len(pattern.findall(body)) >= least:
            body = pattern.sub(lambda m: local + m.group(0)[len("st.") + len(attr) :], body)
            head.append(f"    {local} = st.{attr}")
    return [lines[0], *head, body]


def build(src: str, ns: dict, name: str) -> Callable:
    """Compile the generated ``src`` with the constants ``ns`` and no built-ins; its function ``name``."""
    glb = {**ns, **BUILTINS, "__builtins__": {}}
    exec(compile(src, "<academie: generated>", "exec"), glb)  # noqa: S102 - generated from the checked tree only
    return glb[name]
