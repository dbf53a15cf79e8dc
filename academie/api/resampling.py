"""Worlds for a seat that cannot see every card: ``State.resample`` draws a state the seat
cannot tell from this one (the hidden cards placed afresh, the hand played again in it, or a
copy with the unseen cards exchanged in place); the world drawn is a ``worlds._World``."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .parts import Parts

if TYPE_CHECKING:
    from .state import State

_RESAMPLE_TRIES = 20  # worlds drawn before the true deal is taken (with the hands to come afresh)
_RESAMPLE_FEW = 1  # ... once most worlds drawn from a state have fallen back


class Resampling(Parts):
    """``State``'s worlds drawn for a seat."""

    _world: Any = None  # a world drawn (``worlds._World``): (snapshot, sigma, seed)

    def _unseen(self, seat: int) -> tuple:
        """The hand's deal as dealt (every card, or None before the deal), the places of the cards
        ``seat`` has not seen ([(a place's key, [its unseen cards])]: the cards dealt to a seat or a
        zone, split by what may lie there) and what may not lie in each ({key: {card, …}})."""
        from ..interpreter.worlds import lacks

        deal = next((full for _, owner, full in self._events if owner == -1), None)
        groups: list = []
        barred: dict = {}
        if deal is not None:
            e = self.engine
            known = set(deal["hands"][seat]) | self._seen | {c.name for c in e.hand[seat]}
            for z, per in e.pzones.items():
                known.update(c.name for c in per[seat])
            for _, owner, full in self._events:
                if owner == seat and full is not None:
                    known.update(full.get("cards", ()))
            by_name = {c.name: c for c in e.pack_cards}
            if not self.game.gamedef.copies:
                placed: set[str] = set()
                for s, names in enumerate(deal["hands"]):
                    placed.update(names)
                    if s != seat:
                        groups.append((s, [by_name[n] for n in names if n not in known]))
                for z, names in deal.items():
                    if z not in ("type", "hands") and isinstance(names, list):
                        placed.update(names)
                        groups.append(("zone:" + z, [by_name[n] for n in names if n not in known]))
                rest = [c for c in e.pack_cards if c.name not in placed and c.name not in known]
            else:
                groups, rest = _unseen_copies(e, deal, seat, known, by_name)
            groups.append(("zone:pack", rest))
            # what each seat has shown it lacks (the suits its renounces show, the cards that would
            # have met the first duty of the follow rule where it played another), barred from the
            # places of the cards it held then: the hand played again tells which, so that a card it
            # drew or was passed is barred too, and one it had laid out is not
            at, _ = self._hand_mark
            snap = e.snapshot
            shown: dict = {}
            marks: list = []
            if snap is not None:
                world = self._world if self._world is not None and snap is self._world[0] else None
                shown = lacks(
                    self.game.gamedef,
                    snap,
                    self.players,
                    self._moves[at:],
                    seat,
                    sigma=world[1] if world else None,
                    seed=world[2] if world else 0,
                    marks=marks,
                )
            split: list = []
            for g, cs in groups:
                kinds: dict = {}  # the places of the group by what is barred from them, in order
                for c in cs:
                    bar = shown.get(c)
                    kinds.setdefault(frozenset(bar) if bar else frozenset(), []).append(c)
                for k, (bar, places) in enumerate(kinds.items()):
                    key = g if not k else (g, k)
                    split.append((key, places))
                    if bar:
                        barred[key] = set(bar)
            groups = split
            return deal, groups, barred, self._copyable(seat, deal), marks
        return deal, groups, barred, None, None

    def _copyable(self, seat: int, deal: dict | None) -> tuple | None:
        """Whether a world for ``seat`` may be made from a copy of this state with the unseen cards
        exchanged in place, with nothing played again: what playing the hand again would check,
        the barred cards say already. So when the hand so far is its one deal and then only cards
        played to the tricks of a step whose follow rule (``must``, ``lead``, ``free``) reads the
        card, ``led`` and ``trump`` alone (a card's legality then turns on the cards of the tiers
        before the one the hand met, which ``lacks`` bars), ``seat`` is to move (its moves are
        its own), and no card moved in secret (no event but the deal was seen by some seats
        only). The places in the hand's events of those some seats saw in full (the deal), or
        None."""
        from ..interpreter.fastpath import reads_card_led_trump, reads_card_only

        e = self.engine
        if deal is None or self._keep or e.current_player() != seat:
            return None
        g = self.game.gamedef
        step = e.step
        deals = [i for i, x in enumerate(g.steps) if x.kind == "deal"]
        if step is None or step.kind != "tricks" or len(deals) != 1 or e.step_index != deals[0] + 1:
            return None
        if not all(reads_card_led_trump(t, g) for t in step.must):
            return None
        if step.lead_test is not None and not reads_card_led_trump(step.lead_test, g):
            return None
        if step.free is not None and not reads_card_only(step.free, g):
            return None
        if not all(owner is None or owner == -1 for _, owner, _ in self._events):
            return None
        if e.counter_atoms and not self._sees_all_counters(seat):  # a hidden counter is worked out again
            return None
        return tuple(i for i, (_, owner, _) in enumerate(self._events) if owner is not None)

    def resample(self, seat: int, rng: "random.Random | int | str | None" = None) -> "State":
        """A world ``seat`` cannot tell from this state: the same game with the
        cards ``seat`` has not seen this hand (the other hands' hidden cards, a
        stock or talon face down) placed afresh, at random, where hidden cards
        lie; every card it has seen (its own, every card shown face up, every
        card it took) where it is, every hand and zone the same size, no seat
        given a suit it has shown it lacks, and the hands to come shuffled
        afresh. Built like ``clone()``, with the hand's moves played again in
        that world; a world in which one of them is not legal, or whose public
        course differs, is drawn again. Where nothing but the deal and cards
        played face up under a follow rule that reads the card alone has
        happened, the world is a copy with the unseen cards exchanged in place,
        nothing played again. ``rng``: a ``random.Random`` (or a seed for one).
        See docs/players.md."""
        from ..interpreter.worlds import place
        from .worlds import _World  # the worlds drawn are states: above this part of one

        self._check_seat(seat)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        snap = self.engine.snapshot
        if snap is None:  # no hand begun (cannot happen once built)
            return self.clone()
        key = (seat, len(self._moves), snap)
        cached = getattr(self, "_resample_cache", None)
        if cached is not None and cached[0] == key:  # a search draws many worlds from one state
            deal, groups, barred, copyable, marks, found, stats = cached[1]
        else:
            deal, groups, barred, copyable, marks = self._unseen(seat)
            found, stats = [], [0, 0]  # the exchanges that gave a world; [worlds drawn, fallen back]
            self._resample_cache = (key, (deal, groups, barred, copyable, marks, found, stats))
        # a state whose worlds mostly fall back (a count declared from a hand that few hands give)
        # draws fewer before it takes a world it drew before
        tries = _RESAMPLE_TRIES if stats[0] < 5 or 2 * stats[1] <= stats[0] else _RESAMPLE_FEW
        stats[0] += 1
        # the worlds given up, in the order drawn: one that replays the hand to the same decision,
        # though its public course differs, is kept if no world drawn gives that course
        given_up: list = []
        for attempt in range(tries + 1):
            if deal is None:
                sigma = None
            elif attempt == tries:
                stats[1] += 1
                if found:  # an exchange that gave a world before, with a future of its own
                    sigma, here = found[int(rng.random() * len(found))]
                    w = _World.__new__(_World)
                    w._from(self, snap, sigma, rng.getrandbits(64), swap=here, seat=seat)
                    if w._ok:
                        w.again = True
                        return w
                for w, args in given_up:
                    if args is not None:  # given up at its first difference: played to the end now
                        w = _World.__new__(_World)
                        a_snap, a_sigma, a_seed, a_here = args
                        w._from(self, a_snap, a_sigma, a_seed, swap=a_here, seat=seat)
                    if w._near:
                        w.fallback = True  # never the true deal where a world that plays on exists
                        return w
                sigma = {}  # no world drawn could replay the hand: the true deal, the future afresh
            else:
                sigma = place(groups, barred, rng)
                if sigma is None:  # what was inferred leaves no placement (a rule not as plain as
                    # the inference reads it): the replay alone judges
                    sigma = place(groups, {}, rng)
            here = sigma
            if sigma is not None and self._world is not None and snap is self._world[0] and self._world[1]:
                # a world of a world: its deal was the true one exchanged already; exchange that again
                first = self._world[1]
                sigma = {c: sigma.get(first.get(c, c), first.get(c, c)) for c in {*first, *sigma}}
            world = _World.__new__(_World)
            seed = rng.getrandbits(64)
            if copyable is not None and here is not None and attempt < tries:
                # no check needs the hand played again
                world._copy(self, snap, here, sigma, seed, copyable)
                return world
            early = marks if attempt < tries else None
            world._from(self, snap, sigma, seed, swap=here, marks=early, seat=seat)
            if world._ok:
                world.fallback = world.true_deal = attempt == tries
                if attempt < tries and len(found) < 64:
                    found.append((sigma, here))
                return world
            if world._near is None:
                given_up.append((None, (snap, sigma, seed, here)))
            elif world._near:
                given_up.append((world, None))
        raise AssertionError("the true deal always replays")  # pragma: no cover


def _unseen_copies(e: Any, deal: dict, seat: int, known: set, by_name: dict) -> tuple[list, list]:
    """``_unseen``'s places with copies of a card (``pack: copies:``). A world exchanges card
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
