"""Draw-and-meld play (``_step_draw_meld``): each turn a player draws the top card of a
stock or takes the top of a discard pile, lays out cards on his side of the table so that
all of it lays out into sets and runs (a ``melds`` combination), and discards; the hand
ends when an end rule holds after a turn, when a player knocks, or when the stock is out.

A laying out is a sequence of decisions of atoms: cards chosen one by one (only those that
can still complete a legal table), then the named move ``meld``, or ``pass``.

With a knock (``deadwood``, ``knock_at_most``): the named move ``knock`` in place of a
discard, then a discard that keeps the deadwood within the limit; with ``lay: knock`` the
knocker then lays down his melds, each apart (his own), the others lay off cards on them
and lay down their own melds; the settlement is the file's (effects after the step)."""

from __future__ import annotations

from typing import Any, Generator

from ..dsl.cards import Card
from ..dsl.combinations import Combination
from ..dsl.model import Step
from .base import PASS, Decision, canon_key
from .meld_apart import LayApart, has_room, is_one, melds_in

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


class DrawMeld(LayApart):
    """``State``'s draw-and-meld step."""

    def _meld_eval(self, fn, seat: int, out: tuple = (), into: tuple = ()) -> Any:
        """``fn`` (seat bound) with the seat's hand as it would be without the cards ``out``
        and with the cards ``into``: the hand put back as it was."""
        hand = self.hand[seat]
        kept = hand[:]
        if out or into:
            hand[:] = [x for x in kept if x not in out] + list(into)
        try:
            return fn(self, seat, None)
        finally:
            hand[:] = kept

    def _knock_discards(self, spec, seat: int, into: tuple = (), barred: Card | None = None) -> list:
        """The cards whose discard leaves the seat's deadwood within the knock's limit (the
        hand with the cards ``into``), in the canonical order; with ``discard_taken: forbidden``,
        not ``barred`` (the card taken from the pile this turn)."""
        hand = sorted((*self.hand[seat], *into), key=canon_key)
        if barred is not None and spec.discard_taken == "forbidden":
            hand = [c for c in hand if c is not barred]
        limit = self._meld_eval(spec.knock_at_most.fn, seat)
        dw = spec.deadwood.fn
        return [c for c in hand if self._meld_eval(dw, seat, (c,), tuple(x for x in into if x is not c)) <= limit]

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
        down = spec.lay == "knock"  # melds laid down only after a knock, each apart
        logging = self._logging
        if frame is None:
            seat = spec.first.fn(self, None, None) % n if spec.first is not None else (self.dealer + 1) % n
            # offered: the seat who put the pile's top card there (none may take back his own);
            # phase: offer | source | lay | discard | knock | knock_discard | down | off | own | next;
            # card: the card in play (faced); chosen: cards chosen
            offered, phase, card, chosen = None, "source", None, []
            # knocker; groups: the melds laid apart ((owner, cards), …); streak: turns in a row
            # that discarded the card taken; takes: of the pile after the first turn; passes: of
            # the first offer; took: the card taken this turn; queue: the seats still to lay down
            knocker: int = seat
            groups: tuple[tuple[int, tuple[Card, ...]], ...] = ()
            queue: tuple[int, ...] = ()
            streak, takes, passes, took = 0, 0, 0, None
            self.restock_orders = ()
            if spec.first_offer and pile:
                phase = "offer"
        else:
            seat, offered, phase, card, chosen, extra = frame
            chosen = list(chosen)
            knocker, groups, streak, takes, passes, took, queue = extra

        def here() -> tuple:
            return (seat, offered, phase, card, tuple(chosen), (knocker, groups, streak, takes, passes, took, queue))

        while not self._hand_over:
            self.mover = seat
            hand, table = hands[seat], tables[seat]
            if phase == "offer":  # the first turn: the pile's top offered to each in turn
                m = yield from self._choice("meld", seat, [PASS, "take"], here())
                if m == "take":
                    took = pile.pop()
                    hand.append(took)
                    if logging:
                        self.emit({"type": "take_top", "seat": seat, "card": took.name})
                    self._touched.add(seat)
                    phase, chosen = "lay", []
                    continue
                if logging:
                    self.emit({"type": "refuse", "seat": seat, "card": str(pile[-1])})
                passes += 1
                seat = (seat + 1) % n
                if passes >= n:  # all have refused it: the first draws from the stock
                    phase = "source"
                continue
            if phase == "source":
                if not stock and spec.restock != "none":  # the stock out: the pile made it again
                    self._restock(spec, stock, pile)
                moves: list = []
                top = pile[-1] if pile else None
                if spec.stock_least and len(stock) <= spec.stock_least:
                    # the stock is down to its last cards: knock with the pile's top, or the hand ends
                    # whether he may knock is open by what every seat sees (a knock, a pile's top not
                    # his own): he is then asked, even when his hand cannot knock (pass his only move)
                    can = spec.knock_at_most is not None and top is not None and offered != seat
                    if can:
                        moves = [PASS, "knock"] if self._knock_discards(spec, seat, (top,), barred=top) else [PASS]
                    m = (yield from self._choice("meld", seat, moves, here())) if can else PASS
                    if m == PASS:
                        if logging:
                            self.emit({"type": "stock_out", "seat": seat})
                        self._hand_over = True
                        break
                    top = took = pile.pop()
                    hand.append(top)
                    if logging:
                        self.emit({"type": "take_top", "seat": seat, "card": top.name})
                    phase = "knock"
                    continue
                if stock:
                    moves.append("draw")
                # open: the pile's top may be taken by what every seat sees; a faced card is taken
                # only by a hand that lays it out, which the seat alone knows: asked all the same
                open_ = top is not None and offered != seat and passes < n
                if open_ and (not faced or can_lay(melds, frozenset((*table, top)), frozenset(hand))):
                    moves.append("take")
                if not stock:  # the stock is out: the hand ends, no one the winner
                    if logging:
                        self.emit({"type": "stock_out", "seat": seat})
                    self._hand_over = True
                    break
                ask = len(moves) > 1 or open_
                m = (yield from self._choice("meld", seat, moves, here())) if ask else moves[0]
                passes = 0
                took = None
                if m == "take":
                    if spec.takes_end:
                        takes += 1
                        if takes >= spec.takes_end:  # a bound on the hand: it ends, no one the winner
                            if logging:
                                self.emit({"type": "stock_out", "seat": seat})
                            self._hand_over = True
                            break
                    card = pile[-1] if faced else pile.pop()  # a faced card stays on the pile until laid out
                    took = card
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
                if down:  # nothing is laid out in the turn
                    phase = "discard"
                    continue
                if spec.lay_off_in_turn != "none":  # melds laid apart, cards laid off on them
                    phase = "apart"
                    continue
                required = frozenset((*table, *chosen, *([card] if card is not None else ())))
                rest = frozenset(x for x in hand if x not in chosen)
                moves = [x for x in sorted(rest, key=canon_key) if can_lay(melds, required | {x}, rest - {x})]
                taken = card is not None and offered is None
                if not taken:  # a card taken must be laid out; else he may lay nothing more
                    moves.append(PASS)
                if (chosen or card is not None) and can_lay(melds, required, frozenset()):
                    moves.append("meld")  # after pass, as the action ids go
                # a pass that ends the turn (a faced card refused, no discard to follow) is seen by
                # every seat: asked all the same, for whether he could lay anything is his to know
                ends = card is not None or not (spec.discard and hand)
                if moves == [PASS] and not ends:
                    m = PASS
                else:
                    m = yield from self._choice("meld", seat, moves, here())
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
            if phase == "apart":
                m = yield from self._lay_apart(spec, seat, chosen, groups, here())
                if isinstance(m, Card):
                    chosen.append(m)
                    continue
                if m == PASS:
                    phase = "discard"
                    continue
                groups = m  # a meld laid down or a card laid off: the melds on the table now
                chosen = []
                if not hand:
                    phase = "discard"
                continue
            if phase == "discard":
                if spec.discard and hand:
                    moves = sorted(hand, key=canon_key)
                    if spec.discard_taken == "forbidden" and took in hand and len(moves) > 1:
                        moves.remove(took)  # the card taken from the pile is not discarded again at once
                    if spec.knock_at_most is not None and self._knock_discards(spec, seat, barred=took):
                        moves.append("knock")
                    m = moves[0] if len(moves) == 1 else (yield from self._choice("meld", seat, moves, here()))
                    if m == "knock":
                        phase = "knock"
                        continue
                    hand.remove(m)
                    pile.append(m)
                    offered = seat
                    self._touched.add(seat)
                    if logging:
                        self.emit({"type": "discard", "seat": seat, "card": m.name})
                    if spec.returns_end:  # the card taken discarded again, turns in a row
                        streak = streak + 1 if m is took else 0
                        if streak >= spec.returns_end:
                            if logging:
                                self.emit({"type": "stock_out", "seat": seat})
                            self._hand_over = True
                            break
                phase = "knock" if spec.knock is not None else "next"
                if phase == "knock" and spec.knock_at_most is not None:
                    phase = "next"  # the knock of a limit is made in place of the discard
                continue
            if phase == "knock":
                if spec.knock_at_most is not None:  # he knocks: a discard that keeps him within the limit
                    knocker = seat
                    if spec.knocked is not None:
                        self.pvars[spec.knocked][seat] = 1
                    if logging:
                        self.emit({"type": "knock", "seat": seat})
                    phase = "knock_discard"
                    continue
                # asked after every discard, ``knock`` offered when the condition holds: the condition
                # reads his hand, and that he is asked at all is seen by every seat
                may = spec.knock is not None and spec.knock.fn(self, seat, None)
                m = yield from self._choice("meld", seat, [PASS, "knock"] if may else [PASS], here())
                if m == "knock":
                    if logging:
                        self.emit({"type": "knock", "seat": seat})
                    self._hand_over = True
                    break
                phase = "next"
                continue
            if phase == "knock_discard":
                moves = self._knock_discards(spec, seat, barred=took) or self._knock_discards(spec, seat)
                # how many of his cards keep him within the limit is his to know: asked even when one
                # does, unless his hand holds one card (the discard forced by what every seat sees)
                ask = len(hand) > 1
                m = (yield from self._choice("meld", seat, moves, here())) if ask else moves[0]
                hand.remove(m)
                pile.append(m)
                self._touched.add(seat)
                if logging:
                    self.emit({"type": "discard", "seat": seat, "card": m.name})
                if not down:
                    self._hand_over = True
                    break
                phase, chosen = "down", []
                continue
            if phase in ("down", "own"):  # melds laid down apart, one at a time
                if phase == "down":  # the knocker: only melds that keep him within the limit
                    limit = self._meld_eval(spec.knock_at_most.fn, seat)
                    dw = spec.deadwood.fn
                    legal = [m for m in melds_in(melds, hand) if self._meld_eval(dw, seat, tuple(m)) <= limit]
                else:
                    legal = melds_in(melds, hand)
                have = frozenset(chosen)
                fit = [m for m in legal if have <= m]
                moves = sorted({x for m in fit for x in m} - have, key=canon_key)
                if not chosen and (phase == "own" or self._meld_eval(spec.counts.fn, seat) <= limit):
                    moves.append(PASS)
                if chosen and have in fit:
                    moves.append("meld")
                # the cards that complete a meld, the melds left to him: his to know; every move asked,
                # even one alone, unless his hand is empty (a pass forced by what every seat sees)
                ask = bool(hand)
                m = (yield from self._choice("meld", seat, moves, here())) if ask else moves[0]
                if isinstance(m, Card):
                    chosen.append(m)
                    if logging:
                        self.emit({"type": "choose", "seat": seat, "card": m.name})
                    continue
                if m == "meld":
                    laid = sorted(chosen, key=canon_key)
                    for x in laid:
                        hand.remove(x)
                    table.extend(laid)
                    groups = (*groups, (seat, tuple(laid)))
                    self._touched.add(seat)
                    if logging:
                        self.emit({"type": "meld", "seat": seat, "cards": [x.name for x in laid]})
                    chosen = []
                    continue
                # pass: he lays down no more; the next seat lays off, then lays down
                if phase == "down":
                    queue = tuple((knocker + i) % n for i in range(1, n))
                elif queue:
                    queue = queue[1:]
                if not queue:
                    self._hand_over = True
                    break
                seat = queue[0]
                off = spec.lay_off != "none" and (spec.lay_off_when is None or spec.lay_off_when.fn(self, seat, None))
                phase, chosen = ("off" if off else "own"), []
                continue
            if phase == "off":  # cards laid off one at a time on the melds of the others (or all)
                on = spec.lay_off_melds if spec.lay_off_melds is not None else melds
                mine = spec.lay_off == "all"
                moves = [
                    x
                    for x in sorted(hand, key=canon_key)
                    if any((mine or o != seat) and is_one(on, (*g, x)) for o, g in groups)
                ] + [PASS]
                # whether a card of his goes on a meld laid down is his to know: asked even when he may
                # only pass, unless his hand is empty
                ask = bool(hand)
                m = (yield from self._choice("meld", seat, moves, here())) if ask else moves[0]
                if m == PASS:  # he lays off no more
                    phase = "own"
                    continue
                # on the first meld it fits that it leaves open to more (a run before a set made full)
                fits = [i for i, (o, g) in enumerate(groups) if (mine or o != seat) and is_one(on, (*g, m))]
                i = next((i for i in fits if has_room(on, (*groups[i][1], m))), fits[0])
                o, g = groups[i]
                groups = (*groups[:i], (o, (*g, m)), *groups[i + 1 :])
                hand.remove(m)
                tables[o].append(m)
                self._touched.add(seat)
                if logging:
                    self.emit({"type": "lay_off", "seat": seat, "card": str(m), "on": o})
                continue
            # phase == "next": the turn is over
            self._count_play()
            if spec.end and self._check_end(spec.end, seat):
                break
            seat, phase = (seat + 1) % n, "source"
