"""The families of play a rule file may name (``family:``), in the order ``academie list``, the
site and the rule books give them, each with what makes a game one of that family.

The names are the schema's (``family`` in make_schema.py, checked equal by the tests); a game
without a ``family:`` is listed last, under ``UNSORTED``.
"""

from __future__ import annotations

FAMILIES: dict[str, str] = {
    "trick": "each plays a card to a trick, the best card by suit and rank takes it",
    "stops": "cards played in sequence until the run stops, the first to shed his hand wins",
    "vying": "stakes raised in turn and a showdown, the best combination taking the pot",
    "banking": "a banker against punters, stakes won or lost on the cards turned from the pack",
    "adding": "a running total along the play, scores for reaching set values and for pairs and runs",
    "fishing": "table cards captured by matching them in rank or sum",
    "draw-and-meld": "cards drawn and discarded to lay melds of sets and runs, until one goes out",
    "patience": "one player builds the pack into order on a tableau and foundations",
    "shedding": "each plays a card matching the last one played, the first out of cards wins",
    "collecting": "cards of a rank asked of the other players and collected into books",
}


def family_rank(family: str | None) -> int:
    """Where a family comes in the fixed order (a game naming none comes last)."""
    order = list(FAMILIES)
    return order.index(family) if family in FAMILIES else len(order)


def family_heading(family: str | None) -> str:
    """How a family is headed in a list of games: ``trick games``, ``draw-and-meld games``."""
    return f"{family} games" if family in FAMILIES else "games of no family named"
