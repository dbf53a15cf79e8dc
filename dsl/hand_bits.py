"""A zone's cards as bits (``summary``): each suit's ranks as the bits of one number, and each
rank's count as three bit planes, worked out once per the cards and kept, so that every
combination asked of one hand (``dsl/combinations.py``) reads them rather than the cards."""

from __future__ import annotations

from operator import attrgetter

from .cards import CARDS_BY_NAME, RANKS, SUITS

RANK_BIT = {r: 1 << i for i, r in enumerate(RANKS)}  # a rank's bit, in the notation order
KEEP = 1 << 8  # zones' cards whose bits are kept, then started again (hands are mostly new)
_MASKS: dict = {}  # a zone's cards -> what ``summary`` gives
_SHIFT = {su: 16 * i for i, su in enumerate(SUITS)}  # a suit's place in a card's code
_CODE = {x: 1 << (_SHIFT[x.suit] + RANKS.index(x.rank)) for x in CARDS_BY_NAME.values() if x.suit in _SHIFT}
_IN_SUIT = (1 << len(RANKS)) - 1
_SUIT_OF = attrgetter("suit")
assert len(SUITS) == 4 and len(RANKS) <= 16  # a card's code: four suits of sixteen bits (``summary``)


def summary(cards: tuple) -> tuple | None:
    """What every combination asked of a hand reads of ``cards``, worked out once and kept per the
    cards: the ranks held in each suit held (in the notation's order of suits), as bits in the
    notation order, and the ranks held an odd number of times, held two or three times, held four
    times (bit planes of each rank's count); None when a card is held twice (two packs), a card has
    no suit or rank of the notation, or there is none. The suits' bits are the sum of each card's
    code (a bit of its own), no card looked at in Python: a card held twice carries into another
    bit, and the sum then has fewer bits than there are cards. (Where the order in which the suits
    are met matters, a tie between two suits, ``suits_met`` reads it.)"""
    got = _MASKS.get(cards)
    if got is None:
        got = ()
        try:
            total = sum(map(_CODE.__getitem__, cards))
        except KeyError:  # a card of no suit or rank of the notation
            total = 0
        if total and total.bit_count() == len(cards):
            a, b, c, d = (total & _IN_SUIT, (total >> 16) & _IN_SUIT, (total >> 32) & _IN_SUIT, total >> 48)
            # each rank's count (at most four, one a suit) added in three bit planes: the carries
            # of adding the suits two by two, each worth two (at most two of them for one rank)
            s = a ^ b
            c1 = a & b
            t = s ^ c
            c2 = s & c
            c3 = t & d
            got = (
                tuple([m for m in (a, b, c, d) if m]),
                t ^ d,
                c1 ^ c2 ^ c3,
                (c1 & c2) | (c1 & c3) | (c2 & c3),
            )
        if len(_MASKS) >= KEEP:
            _MASKS.clear()
        _MASKS[cards] = got
    return got or None


def suits_met(cards: tuple) -> tuple[int, ...]:
    """The ranks ``cards`` hold in each suit (``summary``'s first part), the suits in the order the cards
    meet them (a tie between two suits goes to the one met first)."""
    got = summary(cards)
    assert got is not None
    total = sum(map(_CODE.__getitem__, cards))
    return tuple([(total >> _SHIFT[su]) & _IN_SUIT for su in dict.fromkeys(map(_SUIT_OF, cards))])
