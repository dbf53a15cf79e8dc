"""Building a GameDef, its tools and smallest pieces: each expression of the rule file compiled
and its kind checked where it is written (a number, a truth value, a seat …), and the pieces
steps are made of (effects, payments, the rules that end a play). A failure is collected as a
located diagnostic; the game's build raises them all at once (build_game.py)."""

from __future__ import annotations

import re

from .cards import RANKS, SUITS
from .compiler import _INDEX_HINT, Expr, Scope, _truth_hint, compile_expr
from .document import Doc
from .errors import Diagnostic, Pos, RuleError
from .gamedef import Effect, EndRule, Payment
from .limits import Limits
from .merging import strip_nulls

# What an expression must give where a number or a seat is expected (the last item names it).
WANT_NUMBER = ("num", "bool", "a number")  # a seat is not a number: index(SEAT) gives its place at the table
WANT_TRUTH = ("bool", "a truth value (a comparison or a test)")  # a condition: when, who, cards, allow …
WANT_SEAT = ("seat", "num", "a seat")
WANT_SEAT_OR_NONE = ("seat", "num", "none", "a seat (or none)")
_KIND_WORDS = {
    "num": "number",
    "bool": "truth value",
    "str": "text",
    "zone": "zone of cards",
    "holder": "money zone",
    "list": "list",
    "symbol": "name",
}


class PieceBuilder:
    """A rule document being built into a GameDef: the document (nulls stripped), the limits it
    is built with, the diagnostics found so far, and the tools every part of the build uses."""

    # the names the rule file declares and its zones, set by the game's build before any piece
    scope: Scope
    seat_zones: list[str]
    shared: list[str]
    families: dict[str, tuple]  # a family of piles -> its zones (zones: NAME: {piles: N})
    pools: list[str]
    team_var_names: frozenset

    def __init__(self, doc: Doc):
        self.doc, self.d = doc, strip_nulls(doc.data)
        self.limits: Limits = getattr(doc, "limits", None) or Limits()
        self.errors: list[Diagnostic] = []

    def pos(self, *path) -> Pos:
        return self.doc.pos(path)

    def err(self, path, message, code="model"):
        self.errors.append(Diagnostic(self.doc.pos(tuple(path)), message, code=code))

    def game_counter(self, path, name) -> str | None:
        """The name ``name`` given at ``path`` when it is a counter of the game (declared
        under ``vars:``, not per seat), else None and a located error."""
        if name not in self.scope.vars or name in self.scope.seat_vars:
            self.err(path, f"'{name}' is not a counter of the game (declare it under vars:, not per seat)")
            return None
        return str(name)

    def expr(self, path, kind="game", value=None, want: tuple | None = None) -> Expr | None:
        """Compile the expression at ``path``; ``want``: what it must give
        (e.g. ``WANT_NUMBER``), checked here rather than found in play."""
        v = value if value is not None else value_at(self.d, path)
        if v is None:
            return None
        if isinstance(v, bool):
            v = "true" if v else "false"
        try:
            e = compile_expr(str(v), self.doc.pos(tuple(path)), self.scope, kind, self.limits)
        except RuleError as err:
            self.errors.extend(err.diagnostics)
            return None
        if want is not None and e.kind not in want and e.kind != "any":
            hint = ""
            if want is WANT_TRUTH:
                hint = _truth_hint(e.kind)
            elif e.kind == "seat" and "num" in want:
                hint = _INDEX_HINT
            self.err(
                path,
                f"'{v}' gives a {_KIND_WORDS.get(e.kind, e.kind.split(':')[0])}, but {want[-1]} is expected here"
                + hint,
                "expression",
            )
            return None
        return e

    def bounded(self, e: Expr | None, what: str) -> Expr | None:
        """``e``, refusing at run time (a located error) an integer of more than
        max(18, the limit of digits) digits: a counter or a payment that grows
        without end would cost time and memory, and could not be printed."""
        if e is None:
            return None
        digits = max(18, self.limits.int_digits)
        bound, fn = 10**digits, e.fn
        t = e.text.strip()
        if not e.names and t.isascii() and t.isdigit() and int(t) < bound:  # a number written out, in bound
            return e

        def checked(st, s, c):
            v = fn(st, s, c)
            if type(v) is int and not -bound < v < bound:
                raise RuleError(f"{what} would be a number of more than {digits} digits: {e.text}", e.pos, code="limit")
            return v

        e.fn = checked
        if e.code is not None:  # the generated source checks its value too (interpreter/effect_code.py)
            e.code = e.code.bounded(bound, checked)
        return e

    def zone_ref(self, path, text: str, seat_kind="seat") -> Expr | None:
        t = str(text).strip()
        if re.fullmatch(r"[A-Za-z_]\w*", t) and t in self.scope.seat_zones:
            t = f"{t}(seat)"
        e = self.expr(path, seat_kind, value=t)
        if e is not None and e.kind != "zone":
            self.err(path, f"'{text}' is not a zone (zones: {', '.join(self.shared + ['pack'] + self.seat_zones)})")
        return e

    def holder(self, path, v) -> Expr | None:
        if v == "each":
            return None
        e = self.expr(path, "seat", value=v)
        if e is not None and e.kind not in ("seat", "holder", "any"):
            self.err(path, f"'{v}' is not a seat nor a money zone (money zones: {', '.join(self.pools) or 'none'})")
        return e

    def payment(self, path, p: dict, pay_from_bank=False) -> Payment | None:
        unit = p.get("unit")
        if unit not in self.scope.currencies:
            self.err(
                path + ("unit",),
                f"unknown currency '{unit}' (currencies: "
                f"{', '.join(sorted(self.scope.currencies)) or 'none declared in money:'})",
            )
        payer = None if pay_from_bank else self.holder(path + ("from",), p.get("from"))
        amount = self.expr(path + ("amount",), "seat", want=WANT_NUMBER)
        a = p.get("amount")
        if isinstance(a, int) and not isinstance(a, bool) and a < 0:
            self.err(path + ("amount",), f"an amount paid is not negative ({a}): swap from: and to:")
        amount = self.bounded(amount, "an amount")
        if amount is None or not isinstance(unit, str):  # already told (the schema requires both)
            return None
        return Payment(
            payer=payer,
            payee=self.holder(path + ("to",), p.get("to")),
            amount=amount,
            unit=unit,
            where=self.expr(path + ("where",), "seat", want=WANT_TRUTH),
            exclude=self.expr(path + ("except",), "seat"),
            pos=self.doc.pos(path),
            path=tuple(path),
        )

    def effects(self, path, end_trick: bool = False, seat_bound: bool = True) -> list[Effect]:
        """Compile a list of effects; ``end_trick`` is allowed only where a
        trick is being played and its effects can end it (cannot_follow).
        ``seat_bound``: whether the effects are about a seat (a player who
        renounced, won a trick …); where they are not (a step of effects, the
        end of the game), an effect without ``at:`` cannot speak of ``seat``."""
        out = []
        for i, e in enumerate(value_at(self.d, path) or []):
            p = path + (i,)
            each = e.get("at") if e.get("at") in ("each", "each_side") else None
            at = None if each else self.expr(p + ("at",), "seat" if seat_bound else "game")
            # when: is tested before at: rebinds the seat (about the seat in hand), so that it
            # guards at:; with at: each it is tested for every seat
            sk = "seat" if seat_bound or e.get("at") is not None else "game"
            when = self.expr(p + ("when",), "seat" if seat_bound or each else "game", want=WANT_TRUTH)
            if at is not None and at.kind not in ("seat", "num", "any"):
                self.err(p + ("at",), f"at: expects a seat, not a {at.kind}")
            ops = [k for k in e if k in ("take", "end_trick", "pay", "set", "add", "stake")]
            if len(ops) != 1:
                self.err(p, "an effect does one thing: take, end_trick, pay, set, add or stake")
                continue
            op = ops[0]
            a = e[op]
            if op == "end_trick" and not end_trick:
                self.err(p + (op,), "end_trick can only be used in cannot_follow, where a trick is in play")
            if op == "take":
                frm, to = str(a["from"]).strip(), str(a["to"]).strip()
                count = self.expr(p + ("take", "count"), sk, want=WANT_NUMBER)
                own = re.fullmatch(r"(\w+)(?:\(\s*seat\s*\))?", to)
                args = {
                    "from": self.zone_ref(p + ("take", "from"), a["from"], sk),
                    "to": self.zone_ref(p + ("take", "to"), a["to"], sk),
                    "to_name": to.split("(")[0].strip(),
                    "cards": self.expr(p + ("take", "cards"), "card", want=WANT_TRUTH),
                    # the shapes "a shared zone, whole" and "a zone of the seat's own":
                    # the interpreter moves those without evaluating anything
                    "from_shared": frm if frm in self.shared else None,
                    "to_own": own.group(1) if own and own.group(1) in self.seat_zones else None,
                    "count": count,
                }
            elif op == "end_trick":
                args = {"leader": self.expr(p + ("end_trick", "leader"), "seat", want=WANT_SEAT)}
            elif op == "pay":
                args = {"payment": self.payment(p + ("pay",), a)}
            elif op == "stake":
                if sk == "game":
                    self.err(
                        p + (op,), "a stake belongs to a seat, and this effect is about no seat: say whose with at:"
                    )
                on = self.expr(p + ("stake", "card"), sk)
                if on is not None and on.kind not in ("card", "any", "none"):
                    self.err(p + ("stake", "card"), f"card: names a card (its rank's target), not a {on.kind}")
                args = {
                    "on": on,
                    "to": self.bounded(self.expr(p + ("stake", "to"), sk, want=WANT_NUMBER), "a stake"),
                }
            else:
                args = {}
                for k in a:
                    if k not in self.scope.vars and k not in self.scope.seat_vars:
                        self.err(p + (op, k), f"'{k}' is not a counter declared in vars:")
                    elif k in self.scope.suit_vars:
                        self.err(p + (op, k), f"'{k}' holds a suit: only a choose_suit step (into: {k}) sets it")
                    elif k in self.scope.seat_vars and sk == "game":
                        self.err(
                            p + (op, k),
                            f"'{k}' belongs to each seat, and this effect is about no seat: say whose with at: SEAT",
                        )
                    args[k] = (
                        k in self.scope.seat_vars,
                        self.bounded(self.expr(p + (op, k), sk, want=WANT_NUMBER), f"the counter '{k}'"),
                    )
            team = frozenset(k for k in args if k in self.team_var_names) if op in ("set", "add") else frozenset()
            out.append(Effect(op, args, when, self.doc.pos(p), at, each, team, tuple(p)))
        return out

    def by_players(self, path) -> dict:
        """A count given for every number of players, or per number of players
        ({4: 12, 5: 10}); counts beyond the limit of cards, and entries for
        more players than the limit allows, are refused here, before any deal
        is planned."""
        v = value_at(self.d, path)
        if v is None:
            return {}
        table = v if isinstance(v, dict) else {0: v}
        out = {}
        for k, x in table.items():
            where = path + (k,) if isinstance(v, dict) else path
            if isinstance(k, str) and len(k) > self.limits.int_digits:
                self.err(
                    where, f"an entry for a number of players of more than {self.limits.int_digits} digits", "limit"
                )
                continue
            try:
                n = int(k)
            except (TypeError, ValueError):
                continue  # the schema has reported it
            if isinstance(v, dict) and n > self.limits.players:
                self.err(
                    where,
                    f"an entry for {k} players, more than the limit of {self.limits.players} "
                    "(raise it with --max-players)",
                    "limit",
                )
                continue
            counts = x if isinstance(x, list) else [x]
            bad = [
                c
                for c in counts
                if isinstance(c, int) and not isinstance(c, bool) and not (0 <= c <= self.limits.cards)
            ]
            if bad:
                self.err(
                    where,
                    f"{bad[0]} cards: a count of cards is between 0 and the limit of "
                    f"{self.limits.cards} (raise it with --max-cards)",
                    "limit",
                )
                continue
            if isinstance(x, list) and len(x) > self.limits.cards:
                self.err(where, f"{len(x)} batches, more than the limit of {self.limits.cards}", "limit")
                continue
            out[n] = x
        return out

    def end_rules(self, path) -> list[EndRule]:
        out = []
        for i, e in enumerate(value_at(self.d, path) or []):
            p = path + (i,)
            w = self.expr(p + ("when",), "seat", want=WANT_TRUTH)
            if w is None:
                continue
            seat_only = (
                self.scope.seat_zones
                | {"seat", "count", "any", "all", "rank", "card", "true", "false", "none", "players"}
                | set(self.scope.orders)
            )
            zone_only = w.names <= seat_only | set(SUITS) | set(RANKS)
            out.append(
                EndRule(
                    w,
                    e.get("after", "trick"),
                    self.expr(p + ("winner",), "seat", want=WANT_SEAT_OR_NONE),
                    self.doc.pos(p),
                    zone_only,
                    tuple(p),
                )
            )
        return out


def value_at(d, path):
    """The value at ``path`` in the document ``d`` (keys and list indexes), or None."""
    for k in path:
        if isinstance(d, dict):
            d = d.get(k)
        elif isinstance(d, list) and isinstance(k, int) and k < len(d):
            d = d[k]
        else:
            return None
        if d is None:
            return None
    return d
