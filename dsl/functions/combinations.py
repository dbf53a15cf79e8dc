"""Built-in functions of combinations (``combinations:``, ``dsl/combinations.py``): what a
zone holds of a named combination. ``best(ZONE, C)`` the key of its best one (0 when it
holds none: a number, greater for a better one, to compare; for a ranking, a hand's rank
then its tie-breaks), ``count_of`` how many it holds, ``cards_of`` their cards in all,
``size_of`` the cards of the best, ``top_of`` the rank of its top card in the
combination's order, ``value_of`` the value of its cards.

Each is worked out by grouping the zone's cards by rank and suit once per call (and kept
for the same cards), never card by card."""

from __future__ import annotations

from operator import attrgetter

from ..combinations import find, finder
from ..wild import find_wild
from ..errors import Diagnostic, RuleError
from .building import Building as Compiler

FIELDS = {
    "best": "key",
    "count_of": "count",
    "cards_of": "cards",
    "size_of": "size",
    "top_of": "top",
    "value_of": "value",
}


def worked_out(comb, where):
    """What ``comb`` holds of a tuple of cards not in its cache: worked out and kept, an error
    said where the call was written (generated code calls it on a miss: ``dsl/codegen.py``)."""

    anew = finder(comb)

    def miss(cards: tuple):
        try:
            return anew(cards)
        except ValueError as e:
            raise RuleError(Diagnostic(where, str(e), code="runtime")) from None

    return miss


def f_combination(field: str):
    def build(cp: Compiler, node, args):
        z, k = cp.c(args[0])
        cp.need(args[0], k, "zone")
        table = cp.scope.combinations
        name = cp.symbol(args[1], "a combination", table)
        comb = table[name]
        where = cp.where(node)
        get = attrgetter(field)
        cache = comb.cache  # what ``find`` keeps per the zone's cards, looked up here first

        if comb.wild:  # wild cards standing for the best (dsl/wild.py): worked out each time

            def wild_value(st, s, c):
                try:
                    return get(find_wild(comb, z(st, s, c)))
                except ValueError as e:
                    raise RuleError(Diagnostic(where, str(e), code="runtime")) from None

            return wild_value, "num"

        miss = worked_out(comb, where)

        def value(st, s, c):
            cards = tuple(z(st, s, c))
            return get(cache.get(cards) or miss(cards))

        return value, "num"

    return build


def f_tail(cp: Compiler, node, args):
    """``tail_of(ZONE, C)``: the greatest number of the zone's last cards (in the order they were
    put there) that together make one combination ``C``, every one of them in it; 0 when none do.
    A pair, a pair-royal, a sequence or a fifteen made by the last cards played."""
    z, k = cp.c(args[0])
    cp.need(args[0], k, "zone")
    table = cp.scope.combinations
    name = cp.symbol(args[1], "a combination", table)
    comb = table[name]
    where = cp.where(node)

    def value(st, s, c):
        cards = z(st, s, c)
        best = 0
        try:
            for k in range(len(cards), 0, -1):
                if find(comb, cards[len(cards) - k :]).size == k:
                    best = k
                    break
        except ValueError as e:
            raise RuleError(Diagnostic(where, str(e), code="runtime")) from None
        return best

    return value, "num"
