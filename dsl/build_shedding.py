"""Building a shedding step (``kind: shedding``): in turn, each player plays a card of his
hand onto a discard pile when it matches the top card there (an expression of ``card``,
``onto`` the top card and ``led`` the suit called for), or a wild card, after which he
names the suit to follow; he draws from a stock when he cannot (or, where the rules let
him, when he will not) play, up to a limit, and passes when he has drawn that many or the
stock is out. Cards may skip the next player, reverse the order of play, or make the
next player draw. Going out ends the hand. docs/language.md, section 4, ``kind: shedding``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .compiler import Expr
    from .gamedef import Effect, EndRule

SHEDDING_MOVES = ("draw",)  # besides cards, pass and the suits a wild card names


@dataclass
class SheddingSpec:
    """What a ``shedding`` step says (see the module's doc)."""

    stock: str  # the shared zone drawn from, face down, its top the last card
    discards: str  # the shared zone played to, face up, its top the last card (``onto``)
    match: Expr  # whether ``card`` may go on ``onto`` (the suit called for: ``led``)
    first: Expr | None = None  # who plays first (default the dealer's next)
    starter: Expr | None = None  # the stock's top card is turned onto the discards; refused while this fails
    wild: Expr | None = None  # a card playable on any; its player then names the suit to follow
    draws: Expr | None = None  # the most cards a player draws in a turn (none: no limit)
    draw_freely: bool = False  # a player may draw though he could play (else only when he cannot)
    blocked: Expr | None = None  # passes in a row with the stock out that end the hand (default players)
    skip: Expr | None = None  # a card played that makes the next player lose his turn
    reverse: Expr | None = None  # a card played that turns the order of play round
    penalty: Expr | None = None  # a card played that makes the next player draw ``penalty_count`` cards
    penalty_count: Expr | None = None  # how many (a number; default 2)
    stack: bool = False  # the player made to draw may play a like card instead, passing on the sum
    on_play: list[Effect] = field(default_factory=list)  # after each card played (seat: its player)
    end: list[EndRule] = field(default_factory=list)  # tested after each card played
    restock: str = "none"  # none | turn | shuffle: the discards made the stock again when it is out
    restocks: int = 1  # the most restocks in a hand
    restock_keep: int = 1  # the pile's top cards left on it at a restock


def build_shedding(b, base: tuple, s: dict) -> SheddingSpec | None:
    """The ``SheddingSpec`` of the step at ``base`` (its mapping ``s``, checked by the schema),
    its zones checked against the game's (``b``: the StepBuilder)."""
    from .build_meld import restock_keys
    from .build_pieces import WANT_NUMBER, WANT_SEAT, WANT_TRUTH

    ok = True
    for key in ("stock", "discards"):
        if s[key] not in b.shared:
            b.err(base + (key,), f"'{s[key]}' is not a shared zone (zones: {', '.join(b.shared)})")
            ok = False
    match = b.expr(base + ("match",), "card", want=WANT_TRUTH)
    pen = s.get("penalty") or {}
    spec = SheddingSpec(
        stock=s["stock"],
        discards=s["discards"],
        match=match,  # type: ignore[arg-type]
        first=b.expr(base + ("first",), want=WANT_SEAT),
        starter=b.expr(base + ("starter",), "card", want=WANT_TRUTH),
        wild=b.expr(base + ("wild",), "card", want=WANT_TRUTH),
        draws=b.expr(base + ("draws",), want=WANT_NUMBER),
        draw_freely=bool(s.get("draw_freely", False)),
        blocked=b.expr(base + ("blocked",), want=WANT_NUMBER),
        skip=b.expr(base + ("skip",), "card", want=WANT_TRUTH),
        reverse=b.expr(base + ("reverse",), "card", want=WANT_TRUTH),
        penalty=b.expr(base + ("penalty", "when"), "card", want=WANT_TRUTH) if pen else None,
        penalty_count=b.expr(base + ("penalty", "count"), want=WANT_NUMBER) if pen else None,
        stack=bool(pen.get("stack", False)),
        on_play=b.effects(base + ("on_play",)),
        end=b.end_rules(base + ("end",)),
        **restock_keys(s),
    )
    if not ok or match is None:
        return None
    return spec
