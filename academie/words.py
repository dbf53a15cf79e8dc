"""Expressions of the rule language turned into plain words, where they are
simple enough; otherwise ``None`` (the caller then shows the expression in
code font).

The translation is by construct of the grammar (``dsl/expr.lark``), never by
game: a name of the rule file (a zone, a counter, a currency, an order) is
said as itself ("the stock", "the points"). ``dealer + 1`` is "the player
after the dealer (in the direction of play)", ``card.suit == led`` "a card of
the suit led".
"""

from __future__ import annotations

from lark import Token, Tree
from lark.exceptions import LarkError

from .dsl.compiler import parser

RANK_WORDS = {
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "10": "ten",
}
RANK_PLURAL = {"six": "sixes"}
SUIT_WORDS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
SUIT_PLURAL = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SEAT_NAMES = {
    "dealer": "the dealer",
    "leader": "the leader of the trick",
    "winner": "the winner of the hand",
    "mover": "the player who moved last",
    "seat": "the player",
    "other": "the other player",
}
NAMES = {
    "players": "the number of players",
    "led": "the suit led",
    "trump": "the trump suit",
    "hand_no": "the number of the hand",
    "tricks_played": "the number of tricks played",
    "true": "always",
    "false": "never",
    "none": "no one",
    "trick": "the trick",
    "pack": "the pack",
    "last_card": "the card played last",
    "led_card": "the card led",
}
CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least"}
ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by (rounded down)", "%": "modulo"}


def rank_word(r) -> str:
    return RANK_WORDS.get(str(r), str(r))


def rank_plural(r) -> str:
    w = rank_word(r)
    return RANK_PLURAL.get(w, w + "s")


def card_words(name: str) -> str:
    """``AH`` -> "the ace of hearts"."""
    return f"the {rank_word(name[:-1])} of {SUIT_PLURAL.get(name[-1], name[-1])}"


def article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def words(text, kind: str = "value") -> str | None:
    """``text`` (an expression) in words, or None when it is not simple.
    ``kind``: ``value`` (a number, a seat, a zone) or ``card`` (a card test,
    said as a noun phrase: "a card of the suit led") or ``cond`` (a condition)."""
    if isinstance(text, bool):
        text = "true" if text else "false"
    try:
        tree = parser().parse(str(text))
    except LarkError:
        return None
    try:
        return _Words().say(tree, kind)
    except _Unsaid:
        return None


class _Unsaid(Exception):
    pass


def _tok(t) -> str:
    return str(t.value if isinstance(t, Token) else t)


class _Words:
    def __init__(self) -> None:
        self.bound: set[str] = set()  # the names a count or a sum binds to each card of a zone

    def say(self, t, kind="value") -> str:
        if kind == "card":
            return self.card_test(t)
        if kind == "cond":
            return self.cond(t)
        return self.value(t)

    # -- values -----------------------------------------------------------------
    def value(self, t) -> str:
        if isinstance(t, Token):
            return _tok(t)
        d = t.data
        if d == "number":
            return _tok(t.children[0])
        if d == "string":
            return _tok(t.children[0]).strip("\"'")
        if d == "card":
            return card_words(_tok(t.children[0]))
        if d == "name":
            n = _tok(t.children[0])
            if n in SEAT_NAMES:
                return SEAT_NAMES[n]
            if n in NAMES:
                return NAMES[n]
            if n in SUIT_PLURAL:
                return SUIT_PLURAL[n]
            if n in RANK_WORDS:
                return article(rank_word(n))
            if n == "card":
                return "the card"
            if n in self.bound:
                return f"card {n}"
            return "the " + n.replace("_", " ")
        if d == "binop":
            a, op, b = t.children
            o = _tok(op)
            if o in "+-" and self._is_seat(a) and b.data == "number":
                k = int(_tok(b.children[0]))
                who = self.value(a)
                if k == 0:
                    return who
                after = "after" if o == "+" else "before"
                if k == 1:
                    return f"the player {after} {who} (in the direction of play)"
                return f"the player {k} places {after} {who} (in the direction of play)"
            if o == "-" and a.data == "number" and _tok(a.children[0]) == "0":
                return "minus " + self.value(b)
            return f"{self.value(a)} {ARITH[o]} {self.value(b)}"
        if d == "neg":
            return "minus " + self.value(t.children[0])
        if d == "call":
            return self.call(t)
        if d == "list":
            items = [self.value(c) for c in self._args(t)]
            return _join(items, "and")
        if d == "attr":
            obj, name = t.children
            if obj.data == "name" and _tok(obj.children[0]) == "card" and not self.bound:
                return {"suit": "its suit", "rank": "its rank", "colour": "its colour"}.get(_tok(name), _tok(name))
            return f"the {_tok(name)} of {self.value(obj)}"
        if d == "cond":
            c, a, b = t.children
            return f"{self.value(a)} if {self.cond(c)}, otherwise {self.value(b)}"
        if d in ("compare", "in_op", "not_in_op", "and_op", "or_op", "not_op"):
            return self.cond(t)
        raise _Unsaid

    def _is_seat(self, t) -> bool:
        if t.data == "name":
            return _tok(t.children[0]) in SEAT_NAMES
        if t.data == "binop":
            return self._is_seat(t.children[0])
        if t.data == "call":
            return _tok(t.children[0]) in ("top_seat", "declarer", "holder")
        return False

    def _args(self, t) -> list:
        for c in t.children:
            if isinstance(c, Tree) and c.data == "args":
                return list(c.children)
        return []

    def call(self, t) -> str:
        f = _tok(t.children[0])
        a = self._args(t)
        if f in ("count", "any", "all") and len(a) == 3 and a[1].data == "name":
            return self.named_count(f, a)
        if f in ("sum_cards", "max_cards") and len(a) in (2, 3):
            return self.card_fold(f, a)
        if f == "team" and a:
            who = self.value(a[0])
            return "the player's side" if who == "the player" else f"the side of {who}"
        if f == "teams":
            return "the number of sides"
        if f == "team_sum" and a:
            return f"the sum over the player's side of {self.value(a[0])}"
        if f in ("count", "any", "all") and a:
            zone = self.value(a[0])
            if len(a) == 1:
                return f"the number of cards in {zone}"
            test = self.card_test(a[1])
            noun = plural_of(test)
            if test.startswith("a card for which "):
                rest = test[len("a card for which ") :]
                if f == "count":
                    return f"the number of cards in {zone} for which {rest}"
                if f == "any":
                    return f"{zone} holds a card for which {rest}"
                return f"every card in {zone} is one for which {rest}"
            if f == "count" and test.startswith("the "):
                return f"1 if {zone} holds {test}, else 0"
            if f == "count":
                return f"the number of {noun} in {zone}"
            return f"{zone} holds {test}" if f == "any" else f"every card in {zone} is {test}"
        if f in ("count", "any", "all"):
            raise _Unsaid
        if len(a) == 1 and a[0].data == "name" and _tok(a[0].children[0]) == "seat" and f not in _FUNCS:
            return f"the player's {f.replace('_', ' ')}"  # a per-seat zone or counter
        if len(a) == 1 and f not in _FUNCS:
            return f"the {f.replace('_', ' ')} of {self.value(a[0])}"
        if f == "rank":
            if len(a) == 2:
                return f"the rank of {self.value(a[0])} in the {self.value(a[1])[4:]} order"
            return f"the rank of {self.value(a[0])}"
        if f == "balance" and len(a) == 2:
            holder = self.value(a[0])
            unit = _tok(a[1].children[0]) if a[1].data == "name" else self.value(a[1])
            unit = unit if unit.endswith(("s", "sh")) else unit + "s"
            if holder == "the player":
                return f"the player's {unit}"
            if a[0].data == "name" and _tok(a[0].children[0]) not in SEAT_NAMES:
                return f"the {unit} in {holder}"
            return f"the {unit} held by {holder}"
        if f == "tricks_won" and a:
            who = self.value(a[0])
            return f"the number of tricks won by {who}"
        if f == "top_seat" and a:
            return f"the player with the greatest {_strip_players(self.value(a[0]))}"
        if f in ("max_seats", "min_seats") and a:
            return f"the {'greatest' if f == 'max_seats' else 'least'} {_strip_players(self.value(a[0]))} of any player"
        if f == "sum_seats" and a:
            return f"the sum over the players of {self.value(a[0])}"
        if f == "count_seats" and a:
            return f"the number of players for whom {self.cond(a[0])}"
        if f in ("min", "max") and a:
            return f"the {'least' if f == 'min' else 'greatest'} of {_join([self.value(x) for x in a], 'and')}"
        if f == "abs" and a:
            return f"the size of {self.value(a[0])}"
        if f == "declared" and a:
            return f"{self.value(a[0])[4:]} has been announced"
        if f == "declarer" and a:
            return f"the player who announced {self.value(a[0])[4:]}"
        if f == "holder" and a:
            return f"the player holding {self.value(a[0])}"
        if f == "top" and a:
            return f"the card on top of {self.value(a[0])}"
        if f == "staked" and a:
            who = self.value(a[0])
            whose = "the player's stake" if who == "the player" else f"the stake of {who}"
            return f"{whose} on the rank of {self.value(a[1])}" if len(a) == 2 else f"all {whose}s"
        if f == "joined" and a:
            return _join([self.value(x) for x in a], "and")
        if f == "index" and a:
            who = self.value(a[0])
            return "the player's place at the table" if who == "the player" else f"the place at the table of {who}"
        if f in _COMBINATION_WORDS and len(a) == 2:
            name = _tok(a[1].children[0]).replace("_", " ") if a[1].data == "name" else self.value(a[1])
            return _COMBINATION_WORDS[f].format(name=name, zone=self.value(a[0]))
        if f == "run" and len(a) >= 2:
            order = f" in the {self.value(a[2])[4:]} order" if len(a) == 3 else ""
            return f"the number of cards in the run of its suit in {self.value(a[0])} going down from {self.value(a[1])}{order}"
        raise _Unsaid

    def named_count(self, f: str, a: list) -> str:
        """``count(ZONE, x, TEST)`` (``any``, ``all``): the cards ``x`` of a zone, ``card`` kept."""
        zone, n = self.value(a[0]), _tok(a[1].children[0])
        same = self._same_field(a[2], n)
        self.bound.add(n)
        try:
            if same is not None:
                noun = f"cards in {zone} of the same {same} as the card"
                if f == "count":
                    return f"the number of {noun}"
                return (
                    f"{zone} holds a card of the same {same} as the card"
                    if f == "any"
                    else (f"every card in {zone} is of the same {same} as the card")
                )
            test = self.cond(a[2])
        finally:
            self.bound.discard(n)
        if f == "count":
            return f"the number of cards {n} in {zone} such that {test}"
        if f == "any":
            return f"{zone} holds a card {n} such that {test}"
        return f"every card {n} in {zone} is such that {test}"

    def _same_field(self, t, n: str) -> str | None:
        """``x.rank == card.rank`` -> "rank"."""
        if not (isinstance(t, Tree) and t.data == "compare" and _tok(t.children[1]) == "=="):
            return None
        a, _, b = t.children
        if not (isinstance(a, Tree) and isinstance(b, Tree) and a.data == "attr" and b.data == "attr"):
            return None
        fa, fb = _tok(a.children[1]), _tok(b.children[1])
        oa, ob = a.children[0], b.children[0]
        if fa != fb or oa.data != "name" or ob.data != "name":
            return None
        if {_tok(oa.children[0]), _tok(ob.children[0])} != {n, "card"}:
            return None
        return fa

    def card_fold(self, f: str, a: list) -> str:
        """``sum_cards(ZONE, [x,] EXPR)``, ``max_cards(…)``: a number for each card of a zone."""
        zone = self.value(a[0])
        what = "the sum" if f == "sum_cards" else "the greatest"
        if len(a) == 2:
            return f"{what}, over the cards of {zone}, of {self.value(a[1])}"
        n = _tok(a[1].children[0])
        self.bound.add(n)
        try:
            return f"{what}, over each card {n} of {zone}, of {self.value(a[2])}"
        finally:
            self.bound.discard(n)

    # -- conditions -------------------------------------------------------------
    def cond(self, t) -> str:
        d = t.data if isinstance(t, Tree) else None
        if d == "and_op":
            return f"{self.cond(t.children[0])} and {self.cond(t.children[1])}"
        if d == "or_op":
            return f"{self.cond(t.children[0])} or {self.cond(t.children[1])}"
        if d == "not_op":
            c = t.children[0]
            if c.data == "call" and _tok(c.children[0]) == "declared" and self._args(c):
                return f"no one has announced {self.value(self._args(c)[0])[4:]}"
            return f"it is not so that {self.cond(c)}"
        if d == "compare":
            a, op, b = t.children
            o = _tok(op)
            if (
                d == "compare"
                and o == "=="
                and isinstance(b, Tree)
                and b.data == "number"
                and _tok(b.children[0]) == "0"
                and a.data == "call"
                and _tok(a.children[0]) == "count"
                and len(self._args(a)) == 1
            ):
                return f"{self.value(self._args(a)[0])} is empty"
            return f"{self.value(a)} {CMP[o]} {self.value(b)}"
        if d in ("in_op", "not_in_op"):
            a, b = t.children
            neg = d == "not_in_op"
            if b.data == "list":
                return f"{self.value(a)} is {'not ' if neg else ''}one of {_join([self.value(x) for x in self._args(b)], 'or')}"
            return f"{self.value(a)} is {'not ' if neg else ''}in {self.value(b)}"
        if d == "name" and _tok(t.children[0]) in ("true", "false"):
            return "always" if _tok(t.children[0]) == "true" else "never"
        return self.value(t)

    # -- card tests, as noun phrases ----------------------------------------------
    def card_test(self, t) -> str:
        d = t.data
        if d == "compare" and _tok(t.children[1]) == "!=":
            a, _, b = t.children
            if a.data == "name" and _tok(a.children[0]) == "card" and b.data == "card":
                return "a card other than " + card_words(_tok(b.children[0]))
        if d == "compare" and _tok(t.children[1]) == "==":
            a, _, b = t.children
            if a.data == "name" and _tok(a.children[0]) == "card" and b.data == "card":
                return card_words(_tok(b.children[0]))
            if a.data == "attr" and _tok(a.children[0].children[0]) == "card":
                field = _tok(a.children[1])
                v = self._literal(b)
                if field == "suit":
                    if v == "led":
                        return "a card of the suit led"
                    if v == "trump":
                        return "a trump"
                    if v in SUIT_WORDS:
                        return article(SUIT_WORDS[v])
                if field == "rank" and v in RANK_WORDS:
                    return article(rank_word(v))
                if field == "colour" and v:
                    return article(v + " card")
                if v is None:
                    return f"a card whose {field} is {self.value(b)}"
        if d == "in_op":
            a, b = t.children
            if a.data == "attr" and _tok(a.children[0].children[0]) == "card" and b.data == "list":
                field = _tok(a.children[1])
                vals = [self._literal(x) for x in self._args(b)]
                if field == "rank" and all(v in RANK_WORDS for v in vals):
                    return _join([article(rank_word(v)) for v in vals], "or")
                if field == "suit" and all(v in SUIT_WORDS for v in vals):
                    return _join([article(SUIT_WORDS[str(v)]) for v in vals], "or")
        if d == "and_op":
            try:
                return self.card_conjunction(t)
            except _Unsaid:
                return "a card for which " + self.cond(t)
        if d == "or_op":
            return f"{self.card_test(t.children[0])} or {self.card_test(t.children[1])}"
        if d == "not_op":
            return f"a card other than {self.card_test(t.children[0])}"
        return "a card for which " + self.cond(t)

    def card_conjunction(self, t) -> str:
        """``card.rank == 2 and card.colour == "black"`` -> "a black two"."""
        parts, stack = [], [t]
        while stack:
            x = stack.pop()
            if x.data == "and_op":
                stack.extend(reversed(x.children))
            else:
                parts.append(x)
        fields: dict[str, str] = {}
        for x in parts:
            if not (
                x.data == "compare"
                and _tok(x.children[1]) == "=="
                and x.children[0].data == "attr"
                and _tok(x.children[0].children[0].children[0]) == "card"
            ):
                raise _Unsaid
            f, v = _tok(x.children[0].children[1]), self._literal(x.children[2])
            if v is None or f in fields:
                raise _Unsaid
            fields[f] = v
        noun = rank_word(fields["rank"]) if "rank" in fields else "card"
        if "colour" in fields:
            noun = f"{fields['colour']} {noun}"
        suit = fields.get("suit")
        if suit is not None:
            noun += {"led": " of the suit led", "trump": " of trumps"}.get(suit, " of " + SUIT_PLURAL.get(suit, suit))
        return article(noun)

    def _literal(self, t) -> str | None:
        if t.data in ("name", "number", "card"):
            return _tok(t.children[0])
        if t.data == "string":
            return _tok(t.children[0]).strip("\"'")
        return None


_COMBINATION_WORDS = {
    "best": "the worth of the best {name} in {zone}",
    "count_of": "the number of {name} combinations in {zone}",
    "cards_of": "the number of cards in the {name} combinations of {zone}",
    "size_of": "the number of cards of the best {name} in {zone}",
    "top_of": "the rank of the top card of the best {name} in {zone}",
    "value_of": "the value of the best {name} in {zone}",
    "tail_of": "the number of the last cards of {zone} that make one {name}",
}

_FUNCS = {
    *_COMBINATION_WORDS,
    "count",
    "any",
    "all",
    "sum_cards",
    "max_cards",
    "rank",
    "balance",
    "tricks_won",
    "top_seat",
    "count_seats",
    "sum_seats",
    "max_seats",
    "min_seats",
    "min",
    "max",
    "abs",
    "declared",
    "declarer",
    "holder",
    "joined",
    "index",
    "run",
    "top",
    "staked",
}


def duty(why: dict) -> str:
    """The rule that refused a move, as a sentence made from the rule (never
    its expression): "you must follow suit", "you must play a trump"."""
    test, tier = why.get("test"), why.get("tier")
    if why.get("rule") is None or test is None:
        return "it cannot be played now"
    if tier is None:
        said = words(test, "card")
        return f"you may lead only {said}" if said else "the lead rule does not allow it"
    if "".join(str(test).split()) == "card.suit==led":
        return "you must follow suit"
    said = words(test, "card")
    return f"you must play {said} when you can" if said else "the follow rule does not allow it"


def plural_of(test: str) -> str:
    """ "a heart" -> "hearts"; "a card of the suit led" -> "cards of the suit led";
    "a king, a queen or a jack" -> "kings, queens or jacks"."""
    items = _split_list(test)
    if len(items) > 1 and all(i.startswith(("a ", "an ")) and " " not in i.split(" ", 1)[1] for i in items):
        return _join([plural_of(i) for i in items], "or")
    for art in ("a ", "an "):
        if test.startswith(art):
            head, _, rest = test[len(art) :].partition(" ")
            plural = {"six": "sixes"}.get(head, head + "s")
            return (plural + (" " + rest if rest else "")).strip()
    if test.startswith("the "):
        return "copies of " + test
    return "cards that are " + test


def _split_list(text: str) -> list[str]:
    """ "a, b or c" -> ["a", "b", "c"] (one item when there is no list)."""
    head, sep, last = text.rpartition(" or ")
    if not sep:
        return [text]
    return [*head.split(", "), last]


def _strip_players(v: str) -> str:
    v = v.replace(" won by the player", " won").replace(" in the player's ", " in his ")
    for pre in ("the player's ", "the "):
        if v.startswith(pre):
            return v[len(pre) :]
    return v


def _join(items: list[str], conj: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]
