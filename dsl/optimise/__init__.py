"""The optimisations: what is worked out once and kept, where plain compilation
(``closures.Compiler``) works each value out at every call. None changes a value
an expression gives, or an error it raises; each is checked against the plain
closures (``tests/test_tabled_parts.py``, ``tests/test_speed_paths.py``).

- ``tables``: the parts of an expression evaluated once per card of a zone keep
  their values per what they read (``Tabling``, ``binder_truths``), and so does a
  whole expression that passes over zones (``whole``);
- ``filters``: whole-hand filters (``Expr.filter``) for the common shapes of card tests;
- ``hoisting``: a whole-hand filter working out once per call the costly parts of a
  card test that do not read the card (a card that read such a part kept per its value);
- ``counts``: ``sum_seats(count(ZONE(seat), TEST))`` of a test of the card alone kept with
  the cards it counted over, counted again only for the cards that came;
- ``groups``: a pass over a zone whose number or test reads one field of the card
  (its suit, its rank) worked out once per group of the zone's cards with that field.

``off()`` switches them all off while compiling (a context manager, for the
equivalence tests and for measuring them); ``enabled()`` says whether they are on.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

from ..closures import Compiler
from ..errors import Pos
from ..expr import BOUND, Fn, Scope
from .filters import card_filter, context_filter, zone_filter
from .hoisting import hoisting_filter
from .counts import kept_seat_count
from .tables import KEPT_CALLS, Optimising, Tabling

KEPT_CALLS.append(kept_seat_count)  # (counts builds on tables: registered here, so neither imports the other back)

__all__ = ["Optimising", "enabled", "hand_filter", "off", "whole"]

_ON: ContextVar[bool] = ContextVar("academie_optimise", default=True)


def enabled() -> bool:
    """Whether expressions compiled now are optimised (they are unless ``off()``)."""
    return _ON.get()


@contextmanager
def off() -> Iterator[None]:
    """Compile with every optimisation off, in this thread, within the ``with``."""
    token = _ON.set(False)
    try:
        yield
    finally:
        _ON.reset(token)


def whole(text: str, pos: Pos, scope: Scope, kind: str, tree, fn: Fn) -> Fn:
    """The compiled expression of kind ``kind`` as it is called from outside: a game's
    or seat's expression that passes over zones keeps its value per what it reads
    (``Tabling.whole``); any other, ``fn`` itself."""
    if kind in ("game", "seat"):
        return Tabling(text, pos, scope, BOUND[kind]).whole(tree, fn)
    return fn


def hand_filter(cp: Compiler, fn: Fn, tree) -> Callable | None:
    """The first whole-hand filter that fits the card test ``tree`` (``fn`` compiled
    by ``cp``), or None (then ``Expr`` tests card by card)."""
    return (
        card_filter(cp, tree)
        or context_filter(fn, tree, cp.scope)
        or zone_filter(fn, tree, cp)
        or hoisting_filter(cp.text, cp.pos, cp.scope, tree)
    )
