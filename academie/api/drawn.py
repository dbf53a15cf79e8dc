"""The places of the cards a seat has not seen, in a game with copies of a card (``pack: copies:``):
copy by copy, a card it saw leave a zone dealt from a known place kept at that place (``_seen_at``),
and a card another seat drew there unseen by a filter (``take`` with ``cards:`` and ``count:``) one that
passes the filter (``_filters``); without a deal, by names (``_unseen_names``). Read from the hand's
public course and the rules alone (``State.resample``, academie/api/resampling.py)."""

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
    state: Any, deal: dict, seat: int, known: set, by_name: dict, dealt: bool, spots: dict | None = None
) -> tuple[list, list]:
    """``_unseen``'s places with copies of a card (``pack: copies:``), copy by copy: of each name,
    the copies the seat has not seen, wherever they were dealt (a copy whose twin it saw is
    unseen itself). How many copies of a name it has seen outside the hand it was dealt is the
    most of: the copies it was dealt or was shown in full (a card it drew), and the copies that
    lie now where it sees them (its hand and zones, what it is shown of the others' and the
    shared zones: ``observation``); those are taken to be the first dealt of their name, in the
    order of the places (the other seats', the zones dealt, the pack's rest), and the rest of
    the copies are unseen. A world whose hand played again differs from what the seat saw is
    drawn again. A hand without a deal (a patience laid out from the pack) exchanges names, among
    the names none of whose copies the seat has seen (``_unseen_names``). A patience whose cards
    were all dealt to the zones it lays out or turns from (``spots``, ``_pile_spots``) exchanges
    the cards it never turned up, copy by copy, by their places in the deal (``Spots``): a copy
    face down is unseen though its twin lies face up."""
    if spots is not None:
        from ..interpreter.worlds import Spots

        return [(Spots("zone:" + z, at), [by_name[deal[z][i]] for i in at]) for z, at in spots.items()], []
    if not dealt:
        return _unseen_names(state.engine, deal, seat, known, by_name)
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
    fixed: list[Counter] = [Counter() for _ in places]

    def take(want: dict, which: list[int]) -> None:
        for i in which:
            key, names = places[i]
            followed = at.get(key[5:], {}) if isinstance(key, str) else {}  # (those are given: not kept)
            have = Counter(n for j, n in enumerate(names) if j not in followed)
            for n, k in want.items():
                m = min(k, have[n] - fixed[i][n])
                if m > 0:
                    fixed[i][n] += m
                    want[n] = k - m

    # the copies seen leaving a known place of a zone dealt (``_seen_at``) are kept at that place
    e = state.engine
    at = _seen_at(state._events, deal, seat, _filters(e.g))
    for spots in at.values():
        for n in spots.values():
            if not isinstance(n, str):  # a card drawn unseen by a filter
                continue
            if drawn.get(n, 0) > 0:
                drawn[n] -= 1
            elif shown.get(n, 0) > 0:
                shown[n] -= 1
    zones = [i for i, (key, _) in enumerate(places) if not isinstance(key, int)]
    take(drawn, zones)
    for n, k in drawn.items():
        shown[n] = shown.get(n, 0) + k
    take(shown, list(range(len(places))))
    groups: list = []
    from ..interpreter.worlds import Spots

    for (key, names), fix in zip(places, fixed):
        out: list = []
        seen = at.get(key[5:], {}) if isinstance(key, str) else {}
        where = []
        put: dict = {}
        need: dict = {}
        for i, n in enumerate(names):
            v = seen.get(i)
            if isinstance(v, str):  # given the name seen there; the card dealt there (hidden) among those drawn
                put[len(out)] = by_name[v]
                out.append(by_name[n])
                where.append(i)
                continue
            if v is None and fix[n] > 0:
                fix[n] -= 1
            else:
                if v is not None:  # drawn unseen by a filter: a card that passes it
                    need[len(out)] = _passes(v, e, seat)
                out.append(by_name[n])
                where.append(i)
        groups.append((Spots(key, where, put, need) if seen else key, out))
    pack = groups.pop()
    return groups, pack[1]


def _passes(test: Any, e: Any, seat: int) -> Any:
    """Whether a card passes ``test`` (one that reads the card alone)."""
    filt = test.filter
    return lambda c: bool(filt(e, seat, [c]))


def _seen_at(events: list, deal: dict, seat: int, filters: dict | None = None) -> dict[str, dict[int, Any]]:
    """The places in the hand's deal of the cards ``seat`` saw leave a zone dealt from its top
    ({zone: {place: name}}), read from the public course alone: the deal lists a zone top first,
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
    out: dict[str, dict[int, str]] = {}
    started = False
    for public, owner, full in events:
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
