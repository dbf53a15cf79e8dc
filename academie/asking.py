"""Decisions as questions: what the choice at hand asks a player, in the game's words.

``question(engine)`` reads the decision the engine is paused at and the step that made it
(``label:`` and ``values:`` of a choice, docs/language.md) and says it as a question with its
answers in words: a yes or no (a ``choose_number`` of 0 to 1) as the game says it ("order it up",
"pass"), a number as itself, a choice of cards with how many may or must be chosen, where they go
and which are chosen already. The terminal of ``academie play`` and the web page of ``academie
serve`` both ask it so. Every word from the rule file goes through ``dsl/text.py`` ``safe``.
"""

from __future__ import annotations

from typing import Any

from .dsl.cards import Card
from .dsl.text import safe
from .narrate import card_text, suit_text

__all__ = ["question"]


def _w(s: Any) -> str:
    return safe(str(s), one_line=True)


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def move_name(m: Any) -> str:
    """A move as the API and the web page name it (``QS``, ``pass``, ``1``)."""
    return m.name if isinstance(m, Card) else str(m)


_KIND = {"choose_number": "number", "choose_suit": "suit", "choose_cards": "choose", "announce": "announce"}


def question(
    e: Any, symbols: bool = True, seat: int | None = None, moves: list | None = None, chosen: list | None = None
) -> dict | None:
    """The decision ``e`` (an engine state) is paused at, as a question: ``text`` (the question),
    ``answers`` ({move name: its words}), ``rule`` (the path of the step that asks it), and for a
    choice of cards ``chosen`` (the cards chosen so far), ``min``, ``max`` and ``to`` (where they
    go, in words). None when no one is to move, or the move is a card to play (no question)."""
    st = e.step
    if st is None:
        return None
    if moves is not None and seat is not None:  # asked of an agent as the engine runs (no decision is paused)
        kind = _KIND.get(st.kind, "play")
        if st.kind == "betting":  # a move of the round, or the amount of a bet chosen within bounds
            kind = "number" if moves and all(isinstance(m, int) for m in moves) else "bet"
        elif st.kind == "shedding":  # a card to play, draw or pass; or the suit named on a wild card
            kind = "suit" if moves and all(not isinstance(m, Card) and m in e.g.suits for m in moves) else "shed"
        elif st.kind == "asking":
            kind = "ask"
    else:
        dec = e.decision
        if dec is None:
            return None
        seat, moves, kind = dec.seat, list(dec.moves), dec.kind
    if kind == "play":
        return None
    label = st.label
    out: dict = {"kind": kind, "rule": ["hand", st.name]}
    if kind == "number" and st.kind == "betting":  # the amount of a bet or raise
        out.update(
            text=f"How much? Choose a number from {min(moves)} to {max(moves)}.",
            answers={move_name(m): move_name(m) for m in moves},
        )
        return out
    if kind == "number":
        words = st.value_labels
        yes_no = not words and {move_name(m) for m in moves} <= {"0", "1"}
        answers = {}
        for m in moves:
            if isinstance(m, int) and m in words:
                answers[move_name(m)] = _w(words[m])
            elif yes_no:
                answers[move_name(m)] = "yes" if m == 1 else "no"
            else:
                answers[move_name(m)] = move_name(m)
        if label:
            ask = _w(label)
            text = ask[:1].upper() + ask[1:] + ("?" if not ask.endswith("?") else "")
            if len(moves) > 2 and not words:
                text = f"{text} Choose a number from {min(moves)} to {max(moves)}."
        elif yes_no:
            text = "Yes or no?"
        else:
            text = f"Choose a number from {min(moves)} to {max(moves)}."
        out.update(text=text, answers=answers)
        return out
    if kind == "suit":
        answers = {move_name(m): suit_text(m, symbols) if isinstance(m, str) else move_name(m) for m in moves}
        ask = _w(label) if label else "name a suit"
        out.update(text=ask[:1].upper() + ask[1:] + ("?" if label and not ask.endswith("?") else "."), answers=answers)
        return out
    if kind == "choose":
        lo, hi = e.choice_bounds(st, seat)
        if chosen is None:  # the cards chosen so far, as the paused step keeps them
            chosen = e.cards_chosen(seat)
        to = _where(e, st, seat)
        if lo == hi:
            how = f"exactly {_cards(hi)}"
        elif lo == 0:
            how = f"up to {_cards(hi)}"
        else:
            how = f"{lo} to {hi} cards"
        head = (_w(label)[:1].upper() + _w(label)[1:] + ": choose ") if label else "Choose "
        text = f"{head}{how} to go to {to}"
        if chosen:
            text += (
                f"; chosen so far: {' '.join(card_text(move_name(c), symbols) for c in chosen)} ({len(chosen)} of {hi})"
            )
        answers = {}
        for m in moves:
            answers[move_name(m)] = (
                "done: no more cards" if m == "pass" else card_text(m.name, symbols) if isinstance(m, Card) else _w(m)
            )
        out.update(text=text + ".", answers=answers, chosen=[move_name(c) for c in chosen], min=lo, max=hi, to=to)
        return out
    if kind == "bet":  # a move of a betting round, in the game's words
        answers = {move_name(m): _w(str(m).replace("-", " ")) for m in moves}
        out.update(text=_or_words([answers[move_name(m)] for m in moves]) + "?", answers=answers)
    if kind == "meld":  # a draw-and-meld turn: draw or take, cards laid out one by one, a discard
        words = {
            "draw": "draw the top card of the stock",
            "take": "take the top card of the discard pile",
            "meld": "lay out the cards chosen",
            "knock": "knock: end the hand",
            "pass": "lay out nothing (more)",
        }
        answers = {move_name(m): words.get(move_name(m), move_name(m)) for m in moves}
        for m in moves:
            if isinstance(m, Card):
                answers[m.name] = card_text(m.name, symbols)
        out.update(text="Draw, lay out, discard: choose.", answers=answers)
        return out
    if kind == "shed":  # a shedding turn: a card onto the discards, a draw, or a pass
        answers = {
            move_name(m): card_text(m.name, symbols)
            if isinstance(m, Card)
            else {"draw": "draw the top card of the stock", "pass": "pass"}.get(str(m), _w(m))
            for m in moves
        }
        out.update(text="Play a card, draw or pass: choose.", answers=answers)
        return out
    if kind == "ask":  # an asking turn: the seat asked, then the rank asked for
        if moves and all(isinstance(m, int) for m in moves):
            out.update(text="Ask which player?", answers={move_name(m): f"seat {m}" for m in moves})
        else:
            answers = {move_name(m): "the " + _w(str(m).split("_", 1)[-1]) + "s" for m in moves}
            out.update(text="Ask for which rank?", answers=answers)
        return out
    if kind == "declare":  # melds shown after winning a trick: a meld's name, then a card of the way shown
        answers = {move_name(m): ("declare nothing (more)" if m == "pass" else _w(m)) for m in moves}
        for m in moves:
            if isinstance(m, Card):
                answers[m.name] = card_text(m.name, symbols)
        text = "Declare a meld, or pass?" if "pass" in answers else "Which cards: choose a card of the meld you show."
        out.update(text=text, answers=answers)
        return out
    if kind == "announce":
        answers = {move_name(m): ("pass" if m == "pass" else _w(m)) for m in moves}
        out.update(text="Announce, or pass?", answers=answers)
        return out
    return None


def _or_words(words: list[str]) -> str:
    """``see``, ``go better`` or ``throw up``, the first capitalised: the moves of a betting round."""
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return text[:1].upper() + text[1:]


def _where(e: Any, st: Any, seat: int) -> str:
    """Where the chosen cards go, in words: the discards, your talon, seat 2's hand."""
    try:
        zone = st.dest.fn(e, seat, None)
    except Exception:  # an expression that cannot be worked out before the choice: its zone unnamed
        return "their place"
    named = e.zone_named(zone)
    owner = named.get("zone_seat")
    name = _w(named.get("zone") or "place").replace("_", " ")
    if owner is None:
        return f"the {name}"
    if owner == seat:
        return f"your {name}"
    return f"seat {owner}'s {name}"
