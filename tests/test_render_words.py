"""Every rule book of the corpus in words: no expression of the rule language
is left in a rendered book, in any rule file, with any option, in Markdown or
HTML. What counts as expression syntax (outside the sources' quotations and
the links, which are left as they are):

- a comparison operator: ``==``, ``!=``, ``<=``, ``>=``;
- a card field read as code: ``card.suit``, ``x.rank``, ``last_card.colour``;
- a call: a name and an opening parenthesis with no space between, followed
  by an argument (``hand(seat)``, ``max_cards(``, ``esp(leader)``); English
  puts a space before a parenthesis;
- ``if … then … else`` written as code;
- any code span (Markdown backticks, HTML ``<code>``) holding a parenthesis, a
  dot, a bracket or an operator: the names of rule files, options and sources
  are the only code a book shows.
"""

import html
import re

import pytest

from academie.dsl.loader import corpus_ids, resolve
from academie.render import render
from academie.words import plural_of, words

SYNTAX = re.compile(
    r"==|!=|<=|>=|\b[a-z_]+\.(?:suit|rank|colour)\b|\b[A-Za-z_][A-Za-z0-9_]*\([A-Za-z0-9_]|\bif\b[^.;]*\bthen\b[^.;]*\belse\b"
)
CODE_SYNTAX = re.compile(r"[()\[\].=<>!*+]")
QUOTED = re.compile(r"“[^”]*”|<q>.*?</q>|\\?<https?://[^>]*>|https?://\S+", re.S)


def _books():
    for cid in corpus_ids():
        options = [()] + [(o,) for o in (resolve(cid).data.get("options") or {})]
        for opts in options:
            for fmt in ("md", "html"):
                yield cid, opts, fmt


@pytest.mark.parametrize(("cid", "opts", "fmt"), list(_books()))
def test_no_expression_in_a_rendered_book(cid, opts, fmt):
    text = render(cid, options=opts, fmt=fmt)
    spans = re.findall(r"`([^`\n]*)`", text) if fmt == "md" else re.findall(r"<code>(.*?)</code>", text, re.S)
    code = [html.unescape(s) for s in spans if CODE_SYNTAX.search(html.unescape(s))]
    assert not code, f"{cid} {opts} {fmt}: code left in the book: {code[:3]}"
    prose = QUOTED.sub(" ", html.unescape(re.sub(r"<(?!https?:)[^>]*>", " ", text)) if fmt == "html" else text)
    found = [prose[max(0, m.start() - 60) : m.end() + 60] for m in SYNTAX.finditer(prose)]
    assert not found, f"{cid} {opts} {fmt}: expression syntax in the book: {found[:3]}"


def test_a_list_of_ranks_is_made_plural_item_by_item():
    """Piquet's count of kings, queens and jacks read "the number of king,s a queen or a jack"."""
    assert plural_of("a king, a queen or a jack") == "kings, queens or jacks"
    said = words("count(hand(seat), card.rank in [K, Q, J])")
    assert said == "the number of kings, queens or jacks in the player's hand"


@pytest.mark.parametrize(
    ("text", "kind", "want"),
    [
        (
            "max_cards(hand(seat), if run(hand(seat), card) >= 3 then 10 * run(hand(seat), card) + rank(card) else 0)",
            "value",
            "the greatest, over the cards of the player's hand, of",
        ),
        (
            "count(hand(seat), x, x.rank == card.rank)",
            "value",
            "the number of cards in the player's hand of the same rank as the card",
        ),
        (
            "team_sum(tricks_won(seat))",
            "value",
            "the sum over the player's side of the number of tricks won by the player",
        ),
        ("sum_cards(trick, x, rank(x))", "value", "the sum, over each card x of the trick, of the rank of card x"),
        ("card != AH", "card", "a card other than the ace of hearts"),
    ],
)
def test_expressions_in_words(text, kind, want):
    said = words(text, kind)
    assert said is not None and said.startswith(want), said
    assert not SYNTAX.search(said), said
