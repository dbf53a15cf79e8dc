"""Building a capture step (``kind: capture``, the fishing family): each player in turn plays a
card from his hand to a shared layout and takes table cards with it (of its rank, or sets whose
values add up to its value), builds on the table, or trails. ``CaptureSpec`` holds what the step
says; ``capture_spec`` builds it from the document."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import RANKS, SUITS
from .compiler import Expr
from .gamedef import Effect

if TYPE_CHECKING:
    from .build_pieces import PieceBuilder

# the named moves of a capture step (each a stable action id): leave the card on the table,
# make a build of the cards chosen, take the cards chosen
CAPTURE_MOVES = ("trail", "build", "take")  # in the order a decision offers them


@dataclass
class CaptureSpec:
    layout: str  # the shared zone the cards are played to and taken from
    won_to: str  # the per-seat zone the cards taken go to
    value: Expr  # a card's value in sums (card bound); 0: the card is taken only by its rank
    also: Expr | None = None  # another value a card played may take by (card bound; 0: none)
    leader: Expr | None = None  # the first to play (default: the dealer's next)
    several: bool = True  # several sets taken at once by one card
    builds: bool = False  # a card may be played to make a build (or raise one)
    must_take: bool = False  # a card that can take may not be trailed
    rank_first: bool = False  # a card of the played card's rank on the table is taken before any sum
    refill_from: str | None = None  # the zone new hands are dealt from when all hands are empty
    refill: int = 0  # the cards each seat is dealt then
    turn_up: int = 0  # the cards turned face up from refill_from to the layout when the step begins
    rest: str = "last"  # the cards left on the layout at the end: last (to the last to take) | stay
    on_capture: list[Effect] = field(default_factory=list)  # after each taking, seat = the taker
    pure: bool = False  # value and also read only the card (so a table per card holds them)


def capture_spec(b: PieceBuilder, base: tuple, s: dict) -> CaptureSpec | None:
    """The capture step at ``base`` (its mapping ``s``), its zones checked; None after an error."""
    from .build_pieces import WANT_NUMBER, WANT_SEAT

    layout = str(s.get("layout", "table"))
    if layout not in b.shared:
        b.err(base + ("layout",), f"'{layout}' is not a shared zone (zones: {', '.join(b.shared)})")
    won_to = str(s.get("won_to", ""))
    if won_to not in b.seat_zones:
        b.err(base + ("won_to",), f"'{won_to}' is not a zone kept per seat (declare it under zones:, per_seat: true)")
    value = b.expr(base + ("value",), "card", want=WANT_NUMBER)
    refill = s.get("refill") or {}
    frm = refill.get("from")
    if frm is not None and frm not in b.shared and frm != "pack":
        b.err(base + ("refill", "from"), f"'{frm}' is not a shared zone (zones: {', '.join(b.shared)})")
    if value is None:
        return None
    also = b.expr(base + ("also",), "card", want=WANT_NUMBER)
    card_only = {"card", "rank", "suit", "colour", "true", "false", "none"} | set(SUITS) | set(RANKS)
    card_only |= set(b.scope.orders)
    pure = value.names <= card_only and (also is None or also.names <= card_only)
    return CaptureSpec(
        layout=layout,
        won_to=won_to,
        value=value,
        also=also,
        pure=pure,
        leader=b.expr(base + ("leader",), want=WANT_SEAT),
        several=bool(s.get("several", True)),
        builds=bool(s.get("builds", False)),
        must_take=bool(s.get("must_take", False)),
        rank_first=bool(s.get("rank_first", False)),
        refill_from=frm,
        refill=int(refill.get("hand", 0)),
        turn_up=int(refill.get("turn_up", 0)),
        rest=str(s.get("rest", "last")),
        on_capture=b.effects(base + ("on_capture",)),
    )
