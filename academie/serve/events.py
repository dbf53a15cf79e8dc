"""The trick on the table, rebuilt from a hand's events for the web page:
the cards in play and the last trick, each card with its suit symbol (as the
hand shows it). The events in words are ``academie/narrate.py``'s."""

from __future__ import annotations

from ..narrate import card_text


def plays_of(events: list[dict]) -> tuple[list[dict], dict | None]:
    """The trick in progress as (seat, card) and the last complete trick, from the hand's events."""
    current: list[dict] = []
    last = None
    for ev in events:
        t = ev["type"]
        if t == "play":
            current.append({"seat": ev["seat"], "card": ev["card"], "text": card_text(ev["card"])})
        elif t == "trick":
            last = {"winner": ev["winner"], "plays": current}
            current = []
        elif t == "take" and ev.get("to") == "hand" and ev.get("seat") is not None:
            current = []  # a renouncer picked up the trick
        elif t == "take" and ev.get("to") == "pack" and ev.get("seat") is None:
            current = []  # a broken trick
    return current, last
