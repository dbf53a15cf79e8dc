"""The adding step (``kind: adding``): players in turn add a card of their hand to the cards on
the table while a card test admits it (a running total kept within a limit, read by
``sum_cards(trick, …)``); a player who can add none says go and the turn passes; when none can,
the count stops: its ``on_stop`` effects score for the last to play, and the count starts again
(the cards set aside) or the play ends. Built here into an ``AddingSpec`` held by the step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# the step's parts are the compiled pieces of dsl/gamedef.py (Expr, Effect, EndRule), typed Any here:
# gamedef's Step holds this spec, so this module imports nothing of it

STOP_RULES = ("again", "end")


@dataclass
class AddingSpec:
    first: Any = None  # who adds first (default the dealer's next)
    cards: Any = None  # a card test: the cards of his hand a player may add (card, seat bound)
    on_play: list[Any] = field(default_factory=list)  # after each card, seat = its player
    on_stop: list[Any] = field(default_factory=list)  # no player can add: seat = the last to add
    stop: str = "again"  # after a stop: again (the cards set aside, a new count) | end (the play ends)
    set_aside: str | None = None  # the shared zone the cards of a count done go to (default: stay)
    return_to: str | None = None  # a seat's zone: at the end each card goes back to its player's
    end: list[Any] = field(default_factory=list)  # checked after each card and each stop


def build_adding(b, base: tuple, s: dict, want_seat: tuple, want_truth: tuple) -> AddingSpec:
    """The ``AddingSpec`` of the step at ``base`` (mapping ``s``), built with the
    step builder ``b`` (its expressions, effects and end rules); ``want_seat``,
    ``want_truth``: the kinds its seat and its card test must be (build_pieces)."""
    WANT_SEAT, WANT_TRUTH = want_seat, want_truth

    spec = AddingSpec(
        first=b.expr(base + ("first",), want=WANT_SEAT),
        cards=b.expr(base + ("cards",), "card", want=WANT_TRUTH),
        on_play=b.effects(base + ("on_play",)),
        on_stop=b.effects(base + ("on_stop",)),
        stop=s.get("stop", "again"),
        set_aside=s.get("set_aside"),
        return_to=s.get("return_to"),
        end=b.end_rules(base + ("end",)),
    )
    if spec.set_aside is not None and spec.set_aside not in b.shared:
        b.err(base + ("set_aside",), f"'{spec.set_aside}' is not a shared zone (zones: {', '.join(b.shared)})")
    if spec.return_to is not None and spec.return_to not in b.seat_zones:
        b.err(base + ("return_to",), f"'{spec.return_to}' is not a seat's zone (declare it per_seat: true)")
    for r in spec.end:
        r.after = "play"
    return spec
