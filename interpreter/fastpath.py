"""What both trick loops work out once per tricks step to play any rule shape
quickly, keyed on the shape of an expression (the names it reads), never on a
game:

- a card test that reads only the card (a free card, ``card == AH``) is
  tabulated card by card (``card_table``): the loops look the card up instead
  of calling the test;
- winner keys of which some read more than the card, ``led`` and ``trump``
  (``AH in trick``) are split (``KeyPlan``): the keys that read only those are
  tabulated per (led, trump), and only the others are evaluated for each card
  at the trick's end.

Each table holds values that depend on the rule file alone (and on the card,
``led`` and ``trump``), so it is kept in ``compiled`` and shared by every game
of the rule file; a card missing from a table is evaluated when first met.
"""

from __future__ import annotations

from typing import Any

from ..dsl.cards import RANKS, SUITS
from ..dsl.compiler import Expr

# what an expression may read and still be a function of the card alone
_CARD_ONLY = frozenset({"card", "rank", "suit", "colour", "true", "false", "none", *SUITS, *RANKS})


def _declared(game) -> set[str]:
    """The names a rule file declares that read the state (its zones and counters)."""
    return {*game.zones, *game.seat_zones, *game.pools, *game.vars}


def reads_card_only(e: Expr, game) -> bool:
    """``e`` reads nothing but the card (its fields, ranks in the game's orders, literals)."""
    return e.names <= _CARD_ONLY | set(game.orders) and e.names.isdisjoint(_declared(game))


def reads_last_card_only(e: Expr, game) -> bool:
    """``e`` reads nothing but ``last_card`` (its fields, ranks in the game's orders,
    literals): the same for every play of a card, right after it is played."""
    return e.names <= _CARD_ONLY | {"last_card"} | set(game.orders) and e.names.isdisjoint(_declared(game))


def reads_card_led_trump(e: Expr, game) -> bool:
    """``e`` reads nothing but the card, ``led`` and ``trump``."""
    return e.names <= _CARD_ONLY | {"led", "trump"} | set(game.orders) and e.names.isdisjoint(_declared(game))


def card_only_table(state, e: Expr | None) -> dict | None:
    """``card_table`` of ``e`` when it reads only the card (``reads_card_only``), else
    None; whether it does is worked out once per rule file (``compiled.card_only``)."""
    if e is None:
        return None
    only = state._compiled.card_only
    ok = only.get(id(e))
    if ok is None:
        ok = only[id(e)] = reads_card_only(e, state.g)
    return card_table(state, e) if ok else None


def card_table(state, e: Expr) -> dict:
    """The table {card: bool} of a card test that reads only the card, kept
    once per rule file and filled with the cards of ``state``'s pack."""
    tables = state._compiled.card_tests
    tab = tables.get(id(e))
    if tab is None:
        tab = tables[id(e)] = {}
    filled = state._compiled.card_filled
    if (id(e), state.n) not in filled:  # the pack of this number of players not yet in the table
        fn = e.fn
        for c in state.pack_cards:
            if c not in tab:
                tab[c] = bool(fn(state, None, c))
        filled.add((id(e), state.n))
    return tab


class KeyPlan:
    """Winner keys split into those tabulated per (led, trump) and the others.

    ``tables``: {(led, trump): {card: the tabulated keys' values}}. With
    ``prefix`` the keys evaluated per card are the first ones, and a card's key
    is their values followed by the tabulated ones; otherwise ``slots`` says
    where each evaluated value goes."""

    __slots__ = ("pure", "evaluated", "prefix", "slots", "tables")

    def __init__(self, keys: list[Expr], game) -> None:
        flags = [reads_card_led_trump(e, game) for e in keys]
        self.pure = [e.fn for e, p in zip(keys, flags) if p]
        self.evaluated = [e.fn for e, p in zip(keys, flags) if not p]
        k = len(self.evaluated)
        self.prefix = not any(flags[:k])
        self.slots = [i for i, p in enumerate(flags) if not p]
        self.tables: dict[tuple, dict] = {}

    def keys(self, state, plays: list[tuple[int, Any]]) -> list[tuple]:
        """The key of each play (``state`` at the trick's end: ``led``,
        ``trump`` and the trick as the general loop reads them)."""
        lt = (state.led, state.trump)
        tab = self.tables.get(lt)
        if tab is None:
            tab = self.tables[lt] = {}
        pure, evaluated = self.pure, self.evaluated
        out = []
        for s, c in plays:
            part = tab.get(c)
            if part is None:
                part = tab[c] = tuple([f(state, s, c) for f in pure])
            if self.prefix:
                out.append(tuple([f(state, s, c) for f in evaluated]) + part)
            else:
                k: list = list(part)
                for i, f in zip(self.slots, evaluated):
                    k.insert(i, f(state, s, c))
                out.append(tuple(k))
        return out


def key_plan(state, st) -> KeyPlan:
    """The ``KeyPlan`` of a tricks step, made once per rule file."""
    plans = state._compiled.key_plans
    plan = plans.get(id(st))
    if plan is None:
        plan = plans[id(st)] = KeyPlan(st.winner_key, state.g)
    return plan
