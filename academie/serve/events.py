"""Events in words, for the web page, the replay and the site: cards with
their suit symbols (as the hand shows them), seats by number ("you" for a
human's), the trick in progress and the last one rebuilt from the events."""

from __future__ import annotations

from typing import Any

from ..dsl.cards import parse_card, pretty


def card_text(name: str) -> str:
    c = parse_card(name)
    return pretty(c) if c is not None else name


def _seat(s: Any, agents: list[str]) -> str:
    if isinstance(s, int):
        return f"seat {s}" + (" (you)" if 0 <= s < len(agents) and agents[s] == "human" else "")
    return f"the {s}"


def event_line(ev: dict, agents: list[str]) -> str | None:
    """One event as a line of the log, cards with their suit symbols (as in the hand)."""
    t = ev["type"]
    s = ev.get("seat")
    cards = lambda cs: " ".join(card_text(c) for c in cs)  # noqa: E731
    if t == "hand_start":
        return f"Hand {ev['hand']}: seat {ev['dealer']} deals."
    if t == "dealer":
        return f"Seat {ev['seat']} deals first."
    if t == "deal":
        sizes = ev.get("hand_sizes") or [len(h) for h in ev.get("hands", [])]
        if sizes and len(set(sizes)) == 1:
            return f"Deal: {sizes[0]} cards each."
        return "Deal: " + ", ".join(f"seat {i} {n} cards" for i, n in enumerate(sizes)) + "."
    if t == "turnup":
        return f"Turn-up: {card_text(ev['card'])}" + (f" (trumps: {ev['trump']})" if ev.get("trump") else "")
    if t == "number":
        return f"{_seat(s, agents).capitalize()} chooses {ev.get('value')}."
    if t == "choose":
        return (
            f"{_seat(s, agents).capitalize()} sets aside " + (card_text(ev["card"]) if "card" in ev else "a card") + "."
        )
    if t == "deliver":
        what = cards(ev["cards"]) if "cards" in ev else f"{ev.get('count', 0)} cards"
        whose = f" of seat {ev['to_seat']}" if ev.get("to_seat") is not None else ""
        return f"{_seat(s, agents).capitalize()} gives {what} to the {ev.get('to')}{whose}."
    if t == "declare":
        return f"{_seat(s, agents).capitalize()} announces {ev['declaration']}."
    if t == "play":
        src = ev.get("from")
        extra = f" ({'borrowed' if src == 'borrow' else 'from the ' + str(src)})" if src and src != "hand" else ""
        return f"{_seat(s, agents).capitalize()} plays {card_text(ev['card'])}{extra}."
    if t == "renounce":
        return f"{_seat(s, agents).capitalize()} cannot follow {ev['led']}."
    if t == "take":
        what = cards(ev["cards"]) if "cards" in ev else f"{ev.get('count', 0)} cards"
        who = _seat(s, agents) if s is not None else "the table"
        return f"{who.capitalize()} takes {what} into {ev['to']}."
    if t == "trick":
        return f"{_seat(ev['winner'], agents).capitalize()} wins the trick ({cards(ev['cards'])})."
    if t == "run":
        return f"{_seat(s, agents).capitalize()} begins a run in {ev['suit']}."
    if t == "borrow":
        return f"{_seat(s, agents).capitalize()} borrows {card_text(ev['card'])} from seat {ev['from']}."
    if t == "draw":
        return f"{_seat(s, agents).capitalize()} draws {card_text(ev['card'])} from the {ev['from']}."
    if t in ("pay", "give"):
        frm = _seat(ev["from"], agents).capitalize() + " pays" if t == "pay" else "The bank gives"
        unit = ev["unit"] + ("s" if ev["amount"] != 1 else "")
        return f"{frm} {ev['amount']} {unit} to {_seat(ev['to'], agents)}."
    if t == "hand_end":
        if ev.get("reason") == "unfinished":
            return "The hand is unfinished: the play limit was reached."
        w = ev.get("winner")
        return f"Hand {ev['hand']} ends" + (f": {_seat(w, agents)} wins." if w is not None else ".")
    if t == "game_end":
        return "Game over: " + ", ".join(f"{r['rank']}. seat {r['seat']} ({r['score']})" for r in ev["standings"])
    return None


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
