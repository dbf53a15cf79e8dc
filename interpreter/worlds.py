"""Worlds for a player who cannot see every card: the hand in progress dealt
again so that the cards one seat has not seen lie elsewhere, consistent with
all that seat has seen.

A world is built the way a copy of the state is (``State(resume=snapshot)``
at the top of the hand, then the hand's moves played again), with one
difference: just before the hand's deal, the cards the seat has never seen
are exchanged among themselves by a permutation (``sigma``), so that each
unseen card lies at the place of another unseen card. A card the seat has
seen (its own, one shown face up, one it took) keeps its place; so every
hand and zone keeps its size, and every public card its origin. From the deal
on the world's random generator is its own (``seed``): the hands to come are
not the true ones either.

``place`` draws the permutation: the unseen cards go to the places of the
unseen cards (grouped by what is barred from them), so that no place gets a
card barred from it. What is barred is read from the rules, never from a
game's name (``lacks``): the hand is played again, and where a seat plays a
card to a trick, the cards that would have made it not legal had the seat held
one of them too (the follow rule's tiers, what they excuse, the lead rule) are
barred from the places of the cards it held at that moment, a card it drew,
took or was passed included. Any other duty the rules impose, and the public
course of the hand (its events, the counters the seat sees), is checked
when the hand's moves are played again in the world: a world that differs is
drawn again (``academie.api.State.resample``, which also makes a world from a
copy of the state where nothing needs playing again).
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from ..dsl.cards import Card, parse_card
from ..dsl.model import GameDef
from .base import canon_key
from .fastpath import reads_card_led_trump
from .procedure import Snapshot
from .state import State

__all__ = ["Places", "Spots", "World", "lacks", "place", "place_copies", "voids"]


class Spots(str):
    """A place of a deal (``"zone:NAME"``) whose unseen cards are told by their places in it
    (``at``, in order) rather than by name: where copies of a card lie in one zone, some seen and
    some not (a patience's piles, the seen copy face up, its twin face down), the copy exchanged
    is the one at its place, not the last of its name. ``put``: {k: card} the ``k``-th of those
    places given ``card`` (the name seen leave it), the rest drawn (``place_copies``); ``need``:
    {k: test} the ``k``-th given a card drawn that passes ``test`` (one drawn by a filter).
    ``at`` None: every place of the zone, in its order (the pack's undealt rest, whose cards are
    all exchanged: the ``k``-th is its ``k``-th place from the top)."""

    at: tuple | None
    put: dict
    need: dict

    def __new__(cls, key: str, at: Iterable[int] | None, put: dict | None = None, need: dict | None = None) -> "Spots":
        self = super().__new__(cls, key)
        self.at = None if at is None else tuple(at)
        self.put = put or {}
        self.need = need or {}
        return self


class Places:
    """An exchange by places, for a game with copies of a card (``pack: copies:``), where two
    copies are one card and an exchange of names (``sigma``) cannot move one copy without the
    other: for each place of the deal (a seat's hand by its number, ``"zone:NAME"`` a zone, the
    pack's rest ``"zone:pack"``), the cards taken out (the last copies of each name there, in the
    zone's order, or those at the places a ``Spots`` key gives) and the cards put in their places, in order. ``before``: an exchange applied
    first (a world drawn from a world)."""

    __slots__ = ("out", "new", "before")

    def __init__(self, out: dict, new: dict, before: "Places | None" = None):
        self.out = out
        self.new = new
        self.before = before

    def apply(self, hands: list, zones: dict) -> None:
        """The exchange made on a deal just dealt (``hands`` by seat, ``zones`` by name; a hand
        kept in canonical order)."""
        if self.before is not None:
            self.before.apply(hands, zones)
        for key, out in self.out.items():
            new = self.new[key]
            if not out:
                continue
            if isinstance(key, int):
                h = hands[key]
                for c in out:
                    for i in range(len(h) - 1, -1, -1):
                        if h[i] is c:
                            del h[i]
                            break
                    else:
                        raise AssertionError("a card taken out lies in its place")
                h.extend(new)
                h.sort(key=canon_key)
                continue
            zone = zones[key[5:]]
            spots = getattr(key, "at", None)
            if spots is not None:  # the places given
                for i, c, x in zip(spots, out, new):
                    if zone[i] is not c:
                        raise AssertionError("a card taken out lies in its place")
                    zone[i] = x
                continue
            at: list[int] = []
            taken: set[int] = set()
            for c in out:
                for i in range(len(zone) - 1, -1, -1):
                    if i not in taken and zone[i] is c:
                        taken.add(i)
                        at.append(i)
                        break
                else:
                    raise AssertionError("a card taken out lies in its place")
            for i, c in zip(sorted(at), new):
                zone[i] = c


def place_copies(groups: list[tuple[Any, list[Card]]], rng: random.Random) -> Places:
    """``place`` for a game with copies: the unseen cards of ``groups`` (each copy once) put in
    the places of the unseen cards at random, drawn from the cards in canonical order (two
    states the seat cannot tell apart give the same world). What a seat has shown it lacks is
    left to the hand played again to judge. A place a ``Spots`` key gives a card (``put``) is given
    it, a copy of that name taken from the cards drawn (where one is left among them); one that
    needs a card passing a test (``need``) the first drawn that passes it (if any)."""
    pool = sorted((c for _, cs in groups for c in cs), key=_canon)
    put: dict = {}
    for key, _ in groups:
        for k, c in sorted(getattr(key, "put", {}).items()):
            if c in pool:
                pool.remove(c)
                put[key, k] = c
    rng.shuffle(pool)
    for key, _ in groups:
        for k, test in sorted(getattr(key, "need", {}).items()):
            j = next((j for j, c in enumerate(pool) if test(c)), None)
            if j is not None:
                put[key, k] = pool.pop(j)
    out: dict = {}
    new: dict = {}
    rest = iter(pool)
    for key, cs in groups:
        out[key] = cs
        new[key] = [put[key, k] if (key, k) in put else next(rest) for k in range(len(cs))]
    return Places(out, new)


class World(State):
    """A state resumed from ``resume`` (a snapshot at the top of a hand) in
    which the hand's deal exchanges its cards by ``sigma`` ({card: card}, a
    permutation of some cards) and the random generator is seeded with
    ``seed`` after the deal (before the hand if ``sigma`` is None: the hand
    is then shuffled afresh)."""

    def __init__(
        self, game: GameDef, players: int, *, resume: Snapshot, sigma: dict | None, seed: Any, plan: tuple = (), **kw
    ):
        self._sigma = sigma
        self._world_seed = seed
        self._restock_plan = plan  # the new stocks of the hand's restocks, in order (api/worlds.py)
        super().__init__(game, players, seed, resume=resume, **kw)

    def _restore(self, snap: Snapshot) -> None:
        super()._restore(snap)
        if self._sigma is None:
            self.rng.seed(self._world_seed)

    def _step_shuffle(self, st):
        """A hand without a deal step (its cards turned up or laid out from the pack): its cards
        exchanged by ``sigma`` once shuffled, and the generator seeded with ``seed`` then."""
        super()._step_shuffle(st)
        sigma = self._sigma
        if sigma is None or any(x.kind == "deal" for x in self.g.steps):
            return
        self._sigma = None
        pack = self.zones["pack"]
        if isinstance(sigma, Places):
            sigma.apply(self.hand, self.zones)
        else:
            pack[:] = [sigma.get(c, c) for c in pack]
        self.rng.seed(self._world_seed)

    def _restock_shuffle(self, cards: list) -> list:
        """A restock's new stock: the plan's, when the pile holds its cards (else shuffled afresh)."""
        plan, k = self._restock_plan, len(self.restock_orders)
        if k < len(plan) and sorted(c.name for c in cards) == sorted(c.name for c in plan[k]):
            by_name = {c.name: c for c in cards}
            return [by_name[c.name] for c in plan[k]]
        return super()._restock_shuffle(cards)

    def _step_deal(self, st):
        sigma = self._sigma
        if sigma is None:
            return super()._step_deal(st)
        self._sigma = None
        if isinstance(sigma, Places):  # copies: the true deal, then exchanged place by place
            logging = self._logging
            self._logging = False
            try:
                super()._step_deal(st)
            finally:
                self._logging = logging
            sigma.apply(self.hand, self.zones)
            if logging:
                ev = {"type": "deal", "hands": [[c.name for c in h] for h in self.hand]}
                if st.rest is not None:
                    ev[st.rest] = [c.name for c in self.zones[st.rest]]
                self.emit(ev)
            self.rng.seed(self._world_seed)
            return None
        pack = self.zones["pack"]
        pack[:] = [sigma.get(c, c) for c in pack]
        super()._step_deal(st)
        self.rng.seed(self._world_seed)
        return None

    def _place_deal(self, st):
        sigma = self._sigma
        if sigma is not None and self._deal is not None:  # a given first deal: exchanged as well
            self._sigma = None
            given = self._deal
            if isinstance(sigma, Places):
                hands = [list(h) for h in given["hands"]]
                zones = {z: list(cs) for z, cs in given.items() if z != "hands"}
                zones.setdefault("pack", [])
                sigma.apply(hands, zones)
                if not given.get("pack"):
                    del zones["pack"]
                self._deal = {"hands": hands, **zones}
            else:
                self._deal = {
                    z: [[sigma.get(c, c) for c in h] for h in cs] if z == "hands" else [sigma.get(c, c) for c in cs]
                    for z, cs in given.items()
                }
            try:
                super()._place_deal(st)
            finally:
                self._deal = given
            self.rng.seed(self._world_seed)
            return
        super()._place_deal(st)


def voids(game: GameDef, events: Iterable[dict], state: State | None = None) -> dict[int, set[str]]:
    """The suits each seat has shown it lacks in a hand, from that hand's
    events (``play``, ``renounce``, ``trick``): only where the rules' one
    trick step makes following the suit led the first duty. A card the rules
    excuse (``free``, asked of ``state``; none without it) shows nothing.
    {seat: {suit, …}}."""
    rule = _void_rule(game)
    if rule is None or (rule[0].free is not None and state is None):
        return {}
    st = rule[0]
    free = st.free.fn if st.free is not None else None
    out: dict[int, set[str]] = {}
    led: str | None = None
    for ev in events:
        t = ev.get("type")
        if t == "play":
            suit = _suit(ev["card"])
            if led is None:
                led = suit
            elif suit != led and not (free is not None and _free(free, state, ev["seat"], ev["card"])):
                out.setdefault(ev["seat"], set()).add(led)
        elif t == "renounce":
            if ev.get("led") is not None:
                out.setdefault(ev["seat"], set()).add(ev["led"])
            led = None if st.cannot_follow else led
        elif t in ("trick", "take", "hand_start", "hand_end"):
            led = None
    return out


def _void_rule(game: GameDef) -> tuple | None:
    """(the rules' one trick step,) when its first duty is to follow the suit led (``card.suit ==
    led``): a card of another suit, or a renounce, then shows a void; else None."""
    tricks = [s for s in game.steps if s.kind == "tricks"]
    if len(tricks) != 1 or any(s.kind == "sequence" for s in game.steps):
        return None
    st = tricks[0]
    if not st.must or st.must[0].shape != "card.suit == led":
        return None
    return (st,)


def _free(free, state, seat: int, name: str) -> bool:
    """Whether the rules excuse the card ``name`` (asked now: a rule that reads more than the card may
    answer otherwise than it did then, so an error or a doubt counts as excused)."""
    c = parse_card(name)
    try:
        return c is None or bool(free(state, seat, c))
    except Exception:
        return True


def _suit(name: str) -> str | None:
    c = parse_card(name)
    return None if c is None else c.suit


def place(
    groups: list[tuple[Any, list[Card]]], barred: dict[Any, set[str]], rng: random.Random, tries: int = 40
) -> dict[Card, Card] | None:
    """A permutation of the cards of ``groups`` ([(group, its cards)]) that
    gives no group a card of a suit ``barred`` from it: {card: the card put in
    its place}. Drawn uniformly among all such permutations by rejection (the
    barred groups' cards drawn first, a draw given up at its first barred
    card); after ``tries`` rejections, group by group from the cards each may
    hold, and last card by card with a check that the rest can still be
    placed (every such permutation can then still be drawn, not all equally
    often). None when there is none."""
    cards = [c for _, cs in groups for c in cs]
    # drawn from the cards in canonical order, not in the order of their places: two states the
    # seat cannot tell apart (whose unseen cards lie in different places) give the same world
    pool = sorted(cards, key=_canon)
    order = [k for k, (g, _) in enumerate(groups) if barred.get(g)]
    if not order:
        rng.shuffle(pool)
        return dict(zip(cards, pool))
    free = [k for k in range(len(groups)) if k not in order]
    below = rng.random
    for _ in range(tries):
        left = pool[:]
        got: dict[int, list[Card]] = {}
        ok = True
        for k in order:
            g, cs = groups[k]
            bar = barred[g]
            mine = got[k] = []
            for _ in cs:
                j = int(below() * len(left))
                c = left[j]
                if c in bar:
                    ok = False
                    break
                left[j] = left[-1]
                left.pop()
                mine.append(c)
            if not ok:
                break
        if ok:
            return _spread(groups, got, free, left, rng)
    room = [len(cs) for _, cs in groups]
    bars = [barred.get(g, set()) for g, _ in groups]
    for _ in range(tries):  # group by group, each from the cards it may hold
        left = pool[:]
        got = {}
        rest_room = room[:]
        for k in order:
            allowed = [c for c in left if c not in bars[k]]
            if len(allowed) < room[k]:
                break
            mine = got[k] = rng.sample(allowed, room[k])
            taken = set(mine)
            left = [c for c in left if c not in taken]
            rest_room[k] = 0
            if not _feasible(left, rest_room, bars):
                break
        else:
            return _spread(groups, got, free, left, rng)
    return _place_checked(groups, barred, rng, pool)


def _spread(groups, got: dict, free: list[int], left: list[Card], rng: random.Random) -> dict[Card, Card]:
    """The permutation that puts ``got[k]`` in group k's places and the cards ``left``, shuffled, in the
    free groups' places."""
    rng.shuffle(left)
    out: dict[Card, Card] = {}
    for k, new in got.items():
        out.update(zip(groups[k][1], new))
    i = 0
    for k in free:
        cs = groups[k][1]
        out.update(zip(cs, left[i : i + len(cs)]))
        i += len(cs)
    return out


def _place_checked(groups, barred, rng, pool):
    room = [len(cs) for _, cs in groups]
    allowed = [barred.get(g, set()) for g, _ in groups]
    left = pool[:]
    rng.shuffle(left)
    got: list[list[Card]] = [[] for _ in groups]
    if not _feasible(left, room, allowed):
        return None
    while left:
        c = left.pop()
        options = [k for k in range(len(groups)) if room[k] and c not in allowed[k]]
        rng.shuffle(options)
        options.sort(key=lambda k: -room[k] * rng.random())  # more room, likelier first
        for k in options:
            room[k] -= 1
            if _feasible(left, room, allowed):
                got[k].append(c)
                break
            room[k] += 1
        else:  # cannot happen once feasible: kept as the safe way
            return None
    out = {}
    for (_, cs), new in zip(groups, got):
        rng.shuffle(new)
        out.update(zip(cs, new))
    return out


def _canon(c: Card) -> int:
    return c.canon


def _feasible(cards: list[Card], room: list[int], barred: list[set]) -> bool:
    """Whether ``cards`` fit the groups' ``room`` with no group given a card
    barred from it: Hall's condition over the classes of cards (cards barred
    from the same groups), which are few; with very many, not checked."""
    need: dict[frozenset, int] = {}
    for c in cards:
        sig = frozenset(k for k, bar in enumerate(barred) if c in bar)
        need[sig] = need.get(sig, 0) + 1
    classes = list(need)
    if len(classes) > 12:
        return True
    for mask in range(1, 1 << len(classes)):
        chosen = [classes[i] for i in range(len(classes)) if mask >> i & 1]
        total = sum(need[s] for s in chosen)
        cap = sum(r for k, r in enumerate(room) if any(k not in s for s in chosen))
        if total > cap:
            return False
    return True


class _Watch:
    """The event sink of a hand played again: what each seat other than ``observer`` shows it lacks,
    read at the moment it shows it, against the cards it holds then."""

    def __init__(self, game: GameDef, observer: int):
        self.st: Any = None
        self.game = game
        self.observer = observer
        self.lacks: dict[Card, set[Card]] = {}
        self.events = 0  # the events of the hand so far (a ``marks`` entry's last)
        self.led: str | None = None
        rule = _void_rule(game)
        self.rule = rule
        self.free = rule[0].free.fn if rule is not None and rule[0].free is not None else None

    def held(self, seat: int, cards: Iterable[Card]) -> None:
        """``seat`` holds none of ``cards``: each card of its hand now may not be one of them."""
        bar = set(cards)
        if not bar:
            return
        lacks = self.lacks
        for c in self.st.hand[seat]:
            got = lacks.get(c)
            if got is None:
                lacks[c] = set(bar)
            else:
                got |= bar

    def played(self, step: Any, seat: int, m: Any) -> None:
        """``seat`` plays ``m`` to a trick of ``step``: the cards that, had it held one of them too,
        would have made ``m`` not legal, it did not hold. Where the follow rule's tiers read only
        the card, ``led`` and ``trump``, those are the cards of the tiers before the first its
        hand met (unless the rules excuse ``m``); else (a tier or the lead rule that reads the
        hand) each card is tried in the hand in turn."""
        st = self.st
        if (
            not isinstance(m, Card)
            or (st.led is None and step.lead_test is None)
            or (st.led is not None and not step.must)
        ):
            return
        hand = st.hand[seat]
        pack = st.pack_cards
        try:
            if st.led is not None and all(reads_card_led_trump(t, self.game) for t in step.must):
                if step.free is not None and _free(step.free.fn, st, seat, m.name):
                    return
                bar: set[Card] = set()
                for t in step.must:
                    if t.filter(st, seat, hand):
                        break
                    bar.update(t.filter(st, seat, pack))
                self.held(seat, bar)
                return
            mine = set(hand)
            bar = set()
            for x in pack:
                if x in mine:
                    continue
                hand.append(x)
                try:
                    if m not in st._legal(step, seat)[0]:
                        bar.add(x)
                finally:
                    hand.pop()
        except Exception:  # a rule that cannot be asked so: nothing learnt
            return
        self.held(seat, bar)

    def __call__(self, ev: dict) -> None:
        self.events += 1
        if self.rule is None:
            return
        t = ev.get("type")
        if t == "play":
            suit = _suit(ev["card"])
            if self.led is None:
                self.led = suit
            elif suit != self.led and ev["seat"] != self.observer:
                if not (self.free is not None and _free(self.free, self.st, ev["seat"], ev["card"])):
                    self.held(ev["seat"], (c for c in self.st.pack_cards if c.suit == self.led))
        elif t == "renounce":
            if ev.get("led") is not None and ev["seat"] != self.observer:
                self.held(ev["seat"], (c for c in self.st.pack_cards if c.suit == ev["led"]))
            self.led = None if self.rule[0].cannot_follow else self.led
        elif t in ("trick", "take", "hand_start", "hand_end"):
            self.led = None


def lacks(
    game: GameDef,
    snap: Snapshot,
    players: int,
    moves: list,
    observer: int,
    sigma: dict | None = None,
    seed: Any = 0,
    marks: list | None = None,
    plan: tuple = (),
) -> dict[Card, set[Card]]:
    """What the seats other than ``observer`` have shown they did not hold,
    by the place of each card: {card: the cards that may not lie where it lay}.
    Found by playing the hand's ``moves`` again from ``snap`` (the top of the
    hand; dealt with ``sigma`` and ``seed`` as a ``World`` when given) and
    reading, at the moment a seat shows it lacks some cards, the cards it holds
    then: a card it drew, took or was passed counts as well as one it was
    dealt, and one it had laid out before does not. A seat shows it at each
    card it played to a trick: it held no card that would have made that card
    not legal (by the follow rule's tiers, ``must``, asked then, in that trick,
    and what the rules excuse, ``free``; by the lead rule when it led); where
    the first tier is the suit led (``voids``' rule), at a renounce too: it held
    none of the suit led. ``marks``: a list given is filled with the counters
    and money (``pvars``, ``vars``, ``declared``, ``bal``), the atoms each
    counter cell depends on (``_taint``: which cells a seat sees) and the number
    of the hand's events so far, at the hand's first decision, then after each
    move."""
    watch = _Watch(game, observer)
    cls: type[State] = State if sigma is None else World
    st = cls.__new__(cls)
    watch.st = st
    track = marks is not None
    if sigma is None:
        State.__init__(st, game, players, 0, resume=snap, keep_events=False, check="hand", sink=watch, track=track)
    else:
        World.__init__(
            st,  # type: ignore[arg-type]
            game,
            players,
            resume=snap,
            sigma=sigma,
            seed=seed,
            plan=plan,
            keep_events=False,
            check="hand",
            sink=watch,
            track=track,
        )
    if marks is not None:
        marks.append((*_counters(st), watch.events))
    for m in moves:
        d = st.decision
        if d is None:
            break
        step = getattr(st, "_cur_step", None)
        if d.kind == "play" and d.seat != observer and step is not None and step.kind == "tricks":
            watch.played(step, d.seat, m)
        st.apply(m)
        if marks is not None:
            marks.append((*_counters(st), watch.events))
    return watch.lacks


def _counters(st: State) -> tuple:
    """The counters and money, as they are now (new containers), and the atoms of hidden cards each
    counter cell depends on (``visibility``): a world is held to the cells its seat sees."""
    return (
        {k: v[:] for k, v in st.pvars.items()},
        dict(st.vars),
        dict(st.declared),
        {h: dict(b) for h, b in st.bal.items()},
        dict(st._taint),
    )
