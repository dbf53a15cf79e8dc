"""Draw-and-meld play (``_step_draw_meld``): each turn a player draws the top card of a
stock or takes the top of a discard pile, lays out cards on his side of the table so that
all of it lays out into sets and runs (a ``melds`` combination), and discards; the hand
ends when an end rule holds after a turn, when a player knocks, or when the stock is out.

A laying out is a sequence of decisions of atoms: cards chosen one by one (only those that
can still complete a legal table), then the named move ``meld``, or ``pass``."""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.cards import Card
from ..dsl.combinations import Combination
from ..dsl.model import Step
from .base import PASS, Decision, StateParts, canon_key

MAX_LAYOUT_TRIES = 20_000  # ways of laying out tried for one question, then the answer is no


def _pieces(melds: Combination, c: Card, pool: frozenset) -> list[frozenset]:
    """Every set and run of ``melds`` holding the card ``c`` made of the cards of ``pool``."""
    out: list[frozenset] = []
    for part in melds.of:
        most = part.most if part.most is not None else 99
        if part.ranks is not None and c.rank not in part.ranks:
            continue
        if part.kind == "set":
            same = sorted((x for x in pool if x.rank == c.rank and x is not c), key=canon_key)
            k = len(same)
            for mask in range(1 << k):
                group = [c] + [same[i] for i in range(k) if mask >> i & 1]
                if part.least <= len(group) <= most:
                    out.append(frozenset(group))
        else:  # a run in one suit: places in the order, a low rank also below the lowest
            at: dict[int, Card] = {}
            for x in pool:
                if x.suit == c.suit:
                    at[part.strength.get(x.rank, 0)] = x
                    if x.rank in part.low:
                        at.setdefault(0, x)
            for here in {part.strength.get(c.rank, 0)} | ({0} if c.rank in part.low else set()):
                if at.get(here) is not c:
                    continue
                lo = here
                while lo - 1 in at and at[lo - 1] is not c:
                    lo -= 1
                hi = here
                while hi + 1 in at and at[hi + 1] is not c:
                    hi += 1
                for a in range(lo, here + 1):
                    for b in range(here, hi + 1):
                        cards = [at[i] for i in range(a, b + 1)]
                        if part.least <= len(cards) <= most and len(set(cards)) == len(cards):
                            out.append(frozenset(cards))
    return out


def can_lay(melds: Combination, required: frozenset, optional: frozenset) -> bool:
    """Whether every card of ``required``, with some of ``optional``, lays out into sets
    and runs of ``melds``, no card used twice (a bounded search: beyond its bound, no)."""
    seen: dict[tuple[frozenset, frozenset], bool] = {}
    tries = [0]

    def go(req: frozenset, opt: frozenset) -> bool:
        if not req:
            return True
        key = (req, opt)
        if key in seen:
            return seen[key]
        tries[0] += 1
        if tries[0] > MAX_LAYOUT_TRIES:
            return False
        c = min(req, key=canon_key)
        ok = any(go(req - p, opt - p) for p in _pieces(melds, c, req | opt))
        seen[key] = ok
        return ok

    return go(required, optional)


class DrawMeld(StateParts):
    """``State``'s draw-and-meld step."""

    def _step_draw_meld(self, st: Step, frame: tuple | None = None) -> Generator[Decision, Any, None]:
        """Turns from ``first``: draw or take, lay out, discard (docs/language.md,
        ``kind: draw_meld``). ``frame``: a copy resumes at the decision its original
        was paused at."""
        spec = st.meld
        assert spec is not None, "a draw_meld step has its keys (the model)"
        n = self.n
        stock, pile = self.zones[spec.stock], self.zones[spec.discards]
        tables, hands = self.pzones[spec.table], self.hand
        melds, faced = spec.melds, spec.drawn == "faced"
        logging = self._logging
        if frame is None:
            seat = spec.first.fn(self, None, None) % n if spec.first is not None else (self.dealer + 1) % n
            # offered: the seat who put the pile's top card there (none may take back his own);
            # phase: source | lay | discard | knock; card: the card in play (faced); chosen: cards chosen
            offered, phase, card, chosen = None, "source", None, []
        else:
            seat, offered, phase, card, chosen = frame
            chosen = list(chosen)
        while not self._hand_over:
            self.mover = seat
            hand, table = hands[seat], tables[seat]
            if phase == "source":
                moves: list = []
                top = pile[-1] if pile else None
                if stock:
                    moves.append("draw")
                if top is not None and offered != seat:
                    if not faced or can_lay(melds, frozenset((*table, top)), frozenset(hand)):
                        moves.append("take")
                if not stock:  # the stock is out: the hand ends, no one the winner
                    if logging:
                        self.emit({"type": "stock_out", "seat": seat})
                    self._hand_over = True
                    break
                m = (
                    moves[0]
                    if len(moves) == 1
                    else (yield from self._meld_ask(seat, moves, (seat, offered, phase, card, chosen)))
                )
                if m == "take":
                    card = pile[-1] if faced else pile.pop()  # a faced card stays on the pile until laid out
                    if logging:
                        self.emit({"type": "take_top", "seat": seat, "card": card.name})
                else:
                    card = stock.pop()
                    if logging:
                        if faced:  # turned face up for both to see
                            self.emit({"type": "draw", "seat": seat, "from": spec.stock, "card": card.name})
                        else:  # into his hand: he alone sees it
                            self.emit(
                                {"type": "take", "seat": seat, "from": spec.stock, "to": "hand", "cards": [card.name]}
                            )
                if faced:
                    offered = None if m == "take" else seat  # a card he drew is his to refuse first
                    if m == "draw":
                        pile.append(card)  # turned up on the stock
                else:
                    hand.append(card)
                    card = None
                self._touched.add(seat)
                phase, chosen = "lay", []
                continue
            if phase == "lay":
                required = frozenset((*table, *chosen, *([card] if card is not None else ())))
                rest = frozenset(x for x in hand if x not in chosen)
                moves = [x for x in sorted(rest, key=canon_key) if can_lay(melds, required | {x}, rest - {x})]
                taken = card is not None and offered is None
                if not taken:  # a card taken must be laid out; else he may lay nothing more
                    moves.append(PASS)
                if (chosen or card is not None) and can_lay(melds, required, frozenset()):
                    moves.append("meld")  # after pass, as the action ids go
                if moves == [PASS]:
                    m = PASS
                else:
                    m = yield from self._meld_ask(seat, moves, (seat, offered, phase, card, chosen))
                if isinstance(m, Card):
                    chosen.append(m)
                    if logging:
                        self.emit({"type": "choose", "seat": seat, "card": m.name})
                    continue
                if m == "meld":
                    laid = ([card] if card is not None else []) + chosen
                    if card is not None:
                        pile.pop()  # the faced card, from the top of the pile
                    for x in chosen:
                        hand.remove(x)
                    table.extend(laid)
                    self._touched.add(seat)
                    if logging:
                        self.emit({"type": "meld", "seat": seat, "cards": [x.name for x in laid]})
                    card, chosen = None, []
                    if faced or not hand:  # a faced card is laid out once; an empty hand lays no more
                        phase = "discard"
                    continue
                # pass: he lays out nothing more
                if card is not None:  # a faced card refused: it stays on the pile, for the other to take
                    if logging:
                        self.emit({"type": "refuse", "seat": seat, "card": card.name})
                    card, chosen = None, []
                    phase = "next"
                else:
                    chosen = []
                    phase = "discard"
                continue
            if phase == "discard":
                if spec.discard and hand:
                    moves = sorted(hand, key=canon_key)
                    m = (
                        moves[0]
                        if len(moves) == 1
                        else (yield from self._meld_ask(seat, moves, (seat, offered, phase, card, chosen)))
                    )
                    hand.remove(m)
                    pile.append(m)
                    offered = seat
                    self._touched.add(seat)
                    if logging:
                        self.emit({"type": "discard", "seat": seat, "card": m.name})
                phase = "knock" if spec.knock is not None else "next"
                continue
            if phase == "knock":
                # asked after every discard, ``knock`` offered when the condition holds: the condition
                # reads his hand, and that he is asked at all is seen by every seat
                may = spec.knock is not None and spec.knock.fn(self, seat, None)
                m = yield from self._meld_ask(
                    seat, [PASS, "knock"] if may else [PASS], (seat, offered, phase, card, chosen)
                )
                if m == "knock":
                    if logging:
                        self.emit({"type": "knock", "seat": seat})
                    self._hand_over = True
                    break
                phase = "next"
                continue
            # phase == "next": the turn is over
            self._count_play()
            if spec.end and self._check_end(spec.end, seat):
                break
            seat, phase = (seat + 1) % n, "source"

    def _meld_ask(self, seat: int, moves: list, frame: tuple) -> Generator[Decision, Any, Any]:
        """The seat's choice among ``moves``: asked of its agent, or yielded."""
        if self._auto is not None:
            return self._ask(seat, moves)
        self._frame = frame
        m = yield Decision(seat, moves, "meld")
        return m
