"""The front end of the expression language: an expression string to a compiled
``Expr``, in stages, each in its own module:

1. ``parse``: the text to a parse tree (grammar ``expr.lark``), within the limits,
   lark's errors turned into located ``RuleError``s;
2. ``closures`` (with ``kinds``): the tree to a closure ``f(st, s, c)``, the kind of
   each part checked as it is compiled; the built-in functions in ``functions``;
3. ``optimise``: values kept per what they read, whole-hand filters, hoisting (on
   unless switched off with ``optimise.off()``);
4. ``codegen``: an expression of the game or a seat that the optimisations leave as it
   is becomes one Python function compiled from source written from the checked tree
   (on unless ``ACADEMIE_CODEGEN=0`` or ``codegen.off()``).

``syntax`` reads parse trees for every stage; ``expr`` holds ``Scope`` and
``Expr``; ``suggest`` the "did you mean" of messages. The names other modules use
are importable from here.
"""

from __future__ import annotations

from . import codegen, optimise
from .closures import Compiler
from .errors import Diagnostic, Pos, RuleError
from .expr import BOUND, Expr, Fn, Scope, StateView
from .functions import FUNCTIONS
from .functions.seats import sides_of
from .kinds import INDEX_HINT, truth_hint
from .parse import ExprLimits, parse, parser
from .suggest import suggest
from .syntax import shape, tokens

# the names model.py reads under their former names
_INDEX_HINT, _truth_hint = INDEX_HINT, truth_hint

__all__ = [
    "BOUND",
    "FUNCTIONS",
    "Expr",
    "ExprLimits",
    "Fn",
    "Scope",
    "StateView",
    "compile_expr",
    "parser",
    "sides_of",
    "suggest",
]


def compile_expr(text: str, pos: Pos, scope: Scope, kind: str = "game", limits=None) -> Expr:
    """Parse and compile ``text`` (found at ``pos``) into an ``Expr``.

    ``kind`` says what is bound: ``game`` (nothing), ``seat`` (``seat``),
    ``card`` (``card`` and ``seat``), ``value`` (``value``, a number a seat
    may choose, and ``seat``). ``limits`` (the loader's ``Limits``)
    bound the length, the nesting and the integers of the expression: each is
    checked on the text before it is parsed, and the nesting again on the tree."""
    text = str(text)
    tree = parse(text, pos, limits)
    on = optimise.enabled()
    cp = (optimise.Optimising if on else Compiler)(text, pos, scope, BOUND[kind])
    try:
        fn, k = cp.c(tree)
    except RecursionError:
        raise RuleError(
            Diagnostic(pos, "the expression is nested too deeply to compile (lower --max-expr-depth)", code="limit")
        ) from None
    names = frozenset(str(t) for t in tokens(tree) if t.type == "NAME")
    filt, code = None, None
    if on:
        fn0, fn = fn, optimise.whole(text, pos, scope, kind, tree, fn)
        if kind == "card":
            filt = optimise.hand_filter(cp, fn, tree)
        elif fn is fn0 and kind in ("game", "seat") and codegen.enabled():
            code = codegen.expr_code(cp, tree)  # one Python function, not a closure per part
            if code is not None and codegen.pays(code):
                fn = codegen.function(code)
    return Expr(fn, text, pos, k, names, filt, shape(tree), code)
