"""How a counter's value is told, in the words of the game (``vars: NAME: say:`` and ``parts:``).

``say`` is a sentence with places, ``{name}`` (nothing else is read in it: no format, no eval);
each place is a part of the value, named in ``parts``: an expression of the rule language with
``value`` bound to the counter's value (``value / 100``), compiled when the file is loaded, or
``{of: EXPRESSION, words: {NUMBER: WORD}}``, the number said by its word (``{5: quint}``; a number
the table does not name is said in figures). ``{value}`` is the value itself, without a part.
A part reads the value alone (``value``, numbers, arithmetic, ``min``, ``max``, ``abs``): what is
told of a counter is what its value holds, seen by whoever sees the counter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .compiler import Expr, Scope, compile_expr
from .errors import Diagnostic, Pos, RuleError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# the names a part may read: the value and the functions of numbers alone
READS = frozenset({"value", "min", "max", "abs", "true", "false"})


class _Value:
    """The state a part is worked out on: only the value (``value`` reads ``under_test``)."""

    __slots__ = ("under_test",)

    def __init__(self, v: int):
        self.under_test = v


@dataclass(frozen=True)
class Part:
    """A part of a value: ``of`` (None: the value itself) and the words of its numbers."""

    of: Expr | None = None
    words: dict[int, str] = field(default_factory=dict)

    def tell(self, value: int) -> str:
        n = value if self.of is None else self.of.fn(_Value(value), None, None)
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(n)
        return self.words.get(n, str(n))


@dataclass(frozen=True)
class Saying:
    """A counter's ``say``: its pieces (text, or ``(name,)`` a place) and its parts."""

    pieces: tuple
    parts: dict[str, Part]

    def tell(self, value: Any) -> str | None:
        """The value in words; None for a value that is no number, or a part that cannot be worked
        out of it (a division by zero): then the counter is told as it would be without ``say``."""
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        out = []
        for p in self.pieces:
            if isinstance(p, str):
                out.append(p)
                continue
            try:
                out.append(self.parts[p[0]].tell(value))
            except (RuleError, TypeError, ArithmeticError):
                return None
        return "".join(out)


def template(text: str) -> tuple[tuple, str | None]:
    """``say``'s text as pieces: text, and ``(name,)`` for each ``{name}``; and the error, if any
    (a brace that opens no ``{name}``, or closes none)."""
    pieces: list = []
    i = 0
    while i < len(text):
        j = min((k for k in (text.find("{", i), text.find("}", i)) if k >= 0), default=len(text))
        if j > i:
            pieces.append(text[i:j])
        if j == len(text):
            break
        m = _NAME.match(text, j + 1)
        if text[j] == "}" or m is None or not text.startswith("}", m.end()):
            return (), f"at character {j + 1}: a place is written {{name}}, a name in braces"
        pieces.append((m.group(),))
        i = m.end() + 1
    return tuple(pieces), None


def sayings(
    vars_: Any, pos: Callable[[tuple], Pos], scope: Scope | None = None, limits: Any = None
) -> tuple[dict[str, Saying], list]:
    """The ``say`` of each counter of ``vars_`` (a rule file's ``vars:``), and the located errors
    of those that cannot be read (``pos``: the place of a path in the file; ``scope``: the names
    the file declares, so that a part that reads one is told so)."""
    out: dict[str, Saying] = {}
    errors: list = []

    def err(path: tuple, msg: str) -> None:
        errors.append(Diagnostic(pos(path), msg, code="model"))

    for k, v in (vars_ or {}).items() if isinstance(vars_, dict) else ():
        if not isinstance(v, dict):
            continue
        say, parts_ = v.get("say"), v.get("parts")
        if say is None:
            if parts_ is not None:
                err(("vars", k, "parts"), f"counter '{k}' has parts: but no say: to tell them in")
            continue
        if not isinstance(say, str):
            continue
        pieces, problem = template(say)
        if problem is not None:
            err(("vars", k, "say"), f"counter '{k}': say: {problem}")
            continue
        parts: dict[str, Part] = {"value": Part()}
        ok = True
        failed: set = set()
        for name, spec in (parts_ or {}).items() if isinstance(parts_, dict) else ():
            path: tuple = ("vars", k, "parts", name)
            text, words = (spec.get("of"), spec.get("words") or {}) if isinstance(spec, dict) else (spec, {})
            if isinstance(spec, dict):
                path = (*path, "of")
            failed.add(name)
            if isinstance(text, bool) or not isinstance(text, (str, int)):
                err(path, f"part '{name}' of counter '{k}' is no expression: a part is a number worked out of value")
                ok = False
                continue
            try:
                e = compile_expr(str(text), pos(path), scope or Scope(), "value", limits)
            except RuleError as x:
                errors.extend(x.diagnostics)
                ok = False
                continue
            extra = sorted(e.names - READS)
            if extra or e.kind not in ("num", "any"):
                what = f"reads '{extra[0]}'" if extra else "gives no number"
                err(path, f"part '{name}' of counter '{k}' {what}: a part is a number worked out of value alone")
                ok = False
                continue
            failed.discard(name)
            table = {int(n): str(w) for n, w in words.items() if str(n).lstrip("-").isdigit()}
            parts[str(name)] = Part(e, table)
        for p in pieces:
            if not isinstance(p, str) and p[0] not in parts and p[0] not in failed:
                known = ", ".join(f"{{{n}}}" for n in parts)
                err(("vars", k, "say"), f"counter '{k}': say: names no part '{p[0]}' (its places: {known})")
                ok = False
        if ok:
            out[str(k)] = Saying(pieces, parts)
    return out, errors
