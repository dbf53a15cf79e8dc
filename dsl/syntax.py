"""Reading the parse tree of an expression: its tokens, its text, the operands of
a chain, a name as written, the arguments of a call. Shared by every stage after
the parse (kind checking, compilation, the optimisations, ``dsl.reads``)."""

from __future__ import annotations

from lark import Token, Tree

CHAINS = ("binop", "and_op", "or_op")  # left-associative: a chain of any length is one level


def text_of(text: str, node) -> str:
    """The source text of ``node`` (a one-line expression), else the whole text."""
    meta = getattr(node, "meta", None)
    if isinstance(node, Token) and node.start_pos is not None:
        return text[node.start_pos : node.end_pos]
    if meta is not None and not getattr(meta, "empty", True) and meta.start_pos is not None:
        return text[meta.start_pos : meta.end_pos]
    return text


def tokens(tree):
    """Every token of a tree, without recursion."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            yield node
        elif isinstance(node, Tree):
            stack.extend(reversed(node.children))


def chain_operands(node) -> list:
    """The operands of a left-associative chain ``a and b and c`` (same operator)."""
    out = []
    while (
        isinstance(node, Tree)
        and node.data in CHAINS
        and isinstance(node.children[0], Tree)
        and node.children[0].data == node.data
    ):
        out.append(node.children[-1])
        node = node.children[0]
    out += [node.children[-1], node.children[0]] if isinstance(node, Tree) and node.data in CHAINS else [node]
    return out[::-1]


def shape(tree) -> str | None:
    """``card.suit == led`` (either way round) is recognised, whatever its spacing."""
    if isinstance(tree, Tree) and tree.data == "compare" and str(tree.children[1]) == "==":
        sides = {plain_name(tree.children[0]), plain_name(tree.children[2])}
        if sides == {"card.suit", "led"}:
            return "card.suit == led"
        left, right = tree.children[0], tree.children[2]  # count(hand(seat)) == 0
        if (
            isinstance(right, Tree)
            and right.data == "number"
            and str(right.children[0]) == "0"
            and isinstance(left, Tree)
            and left.data == "call"
            and str(left.children[0]) == "count"
            and len(left.children[1].children) == 1
        ):
            z = left.children[1].children[0]
            if (
                isinstance(z, Tree)
                and z.data == "call"
                and str(z.children[0]) == "hand"
                and len(z.children) > 1
                and len(z.children[1].children) == 1
                and plain_name(z.children[1].children[0]) == "seat"
            ):
                return "count(hand(seat)) == 0"
    return None


def plain_name(node) -> str | None:
    if isinstance(node, Tree) and node.data == "name":
        return str(node.children[0])
    if isinstance(node, Tree) and node.data == "attr" and is_bound_card(node.children[0]):
        return "card." + str(node.children[1])
    return None


def is_bound_card(node) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) == "card"


def source(text: str, node) -> str | None:
    """The text of ``node`` in its expression, or None when the parser kept no place for it."""
    meta = getattr(node, "meta", None)
    if meta is None or getattr(meta, "empty", True) or meta.start_pos is None:
        return None
    return text[meta.start_pos : meta.end_pos]


def names_in(node) -> set[str]:
    return {str(t) for t in tokens(node) if t.type == "NAME"} if isinstance(node, Tree) else set()


def call_args(node) -> list:
    """The argument nodes of a call (none for ``teams()``)."""
    return list(node.children[1].children) if len(node.children) > 1 and node.children[1] is not None else []
