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
LAY = ("turn", "knock")
LAY_OFF = ("none", "others", "all")
LAY_OFF_IN_TURN = ("none", "own", "all")
RESTOCK = ("none", "turn", "shuffle")


def restock_keys(s: dict) -> dict:
    """The restocking keys of a drawing step (``draw_meld``, ``shedding``), with their defaults:
    ``restock`` none | turn | shuffle, ``restocks`` the most in a hand (default 1),
    ``restock_keep`` the pile's top cards left on it (default 1)."""
    return {
        "restock": s.get("restock", "none"),
        "restocks": int(s.get("restocks", 1)),
        "restock_keep": int(s.get("restock_keep", 1)),
    }


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
    # the knock and the laying down after it (docs/language.md, kind: draw_meld, "Knocking")
    lay: str = "turn"  # turn: laid out in his turn; knock: laid down only after a knock, each meld apart
    deadwood: Expr | None = None  # what a seat's hand counts left out of its best melds (seat bound)
    knock_at_most: Expr | None = None  # the knock, in place of a discard, when the deadwood can be at most this
    counts: Expr | None = None  # what a seat's hand counts as it lies, no meld left out (seat bound)
    lay_off: str = "none"  # whose melds the others lay off on after a knock: none, others', all
    lay_off_when: Expr | None = None  # a seat lays off only when this holds (seat bound), default always
    lay_off_melds: Combination | None = None  # what a meld with cards laid off must make (default: melds)
    knocked: str | None = None  # a per-seat counter set to 1 for the seat who knocks
    first_offer: bool = False  # the first turn: the pile's top offered to each in turn before any draw
    stock_least: int = 0  # a turn begun with the stock this low: knock with the pile's top, or the hand ends
    returns_end: int = 0  # the hand ends, no one winning, after so many turns in a row discard the card taken
    takes_end: int = 0  # the hand ends, no one winning, at this take of the pile (after the first turn)
    # laying off in the turn, the card taken, restocking (docs/language.md, kind: draw_meld; "Restocking")
    lay_off_in_turn: str = "none"  # none; own: on his own melds; all: on any seat's; melds laid apart
    discard_taken: str = "allowed"  # forbidden: the card taken from the pile is not discarded that turn
    restock: str = "none"  # none | turn | shuffle: the pile made the stock again when it is out
    restocks: int = 1  # the most restocks in a hand
    restock_keep: int = 1  # the pile's top cards left on it at a restock


def build_meld(b, base: tuple, s: dict) -> MeldSpec | None:
    """The ``MeldSpec`` of the step at ``base`` (its mapping ``s``, checked by the schema),
    its names checked against the game's zones and combinations (``b``: the StepBuilder)."""
    from .build_pieces import WANT_NUMBER, WANT_SEAT, WANT_TRUTH

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
    deadwood = b.expr(base + ("deadwood",), "seat", want=WANT_NUMBER)
    knock_at_most = b.expr(base + ("knock_at_most",), "seat", want=WANT_NUMBER)
    counts = b.expr(base + ("counts",), "seat", want=WANT_NUMBER)
    lay_off_when = b.expr(base + ("lay_off_when",), "seat", want=WANT_TRUTH)
    lay = s.get("lay", "turn")
    if (knock_at_most is None) != (deadwood is None) or (lay == "knock" and knock_at_most is None):
        b.err(base + ("knock_at_most",), "a knock needs both deadwood and knock_at_most (and lay: knock needs a knock)")
        ok = False
    if lay == "knock" and counts is None:
        b.err(
            base + ("counts",), "lay: knock needs counts: what a hand counts as it lies (the knocker lays down to it)"
        )
        ok = False
    off_comb = None
    if "lay_off_melds" in s:
        off_comb = b.scope.combinations.get(s["lay_off_melds"])
        if off_comb is None or off_comb.kind != "melds":
            b.err(base + ("lay_off_melds",), f"'{s['lay_off_melds']}' is not a combination of kind melds")
            ok = False
    knocked = s.get("knocked")
    if knocked is not None and (knocked not in b.scope.seat_vars or knocked in b.scope.suit_vars):
        b.err(
            base + ("knocked",), f"'{knocked}' is not a counter kept per seat (declare it under vars:, per_seat: true)"
        )
        ok = False
    in_turn = s.get("lay_off_in_turn", "none")
    if in_turn != "none" and (lay == "knock" or s.get("drawn", "hand") == "faced"):
        b.err(base + ("lay_off_in_turn",), "laying off in the turn needs lay: turn and drawn: hand")
        ok = False
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
        lay=lay,
        deadwood=deadwood,
        knock_at_most=knock_at_most,
        counts=counts,
        lay_off=s.get("lay_off", "none"),
        lay_off_when=lay_off_when,
        lay_off_melds=off_comb,
        knocked=knocked,
        first_offer=bool(s.get("first_offer", False)),
        stock_least=int(s.get("stock_least", 0)),
        returns_end=int(s.get("returns_end", 0)),
        takes_end=int(s.get("takes_end", 0)),
        lay_off_in_turn=in_turn,
        discard_taken=s.get("discard_taken", "allowed"),
        **restock_keys(s),
    )
