"""Copies of a card (``pack: copies:``): a game played with two packs, or with part of a pack
doubled. Read from the document into ``GameDef.copies``: ((a card test or None, how many), …),
the first entry whose test holds giving a card's number of copies (1 where none holds).

Copies of a card are one card for play: the same name, the same action id, interchangeable in
every zone (docs/language.md, "pack")."""

from __future__ import annotations

from typing import Any

from .build_pieces import WANT_TRUTH

MAX_COPIES = 64  # copies of any one card (the pack as a whole is bounded by Limits.cards)


def build_copies(b: Any, pack: dict, distinct: int, static: set) -> tuple:
    """The copies the pack section asks for: ``copies: N`` (every card N times: N packs) or
    ``copies: [{cards: CARD-TEST, count: N}, …]`` (the cards a test admits N times). A count
    above ``MAX_COPIES``, or a pack of more cards than the limit, is a located error."""
    raw = pack.get("copies")
    if raw is None:
        return ()
    entries: list[tuple[Any, Any, tuple]] = []
    if isinstance(raw, bool) or not isinstance(raw, (int, list)):
        b.err(("pack", "copies"), "copies: a number of packs (copies: 2) or a list of {cards:, count:}")
        return ()
    if isinstance(raw, int):
        entries.append((None, raw, ("pack", "copies")))
    else:
        for i, e in enumerate(raw):
            if not isinstance(e, dict):
                continue  # the schema says so
            entries.append((e.get("cards"), e.get("count"), ("pack", "copies", i)))
    out = []
    most = 1
    for text, k, path in entries:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            b.err(path if text is None else (*path, "count"), f"copies: {k!r} is not a number of copies (1 or more)")
            continue
        if k > MAX_COPIES:
            b.err(
                path if text is None else (*path, "count"),
                f"copies: {k} copies of a card is more than the limit of {MAX_COPIES}",
                "limit",
            )
            continue
        test = None
        if text is not None:
            test = b.expr((*path, "cards"), "card", want=WANT_TRUTH)
            if test is None:
                continue
            if not test.names <= static:
                b.err(
                    (*path, "cards"),
                    "the pack is made before any game is played: which cards are copied can only "
                    f"depend on the card, not on {', '.join(sorted(test.names - static))}",
                )
                continue
        out.append((test, k))
        most = max(most, k)
    if distinct * most > b.limits.cards:
        b.err(
            ("pack", "copies"),
            f"the pack would hold up to {distinct * most} cards ({distinct} cards, {most} copies), "
            f"more than the limit of {b.limits.cards} (raise it with --max-cards)",
            "limit",
        )
        return ()
    return tuple(out)
