"""The first stage: an expression's text to its parse tree.

The grammar is ``expr.lark`` (lark, LALR, positions kept). ``parse`` checks the
text against the limits before lark reads it (its length, its nesting in
brackets, the length of its integers), turns lark's errors into located
``RuleError``s with a reader's message, and checks the tree's nesting again
(``- - - 1``, ``not not …``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import Diagnostic, Pos, RuleError
from .syntax import CHAINS


@dataclass(frozen=True)
class ExprLimits:
    """The limits an expression is parsed with when none are given: the defaults
    of the loader's ``Limits`` (which has these fields among others, and is what
    a rule file's expressions are parsed with)."""

    expr_length: int = 1_000  # characters of one expression
    expr_depth: int = 50  # nesting of one expression (brackets, calls, operators)
    int_digits: int = 15  # digits of an integer


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The expression parser, built once per process."""
    grammar = resources.files(__package__).joinpath("expr.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def parse(text: str, pos: Pos, limits=None) -> Tree:
    """The parse tree of ``text`` (found at ``pos``). ``limits`` (the loader's
    ``Limits``, or ``ExprLimits``) bound the length, the nesting and the integers
    of the expression: each is checked on the text before it is parsed, and the
    nesting again on the tree. A located ``RuleError`` for text that is not an
    expression."""
    limits = limits or ExprLimits()
    check_text(text, pos, limits)
    try:
        tree = parser().parse(text)
    except UnexpectedInput as e:
        raise RuleError(
            Diagnostic(
                pos.shift(e.line - 1 if e.line > 0 else 0, (e.column - 1) if e.column > 0 else len(text)),
                parse_message(e, text),
                code="syntax",
            )
        ) from None
    check_depth(tree, text, pos, limits)
    return tree


def check_text(text: str, pos: Pos, limits) -> None:
    """Refuse, before parsing, an expression longer than the limit, nested
    deeper than the limit in brackets, or holding too long an integer."""
    if len(text) > limits.expr_length:
        raise RuleError(
            Diagnostic(
                pos,
                f"the expression is {len(text)} characters long, more than the limit "
                f"of {limits.expr_length} (raise it with --max-expr-length)",
                code="limit",
            )
        )
    depth, line, col = 0, 0, 0
    for ch in text:
        if ch in "([":
            depth += 1
            if depth > limits.expr_depth:
                raise RuleError(
                    Diagnostic(
                        pos.shift(line, col),
                        f"the expression is nested more than "
                        f"{limits.expr_depth} levels deep (raise the limit with "
                        "--max-expr-depth)",
                        code="limit",
                    )
                )
        elif ch in ")]":
            depth = max(depth - 1, 0)
        if ch == "\n":
            line, col = line + 1, 0
        else:
            col += 1
    for m in re.finditer(r"[0-9]+", text):
        if m.end() - m.start() > limits.int_digits:
            before = text[: m.start()]
            at = pos.shift(before.count("\n"), m.start() - (before.rfind("\n") + 1))
            raise RuleError(
                Diagnostic(
                    at,
                    f"this integer has more than {limits.int_digits} digits (raise the limit with --max-int-digits)",
                    code="limit",
                )
            )


def check_depth(tree, text: str, pos: Pos, limits) -> None:
    """Refuse a tree nested deeper than the limit (``- - - … 1``, ``not not
    …``), counting a chain of the same operator as one level. Iterative."""
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if d > limits.expr_depth:
            meta = getattr(node, "meta", None)
            at = pos.shift(meta.line - 1, meta.column - 1) if meta is not None and not meta.empty else pos
            raise RuleError(
                Diagnostic(
                    at,
                    f"the expression is nested more than {limits.expr_depth} levels deep "
                    "(raise the limit with --max-expr-depth)",
                    code="limit",
                )
            )
        for i, ch in enumerate(node.children):
            if isinstance(ch, Tree):
                same = i == 0 and node.data in CHAINS and ch.data == node.data
                stack.append((ch, d if same else d + 1))


_FLOW_HINT = " (inside a YAML list [...] or mapping {...} a comma ends the item: put the expression in quotes)"


def parse_message(e: UnexpectedInput, text: str) -> str:
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        return _parse_message_plain(e, text) + _FLOW_HINT
    return _parse_message_plain(e, text)


def _parse_message_plain(e: UnexpectedInput, text: str) -> str:
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        return f"expression ends too early: {text!r}"
    if isinstance(e, UnexpectedToken):
        expected = sorted(x for x in e.expected if not x.startswith("__"))
        hint = f" (expected {', '.join(_pretty_terms(expected[:6]))})" if expected else ""
        return f"unexpected '{e.token}' in expression{hint}"
    if isinstance(e, UnexpectedCharacters):
        return f"unexpected character {text[e.pos_in_stream or 0]!r} in expression"
    return f"cannot read expression: {e}"


_TERMS = {
    "RPAR": "')'",
    "LPAR": "'('",
    "COMMA": "','",
    "NAME": "a name",
    "NUMBER": "a number",
    "CARD": "a card",
    "STRING": "a string",
    "RSQB": "']'",
    "LSQB": "'['",
    "CMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "$END": "the end of the expression",
    "MINUS": "'-'",
    "DOT": "'.'",
    "THEN": "'then'",
    "ELSE": "'else'",
    "IN": "'in'",
    "AND": "'and'",
    "OR": "'or'",
    "NOT": "'not'",
    "IF": "'if'",
}


def _pretty_terms(names):
    return [_TERMS.get(n, n) for n in names]
