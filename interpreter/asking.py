"""Asking play (``_step_asking``): the player to move asks another seat for a rank he
holds (two decisions: the seat, by its number, then the rank, a named move ``ask_R``); the
seat asked gives him every card of that rank it holds, in sight of all, and he asks again;
when it holds none, he draws the stock's top card ("go fish"), unseen by the others, and
asks again only if it is of the rank he asked for (he shows it). Whenever a hand holds a
whole rank (``book`` cards), they are laid down face up in its books. A seat with no card
draws one on its turn (while the stock lasts); the hand ends when every card is in a book.
docs/language.md, section 4, ``kind: asking``."""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.build_asking import ASK_PREFIX, rank_move
from ..dsl.model import Step
from .base import Decision, StateParts, canon_key


class Asking(StateParts):
    """``State``'s asking step."""

    def _step_asking(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """Turns from ``first`` (see the module's doc). ``frame``: a copy resumes at the
        decision its original was paused at: (seat, the seat asked or None)."""
        spec = st.asking
        assert spec is not None, "an asking step has its keys (the model)"
        n = self.n
        stock, books, hands = self.zones[spec.stock], self.pzones[spec.books], self.hand
        book = spec.book.fn(self, None, None) if spec.book is not None else len(self.g.suits)
        logging = self._logging
        if frame is None:
            seat, target = (
                spec.first.fn(self, None, None) % n if spec.first is not None else (self.dealer + 1) % n,
                None,
            )
            for s in range(n):  # books dealt whole
                for r in sorted({c.rank for c in hands[s]}):
                    self._ask_book(spec, s, r, book, hands, books)
        else:
            seat, target = frame
        while not self._hand_over:
            if not stock and not any(hands):  # every card in a book
                self._hand_over = True
                break
            self.mover = seat
            hand = hands[seat]
            if not hand:
                if stock and spec.empty_draw:
                    self._draw_top(seat, stock, hand, spec.stock)
                    self._ask_book(spec, seat, hand[-1].rank if hand else None, book, hands, books)
                    if not spec.ask_after_empty_draw:
                        seat = (seat + 1) % n
                else:  # out of play while he holds no card
                    seat = (seat + 1) % n
                continue
            if target is None:
                asked = [s for s in range(n) if s != seat and hands[s]]
                if not asked:  # no one to ask: the turn passes
                    seat = (seat + 1) % n
                    continue
                if len(asked) == 1:
                    target = asked[0]
                else:
                    target = yield from self._choice("ask", seat, asked, (seat, None))
            ranks = sorted({c.rank for c in hand}, key=lambda r: self.g.ranks.index(r))
            names = [rank_move(r) for r in ranks]
            m = yield from self._choice("ask", seat, names, (seat, target))
            rank = str(m)[len(ASK_PREFIX) :]
            given = [c for c in hands[target] if c.rank == rank]
            if logging:
                self.emit({"type": "ask", "seat": seat, "asked": target, "rank": rank, "count": len(given)})
            self._count_play()
            asked_seat, target = target, None
            if given:  # every card of the rank, handed over in sight of all
                for c in given:
                    hands[asked_seat].remove(c)
                hand.extend(given)
                hand.sort(key=canon_key)
                self._touched.update((seat, asked_seat))
                if logging:
                    names_given = [c.name for c in given]
                    self.emit({"type": "show", "seat": asked_seat, "cards": names_given})
                    self.emit(
                        {
                            "type": "take",
                            "seat": seat,
                            "from": "hand",
                            "from_seat": asked_seat,
                            "to": "hand",
                            "cards": names_given,
                        }
                    )
                self._ask_book(spec, seat, rank, book, hands, books)
                continue
            if not stock:
                seat = (seat + 1) % n
                continue
            c = self._draw_top(seat, stock, hand, spec.stock)
            caught = c.rank == rank
            if caught and logging:  # the rank asked for, shown
                self.emit({"type": "show", "seat": seat, "cards": [c.name]})
            self._ask_book(spec, seat, c.rank, book, hands, books)
            if not (caught and spec.again_on_catch):
                seat = (seat + 1) % n

    def _ask_book(self, spec: Any, seat: int, rank: str | None, book: int, hands: list, books: list) -> None:
        """``seat``'s cards of ``rank`` laid down in its books when they make a book."""
        if rank is None:
            return
        hand = hands[seat]
        cards = [c for c in hand if c.rank == rank]
        if len(cards) < book:
            return
        for c in cards:
            hand.remove(c)
        books[seat].extend(cards)
        self._touched.add(seat)
        if self._logging:
            self.emit({"type": "meld", "seat": seat, "cards": [c.name for c in cards], "to": spec.books})
        if spec.out_ends and not hand:  # out, with a book: the hand is over
            self.winner = seat
            self._hand_over = True
            if self._logging:
                self.emit({"type": "out", "seat": seat})
