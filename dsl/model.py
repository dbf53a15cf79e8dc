"""Compile a resolved rule document into a static ``GameDef``.

Everything the interpreter needs is prepared here, once: the pack for each
number of players, the orders as card -> strength tables, every expression as
a closure. The interpreter never looks at the YAML again.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import RANKS, SUITS, Card, card as _card
from .compiler import _INDEX_HINT, Expr, Scope, _truth_hint, compile_expr
from .errors import Diagnostic, Pos, RuleError
from .loader import Doc, Limits, resolve, source_ids, strip_nulls

# What an expression must give where a number or a seat is expected (the last item names it).
_NUMBER = ("num", "bool", "a number")  # a seat is not a number: index(SEAT) gives its place at the table
_TRUTH = ("bool", "a truth value (a comparison or a test)")  # a condition: when, who, cards, allow …
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
MAX_NUMBER = 10**18 - 1  # the greatest max of a choose_number step (its action ids are worked out, not listed)
BUILTIN_ZONES = ("trick",)
STEP_KINDS = (
    "pay",
    "shuffle",
    "deal",
    "turnup",
    "announce",
    "choose_number",
    "choose_suit",
    "choose_cards",
    "tricks",
    "sequence",
    "effects",
)


# -- compiled pieces ------------------------------------------------------------
@dataclass
class Effect:
    op: str  # take | end_trick | pay | set | add
    args: dict
    when: Expr | None
    pos: Pos
    at: Expr | None = None  # the seat the effect is about, if not the one in hand
    each: str | None = None  # at: each (every seat) or each_side (the first seat of every side)
    team_vars: frozenset = frozenset()  # the counters it sets that are kept by team
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
    hand_expr: Expr | None = None  # the cards each seat is dealt, as an expression (seat bound)
    # turnup
    to: str | None = None
    to_expr: Expr | None = None  # a zone that is not a shared one (the dealer's hand)
    sets_trump: bool = True
    # announce
    declarations: list[str] = field(default_factory=list)
    # choose_number / choose_cards: each seat from ``first`` that ``who`` admits chooses
    who: Expr | None = None  # which seats choose (seat bound); default every seat
    low: Expr | None = None  # the least number (of cards) a seat may choose (seat bound)
    high: Expr | None = None  # the greatest
    high_literal: int | None = None  # ``max`` when written as a number
    allow: Expr | None = None  # choose_number: the numbers allowed (``value``, ``seat`` bound)
    into: str | None = None  # the per-seat counter that keeps the number (of cards) chosen
    src: Expr | None = None  # choose_cards: the zone the cards are chosen from (seat bound)
    dest: Expr | None = None  # choose_cards: the zone they go to (seat bound: the chooser)
    card_test: Expr | None = None  # choose_cards: which cards may be chosen
    suits: tuple[str, ...] = ()  # choose_suit: the suits offered (empty: every suit of the pack)
    label: str | None = None  # a choice: what it asks, in the game's words (``label:``)
    value_labels: dict[int, str] = field(default_factory=dict)  # choose_number: each number's words (``values:``)
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
    on_play: list[Effect] = field(default_factory=list)  # after each card played, seat = its player
    lead_passes: bool = False  # a leader without cards: the next seat with a card leads
    end: list[EndRule] = field(default_factory=list)
    order: dict | None = None
    wrap: bool = False
    obtain: list[tuple[str, list[Effect]]] = field(default_factory=list)
    new_run: str = "last_player"
    by_rank: bool = False  # sequence: the next card is any card of the next rank, whatever its suit
    stops: Expr | None = None  # sequence: cards played for any card, that end the run
    unheld: str = "error"  # sequence: a card required that the player cannot obtain: error | pass
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
    teams: tuple | None = None  # ("of", Expr) | ("sides", [[Expr, …], …]); None: each seat a side
    team_vars: frozenset = frozenset()  # per-seat counters kept by team
    # the greatest number a choose_number step may offer (each number has an action id up to it)
    number_bound: int = 0
    scope: Scope | None = field(default=None, repr=False, compare=False)
    # counter -> how seats see it (``vars: NAME: shown:``): public, own, hidden, declared (public once
    # a cell scores), "declared COUNTER" (public once the same seat's cell of COUNTER is declared);
    # derived (the default) is worked out from the hidden cards its value depends on (interpreter/visibility.py)
    shown: dict[str, str] = field(default_factory=dict)  # the names the rule file declares (dsl.compiler.Scope)
    # counter -> the game's word for it (``vars: NAME: label:``), for the players
    labels: dict[str, str] = field(default_factory=dict)
    # counter -> what it counts as won (``vars: NAME: wins: {one, of}``), for the narration
    wins: dict[str, dict] = field(default_factory=dict)
    _teams: dict = field(default_factory=dict, repr=False)
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

    def team_of(self, players: int) -> list[int]:
        """The side of each seat for ``players`` players (0, 1, …): from
        ``teams:``, or each seat a side of its own."""
        t = self._teams.get(players)
        if t is None:
            t = self._teams[players] = team_table(self.teams, players)
        return t

    def deal_counts(self, players: int) -> list[tuple[Step, int | None, list[int], int | None]]:
        """For each deal step: (step, cards per hand or None if the table has
        no entry for this many players, batches, expected rest)."""
        return [(st, *deal_plan(st, players)) for st in self.steps if st.kind == "deal"]


def team_table(teams: tuple | None, players: int) -> list[int]:
    """Each seat's side, numbered 0, 1, … in the order the sides are first met
    (by ``sides`` as written, or by seat for ``of``). A seat named by two sides,
    or by none, is a located error."""
    ctx = PackContext(players)
    if teams is None or teams[0] == "hand":  # sides by hand: read in play (compiler.sides_of)
        return list(range(players))
    kind, spec = teams
    if kind == "of":
        raw = [spec.fn(ctx, s, None) for s in range(players)]
        names: dict = {}
        return [names.setdefault(v, len(names)) for v in raw]
    side: list[int | None] = [None] * players
    for i, exprs in enumerate(spec):
        for e in exprs:
            v = e.fn(ctx, None, None)
            if not isinstance(v, int) or isinstance(v, bool):
                raise RuleError(f"'{e.text}' names no seat (it gives {v!r})", e.pos, code="teams")
            v %= players
            if side[v] is not None and side[v] != i:
                raise RuleError(f"for {players} players seat {v} is on two sides", e.pos, code="teams")
            side[v] = i
    missing = [str(x) for x, t in enumerate(side) if t is None]
    if missing:
        at = spec[0][0].pos
        raise RuleError(f"for {players} players seat {', '.join(missing)} is on no side", at, code="teams")
    return [t for t in side if t is not None]


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
            hint = ""
            if want is _TRUTH:
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
            zones=set(shared) | {"pack"},  # the cards not yet dealt: a zone an effect may take from or to
            seat_zones=set(seat_zones),
            vars={k for k, v in vars_.items() if not v.get("per_seat")},
            seat_vars={k for k, v in vars_.items() if v.get("per_seat") or v.get("per_team")},
            pools=set(pools),
            currencies=set(currencies),
            orders=orders,
            declarations=set(decls),
            suit_vars={k for k, v in vars_.items() if v.get("holds") == "suit"},
        )
        self.seat_zones, self.shared, self.pools = seat_zones, shared, pools
        self.team_var_names = frozenset(k for k, v in vars_.items() if v.get("per_team"))

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
            w = self.expr(("pack", "remove", i, "when"), want=_TRUTH)
            t = self.expr(("pack", "remove", i, "cards"), "card", want=_TRUTH)
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
        teams = self.teams(d.get("teams"))
        team_vars = frozenset(k for k, v in vars_.items() if v.get("per_team"))
        for k in team_vars:
            if vars_[k].get("per_seat"):
                self.err(("vars", k), f"counter '{k}' is kept per_seat or per_team, not both")
        for k, v in vars_.items():
            if v.get("holds") == "suit" and ("initial" in v or v.get("per_team")):
                self.err(
                    ("vars", k), f"counter '{k}' holds a suit: it starts empty (none) and is kept per seat or once"
                )
        for k, v in vars_.items():
            with_ = v.get("shown").get("declared_with") if isinstance(v.get("shown"), dict) else None
            if with_ is not None and (
                with_ not in vars_
                or bool(vars_[with_].get("per_seat") or vars_[with_].get("per_team"))
                != bool(v.get("per_seat") or v.get("per_team"))
                or vars_[with_].get("shown") != "declared"
            ):
                self.err(
                    ("vars", k, "shown", "declared_with"),
                    f"counter '{k}' is shown with '{with_}', which is no counter shown: declared and kept "
                    + ("per seat" if v.get("per_seat") or v.get("per_team") else "once")
                    + " as it is",
                )
        vars_c = {
            k: (
                bool(v.get("per_seat") or v.get("per_team")),
                self.expr(("vars", k), value="none")
                if v.get("holds") == "suit"
                else self.bounded(self.expr(("vars", k, "initial"), want=_NUMBER), f"the counter '{k}'"),
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
            until=self.expr(("game", "until"), want=_TRUTH),
            next_dealer=self.expr(("game", "next_dealer"), want=_SEAT),
            hand_winner=self.expr(("game", "hand_winner"), want=_SEAT_OR_NONE),
            game_end=self.effects(("game", "end"), seat_bound=False),
            standings=self.expr(("game", "standings", "score"), "seat", want=_NUMBER),
            options=list(self.doc.options),
            abstract=bool(d.get("abstract")),
            teams=teams,
            team_vars=team_vars,
            scope=self.scope,
            shown={k: _shown(v["shown"]) for k, v in vars_.items() if v.get("shown") not in (None, "derived")},
            labels={k: v["label"] for k, v in vars_.items() if isinstance(v.get("label"), str)},
            wins={k: dict(v["wins"]) for k, v in vars_.items() if isinstance(v.get("wins"), dict)},
        )
        numbers = [st for st in steps if st.kind == "choose_number"]
        if numbers and not gd.abstract and not self.errors:
            # a max written as a number bounds the step; any other, the size of the pack (a count of
            # cards or of tricks never exceeds it)
            biggest = max(len(gd.pack(n)) for n in range(max(gd.min_players, 1), gd.max_players + 1))
            gd.number_bound = max(st.high_literal if st.high_literal is not None else biggest for st in numbers)
        if teams is not None and teams[0] != "hand" and not gd.abstract:
            for n in range(max(gd.min_players, 1), gd.max_players + 1):
                try:
                    gd.team_of(n)
                except RuleError as e:
                    self.errors.extend(x for x in e.diagnostics if x not in self.errors)
                    break
        if not gd.abstract and not any(e.code == "limit" for e in self.errors):
            self.check_counts(gd)
        if self.errors:
            raise RuleError(self.errors)
        return gd

    def teams(self, t) -> tuple | None:
        """``teams:``: ``of: EXPR`` (a seat's side, by a pattern of ``seat`` and
        ``players``) or ``sides: [[SEAT, …], …]`` (seat expressions of
        ``players``). Sides are fixed for the game: known from the number of
        players alone."""
        if not t:
            return None
        static = {"players", "seat", "true", "false", "none", "min", "max", "abs", "index"}
        if ("of" in t) == ("sides" in t):
            self.err(("teams",), "teams: gives either of: (a seat's side) or sides: (the seats of each side)")
            return None
        if t.get("each_hand") and "of" not in t:
            self.err(("teams", "each_hand"), "sides that change from hand to hand are given by of: (an expression)")
            return None
        if "of" in t:
            e = self.expr(("teams", "of"), "seat", want=None if t.get("each_hand") else _NUMBER)
            if e is None:
                return None
            if t.get("each_hand"):  # read from the hand in progress: the holder of a called card
                return ("hand", e)
            if not e.names <= static:
                self.err(
                    ("teams", "of"),
                    "the sides are fixed for the game: teams can only depend on the seat and the number "
                    f"of players, not on {', '.join(sorted(e.names - static))}",
                )
                return None
            return ("of", e)
        sides = []
        for i, side in enumerate(t["sides"]):
            exprs = []
            for j, _ in enumerate(side):
                e = self.expr(("teams", "sides", i, j), want=_SEAT)
                if e is None:
                    continue
                if not e.names <= static - {"seat"}:
                    self.err(
                        ("teams", "sides", i, j),
                        "the sides are fixed for the game: a seat of a side can only depend on the number "
                        f"of players, not on {', '.join(sorted(e.names - static))}",
                    )
                    continue
                exprs.append(e)
            if exprs:
                sides.append(exprs)
        return ("sides", sides) if sides else None

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
        """For every number of players: each deal's table has an entry, its
        batches add up to a hand, and the cards dealt (by the deal steps before
        it too) and left over make the pack. A step whose ``when:`` reads only
        the number of players is checked where it holds; one whose ``when:``
        reads more (the hand number …) is checked as an alternative, on top of
        the steps that always run, and adds nothing to them. A deal whose
        size is an expression of the seat and the players is counted too; one
        that reads more is checked in play."""
        static = {"players", "seat", "true", "false", "none", "min", "max", "abs", "index"}
        for n in range(gd.min_players, gd.max_players + 1):
            try:
                size = len(gd.pack(n))
            except RuleError as e:  # a removal that fails for this many players
                self.errors.extend(d for d in e.diagnostics if d not in self.errors)
                return
            ctx = PackContext(n)
            used: int | None = 0  # cards dealt by the steps that always run (None: not known)
            for st in (x for x in gd.steps if x.kind == "deal"):
                where = ("hand", st.name)
                always = st.when is None
                if st.when is not None and st.when.names <= static - {"seat"}:
                    if not st.when.fn(ctx, None, None):
                        continue
                    always = True
                if st.hand_expr is None and isinstance(_get(self.d, where + ("hand",)), str):
                    used = None  # an expression already reported
                    continue
                if st.hand_expr is not None:
                    if not st.hand_expr.names <= static:
                        used = None
                        continue
                    try:
                        sizes = [st.hand_expr.fn(ctx, x, None) for x in range(n)]
                    except RuleError as e:
                        self.errors.extend(d for d in e.diagnostics if d not in self.errors)
                        continue
                    bad = [v for v in sizes if not isinstance(v, int) or v < 0]
                    if bad:
                        self.err(where + ("hand",), f"for {n} players a seat is dealt {bad[0]} cards")
                        continue
                    dealt, shown = sum(sizes), "hands of " + "/".join(map(str, sizes))
                    rest = deal_plan(st, n)[2]
                else:
                    per, batches, rest = deal_plan(st, n)
                    if per is None:
                        self.err(where + ("hand",), f"the deal says nothing for {n} players")
                        continue
                    if sum(batches) != per:
                        self.err(
                            where + ("batches",),
                            f"for {n} players the batches {'-'.join(map(str, batches))} deal "
                            f"{sum(batches)} cards, but a hand is {per}",
                        )
                    dealt, shown = per * n, f"{n} hands of {per}"
                if used is None:
                    continue
                before = f"{used} cards dealt by the steps before, " if used else ""
                if rest is not None and used + dealt + rest != size:
                    self.err(
                        where + ("rest_count",),
                        f"for {n} players: {before}{shown} and {rest} left over make "
                        f"{used + dealt + rest} cards, but the pack has {size}",
                        "arithmetic",
                    )
                elif used + dealt > size:
                    self.err(
                        where,
                        f"for {n} players the deal needs {used + dealt} cards, the pack has {size}"
                        + (f" ({used} of them dealt by the steps before)" if used else ""),
                        "arithmetic",
                    )
                if always:
                    used += dealt

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
            where=self.expr(path + ("where",), "seat", want=_TRUTH),
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
            each = e.get("at") if e.get("at") in ("each", "each_side") else None
            at = None if each else self.expr(p + ("at",), "seat" if seat_bound else "game")
            # when: is tested before at: rebinds the seat (about the seat in hand), so that it
            # guards at:; with at: each it is tested for every seat
            sk = "seat" if seat_bound or e.get("at") is not None else "game"
            when = self.expr(p + ("when",), "seat" if seat_bound or each else "game", want=_TRUTH)
            if at is not None and at.kind not in ("seat", "num", "any"):
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
                count = self.expr(p + ("take", "count"), sk, want=_NUMBER)
                own = re.fullmatch(r"(\w+)(?:\(\s*seat\s*\))?", to)
                args = {
                    "from": self.zone_ref(p + ("take", "from"), a["from"], sk),
                    "to": self.zone_ref(p + ("take", "to"), a["to"], sk),
                    "to_name": to.split("(")[0].strip(),
                    "cards": self.expr(p + ("take", "cards"), "card", want=_TRUTH),
                    # the shapes "a shared zone, whole" and "a zone of the seat's own":
                    # the interpreter moves those without evaluating anything
                    "from_shared": frm if frm in self.shared else None,
                    "to_own": own.group(1) if own and own.group(1) in self.seat_zones else None,
                    "count": count,
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
                    elif k in self.scope.suit_vars:
                        self.err(p + (op, k), f"'{k}' holds a suit: only a choose_suit step (into: {k}) sets it")
                    elif k in self.scope.seat_vars and sk == "game":
                        self.err(
                            p + (op, k),
                            f"'{k}' belongs to each seat, and this effect is about no seat: say whose with at: SEAT",
                        )
                    args[k] = (
                        k in self.scope.seat_vars,
                        self.bounded(self.expr(p + (op, k), sk, want=_NUMBER), f"the counter '{k}'"),
                    )
            team = frozenset(k for k in args if k in self.team_var_names) if op in ("set", "add") else frozenset()
            out.append(Effect(op, args, when, self.doc.pos(p), at, each, team, tuple(p)))
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
        st = Step(name=name, kind=kind, pos=self.doc.key_pos(base), when=self.expr(base + ("when",), want=_TRUTH))
        if kind == "pay":
            st.payment = self.payment(base, s)
        elif kind == "shuffle":
            st.cut_by = self.expr(base + ("cut_by",), want=_SEAT)
            st.min_cut = s.get("min_cut", 1)
        elif kind == "deal":
            st.first = self.expr(base + ("first",), want=_SEAT)
            h = s.get("hand")
            if isinstance(h, str):  # an expression of the seat, the players, the hand number …
                st.hand_expr = self.expr(base + ("hand",), "seat", want=_NUMBER)
            else:
                st.hand = self.by_players(base + ("hand",))
            st.batches = self.by_players(base + ("batches",))
            st.rest_count = self.by_players(base + ("rest_count",))
            st.rest = s.get("rest")
            if st.rest is not None and st.rest not in self.shared:
                self.err(base + ("rest",), f"'{st.rest}' is not a shared zone (zones: {', '.join(self.shared)})")
        elif kind == "turnup":
            to = str(s["to"]).strip()
            st.sets_trump = s.get("sets_trump", True)
            st.rest = s.get("rest")
            if to in self.shared:
                st.to = to
            else:  # a seat's zone: hand(dealer)
                st.to_expr = self.zone_ref(base + ("to",), to, "game")
            z = s.get("rest")
            if z is not None and z not in self.shared:
                self.err(base + ("rest",), f"'{z}' is not a shared zone (zones: {', '.join(self.shared)})")
        elif kind == "announce":
            st.first = self.expr(base + ("first",), want=_SEAT)
            st.declarations = list(s["declarations"])
            for i, dname in enumerate(st.declarations):
                if dname not in self.scope.declarations:
                    self.err(base + ("declarations", i), f"'{dname}' is not declared under declarations:")
        elif kind in ("choose_number", "choose_cards", "choose_suit"):
            self.choose_step(st, base, s)
        elif kind == "tricks":
            st.leader = self.expr(base + ("leader",), want=_SEAT)
            f = s.get("follow") or {}
            st.must = [
                e
                for i in range(len(f.get("must", [])))
                if (e := self.expr(base + ("follow", "must", i), "card", want=_TRUTH))
            ]
            st.free = self.expr(base + ("follow", "free"), "card", want=_TRUTH)
            st.lead_test = self.expr(base + ("follow", "lead"), "card", want=_TRUTH)
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
            st.lead_passes = bool(s.get("lead_passes", False))
            if st.won_to is not None and st.won_to not in self.seat_zones and st.won_to not in self.shared:
                self.err(
                    base + ("won_to",),
                    f"'{st.won_to}' is not a zone (declare it under zones:, "
                    f"per_seat: true for a pile in front of each player)",
                )
            st.on_trick = self.effects(base + ("on_trick",))
            st.on_play = self.effects(base + ("on_play",))
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
            st.by_rank = bool(s.get("by_rank", False))
            if "stops" in s:
                st.stops = self.expr(base + ("stops",), "card", want=_TRUTH)
            st.unheld = s.get("unheld", "error")
            st.on_play = self.effects(base + ("on_play",))
            st.end = self.end_rules(base + ("end",))
        elif kind == "effects":
            st.effects = self.effects(base + ("do",), seat_bound=False)
        return st

    def choose_step(self, st: Step, base: tuple, s: dict) -> None:
        """A step where players choose: a number (``choose_number``) or cards
        (``choose_cards``)."""
        st.first = self.expr(base + ("first",), want=_SEAT)
        st.who = self.expr(base + ("who",), "seat", want=_TRUTH)
        if isinstance(s.get("label"), str):
            st.label = s["label"]
        if isinstance(s.get("values"), dict):
            st.value_labels = {int(k): v for k, v in s["values"].items() if str(k).isdigit() and isinstance(v, str)}
        if st.kind == "choose_suit":
            self.suit_step(st, base, s)
            return
        if "count" in s:  # exactly so many: min and max alike
            for k in ("min", "max"):
                if k in s:
                    self.err(base + (k,), "count: says how many exactly; leave out min: and max:")
            st.low = st.high = self.bounded(self.expr(base + ("count",), "seat", want=_NUMBER), "a count")
            raw = s.get("count")
        else:
            st.low = self.expr(base + ("min",), "seat", want=_NUMBER)
            st.high = self.expr(base + ("max",), "seat", want=_NUMBER)
            raw = s.get("max")
        if isinstance(raw, int) and not isinstance(raw, bool):
            if st.kind == "choose_number" and raw > MAX_NUMBER:
                self.err(
                    base + ("count" if "count" in s else "max",),
                    f"a number to choose is at most {MAX_NUMBER:,} (10^18 - 1), not a number of {len(str(raw))} digits",
                    code="limit",
                )
            else:
                st.high_literal = raw
        into = s.get("into")
        if into is not None:
            if (
                into not in self.scope.seat_vars
                or into in self.scope.suit_vars
                or (self.d.get("vars") or {}).get(into, {}).get("per_team")
            ):
                self.err(
                    base + ("into",),
                    f"'{into}' is not a counter kept per seat (declare it under vars:, per_seat: true)",
                )
            else:
                st.into = into
        if st.kind == "choose_number":
            if st.high is None:
                self.err(base, "a choose_number step says the greatest number a seat may choose (max: or count:)")
            if into is None:
                self.err(
                    base, "a choose_number step keeps each seat's number in a counter (into: NAME, per_seat: true)"
                )
            st.allow = self.expr(base + ("allow",), "value", want=_TRUTH)
        else:
            st.src = self.zone_ref(base + ("from",), s.get("from", "hand"))
            st.dest = self.zone_ref(base + ("to",), s["to"])
            st.card_test = self.expr(base + ("cards",), "card", want=_TRUTH)
            if st.high is None:
                self.err(base, "a choose_cards step says how many cards a seat chooses (count:, or min: and max:)")

    def suit_step(self, st: Step, base: tuple, s: dict) -> None:
        """``choose_suit``: each chooser names a suit (``suits``, those ``allow``
        admits), kept in ``into`` (a per-seat counter that holds a suit) and,
        unless ``sets_trump: false``, made the hand's trump."""
        st.suits = tuple(s.get("suits") or ())
        for i, x in enumerate(st.suits):
            if x not in self.d.get("pack", {}).get("suits", SUITS):
                self.err(base + ("suits", i), f"'{x}' is not a suit of the pack")
        st.allow = self.expr(base + ("allow",), "suit_value", want=_TRUTH)
        st.sets_trump = s.get("sets_trump", True)
        into = s.get("into")
        if into is not None:
            if into not in self.scope.suit_vars or not (self.d.get("vars") or {}).get(into, {}).get("per_seat"):
                self.err(
                    base + ("into",),
                    f"'{into}' is not a counter that holds a suit, per seat (vars: {into}: "
                    "{per_seat: true, holds: suit})",
                )
            else:
                st.into = into
        elif not st.sets_trump:
            self.err(base, "a choose_suit step keeps the suit: into: NAME, or the trump (sets_trump: true)")

    def end_rules(self, path) -> list[EndRule]:
        out = []
        for i, e in enumerate(_get(self.d, path) or []):
            p = path + (i,)
            w = self.expr(p + ("when",), "seat", want=_TRUTH)
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


def _shown(how: Any) -> str:
    """``shown:`` as ``GameDef.shown`` keeps it: the word, or ``declared COUNTER`` for ``{declared_with: COUNTER}``."""
    return f"declared {how['declared_with']}" if isinstance(how, dict) else str(how)
