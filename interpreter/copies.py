"""Copies of a card (``pack: copies:``, docs/language.md "pack"): a pack of two packs, or part of
a pack doubled. Cards are interned (one ``Card`` per name), so a zone holding two copies holds
the same card twice; copies are one card for play (the same name, the same action id). What
must change for them is only where a list of moves could name a card twice: the legal cards of
a hand holding two copies are each named once, in the hand's order, at every decision asked
(``State.legal_moves``, the trick step's decision). A single pack never comes here (``State``
asks only for a game with copies): its play is unchanged."""

from __future__ import annotations

from typing import Any


def once(moves: list) -> list:
    """``moves`` with each card (or name) once, in the order first met."""
    return list(dict.fromkeys(moves)) if len(moves) > 1 else moves


def face_down(state: Any) -> dict[str, int]:
    """How many of each shared zone's cards lie face down, lowest first, in a game with copies:
    the pack and every zone a deal leaves its rest in (a stock, a talon) whole; a patience's
    stock whole and each pile's face-down cards. With copies, a card's name seen face up no
    longer says where it lies (its other copy may be face down): what a seat is shown of a zone
    leaves these out (academie/api/views.py)."""
    zones = state.zones
    out = {"pack": len(zones["pack"])}
    for st in state.g.steps:
        if st.kind == "deal" and st.rest and st.rest in zones:
            out[st.rest] = len(zones[st.rest])
    pat = state.pile_down
    if pat is not None:
        down, stock = pat
        out.update(down)
        if stock:
            out[stock] = len(zones[stock])
    return out
