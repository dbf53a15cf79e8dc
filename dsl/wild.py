"""Wild cards of a ranking (``wild: [CARD, …]`` of a ``kind: ranking`` combination; docs/language.md,
section 3, **Wild cards**): a card its holder makes stand for any card he pleases. A hand holding wild
cards is ranked as the best hand the wild cards could make, each standing for a card of the four
suits and of the ranking's ranks that the hand does not hold (two wild cards for two different cards).

The source sentence it was made for is in docs/language.md (a blank card that its holder may
"make" represent any suit and value he pleases).

Kept apart from dsl/combinations.py: ``wild_cards`` reads the ``wild:`` lists after the
combinations are built (a located error for a card that is no card, or a combination that is not a
ranking), and ``find_wild`` is ``find`` for a combination with wild cards (``find`` itself, unchanged,
for one without). The cards a wild card may stand for are tried one by one (a bounded search)."""

from __future__ import annotations

from math import comb as binomial, factorial
from typing import Callable, Iterator

from .cards import SUITS, parse_card
from .combinations import NONE, Combination, Found, find

MAX_STANDS = 100_000  # the hands ranked for one zone's wild cards (every card they may stand for)
_CACHE_LIMIT = 1 << 12


NO_WILD = frozenset({""})  # no wild card, but a joker to leave out (no card is named "")


def wild_cards(specs: dict, combs: dict[str, Combination], err: Callable[[tuple, str], None], jokers: int) -> None:
    """The ``wild:`` of each combination of ``specs`` (the file's ``combinations:``) set on the built
    ``combs``; ``err(path, message)`` reports a mistake at its place (the path under ``combinations``).
    With a joker in the pack (``jokers``), a combination without wild cards leaves it out (``NO_WILD``):
    a card of no suit and no rank makes nothing unless it is wild."""
    for name, d in specs.items():
        c = combs.get(name)
        if not isinstance(d, dict) or c is None:
            continue
        if d.get("wild") is None:
            if jokers:
                c.wild = NO_WILD
            continue
        if c.kind != "ranking":
            err((name, "wild"), f"only a ranking has wild cards ('{name}' is a {c.kind})")
            continue
        names = []
        for i, x in enumerate(d["wild"]):
            card = parse_card(str(x))
            if card is None:
                err((name, "wild", i), f"'{x}' is not a card (AS, 10H, JK …)")
            else:
                names.append(card.name)
        c.wild = frozenset(names)


def find_wild(c: Combination, cards) -> Found:
    """What ``cards`` hold of ``c``, its wild cards (``c.wild``) each standing for the card that makes
    the best hand; ``find`` for a combination without wild cards, or cards without one."""
    if not c.wild:
        return find(c, cards)
    k = tuple(cards)
    naturals = tuple(x for x in k if x.suit and x.name not in c.wild)  # a joker not wild left out
    wild = sum(1 for x in k if x.name in c.wild)
    if not wild:
        return find(c, naturals)
    key = ("wild", k)  # kept on the combination beside what ``find`` keeps (tuples of cards)
    seen = c.cache
    got = seen.get(key)
    if got is not None:
        return got
    held = {x.name for x in naturals}
    stands = [
        card for r in c.strength for s in SUITS if (card := parse_card(r + s)) is not None and card.name not in held
    ]
    wild = min(wild, len(stands))
    per = max(1, binomial(len(naturals) + wild, c.cards))  # the hands ranked for one choice
    free = [s for s in SUITS if not any(x.suit == s for x in naturals)]  # suits the natural cards leave alone
    if binomial(len(stands), wild) * per > MAX_STANDS * factorial(len(free)):  # more choices than allowed, even alike
        raise ValueError(_too_many(c, wild, len(k)))
    got = NONE
    tried = 0
    for chosen in _choices(stands, wild, free):
        tried += per
        if tried > MAX_STANDS:
            raise ValueError(_too_many(c, wild, len(k)))
        f = find(c, naturals + chosen)
        if f.key > got.key:
            got = f
    if len(seen) >= _CACHE_LIMIT:
        seen.clear()
    seen[key] = got
    return got


def _too_many(c: Combination, wild: int, cards: int) -> str:
    return f"the ranking '{c.name}' with {wild} wild cards in a zone of {cards} cards would rank more than {MAX_STANDS} hands"


def _choices(stands: list, wild: int, free: list) -> Iterator[tuple]:
    """The ``wild`` cards of ``stands`` (in order) the wild cards stand for, one of each set of choices
    alike but for the suits of ``free`` (suits no natural card is of) exchanged: no combination
    tells suits apart but by their being alike or not, so such choices rank alike. A card of a free
    suit not chosen yet is chosen only if its suit is the first of ``free`` not chosen yet."""
    n = len(stands)
    order = {s: i for i, s in enumerate(free)}
    chosen: list = []

    def walk(i: int, used: int) -> Iterator[tuple]:  # ``used``: the free suits chosen so far (the first so many)
        if len(chosen) == wild:
            yield tuple(chosen)
            return
        for j in range(i, n - (wild - len(chosen)) + 1):
            x = stands[j]
            at = order.get(x.suit)
            if at is not None and at > used:
                continue
            chosen.append(x)
            yield from walk(j + 1, used + (at == used))
            chosen.pop()

    return walk(0, 0)
