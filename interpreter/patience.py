"""Patience (``_step_patience``): one player, piles of cards laid out (some face down), cards
moved from pile to pile by the build rules of the step, the stock turned onto a waste pile, won
when every card is on the goal piles, lost when no move is left (or the player gives up).

A move is two decisions: the card (the lowest of the cards that move together), then the pile
it goes to (a named move: the pile's zone), asked only when the card may go to more than one.
Turning the stock is the named move ``draw``. A move that would bring back a position already
seen in the hand is not offered: the positions are finite, so every game ends (a cycle of moves,
a king sent back and forth between empty piles, is refused).

What the player sees: the cards turned face up (the layout's face-up cards, each card turned up
when it is uncovered, each card drawn) are shown by events; a face-down card and the stock are
never named until turned (docs/security.md).
"""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.build_patience import DRAW, GIVE_UP, PatienceSpec
from ..dsl.cards import Card
from ..dsl.errors import RuleError
from ..dsl.model import Step
from .base import Decision, StateParts


class Patience(StateParts):
    """``State``'s patience step."""

    onto: Card | None = None  # the card a moving card is tested on (``onto`` in the build rules)

    def _pat_fits(self, test: Any, card: Card, onto: Card | None) -> bool:
        self.onto = onto
        try:
            return bool(test(self, 0, card))
        finally:
            self.onto = None

    def _pat_key(self, spec: PatienceSpec, down: dict[str, int], passes: int) -> tuple:
        """The position: every pile's cards and face-down count, the stock's size, the passes."""
        zones = self.zones
        return (
            tuple((tuple(zones[z]), down.get(z, 0)) for names in spec.piles.values() for z in names),
            passes,
        )

    def _pat_moves(self, spec: PatienceSpec, down: dict[str, int], passes: int, seen: set) -> dict:
        """{card: [the piles it may go to, in the order of the step's moves]}: the moves that lead to
        a position not seen before, each as its lowest card moved (with the pile it leaves and how
        many cards go)."""
        zones = self.zones
        out: dict[Card, list[tuple[str, str, int]]] = {}
        for mv in spec.moves:
            most = mv.most.fn(self, 0, None) if mv.most is not None else None
            for src in spec.piles[mv.src]:
                pile = zones[src]
                if not pile:
                    continue
                up = len(pile) - down.get(src, 0)
                if up <= 0:
                    continue
                if mv.cards == "top":
                    sizes = [1]
                elif mv.cards == "face_up":
                    sizes = [up]
                else:  # a run: the top card and the cards under it while each follows the one below
                    test = (mv.run or mv.build).fn  # type: ignore[union-attr]
                    sizes = [1]
                    for k in range(2, up + 1):
                        if not self._pat_fits(test, pile[-k + 1], pile[-k]):
                            break
                        sizes.append(k)
                if most is not None:
                    sizes = [k for k in sizes if k <= most]
                for k in sizes:
                    card = pile[-k]
                    for dst in spec.piles[mv.to]:
                        if dst == src:
                            continue
                        target = zones[dst]
                        if target:
                            ok = mv.build is not None and self._pat_fits(mv.build.fn, card, target[-1])
                        else:
                            ok = mv.empty is not None and self._pat_fits(mv.empty.fn, card, None)
                        if not ok:
                            continue
                        got = out.setdefault(card, [])
                        if any(d == dst for d, _, _ in got):
                            continue
                        # the position it would lead to
                        moved = pile[-k:]
                        del pile[-k:]
                        target.extend(moved)
                        was = down.get(src, 0)
                        if spec.turn_up and was and was == len(pile):
                            down[src] = was - 1
                        key = self._pat_key(spec, down, passes)
                        down[src] = was
                        del target[-k:]
                        pile.extend(moved)
                        if key not in seen:
                            got.append((dst, src, k))
        return {c: m for c, m in out.items() if m}

    def _step_patience(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """The layout, then the player's moves until the goal is reached or no move is left."""
        spec: PatienceSpec = st.patience
        zones, logging = self.zones, self._logging
        if frame is None:
            down: dict[str, int] = {}
            for lay in spec.layout:
                piles = spec.piles[lay.to]
                src = zones[lay.src]
                need = list(lay.counts)
                laid = [0] * len(piles)
                order: list[int] = []
                if lay.by == "pile":
                    order = [i for i, k in enumerate(need) for _ in range(k)]
                else:
                    for row in range(max(need, default=0)):
                        order.extend(i for i, k in enumerate(need) if k > row)
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
                        if logging:
                            self.emit({"type": "show", "card": c.name, "zone": z})
                    else:
                        down[z] = down.get(z, 0) + 1
                if logging:
                    self.emit({"type": "layout", "to": lay.to, "cards": {z: len(zones[z]) for z in piles}})
            passes = 0
            seen = {self._pat_key(spec, down, 0)}
            pending: Card | None = None
        else:
            down, passes, seen, pending = frame
            down, seen = dict(down), set(seen)
        seat = 0
        self.mover = seat
        goal = [zones[z] for z in spec.piles[spec.goal]] if spec.goal else []
        total = len(self.pack_cards)
        stock = zones[spec.stock] if spec.stock else None
        waste = zones[spec.waste] if spec.waste else None
        won = False
        while True:
            if goal and sum(map(len, goal)) == total:
                won = True
                break
            moves = self._pat_moves(spec, down, passes, seen)
            can_draw = stock is not None and (bool(stock) or (bool(waste) and passes < spec.redeals))
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
                    self._frame = (dict(down), passes, frozenset(seen), None)
                    choice = yield Decision(seat, options, "play")
                self._count_play()
                if choice == GIVE_UP:
                    if logging:
                        self.emit({"type": "give_up", "seat": seat})
                    break
                if choice == DRAW:
                    assert stock is not None and waste is not None
                    if not stock:
                        passes += 1
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
                    seen.add(self._pat_key(spec, down, passes))
                    continue
                card = choice
            else:
                card, pending = pending, None
            dests = moves.get(card)
            if not dests:
                raise RuleError(f"{card} cannot be moved", st.pos, code="runtime")
            if len(dests) == 1:
                dst, src, k = dests[0]
            else:
                names = [d for d, _, _ in dests]
                if self._auto is not None:
                    where = self._ask(seat, names)
                else:
                    self._frame = (dict(down), passes, frozenset(seen), card)
                    where = yield Decision(seat, names, "place")
                dst, src, k = next(m for m in dests if m[0] == where)
            pile = zones[src]
            moved = pile[-k:]
            del pile[-k:]
            zones[dst].extend(moved)
            if logging:
                self.emit({"type": "move", "seat": seat, "cards": [c.name for c in moved], "from": src, "to": dst})
            was = down.get(src, 0)
            if spec.turn_up and was and was == len(pile):
                down[src] = was - 1
                if logging:
                    self.emit({"type": "show", "card": pile[-1].name, "zone": src})
            seen.add(self._pat_key(spec, down, passes))
        self.winner = seat if won else None
        self._end_rule = ("hand", st.name, "goal" if won else "moves")
        if logging:
            self.emit({"type": "patience_end", "seat": seat, "won": won})
