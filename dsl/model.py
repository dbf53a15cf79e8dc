"""Compile a resolved rule document into a static ``GameDef``.

Everything the interpreter needs is prepared here, once: the pack for each
number of players, the orders as card -> strength tables, every expression as
a closure. The interpreter never looks at the YAML again.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .cards import RANKS, SUITS, Card, card as _card
from .compiler import Expr, Scope, compile_expr
from .errors import Diagnostic, Pos, RuleError
from .loader import Doc, Limits, resolve, source_ids, strip_nulls

# What an expression must give where a number or a seat is expected (the last item names it).
_NUMBER = ("num", "seat", "bool", "a number")
_SEAT = ("seat", "num", "a seat")
_SEAT_OR_NONE = ("seat", "num", "none", "a seat (or none)")
_KIND_WORDS = {
    "num": "number",
    "bool": "truth value",
    "str": "text",
    "zone": "zone of cards",
    "holder": "money zone",
    "list": "list",
    "symbol": "name",
}

BUILTIN_SEAT_ZONES = ("hand",)
BUILTIN_ZONES = ("trick",)
STEP_KINDS = ("pay", "shuffle", "deal", "turnup", "announce", "tricks", "sequence", "effects")


# -- compiled pieces ------------------------------------------------------------
@dataclass
class Effect:
    op: str  # take | end_trick | pay | set | add
    args: dict
    when: Expr | None
    pos: Pos
    at: Expr | None = None  # the seat the effect is about, if not the one in hand
    path: tuple = ()  # where it is in the resolved document (the events name it as "rule")


@dataclass
class Payment:
    payer: Expr | None  # None: each seat
    payee: Expr | None  # None: each seat
    amount: Expr
    unit: str
    where: Expr | None
    exclude: Expr | None
    pos: Pos
    path: tuple = ()  # where it is in the resolved document (the events name it as "rule")


@dataclass
class EndRule:
    when: Expr
    after: str  # play | trick
    winner: Expr | None
    pos: Pos
    zone_only: bool = False  # reads only the seat's own card zones
    path: tuple = ()  # where it is in the resolved document (the events name it as "rule")


@dataclass
class Step:
    name: str
    kind: str
    pos: Pos
    when: Expr | None = None
    # pay
    payment: Payment | None = None
    # shuffle
    cut_by: Expr | None = None
    min_cut: int = 1
    # deal
    first: Expr | None = None
    hand: dict[int, int] = field(default_factory=dict)
    batches: dict[int, list[int] | int] = field(default_factory=dict)
    rest: str | None = None
    rest_count: dict[int, int] = field(default_factory=dict)
    # turnup
    to: str | None = None
    sets_trump: bool = True
    # announce
    declarations: list[str] = field(default_factory=list)
    # tricks / sequence
    leader: Expr | None = None
    must: list[Expr] = field(default_factory=list)
    free: Expr | None = None
    lead_test: Expr | None = None
    cannot_follow: list[Effect] = field(default_factory=list)
    winner_key: list[Expr] = field(default_factory=list)
    key_pure: bool = False  # the winner keys read only the card, led and trump
    won_to: str | None = None
    on_trick: list[Effect] = field(default_factory=list)
    end: list[EndRule] = field(default_factory=list)
    order: dict | None = None
    wrap: bool = False
    obtain: list[tuple[str, list[Effect]]] = field(default_factory=list)
    new_run: str = "last_player"
    effects: list[Effect] = field(default_factory=list)


@dataclass
class GameDef:
    id: str
    title: str
    doc: Doc
    min_players: int
    max_players: int
    suits: list[str]
    ranks: list[str]
    removals: list[tuple[Expr, Expr]]
    orders: dict[str, dict[Card, int]]
    direction: str
    seat_zones: list[str]
    zones: list[str]
    pools: list[str]
    currencies: dict[str, tuple[str, int] | None]
    start: list[Payment]
    vars: dict[str, tuple[bool, Expr | None, str]]
    declarations: dict[str, int]
    dealer_draw: dict | None
    dealer_seat: Expr | None
    steps: list[Step]
    hands: Expr | None
    until: Expr | None
    next_dealer: Expr | None
    hand_winner: Expr | None
    game_end: list[Effect]
    standings: Expr | None
    options: list[str]
    abstract: bool = False
    _packs: dict = field(default_factory=dict, repr=False)
    _pack_sets: dict = field(default_factory=dict, repr=False)

    def pack(self, players: int) -> list[Card]:
        """The cards in play for ``players`` players, in canonical order."""
        p = self._packs.get(players)
        if p is None:
            ctx = PackContext(players)
            cards = [_card(r + s) for s in self.suits for r in self.ranks]
            for when, test in self.removals:
                if when(ctx):
                    cards = [c for c in cards if not test(ctx, None, c)]
            p = self._packs[players] = sorted(cards, key=lambda c: c.canon)
        return list(p)

    def pack_set(self, players: int) -> frozenset:
        """The cards in play for ``players`` players, as a set."""
        ps = self._pack_sets.get(players)
        if ps is None:
            ps = self._pack_sets[players] = frozenset(self.pack(players))
        return ps

    def deal_counts(self, players: int) -> list[tuple[Step, int | None, list[int], int | None]]:
        """For each deal step: (step, cards per hand or None if the table has
        no entry for this many players, batches, expected rest)."""
        return [(st, *deal_plan(st, players)) for st in self.steps if st.kind == "deal"]


def deal_plan(st: Step, players: int) -> tuple[int | None, list[int], int | None]:
    """A deal step for ``players``: cards per hand (None: no entry), the
    batches of each round, the number of cards the rules say are left over."""
    per = st.hand.get(players, st.hand.get(0))
    rest = st.rest_count.get(players, st.rest_count.get(0))
    if per is None:
        return None, [], rest
    b = st.batches.get(players, st.batches.get(0, per))
    if isinstance(b, int):
        b = max(b, 1)
        batches = [b] * (per // b) + ([per % b] if per % b else [])
    else:
        batches = list(b)
    return per, batches, rest


class PackContext:
    """Just enough state to evaluate pack removals: the number of players."""

    def __init__(self, n):
        self.n = n


# -- the compiler ---------------------------------------------------------------
class _Model:
    def __init__(self, doc: Doc):
        self.doc, self.d = doc, strip_nulls(doc.data)
        self.limits: Limits = getattr(doc, "limits", None) or Limits()
        self.errors: list[Diagnostic] = []

    def pos(self, *path) -> Pos:
        return self.doc.pos(path)

    def err(self, path, message, code="model"):
        self.errors.append(Diagnostic(self.doc.pos(tuple(path)), message, code=code))

    def expr(self, path, kind="game", value=None, want: tuple | None = None) -> Expr | None:
        """Compile the expression at ``path``; ``want``: what it must give
        (e.g. ``_NUMBER``), checked here rather than found in play."""
        v = value if value is not None else _get(self.d, path)
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
            self.err(
                path,
                f"'{v}' gives a {_KIND_WORDS.get(e.kind, e.kind.split(':')[0])}, but {want[-1]} is expected here",
                "expression",
            )
            return None
        return e

    # -- sections ---------------------------------------------------------------
    def build(self) -> GameDef:
        d = self.d
        self.check_cites()
        self.scope = Scope()
        zones = d.get("zones", {}) or {}
        seat_zones = list(BUILTIN_SEAT_ZONES) + [
            z for z, v in zones.items() if v.get("per_seat") and not v.get("money")
        ]
        shared = list(BUILTIN_ZONES) + [z for z, v in zones.items() if not v.get("per_seat") and not v.get("money")]
        pools = [z for z, v in zones.items() if v.get("money")]
        for z in zones:
            if z in BUILTIN_SEAT_ZONES + BUILTIN_ZONES:
                self.err(("zones", z), f"'{z}' is built in: every game has it already")
            if zones[z].get("money") and zones[z].get("per_seat"):
                self.err(("zones", z), "a money zone is shared (seats hold money themselves)")
        money = d.get("money", {}) or {}
        currencies = {}
        for name, c in (money.get("currencies", {}) or {}).items():
            worth = c.get("worth")
            currencies[name] = next(iter(worth.items())) if worth else None
        for name, w in currencies.items():
            if w and w[0] not in currencies:
                self.err(("money", "currencies", name, "worth"), f"'{w[0]}' is not a currency of this game")
        vars_ = d.get("vars", {}) or {}
        decls = {k: v.get("max", 1) for k, v in (d.get("declarations", {}) or {}).items()}
        for k, m in decls.items():
            if m != 1:  # the announce step lets each declaration be made once a hand, by one seat
                self.err(
                    ("declarations", k, "max"),
                    f"declaration '{k}' has max: {m}, but a declaration is "
                    "made at most once a hand (by one seat): only max: 1 is supported",
                    "declaration",
                )
        orders: dict[str, dict] = {}
        for name, o in (d.get("orders", {}) or {}).items():
            ranks = [str(r) for r in o["ranks"]]
            if len(ranks) > self.limits.cards:
                self.err(
                    ("orders", name, "ranks"),
                    f"order '{name}' lists {len(ranks)} ranks, more than the limit "
                    f"of {self.limits.cards} (raise it with --max-cards)",
                    "limit",
                )
                orders[name] = {}
                continue
            dup = {r for r, k in Counter(ranks).items() if k > 1}
            if dup:
                self.err(("orders", name, "ranks"), f"order '{name}' lists {', '.join(sorted(dup))} twice")
            strength = {r: len(ranks) - i for i, r in enumerate(ranks)}  # highest first
            orders[name] = {_card(r + s): strength[r] for s in SUITS for r in ranks}
        self.scope = Scope(
            zones=set(shared),
            seat_zones=set(seat_zones),
            vars={k for k, v in vars_.items() if not v.get("per_seat")},
            seat_vars={k for k, v in vars_.items() if v.get("per_seat")},
            pools=set(pools),
            currencies=set(currencies),
            orders=orders,
            declarations=set(decls),
        )
        self.seat_zones, self.shared, self.pools = seat_zones, shared, pools

        players = d.get("players")
        if players is None and not d.get("abstract"):
            self.err((), "the game says nothing of its players: add players: {min:, max:, cite:}")
        pmin, pmax = (players or {}).get("min", 0), (players or {}).get("max", 0)
        if players and pmin > pmax:
            self.err(("players",), f"players: min {pmin} is more than max {pmax}")
        for key, v in (("min", pmin), ("max", pmax)):
            if isinstance(v, int) and v > self.limits.players:
                self.err(
                    ("players", key),
                    f"players: {key} {v} is more than the limit of {self.limits.players} "
                    "players (raise it with --max-players)",
                    "limit",
                )
                pmin, pmax = min(pmin, self.limits.players), min(pmax, self.limits.players)
        pack = d.get("pack") or {}
        suits = [str(s) for s in pack.get("suits", [])]
        ranks = [str(r) for r in pack.get("ranks", [])]
        if len(suits) * len(ranks) > self.limits.cards:
            self.err(
                ("pack",),
                f"the pack would hold {len(suits) * len(ranks)} cards ({len(suits)} suits × "
                f"{len(ranks)} ranks), more than the limit of {self.limits.cards} (raise it with --max-cards)",
                "limit",
            )
            suits, ranks = [], []
        for key, items in (("suits", suits), ("ranks", ranks)):
            seen = set()
            for i, x in enumerate(items):
                if x in seen:
                    self.err(("pack", key, i), f"the pack lists {key[:-1]} {x} twice: each card is in the pack once")
                seen.add(x)
        removals = []
        static = (
            {"players", "card", "suit", "rank", "colour", "true", "false", "none"}
            | set(SUITS)
            | set(RANKS)
            | set(orders)
        )
        for i, r in enumerate(pack.get("remove", []) or []):
            w = self.expr(("pack", "remove", i, "when"))
            t = self.expr(("pack", "remove", i, "cards"), "card")
            for e, key in ((w, "when"), (t, "cards")):
                if e is not None and not e.names <= static:
                    self.err(
                        ("pack", "remove", i, key),
                        "the pack is made before any game is played: a removal "
                        f"can only depend on the number of players and the card, not on "
                        f"{', '.join(sorted(e.names - static))}",
                    )
                    w = t = None
            if w and t:
                removals.append((w, t))
        if not pack and not d.get("abstract"):
            self.err((), "the game has no pack: add pack: {suits:, ranks:, cite:}")
        dealer = d.get("dealer") or {}
        draw = dealer.get("draw")
        if draw is not None:
            o = draw.get("order")
            if o is not None and o not in orders:
                self.err(("dealer", "draw", "order"), f"no order named '{o}' (orders: {', '.join(orders) or 'none'})")
        start = [
            self.payment(("money", "start", i, "give"), g["give"], pay_from_bank=True)
            for i, g in enumerate(money.get("start", []) or [])
        ]
        steps = []
        for name, s in (d.get("hand", {}) or {}).items():
            st = self.step(name, s)
            if st:
                steps.append(st)
        if not steps and not d.get("abstract"):
            self.err((), "the game has no hand: add hand: with its steps (deal, tricks, …)")
        vars_c = {
            k: (
                bool(v.get("per_seat")),
                self.bounded(self.expr(("vars", k, "initial"), want=_NUMBER), f"the counter '{k}'"),
                v.get("reset", "game"),
            )
            for k, v in vars_.items()
        }
        gd = GameDef(
            id=self.doc.id,
            title=d.get("title", self.doc.id),
            doc=self.doc,
            min_players=pmin,
            max_players=pmax,
            suits=suits,
            ranks=ranks,
            removals=removals,
            orders=orders,
            direction=(d.get("direction") or {}).get("value", "clockwise"),
            seat_zones=seat_zones,
            zones=shared,
            pools=pools,
            currencies=currencies,
            start=[p for p in start if p],
            vars=vars_c,
            declarations=decls,
            dealer_draw=draw,
            dealer_seat=self.expr(("dealer", "seat"), want=_SEAT),
            steps=steps,
            hands=self.expr(("game", "hands"), want=_NUMBER),
            until=self.expr(("game", "until")),
            next_dealer=self.expr(("game", "next_dealer"), want=_SEAT),
            hand_winner=self.expr(("game", "hand_winner"), want=_SEAT_OR_NONE),
            game_end=self.effects(("game", "end"), seat_bound=False),
            standings=self.expr(("game", "standings", "score"), "seat", want=_NUMBER),
            options=list(self.doc.options),
            abstract=bool(d.get("abstract")),
        )
        if not gd.abstract and not any(e.code == "limit" for e in self.errors):
            self.check_counts(gd)
        if self.errors:
            raise RuleError(self.errors)
        return gd

    def check_cites(self):
        known = source_ids()
        from .compiler import suggest

        for cpath, src, quote in self.doc.cites():
            if isinstance(quote, str) and len(quote) > self.limits.quote_length:
                where = cpath + (("quote",) if isinstance(_get(self.d, cpath), dict) else ())
                self.err(
                    where,
                    f"this quote is {len(quote)} characters long, more than the limit of "
                    f"{self.limits.quote_length} (cite a shorter passage, or raise the limit with "
                    "--max-quote-length)",
                    "limit",
                )
            if src is None:
                self.err(
                    cpath,
                    "this cite is a bare quote but the file names no default "
                    "source: add source: ID at the top, or write {source:, quote:}",
                    "cite",
                )
            elif src not in known:
                where = cpath + (("source",) if isinstance(_get(self.d, cpath), dict) else ())
                self.err(where, f"unknown source '{src}'" + suggest(src, known), "cite")

    def check_counts(self, gd: GameDef):
        for n in range(gd.min_players, gd.max_players + 1):
            try:
                size = len(gd.pack(n))
            except RuleError as e:  # a removal that fails for this many players
                self.errors.extend(d for d in e.diagnostics if d not in self.errors)
                return
            used = 0
            for st, per, batches, rest in gd.deal_counts(n):
                if per is None:
                    self.err(("hand", st.name, "hand"), f"the deal says nothing for {n} players")
                    continue
                if sum(batches) != per:
                    self.err(
                        ("hand", st.name, "batches"),
                        f"for {n} players the batches {'-'.join(map(str, batches))} deal "
                        f"{sum(batches)} cards, but a hand is {per}",
                    )
                used += per * n
                if rest is not None and used + rest != size:
                    self.err(
                        ("hand", st.name, "rest_count"),
                        f"for {n} players: {n} hands of {per} and {rest} left over make "
                        f"{per * n + rest} cards, but the pack has {size}",
                        "arithmetic",
                    )
            if used > size:
                self.err(("hand",), f"for {n} players the deal needs {used} cards, the pack has {size}", "arithmetic")

    def bounded(self, e: Expr | None, what: str) -> Expr | None:
        """``e``, refusing at run time (a located error) an integer of more than
        max(18, the limit of digits) digits: a counter or a payment that grows
        without end would cost time and memory, and could not be printed."""
        if e is None:
            return None
        digits = max(18, self.limits.int_digits)
        bound, fn = 10**digits, e.fn

        def checked(st, s, c):
            v = fn(st, s, c)
            if type(v) is int and not -bound < v < bound:
                raise RuleError(f"{what} would be a number of more than {digits} digits: {e.text}", e.pos, code="limit")
            return v

        e.fn = checked
        return e

    def zone_ref(self, path, text: str, seat_kind="seat") -> Expr | None:
        t = str(text).strip()
        if re.fullmatch(r"[A-Za-z_]\w*", t) and t in self.scope.seat_zones:
            t = f"{t}(seat)"
        e = self.expr(path, seat_kind, value=t)
        if e is not None and e.kind != "zone":
            self.err(path, f"'{text}' is not a zone (zones: {', '.join(self.shared + self.seat_zones)})")
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
        amount = self.expr(path + ("amount",), "seat", want=_NUMBER)
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
            where=self.expr(path + ("where",), "seat"),
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
        for i, e in enumerate(_get(self.d, path) or []):
            p = path + (i,)
            at = self.expr(p + ("at",), "seat" if seat_bound else "game")
            sk = "seat" if seat_bound or e.get("at") is not None else "game"
            when = self.expr(p + ("when",), sk)
            if at is not None and at.kind not in ("seat", "any"):
                self.err(p + ("at",), f"at: expects a seat, not a {at.kind}")
            ops = [k for k in e if k in ("take", "end_trick", "pay", "set", "add")]
            if len(ops) != 1:
                self.err(p, "an effect does one thing: take, end_trick, pay, set or add")
                continue
            op = ops[0]
            a = e[op]
            if op == "end_trick" and not end_trick:
                self.err(p + (op,), "end_trick can only be used in cannot_follow, where a trick is in play")
            if op == "take":
                frm, to = str(a["from"]).strip(), str(a["to"]).strip()
                own = re.fullmatch(r"(\w+)(?:\(\s*seat\s*\))?", to)
                args = {
                    "from": self.zone_ref(p + ("take", "from"), a["from"], sk),
                    "to": self.zone_ref(p + ("take", "to"), a["to"], sk),
                    "to_name": to.split("(")[0].strip(),
                    "cards": self.expr(p + ("take", "cards"), "card"),
                    # the shapes "a shared zone, whole" and "a zone of the seat's own":
                    # the interpreter moves those without evaluating anything
                    "from_shared": frm if frm in self.shared else None,
                    "to_own": own.group(1) if own and own.group(1) in self.seat_zones else None,
                }
            elif op == "end_trick":
                args = {"leader": self.expr(p + ("end_trick", "leader"), "seat", want=_SEAT)}
            elif op == "pay":
                args = {"payment": self.payment(p + ("pay",), a)}
            else:
                args = {}
                for k in a:
                    if k not in self.scope.vars and k not in self.scope.seat_vars:
                        self.err(p + (op, k), f"'{k}' is not a counter declared in vars:")
                    elif k in self.scope.seat_vars and sk == "game":
                        self.err(
                            p + (op, k),
                            f"'{k}' belongs to each seat, and this effect is about no seat: say whose with at: SEAT",
                        )
                    args[k] = (
                        k in self.scope.seat_vars,
                        self.bounded(self.expr(p + (op, k), sk, want=_NUMBER), f"the counter '{k}'"),
                    )
            out.append(Effect(op, args, when, self.doc.pos(p), at, tuple(p)))
        return out

    def by_players(self, path) -> dict:
        """A count given for every number of players, or per number of players
        ({4: 12, 5: 10}); counts beyond the limit of cards, and entries for
        more players than the limit allows, are refused here, before any deal
        is planned."""
        v = _get(self.d, path)
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

    def step(self, name, s) -> Step | None:
        base = ("hand", name)
        kind = s["kind"]
        st = Step(name=name, kind=kind, pos=self.doc.key_pos(base), when=self.expr(base + ("when",)))
        if kind == "pay":
            st.payment = self.payment(base, s)
        elif kind == "shuffle":
            st.cut_by = self.expr(base + ("cut_by",), want=_SEAT)
            st.min_cut = s.get("min_cut", 1)
        elif kind == "deal":
            st.first = self.expr(base + ("first",), want=_SEAT)
            st.hand = self.by_players(base + ("hand",))
            st.batches = self.by_players(base + ("batches",))
            st.rest_count = self.by_players(base + ("rest_count",))
            st.rest = s.get("rest")
            if st.rest is not None and st.rest not in self.shared:
                self.err(base + ("rest",), f"'{st.rest}' is not a shared zone (zones: {', '.join(self.shared)})")
        elif kind == "turnup":
            st.to = s["to"]
            st.sets_trump = s.get("sets_trump", True)
            st.rest = s.get("rest")
            for key in ("to", "rest"):
                z = s.get(key)
                if z is not None and z not in self.shared:
                    self.err(base + (key,), f"'{z}' is not a shared zone (zones: {', '.join(self.shared)})")
        elif kind == "announce":
            st.first = self.expr(base + ("first",), want=_SEAT)
            st.declarations = list(s["declarations"])
            for i, dname in enumerate(st.declarations):
                if dname not in self.scope.declarations:
                    self.err(base + ("declarations", i), f"'{dname}' is not declared under declarations:")
        elif kind == "tricks":
            st.leader = self.expr(base + ("leader",), want=_SEAT)
            f = s.get("follow") or {}
            st.must = [
                e for i in range(len(f.get("must", []))) if (e := self.expr(base + ("follow", "must", i), "card"))
            ]
            st.free = self.expr(base + ("follow", "free"), "card")
            st.lead_test = self.expr(base + ("follow", "lead"), "card")
            st.cannot_follow = self.effects(base + ("cannot_follow",), end_trick=True)
            st.winner_key = [
                e
                for i in range(len(s["winner"]["key"]))
                if (e := self.expr(base + ("winner", "key", i), "card", want=_NUMBER))
            ]
            pure = (
                {"card", "led", "trump", "rank", "suit", "colour", "true", "false", "none"}
                | set(SUITS)
                | set(RANKS)
                | set(self.scope.orders)
            )
            st.key_pure = all(e.names <= pure for e in st.winner_key)
            st.won_to = s.get("won_to")
            if st.won_to is not None and st.won_to not in self.seat_zones and st.won_to not in self.shared:
                self.err(
                    base + ("won_to",),
                    f"'{st.won_to}' is not a zone (declare it under zones:, "
                    f"per_seat: true for a pile in front of each player)",
                )
            st.on_trick = self.effects(base + ("on_trick",))
            st.end = self.end_rules(base + ("end",))
        elif kind == "sequence":
            st.leader = self.expr(base + ("leader",), want=_SEAT)
            oname = s.get("order", "sequence")
            if oname not in self.scope.orders:
                self.err(base + ("order",), f"no order named '{oname}' for the sequence")
            else:
                st.order = self.scope.orders[oname]
            st.wrap = bool(s.get("wrap", False))
            for i, ob in enumerate(s["obtain"]):
                zp = base + ("obtain", i)
                z = str(ob["zone"])
                if z not in self.seat_zones and z not in self.shared and z not in ("others",):
                    self.err(zp + ("zone",), f"'{z}' is not a zone")
                st.obtain.append((z, self.effects(zp + ("do",))))
            st.new_run = s.get("new_run", "last_player")
            st.end = self.end_rules(base + ("end",))
        elif kind == "effects":
            st.effects = self.effects(base + ("do",), seat_bound=False)
        return st

    def end_rules(self, path) -> list[EndRule]:
        out = []
        for i, e in enumerate(_get(self.d, path) or []):
            p = path + (i,)
            w = self.expr(p + ("when",), "seat")
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
                    self.expr(p + ("winner",), "seat", want=_SEAT_OR_NONE),
                    self.doc.pos(p),
                    zone_only,
                    tuple(p),
                )
            )
        return out


def _get(d, path):
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


def compile_doc(doc: Doc) -> GameDef:
    return _Model(doc).build()


def load_game(ref: str, options: list[str] | tuple = (), limits: Limits | None = None) -> GameDef:
    """Load, resolve and compile a rule file (corpus id or path)."""
    return compile_doc(resolve(ref, tuple(options), limits))
