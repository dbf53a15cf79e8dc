"""Every rule explained by its source: the rule element an event names (its
``rule`` key, a path in the resolved rule document) or the follow rule that
refused a move, looked up with its quotations and editorial notes.

Used by ``academie serve``, ``academie replay`` and the site's replay pages.
Nothing here reads a file named by a user: the document is the one already
loaded, and sources are looked up by id in the installed corpus.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..describe import Cite, citations, cites_of, get
from ..dsl.loader import Doc, source_ids
from ..dsl.text import safe
from ..render import source_title
from ..narrate import card_text
from ..words import duty


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


# words of a duty in the sources: "must follow suit", "is bound to", "est obligé", "doit fournir"
_DUTY = re.compile(r"\b(must|obliged|bound|compelled|required|forced|oblig\w*|doit|doivent|tenu)\b", re.I)
# ... and of what is played: a suit followed, a trump, a trick won, a renounce
_FOLLOW = re.compile(r"\b(follow\w*|suit|trumps?|renounce|revoke|win the trick|fournir|couleur|atout)\b", re.I)


def duty_cites(doc: Doc, rule: Any) -> list[Cite]:
    """The quotations that state the duty a refusal rests on: those of the rule
    element (the tier, the follow rule or the lead rule) and of its step that
    speak of a duty ("must", "bound", "obligé"…); a quotation of the exception
    ("if a player has none of the suit led, he may discard anything") is not
    the reason a card is refused, nor is a duty of another kind ("no person
    must play before his turn"): a quotation kept speaks of a duty and of the
    play of a suit. The element's own quotations when none does."""
    path = tuple(rule)
    found: list[Cite] = []
    for n in range(len(path), 1, -1):  # the element, the follow rule, the step
        node = get(doc.data, path[:n])
        if isinstance(node, dict) and "cite" in node:
            found += [c for c in cites_of(doc, path[:n], node) if c not in found]

    def says(c: Cite, pattern: re.Pattern) -> bool:
        return bool(pattern.search(c.quote) or (c.translation and pattern.search(c.translation)))

    both = [c for c in found if says(c, _DUTY) and says(c, _FOLLOW)]
    return both or citations(doc, path)[0]


def refusal(doc: Doc, why: dict, card: Callable[[str], str] = card_text) -> dict:
    """``State.why_illegal``'s answer in words, the same for the terminal, the
    web page and the API: ``text`` ("3♥ is refused: you must follow suit: play
    one of 3♠ 4♠"), ``duty`` (the rule as a sentence) and ``cites`` (the
    quotations that state that duty, each ``{source, title, quote,
    translation}``). ``card`` writes a card's name."""
    legal = " ".join(card(m) for m in why.get("legal") or [])
    said = duty(why)
    text = f"{card(why['move'])} is refused: {said}: play one of {legal}"
    cites = duty_cites(doc, why["rule"]) if why.get("rule") is not None else []
    known = source_ids()
    return {
        "text": text,
        "duty": said,
        "cites": [
            {
                "source": c.source,
                "title": safe(source_title(c.source)) if c.source in known else (c.source or ""),
                "quote": safe(c.quote),
                "translation": safe(c.translation) if c.translation else None,
            }
            for c in cites
        ],
    }


def refusal_lines(doc: Doc, why: dict, card: Callable[[str], str] = card_text, indent: str = "    ") -> list[str]:
    """A refusal for a terminal: its sentence, then each quotation of the duty
    as ``§ "quote" (title)``."""
    r = refusal(doc, why, card)
    out = [r["text"]]
    for c in r["cites"]:
        tr = f' ("{c["translation"]}")' if c["translation"] else ""
        out.append(f'{indent}§ "{c["quote"]}"{tr} ({c["title"] or c["source"] or "no source"})')
    return [safe(x) for x in out]


def explain_refusal(doc: Doc, why: dict) -> dict:
    """``State.why_illegal``'s answer with its sentence and the quotations of
    its duty (``refusal``), for the web page: ``explained`` holds the rule
    element's path and those quotations."""
    r = refusal(doc, why)
    rule = why.get("rule")
    explained = explain(doc, rule) if rule is not None else None
    if explained is not None:
        explained = {**explained, "cites": [{k: c[k] for k in ("source", "title", "quote")} for c in r["cites"]]}
    return {**why, "text": r["text"], "duty": r["duty"], "explained": explained}
