"""Building a draw-and-meld step (``kind: draw_meld``): each turn a player draws from a
stock or takes the top of a discard pile, may lay out cards on his side of the table (sets
and runs, as a ``melds`` combination of the file says), and discards. docs/language.md,
section 4, ``kind: draw_meld``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .combinations import Combination

if TYPE_CHECKING:
    from .compiler import Expr
    from .gamedef import EndRule

DRAWN = ("hand", "faced")


@dataclass
class MeldSpec:
    """What a ``draw_meld`` step says (see the module's doc)."""

    first: Expr | None  # who plays first (seat bound: none), default the dealer's next
    stock: str  # the shared zone drawn from, face down, its top the last card
    discards: str  # the shared zone discarded to, face up, its top the last card
    table: str  # the per-seat zone of the cards a seat has laid out
    melds: Combination  # a melds combination: what a seat's table must lay out into, every card used
    drawn: str = "hand"  # hand: a card drawn goes into the hand; faced: it is turned up, laid out at once or passed
    discard: bool = True  # a turn ends with a discard of a hand card (while the hand holds one)
    knock: Expr | None = None  # a seat may end the hand after his discard when this holds (seat bound)
    end: list[EndRule] = field(default_factory=list)  # tested after each turn (after: turn)


def build_meld(b, base: tuple, s: dict) -> MeldSpec | None:
    """The ``MeldSpec`` of the step at ``base`` (its mapping ``s``, checked by the schema),
    its names checked against the game's zones and combinations (``b``: the StepBuilder)."""
    from .build_pieces import WANT_SEAT, WANT_TRUTH

    ok = True
    for key in ("stock", "discards"):
        if s[key] not in b.shared:
            b.err(base + (key,), f"'{s[key]}' is not a shared zone (zones: {', '.join(b.shared)})")
            ok = False
    if s["table"] not in b.seat_zones:
        b.err(base + ("table",), f"'{s['table']}' is not a zone of each seat (declare it with per_seat: true)")
        ok = False
    comb = b.scope.combinations.get(s["melds"])
    if comb is None or comb.kind != "melds":
        b.err(base + ("melds",), f"'{s['melds']}' is not a combination of kind melds")
        ok = False
    elif any(p.kind == "run" and not p.suited for p in comb.of) or any(p.kind not in ("set", "run") for p in comb.of):
        b.err(base + ("melds",), "the melds laid out on the table are sets and runs in one suit")
        ok = False
    first = b.expr(base + ("first",), want=WANT_SEAT)
    knock = b.expr(base + ("knock",), "seat", want=WANT_TRUTH)
    end = b.end_rules(base + ("end",))
    if not ok or comb is None:
        return None
    return MeldSpec(
        first=first,
        stock=s["stock"],
        discards=s["discards"],
        table=s["table"],
        melds=comb,
        drawn=s.get("drawn", "hand"),
        discard=bool(s.get("discard", True)),
        knock=knock,
        end=end,
    )
