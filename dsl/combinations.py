"""Combinations: named patterns of cards (sets, runs, flushes, sums, pairs, a ranking of
them) declared in a rule file's ``combinations:`` section and found in a zone by the
expression functions ``best``, ``count_of``, ``cards_of``, ``size_of``, ``top_of`` and
``value_of`` (``functions/combinations.py``; docs/language.md, section 3 and 8).

``Combination`` is one pattern, built once when the file is loaded (``build_combinations.py``).
``find(comb, cards)`` finds it in a zone's cards: the cards are grouped by rank and by
suit once per call, never tested card by card, and what is found (``Found``) is kept
per pattern for the zone's cards (the same hand asked for its count, its best and its
size is worked out once).

Every kind gives the combinations it finds (how many, how many cards in all) and the
best of them with a key: a number, greater for a better combination. For a set, a run,
pairs, a highest card: ``size * 16 + top`` (more cards first, then the higher top rank);
for a flush, a sum and melds: ``size * 4096 + value`` (more cards first, then the greater value).
Melds are the sets and runs ``of`` a layout of the zone's cards, no card used twice, worth the
most (every layout weighed, a bounded search).
For a ranking: the rank of its first category the cards hold, then the ranks of the
cards (those of the combination, larger group first and higher first, then the others
highest first), one hexadecimal digit each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations as subsets
from math import comb as binomial
from typing import Any, Callable

from .hand_bits import RANK_BIT, suits_met, summary

KINDS = ("set", "pairs", "run", "flush", "sum", "high", "ranking", "melds")
RADIX = 16  # a rank's digit in a key (strengths are 1 … 13, 0 for a rank counted low)
VALUE_RADIX = 4096  # a value's place in a flush's or a sum's key
MAX_VALUE = 99  # the value of one card (values:)
MAX_TOTAL = 1000  # a sum's total
MAX_SUBSETS = 5000  # hands of a ranking's size looked at in a larger zone
MAX_SPLITS = 100_000  # ways of laying out melds tried for one zone
# what is kept per a zone's cards, then started again: kept small (where every hand is new, a table of
# 4,096 cost 2.5 % more instructions a game: README, "Combinations cheaper")
_CACHE_LIMIT = 1 << 8
_MEMO_LIMIT = 1 << 14  # what a set keeps per the ranks held so that may make it, then started again


@dataclass(eq=False)
class Combination:
    """One named pattern of cards (see the module's doc)."""

    name: str
    kind: str
    least: int = 1  # cards of one combination: at least …
    most: int | None = None  # … and at most (None: no bound)
    sizes: tuple[int, ...] = ()  # a set: several sets of distinct ranks, of these sizes
    suited: bool = True  # a run: in one suit
    strength: dict[str, int] = field(default_factory=dict)  # rank -> its place in the order (1 the lowest)
    low: frozenset[str] = frozenset()  # a run: ranks that may also stand below the lowest
    ranks: frozenset[str] | None = None  # only cards of these ranks count
    values: dict[str, int] | None = None  # rank -> value (a flush's point, a sum)
    total: int = 0  # a sum: the total made
    of: tuple[Combination, ...] = ()  # a ranking: its categories, highest first
    cards: int = 5  # a ranking: the cards of a hand compared
    kickers: bool = True  # a ranking: the other cards break ties
    wild: frozenset[str] = frozenset()  # a ranking: the names of its wild cards (dsl/wild.py)
    cache: dict = field(default_factory=dict, repr=False)
    memo: dict = field(default_factory=dict, repr=False)  # a suit's ranks (as bits) -> what they hold of it
    rank_at: dict[int, str] = field(default_factory=dict, repr=False)  # strength -> rank
    # a set: (the ranks that count as bits, each with its bit) when their strengths differ, else ()
    set_plan: tuple | None = field(default=None, repr=False)

    def __post_init__(self):
        self.rank_at = {t: r for r, t in self.strength.items()}

    def value(self, rank: str) -> int:
        if self.values is not None:
            return self.values.get(rank, 0)
        return self.strength.get(rank, 0)


@dataclass(init=False)
class Found:
    """What a zone holds of a combination: how many (``count``), their cards in all
    (``cards``), and the best one: its key (0 when there is none), its cards, the
    strength of its top card and the value of its cards."""

    count: int
    cards: int
    key: int
    size: int
    top: int
    value: int

    # written out, not made by ``dataclass``: compiled (``academie.build_native``), a made
    # ``__init__`` stays a Python function, called for every hand a combination is found in
    def __init__(self, count: int = 0, cards: int = 0, key: int = 0, size: int = 0, top: int = 0, value: int = 0):
        self.count = count
        self.cards = cards
        self.key = key
        self.size = size
        self.top = top
        self.value = value


NONE = Found()


def find(c: Combination, cards) -> Found:
    """What ``cards`` (a zone's) hold of the combination ``c``: kept per the cards."""
    k = tuple(cards)
    return c.cache.get(k) or find_anew(c, k)


def find_anew(c: Combination, k: tuple) -> Found:
    """``find`` for cards ``k`` (a tuple) not in ``c``'s cache: worked out, then kept."""
    if len(c.cache) >= _CACHE_LIMIT:
        c.cache.clear()
    got = c.cache[k] = _FIND[c.kind](c, k)
    return got


def finder(c: Combination) -> Callable[[tuple], Found]:
    """``find_anew`` for the one combination ``c``: its kind's way of finding and its cache
    bound once (generated code calls it on a miss: ``functions/combinations.worked_out``)."""
    cache, find_kind = c.cache, _FIND[c.kind]

    def anew(k: tuple) -> Found:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        got = cache[k] = find_kind(c, k)
        return got

    return anew


def _by_rank(c: Combination, cards) -> dict[str, list]:
    """The cards that count, grouped by rank (ranks the order does not know count not)."""
    out: dict[str, list] = {}
    strength, only = c.strength, c.ranks
    for x in cards:
        r = x.rank
        if r in strength and (only is None or r in only):
            out.setdefault(r, []).append(x)
    return out


def _in(c: Combination, n: int) -> bool:
    return n >= c.least and (c.most is None or n <= c.most)


def _rank_counts(c: Combination, cards: tuple) -> dict[str, int]:
    """How many cards of each rank that counts (ranks in the order met), as ``_by_rank`` groups
    them: from every rank's count, kept per the cards (one pass for every set asked of a hand)."""
    every = _COUNTS.get(cards)
    if every is None:
        every = {}
        get = every.get
        for x in cards:
            r = x.rank
            every[r] = get(r, 0) + 1
        if len(_COUNTS) >= _CACHE_LIMIT:
            _COUNTS.clear()
        _COUNTS[cards] = every
    strength, only = c.strength, c.ranks
    return {r: n for r, n in every.items() if r in strength and (only is None or r in only)}


def _plan_set(c: Combination) -> tuple:
    """``c.set_plan``: the ranks that count (``_by_rank``'s) as bits, each with its bit, and for
    each number of cards of a rank (one to four) whether a rank held so may make the set (a size
    of ``sizes``, or within ``min``/``max``), when no two ranks have the same strength (which of
    equal ones is taken then depends on the order met); else ()."""
    counted = [(r, RANK_BIT[r]) for r in c.strength if r in RANK_BIT and (c.ranks is None or r in c.ranks)]
    if len({c.strength[r] for r, _ in counted}) < len(counted):
        return ()
    mask = 0
    for _, b in counted:
        mask |= b
    if c.sizes:
        matter = tuple(n in c.sizes for n in range(1, 5))
    else:
        matter = tuple(n >= c.least and (c.most is None or n <= c.most) for n in range(1, 5))
    return (mask, tuple(counted), matter)


def _find_set(c: Combination, cards) -> Found:
    """A set: from the zone's ranks held once, twice, three and four times (bits, ``hand_bits.summary``),
    those that may make it, what they hold kept per those bits, when one card of each rank and suit
    is held; else counted."""
    plan = c.set_plan
    if plan is None:
        plan = c.set_plan = _plan_set(c)
    if plan:
        got = summary(cards)
        if got is not None:
            mask, counted, (m1, m2, m3, m4) = plan
            ones, twos = got[1] & mask, got[2] & mask
            # the ranks held once, twice, three times, four times (no rank more: one pack),
            # each only if a rank held so may make the set: the rest changes nothing
            key = (
                ones & ~twos if m1 else 0,
                twos & ~ones if m2 else 0,
                ones & twos if m3 else 0,
                got[3] & mask if m4 else 0,
            )
            memo = c.memo
            found = memo.get(key)
            if found is None:
                groups = {}
                for r, b in counted:
                    for n, held in enumerate(key, 1):
                        if held & b:
                            groups[r] = n
                            break
                if len(memo) >= _MEMO_LIMIT:
                    memo.clear()
                found = memo[key] = _set_of(c, groups)
            return found
    return _set_of(c, _rank_counts(c, cards))


def _set_of(c: Combination, groups: dict[str, int]) -> Found:
    """A set, from how many cards of each rank that counts are held."""
    s = c.strength
    if c.sizes:  # several sets of distinct ranks: each size taken by the highest rank left held exactly so
        used: list[str] = []
        for size in sorted(c.sizes, reverse=True):
            held = [r for r, n in groups.items() if n == size and r not in used]
            if not held:
                return NONE
            used.append(max(held, key=s.__getitem__))
        key = 0
        for r in used:
            key = key * RADIX + s[r]
        n = sum(c.sizes)
        return Found(1, n, key, n, s[used[0]], sum(groups[r] * c.value(r) for r in used))
    least, most = c.least, c.most
    count = cards_in = size = top = value = 0
    for r, n in groups.items():
        if n >= least and (most is None or n <= most):
            count += 1
            cards_in += n
            if count == 1 or (n, s[r]) > (size, top):
                size, top = n, s[r]
                value = n * c.value(r)
    if not count:
        return NONE
    return Found(count, cards_in, size * RADIX + top, size, top, value)


def _find_pairs(c: Combination, cards) -> Found:
    f = Found()
    s = c.strength
    for r, g in _by_rank(c, cards).items():
        n = len(g)
        if n >= 2:
            f.count += n * (n - 1) // 2
            f.cards += n * (n - 1)
            if s[r] > f.top:
                f.top, f.size, f.value = s[r], 2, 2 * c.value(r)
    if f.count:
        f.key = 2 * RADIX + f.top
    return f


_COUNTS: dict = {}  # a zone's cards -> how many of each rank (in the order met)


def _held_in(c: Combination, mask: int) -> dict[int, int]:
    """The strengths of the ranks of ``mask`` that count, each held once (a low rank at 0 too)."""
    held: dict[int, int] = {}
    for r, t in c.strength.items():
        if mask & RANK_BIT[r] and (c.ranks is None or r in c.ranks):
            held[t] = 1
            if r in c.low:
                held[0] = 1
    return held


def _runs(c: Combination, held: dict[int, int]) -> tuple[int, int, int, int, int]:
    """The runs of one group of ranks (strength -> cards held of it): how many (each way of
    making one counted), their cards in all, and the best one's size, top and value."""
    s = c.strength
    count = cards = size = top = value = 0
    for start in sorted(held):
        if start - 1 in held:
            continue  # not the bottom of a run
        stop, mult = start, 1
        while stop in held:
            mult *= held[stop]
            stop += 1
        if start == 0 and any(s[r] < stop for r in c.low if r in s):
            mult //= held[0]  # a rank counted low and again in its place: the run starts above it
            start = 1
        n = stop - start
        if not _in(c, n):
            continue
        count += mult
        cards += n * mult
        if (n, stop - 1) > (size, top):
            size, top = n, stop - 1
            value = sum(c.value(c.rank_at[t]) for t in range(max(start, 1), stop))
            if start == 0:
                value += c.value(next(r for r in c.low if r in s))
    return count, cards, size, top, value


def _find_run(c: Combination, cards) -> Found:
    got = summary(cards) if c.suited else None
    count = cards_in = size = top = value = 0
    if got is not None:  # one card of each rank and suit: each suit's runs kept per its ranks
        memo = c.memo
        for mask in got[0]:  # the suits' order changes nothing: equal best runs have the same cards' value
            part = memo.get(mask)
            if part is None:
                part = memo[mask] = _runs(c, _held_in(c, mask))
            if part[0]:
                k, n, sz, tp, v = part
                count += k
                cards_in += n
                if sz > size or sz == size and tp > top:
                    size, top, value = sz, tp, v
    else:
        s = c.strength
        groups: dict[Any, dict[int, int]] = {}  # suit (or None) -> strength -> cards held of it
        for r, g in _by_rank(c, cards).items():
            for x in g:
                held = groups.setdefault(x.suit if c.suited else None, {})
                held[s[r]] = held.get(s[r], 0) + 1
                if r in c.low:
                    held[0] = held.get(0, 0) + 1
        for held in groups.values():
            k, n, sz, tp, v = _runs(c, held)
            if k:
                count += k
                cards_in += n
                if (sz, tp) > (size, top):
                    size, top, value = sz, tp, v
    if not count:
        return NONE
    return Found(count, cards_in, size * RADIX + top, size, top, value)


def _find_flush(c: Combination, cards) -> Found:
    least, most = c.least, c.most
    count = cards_in = size = value = top = 0
    tied = False  # two suits equal at the best, with different tops
    got = summary(cards)
    masks = got[0] if got is not None else None
    if masks is not None:  # each suit's cards, value and top kept per its ranks
        memo = c.memo
        for mask in masks:
            got = memo.get(mask)
            if got is None:
                rs = [r for r in c.strength if mask & RANK_BIT[r] and (c.ranks is None or r in c.ranks)]
                got = memo[mask] = (len(rs), sum(c.value(r) for r in rs), max((c.strength[r] for r in rs), default=0))
            n, v, t = got
            if n >= least and (most is None or n <= most):
                count += 1
                cards_in += n
                if n > size or n == size and v > value:
                    size, value, top, tied = n, v, t, False
                elif n == size and v == value and t != top:
                    tied = True
        if tied:  # the best suit is the first the cards meet, as in the order met
            for mask in suits_met(cards):
                n, v, t = memo[mask]
                if n == size and v == value:
                    top = t
                    break
    else:
        suits: dict[str, list[str]] = {}
        for r, g in _by_rank(c, cards).items():
            for x in g:
                suits.setdefault(x.suit, []).append(r)
        for rs in suits.values():
            n, v, t = len(rs), sum(c.value(r) for r in rs), max(c.strength[r] for r in rs)
            if n >= least and (most is None or n <= most):
                count += 1
                cards_in += n
                if n > size or n == size and v > value:
                    size, value, top = n, v, t
    if not count:
        return NONE
    return Found(count, cards_in, size * VALUE_RADIX + min(value, VALUE_RADIX - 1), size, top, value)


def _find_sum(c: Combination, cards) -> Found:
    """The sets of cards whose values add up to the total: how many, their cards in all, the
    largest (worked out by adding the cards one by one to the sums made so far, not by trying
    every set of cards)."""
    total = c.total
    # sum -> (sets of cards making it, their cards in all, the most cards of one)
    made: dict[int, tuple[int, int, int]] = {0: (1, 0, 0)}
    for r, g in _by_rank(c, cards).items():
        v = c.value(r)
        for _ in g:
            nxt = dict(made)
            for t, (ways, n, most) in made.items():
                u = t + v
                if u > total:
                    continue
                w0, n0, m0 = nxt.get(u, (0, 0, -1))
                nxt[u] = (w0 + ways, n0 + n + ways, max(m0, most + 1))
            made = nxt
    ways, n, most = made.get(total, (0, 0, 0))
    if total == 0:  # the empty set makes no combination
        ways -= 1
    if ways <= 0 or most < c.least:
        return NONE
    return Found(ways, n, most * VALUE_RADIX + min(total, VALUE_RADIX - 1), most, 0, total)


def _find_high(c: Combination, cards) -> Found:
    groups = _by_rank(c, cards)
    if not groups:
        return NONE
    top = max(c.strength[r] for r in groups)
    r = next(r for r in groups if c.strength[r] == top)
    return Found(1, 1, RADIX + top, 1, top, c.value(r))


def _digits(c: Combination, part: Combination, hand) -> list[int] | None:
    """The ranks of ``hand`` in the order a ranking compares them when ``hand`` holds ``part``:
    the cards of the combination (larger group first, then higher), then the others highest
    first (unless ``kickers: false``); None when the hand does not hold it."""
    f = find(part, hand)
    if not f.count:
        return None
    s = c.strength
    mine = sorted((s.get(x.rank, 0) for x in hand), reverse=True)
    if part.kind == "run":  # the run from its top down (a rank counted low last, as 0)
        run = list(range(f.top, f.top - f.size, -1))
        rest = list(mine)
        for t in run:
            if t in rest:
                rest.remove(t)
            elif t == 0 and rest:
                rest.remove(max((s[r] for r in part.low if r in s), default=0))
        return run + (sorted(rest, reverse=True) if c.kickers else [])
    if part.kind in ("set", "pairs"):
        counts: dict[int, int] = {}
        for t in mine:
            counts[t] = counts.get(t, 0) + 1
        if part.kind == "set" and part.sizes:
            chosen = []
            key = f.key
            for _ in part.sizes:
                chosen.append(key % RADIX)
                key //= RADIX
            chosen.reverse()
            sizes = sorted(part.sizes, reverse=True)
            group = [t for t, n in zip(chosen, sizes) for _ in range(n)]
        elif part.kind == "set":
            group = [f.top] * f.size
        else:
            group = [f.top] * 2
        rest = list(mine)
        for t in group:
            rest.remove(t)
        return group + (sorted(rest, reverse=True) if c.kickers else [])
    if part.kind == "flush":
        return mine  # every card of the flush, highest first
    if part.kind == "high":
        return mine if c.kickers else mine[:1]
    return [f.top] + (mine if c.kickers else [])


def _rank_hand(c: Combination, hand) -> int:
    levels = len(c.of)
    for i, part in enumerate(c.of):
        d = _digits(c, part, hand)
        if d is not None:
            key = levels - i
            for t in (d + [0] * c.cards)[: c.cards]:
                key = key * RADIX + t
            return key
    return 0


def _find_ranking(c: Combination, cards) -> Found:
    hand = tuple(cards)
    if not hand:
        return NONE
    if len(hand) <= c.cards:
        key = _rank_hand(c, hand)
    else:
        if binomial(len(hand), c.cards) > MAX_SUBSETS:
            raise ValueError(
                f"the ranking '{c.name}' compares hands of {c.cards} cards: a zone of {len(hand)} cards "
                f"holds more than {MAX_SUBSETS} of them"
            )
        key = max(_rank_hand(c, h) for h in subsets(hand, c.cards))
    if not key:
        return NONE
    size = min(len(hand), c.cards)
    return Found(1, size, key, size, (key >> (4 * (c.cards - 1))) % RADIX, 0)


def _candidates(c: Combination, part: Combination, hand: tuple) -> list[tuple[int, ...]]:
    """Every combination ``part`` (a set or a run) that ``hand`` could lay out, as the places
    of its cards in the hand: each choice of a set's cards, each stretch of a run."""
    s = part.strength
    out: list[tuple[int, ...]] = []
    groups: dict[Any, list[int]] = {}
    for i, x in enumerate(hand):
        if x.rank in s and (part.ranks is None or x.rank in part.ranks):
            groups.setdefault(x.rank if part.kind == "set" else (x.suit if part.suited else None), []).append(i)
    most = part.most
    for idx in groups.values():
        if part.kind == "set":
            for k in range(part.least, min(len(idx), most or len(idx)) + 1):
                out.extend(subsets(idx, k))
            continue
        at: dict[int, int] = {}  # a run: one card for each place in the order (the first held)
        for i in idx:
            at.setdefault(s[hand[i].rank], i)
            if hand[i].rank in part.low:
                at.setdefault(0, i)
        for lo in sorted(at):
            hi = lo
            while hi + 1 in at and (most is None or hi + 2 - lo <= most):
                hi += 1
                if hi + 1 - lo >= part.least:
                    cards = tuple(at[t] for t in range(lo, hi + 1))
                    if len(set(cards)) == len(cards):  # a card counted low is not used twice
                        out.append(cards)
            if part.least <= 1:
                out.append((at[lo],))
    return out


def _find_melds(c: Combination, cards) -> Found:
    """The combinations ``of`` laid out of the zone's cards, no card used twice, so that the
    cards laid out are worth the most (then the most cards, then the fewest combinations)."""
    hand = tuple(cards)
    cands = sorted({m for part in c.of for m in _candidates(c, part, hand)})
    worth = [sum(c.value(hand[i].rank) for i in m) for m in cands]
    masks = [sum(1 << i for i in m) for m in cands]
    tried = 0
    memo: dict[tuple[int, int], tuple[int, int, int]] = {}

    def best(start: int, used: int) -> tuple[int, int, int]:
        """(worth, cards, minus the combinations) of the best layout from candidate ``start`` on."""
        nonlocal tried
        k = (start, used)
        got = memo.get(k)
        if got is not None:
            return got
        tried += 1
        if tried > MAX_SPLITS:
            raise ValueError(f"the melds '{c.name}' would try more than {MAX_SPLITS} ways of laying out the zone")
        got = (0, 0, 0)
        for j in range(start, len(cands)):
            if not masks[j] & used:
                w, n, m = best(j + 1, used | masks[j])
                got = max(got, (w + worth[j], n + len(cands[j]), m - 1))
        memo[k] = got
        return got

    w, n, m = best(0, 0)
    if not n:
        return NONE
    return Found(-m, n, n * VALUE_RADIX + min(w, VALUE_RADIX - 1), n, 0, w)


_FIND: dict[str, Callable[[Combination, Any], Found]] = {
    "set": _find_set,
    "pairs": _find_pairs,
    "run": _find_run,
    "flush": _find_flush,
    "sum": _find_sum,
    "high": _find_high,
    "ranking": _find_ranking,
    "melds": _find_melds,
}
