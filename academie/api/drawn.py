"""The places of the cards a seat has not seen, in a game with copies of a card (``pack: copies:``):
copy by copy, a card it saw leave a zone dealt (or the pack's undealt rest) from a known place kept
at that place (``_seen_at``), and a card another seat drew there unseen by a filter (``take`` with
``cards:`` and ``count:``) one that passes the filter (``_filters``); without a deal, by names
(``_unseen_names``). Read from the hand's public course and the rules alone (``State.resample``,
academie/api/resampling.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

_FILTERS: dict[int, tuple[Any, dict]] = {}


def rule_parts(gamedef: Any, kind: type) -> Iterator[Any]:
    """Each object of type ``kind`` in a game's steps and game end, once (not looking inside one),
    walking its lists, dicts and dataclasses (not their ``doc`` or ``scope``)."""
    seen: set[int] = set()
    todo: list = [gamedef.steps, gamedef.game_end]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or obj is None or isinstance(obj, (str, int, float, bool)):
            continue
        seen.add(id(obj))
        if isinstance(obj, kind):
            yield obj
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
        elif hasattr(obj, "__dataclass_fields__"):
            todo.extend(getattr(obj, f, None) for f in obj.__dataclass_fields__ if f not in ("doc", "scope"))


def _filters(gamedef: Any) -> dict:
    """The tests of the rules' takes of the first cards of a shared zone that pass one ({(from, to):
    the test}, the test None where two takes of that zone to that zone differ in it), those tests
    that read the card alone (``fastpath.reads_card_only``), worked out once per game."""
    got = _FILTERS.get(id(gamedef))
    if got is not None and got[0] is gamedef:
        return got[1]
    from ..dsl.gamedef import Effect
    from ..interpreter.fastpath import reads_card_only

    out: dict = {}
    for obj in rule_parts(gamedef, Effect):
        a = obj.args
        if obj.op == "take" and a.get("cards") is not None and a.get("count") is not None and a.get("from_shared"):
            key = (a["from_shared"], a["to_name"])
            test = a["cards"] if reads_card_only(a["cards"], gamedef) else None
            out[key] = test if out.get(key, test) is test else None
    _FILTERS[id(gamedef)] = (gamedef, out)
    return out


def _unseen_copies(
    state: Any,
    deal: dict,
    seat: int,
    known: set,
    by_name: dict,
    dealt: bool,
    spots: dict | None = None,
    early: bool = False,
) -> list:
    """``_unseen``'s places with copies of a card (``pack: copies:``), copy by copy: of each name,
    the copies the seat has not seen, wherever they were dealt (a copy whose twin it saw is
    unseen itself). How many copies of a name it has seen outside the hand it was dealt is the
    most of: the copies it was dealt or was shown in full (a card it drew), and the copies that
    lie now where it sees them (its hand and zones, what it is shown of the others' and the
    shared zones: ``observation``); those are given places from the public course alone, never
    from the names dealt there (hidden): a copy another seat showed from its hand the place of
    the last card it drew before (``_shown_by``), else its hand as dealt (``early``: the first
    shown first, its hand as dealt while it has room, else the first card it drew before), the
    rest the first places not given in the order of the places (the other seats', the zones
    dealt, the pack's rest); every other card at those places is unseen (a hand's cards all drawn again, those
    given put back: ``_Hand``); the pack's undealt rest is followed from its top as a zone dealt
    is, all its cards drawn again, the copies given or seen there put at their places (a ``Spots``
    of no ``at``), never by the names it holds (hidden). A world whose hand played again differs
    from what the seat saw is drawn again. A hand without a deal (a patience laid out from the pack) exchanges names, among
    the names none of whose copies the seat has seen (``_unseen_names``). A patience whose cards
    were all dealt to the zones it lays out or turns from (``spots``, ``_pile_spots``) exchanges
    the cards it never turned up, copy by copy, by their places in the deal (``Spots``): a copy
    face down is unseen though its twin lies face up."""
    if spots is not None:
        from ..interpreter.worlds import Spots

        return [(Spots("zone:" + z, at), [by_name[deal[z][i]] for i in at]) for z, at in spots.items()] + [
            ("zone:pack", [])
        ]
    if not dealt:
        named, left = _unseen_names(state.engine, deal, seat, known, by_name)
        return [*named, ("zone:pack", left)]
    from collections import Counter

    e = state.engine
    counts = e.g.pack_counts(e.n)
    mine = Counter(deal["hands"][seat])
    own = Counter(mine)
    for _, owner, full in state._events:
        if owner == seat and full is not None:
            own.update(x for x in full.get("cards", ()) if isinstance(x, str))
    obs = state.observation(seat, earlier_hands=False)
    now: Counter = Counter(obs["hand"])
    for z in obs["zones"].values():
        now.update(z["cards"])
    for per in obs["seat_zones"].values():
        for z in per:
            now.update(z["cards"])
    # the copies it was shown in full (drawn from a stock, say) are taken first from the zones,
    # where such copies come from; those it sees now else, first from the other seats' hands
    drawn = {n: own[n] - mine[n] for n in own}
    shown = {n: max(own[n], now[n]) - own[n] for n in set(own) | set(now)}
    places: list = [(s, names) for s, names in enumerate(deal["hands"]) if s != seat]
    placed: Counter = Counter()
    for names in deal["hands"]:
        placed.update(names)
    for z, names in deal.items():
        if z not in ("type", "hands") and isinstance(names, list):
            placed.update(names)
            places.append(("zone:" + z, names))
    rest: list = []
    for c, k in counts.items():
        rest.extend([c.name] * (k - placed[c.name]))
    places.append(("zone:pack", rest))
    # the copies seen beyond the seat's own hand are given places from the public course alone
    # (never from the names dealt there, which are hidden): below, a card another seat showed;
    # then a card it drew, unseen where it lay, the first places of the zones not given; a card
    # shown else, the first places not given, in the order of the places, by how many each holds
    e = state.engine
    drew: dict = {}
    at = _seen_at(state._events, deal, seat, _filters(e.g), drew)
    for spots in at.values():
        for n in spots.values():
            if not isinstance(n, str):  # a card drawn unseen by a filter
                continue
            if drawn.get(n, 0) > 0:
                drawn[n] -= 1
            elif shown.get(n, 0) > 0:
                shown[n] -= 1
    free: list[list[int]] = []
    for key, names in places:
        seen = at.get(key[5:], {}) if isinstance(key, str) else {}
        free.append([i for i in range(len(names)) if i not in seen])
    given: list[dict[int, str]] = [{} for _ in places]
    index = {key: i for i, (key, _) in enumerate(places)}

    def give(i: int, n: str, spot: int | None = None) -> bool:
        left = [j for j in free[i] if j not in given[i]] if spot is None else [spot]
        if not left or left[0] in given[i]:
            return False
        given[i][left[0]] = n
        return True

    # a copy another seat showed from its hand (played it, say) is given a place it held then,
    # read from the public course alone, the last shown first: the place of the last card it drew
    # before (by a filter that the card passes, else unseen) not given yet, else its hand as
    # dealt while it has room (so that a card lies in a world's hand no longer than it must).
    # ``early``: the first shown first, the place of the first card it drew before by a filter
    # the card passes, else its hand as dealt while it has room, else the first card it drew
    # before unseen (so that a card lies in a world's hand as long as it may: a meld it passed)
    for when, s, n in _shown_by(state._events, seat) if early else reversed(_shown_by(state._events, seat)):
        if shown.get(n, 0) <= 0 or s not in index:
            continue
        before = [d for d in drew.get(s, ()) if d[0] < when]
        if not early:
            before.reverse()
        i = index[s]
        d = next((d for d in before if d[3] is not None and d[3].filter(e, seat, [by_name[n]])), None)
        if d is None and (early or not any(x[3] is None for x in before)):
            if len(given[i]) < len(free[i]) and give(i, n):
                shown[n] -= 1
                continue
        if d is None:
            d = next((d for d in before if d[3] is None), None)
        if d is not None:
            drew[s].remove(d)
            if give(index["zone:" + d[1]], n, d[2]):
                shown[n] -= 1

    def take(want: dict, which: list[int]) -> None:
        for n in sorted(want):
            for i in which:
                while want[n] > 0 and give(i, n):
                    want[n] -= 1

    zones = [i for i, (key, _) in enumerate(places) if not isinstance(key, int)]
    take(drawn, zones)
    for n, k in drawn.items():
        shown[n] = shown.get(n, 0) + k
    take(shown, list(range(len(places))))
    groups: list = []
    from ..interpreter.worlds import Spots

    for (key, names), got in zip(places, given):
        if key == "zone:pack":
            # the pack's undealt rest, every card of it exchanged (the deal does not list its
            # order: ``names`` is the rest in the pack's catalogue order, not by place), a copy
            # given it or seen leave it put at its place there, top first (a ``Spots`` of no
            # ``at``: all its places, in order); never kept out by the names the rest holds, hidden
            seen = at.get("pack", {})
            fixed: dict = {}
            tests: dict = {}
            for i in range(len(names)):
                v = seen.get(i)
                if i in got:
                    fixed[i] = by_name[got[i]]
                elif isinstance(v, str):
                    fixed[i] = by_name[v]
                elif v is not None:
                    tests[i] = _passes(v, e, seat)
            groups.append((Spots(key, None, fixed, tests), [by_name[n] for n in names]))
            continue
        if isinstance(key, int):  # a hand: every card taken out, the copies given put back
            put = {k: by_name[n] for k, n in enumerate(got.values())}
            groups.append((_Hand(key, put), [by_name[n] for n in names]))
            continue
        seen = at.get(key[5:], {})
        # the places not seen first (the copies given put at the first of them), then those seen
        order = [i for i in range(len(names)) if i not in seen] + sorted(seen)
        need: dict = {}
        put = {}
        for k, i in enumerate(order):
            v = seen.get(i)
            if i in got:  # a copy seen given this place
                put[k] = by_name[got[i]]
            elif isinstance(v, str):  # given the name seen there; the card dealt there (hidden) among those drawn
                put[k] = by_name[v]
            elif v is not None:  # drawn unseen by a filter: a card that passes it
                need[k] = _passes(v, e, seat)
        groups.append((Spots(key, order, put, need), [by_name[names[i]] for i in order]))
    return groups


class _Hand(int):
    """A seat's hand in the deal (its number) whose cards are all drawn again, those of ``put``
    ({k: card}) given: the copies the seat saw that are given places there (``place_copies``)."""

    put: dict

    def __new__(cls, seat: int, put: dict) -> "_Hand":
        self = super().__new__(cls, seat)
        self.put = put
        return self


_SHOWN = ("play", "meld", "show", "discard", "lay_off")
_LAID = ("play", "discard", "lay_off")  # (a card melded or shown may be shown again)


def _shown_by(events: list, seat: int) -> list[tuple[int, int, str]]:
    """The cards the other seats showed from their hands, copy by copy, in the order first shown
    ([(when, seat, name)], ``when`` the event's index): a copy shown again (melded, then played,
    or melded twice) counted once, read from the public course alone."""
    out: list[tuple[int, int, str]] = []
    had: dict = {}
    each: dict = {}
    started = False
    for when, (public, owner, _) in enumerate(events):
        if not started:
            started = owner == -1
            continue
        s = public.get("seat")
        if public.get("type") not in _SHOWN or not isinstance(s, int) or s == seat:
            continue
        names = public.get("cards") if public.get("card") is None else [public.get("card")]
        here: dict = {}
        for n in names or ():
            if isinstance(n, str):
                here[n] = here.get(n, 0) + 1
        for n, k in here.items():
            if public["type"] in _LAID:  # cards laid from the hand: counted on
                k += each.get((s, n), 0)
                each[s, n] = k
            while k > had.get((s, n), 0):
                had[s, n] = had.get((s, n), 0) + 1
                out.append((when, s, n))
    return out


def _passes(test: Any, e: Any, seat: int) -> Any:
    """Whether a card passes ``test`` (one that reads the card alone)."""
    filt = test.filter
    return lambda c: bool(filt(e, seat, [c]))


def _seen_at(
    events: list, deal: dict, seat: int, filters: dict | None = None, drew: dict | None = None
) -> dict[str, dict[int, Any]]:
    """The places in the hand's deal of the cards ``seat`` saw leave a zone dealt from its top
    ({zone: {place: name}}, the pack's undealt rest as ``"pack"``, its places top first after
    the deal), read from the public course alone: the deal lists a zone top first,
    and each card turned up from it or taken from it (``from``, with their number) takes the
    next places; a card seen so is one turned up, or one taken that the seat was shown (its own
    draws, a card taken face up), kept at those places under the name seen. A zone that takes
    cards back, or is shuffled or restocked, is no longer followed. Nothing here reads the deal's
    places themselves (they are hidden). A draw by a filter (the first cards that pass a test:
    the event says ``filtered``) is taken as made from the top all the same: a world is a deal
    in which it was, the seat's own at those places under the names seen, and another seat's,
    unseen, where the rules' test of that take reads the card alone (``filters``: {(from, to):
    test}), at places given the test ({place: test}) for a card that passes it."""
    top = {z: 0 for z, names in deal.items() if z not in ("type", "hands") and isinstance(names, list)}
    top.setdefault("pack", 0)  # the pack's undealt rest, top first (the deal leaves it in its order)
    out: dict[str, dict[int, str]] = {}
    started = False
    for when, (public, owner, full) in enumerate(events):
        if not started:
            started = owner == -1
            continue
        t = public.get("type")
        if t in ("restock", "shuffle", "deal"):
            top.clear()
        if public.get("to") in top:
            del top[public["to"]]
        z = public.get("from")
        if z not in top or t not in ("turnup", "take"):
            continue
        i = top[z]
        if t == "turnup":
            names: list | None = [public.get("card")]
            k = 1
        else:
            shown = public.get("cards")
            k = public["count"] if isinstance(public.get("count"), int) else len(shown or ())
            names = full.get("cards") if owner == seat and full is not None else shown
        top[z] = i + k
        if names is None:
            test = (filters or {}).get((z, public.get("to"))) if public.get("filtered") else None
            if test is not None:
                for j in range(k):
                    out.setdefault(z, {})[i + j] = test
            if drew is not None and isinstance(public.get("seat"), int):  # {seat: [(when, zone, place, test)]}
                drew.setdefault(public["seat"], []).extend((when, z, i + j, test) for j in range(k))
            continue
        if len(names) != k:
            del top[z]
            continue
        for j, n in enumerate(names):  # the names seen, never the deal's hidden places read
            out.setdefault(z, {})[i + j] = n
    return out


def _unseen_names(e: Any, deal: dict, seat: int, known: set, by_name: dict) -> tuple[list, list]:
    """``_unseen``'s places with copies of a card in a hand without a deal: a world exchanges card
    names (``sigma``: {card: card}), every copy of a name with it, so the cards it may exchange are
    the names none of whose copies the seat has seen, each named once, at the place of its first
    copy dealt, and of the most copies (a name of fewer copies, in a pack partly copied, stays
    where it is). A name of which the seat has seen a copy stays where its copies are."""
    counts = e.g.pack_counts(e.n)
    most = max(counts.values(), default=1)
    taken = set(known)
    for c, k in counts.items():
        if k != most:
            taken.add(c.name)

    def unseen(names: list) -> list:
        out = []
        for n in names:
            if n not in taken:
                taken.add(n)
                out.append(by_name[n])
        return out

    for n in deal["hands"][seat]:
        taken.add(n)
    placed: set[str] = set()
    groups: list = []
    for s, names in enumerate(deal["hands"]):
        placed.update(names)
        if s != seat:
            groups.append((s, unseen(names)))
    for z, names in deal.items():
        if z not in ("type", "hands") and isinstance(names, list):
            placed.update(names)
            groups.append(("zone:" + z, unseen(names)))
    rest = unseen([c.name for c in counts if c.name not in placed])
    return groups, rest
