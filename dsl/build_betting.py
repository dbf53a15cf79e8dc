"""Building the vying steps: ``kind: betting`` (a round of stakes into a pot, each seat still in
acting in turn: check, bet, call, raise, fold) and ``kind: showdown`` (the hands of the seats still
in ranked by keys, the pot paid). Both read and write two per-seat counters the rule file declares:
the stake each seat has put up (``stake:``, the amount to be matched) and whether it has thrown up
its hand (``out:``, 1 once folded), so that every other step and expression reads them as counters.
"""

from __future__ import annotations

import re

from .betting import MAX_AMOUNT, MOVES, BettingSpec
from .build_pieces import WANT_NUMBER, WANT_SEAT, WANT_TRUTH, PieceBuilder
from .gamedef import Step


def build_betting(b: PieceBuilder, st: Step, base: tuple, s: dict) -> BettingSpec | None:
    """The spec of a ``betting`` or ``showdown`` step; ``st.move_names`` and
    ``st.offers_numbers`` for the action ids."""
    st.first = b.expr(base + ("first",), want=WANT_SEAT)
    zkey = "to" if st.kind == "betting" else "from"
    zone, unit = s.get(zkey), s.get("unit")
    if zone not in b.pools:
        b.err(base + (zkey,), f"'{zone}' is not a money zone (zones: NAME: {{money: true}})")
    if unit not in b.scope.currencies:
        b.err(base + ("unit",), f"unknown currency '{unit}' (currencies: {', '.join(sorted(b.scope.currencies))})")
    names = {}
    for k in ("stake", "out") if st.kind == "betting" else ("out",):
        v = s.get(k)
        if v not in b.scope.seat_vars or v in b.scope.suit_vars:
            b.err(base + (k,), f"'{v}' is not a counter kept per seat (declare it under vars:, per_seat: true)")
        names[k] = v
    spec = BettingSpec(zone=str(zone), unit=str(unit), stake=str(names.get("stake")), out=str(names["out"]))
    total = s.get("total")
    if total is not None:
        if total not in b.scope.seat_vars or total in b.scope.suit_vars:
            b.err(
                base + ("total",), f"'{total}' is not a counter kept per seat (declare it under vars:, per_seat: true)"
            )
        elif total in names.values():
            b.err(
                base + ("total",),
                f"'{total}' is already the step's {'stake' if total == names.get('stake') else 'out'}",
            )
        else:
            spec.total = str(total)
    if st.kind == "showdown":
        spec.key = [
            e
            for i in range(len(s.get("key") or []))
            if (e := b.expr(base + ("key", i), "seat", want=WANT_NUMBER)) is not None
        ]
        spec.ties = s.get("ties", "split")
        return spec
    spec.check = bool(s.get("check", True))
    spec.lapse_on_raise = bool(s.get("lapse_on_raise", False))
    if spec.lapse_on_raise and not spec.check:
        b.err(base + ("lapse_on_raise",), "a round without checking has no check to lapse")
    spec.cap = b.expr(base + ("cap",), want=WANT_NUMBER)
    spec.stack = b.expr(base + ("stack",), "seat", want=WANT_NUMBER)
    raised = s.get("raised")
    if raised is not None:
        spec.raised = b.game_counter(base + ("raised",), raised)
    for k in ("bet", "raise"):
        v = s.get(k)
        if v is None:
            continue
        if isinstance(v, dict):  # an amount the seat chooses, from min to max
            hi = v.get("max")
            if not isinstance(hi, int) or isinstance(hi, bool) or not 1 <= hi <= MAX_AMOUNT:
                b.err(base + (k, "max"), f"the greatest amount is a number from 1 to {MAX_AMOUNT}")
                continue
            lo = b.expr(base + (k, "min"), "seat", want=WANT_NUMBER)
            setattr(spec, "bet_range" if k == "bet" else "raise_range", (lo, hi))
            st.offers_numbers = True
            st.high_literal = max(st.high_literal or 0, hi)
        else:
            e = b.bounded(b.expr(base + (k,), "seat", want=WANT_NUMBER), "an amount")
            setattr(spec, "bet" if k == "bet" else "raise_", e)
    strad = s.get("straddle")
    if isinstance(strad, dict):
        spec.straddle_first = b.expr(base + ("straddle", "first"), want=WANT_SEAT)
        spec.straddle_max = b.expr(base + ("straddle", "max"), "seat", want=WANT_NUMBER)
    opens = s.get("open")
    if isinstance(opens, dict):
        spec.opens = b.expr(base + ("open", "when"), "seat", want=WANT_TRUTH)
        spec.show_opener = opens.get("show") == "hand"
        if spec.bet is None and spec.bet_range is None:
            b.err(base + ("open",), "a round with an opening condition needs a bet (the opening)")
    words = s.get("words") or {}
    for m, w in words.items():
        if m not in MOVES:
            b.err(base + ("words", m), f"'{m}' is not a move of a betting round ({', '.join(MOVES)})")
        elif not isinstance(w, str) or not re.fullmatch(r"[a-z][a-z_-]*", w):
            b.err(base + ("words", m), "a move's word is a lower-case word (letters, '-' and '_')")
        else:
            spec.words[m] = w
    offered = ["fold", "call"]
    if spec.check:
        offered.append("check")
    if spec.bet is not None or spec.bet_range is not None:
        offered.append("bet")
    if spec.raise_ is not None or spec.raise_range is not None:
        offered.append("raise")
    if spec.straddle_first is not None:
        offered += ["straddle", "decline"]
    st.move_names = tuple(spec.word(m) for m in MOVES if m in offered)
    if len(set(st.move_names)) < len(st.move_names):
        b.err(base + ("words",), "two moves of the round have the same word")
    return spec
