"""A combination of a rule file's ``combinations:`` section in words, for ``describe`` and the
rule book (docs/language.md, section 3)."""

from __future__ import annotations

NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _n(k: int) -> str:
    return NUMBERS.get(k, str(k))


def _cards(d: dict, default_least: int = 1) -> str:
    size, least, most = d.get("size"), d.get("min"), d.get("max")
    if size is not None:
        least, most = size, size
    least = least or default_least
    if most is None:
        return f"{_n(least)} or more cards" if least > 1 else "one card or more"
    if least == most:
        return f"{_n(least)} cards" if least != 1 else "one card"
    return f"{_n(least)} to {_n(most)} cards"


def _say(name: str) -> str:
    return name.replace("_", " ")


def combination_text(name: str, d: dict) -> str:
    """What the combination ``name`` (its mapping ``d``) is, in a sentence or two."""
    kind = d.get("kind")
    order = f" in the {d['order']} order" if d.get("order") else ""
    only = d.get("ranks")
    ranks = f", of the ranks {', '.join(str(r) for r in only)} only" if only else ""
    values = d.get("values")
    worth = (
        " Each card is worth: " + ", ".join(f"{r} {v}" for r, v in values.items()) + "."
        if isinstance(values, dict)
        else ""
    )
    head = f"A {_say(name)} is "
    if kind == "set" and d.get("sizes"):
        sizes = sorted(d["sizes"], reverse=True)
        parts = [f"{_n(sizes[0])} cards of one rank"] + [f"{_n(k)} of another" for k in sizes[1:]]
        return head + " and ".join(parts) + f"{ranks}; the higher ranks are the better, the larger set first."
    if kind == "set":
        exact = d.get("size") is not None or (d.get("min") is not None and d.get("min") == d.get("max"))
        better = "the higher rank is the better" if exact else "more cards are the better, then the higher rank"
        return head + f"{_cards(d)} of one rank{ranks}; {better}{order}."
    if kind == "pairs":
        return head + f"any two cards of one rank{ranks} (three of a rank make three pairs, four make six)."
    if kind == "run":
        suits = "of one suit" if d.get("suited", True) else "of any suits"
        low = d.get("low")
        low_text = f" ({', '.join(str(r) for r in low)} may also be the lowest)" if low else ""
        return (
            head + f"{_cards(d, 3)} {suits} following one another{order}{ranks}{low_text}; the longer is the better,"
            " then the higher top card. Made again with another card of a rank, it counts again."
        )
    if kind == "flush":
        tie = "the greater worth" if values else "the greater sum of the cards' places in the order"
        return head + f"{_cards(d)} of one suit{ranks}; more cards are the better, then {tie}.{worth}"
    if kind == "sum":
        return head + f"any cards{ranks} whose worth adds up to {d.get('total')}; each way of making it counts.{worth}"
    if kind == "high":
        return head + f"the highest card{order}."
    if kind == "ranking":
        cats = ", ".join(_say(str(x)) for x in d.get("of") or [])
        kick = "then the other cards, highest first" if d.get("kickers", True) else "the other cards not counting"
        return (
            f"Hands of {_n(d.get('cards', 5))} cards rank, highest first: {cats}. Two hands of the same kind "
            f"are compared card by card: the cards of the combination (the larger set first), {kick}; "
            "equal cards of other suits tie."
            + (
                f" The wild cards ({', '.join(str(x) for x in d['wild'])}) each stand for the card, of those the"
                " hand does not hold, that makes it the best."
                if d.get("wild")
                else ""
            )
        )
    if kind == "melds":
        laid = " and ".join(_say(str(x)) for x in d.get("of") or [])
        return (
            f"The {_say(name)} of a hand are the {laid} laid out of it, no card used twice, so that the cards "
            f"laid out are worth the most.{worth}"
        )
    return head + f"a combination of kind {kind}."
