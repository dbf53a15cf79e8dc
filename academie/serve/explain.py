"""Every rule explained by its source: the rule element an event names (its
``rule`` key, a path in the resolved rule document) or the follow rule that
refused a move, looked up with its quotations and editorial notes.

Used by ``academie serve``, ``academie replay`` and the site's replay pages.
Nothing here reads a file named by a user: the document is the one already
loaded, and sources are looked up by id in the installed corpus.
"""

from __future__ import annotations

from typing import Any

from ..describe import citations, get
from ..dsl.loader import Doc, source_ids
from ..dsl.text import safe
from ..render import source_title
from ..narrate import card_text


def path_text(path: Any) -> str:
    """A rule path as the YAML keys read: ``hand.play.follow.must.0``."""
    return ".".join(str(p) for p in path) if path else ""


def explain(doc: Doc, path: Any) -> dict | None:
    """The rule element at ``path`` (or its nearest cited ancestor) with what
    the sources say: ``{"path", "element", "cites": [{source, title, quote}],
    "editorial": [{reason, evidence}]}``; None for a path that is not a list
    of keys (an event of an older log, a hand-edited one)."""
    if not isinstance(path, (list, tuple)) or not path or not all(isinstance(p, (str, int)) for p in path):
        return None
    node = get(doc.data, tuple(path))
    if isinstance(node, list) and node:  # a list of effects: what each of them cites
        cites, editorial, at = [], [], tuple(path)
        for i in range(len(node)):
            c, e, _ = citations(doc, tuple(path) + (i,))
            cites += [x for x in c if x not in cites]
            editorial += [x for x in e if x not in editorial]
    else:
        cites, editorial, at = citations(doc, tuple(path))
    known = source_ids()
    return {
        "path": path_text(path),
        "element": path_text(at),
        "cites": [
            {
                "source": c.source,
                "title": safe(source_title(c.source)) if c.source in known else (c.source or ""),
                "quote": safe(c.quote),
            }
            for c in cites
        ],
        "editorial": [{"reason": safe(e.reason), "evidence": safe(e.evidence)} for e in editorial],
    }


def explain_refusal(doc: Doc, why: dict) -> dict:
    """``State.why_illegal``'s answer with its rule explained, and a sentence."""
    rule = why.get("rule")
    legal = " ".join(card_text(m) for m in why.get("legal") or [])
    move = card_text(why["move"])
    if rule is None:
        text = f"{move} cannot be played now (legal: {legal})."
    elif why.get("tier") is None:
        text = f"{move} cannot be led: the lead rule ({why.get('test')}) allows {legal}."
    else:
        text = f"{move} is refused by the follow rule ({why.get('test')}): play one of {legal}."
    return {**why, "text": text, "explained": explain(doc, rule) if rule is not None else None}
