"""Kind checking: what kind of value each part of an expression gives (a number, a
seat, a truth value, a card, a suit, a zone …), and the located messages for a part
of the wrong kind (``pot or 10``, ``card < 5``, a seat times a number, the branches
of an ``if`` of two kinds). Checked as the expression is compiled (``closures``):
``Checker`` is the compiler's base, each check named for what it refuses.

Kinds: num bool seat card suit rank str zone holder none any, ``list`` /
``list:K|…`` (a list, of literals of those kinds), ``symbol:NAME`` (the name of a
currency, order or declaration).
"""

from __future__ import annotations

from typing import NoReturn

from lark import Token

from .errors import Diagnostic, Pos, RuleError

# Types of values: which can be ordered (< >), and which can never equal one another.
ORDERED = ("num", "seat", "any")
NUMERIC = ("num", "bool")  # a seat is not a number: index(SEAT) is its place at the table
# What the two branches of an ``if`` must agree on: a seat and a number, or a truth value and a number, differ.
BRANCH_CLASS = {
    "num": "number",
    "seat": "seat",
    "bool": "truth value",
    "card": "card",
    "suit": "suit",
    "rank": "rank",
    "str": "text",
    "zone": "zone",
}
INDEX_HINT = ": write index(SEAT) for a seat's place at the table (0, 1, … players - 1)"
CLASS = {
    "num": "number",
    "seat": "number",
    "card": "card",
    "suit": "suit",
    "rank": "rank",
    "str": "text",
    "zone": "zone",
}
KIND_NAMES = {
    "num": "number",
    "bool": "truth value",
    "str": "text",
    "none": "none",
    "holder": "money zone",
    "zone": "zone (of cards)",
}


def kind_name(k: str) -> str:
    if k.startswith("list"):
        return "list"
    if k.startswith("symbol:"):
        return f"name ({k[7:]})"
    return KIND_NAMES.get(k, k)


def truth_hint(k: str) -> str:
    """How to make a truth value of a value of kind ``k``."""
    if k == "seat":
        return ": compare it with a seat (seat == dealer)"
    if k == "num":
        return ": compare it with a number (hand_no % 4 == 0, count(hand(seat)) > 0)"
    return ""


def article(k: str) -> str:
    """``a number``, ``a zone (of cards)``: a type as a reader says it."""
    name = kind_name(k)
    return ("an " if name[0] in "aeiou" else "a ") + name


class Checker:
    """The kind checks of a compiler of the expression ``text`` found at ``pos``."""

    text: str
    pos: Pos

    def where(self, node) -> Pos:
        """The place of ``node`` in the rule file."""
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

    def need(self, node, kind, *wanted):
        """``node``, of kind ``kind``, gives one of the kinds ``wanted``."""
        if kind not in wanted and kind != "any":
            self.fail(node, f"expected {' or '.join(article(w) for w in wanted)} here, found {article(kind)}")

    def need_truth(self, node, kind, what: str = "'and', 'or' join truth values"):
        """An operand of ``and`` / ``or`` / ``not``, the test of an ``if``: a truth
        value (a comparison, a test, true/false). ``pot or 10`` is a mistake, not a
        number, and ``if dealer then …`` a seat, not a test."""
        if kind not in ("bool", "any"):
            self.fail(node, f"{what} (comparisons, tests), not {article(kind)}{truth_hint(kind)}")

    def need_card_field(self, name, kind, attr: str):
        """``X.suit``, ``.rank``, ``.colour``: X a card, the field one a card has."""
        if kind not in ("card", "any"):
            self.fail(name, f"'.{attr}' applies to a card, not to a {kind}")
        if attr not in ("suit", "rank", "colour"):
            self.fail(name, f"a card has no field '{attr}' (it has .suit, .rank, .colour)")

    def same_branches(self, node, ka, kb):
        """The two branches of an ``if`` give values of one kind."""
        ca, cb = BRANCH_CLASS.get(ka), BRANCH_CLASS.get(kb)
        if ca and cb and ca != cb:
            self.fail(node, f"the two branches give {article(ka)} and {article(kb)}: both must give the same kind")

    def comparison(self, node, op: str, kl, kr):
        """``<`` ``<=`` ``>`` ``>=`` between numbers or seats; ``==`` ``!=`` between
        values that can be equal."""
        if op in ("<", "<=", ">", ">=") and ("rank" in (kl, kr) or "suit" in (kl, kr)):
            self.fail(node, "ranks and suits have no order of their own: compare rank(card) instead")
        if op in ("<", "<=", ">", ">="):
            for side, k in ((node.children[0], kl), (node.children[-1], kr)):
                if k == "card":
                    self.fail(side, "a card has no order of its own: compare rank(card) or card.rank instead")
                if k not in ORDERED:
                    self.fail(side, f"'{op}' compares numbers or seats, not a {kind_name(k)}")
        else:
            self.comparable(node, kl, kr)

    def comparable(self, node, kl, kr):
        """``==`` and ``!=`` between values that can never be equal (a card
        and a number, a suit and a card …) is a mistake in the rules."""
        cl, cr = CLASS.get(kl), CLASS.get(kr)
        if cl and cr and cl != cr and not {cl, cr} <= {"text", "suit", "rank"}:  # a suit is its letter
            hint = ""
            if "card" in (cl, cr):
                hint = ": compare card.suit, card.rank or rank(card) instead"
            self.fail(node, f"a {kind_name(kl)} is compared with a {kind_name(kr)}, which it can never equal{hint}")

    def membership(self, node, kl, kr):
        """``X in Y``: a card in a zone, or a value in a list."""
        if kr == "zone":
            if kl not in ("card", "any"):
                self.fail(node.children[0], f"a zone holds cards, not a {kind_name(kl)}")
        elif not (kr == "any" or kr.startswith("list")):
            self.fail(node.children[-1], f"'in' needs a zone or a list [...] on its right, not a {kind_name(kr)}")

    def arithmetic(self, node, op: str, kl, kr):
        """``a OP b``: numbers, or a seat and a number of places (``seat + 1``, the
        distance ``seat - dealer``); never two seats added, a seat taken from a
        number, or a seat multiplied, divided or taken a remainder of."""
        left, _, right = node.children
        for n, k in ((left, kl), (right, kr)):
            self.need(n, k, "num", "seat")
            if k == "seat" and op in "*/%":
                self.fail(n, f"'{op}' works on numbers, and a seat is not one" + INDEX_HINT)
        if op == "+" and kl == "seat" and kr == "seat":
            self.fail(node, "two seats cannot be added: add a number of places to a seat")
        if op == "-" and kl == "num" and kr == "seat":
            self.fail(node, "a seat cannot be taken from a number")
