"""Shedding play (``_step_shedding``): in turn, each player plays a card of his hand onto a
discard pile when it matches the top card there, or a wild card (then names the suit to
follow: ``led``), or draws from the stock (up to a limit in a turn), or passes when he may
draw no more; cards may skip the next player, turn the order round, or make the next
player draw (and he may pass the draw on with a like card). The first to be rid of his
cards ends the hand; so do the play limits the file sets (``end``) and a round of passes
with the stock out (``blocked``). docs/language.md, section 4, ``kind: shedding``."""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.cards import Card
from ..dsl.model import Step
from .base import PASS, Decision, StateParts, canon_key


class Shedding(StateParts):
    """``State``'s shedding step."""

    def _step_shedding(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """Turns from ``first`` (see the module's doc). ``frame``: a copy resumes at the
        decision its original was paused at."""
        spec = st.shedding
        assert spec is not None, "a shedding step has its keys (the model)"
        n = self.n
        stock, pile = self.zones[spec.stock], self.zones[spec.discards]
        hands = self.hand
        logging = self._logging
        if frame is None:
            seat = spec.first.fn(self, None, None) % n if spec.first is not None else (self.dealer + 1) % n
            # direction: +1 or -1; drawn: cards drawn this turn; passes: in a row with the stock out;
            # owed: cards the player to move must draw (a penalty card played on him); phase: play | suit
            direction, drawn, passes, owed, phase = 1, 0, 0, 0, "play"
            self.led = None
            self.restock_orders = ()
            if spec.starter is not None and stock:
                start = self._shed_starter(spec, stock, pile)
                if start is not None:  # the card turned acts as if the dealer had played it
                    seat, direction, owed = self._shed_effects(spec, start, (seat - 1) % n, 1, 0)
        else:
            seat, direction, drawn, passes, owed, phase = frame
        blocked = spec.blocked.fn(self, None, None) if spec.blocked is not None else n
        most = spec.draws.fn(self, None, None) if spec.draws is not None else None
        while not self._hand_over:
            self.mover = seat
            hand = hands[seat]
            if not stock and spec.restock != "none":  # the stock out at a move: the pile made it again
                self._restock(spec, stock, pile)
            here = (seat, direction, drawn, passes, owed, phase)
            if phase == "suit":  # the player of a wild card names the suit to follow
                suit = yield from self._choice("suit", seat, list(self.g.suits), here)
                self.led = suit
                if logging:
                    self.emit({"type": "suit", "seat": seat, "value": suit})
                phase, drawn = "play", 0
                seat, direction, owed = self._shed_effects(spec, pile[-1], seat, direction, owed)
                continue
            if owed and stock:  # made to draw: draw them all, or pass them on with a like card
                moves: list = ["draw"]
                if spec.stack and spec.penalty is not None:
                    moves = [c for c in sorted(hand, key=canon_key) if spec.penalty.fn(self, seat, c)] + moves
                m = yield from self._choice("shed", seat, moves, here)
                if m == "draw":
                    for _ in range(owed):
                        if not stock and not self._restock(spec, stock, pile):
                            break
                        self._draw_top(seat, stock, hand, spec.stock)
                    owed, drawn = 0, 0
                    seat = (seat + direction) % n
                    continue
            else:
                owed = 0
                playable = [c for c in sorted(hand, key=canon_key) if self._shed_fits(spec, seat, c, pile)]
                moves = list(playable)
                spent = most is not None and drawn >= most
                if not stock or spent:
                    moves.append(PASS)
                elif spec.draw_freely or not playable:
                    moves.append("draw")
                m = yield from self._choice("shed", seat, moves, here)
                if m == "draw":
                    self._draw_top(seat, stock, hand, spec.stock)
                    drawn += 1
                    continue
                if m == PASS:
                    passes = passes + 1 if not stock else 0
                    if logging:
                        self.emit({"type": "pass", "seat": seat})
                    if passes >= blocked:  # no one can play and there is nothing to draw
                        if logging:
                            self.emit({"type": "blocked", "seat": seat})
                        self._hand_over = True
                        break
                    drawn = 0
                    seat = (seat + direction) % n
                    continue
            # a card played onto the discards
            assert isinstance(m, Card)
            hand.remove(m)
            pile.append(m)
            self.led = m.suit
            self._touched.add(seat)
            if logging:
                self.emit({"type": "discard", "seat": seat, "card": m.name, "to": spec.discards})
            passes, drawn = 0, 0
            self._count_play()
            if spec.on_play:
                self._effects(spec.on_play, seat)
            if not hand:  # gone out
                self.winner = seat
                self._hand_over = True
                if logging:
                    self.emit({"type": "out", "seat": seat})
                break
            if spec.end and self._check_end(spec.end, seat):
                break
            if spec.wild is not None and spec.wild.fn(self, seat, m):
                phase = "suit"
                continue
            seat, direction, owed = self._shed_effects(spec, m, seat, direction, owed)

    def _shed_effects(self, spec: Any, c: Card, seat: int, direction: int, owed: int) -> tuple[int, int, int]:
        """The next to play, the direction and the cards owed after ``c`` is played by ``seat``."""
        if spec.penalty is not None and self.zones[spec.stock] and spec.penalty.fn(self, seat, c):
            owed += spec.penalty_count.fn(self, seat, None) if spec.penalty_count is not None else 2
        if spec.reverse is not None and spec.reverse.fn(self, seat, c):
            direction = -direction
        step = 2 if spec.skip is not None and spec.skip.fn(self, seat, c) else 1
        return (seat + step * direction) % self.n, direction, owed

    def _shed_starter(self, spec: Any, stock: list, pile: list) -> Card | None:
        """The stock's top card turned onto the discards; while it fails ``starter``, it is put
        back in the middle of the stock and the next is turned. The card turned, or None."""
        for _ in range(len(stock)):
            c = stock.pop()
            if self._logging:
                self.emit({"type": "turnup", "card": c.name, "to": spec.discards})
            if spec.starter.fn(self, None, c):
                pile.append(c)
                self.led = c.suit
                return c
            stock.insert(len(stock) // 2, c)
            if self._logging:
                self.emit({"type": "bury", "card": c.name, "to": spec.stock})
        return None  # every card refused: play starts on an empty pile

    def _shed_fits(self, spec: Any, seat: int, c: Card, pile: list) -> bool:
        """Whether ``c`` may be played now: a wild card, any card on an empty pile, or one that
        ``match`` admits on the top card (``onto``)."""
        if spec.wild is not None and spec.wild.fn(self, seat, c):
            return True
        if not pile:
            return True
        self.onto = pile[-1]
        try:
            return bool(spec.match.fn(self, seat, c))
        finally:
            self.onto = None
