"""Building an asking step (``kind: asking``): the player to move asks another seat for a
rank he holds; the seat asked gives him every card of that rank it holds, in sight of all,
and he asks again; when it holds none he draws from a stock ("go fish") and asks again
only if he drew the rank he asked for. A set of a rank complete in a hand is laid down as
a book. docs/language.md, section 4, ``kind: asking``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .compiler import Expr

ASK_PREFIX = "ask_"  # the named move asking for a rank: ask_7, ask_Q (a rank, never a card's suit)


def rank_move(rank: str) -> str:
    return ASK_PREFIX + rank


@dataclass
class AskingSpec:
    """What an ``asking`` step says (see the module's doc)."""

    stock: str  # the shared zone drawn from, face down, its top the last card
    books: str  # the per-seat zone each seat's books are laid down in, face up
    book: Expr | None = None  # how many cards of a rank make a book (default: the pack's suits)
    first: Expr | None = None  # who asks first (default the dealer's next)
    empty_draw: bool = True  # a seat with no card, on its turn, draws one while the stock lasts
    ask_after_empty_draw: bool = True  # and then asks (else its turn is over)
    again_on_catch: bool = True  # a seat that draws the rank it asked for asks again (shown to all)
    out_ends: bool = False  # a seat whose last cards go into a book ends the hand, its winner


def build_asking(b, base: tuple, s: dict) -> AskingSpec | None:
    """The ``AskingSpec`` of the step at ``base`` (its mapping ``s``, checked by the schema)."""
    from .build_pieces import WANT_NUMBER, WANT_SEAT

    ok = True
    if s["stock"] not in b.shared:
        b.err(base + ("stock",), f"'{s['stock']}' is not a shared zone (zones: {', '.join(b.shared)})")
        ok = False
    if s["books"] not in b.seat_zones:
        b.err(base + ("books",), f"'{s['books']}' is not a zone of each seat (declare it with per_seat: true)")
        ok = False
    spec = AskingSpec(
        stock=s["stock"],
        books=s["books"],
        book=b.expr(base + ("book",), want=WANT_NUMBER),
        first=b.expr(base + ("first",), want=WANT_SEAT),
        empty_draw=bool(s.get("empty_draw", True)),
        ask_after_empty_draw=bool(s.get("ask_after_empty_draw", True)),
        again_on_catch=bool(s.get("again_on_catch", True)),
        out_ends=bool(s.get("out_ends", False)),
    )
    return spec if ok else None
