"""Patience (``_step_patience``): one player, piles of cards laid out (some face down), cards
moved from pile to pile by the build rules of the step, the stock turned onto a waste pile, won
when every card is on the goal piles, lost when no move is left (or the player gives up).

A move is two decisions: the card (the lowest of the cards that move together), then the pile
it goes to (a named move: the pile's zone), asked only when the card may go to more than one.
Turning the stock is the named move ``draw``. A move that would bring back a position already
seen in the hand is not offered: the positions are finite, so every game ends (a cycle of moves,
a king sent back and forth between empty piles, is refused) unless the step says ``repeat``, and
then a ``limit`` of moves ends it.

What the player sees: the cards turned face up (the layout's face-up cards, each card turned up
when it is uncovered, each card drawn) are shown by events; a face-down card and the stock are
never named until turned (docs/security.md).
"""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.build_patience import DRAW, GIVE_UP, PatienceSpec
from ..dsl.cards import RANKS, SUITS, Card
from ..dsl.errors import RuleError
from ..dsl.model import Step
from .base import Decision, StateParts


# the names a build rule may read and still be a function of the two cards alone
_PURE = (
    frozenset({"card", "onto", "rank", "suit", "colour", "true", "false", "none"}) | frozenset(SUITS) | frozenset(RANKS)
)


class Patience(StateParts):
    """``State``'s patience step."""

    onto: Card | None = None  # the card a moving card is tested on (``onto`` in the build rules)
    pile_down: tuple | None = None  # ({pile: face-down cards}, the stock's zone) of the patience in play
    # where the cards of the patience in play came from (``pile_unseen``): the zones its layout
    # takes from and its stock as they were at its start ({zone: its cards}), the places in them
    # of the cards laid to each pile ({pile: ((zone, place), …)}, in the order laid; None where
    # the patience moves cards to or from those zones otherwise), and the passes through the stock
    pile_start: dict | None = None
    pile_laid: dict | None = None
    pile_passes: int = 0

    def pile_unseen(self) -> dict[str, list[int]] | None:
        """The cards of the patience in play never seen face up, by where they lay at its start:
        {zone (one its layout takes from, or its stock): the places in it, as it was then, of its
        cards never turned up}. A pile's face-down cards are the first laid to it (a move takes
        face-up cards only, and the face-down ones lie lowest); a zone the layout takes from, or
        the stock, loses its cards from the top alone, so the cards it holds now are the last it
        held at the start, never seen while the stock has not been made again from the waste (a
        redeal: then every card of it was seen). None when no patience is in play, or its
        moves take cards from those zones or put cards on them (their places are not so told)."""
        laid, start = self.pile_laid, self.pile_start
        step = self._cur_step
        if self.pile_down is None or laid is None or start is None or step is None or step.kind != "patience":
            return None
        down, stock = self.pile_down
        out: dict[str, list[int]] = {z: [] for z in start}
        for pile, origin in laid.items():
            for z, i in origin[: down.get(pile, 0)]:
                out[z].append(i)
        zones = self.zones
        for z, cards in start.items():
            if z == stock and self.pile_passes:
                continue
            out[z].extend(range(len(cards) - len(zones[z]), len(cards)))
        return {z: sorted(set(at)) for z, at in out.items()}

    def _pat_origins(self, spec: PatienceSpec) -> None:
        """``pile_start`` and ``pile_laid`` at the start of the patience, before its layout."""
        zones = self.zones
        srcs = dict.fromkeys([*(lay.src for lay in spec.layout), *([spec.stock] if spec.stock else [])])
        touched: set[str] = set()
        for lay in spec.layout:
            touched.update(spec.piles[lay.to])
        for mv in spec.moves:
            touched.update(spec.piles[mv.src])
            touched.update(spec.piles[mv.to])
        if spec.waste:
            touched.update(spec.piles[spec.waste])
        self.pile_start = {z: tuple(zones[z]) for z in srcs}
        taken = dict.fromkeys(srcs, 0)
        if touched & set(srcs):
            self.pile_laid = None
            return
        laid: dict[str, list] = {}
        for lay in spec.layout:
            piles = spec.piles[lay.to]
            for i in _layout_order(lay):
                laid.setdefault(piles[i], []).append((lay.src, taken[lay.src]))
                taken[lay.src] += 1
        self.pile_laid = {z: tuple(o) for z, o in laid.items()}

    def _pat_fits(self, test: Any, card: Card, onto: Card | None) -> bool:
        """Whether ``test`` (a build rule) admits ``card`` on ``onto`` (none: an empty pile)."""
        self.onto = onto
        try:
            return bool(test.fn(self, 0, card))
        finally:
            self.onto = None

    def _pat_tables(self, spec: PatienceSpec) -> None:
        """For each build rule that reads the two cards alone (its answer never changes): the cards
        each card may lie on (``build``, ``run``), or the cards an empty pile takes (``empty``),
        worked out once per rule file."""
        tables = self._compiled.patience_fits
        pure = _PURE | set(self.g.orders)
        pack = sorted(set(self.pack_cards), key=lambda c: c.canon)
        for mv in spec.moves:
            for e, empty in ((mv.build, False), (mv.run, False), (mv.empty, True)):
                if e is None or id(e) in tables:
                    continue
                if not e.names <= pure:
                    tables[id(e)] = None
                elif empty:
                    tables[id(e)] = frozenset(c for c in pack if self._pat_fits(e, c, None))
                else:
                    tables[id(e)] = {c: tuple(o for o in pack if self._pat_fits(e, c, o)) for c in pack}

    def _pat_key(self, spec: PatienceSpec, down: dict[str, int], passes: int) -> tuple:
        """The position: every pile's cards and face-down count, the passes through the stock."""
        zones = self.zones
        return (
            tuple((tuple(zones[z]), down.get(z, 0)) for names in spec.piles.values() for z in names),
            passes,
        )

    def _pat_sig(self, spec: PatienceSpec, down: dict[str, int], passes: int) -> tuple:
        """What every move that is not a rearrangement changes: the face-down cards, the cards on
        the goal piles, the stock's and the waste's sizes, the passes (two positions that differ
        here differ, so that a move changing it needs no look at the positions seen)."""
        zones = self.zones
        goal = sum(len(zones[z]) for z in spec.piles[spec.goal]) if spec.goal else 0
        stock = len(zones[spec.stock]) if spec.stock else 0
        waste = sum(len(zones[z]) for z in spec.piles[spec.waste]) if spec.waste else 0
        return (sum(down.values()), goal, stock, waste, passes)

    def _pat_moves(self, spec: PatienceSpec, down: dict[str, int], passes: int, seen: set) -> dict:
        """{card: [(the pile it may go to, the pile it leaves, how many cards go), …]}: the moves
        that lead to a position not seen before, each as its lowest card moved."""
        zones = self.zones
        tables = self._compiled.patience_fits
        goal = frozenset(spec.piles[spec.goal]) if spec.goal else frozenset()
        sig = self._pat_sig(spec, down, passes)
        out: dict[Card, list[tuple[str, str, int]]] = {}
        for mv in spec.moves:
            most = mv.most.fn(self, 0, None) if mv.most is not None else None
            least = mv.least.fn(self, 0, None) if mv.least is not None else None
            dsts = spec.piles[mv.to]
            full: dict[Card, list[str]] = {}
            for d in dsts:
                if zones[d]:
                    full.setdefault(zones[d][-1], []).append(d)
            empties = [d for d in dsts if not zones[d]]
            btab = tables.get(id(mv.build)) if mv.build is not None else None
            etab = tables.get(id(mv.empty)) if mv.empty is not None else None
            for src in spec.piles[mv.src]:
                pile = zones[src]
                up = len(pile) - down.get(src, 0)
                if up <= 0:
                    continue
                if mv.cards == "any":  # each card taken out alone: k < 0 names its place, ~k
                    sizes = [~i for i in range(len(pile) - up, len(pile), mv.every)]
                elif mv.cards == "top":
                    sizes = [1]
                elif mv.cards == "face_up":
                    sizes = [up]
                else:  # a run: the top card and the cards under it while each follows the one below
                    test = mv.run or mv.build
                    rtab = tables.get(id(test))
                    sizes = [1]
                    for k in range(2, up + 1):
                        c, o = pile[-k + 1], pile[-k]
                        if not (o in rtab.get(c, ()) if rtab is not None else self._pat_fits(test, c, o)):
                            break
                        sizes.append(k)
                if most is not None:
                    sizes = [k for k in sizes if k <= most]
                if least is not None:
                    sizes = [k for k in sizes if k >= least]
                for k in sizes:
                    n = 1 if k < 0 else k  # the cards that go
                    card = pile[~k] if k < 0 else pile[-k]
                    cands: list[str] = []
                    if mv.build is not None:
                        if btab is not None:
                            for o in btab.get(card, ()):
                                cands.extend(full.get(o, ()))
                        else:
                            cands.extend(d for o, ds in full.items() if self._pat_fits(mv.build, card, o) for d in ds)
                    if empties and mv.empty is not None and (mv.whole or n < len(pile)):
                        if card in etab if etab is not None else self._pat_fits(mv.empty, card, None):
                            cands.extend(empties[:1] if mv.spaces == "first" else empties)
                    if not cands:
                        continue
                    got = out.setdefault(card, [])
                    for dst in sorted(cands, key=dsts.index):
                        if dst == src or any(d == dst and f == src for d, f, _ in got):
                            continue
                        was = down.get(src, 0)
                        turns = spec.turn_up and was and was == len(pile) - n
                        into = (dst in goal) - (src in goal)
                        stock = (dst == spec.stock) - (src == spec.stock)
                        waste = (dst in spec.piles.get(spec.waste or "", ())) - (
                            src in spec.piles.get(spec.waste or "", ())
                        )
                        after = (
                            sig[0] - bool(turns),
                            sig[1] + n * into,
                            sig[2] + n * stock,
                            sig[3] + n * waste,
                            sig[4],
                        )
                        if after in seen:  # the same counts as a position seen: look at the position
                            moved = _take(pile, k)
                            zones[dst].extend(moved)
                            if turns:
                                down[src] = was - 1
                            key = self._pat_key(spec, down, passes)
                            down[src] = was
                            del zones[dst][-n:]
                            _put_back(pile, k, moved)
                            if key in seen:
                                continue
                        got.append((dst, src, k))
        return {c: m for c, m in out.items() if m}

    def _pat_seen(self, spec: PatienceSpec, down: dict[str, int], passes: int, seen: set) -> None:
        """The position now, and its counts, among those seen (none kept where positions may come back)."""
        if spec.repeat:
            return
        seen.add(self._pat_key(spec, down, passes))
        seen.add(self._pat_sig(spec, down, passes))

    def _step_patience(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """The layout, then the player's moves until the goal is reached or no move is left."""
        spec: PatienceSpec = st.patience
        if id(spec.moves[0].build) not in self._compiled.patience_fits:
            self._pat_tables(spec)
        zones, logging = self.zones, self._logging
        pending_src: str | None = None  # the pile a card leaves, when copies of it lie on several
        if frame is None:
            down: dict[str, int] = {}
            acts = 0  # the moves made, and the cards turned face up where they count for the limit
            self._pat_origins(spec)
            for lay in spec.layout:
                piles = spec.piles[lay.to]
                src = zones[lay.src]
                need = list(lay.counts)
                laid = [0] * len(piles)
                order = _layout_order(lay)
                if len(order) > len(src):
                    raise RuleError(
                        f"the layout needs {len(order)} cards and '{lay.src}' holds {len(src)}", lay.pos, code="runtime"
                    )
                for i in order:
                    c = src.pop(0)
                    z = piles[i]
                    zones[z].append(c)
                    laid[i] += 1
                    if laid[i] > need[i] - lay.face_up:
                        acts += spec.limit_turns
                        if logging:
                            self.emit({"type": "turn", "card": c.name, "zone": z})
                    else:
                        down[z] = down.get(z, 0) + 1
                if logging:
                    self.emit({"type": "layout", "to": lay.to, "cards": {z: len(zones[z]) for z in piles}})
            passes = 0
            seen: set = set()
            self._pat_seen(spec, down, 0, seen)
            pending: Card | None = None
        else:
            down, passes, seen, pending, acts = frame
            down, seen = dict(down), set(seen)
            if isinstance(pending, tuple):  # paused at the pile a card goes to, its pile named
                pending, pending_src = pending
        seat = 0
        self.mover = seat
        self.pile_down = (down, spec.stock)  # what lies face down, for what a seat is shown (copies.face_down)
        self.pile_passes = passes
        goal = [zones[z] for z in spec.piles[spec.goal]] if spec.goal else []
        total = len(self.pack_cards)
        stock = zones[spec.stock] if spec.stock else None
        wastes = [zones[z] for z in spec.piles[spec.waste]] if spec.waste else []
        waste = wastes[0] if len(wastes) == 1 else None  # one waste pile; several: a card dealt to each
        draw_when = spec.draw_when.fn if spec.draw_when is not None else None
        won = False
        while True:
            if goal and sum(map(len, goal)) == total:
                won = True
                break
            if spec.limit is not None and acts >= spec.limit and pending is None:
                break
            moves = self._pat_moves(spec, down, passes, seen)
            can_draw = stock is not None and (bool(stock) or (bool(waste) and passes < spec.redeals))
            if can_draw and draw_when is not None:
                can_draw = bool(draw_when(self, seat, None))
            if pending is None:
                options: list = sorted(moves, key=lambda c: c.canon)
                if can_draw:
                    options.append(DRAW)
                if not options:
                    break
                if spec.give_up:
                    options.append(GIVE_UP)
                if self._auto is not None:
                    choice = self._ask(seat, options)
                else:
                    self._frame = (dict(down), passes, frozenset(seen), None, acts)
                    choice = yield Decision(seat, options, "play")
                self._count_play()
                acts += 1
                if choice == GIVE_UP:
                    if logging:
                        self.emit({"type": "give_up", "seat": seat})
                    break
                if choice == DRAW:
                    assert stock is not None and spec.waste is not None
                    if waste is None:  # a card of the stock face up on each pile, in turn
                        drawn = stock[: len(wastes)]
                        del stock[: len(drawn)]
                        for c, pile, z in zip(drawn, wastes, spec.piles[spec.waste]):
                            pile.append(c)
                            if logging:
                                self.emit({"type": "draw", "seat": seat, "from": spec.stock, "card": c.name, "to": z})
                        self._pat_seen(spec, down, passes, seen)
                        continue
                    if not stock:
                        passes += 1
                        self.pile_passes = passes
                        stock.extend(reversed(waste))
                        waste.clear()
                        if logging:
                            self.emit({"type": "redeal", "seat": seat, "from": spec.waste, "to": spec.stock})
                    k = min(spec.draw, len(stock))
                    drawn = stock[:k]
                    del stock[:k]
                    waste.extend(drawn)
                    if logging:
                        for c in drawn:
                            self.emit({"type": "draw", "seat": seat, "from": spec.stock, "card": c.name})
                    self._pat_seen(spec, down, passes, seen)
                    continue
                card = choice
            else:
                card, pending = pending, None
            dests = moves.get(card)
            if not dests:
                raise RuleError(f"{card} cannot be moved", st.pos, code="runtime")
            if pending_src is not None:  # the pile it leaves, named before this pause
                dests = [m for m in dests if m[1] == pending_src]
            elif dests[-1][1] != dests[0][1]:  # copies of the card on several piles: which one moves
                froms = list(dict.fromkeys(f for _, f, _ in dests))
                if self._auto is not None:
                    pending_src = self._ask(seat, froms)
                else:
                    self._frame = (dict(down), passes, frozenset(seen), card, acts)
                    pending_src = yield Decision(seat, froms, "from")
                dests = [m for m in dests if m[1] == pending_src]
            if len(dests) == 1:
                dst, src, k = dests[0]
            else:
                names = [d for d, _, _ in dests]
                if self._auto is not None:
                    where = self._ask(seat, names)
                else:
                    self._frame = (
                        dict(down),
                        passes,
                        frozenset(seen),
                        card if pending_src is None else (card, pending_src),
                        acts,
                    )
                    where = yield Decision(seat, names, "place")
                dst, src, k = next(m for m in dests if m[0] == where)
            pending_src = None
            pile = zones[src]
            moved = _take(pile, k)
            zones[dst].extend(moved)
            if logging:
                self.emit({"type": "move", "seat": seat, "cards": [c.name for c in moved], "from": src, "to": dst})
            was = down.get(src, 0)
            if spec.turn_up and was and was == len(pile):
                down[src] = was - 1
                acts += spec.limit_turns
                if spec.turned is not None:
                    self.vars[spec.turned] += 1
                if logging:
                    self.emit({"type": "turn", "card": pile[-1].name, "zone": src})
            self._pat_seen(spec, down, passes, seen)
        self.winner = seat if won else None
        self._end_rule = ("hand", st.name, "goal" if won else "moves")
        if logging:
            self.emit({"type": "patience_end", "seat": seat, "won": won})


def _layout_order(lay: Any) -> list[int]:
    """The piles a layout lays its cards on, one card at a time, in order (by their index)."""
    need = lay.counts
    if lay.by == "pile":
        return [i for i, k in enumerate(need) for _ in range(k)]
    order: list[int] = []
    for row in range(max(need, default=0)):
        order.extend(i for i, k in enumerate(need) if k > row)
    return order


def _take(pile: list, k: int) -> list:
    """The cards a move takes off ``pile``: its top ``k`` (k > 0), or the one card at ``~k`` (k < 0)."""
    if k < 0:
        return [pile.pop(~k)]
    moved = pile[-k:]
    del pile[-k:]
    return moved


def _put_back(pile: list, k: int, moved: list) -> None:
    """Undo ``_take``."""
    if k < 0:
        pile.insert(~k, moved[0])
    else:
        pile.extend(moved)
