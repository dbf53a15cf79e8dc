"""The events of a counter's change (``score`` events) and the ``set``/``add`` effects that make them:
a counter's value before and after, what a seat may see of it (``visibility``), a win's others.
Split from ``effects``, which builds the effects from these.
"""

from __future__ import annotations

from typing import Any, Callable

from ..dsl.compiler import sides_of
from ..dsl.model import Effect, GameDef
from .base import StateParts
from .visibility import NOTHING, declared_with, plan, sees, value_taint


def _tracked_counters(e: Effect, game: GameDef) -> Callable[[StateParts, Any], None]:
    """``set``/``add`` with the atoms of each value recorded in the cells it sets (``visibility``)."""
    op, team, path = e.op, e.team_vars, e.path
    items = [(name, per_seat, expr, plan(expr, game)) for name, (per_seat, expr) in e.args.items()]

    def f(st, seat):
        side = sides_of(st) if team else None
        logging = st._logging
        for name, per_seat, expr, reads in items:
            v = expr(st, seat)
            if per_seat:
                target = st.pvars[name]
                mates = (
                    [x for x in range(st.n) if side[x] == side[seat]] if side is not None and name in team else [seat]
                )
                old = target[mates[0]] if logging else None
                for x in mates:
                    target[x] = v if op == "set" else target[x] + v
                value_taint(st, name, True, reads, seat, op, mates)
                if logging:
                    _counter_event(st, path, op, name, mates, old, target[mates[0]])
            else:
                old = st.vars[name]
                st.vars[name] = v if op == "set" else st.vars[name] + v
                value_taint(st, name, False, reads, seat, op, None)
                if logging:
                    _counter_event(st, path, op, name, None, old, st.vars[name])

    return f


def _logged_counters(e: Effect) -> Callable[[StateParts, Any], None]:
    """``set``/``add`` when events are kept: each change of a counter a player may see is an event
    (``_counter_event``); the loops that keep no events build none."""
    op, team, path = e.op, e.team_vars, e.path
    items = list(e.args.items())

    def f(st, seat):
        side = sides_of(st) if team else None
        for name, (per_seat, expr) in items:
            v = expr(st, seat)
            if per_seat:
                target = st.pvars[name]
                mates = (
                    [x for x in range(st.n) if side[x] == side[seat]] if side is not None and name in team else [seat]
                )
                old = target[mates[0]]
                for x in mates:
                    target[x] = v if op == "set" else target[x] + v
                _counter_event(st, path, op, name, mates, old, target[mates[0]])
            else:
                old = st.vars[name]
                st.vars[name] = v if op == "set" else old + v
                _counter_event(st, path, op, name, None, old, st.vars[name])
        return None

    return f


def counter_event(st: Any, path: tuple, op: str, name: str, seats: list | None, old: Any, new: Any) -> None:
    """``_counter_event``, for the other parts of the engine that change a counter (a betting round's
    stakes)."""
    _counter_event(st, path, op, name, seats, old, new)


def _counter_event(st: Any, path: tuple, op: str, name: str, seats: list | None, old: Any, new: Any) -> None:
    """The event of a counter changed by a rule element (``score``): the element's path, ``op`` (``set``
    or ``add``), the counter,
    the seat (and ``seats``, a side's) whose cell it is, the change (``amount``, for numbers) and the
    value after it (``total``). None for a counter no player sees (``shown: hidden``) or one unchanged."""
    if old == new and type(old) is type(new):
        return
    if st.g.shown.get(name) == "hidden":
        return
    ev = ScoreEvent(type="score", counter=name, op=op)
    label = st.g.labels.get(name)
    if label is not None:
        ev["label"] = label
    if seats is not None:
        ev["seat"] = seats[0]
        if len(seats) > 1:
            ev["seats"] = list(seats)
    if _number(old) and _number(new):
        ev["amount"] = new - old
    ev["total"] = new
    if path:
        ev["rule"] = list(path)
    if st._track and st._taint:  # the cell's atoms, for the library to say who may see the value
        ev.atoms = st._taint.get(name if seats is None else (name, seats[0]), NOTHING)
    if seats is not None and name in st.g.wins:  # a win: the others' totals, when every seat sees them
        ev.others = _others(st, name, seats)
    if new and st.g.shown.get(name) == "declared":  # said aloud, with the counters it declares
        ev.said = {c: st.vars[c] if seats is None else st.pvars[c][seats[0]] for c in declared_with(st.g.shown, name)}
    st.emit(ev)


def _others(st: Any, name: str, seats: list) -> list | None:
    """The totals of the other seats' cells of ``name`` (one for each other side, when kept by side),
    or None when one of them is not seen by every seat."""
    side = sides_of(st) if name in st.g.team_vars else None
    out, taken = [], set()
    for x in range(st.n):
        if x in seats:
            continue
        key = side[x] if side is not None else x
        if key in taken:
            continue
        taken.add(key)
        atoms = st._taint.get((name, x)) if st._track else None
        if atoms and (st._knowing is None or not all(sees(atoms, s, st._knowing(s)) for s in range(st.n))):
            return None
        out.append(st.pvars[name][x])
    return out


class ScoreEvent(dict):
    """A ``score`` event: a dict as every event, and, where what each counter depends on is
    tracked, the ``atoms`` of the cell it is about (not part of the event: no log shows them)."""

    atoms: frozenset = NOTHING
    others: list | None = None  # a win's (vars: wins:): the other seats' or sides' totals
    said: dict = {}  # a declaration's: the value of each counter declared with it (shown: {declared_with: …})


def _number(v: Any) -> bool:
    return type(v) is int or type(v) is float
