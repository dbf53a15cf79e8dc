"""A list of effects as one generated Python function of (state, seat): the ``when:``
tests and the values of its ``set``/``add`` effects written inline (``dsl.codegen``),
so that a play runs its ``on_play`` list with no closure called per effect or per part
of an expression. Every other effect (a ``take``, a ``pay``, one ``at:`` another seat
or ``at: each``, a counter kept by team) is its closure (``effects.effect_fn``), called
from the source; so is the change of a counter while events are kept (its event is
made by ``counter_events``). The function does what ``effects.build_runner``'s does:
the effects in order, the first seat an effect gives back (``end_trick``) returned.

Nothing of the rule file's text is in the source: counters' names are constants of
the function's namespace (``dsl.codegen.const_name``), expressions the checked
trees' sources. Not used while the hidden cards each counter's value depends on are
recorded (``visibility``): that path runs the closures.
"""

from __future__ import annotations

from typing import Any, Callable

from ..dsl import codegen
from ..dsl.errors import RuleError
from ..dsl.expr import Expr
from ..dsl.gamedef import Effect


def _inline(e: Effect) -> bool:
    return e.op in ("set", "add") and not e.team_vars and e.each in (None, "each")


def seat_at(at: Expr) -> Callable[[Any, int], int]:
    """The seat ``at:`` names, as ``effects.effect_fn`` takes it (a located error if it names none)."""
    atf = at.fn

    def f(st, seat):
        v = atf(st, seat, None)
        if not isinstance(v, int) or isinstance(v, bool):
            raise RuleError(f"at: {at.text} names no seat here (it is {v!r})", at.pos, code="runtime")
        return v % st.n

    return f


def _counters(
    ns: dict, e: Effect, logged: Callable, pad: str, watch: frozenset = frozenset(), keep: bool = False
) -> list[str]:
    """The counters ``e`` sets or adds to, for the seat ``s``; ``_w = True`` when one of
    ``watch`` may have changed (``watch_runner``). ``keep``: while events are kept, by the
    function that changes them with their events (``logged(e)``)."""
    if keep:  # each effect tests it again: a sink told of an event may silence the state
        lines = [f"{pad}if st._logging:", f"{pad}    {codegen.const_name(ns, logged(e))}(st, s)"]
        if watch.intersection(e.args):
            lines.append(f"{pad}    _w = True")
        return [*lines, f"{pad}else:", *_counters(ns, e, logged, pad + "    ", watch)]
    lines = []
    for name, (per_seat, expr) in e.args.items():
        k = codegen.const_name(ns, name)
        lines += _bounded_value(ns, expr, pad)
        cell = f"st.pvars[{k}][s]" if per_seat else f"st.vars[{k}]"
        lines.append(f"{pad}{cell} {'=' if e.op == 'set' else '+='} _v")
        if name in watch:  # adding nothing changes nothing
            lines.append(f"{pad}_w = True" if e.op == "set" else f"{pad}_w = _w or _v != 0")
    return lines


def _value(ns: dict, expr) -> str:
    """The source of an expression about the seat ``s`` (its closure when it has none)."""
    code = getattr(expr, "code", None)
    if code is not None and code.limit is None:
        ns.update(code.ns)
        return code.src
    return f"{codegen.const_name(ns, expr.fn)}(st, s, None)"


def _bounded_value(ns: dict, expr, pad: str) -> list[str]:
    """``_v = `` the value of a counter's expression, a number out of its bound refused as
    the bounded closure refuses it (``build_pieces.bounded``: called, it raises the error)."""
    code = getattr(expr, "code", None)
    if code is None or code.limit is None:
        return [f"{pad}_v = {_value(ns, expr)}"]
    ns.update(code.ns)
    if code.src.removeprefix("-").isdigit() and abs(int(code.src)) < code.limit:  # a number within its bound
        return [f"{pad}_v = {code.src}"]
    check = codegen.const_name(ns, code.check)
    return [
        f"{pad}_v = {code.src}",
        f"{pad}if _type(_v) is _int and not ({-code.limit!r} < _v < {code.limit!r}):",
        f"{pad}    _v = {check}(st, s, None)",
    ]


def code_runner(
    effects: list[Effect], fns: list[Callable], logged: Callable, unguarded: Callable, watch: frozenset | None = None
) -> Callable[[Any, Any], Any] | None:
    """``effects`` (each compiled to ``fns``) as one generated function, or None when
    no effect of the list is written inline (or the list is longer than the bound).
    ``logged(effect)``: the function changing its counters with their events;
    ``unguarded(effect)``: the effect's closure without its ``when:`` test. With ``watch``
    (counters' names; only for a list whose every effect is inline) it returns whether one
    of those may have changed (True) or surely has not (False), instead of None."""
    if not any(_inline(e) or e.when is not None for e in effects) or len(effects) > codegen.MAX_EFFECTS:
        return None
    if watch is not None and not all(_inline(e) for e in effects):
        return None
    ns: dict = {}
    # the seats of ``at: each`` from the dealer's next, read once when every effect is inline
    # (a set or an add changes neither the dealer nor the number of seats)
    seats_once = all(_inline(e) for e in effects) and sum(1 for e in effects if e.each) > 1
    fast = _body(ns, effects, fns, logged, unguarded, watch, False, seats_once)
    kept = _body(ns, effects, fns, logged, unguarded, watch, True, seats_once)
    # played without events, nothing in the list can start keeping them (no sink is told of
    # anything): tested once, at the start; while they are kept, a sink told of an event may
    # stop them (``silence()``), so the second function tests again at each effect
    src = [
        *codegen.hoisted(["def _run_kept(st, _seat):", *kept]),
        *codegen.hoisted(["def _run(st, _seat):", "    if st._logging:", "        return _run_kept(st, _seat)", *fast]),
    ]
    return codegen.build("\n".join(src) + "\n", ns, "_run")


def _body(
    ns: dict,
    effects: list[Effect],
    fns: list[Callable],
    logged: Callable,
    unguarded: Callable,
    watch: frozenset | None,
    keep: bool,
    seats_once: bool,
) -> list[str]:
    """The lines of ``code_runner``'s function after its ``def``; ``keep``: events are kept."""
    lines = ["    s, c, _w = _seat, None, False"]
    if seats_once:
        lines.append("    _n, _first = st.n, st.dealer + 1")
    for e, fn in zip(effects, fns):
        if not _inline(e):
            if e.op == "end_trick" and e.when is None and e.at is None and e.args.get("leader") is None:
                lines.append("    return _seat")
                break
            pad = "    "
            if e.when is not None and not e.each:  # its test inline, the rest of it its closure
                lines.append(f"    if {_value(ns, e.when)}:")
                pad, fn = "        ", unguarded(e)
            k = codegen.const_name(ns, fn)
            lines += [f"{pad}_r = {k}(st, s)", f"{pad}if _r is not None:", f"{pad}    return _r"]
            continue
        if e.each:  # every seat from the dealer's next, when: tested for each
            if not seats_once:
                lines.append("    _n, _first = st.n, st.dealer + 1")
            lines += [
                "    for _k in _range(_n):",
                "        s = (_first + _k) % _n",
            ]
            if e.when is not None:
                lines.append(f"        if {_value(ns, e.when)}:")
            lines += _counters(
                ns, e, logged, "            " if e.when is not None else "        ", watch or frozenset(), keep
            )
            lines.append("    s = _seat")
            continue
        pad = "    "
        if e.when is not None:  # tested first, about the seat in hand: it guards at:
            lines.append(f"    if {_value(ns, e.when)}:")
            pad = "        "
        if e.at is not None:
            lines.append(f"{pad}s = {codegen.const_name(ns, seat_at(e.at))}(st, s)")
        lines += _counters(ns, e, logged, pad, watch or frozenset(), keep)
        if e.at is not None:
            lines.append(f"{pad}s = _seat")
    else:
        lines.append("    return _w" if watch is not None else "    return None")
    return lines


def end_scan(rules: list) -> Callable[[Any, int], bool] | None:
    """Whether any of the end ``rules`` holds for any seat, as one generated function of
    (state, mover) testing them as ``Tricks._check_end`` does (rule by rule, each seat from
    the mover on, up to the first that holds), with no call per seat; None when a rule reads
    only the seat's own zones (tested for the seats that changed only) or has no source."""
    codes = [getattr(r.when, "code", None) for r in rules]
    if not rules or any(r.zone_only or k is None or k.limit is not None for r, k in zip(rules, codes)):
        return None
    ns: dict = {}
    lines = ["def _scan(st, _m):", "    c, _n = None, st.n"]
    for k in codes:
        assert k is not None
        ns.update(k.ns)
        lines += [
            "    for _k in _range(_n):",
            "        s = (_m + _k) % _n",
            f"        if {k.src}:",
            "            return True",
        ]
    lines.append("    return False")
    # every read is in a loop over the seats: each dictionary read is taken once, at the start
    return codegen.build("\n".join(codegen.hoisted(lines, least=1)) + "\n", ns, "_scan")
