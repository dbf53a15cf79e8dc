"""Worlds mended (``State.resample``'s part): a world drawn whose hand went otherwise than the seat
saw it has unseen cards of its own exchanged until it plays the hand as seen (``_mend``); where
no world drawn reaches the decision at hand, this state copied with its unseen cards exchanged
where they lie (``_copied``). Both read the world, the hand's moves and what the seat sees, never
where the hidden cards truly lie (docs/players.md, "Worlds mended")."""

from __future__ import annotations

import random
from itertools import chain
from typing import Any

from .parts import Parts

_MEND_TRIES = 384  # the exchanges tried to mend one move (on a copy of the world a move before) ...
_MEND_REPLAYS = 48  # ... and the hand played again for those that mend it there
_CLIMB_STILL = 400  # the exchanges a climb tries on without coming nearer the seat's view (``_climb``)


class Mending(Parts):
    """``State``'s worlds mended, and copied where none is found."""

    def _copied(self, snap: Any, seat: int, deal: dict, groups: list, copies: bool, compose: Any, rng: Any) -> Any:
        """A world when none drawn reaches the decision at hand: a copy of this state with the cards
        ``seat`` has not seen exchanged where they lie now, at random (with copies of a card, copy
        by copy, the cards at the places it does not see now shuffled among them: ``_shuffled``);
        a counter it does not see (worked out from cards it has not seen) taken from the hand
        played again with an exchange drawn from its deal, as far as it goes: the copy's own
        would be the true one."""
        from ..interpreter.worlds import place, place_copies
        from .worlds import _World

        e = self.engine
        drawn = place_copies(groups, rng) if copies else place(groups, {}, rng)
        sigma, here = compose(drawn)  # (a world of a world with copies: that world, as it is)
        seed = rng.getrandbits(64)
        w = _World.__new__(_World)
        if e.g.copies:  # copy by copy, by the places the seat does not see now (``_shuffled``)
            w._copy(self, snap, {}, sigma, seed, ())
            self._shuffled(w, seat, rng)
        else:
            owned = tuple(i for i, (_, owner, _) in enumerate(self._events) if owner is not None)
            w._copy(self, snap, here, sigma, seed, owned)
        if e.counter_atoms and not self._sees_all_counters(seat):
            from ..interpreter.visibility import HIDDEN

            vs, pvs = e.view(seat, self._knows(seat))
            again = _World.__new__(_World)
            again._from(self, snap, sigma, seed, swap=here or None, seat=seat)
            mine, theirs = w.engine, again.engine
            for k, v in vs.items():
                if v == HIDDEN:
                    mine.vars[k] = theirs.vars.get(k, 0)
            for k, row in pvs.items():
                for s, v in enumerate(row):
                    if v == HIDDEN:
                        mine.pvars[k][s] = theirs.pvars[k][s]
        w.fallback = w.copied = True
        return w

    def _shuffled(self, w: Any, seat: int, rng: Any) -> None:
        """``w`` (a copy of this state) with copies of a card: the cards at the places ``seat`` does
        not see now (another seat's hand, a zone's face-down cards, what ``observation`` does not
        show it) shuffled among those places, copy by copy, at random; and the cards of the events
        it did not see in full (another seat's draw, the others' hands dealt) named afresh from the
        cards that seat holds unseen in ``w``, else from all those places. A name with copies does
        not say which copy the seat saw: exchanged by name, a name it saw a copy of would stay where
        its unseen copy lies. Which places are shuffled, and the cards they hold together (the pack
        less the cards it sees), are what the seat sees: the world never reads where a hidden card
        lies (the places it knows of a card it laid face down are shuffled too)."""
        from ..interpreter.copies import face_down
        from operator import attrgetter

        from .views import _unseen_into
        from .worlds import _name_canon

        canon_key = attrgetter("canon")
        e = w.engine
        seen = self._seen
        down = face_down(e)
        into = _unseen_into(self._events)
        slots: list = []  # (zone, place, seat whose zone it is or None)
        for z, cs in e.zones.items():
            d = down.get(z, 0)
            slots.extend((cs, i, None) for i, c in enumerate(cs) if i < d or c.name not in seen)
        for z, per in e.pzones.items():
            for s, cs in enumerate(per):
                if s != seat:
                    hide = z == "hand" or z in into
                    slots.extend((cs, i, s) for i, c in enumerate(cs) if hide or c.name not in seen)
        pool = sorted((cs[i] for cs, i, _ in slots), key=canon_key)  # (in no order the deal gives)
        rng.shuffle(pool)
        held: dict = {}
        for (cs, i, s), c in zip(slots, pool):
            cs[i] = c
            held.setdefault(s, []).append(c.name)
        for h in e.hand:
            h.sort(key=canon_key)
        names = sorted((c.name for c in pool), key=_name_canon)
        free = {s: sorted(v, key=_name_canon) for s, v in held.items()}
        for v in free.values():
            rng.shuffle(v)
        rng.shuffle(names)
        cards = {c.name for c in e.pack_cards}

        def afresh(x: Any, s: Any) -> Any:
            if not isinstance(x, str) or x not in cards:
                return x
            mine = free.get(s)
            if mine:
                return mine.pop()
            return names[int(rng.random() * len(names))] if names else x

        events = w._events
        for k, (public, owner, full) in enumerate(events):
            if owner is None or full is None or owner == seat or (isinstance(owner, tuple) and seat in owner):
                continue
            out = {}
            for key, v in full.items():
                if key == "hands":
                    v = [
                        h if s == seat else sorted((afresh(x, s) for x in h), key=_name_canon) for s, h in enumerate(v)
                    ]
                elif isinstance(v, list):
                    v = [afresh(x, owner) for x in v]
                elif key != "type":
                    v = afresh(v, owner)
                out[key] = v
            events[k] = (public, owner, out)

    def _mend(
        self,
        snap: Any,
        drawn: Any,
        compose: Any,
        seed: int,
        marks: Any,
        seat: int,
        at: int,
        groups: list,
        barred: dict,
        rng: random.Random,
    ) -> tuple | None:
        """An exchange mended from ``drawn`` (one drawn among the cards ``seat`` has not seen, {card:
        the card put in its place}) whose world plays the hand's move ``at`` as the seat saw it, where
        ``drawn``'s world did not: some unseen cards of the world exchanged with other unseen cards
        of it, tried in turn (``_MEND_TRIES``, ``_MEND_REPLAYS``), each on a copy of the world paused a move before,
        then the hand played again. Which are exchanged is read from the world alone and the hand's
        public course: where the move names such a card, that card; where the move is not legal
        there, a card of the seat that made it; where its public course differs, the cards the move
        moved or named in the world, or else those the next decision offers (a question put in the
        world and not in the hand). (The exchange, its world: the hand played again to its end, or
        to its first difference after that move), or None when no exchange tried mends it."""
        from ..dsl.cards import Card, parse_card
        from ..dsl.errors import RuleError
        from .resampling import _canon
        from .worlds import _World

        if not isinstance(drawn, dict) or not drawn:
            return None
        sigma, here = compose(drawn)
        truth = self._events

        def replayed(new: dict, stop: int | None) -> Any:
            s2, h2 = compose(new)
            w = _World.__new__(_World)
            w._from(self, snap, s2, seed, swap=h2, marks=marks, seat=seat, stop=stop)
            return w

        # the world paused before the move ahead of the one to mend (``prev``): an exchange is
        # tried first on a copy of it, those two moves made again there, and the hand played again
        # from its start only for an exchange that gives their public course
        prev: Any = replayed(drawn, at - 1) if at else None
        if prev is not None and (not prev._ok or prev._pending is None or len(prev._pending) < 2):
            return None

        def copied(ex: dict) -> Any:  # (the events' full forms as they were: only the public are compared)
            w = _World.__new__(_World)
            w._copy(prev, snap, ex, sigma, seed, (), reseed=False)  # (its generator as it was)
            return w

        def sent(w: Any, m: Any) -> bool:  # ``m`` made in ``w`` where legal (no error made where not)
            if m in w.engine.legal_moves() or (isinstance(m, str) and parse_card(m) is not None):
                try:
                    w._send(m)
                except RuleError:
                    return False
                return True
            return False

        def alike(w: Any, n0: int) -> bool:
            ev = w._events
            return len(ev) <= len(truth) and all(ev[i][0] == truth[i][0] for i in range(n0, len(ev)))

        if prev is not None:
            now = copied({})
            try:
                now._send(prev._pending[0])
            except RuleError:
                return None
            move = prev._pending[1]
        else:
            now = replayed(drawn, 0)
            if not now._ok or not now._pending:
                return None
            move = now._pending[0]
        e = now.engine
        unseen = set(drawn.values())  # the world's cards in the places of the cards the seat has not seen

        def holders(eng: Any) -> dict:
            return {
                c: k
                for k, zone in enumerate((*eng.zones.values(), *chain.from_iterable(eng.pzones.values())))
                for c in zone
                if c in unseen
            }

        actor = e.current_player()
        mine = sorted((c for c in e.hand[actor] if c in unseen), key=_canon) if actor is not None else []
        moved: set = set()
        before = holders(e)
        offered = sorted((c for c in e.legal_moves() if c in unseen), key=_canon)  # the world's own decision
        n0 = len(now._events)
        try:
            now._send(move)
        except RuleError:
            legal = False
        else:
            legal = True
            after = holders(now.engine)
            moved = {c for c in unseen if before.get(c) != after.get(c)}
            by_name = {c.name: c for c in unseen}
            for public, _, full in now._events[n0:]:
                for form in (public, full or {}):
                    for v in form.values():
                        for x in v if isinstance(v, list) else (v,):
                            if isinstance(x, str) and x in by_name:
                                moved.add(by_name[x])
            if not moved or alike(now, n0):  # the course differs after: the cards now offered (a
                # question put in the world and not in the hand, say which of its cards meld)
                moved.update(c for c in now.engine.legal_moves() if c in unseen)
        if move in unseen:  # the card the move names, for each other card in turn
            single, out = True, [move]
        else:
            single = not legal or not moved
            out = sorted(mine if single else moved, key=_canon)
        if not out:
            return None
        rest = sorted((c for c in unseen if c not in out), key=_canon)
        if not rest:
            return None
        where = {v: k for k, v in drawn.items()}  # the place (the true card there) of each world card
        group = {c: g for g, cs in groups for c in cs}
        rng.shuffle(rest)
        if single:  # one card of ``out`` for each other card in turn
            outs = out[:]
            rng.shuffle(outs)
            singles = [[(x, y)] for y in rest for x in outs]
        elif len(rest) < len(out):
            return None
        # a move not legal where the world offers unseen cards: where one card exchanged does not mend
        # it (a seat asked in the world, and not in the hand, holds two cards that could be played),
        # every card offered, each for another, at once
        every = offered if not legal and single and offered and len(offered) < len(unseen) else []
        replays = 0
        phase = 0  # 0: the exchanges above; 1: every card offered at once (from ``start``)
        start = 0
        for k in range(_MEND_TRIES * (2 if every else 1)):
            if not phase and (k >= _MEND_TRIES or (single and k >= len(singles)) or replays == _MEND_REPLAYS):
                if not every:
                    return None
                others = sorted((c for c in unseen if c not in every), key=_canon)
                if len(others) < len(every):
                    return None
                phase, start, replays = 1, k, 0
            if phase:
                if k - start >= _MEND_TRIES:
                    return None
                pairs = list(zip(every, rng.sample(others, len(every))))
            elif single:
                pairs = singles[k]
            else:  # every card the move moved or named, each for another
                pairs = list(zip(out, rng.sample(rest, len(out))))
            new = dict(drawn)
            ex: dict = {}
            ok = True
            for x, y in pairs:
                px, py = where[x], where[y]
                if y in barred.get(group.get(px), ()) or x in barred.get(group.get(py), ()):
                    ok = False
                    break
                new[px], new[py] = y, x
                ex[x], ex[y] = y, x
            if not ok:
                continue
            if prev is not None:  # the two moves on a copy first
                w = copied(ex)
                n1 = len(w._events)
                if not all(sent(w, ex.get(m, m) if isinstance(m, Card) else m) for m in prev._pending):
                    continue
                if not alike(w, n1):
                    continue
            w = replayed(new, None)
            if w._ok or (w._fail is not None and w._fail > at):
                return new, w
            replays += 1
            if replays == _MEND_REPLAYS and (phase or not every):
                return None
        return None

    def _climb(
        self,
        snap: Any,
        drawn: Any,
        compose: Any,
        seed: int,
        marks: Any,
        seat: int,
        world: Any,
        groups: list,
        barred: dict,
        rng: random.Random,
        budget: list,
    ) -> tuple | None:
        """An exchange climbed from ``drawn`` (whose world is ``world``, not as the seat saw the hand)
        towards one whose world is: two unseen cards of the world in different places exchanged at
        random (or two such pairs at once), the hand played again to its first difference, and the
        exchange kept when its world goes as far through the hand as the one before and no farther
        from what the seat saw there (``_World._far``: the public events, money and counters it
        sees), while ``budget`` ([the exchanges left to the worlds of this draw]) lasts and the world
        came nearer in the last ``_CLIMB_STILL``. Where ``_mend`` exchanges the cards a move names,
        this mends what no move is to blame for: counts made at the deal from cards the seat has not
        seen (who holds honours, a point, a tricon). It reads the world, the hand's moves and the
        public course alone, the cards in canonical order, exchanged by place, drawn by ``rng``.
        (The exchange, its world) when one plays the hand as seen; else the nearest reached, where its
        hand went through a move that is to blame (for ``_mend``); else None."""
        from .resampling import _canon
        from .worlds import _World

        if not isinstance(drawn, dict) or not drawn or budget[0] <= 0:
            return None

        def place_of(g: Any) -> Any:  # a place split by what is barred from its parts is one place
            return g[0] if isinstance(g, tuple) else g

        group = {c: g for g, cs in groups for c in cs}
        cards = sorted(drawn.values(), key=_canon)
        if len({place_of(group.get(k)) for k in drawn}) < 2:
            return None
        where = {v: k for k, v in drawn.items()}  # the place (the true card there) of each world card

        def score(w: Any) -> tuple:
            return (-1 if w._fail is None else w._fail, -w._far)

        cur, best, near = dict(drawn), score(world), world
        n = len(cards)
        last = 0  # the last exchange that brought the world nearer: given up _CLIMB_STILL after it
        k = 0
        while budget[0] > 0:
            if k - last > _CLIMB_STILL:
                break
            k += 1
            budget[0] -= 1
            new = dict(cur)
            at = dict(where)
            ok = True
            for _ in range(1 + (rng.random() < 0.5)):  # one exchange, or two at once (a count kept)
                x, y = cards[int(rng.random() * n)], cards[int(rng.random() * n)]
                px, py = at[x], at[y]
                gx, gy = group.get(px), group.get(py)
                if place_of(gx) == place_of(gy) or y in barred.get(gx, ()) or x in barred.get(gy, ()):
                    ok = False
                    break
                new[px], new[py] = y, x
                at[x], at[y] = py, px
            if not ok:
                continue
            s2, h2 = compose(new)
            w = _World.__new__(_World)
            w._from(self, snap, s2, seed, swap=h2, marks=marks, seat=seat)
            if w._ok:
                return new, w
            got = score(w)
            if got >= best:
                if got > best:
                    last = k
                cur, best, where, near = new, got, at, w
        if near is not world and near._fail is not None:
            return cur, near
        return None
