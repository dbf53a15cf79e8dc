"""Events in words: the one narration of an engine event (docs/engine.md,
the event log) for every place that shows a game — the terminal of
``academie play``, ``academie replay`` (in the terminal and as a page), the
web page of ``academie serve`` and the site's replay pages.

``narrate(ev)`` turns an event into a ``Line``: its words as parts to style
(a seat, a card, a suit, a word of the rule file, plain text), the rule
element that acted (the event's ``rule`` key, explained by
``serve/explain.py``) and, for a deal or the end of the game, lines of
detail (each hand, the standings). Each front end renders the same words
its own way: ``terminal`` (indented under the hand's heading, styled when
the output is a terminal) and ``html`` (escaped), in ``narrate_front.py``, and
``as_dict`` (JSON for the page's script, which sets it as text, never as HTML).
What a seat has seen and what a score says are ``narrate_views.py``'s.

A rule file is untrusted input: every word that comes from it (a zone, a
unit, a declaration, a pool) goes through ``dsl/text.py`` ``safe`` here,
before any front end sees it. An event is a logged one (every card named) or
a seat's view of it (``api.State.observation``: a card no one saw is only
counted, a deal gives the hands' sizes); both read the same.
"""

from __future__ import annotations

from typing import AbstractSet, Any, Callable

from .dsl.text import safe
from . import narrate_views as _views
from .narrate_parts import (  # noqa: F401  (kept importable from here)
    Line,
    Part,
    _amount,
    _count,
    _Got,
    _name,
    _SUITS,
    _t,
    _Words,
    card_text,
    suit_text,
)

# what a seat has seen and what a score says, kept importable from here (narrate_views.py)
Declared, Witness, declared, shown_of, told, won = (
    _views.Declared,
    _views.Witness,
    _views.declared,
    _views.shown_of,
    _views.told,
    _views.won,
)


def lowest_draws(doc_data: dict) -> bool:
    """Whether the draw for the first dealer of a rule document goes to the lowest card (the default)."""
    dealer = doc_data.get("dealer")
    draw = dealer.get("draw") if isinstance(dealer, dict) else None
    return bool(draw.get("lowest", True)) if isinstance(draw, dict) else True


def narrate(
    ev: dict,
    *,
    you: AbstractSet[int] = frozenset(),
    hidden: AbstractSet[int] = frozenset(),
    symbols: bool = True,
    draw_lowest: bool | None = None,
) -> Line | None:
    """The event ``ev`` in words, or None for a kind of event this does not know.

    ``you``: the seats shown as "seat 0 (you)" (the humans at the table);
    ``hidden``: the seats whose dealt hand and chosen cards are shown only by
    their number; ``symbols``: cards as ``Q♠`` rather than ``QS``;
    ``draw_lowest``: whether the rules' draw for the first dealer goes to the
    lowest card (``dealer: {draw: {lowest: …}}``), None when the rules are not
    at hand (the line then says only who deals first)."""
    w = _Words(you, hidden, symbols)
    t = ev.get("type")
    fn = _KINDS.get(t) if isinstance(t, str) else None
    if fn is None:
        return None
    got = fn(ev, w, draw_lowest)
    parts, level, details = got if isinstance(got, tuple) else (got, "move", ())
    return Line(str(t), tuple(parts), level, ev.get("rule"), details)


def _dealer(ev: dict, w: _Words, lowest: bool | None) -> _Got:
    how = "deals first" if lowest is None else f"draws the {'lowest' if lowest else 'highest'} card and deals first"
    return [w.seat(ev["seat"]), _t(" " + how)], "line", ()


def _draw_for_dealer(ev: dict, w: _Words, _: bool | None) -> _Got:
    parts: list[Part] = [_t("draw for the deal: ")]
    for i, (s, c) in enumerate(sorted(ev["cards"].items(), key=lambda x: int(x[0]))):
        parts += ([_t(", ")] if i else []) + [w.seat(int(s)), _t(" "), w.card(c)]
    return parts, "line", ()


def _hand_start(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [_t(f"Hand {ev['hand']}: "), w.seat(ev["dealer"]), _t(" deals")], "heading", ()


def _shuffle(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev.get("seat")), _t(" shuffles")], "line", ()


def _cut(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev.get("seat")), _t(" cuts the pack")], "line", ()


def _deal(ev: dict, w: _Words, _: bool | None) -> _Got:
    hands = ev.get("hands")
    sizes = [len(h) for h in hands] if hands is not None else list(ev.get("hand_sizes") or [])
    rest = {k: v for k, v in ev.items() if k not in ("type", "hands", "hand_sizes", "hand", "rule")}
    parts: list[Part] = [_t("deal: ")]
    if sizes and len(set(sizes)) == 1:
        parts.append(_t(f"{_count(sizes[0])} each"))
    else:
        for i, n in enumerate(sizes):
            parts += ([_t(", ")] if i else []) + [w.seat(i), _t(" " + _count(n))]
    for k, v in rest.items():
        parts += [_t(f", {len(v) if isinstance(v, list) else v} to the "), _name(k)]
    details: list[Line] = []
    if hands is not None:  # a logged deal: each hand, unless hidden
        for i, h in enumerate(hands):
            shown = [_t(_count(len(h)))] if i in w.hidden else w.cards(h)
            details.append(Line("deal", (w.seat(i), _t(": "), *shown), "line"))
        for k, v in rest.items():
            if isinstance(v, list):
                shown = [_t(_count(len(v)))] if w.hidden else w.cards(v)
                details.append(Line("deal", (_name(k), _t(": "), *shown), "line"))
    return parts, "line", tuple(details)


def _turnup(ev: dict, w: _Words, _: bool | None) -> _Got:
    parts = [_t("turn-up: "), w.card(ev["card"])]
    if ev.get("trump"):
        parts += [_t(" (trumps: "), w.suit(ev["trump"]), _t(")")]
    return parts, "line", ()


def _declare(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" announces "), _name(ev["declaration"])], "line", ()


def _play(ev: dict, w: _Words, _: bool | None) -> _Got:
    src = ev.get("from")
    parts = [w.seat(ev["seat"]), _t(" plays "), w.card(ev["card"])]
    if src == "borrow":
        parts.append(_t(" (borrowed)"))
    elif src and src != "hand":
        parts += [_t(" (from the "), _name(src), _t(")")]
    return parts


def _capture(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" takes "), *w.cards(ev["cards"]), _t(" with "), w.card(ev["card"])]


def _build(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [
        w.seat(ev["seat"]),
        _t(" puts "),
        w.card(ev["card"]),
        _t(" on "),
        *w.cards(ev["cards"]),
        _t(f" and builds {ev['value']}"),
    ]


def _trail(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" leaves "), w.card(ev["card"]), _t(" on the table")]


def _rest(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" takes the cards left: "), *w.cards(ev["cards"])]


def _run(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" begins a run in "), w.suit(ev["suit"])]


def _go(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" cannot add a card: go")]


def _show(ev: dict, w: _Words, _: bool | None) -> _Got:
    who = [w.seat(ev["seat"]), _t(" shows ")] if ev.get("seat") is not None else [_t("shown: ")]
    return [*who, *w.cards(ev.get("cards") or ())]


def _renounce(ev: dict, w: _Words, _: bool | None) -> _Got:
    led = ev.get("led")
    return [w.seat(ev["seat"]), _t(" cannot follow")] + ([_t(" "), w.suit(led)] if led is not None else [])


def _take(
    ev: dict, w: _Words, _: bool | None
) -> _Got:  # a move made by a step of the hand, not by a seat, is the table's
    return [w.seat(ev.get("seat")), _t(" takes "), *w.counted(ev), _t(" into "), _name(ev["to"])]


def _number(ev: dict, w: _Words, _: bool | None) -> _Got:
    if isinstance(ev.get("said"), str):  # the answer in the game's words: "seat 1 answers: order it up"
        return [w.seat(ev["seat"]), _t(" answers: "), _name(ev["said"])]
    into = ev.get("into")
    word = [_name(counter_word(into, ev.get("label")))] if into else []
    return [w.seat(ev["seat"]), _t(f" chooses {value_text(ev['value'])}")] + (
        [_t(" ("), *word, _t(")")] if word else []
    )


def _stake(ev: dict, w: _Words, _: bool | None) -> _Got:
    on = str(ev.get("target") or ev.get("on"))
    amount = ev.get("amount", 0)
    if not amount:
        what = " takes down his stake on " if ev.get("was") else " puts nothing on "
        return [w.seat(ev["seat"]), _t(what), _name(on)], "line", ()
    return [w.seat(ev["seat"]), _t(f" stakes {value_text(amount)} on "), _name(on)], "line", ()


def _repeat(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [_t(f"round {ev.get('round')}")], "line", ()


def _suit(ev: dict, w: _Words, _: bool | None) -> _Got:
    why = [_name(ev["into"])] if ev.get("into") else []
    if ev.get("trump"):
        why += ([_t(", ")] if why else []) + [_t("trumps")]
    return [w.seat(ev["seat"]), _t(" names "), w.suit(ev["value"])] + ([_t(" ("), *why, _t(")")] if why else [])


def _choose(ev: dict, w: _Words, _: bool | None) -> _Got:
    secret = "card" not in ev or ev["seat"] in w.hidden
    return [w.seat(ev["seat"]), _t(" chooses "), _t("a card") if secret else w.card(ev["card"])]


def _bet(ev: dict, w: _Words, _: bool | None) -> _Got:
    """A move of a betting round, in the game's word (``see``, ``go-better``), with what it staked."""
    parts = [w.seat(ev["seat"]), _t(": "), _name(str(ev.get("move", "")).replace("-", " "))]
    amount = ev.get("amount") or 0
    if amount:
        parts.append(_t(f" ({amount} staked, {ev.get('stake', amount)} in all)"))
    if ev.get("all_in"):
        parts.append(_t(" and is all in"))
    return parts


def _look(ev: dict, w: _Words, _: bool | None) -> _Got:
    whose = [w.seat(ev["zone_seat"]), _t("'s ")] if ev.get("zone_seat") is not None else [_t("the ")]
    secret = "cards" not in ev or ev["seat"] in w.hidden
    seen = [_t(_count(len(ev["cards"]) if "cards" in ev else ev.get("count", 0)))] if secret else w.cards(ev["cards"])
    return [w.seat(ev["seat"]), _t(" looks at "), *whose, _name(ev.get("zone")), _t(": "), *seen]


def _deliver(ev: dict, w: _Words, _: bool | None) -> _Got:
    to_seat = ev.get("to_seat")
    if to_seat is not None and to_seat == ev["seat"]:  # cards set aside in a zone of his own
        dest = [_t("his "), _name(ev.get("to"))]
    elif to_seat is not None:
        dest = [w.seat(to_seat), _t("'s "), _name(ev.get("to"))]
    else:
        dest = [_t("the "), _name(ev.get("to"))]
    shown = "cards" in ev and (ev["seat"] not in w.hidden or (to_seat is not None and to_seat not in w.hidden))
    what = w.counted(ev) if shown or "cards" not in ev else [_t(_count(len(ev["cards"])))]
    verb = " puts " if to_seat is not None and to_seat == ev["seat"] else " gives "
    return [w.seat(ev["seat"]), _t(verb), *what, _t(" into " if verb == " puts " else " to "), *dest]


def _trick(ev: dict, w: _Words, _: bool | None) -> _Got:
    parts = [w.seat(ev["winner"]), _t(" wins the trick")]
    if ev.get("cards"):
        parts += [_t(" ("), *w.cards(ev["cards"]), _t(")")]
    return parts


def _borrow(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" borrows "), w.card(ev["card"]), _t(" from "), w.seat(ev["from"])]


def _draw(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" draws "), w.card(ev["card"]), _t(" from the "), _name(ev["from"])]


def _turn(ev: dict, w: _Words, _: bool | None) -> _Got:  # a card turned face up where it lies (patience)
    return [w.card(ev["card"]), _t(" is turned face up on "), _name(ev["zone"])]


def _move(ev: dict, w: _Words, _: bool | None) -> _Got:  # cards moved from pile to pile (patience)
    cards = [x for c in ev["cards"] for x in (_t(" "), w.card(c))][1:]
    return [w.seat(ev["seat"]), _t(" moves "), *cards, _t(" from "), _name(ev["from"]), _t(" to "), _name(ev["to"])]


def _layout(ev: dict, w: _Words, _: bool | None) -> _Got:
    sizes = ", ".join(f"{k} {v}" for k, v in ev["cards"].items())
    return [_t("the "), _name(ev["to"]), _t(f" is laid out: {sizes}")]


def _redeal(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" turns the "), _name(ev["from"]), _t(" over to make the "), _name(ev["to"])]


def _give_up(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" gives up")]


def _patience_end(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" wins the patience" if ev.get("won") else " loses the patience")]


def _pay(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["from"]), _t(" pays "), _amount(ev["amount"], ev["unit"]), _t(" to "), w.seat(ev["to"])]


def _give(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [_t("the bank gives "), _amount(ev["amount"], ev["unit"]), _t(" to "), w.seat(ev["to"])]


def counter_word(name: Any, label: Any = None) -> str:
    """What the players call a counter: its ``label:``, else its name in words (``tricks_won``: tricks won)."""
    word = label if isinstance(label, str) and label else str(name).replace("_", " ")
    return safe(word, one_line=True)


def value_text(v: Any, symbols: bool = True) -> str:
    """A counter's value in words: a number, a suit, "none" for no value (never Python's None)."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str) and v in _SUITS:
        return suit_text(v, symbols)
    return safe(str(v), one_line=True)


def _seats(ev: dict, w: _Words) -> list[Part]:
    seats = ev.get("seats")
    if isinstance(seats, list) and len(seats) > 1:
        parts: list[Part] = [_t("seats ")]
        for i, s in enumerate(seats):
            parts += ([_t(" and " if i == len(seats) - 1 else ", ")] if i else []) + [
                Part(f"{s}" + (" (you)" if s in w.you else ""), "seat", s)
            ]
        return parts
    if ev.get("seat") is None:
        return [_t("the table")]
    return [w.seat(ev["seat"])]


def _score(ev: dict, w: _Words, _: bool | None) -> _Got:
    word = Part(counter_word(ev.get("counter"), ev.get("label")), "name")
    who = _seats(ev, w)
    if "total" not in ev:  # a count the seat viewing may not see
        return [*who, _t(" ("), word, _t(": not seen)")]
    amount, total = ev.get("amount"), ev.get("total")
    shown = Part(value_text(total, w.symbols), "name")
    plural = isinstance(ev.get("seats"), list) and len(ev["seats"]) > 1
    won = ev.get("won")
    if isinstance(won, dict) and isinstance(won.get("one"), str):  # "seats 1 and 3 win the game: 1 game to 0 …"
        one = safe(won["one"], one_line=True)
        wins = ("win " if plural else "wins ") + (f"the {one}" if amount == 1 else f"{value_text(amount)} {word.text}")
        parts = [*who, _t(" " + wins + ": "), shown, _t(" "), Part(one if total == 1 else word.text, "name")]
        others = won.get("others")
        if isinstance(others, list) and others:
            parts.append(_t(" to " + " and ".join(value_text(x, w.symbols) for x in others)))
        if isinstance(won.get("of"), str):
            parts.append(_t(" in the " + safe(won["of"], one_line=True)))
        return parts
    told = [x["says"] for x in ev.get("with") or () if isinstance(x, dict) and isinstance(x.get("says"), str)]
    if ev.get("declared") and (told or isinstance(ev.get("says"), str)):  # "seat 0 declares a point of six (58): 6"
        verb = " declare " if plural else " declares "
        return [*who, _t(verb), Part(safe(", ".join(told or [ev["says"]]), one_line=True), "name"), _t(": "), shown]
    if ev.get("declared"):  # said aloud: "seat 1 declares point 5 (point held 546)"
        parts = [*who, _t(" declare " if plural else " declares "), word, _t(" "), shown]
        said = [x for x in ev.get("with") or () if isinstance(x, dict) and "total" in x]
        for i, x in enumerate(said):
            parts += [_t(", " if i else " (")]
            parts += [Part(counter_word(x.get("counter"), x.get("label")), "name"), _t(" ")]
            parts += [Part(value_text(x["total"], w.symbols), "name")]
        return parts + ([_t(")")] if said else [])
    if ev.get("op") != "set" and isinstance(amount, (int, float)) and not isinstance(amount, bool) and amount:
        verb = ("score " if plural else "scores ") if amount > 0 else ("lose " if plural else "loses ")
        return [*who, _t(" " + verb + value_text(abs(amount))), _t(": "), word, _t(" "), shown]
    return [
        *who,
        _t(": "),
        *(
            [Part(safe(ev["says"], one_line=True), "name")]
            if isinstance(ev.get("says"), str)
            else [word, _t(" "), shown]
        ),
    ]


def _hand_end(ev: dict, w: _Words, _: bool | None) -> _Got:
    if ev.get("reason") == "unfinished":
        return [_t(f"hand {ev['hand']} is unfinished: the play limit was reached")], "line", ()
    parts = [_t(f"hand {ev['hand']} ends")]
    if ev.get("plays") is not None:
        parts.append(_t(f" after {ev['plays']} plays"))
    if ev.get("winner") is not None:
        parts += [_t(": "), w.seat(ev["winner"]), _t(" wins")]
    return parts, "line", ()


def _take_top(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" takes "), w.card(ev["card"]), _t(" from the discard pile")]


def _refuse(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" refuses "), w.card(ev["card"]), _t(": it lies on the discard pile")]


def _meld(ev: dict, w: _Words, _: bool | None) -> _Got:
    parts = [w.seat(ev["seat"]), _t(" lays out ")]
    for i, c in enumerate(ev["cards"]):
        parts += ([_t(" ")] if i else []) + [w.card(c)]
    if ev.get("as"):  # a meld declared in trick play, by its name
        parts.append(_t(f" ({str(ev['as']).replace('_', ' ')})"))
    return parts


def _discard(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" discards "), w.card(ev["card"])]


def _lay_off(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" lays off "), w.card(ev["card"]), _t(" on the melds of "), w.seat(ev["on"])]


def _knock(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" knocks")]


def _stock_out(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [_t("The stock is out")]


def _restock(ev: dict, w: _Words, _: bool | None) -> _Got:
    how = "shuffled" if ev.get("shuffled") else "turned over"
    return [_t(f"The {ev['from']} is {how} to make a new {ev['to']} ({len(ev.get('cards', ()))} cards)")]


def _ask(ev: dict, w: _Words, _: bool | None) -> _Got:
    n = ev.get("count", 0)
    given = f": {n} given" if n else ": none (go fish)"
    return [w.seat(ev["seat"]), _t(" asks "), w.seat(ev["asked"]), _t(f" for the {ev['rank']}s{given}")]


def _bury(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.card(ev["card"]), _t(" is put back in the stock")]


def _pass(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" passes")]


def _out(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [w.seat(ev["seat"]), _t(" is out of cards")]


def _blocked(ev: dict, w: _Words, _: bool | None) -> _Got:
    return [_t("No one can play and the stock is out")]


def _game_end(ev: dict, w: _Words, _: bool | None) -> _Got:
    parts = [_t("Game over")]
    if ev.get("unfinished"):
        parts.append(_t(" (unfinished: the play limit was reached)"))
    details = tuple(
        Line("game_end", (_t(f"{r['rank']}. "), w.seat(r["seat"]), _t(f": {r['score']}")), "line")
        for r in ev.get("standings") or []
    )
    return parts, "heading", details


_KINDS: dict[str, Callable[[dict, _Words, bool | None], _Got]] = {
    "dealer": _dealer,
    "draw_for_dealer": _draw_for_dealer,
    "hand_start": _hand_start,
    "shuffle": _shuffle,
    "cut": _cut,
    "deal": _deal,
    "turnup": _turnup,
    "declare": _declare,
    "play": _play,
    "run": _run,
    "capture": _capture,
    "build": _build,
    "trail": _trail,
    "rest": _rest,
    "go": _go,
    "show": _show,
    "renounce": _renounce,
    "take": _take,
    "number": _number,
    "suit": _suit,
    "stake": _stake,
    "repeat": _repeat,
    "look": _look,
    "bet": _bet,
    "choose": _choose,
    "deliver": _deliver,
    "trick": _trick,
    "borrow": _borrow,
    "draw": _draw,
    "turn": _turn,
    "move": _move,
    "layout": _layout,
    "redeal": _redeal,
    "give_up": _give_up,
    "patience_end": _patience_end,
    "pay": _pay,
    "give": _give,
    "score": _score,
    "hand_end": _hand_end,
    "game_end": _game_end,
    "take_top": _take_top,
    "refuse": _refuse,
    "meld": _meld,
    "discard": _discard,
    "knock": _knock,
    "lay_off": _lay_off,
    "stock_out": _stock_out,
    "restock": _restock,
    "ask": _ask,
    "bury": _bury,
    "pass": _pass,
    "out": _out,
    "blocked": _blocked,
}
KINDS = frozenset(_KINDS)  # the kinds of event narrated
