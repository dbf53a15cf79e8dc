"""What a compiled expression is, and what it is compiled against.

``Scope``: the names a rule file declares, which its expressions may use;
``Expr``: a compiled expression (its closure ``f(st, s, c)``, text, place and
kind); ``BOUND``: which variables each kind of expression may use;
``StateView``: the attributes of the game state that compiled closures read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import Pos

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


@dataclass
class Scope:
    """The names a rule file declares, which its expressions may use."""

    zones: set[str] = field(default_factory=set)  # shared zones
    families: dict[str, tuple] = field(default_factory=dict)  # a family of piles (zones: NAME: piles: N) -> its zones
    seat_zones: set[str] = field(default_factory=set)  # one per seat: hand(seat)
    vars: set[str] = field(default_factory=set)  # game counters
    seat_vars: set[str] = field(default_factory=set)  # one per seat: points(seat)
    pools: set[str] = field(default_factory=set)  # money holders that are not seats
    currencies: set[str] = field(default_factory=set)
    orders: dict[str, dict] = field(default_factory=dict)  # name -> {Card: strength}
    declarations: set[str] = field(default_factory=set)
    suit_vars: set[str] = field(default_factory=set)  # counters that hold a suit (holds: suit), not a number
    combinations: dict[str, Any] = field(default_factory=dict)  # name -> combinations.Combination
    # the values kept by parts of expressions evaluated once per card (``Tabling``), by the part's text
    tables: dict = field(default_factory=dict, compare=False, repr=False)


class Expr:
    """A compiled expression: the closure, its source text and position.

    ``names`` is every name the expression reads (for dependency checks);
    ``filter(st, s, cards)``, on card tests, returns the cards that pass, in
    one call for a whole hand."""

    __slots__ = ("fn", "text", "pos", "kind", "names", "filter", "shape", "code")

    def __init__(self, fn: Fn, text: str, pos: Pos, kind: str, names=frozenset(), filter=None, shape=None, code=None):
        self.fn, self.text, self.pos, self.kind = fn, text, pos, kind
        self.names = names
        self.code = code  # its Python source (``codegen.Code``), when it is compiled from one
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
