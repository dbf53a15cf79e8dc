"""The statements of a rule file: one per rule element, in plain words, with
the citations (source id + quote) and editorial notes of the element it comes
from. ``describe`` makes them (``academie.describe``); this module holds what
they are and how an element's citations are found in the document.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .dsl.loader import Doc

# The aspects of a game, in the order of a rule book.
ASPECTS = [
    ("players", "Players"),
    ("pack", "The cards"),
    ("orders", "Rank of the cards"),
    ("direction", "Direction of play"),
    ("dealing", "The deal"),
    ("play", "The play"),
    ("end", "What ends a hand"),
    ("scoring", "Stakes, scoring and payments"),
    ("game", "The game"),
]
ASPECT_TITLES = dict(ASPECTS)


@dataclass
class Cite:
    source: str | None
    quote: str
    translation: str | None = None  # an English translation of a quote in another language
    translation_source: str | None = None  # the published translation's source id; none: the project's own


@dataclass
class Editorial:
    reason: str
    evidence: str


@dataclass
class Statement:
    aspect: str
    key: tuple
    text: str  # plain words; expressions not put in words are in `code`
    value: Any  # the rule's data, without citations: what compare compares
    cites: list[Cite] = field(default_factory=list)
    editorial: list[Editorial] = field(default_factory=list)
    path: tuple = ()  # where the element is in the document
    only: str | None = None  # "render" or "compare": a statement for one use only
    default: bool = False  # the file is silent: this is the rule language's default

    @property
    def value_json(self) -> str:
        return json.dumps(self.value, sort_keys=True, ensure_ascii=False, default=str)

    def citation_json(self) -> dict:
        return {
            "cites": [
                {"source": c.source, "quote": c.quote}
                | ({"translation": c.translation} if c.translation else {})
                | ({"translation_source": c.translation_source} if c.translation_source else {})
                for c in self.cites
            ],
            "editorial": [{"reason": e.reason, "evidence": e.evidence} for e in self.editorial],
        }


# -- helpers ----------------------------------------------------------------------
_META = ("cite", "editorial", "description", "before", "after")


def strip(node):
    """The rule data without citations: what a rule says, not who says it."""
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k not in _META}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node


def get(d, path):
    for k in path:
        if isinstance(d, dict):
            d = d.get(k)
        elif isinstance(d, list) and isinstance(k, int) and 0 <= k < len(d):
            d = d[k]
        else:
            return None
    return d


def citations(doc: Doc, path: tuple) -> tuple[list[Cite], list[Editorial], tuple]:
    """The cites and editorial notes of the rule element at ``path``, or of
    its nearest ancestor that is one; and the element's path."""
    p = tuple(path)
    while True:
        node = get(doc.data, p)
        if isinstance(node, dict) and ("cite" in node or "editorial" in node):
            return cites_of(doc, p, node), editorial_of(node), p
        if not p:
            return [], [], ()
        p = p[:-1]


def cites_of(doc: Doc, path: tuple, node: dict) -> list[Cite]:
    raw = node.get("cite")
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for i, c in enumerate(items):
        cpath = path + ("cite",) + ((i,) if isinstance(raw, list) else ())
        if isinstance(c, str):
            out.append(Cite(doc.defaults.get(doc.pos(cpath).file), c))
        elif isinstance(c, dict):
            tr, trs = c.get("translation"), c.get("translation_source")
            out.append(
                Cite(
                    c.get("source"),
                    str(c.get("quote", "")),
                    str(tr) if tr else None,
                    str(trs) if trs else None,
                )
            )
    return out


def editorial_of(node: dict) -> list[Editorial]:
    e = node.get("editorial")
    if not isinstance(e, dict):
        return []
    return [Editorial(" ".join(str(e.get("reason", "")).split()), " ".join(str(e.get("evidence", "")).split()))]
