"""Events as told to the table, before they are put in words (``narrate.py``): what the players
have seen (``Witness``: a take of cards no one saw is only counted) and what a score event says
(``declared``, ``won``, ``told`` and ``Declared`` for a whole log: a declaration with what it
declares, a win with the others' totals). Each gives the event itself, or a copy with the
words' keys added; the engine's log is left as it is."""

from __future__ import annotations

from typing import AbstractSet, Any, Callable

from .interpreter.visibility import FACE_UP as _FACE_UP
from .saying import say


def shown_of(vars_: Any) -> dict[str, str]:
    """The ``shown:`` of each counter of a rule file's ``vars:`` (raw data, as a log's record gives
    it), as the engine keeps it (``GameDef.shown``): ``{declared_with: C}`` as ``declared C``."""
    out: dict[str, str] = {}
    for k, v in (vars_ or {}).items() if isinstance(vars_, dict) else ():
        how = v.get("shown") if isinstance(v, dict) else None
        if isinstance(how, dict) and isinstance(how.get("declared_with"), str):
            out[str(k)] = "declared " + how["declared_with"]
        elif isinstance(how, str) and how != "derived":
            out[str(k)] = how
    return out


def declared(ev: dict, shown: dict, labels: dict, value: Callable[[str, Any], Any]) -> dict:
    """A ``score`` event as a declaration, when it is one: the cell of a counter ``shown: declared``
    set to a value that scores, said aloud (docs/language.md). Then a copy with ``declared`` and
    ``with``, the counters declared with it (``shown: {declared_with: …}``: the count of a point
    declared), each ``{counter, label, total}`` read by ``value(counter, seat)`` (None: not known);
    else ``ev`` itself. Words, not play: the engine's log is left as it is."""
    name = ev.get("counter")
    if ev.get("type") != "score" or not isinstance(name, str) or shown.get(name) != "declared":
        return ev
    total = ev.get("total")
    if not total or isinstance(total, bool):
        return ev
    seat = ev.get("seat")
    with_ = []
    for c, how in shown.items():
        if how == "declared " + name:
            v = value(c, seat)
            if v is not None:
                with_.append({"counter": c, **({"label": labels[c]} if c in labels else {}), "total": v})
    return {**ev, "declared": True, **({"with": with_} if with_ else {})}


def won(ev: dict, wins: dict, others: list | None) -> dict:
    """A ``score`` event as a win, when it is one: an addition to a counter that counts what is won
    (``vars: NAME: wins: {one, of}``). Then a copy with ``won``: the thing won (``one``), what it
    is won towards (``of``) and ``others``, the other seats' or sides' totals (None: not known to
    all); else ``ev`` itself."""
    name, amount = ev.get("counter"), ev.get("amount")
    spec = wins.get(name) if isinstance(name, str) else None
    if ev.get("type") != "score" or not isinstance(spec, dict) or "total" not in ev:
        return ev
    if not isinstance(amount, (int, float)) or isinstance(amount, bool) or amount <= 0:
        return ev
    return {**ev, "won": {**spec, **({"others": list(others)} if others is not None else {})}}


def told(ev: dict, g: Any) -> dict:
    """An engine's ``score`` event (``interpreter/effects.py``) told as its game says it: a
    declaration with what it declares, a win with the others' totals (``g``: the rules, a
    ``GameDef``); any other event as it is."""
    if ev.get("type") != "score":
        return ev
    said, others = getattr(ev, "said", {}), getattr(ev, "others", None)
    return say(won(declared(ev, g.shown, g.labels, lambda c, _: said.get(c)), g.wins, others), g.sayings)


class Declared:
    """``declared`` and ``won`` for the events of a whole log, read in order (a replay): the value
    of a counter declared with another is the last its events gave (``total``), and so are the
    others' totals of a win (when every other seat's or side's is known)."""

    def __init__(self, shown: dict, labels: dict, wins: dict | None = None, initial: dict | None = None):
        self.shown, self.labels, self.wins = shown, labels, wins or {}
        self.initial = initial or {}  # counter -> its starting value, where it is a number written
        self.last: dict = {}
        self.kept: dict = {}  # (counter, seats) -> total, of the counters that count wins
        self.players = 0

    def view(self, ev: dict) -> dict:
        if ev.get("type") == "hand_start":
            self.last.clear()
        if ev.get("type") == "deal":
            sizes = ev.get("hands") or ev.get("hand_sizes")
            self.players = len(sizes) if isinstance(sizes, list) else self.players
        if ev.get("type") != "score" or not (self.shown or self.wins):
            return ev
        name = ev.get("counter")
        if "total" in ev:
            self.last[(name, ev.get("seat"))] = ev["total"]
        ev = declared(ev, self.shown, self.labels, lambda c, s: self.last.get((c, s)))
        if name not in self.wins or "total" not in ev:
            return ev
        seats = tuple(ev.get("seats") or [ev.get("seat")])
        self.kept[(name, seats)] = ev["total"]
        others = [v for (c, group), v in self.kept.items() if c == name and not set(group) & set(seats)]
        seen = {s for (c, group) in self.kept if c == name for s in group}
        start = self.initial.get(name, 0)
        if self.players and set(range(self.players)) - seen and isinstance(start, int):
            others.append(start)  # the seats that never won one: still at the start, whatever their sides
        return won(ev, self.wins, others or None)


class Witness:
    """What the players at a table have seen, so that an event is told to
    them as the API's observation tells it (``api.State.observation``): a
    take of cards no one saw face up (the talon drawn into a hand) gives only
    their number, unless it was one of the ``viewers`` who took them.
    ``view(ev)`` follows the events in order, each hand afresh."""

    FACE_UP = _FACE_UP

    def __init__(self, viewers: AbstractSet[int]):
        self.viewers = viewers
        self.seen: set[str] = set()

    def view(self, ev: dict) -> dict:
        t = ev.get("type")
        if t == "hand_start":
            self.seen.clear()
        key = self.FACE_UP.get(t) if isinstance(t, str) else None
        if key is not None:
            v = ev.get(key)
            self.seen.update(v if isinstance(v, list) else [str(v)])
        elif t == "draw_for_dealer":
            self.seen.update(ev.get("cards", {}).values())
        elif t == "restock" and ev.get("shuffled"):  # shuffled face down: where each lies, no one knows
            self.seen.difference_update(ev.get("cards", ()))
        elif t == "take" and ev.get("seat") not in self.viewers and not self.seen.issuperset(ev.get("cards", [])):
            return {**{k: v for k, v in ev.items() if k != "cards"}, "count": len(ev["cards"])}
        elif t == "look" and ev.get("seat") not in self.viewers:
            return {**{k: v for k, v in ev.items() if k != "cards"}, "count": len(ev.get("cards", []))}
        return ev
