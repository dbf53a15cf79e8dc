"""A world ``State.resample`` drew: a state built from the true one, with the cards its seat
has not seen exchanged, played again (``_from``) or copied with the cards exchanged in place
(``_copy``)."""

from __future__ import annotations

from typing import Any

from ..dsl.cards import CARDS_BY_NAME as _CARDS
from ..dsl.cards import Card
from ..dsl.errors import RuleError
from .parts import Parts
from .state import State


def _exchanged(full: Any, names: dict) -> Any:
    """An event's full form (a deal's hands, a take's cards) with the cards renamed by ``names``
    (a deal's hands in canonical order again, as dealt)."""
    out = {}
    for k, v in full.items():
        if k == "hands":
            v = [sorted((names.get(x, x) for x in h), key=_name_canon) for h in v]
        elif isinstance(v, list):
            v = [names.get(x, x) if isinstance(x, str) else x for x in v]
        elif isinstance(v, str) and k != "type":
            v = names.get(v, v)
        out[k] = v
    return out


def _name_canon(name: str) -> int:
    c = _CARDS.get(name)
    return -1 if c is None else c.canon


class _World(State):
    """A state ``resample`` drew: it copies (``clone()``) into the same world."""

    # True when no world drawn (and mended) gave the hand's public course: the first that reached
    # the same decision, else (none did) the state copied with its unseen cards exchanged in place
    fallback = False
    copied = False  # that copy: the decision at hand the same, the past not played again in it
    again = False  # an exchange drawn before for the same state (none drawn this time gave a world)

    def _from(
        self,
        state: Parts,
        snap: Any,
        sigma: Any,
        seed: int,
        swap: dict | None = None,
        marks: Any = None,
        seat: int | None = None,
        restocks: bool = True,
        stop: int | None = None,
    ) -> None:
        """This world: ``state``'s hand dealt again from ``snap`` with the unseen
        cards exchanged by ``sigma`` (``Places`` with copies), and its moves played again. A card moved
        in the true game is moved as the card that took its place (``sigma``): a
        card another seat chose or passed in secret is, in the world, the one
        dealt where it lay. ``swap``: how ``state``'s cards become this world's,
        when not by ``sigma`` (``state`` a world: its moves are its own cards).
        ``marks``: the counters and money every seat saw at the hand's first
        decision and after each of its moves: the world is given up at its
        first public difference. ``seat``: the seat the world is drawn for: the counters
        compared are those it sees (``visibility``). ``restocks``: the cards of the hand's shuffled
        restocks that ``seat`` has not seen since exchanged among their places (else as they lay).
        ``stop``: the hand's first ``stop`` moves only played again, the world paused before the next
        (``_ok``: all of them as the seat saw them; ``_pending``: the next two moves, as this world
        names them). ``_fail``: where the world first differs, the hand's move (by its number in the
        hand) that was not legal or whose public course differs; None where no move is to blame."""
        from ..interpreter.visibility import cell_values, visible_cells
        from ..interpreter.worlds import World

        at, earlier = state._hand_mark
        self.game = state.game
        self.players = state.players
        self._recipe = state._recipe
        self._rng0 = state._rng0
        self._keep = state._keep
        self._moves = state._moves[:at]
        self._events = []
        self._earlier = state._earlier[:earlier]
        self._earlier_views = {s: v for s, v in state._earlier_views.items() if v[0] == earlier}
        self._seen = set()
        self._applying = 0
        self._hand_mark = (at, earlier)
        plan, moved = _restock_plan(state, seat if restocks else None, seed)
        self._world = (snap, sigma, seed, plan)
        self._ok = True
        self._fail: int | None = None
        self._far = 0.0  # how far from the seat's view at ``_fail`` (``_distance``; inf: a move not legal)
        self._pending: Any = None
        players, _, _, _, _ = state._recipe
        self.engine = World(
            state.game.gamedef,
            players,
            resume=snap,
            sigma=sigma,
            seed=seed,
            plan=plan,
            keep_events=state._keep,
            sink=self._on_event,
            check="hand",
            snapshots=True,
            track=True,
        )
        self.engine.knowing = self._knows
        known = state._knows(seat) if seat is not None else None
        shown = state.game.gamedef.shown
        try:
            swap = swap if swap is not None else sigma if sigma else None
            truth = state._events
            done = 0
            moves = state._moves[at:]
            last = len(moves) if stop is None else min(stop, len(moves))
            for i in range(last + 1):
                if i:
                    self._fail = i - 1
                    self._send(self._mapped(moves[i - 1], moved, swap))  # refused where not legal here
                    self._fail = None
                if marks is not None and i < len(marks):
                    # given up at the first public difference: whether it would reach the same
                    # decision is not known (None), and is found out only if it is wanted
                    ev = self._events
                    n = len(ev)
                    e = self.engine
                    mark = marks[i]
                    pv, vs, dec, bal, taint = mark[:5]
                    if seat is not None and len(mark) == 6:  # the cells the seat sees then, and their values
                        cells = visible_cells(vs, pv, taint, shown, seat, known)
                        mark = marks[i] = (*mark, cells, cell_values(vs, pv, cells))  # kept with the state's marks
                    if (
                        n > len(truth)
                        or any(ev[k][0] != truth[k][0] for k in range(done, n))
                        or (e.declared, e.bal) != (dec, bal)
                        or (
                            cell_values(e.vars, e.pvars, mark[6]) != mark[7]
                            if seat is not None
                            else (e.pvars, e.vars) != (pv, vs)
                        )
                    ):
                        self._ok = False
                        self._near = None
                        self._fail = i - 1 if i else None
                        self._far = _distance(ev, truth, done, e, dec, bal, mark, seat)
                        return
                    done = n
            if stop is not None:
                self._near = None
                if last < len(moves):
                    self._pending = [self._mapped(m, moved, swap) for m in moves[last : last + 2]]
                return
        except RuleError:
            self._ok = self._near = False
            self._far = float("inf")
            return
        # the same decision at hand, and (below) the same public course of the hand (a seat that had to renounce here, and did not
        # there, shows what it holds), and the same decision at hand
        e, t = self.engine, state.engine
        self._near = e.current_player() == t.current_player()
        self._ok = (
            self._near
            and len(self._events) == len(state._events)
            and all(a[0] == b[0] for a, b in zip(self._events, state._events))
            # the counters and money the seat sees (a count of its own hand, say; not one of another's)
            and (
                cell_values(e.vars, e.pvars, seen) == cell_values(t.vars, t.pvars, seen)
                if (seen := state._cells_seen(seat, known)) is not None
                else (e.pvars, e.vars) == (t.pvars, t.vars)
            )
            and e.declared == t.declared
            and e.bal == t.bal
            # with copies, a world is drawn copy by copy (``Places``), and the copy the seat drew
            # from a stock is told by its place alone: the seat's own hand and what it was shown
            # in full must be as it saw them
            and (
                seat is None
                or not state.game.gamedef.copies
                or (
                    e.hand[seat] == t.hand[seat]
                    and all(
                        a[2] == b[2]
                        for a, b in zip(self._events, state._events)
                        if a[1] is not None
                        and a[1] != -1
                        and (a[1] == seat or (isinstance(a[1], tuple) and seat in a[1]))
                    )
                )
            )
        )
        if not self._ok and moves:
            self._fail = len(moves) - 1

    def _mapped(self, m: Any, moved: list, swap: dict | None) -> Any:
        """The true game's move ``m`` as this world makes it: a card the seat never saw is the one
        that lies where it lay (``swap``); one drawn unseen from a shuffled restock, the one that
        lies where it lay in the world's restock."""
        if moved and isinstance(m, Card) and self.engine.restock_orders:
            k = next((k for k in range(len(self.engine.restock_orders) - 1, -1, -1) if m in moved[k]), None)
            return moved[k][m] if k is not None else m
        if swap is not None and isinstance(m, Card):
            return swap.get(m, m)
        return m

    def _copy(
        self, state: Parts, snap: Any, here: dict, sigma: Any, seed: int, owned: tuple, reseed: bool = True
    ) -> None:
        """This world: a copy of ``state`` (paused mid-hand, nothing played again) with each card of
        ``here`` ({card: the card put in its place}) exchanged where it lies (hands, zones, the
        stock's order), the hand's events as the seats saw them exchanged the same way, and a
        random generator of its own. ``sigma``: the exchange from the true deal (``here`` itself,
        but for a world of a world). ``owned``: the places in the hand's events of those some seats
        saw in full. ``reseed``: False keeps ``state``'s generator as it is (a world paused mid-hand,
        to play on as it would have)."""
        names = {c.name: x.name for c, x in here.items()}
        self.game = state.game
        self.players = state.players
        self._recipe = state._recipe
        self._rng0 = state._rng0
        self._keep = state._keep
        self._moves = state._moves[:]
        events = self._events = state._events[:]
        for i in owned:
            public, owner, full = events[i]
            events[i] = (public, owner, _exchanged(full, names))
        self._earlier = state._earlier[:]
        self._earlier_views = state._earlier_views.copy()
        self._seen = set(state._seen)
        self._applying = 0
        self._hand_mark = state._hand_mark
        self._world = (snap, sigma, seed, ())
        self._ok = self._near = True
        e = self.engine = state.engine.copy(sink=self._on_event)
        e.knowing = self._knows
        e.exchange_cards(here)
        if reseed:
            e.rng.seed(seed)

    def clone(self) -> "State":
        new = State.clone(self)
        new.__class__ = _World
        new._world = self._world  # type: ignore[attr-defined]
        new.fallback, new.copied, new.again = self.fallback, self.copied, self.again  # type: ignore[attr-defined]
        return new

    def clone_by_replay(self) -> "State":
        return self.clone()

    def __reduce_ex__(self, protocol):
        raise TypeError("a world drawn by resample() is not pickled: pickle the state it was drawn from")


def _distance(ev: list, truth: list, done: int, e: Any, dec: dict, bal: dict, mark: tuple, seat: Any) -> float:
    """How far a world given up at a mark is from what the seat saw there, to guide the mending of a
    world (``Mending._climb``): the public events since the last mark not in both (their longest
    common subsequence, against the hand's events up to the mark), the money that differs (by how much)
    and the counters the seat sees that differ."""
    from ..interpreter.visibility import cell_values

    a = [x[0] for x in ev[done:]]
    b = [x[0] for x in truth[done : max(done, mark[5])]]  # (the seat's events by then)
    row = [0] * (len(b) + 1)  # the longest common subsequence of the two: a world one event nearer
    for x in a:  # by one card moved (a count set for one seat more, or one less) comes nearer
        prev = 0
        for j, y in enumerate(b):
            prev, row[j + 1] = row[j + 1], prev + 1 if x == y else max(row[j + 1], row[j])
    far = float(len(a) + len(b) - 2 * row[-1])
    far += sum(1 for k in set(dec) | set(e.declared) if dec.get(k) != e.declared.get(k))
    for h in set(bal) | set(e.bal):
        a, b = bal.get(h, {}), e.bal.get(h, {})
        for u in set(a) | set(b):
            x, y = a.get(u, 0), b.get(u, 0)
            far += abs(x - y) / (1 + abs(x)) if isinstance(x, (int, float)) and isinstance(y, (int, float)) else x != y
    if seat is not None and len(mark) > 6:
        for now, then in zip(cell_values(e.vars, e.pvars, mark[6]), mark[7]):
            far += sum(x != y for x, y in zip(now, then))
    return far


def _restock_plan(state: Parts, seat: int | None, seed: int) -> tuple[tuple, list[dict]]:
    """The new stocks a world's restocks make (interpreter/restocking.py), in order, and how
    ``state``'s cards become the world's there ({card: card}): each of ``state``'s restocks of
    the hand in progress with the cards ``seat`` has seen since (drawn by it, shown face up)
    where they lay, the others exchanged among their places at random (one exchange a restock).
    ((), []) when the hand has had no restock."""
    import random

    from ..interpreter.restocking import seen_since

    events = state._events
    at = [i for i, (public, _, _) in enumerate(events) if public.get("type") == "restock"]
    orders = getattr(state.engine, "restock_orders", ())
    if not at or len(orders) != len(at):
        return (), []
    plan = []
    moved: list[dict] = []
    for k, (i, order) in enumerate(zip(at, orders)):
        moved.append({})
        if not events[i][0].get("shuffled") or seat is None:
            plan.append(order)
            continue
        fixed = seen_since(events[i + 1 :], seat)
        new = list(order)
        places = [p for p, c in enumerate(order) if c.name not in fixed]
        cards = [order[p] for p in places]
        random.Random(f"{seed}:{k}").shuffle(cards)
        for p, c in zip(places, cards):
            new[p] = c
            moved[k][order[p]] = c
        plan.append(tuple(new))
    return tuple(plan), moved
