"""Worlds for a seat that cannot see every card: ``State.resample`` draws a state the seat
cannot tell from this one (the hidden cards placed afresh, the hand played again in it, or a
copy with the unseen cards exchanged in place); the world drawn is a ``worlds._World``."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .drawn import _unseen_copies, rule_parts
from .mending import Mending
from .parts import Parts

if TYPE_CHECKING:
    from .state import State

_RESAMPLE_TRIES = 20  # worlds drawn before one drawn before is taken again (or a world that only plays on)
_RESAMPLE_FEW = 1  # ... once most worlds drawn from a state have fallen back
_CLIMB = 1500  # the exchanges of two unseen cards tried to climb the worlds of one draw towards the seat's view
_CLIMB_AFTER = 4  # ... once as many worlds drawn (and mended) have not given the hand's course
_REPAIRS = 40  # the moves of one world drawn mended in turn (``_mend``) before another is drawn


# the kinds of step that move cards only from the top of a zone, face up or by a deal, and ask only
# what their expressions read: where the hand has no other, the order of a pile face down matters to
# the past only through what was turned up from it
_PLAIN_STEPS = frozenset({"shuffle", "deal", "turnup", "effects", "repeat", "stake", "pay", "betting", "choose_number"})
_ZONES_READ: dict[int, tuple[Any, frozenset | None]] = {}


def _zones_read(gamedef: Any) -> frozenset | None:
    """The zones whose cards some expression of the rules looks at (``dsl/reads.py``: not their
    size alone), worked out once per game; None when an expression cannot be read so."""
    got = _ZONES_READ.get(id(gamedef))
    if got is not None and got[0] is gamedef:
        return got[1]
    from ..dsl.expr import Expr
    from ..dsl.reads import reads_of

    scope = gamedef.scope
    found: set[str] = set()
    unread = False
    for obj in rule_parts(gamedef, Expr):
        try:
            r = reads_of(obj.text, scope, obj.pos)
        except Exception:  # an expression the analysis does not read: assume it reads every zone
            unread = True
            break
        if r is not None:
            found.update(z.name for z in r.zones)
            stack = list(r.branches)
            while stack:
                b = stack.pop()
                for x in (b.test, b.then, b.other):
                    if x is not None:
                        found.update(z.name for z in x.zones)
                        stack.extend(x.branches)
    out = None if unread else frozenset(found)
    _ZONES_READ[id(gamedef)] = (gamedef, out)
    return out


class Resampling(Mending, Parts):
    """``State``'s worlds drawn for a seat."""

    _world: Any = None  # a world drawn (``worlds._World``): (snapshot, sigma, seed, restock plan)

    def _unseen(self, seat: int, early: bool = False) -> tuple:
        """The hand's deal as dealt (every card, or None before the deal), the places of the cards
        ``seat`` has not seen ([(a place's key, [its unseen cards])]: the cards dealt to a seat or a
        zone, split by what may lie there) and what may not lie in each ({key: {card, …}}).
        ``early``: with copies of a card, the copies another seat showed given the first places
        it held before (``_unseen_copies``)."""
        from ..interpreter.worlds import lacks

        deal = next((full for _, owner, full in self._events if owner == -1), None)
        if deal is None and not any(x.kind == "deal" for x in self.game.gamedef.steps):
            # a hand without a deal (cards turned up or laid out from the pack): the pack is its
            # one place of unseen cards, exchanged once shuffled (interpreter/worlds.py)
            deal = {"type": "deal", "hands": [[] for _ in range(self.players)]}
            dealt = False
        else:
            dealt = self.engine.pile_down is None
        # a patience's piles show the cards at their tops, copy by copy: which copy was seen is told
        # by its place, which the count of copies seen does not say; the places of the cards never
        # turned up are (``_pile_spots``)
        spots = None if dealt or deal is None or not self.game.gamedef.copies else _pile_spots(self.engine, deal)
        by_copy = bool(self.game.gamedef.copies) and (dealt or spots is not None)  # by places, copy by copy
        groups: list = []
        barred: dict = {}
        if deal is not None:
            e = self.engine
            known = set(deal["hands"][seat]) | self._seen | {c.name for c in e.hand[seat]}
            for public, _, _ in self._events:  # seen on the pile before a restock: where dealt, known
                if public.get("type") == "restock":
                    known.update(public["cards"])
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
                groups.append(("zone:pack", rest))
            else:  # (the pack's undealt rest the last place)
                groups = _unseen_copies(self, deal, seat, known, by_name, dealt, spots, early)
            if by_copy:  # no copy of the state made (it exchanges names), nor lacks read by name:
                # the hand played again judges (the counters every seat saw, for giving up early)
                marks: list = []
                snap = e.snapshot
                if snap is not None:
                    world = self._world if self._world is not None and snap is self._world[0] else None
                    lacks(
                        self.game.gamedef,
                        snap,
                        self.players,
                        self._moves[self._hand_mark[0] :],
                        seat,
                        sigma=world[1] if world else None,
                        seed=world[2] if world else 0,
                        marks=marks,
                    )
                return deal, groups, barred, None, marks
            if all(x.kind in _PLAIN_STEPS for x in self.game.gamedef.steps):
                # no trick shows a lack here: where the unseen cards lie in a pile nothing reads, a
                # world is a copy, and the hand need not be played again even once
                copyable = self._copyable(seat, deal, groups)
                if copyable is not None:
                    return deal, groups, barred, copyable, []
            # what each seat has shown it lacks (the suits its renounces show, the cards that would
            # have met the first duty of the follow rule where it played another), barred from the
            # places of the cards it held then: the hand played again tells which, so that a card it
            # drew or was passed is barred too, and one it had laid out is not
            at, _ = self._hand_mark
            snap = e.snapshot
            shown: dict = {}
            marks = []
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
                    plan=world[3] if world else (),
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
            return deal, groups, barred, self._copyable(seat, deal, groups), marks
        return deal, groups, barred, None, None

    def _copyable(self, seat: int, deal: dict | None, groups: list) -> tuple | None:
        """Whether a world for ``seat`` may be made from a copy of this state with the unseen cards
        exchanged in place, with nothing played again: what playing the hand again would check,
        the barred cards say already. So when the hand so far is its one deal and then only cards
        played to the tricks of a step whose follow rule (``must``, ``lead``, ``free``) reads the
        card, ``led`` and ``trump`` alone (a card's legality then turns on the cards of the tiers
        before the one the hand met, which ``lacks`` bars), ``seat`` is to move (its moves are
        its own), and no card moved in secret (no event but the deal was seen by some seats
        only); or, in a hand of other steps, when every unseen card lies in one pile face down
        that nothing reads (``_unseen_only_in_unread_piles``). The places in the hand's events
        of those some seats saw in full (the deal), or None."""
        from ..interpreter.fastpath import reads_card_led_trump, reads_card_only

        e = self.engine
        if deal is None or self._keep or e.current_player() != seat:
            return None
        g = self.game.gamedef
        step = e.step
        deals = [i for i, x in enumerate(g.steps) if x.kind == "deal"]
        if step is None or len(deals) != 1:
            return None
        if not all(owner is None or owner == -1 for _, owner, _ in self._events):
            return None
        if step.kind == "tricks" and e.step_index == deals[0] + 1:
            if not all(reads_card_led_trump(t, g) for t in step.must):
                return None
            if step.lead_test is not None and not reads_card_led_trump(step.lead_test, g):
                return None
            if step.free is not None and not reads_card_only(step.free, g):
                return None
            if e.counter_atoms and not self._sees_all_counters(seat):  # a hidden counter is worked out again
                return None
        elif not self._unseen_only_in_unread_piles(groups):
            # (no counter is worked out from cards that no expression reads: each is as it was)
            return None
        return tuple(i for i, (_, owner, _) in enumerate(self._events) if owner is not None)

    def _unseen_only_in_unread_piles(self, groups: list) -> bool:
        """Whether every card the seat has not seen lies, unmoved, in the zone it was dealt to (a
        stock face down: no other seat's hand holds one), all in one zone (which so keeps the very
        cards it holds, in another order), the hand's steps all of kinds that move cards only from
        the top of a zone and ask only what their expressions read, and no expression of the rules
        reads the cards of that zone (its size alone, which an exchange keeps): then no move made
        since the deal could have gone otherwise with those cards placed otherwise, nor the hand's public
        course (a card turned up from the zone is seen, and stays where it is), and a world is the
        state with the zone's unseen cards in a new order. A banking game's pack, from which the
        cards are turned one by one between the stakes, is one."""
        e = self.engine
        g = self.game.gamedef
        if any(x.kind not in _PLAIN_STEPS for x in g.steps):
            return False
        read = _zones_read(g)
        zone = None
        for key, cards in groups:
            if not cards:
                continue
            if not isinstance(key, str) or not key.startswith("zone:") or key == "zone:pack":
                return False
            if zone is not None and key[5:] != zone:
                return False  # one zone only: each zone keeps the very cards it holds
            zone = key[5:]
            if read is None or zone in read or zone not in e.zones:
                return False
            here = set(map(id, e.zones[zone]))
            if not all(id(c) in here for c in cards):
                return False
        return zone is not None

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
        from ..interpreter.worlds import Places, place, place_copies
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
            deal, groups, barred, copyable, marks, found, stats, early = cached[1]
        else:
            deal, groups, barred, copyable, marks = self._unseen(seat)
            found, stats = [], [0, 0]  # the exchanges that gave a world; [worlds drawn, fallen back]
            # with copies: the places given the copies seen early (``_unseen``), once wanted, and the
            # worlds found with the places given late and early
            early = [None, 0, 0]
            self._resample_cache = (key, (deal, groups, barred, copyable, marks, found, stats, early))
        # a state whose worlds mostly fall back (a count declared from a hand that few hands give)
        # draws fewer before it takes a world it drew before
        tries = _RESAMPLE_TRIES if stats[0] < 5 or 2 * stats[1] <= stats[0] else _RESAMPLE_FEW
        stats[0] += 1
        # the worlds given up, in the order drawn: one that replays the hand to the same decision,
        # though its public course differs, is kept if no world drawn gives that course
        given_up: list = []
        world_of_world = self._world is not None and snap is self._world[0]
        g = self.game.gamedef
        copies = deal is not None and bool(g.copies) and any(x.kind == "deal" for x in g.steps)
        mends = _REPAIRS if deal is not None and copyable is None and not copies else 0
        if world_of_world and isinstance(self._world[1], Places):
            mends = 0  # a world of a world with copies keeps that world's exchange

        def compose(drawn: Any) -> tuple:
            """The exchange from the true deal (``sigma``) and how this state's cards become the
            world's (``here``), for the exchange ``drawn`` among this state's unseen cards."""
            if isinstance(drawn, Places):
                if world_of_world and isinstance(self._world[1], Places):
                    return Places(drawn.out, drawn.new, before=self._world[1]), {}
                return drawn, {}  # a move names the card, not the copy: played as it was
            if drawn is not None and world_of_world and self._world[1]:
                first = self._world[1]
                if isinstance(first, Places):  # the true deal of a world: its own
                    return first, {}
                # a world of a world: its deal was the true one exchanged already; exchange that again
                return {c: drawn.get(first.get(c, c), first.get(c, c)) for c in {*first, *drawn}}, drawn
            return drawn, drawn

        drawn: Any
        climb = [_CLIMB]  # the exchanges left to climb the worlds of this draw
        for attempt in range(tries):
            if deal is None:
                drawn = None
            elif copies:
                # half the worlds (half a draw's tries; every other draw of one try) give the copies
                # another seat showed the first places it held, not the last (a card it held long,
                # that made a meld it passed, is seen late in the others): the second half, or the
                # first where those have given more worlds from this state
                won = early[2] > early[1]
                if tries > 1:
                    use = (attempt >= tries // 2) != won
                else:
                    use = stats[0] % 2 == 0 if early[1] == early[2] else won
                if use and early[0] is None:
                    early[0] = self._unseen(seat, early=True)[1]
                drawn = place_copies(early[0] if use else groups, rng)
            else:
                drawn = place(groups, barred, rng)
                if drawn is None:  # what was inferred leaves no placement (a rule not as plain as
                    # the inference reads it): the replay alone judges
                    drawn = place(groups, {}, rng)
            sigma, here = compose(drawn)
            world = _World.__new__(_World)
            seed = rng.getrandbits(64)
            if copyable is not None and here is not None:
                # no check needs the hand played again
                world._copy(self, snap, here, sigma, seed, copyable)
                return world
            world._from(self, snap, sigma, seed, swap=here, marks=marks, seat=seat)
            for _ in range(mends):  # mended: unseen cards exchanged where the hand went otherwise
                if world._ok or world._fail is None:
                    break
                mended = self._mend(snap, drawn, compose, seed, marks, seat, world._fail, groups, barred, rng)
                if mended is None:
                    break
                drawn, world = mended
                sigma, here = compose(drawn)
            if not world._ok and world._fail is None and mends and attempt >= _CLIMB_AFTER:
                # what no move is to blame for (a count made at the deal, the decision at hand):
                # exchanges climbed towards the seat's view (drawn from a generator of the
                # world's own: where the climb fails, the worlds drawn next are those drawn without it)
                at = random.Random(seed)
                climbed = self._climb(snap, drawn, compose, seed, marks, seat, world, groups, barred, at, climb)
                if climbed is not None:
                    drawn, world = climbed
                    sigma, here = compose(drawn)
                for _ in range(mends):  # climbed to a move to blame: mended from there
                    if world._ok or world._fail is None:
                        break
                    mended = self._mend(snap, drawn, compose, seed, marks, seat, world._fail, groups, barred, at)
                    if mended is None:
                        break
                    drawn, world = mended
                    sigma, here = compose(drawn)
            if world._ok:
                if copies:
                    early[2 if use else 1] += 1
                if len(found) < 64:
                    found.append((sigma, here))
                return world
            if world._near is None:
                given_up.append((None, (snap, sigma, seed, here)))
            elif world._near:
                given_up.append((world, None))
        # no world drawn gave the hand's course: what the seat saw alone decides what is taken
        stats[1] += 1
        if found:  # an exchange that gave a world before, with a future of its own
            sigma, here = found[int(rng.random() * len(found))]
            w = _World.__new__(_World)
            w._from(self, snap, sigma, rng.getrandbits(64), swap=here, seat=seat)
            if w._ok:
                w.again = True
                return w
        for w, args in () if copies else given_up:  # (with copies of a card: copied, as the seat saw it)
            if args is not None:  # given up at its first difference: played to the end now
                w = _World.__new__(_World)
                a_snap, a_sigma, a_seed, a_here = args
                w._from(self, a_snap, a_sigma, a_seed, swap=a_here, seat=seat)
            if w._near:
                w.fallback = True  # a world that plays on, though its public course differs
                return w
        # none reaches the same decision: this state copied, with the unseen cards exchanged where
        # they lie now (nothing played again: the past of such a world need not be the hand's)
        if deal is None:  # pragma: no cover (a hand not dealt yet is dealt afresh: it always replays)
            raise AssertionError("a world of a hand not dealt yet always replays")
        return self._copied(snap, seat, deal, groups, copies, compose, rng)


def _pile_spots(e: Any, deal: dict) -> dict[str, list[int]] | None:
    """The places in the hand's deal of the cards of the patience in play never turned up
    ({zone dealt to: [places]}, ``Patience.pile_unseen``): where every card of the pack was dealt
    to a zone the patience lays out or turns from, as it was at its start, and to no seat's hand.
    None otherwise (the cards are then exchanged by name, ``_unseen_names``)."""
    unseen = e.pile_unseen()
    if unseen is None or any(deal["hands"]):
        return None
    start = e.pile_start
    dealt = 0
    for z, names in deal.items():
        if z in ("type", "hands") or not isinstance(names, list):
            continue
        cards = start.get(z)
        if cards is None or len(cards) != len(names) or any(c.name != n for c, n in zip(cards, names)):
            return None
        dealt += len(names)
    if dealt != len(e.pack_cards):
        return None
    return {z: at for z, at in unseen.items() if at}


def _canon(c: Any) -> int:
    return c.canon
