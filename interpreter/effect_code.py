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
from ..dsl.gamedef import Effect


def _inline(e: Effect) -> bool:
    return e.op in ("set", "add") and not e.team_vars and not e.each and e.at is None


def _value(ns: dict, expr) -> str:
    """The source of an expression about the seat ``s`` (its closure when it has none)."""
    code = getattr(expr, "code", None)
    if code is not None:
        ns.update(code.ns)
        return code.src
    return f"{codegen.const_name(ns, expr.fn)}(st, s, None)"


def code_runner(effects: list[Effect], fns: list[Callable], logged: Callable) -> Callable[[Any, Any], Any] | None:
    """``effects`` (each compiled to ``fns``) as one generated function, or None when
    no effect of the list is written inline (or the list is longer than the bound).
    ``logged(effect)``: the function changing its counters with their events."""
    if not any(_inline(e) for e in effects) or len(effects) > codegen.MAX_EFFECTS:
        return None
    ns: dict = {}
    lines = ["def _run(st, s):", "    c = None"]
    for e, fn in zip(effects, fns):
        if not _inline(e):
            if e.op == "end_trick" and e.when is None and e.at is None and e.args.get("leader") is None:
                lines.append("    return s")
                break
            lines += [f"    _r = {codegen.const_name(ns, fn)}(st, s)", "    if _r is not None:", "        return _r"]
            continue
        pad = "    "
        if e.when is not None:
            lines.append(f"    if {_value(ns, e.when)}:")
            pad = "        "
        lines += [f"{pad}if st._logging:", f"{pad}    {codegen.const_name(ns, logged(e))}(st, s)", f"{pad}else:"]
        for name, (per_seat, expr) in e.args.items():
            k = codegen.const_name(ns, name)
            lines.append(f"{pad}    _v = {_value(ns, expr)}")
            cell = f"st.pvars[{k}][s]" if per_seat else f"st.vars[{k}]"
            lines.append(f"{pad}    {cell} {'=' if e.op == 'set' else '+='} _v")
    else:
        lines.append("    return None")
    return codegen.build("\n".join(lines) + "\n", ns, "_run")
