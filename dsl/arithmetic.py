"""Compiling arithmetic: a chain ``a + b - c * d …`` of numbers, and seats moved
round the table (``seat + 1``, the distance ``seat - dealer``), a divisor of 0 a
located error (when the file is loaded if it is a literal, else when it is met).
``Arithmetic`` is a part of ``closures.Compiler``."""

from __future__ import annotations

from lark import Tree

from .errors import Diagnostic, RuleError
from .expr import Fn
from .kinds import Checker
from .syntax import text_of


class Arithmetic(Checker):
    """The compiler's ``c_binop``, checked by ``Checker.arithmetic``."""

    def c(self, node) -> tuple[Fn, str]:  # the compiler's (closures.Compiler.c)
        raise NotImplementedError

    def const(self, node) -> bool:  # the compiler's (closures.Compiler.const)
        raise NotImplementedError

    def c_binop(self, node):
        """A chain ``a + b - c …`` (left-associative, any length) is compiled
        one term after another, without recursing per term; a long chain
        runs as one loop rather than as nested closures."""
        spine = [node]
        while isinstance(spine[-1].children[0], Tree) and spine[-1].children[0].data == "binop":
            spine.append(spine[-1].children[0])
        f, k = self.c(spine[-1].children[0])
        steps = []
        for n in reversed(spine):
            f, k, step = self._binop(n, f, k)
            steps.append(step)
        if len(steps) <= 8:
            return f, k
        first = self.c(spine[-1].children[0])[0]

        def chain(st, s, c):
            v = first(st, s, c)
            for fr, op in steps:
                v = op(st, v, fr(st, s, c))
            return v

        return chain, k

    def _binop(self, node, fl, kl):
        """One link of a chain: (closure of the chain so far, its type, and
        (right operand, how to combine) for the loop form)."""
        left, op, right = node.children
        fr, kr = self.c(right)
        op = str(op)
        self.arithmetic(node, op, kl, kr)
        if op in "+-" and (kl == "seat" or kr == "seat"):
            if op == "-" and kl == "seat" and kr == "seat":  # distance in play order
                return (
                    (lambda st, s, c: (fl(st, s, c) - fr(st, s, c)) % st.n),
                    "num",
                    (fr, lambda st, a, b: (a - b) % st.n),
                )
            if op == "+":
                return (
                    (lambda st, s, c: (fl(st, s, c) + fr(st, s, c)) % st.n),
                    "seat",
                    (fr, lambda st, a, b: (a + b) % st.n),
                )
            return (
                (lambda st, s, c: (fl(st, s, c) - fr(st, s, c)) % st.n),
                "seat",
                (fr, lambda st, a, b: (a - b) % st.n),
            )
        if op == "+":
            return (lambda st, s, c: fl(st, s, c) + fr(st, s, c)), "num", (fr, lambda st, a, b: a + b)
        if op == "-":
            return (lambda st, s, c: fl(st, s, c) - fr(st, s, c)), "num", (fr, lambda st, a, b: a - b)
        if op == "*":
            return (lambda st, s, c: fl(st, s, c) * fr(st, s, c)), "num", (fr, lambda st, a, b: a * b)
        # '/' and '%': a divisor known when the file is loaded must not be 0; one
        # computed in play is checked when it is computed, at the expression's place
        if self.const(right) and fr(None, None, None) == 0:
            self.fail(right, f"division by zero: '{op}' by 0")
        where = self.where(right)
        what = "division" if op == "/" else "remainder"

        def by_zero():
            return RuleError(
                Diagnostic(
                    where, f"{what} by zero: the divisor {text_of(self.text, right)!r} is 0 here", code="runtime"
                )
            )

        if op == "/":

            def div_of(st, a, b):
                try:
                    return a // b
                except ZeroDivisionError:
                    raise by_zero() from None

            def div(st, s, c):
                return div_of(st, fl(st, s, c), fr(st, s, c))

            return div, "num", (fr, div_of)

        def mod_of(st, a, b):
            try:
                return a % b
            except ZeroDivisionError:
                raise by_zero() from None

        def mod(st, s, c):
            return mod_of(st, fl(st, s, c), fr(st, s, c))

        return mod, "num", (fr, mod_of)
