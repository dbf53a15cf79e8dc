"""Whole-hand filters: a card test applied to a hand in one call (``Expr.filter``),
faster than the test card by card. ``card_filter``: ``card.FIELD == VALUE``, VALUE
worked out once per call; ``context_filter``: a test reading the card and a few
values of the hand, each card's value kept per those values; ``zone_filter``: the
same, reading the cards of shared zones too. Each gives, for every hand, the cards
the test itself passes (``tests/test_speed_paths.py``)."""

from __future__ import annotations

from itertools import compress
from operator import attrgetter
from typing import Any, Callable

from lark import Tree

from ..closures import PLAIN_VALUES, SEAT_VALUES, Compiler
from ..expr import Fn, Scope
from ..syntax import is_bound_card, tokens
from .tables import CARD_ONLY_CALLS, CONTEXT_LIMIT, UNSEEN, led_card_of, literal_names, table_key


def card_filter(cp: Compiler, tree):
    """A whole-hand filter for the common shape ``card.FIELD == VALUE`` (or
    ``!=``), VALUE not depending on the card: VALUE is computed once per call,
    not once per card. Other shapes use the per-card closure."""
    if not (isinstance(tree, Tree) and tree.data == "compare" and str(tree.children[1]) in ("==", "!=")):
        return None
    left, right = tree.children[0], tree.children[2]
    if not (isinstance(left, Tree) and left.data == "attr" and is_bound_card(left.children[0])):
        return None
    if any(t.type == "NAME" and str(t) == "card" for t in tokens(right)) if isinstance(right, Tree) else False:
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


# -- a card test that reads only the card and a few values of the hand: tabulated -------


def _value_getter(attr: str) -> Callable:
    return attrgetter(attr)


def _counter_getter(name: str) -> Callable:
    return lambda st: st.vars[name]


def context_filter(fn: Fn, tree, scope: Scope):
    """A whole-hand filter for a test that reads the card and nothing else but
    the seat, the hand's single values (``led``, ``led_card``, ``trump``,
    ``tricks_played``, ``dealer``, …) and the game's counters: the test's value
    for each card is kept per set of those
    values (``tricks_played > 0 or card.suit != H``: one table while
    ``tricks_played`` is 0, one after). None for any other test."""
    if not isinstance(tree, Tree):
        return None
    allowed = literal_names(scope) | {"card"}
    values: dict[str, Callable] = {}  # name -> how its value is read from the state
    seat = False
    for sub in tree.iter_subtrees():
        if sub.data == "call" and str(sub.children[0]) not in CARD_ONLY_CALLS:
            return None
        if sub.data == "name":
            n = str(sub.children[0])
            if n == "seat":
                seat = True
            elif n in SEAT_VALUES:
                values[n] = _value_getter(SEAT_VALUES[n])
            elif n in PLAIN_VALUES:
                values[n] = _value_getter(PLAIN_VALUES[n])
            elif n == "led_card":
                values[n] = led_card_of
            elif n in scope.vars:
                values[n] = _counter_getter(n)
            elif n not in allowed:
                return None
    if not values and not seat:
        return None  # the card alone: the per-card closure is as quick
    read = [values[n] for n in sorted(values)]
    if len(read) == 1 and not seat:  # one value (``tricks_played``): the value itself is the key
        (get,) = read
        return kept_filter(fn, lambda st, s: get(st), "values")
    return kept_filter(fn, lambda st, s: (s if seat else None, *[get(st) for get in read]), "values")


def kept_filter(fn: Fn, key_of: Callable[[Any, Any], tuple], per: str):
    """A whole-hand filter that keeps each card's value of ``fn`` per key
    (``key_of(state, seat)``: the values the test reads besides the card),
    each worked out, and any error raised, by ``fn`` itself the first time.
    ``filter.kept_per`` says what the key holds (``per``)."""
    tables: dict = {}

    def filt(st, s, cards):
        k = key_of(st, s)
        tab = tables.get(k)
        if tab is None:
            if len(tables) >= CONTEXT_LIMIT:
                tables.clear()
            tab = tables[k] = {}
        vals = list(map(tab.get, cards))
        if None not in vals:  # every card's value kept (none is None): in C
            return list(compress(cards, vals))
        out = []
        for c in cards:
            v = tab.get(c, UNSEEN)
            if v is UNSEEN:
                v = tab[c] = fn(st, s, c)
            if v:
                out.append(c)
        return out

    filt.kept_per = per  # type: ignore[attr-defined]
    return filt


def zone_filter(fn: Fn, tree, cp: Compiler):
    """A whole-hand filter for a test that reads the card and nothing else but the
    seat, the hand's single values, the game's counters and the cards of shared zones
    (``all(trick, x, x.suit != led or rank(card) > rank(x))``): the test's value for
    each card is kept per set of those values and cards (``table_key``), each worked
    out, and any error raised, by the test itself the first time. None for a test
    that reads a seat's zone (the hand it filters changes at every call) or anything
    else."""
    key = table_key(tree, cp)
    if key is None:
        return None
    values, zones = key
    if not zones or not all(z in cp.scope.zones for z in zones):
        return None
    parts = [values[v] for v in sorted(values) if v != "card"] + [zones[z] for z in sorted(zones)]
    return kept_filter(fn, lambda st, s: tuple([p(st, s, None) for p in parts]), "values and zones")
