"""Finding quotes in source texts, and splitting source texts into sentences.

A quote matches its source if the words are the same, in the same order,
whatever the line breaks, runs of white space and typographic variants
(curly or straight quotes and apostrophes, en/em dashes or hyphens,
non-breaking spaces, the ellipsis character or three dots). Words, case and
punctuation otherwise count.

Every span returned is in the coordinates of the ORIGINAL text, so that a
caller can quote it back, or compare it with the spans of sentences
(``sentences``) — ``coverage`` does, and a renderer can.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

# typographic variants -> their plain form
_VARIANTS = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u00b4": "'",
    "`": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u201f": '"',
    "\u2033": '"',
    "\u00ab": '"',
    "\u00bb": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2015": "-",
    "\u2212": "-",
    "\u2026": "...",
    "\u00ad": "",  # soft hyphen: invisible
}
_SPACE = re.compile(r"\s", re.UNICODE)  # includes NBSP, narrow NBSP, thin spaces, line breaks


def normalise_map(text: str) -> tuple[str, list[int]]:
    """``text`` normalised, and for each of its characters the index of the
    character of ``text`` it comes from (runs of white space become one space;
    leading and trailing white space go)."""
    out: list[str] = []
    where: list[int] = []
    pending_space = False
    for i, ch in enumerate(text):
        if _SPACE.match(ch) or ch in "\u200b\ufeff":
            pending_space = bool(out)
            continue
        rep = _VARIANTS.get(ch, ch)
        if not rep:
            continue
        if pending_space:
            out.append(" ")
            where.append(i)
            pending_space = False
        for r in rep:
            out.append(r)
            where.append(i)
    return "".join(out), where


def normalise(text: str) -> str:
    """The form in which quotes and sources are compared."""
    return normalise_map(text)[0]


@dataclass(frozen=True)
class Span:
    start: int  # index in the original text
    end: int  # one past the last character

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end


class Text:
    """A source text prepared once for many look-ups."""

    def __init__(self, text: str):
        self.text = text
        self.norm, self.where = normalise_map(text)

    def span(self, nstart: int, nend: int) -> Span:
        """The original span of normalised characters [nstart, nend)."""
        if nend <= nstart:
            i = self.where[nstart] if nstart < len(self.where) else len(self.text)
            return Span(i, i)
        return Span(self.where[nstart], self.where[nend - 1] + 1)

    def find(self, quote: str) -> Span | None:
        q = normalise(quote)
        if not q:
            return None
        i = self.norm.find(q)
        while i >= 0:
            # a quote matches whole words: it may not start or end inside a word
            before = self.norm[i - 1] if i > 0 else " "
            after = self.norm[i + len(q)] if i + len(q) < len(self.norm) else " "
            if not (_word(before) and _word(q[0])) and not (_word(after) and _word(q[-1])):
                return self.span(i, i + len(q))
            i = self.norm.find(q, i + 1)
        return None

    def closest(self, quote: str) -> tuple[float, Span] | None:
        """The passage most like ``quote``: (likeness 0..1, its span).

        Bounded work whatever the quote: the passages of as many words as the
        quote are ranked by the words they share with it, in one pass over the
        text; the few best are aligned word by word with the quote, and the
        likeness of each, character by character, decides. The quote is read
        up to ``CLOSEST_MAX_WORDS`` words."""
        q = normalise(quote)
        if not q or not self.norm:
            return None
        qw = q.split(" ")[:CLOSEST_MAX_WORDS]
        q = " ".join(qw)
        bounds = [(m.start(), m.end()) for m in re.finditer(r"[^ ]+", self.norm)]
        words = [self.norm[x:y] for x, y in bounds]
        m, total = len(qw), len(words)
        if not total:
            return None
        starts = _best_windows(words, qw, CLOSEST_CANDIDATES)
        slack = min(m // 2 + 2, 20)
        best: tuple[float, int, int] | None = None
        sm_chars = difflib.SequenceMatcher(None, autojunk=False)
        sm_chars.set_seq2(q)
        for s in starts:
            lo, hi = max(0, s - slack), min(total, s + m + slack)
            region = words[lo:hi]
            blocks = [
                b for b in difflib.SequenceMatcher(None, qw, region, autojunk=False).get_matching_blocks() if b.size
            ]
            if blocks:
                first, last = blocks[0], blocks[-1]
                a = max(lo, lo + first.b - first.a)  # the quote's unmatched words before
                e = min(hi, lo + last.b + last.size + (m - last.a - last.size))  # and after
            else:
                a, e = s, min(total, s + m)
            if e <= a:
                continue
            sm_chars.set_seq1(self.norm[bounds[a][0] : bounds[e - 1][1]])
            r = sm_chars.ratio()
            if best is None or r > best[0]:
                best = (r, a, e)
        if best is None:
            return None
        r, a, e = best
        return r, self.span(bounds[a][0], bounds[e - 1][1])


CLOSEST_CANDIDATES = 6  # passages aligned with a quote that is not found
CLOSEST_MAX_WORDS = 400  # words of a quote looked at to find its closest passage


def _best_windows(words: list[str], qw: list[str], k: int) -> list[int]:
    """The first words of the ``k`` runs of ``len(qw)`` words that share the
    most words with ``qw`` (as multisets), in one pass: O(len(words))."""
    from collections import Counter
    import heapq

    want = Counter(qw)
    have: Counter = Counter()
    m, shared, scores = len(qw), 0, []
    for i, w in enumerate(words):
        if have[w] < want[w]:
            shared += 1
        have[w] += 1
        if i >= m:
            old = words[i - m]
            have[old] -= 1
            if have[old] < want[old]:
                shared -= 1
        scores.append((shared, -max(0, i - m + 1)))
    if len(words) <= m:
        return [0]
    top = heapq.nlargest(k, scores[m - 1 :])
    return [-start for _, start in top]


def _word(ch: str) -> bool:
    return ch.isalnum()


def find_quote(source_text: str, quote: str) -> Span | None:
    """Where ``quote`` is in ``source_text`` (original coordinates), or None."""
    return Text(source_text).find(quote)


def closest(source_text: str, quote: str) -> tuple[float, str] | None:
    """(likeness 0..1, the passage of ``source_text`` most like ``quote``)."""
    t = Text(source_text)
    c = t.closest(quote)
    if c is None:
        return None
    return c[0], source_text[c[1].start : c[1].end]


# -- sentences --------------------------------------------------------------------
_SENTENCE_END = re.compile(
    r"""[.!?…](?:["'\u2019\u201d)\]]|\[[^\]\n]{1,20}\])*(?=\s+["'\u2018\u201c(\[]?[A-Z0-9À-Ý])"""
)
_LABELLED = re.compile(r"^\s*[0-9]+\s+\w+\s*:")  # "4 players : 12 cards"
_LIST_ITEM = re.compile(r"^\s*(?:[-*•–]\s+|\(?[0-9]+[.)]\s+|\(?[a-z][.)]\s+|[0-9]+\s+\w+\s*:)")


@dataclass(frozen=True)
class Unit:
    """A sentence, a clause standing alone on its line, or a heading."""

    span: Span
    text: str
    kind: str  # sentence | heading


def sentences(text: str) -> list[Unit]:
    """Split a source text into units. A line break ends a unit unless the line
    runs on (it ends without punctuation and the next line starts in lower
    case), so each line of a list (``4 players : 12 cards``) is a unit of its
    own; the rest is split into sentences. A short line without final
    punctuation, or in capitals, is a heading."""
    units: list[Unit] = []
    for bstart, bend in _blocks(text):
        block = text[bstart:bend]
        if _is_heading(block):
            if (u := _unit(text, bstart, bend, "heading")) is not None:
                units.append(u)
            continue
        cuts = [0] + [m.end() for m in _SENTENCE_END.finditer(block)] + [len(block)]
        pieces: list[tuple[int, int]] = []
        for a, b in zip(cuts, cuts[1:]):
            if pieces and not re.search(r"[^\W\d_]", text[pieces[-1][0] : pieces[-1][1]]):
                pieces[-1] = (pieces[-1][0], bstart + b)  # "1." belongs to what follows
            else:
                pieces.append((bstart + a, bstart + b))
        for a, b in pieces:
            u = _unit(text, a, b, "sentence")
            if u is not None:
                units.append(u)
    return units


def _blocks(text: str):
    lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]*\S[^\n]*", text)]
    cur = None
    for i, (a, b) in enumerate(lines):
        if cur is None:
            cur = [a, b]
        else:
            cur[1] = b
        line = text[a:b].rstrip()
        nxt = text[lines[i + 1][0] : lines[i + 1][1]].lstrip() if i + 1 < len(lines) else ""
        blank_between = i + 1 < len(lines) and "\n\n" in re.sub(r"[ \t]", "", text[b : lines[i + 1][0]])
        runs_on = nxt[:1].islower() and not line.endswith((".", "!", "?", ":", ";")) and not blank_between
        if not runs_on:
            yield cur[0], cur[1]
            cur = None
    if cur is not None:
        yield cur[0], cur[1]


def _unit(text, a, b, kind) -> Unit | None:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    if a == b or not re.search(r"[^\W\d_]", text[a:b]):
        return None
    return Unit(Span(a, b), text[a:b], kind)


def _is_heading(block: str) -> bool:
    s = block.strip()
    letters = [c for c in s if c.isalpha()]
    if not letters:
        return False
    if all(c.isupper() for c in letters) and len(s.split()) <= 10 and "\n" not in s:
        return True
    return (
        len(s.split()) <= 6 and "\n" not in s and not _LABELLED.match(s) and not s.endswith((".", "!", "?", ":", ";"))
    )
