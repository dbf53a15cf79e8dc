"""A pass over a zone's cards grouped by the one field of the card it reads.

``max_cards(hand(seat), 100 * count(hand(seat), x, x.suit == card.suit) + …)`` reads
the card under test only through its suit: two cards of a suit give the same number.
Plain, the number is worked out for each card of the zone; grouped, the zone's cards
are grouped by suit (one pass) and the number is worked out once for the first card
of each suit, then taken as many times as the suit has cards. So for
``count``/``any``/``all``/``sum_cards``/``max_cards(ZONE, EXPR)`` whose EXPR passes over
a zone itself (a binder or a ``run``: worth grouping) and reads ``card`` only as
``card.suit``, or only as ``card.rank`` and ``rank(card, ORDER)`` for an order that ranks
cards by their rank alone (or ``card.colour``).

The values are those of the plain pass: a count adds each group's truth times its
cards, a sum its number times its cards, a greatest or ``any``/``all`` takes each group
once. The first cards of the groups are taken in the zone's order, so an error raised
for a card is raised for the first card of the zone that raises it, as plainly.
"""

from __future__ import annotations

from lark import Tree

from ..closures import Compiler
from ..expr import Fn
from ..functions.cards import order_of
from ..kinds import NUMERIC
from ..syntax import call_args

_FOLDS = frozenset({"count", "any", "all", "sum_cards", "max_cards"})
_BINDERS = _FOLDS


def grouped(cp: Compiler, node) -> Fn | None:
    """The grouped closure of the call ``node`` (already compiled plainly, so checked),
    or None when it is not a pass of that shape."""
    name = str(node.children[0])
    args = call_args(node)
    if name not in _FOLDS or len(args) != 2:
        return None
    body = args[1]
    if not isinstance(body, Tree) or not _costly(body):
        return None
    fields: set[str] = set()
    if not _card_reads(cp, body, fields) or len(fields) != 1:
        return None
    (field,) = fields
    z, _ = cp.c(args[0])
    if name in ("count", "any", "all"):
        e = cp.lazy(body, "card", "bool")
    else:
        e = cp.lazy(body, "card", *NUMERIC)
    return _fold(name, z, e, field)


def _costly(body) -> bool:
    """Whether ``body`` passes over a zone (a binder with a test or number, or a ``run``)."""
    for sub in body.iter_subtrees():
        if sub.data == "call":
            fname = str(sub.children[0])
            if fname == "run" or (fname in _BINDERS and len(call_args(sub)) > 1):
                return True
    return False


def _card_reads(cp: Compiler, node, fields: set[str]) -> bool:
    """Add to ``fields`` the fields of the bound ``card`` that ``node`` reads; False when it
    reads the card otherwise (the card itself, ``run(ZONE, card)``, a rank in an order
    that tells cards of a rank apart)."""
    if not isinstance(node, Tree):
        return True
    d = node.data
    if d == "name":
        return str(node.children[0]) != "card"
    if d == "attr" and _is_card(node.children[0]):
        fields.add(str(node.children[1]))
        return True
    if d == "call":
        fname = str(node.children[0])
        args = call_args(node)
        if fname in _BINDERS and len(args) == 2:  # its test binds ``card`` anew
            return _card_reads(cp, args[0], fields)
        if fname == "rank" and args and _is_card(args[0]):
            order = order_of(cp, node, args[1] if len(args) == 2 else None)
            if not _by_rank(order):
                return False
            fields.add("rank")
            return all(_card_reads(cp, a, fields) for a in args[1:] if not _is_order(cp, a))
    return all(_card_reads(cp, ch, fields) for ch in node.children)


def _is_card(node) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) == "card"


def _is_order(cp: Compiler, node) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) in cp.scope.orders


def _by_rank(order: dict) -> bool:
    """Whether the order gives every card of a rank the same place (or none)."""
    seen: dict = {}
    for card, v in order.items():
        if seen.setdefault(card.rank, v) != v:
            return False
    return True


def _fold(name: str, z: Fn, e: Fn, field: str) -> Fn:
    """The pass over the zone's cards, ``e`` worked out once for the first card of each
    value of ``field``."""

    def groups(cards) -> tuple[list, list]:
        firsts: list = []
        counts: list = []
        at: dict = {}
        for x in cards:
            k = getattr(x, field)
            i = at.get(k)
            if i is None:
                at[k] = len(firsts)
                firsts.append(x)
                counts.append(1)
            else:
                counts[i] += 1
        return firsts, counts

    if name == "count":

        def count(st, s, c):
            firsts, counts = groups(z(st, s, c))
            return sum([n for x, n in zip(firsts, counts) if e(st, s, x)])

        return count
    if name == "sum_cards":

        def sum_cards(st, s, c):
            firsts, counts = groups(z(st, s, c))
            return sum([int(e(st, s, x)) * n for x, n in zip(firsts, counts)])

        return sum_cards
    if name == "max_cards":

        def max_cards(st, s, c):
            firsts, _ = groups(z(st, s, c))
            return max([int(e(st, s, x)) for x in firsts], default=0)

        return max_cards
    if name == "any":
        return lambda st, s, c: any(e(st, s, x) for x in groups(z(st, s, c))[0])
    return lambda st, s, c: all(e(st, s, x) for x in groups(z(st, s, c))[0])
