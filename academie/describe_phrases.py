"""Plain words for the pieces of a rule file: expressions, conditions, card tests, seats,
zones and sets of cards (used by ``describe_words`` and ``describe_play``)."""

from __future__ import annotations


from .words import SUIT_PLURAL, words


def expr(text, kind: str = "value") -> str:
    """An expression in words, or in code font when it is not simple."""
    if text is None:
        return ""
    w = words(text, kind)
    return w if w is not None else f"`{text}`"


def cond(text) -> str:
    return expr(text, "cond")


def card_test(text) -> str:
    return expr(text, "card")


def _plural(n, unit: str) -> str:
    return f"{n} {unit}" + ("" if n == 1 else "s")


def _ranks(ranks) -> str:
    return " ".join(str(r) for r in ranks)


def _seat(text) -> str:
    return expr(text)


def _zone(name: str, per_seat: set[str], owner: str = "his") -> str:
    n = str(name).strip()
    if n in per_seat:
        return f"{owner} {n}"
    if "(" in n:
        return expr(n)
    return f"the {n}"


def _and(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def _or(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1] if items else ""


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def _plural_cards(test: str) -> str:
    from .words import plural_of

    return plural_of(test)


def _describe_cards(cards) -> str:
    """ "ranks 7 to A in every suit" when every suit has the same ranks, else by suit."""
    by_suit: dict[str, list[str]] = {}
    jokers = sum(1 for c in cards if not c.suit)  # the joker, of no suit (pack: jokers:)
    for c in cards:
        if c.suit:
            by_suit.setdefault(c.suit, []).append(c.rank)
    rank_sets = {tuple(v) for v in by_suit.values()}
    joker = ", and the joker" if jokers else ""
    if len(rank_sets) == 1 and len(by_suit) == 4:
        return f"the ranks {', '.join(next(iter(rank_sets)))} in every suit{joker}"
    return "; ".join(f"{SUIT_PLURAL[s]}: {', '.join(rs)}" for s, rs in by_suit.items()) + joker
