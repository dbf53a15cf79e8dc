"""Built-in functions of declarations: ``declared`` (whether one was made this hand)
and ``declarer`` (the seat that made it, or none)."""

from __future__ import annotations


def f_declared(cp, node, args):
    d = cp.symbol(args[0], "a declaration", cp.scope.declarations)
    return (lambda st, s, c: d in st.declared), "bool"


def f_declarer(cp, node, args):
    d = cp.symbol(args[0], "a declaration", cp.scope.declarations)
    return (lambda st, s, c: st.declared.get(d)), "seat"
