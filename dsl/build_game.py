"""Building a GameDef, the game as a whole: the sections of a resolved rule document (zones,
money, counters, orders, players, pack, dealer, the hand's steps, the game's end) compiled into a
``GameDef``, and the checks that need the whole game (citations and their sources, sides, the
count of cards dealt for every number of players). Every problem found is reported at once, each
at its place in the rule file."""

from __future__ import annotations

from collections import Counter
import sys
from typing import Any

from .build_copies import build_copies
from .build_pieces import WANT_NUMBER, WANT_SEAT, WANT_SEAT_OR_NONE, WANT_TRUTH, value_at
from .build_steps import StepBuilder
from .cards import RANKS, SUITS, card as _card
from .build_combinations import build as build_combinations
from .wild import wild_cards
from .compiler import Scope
from .corpus import source_ids
from .document import Doc
from .errors import RuleError
from .functions.banking import STAKE
from .gamedef import BUILTIN_SEAT_ZONES, BUILTIN_ZONES, GameDef, PackContext, deal_plan
from .limits import Limits
from .saying import sayings
from .loader import resolve


class GameBuilder(StepBuilder):
    """A resolved rule document built into a GameDef (``build``)."""

    def build(self) -> GameDef:
        d = self.d
        self.check_cites()
        self.scope = Scope()
        zones = d.get("zones", {}) or {}
        seat_zones = list(BUILTIN_SEAT_ZONES) + [
            sys.intern(z) for z, v in zones.items() if v.get("per_seat") and not v.get("money")
        ]
        # a family of piles (``piles: N``): the shared zones NAME1 … NAMEN, read together as NAME
        families = {
            z: tuple(f"{z}{i}" for i in range(1, int(v["piles"]) + 1))
            for z, v in zones.items()
            if isinstance(v.get("piles"), int) and not v.get("per_seat") and not v.get("money")
        }
        shared = list(BUILTIN_ZONES)
        for z, v in zones.items():
            if not v.get("per_seat") and not v.get("money"):
                shared.extend(sys.intern(x) for x in families.get(z, (z,)))
        for z, names in families.items():
            for x in names:
                if x in zones:
                    self.err(("zones", z), f"'{x}' is a pile of the family '{z}' and a zone of its own")
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
        combs = build_combinations(
            d.get("combinations", {}) or {},
            orders,
            lambda path, msg: self.err(("combinations", *path), msg),
            self.limits.cards,
        )
        wild_cards(
            d.get("combinations", {}) or {},
            combs,
            lambda path, msg: self.err(("combinations", *path), msg),
            int((d.get("pack") or {}).get("jokers", 0) or 0),
        )
        self.scope = Scope(
            zones=set(shared) | {"pack"},  # the cards not yet dealt: a zone an effect may take from or to
            families=families,
            seat_zones=set(seat_zones),
            vars={k for k, v in vars_.items() if not v.get("per_seat")},
            seat_vars={k for k, v in vars_.items() if v.get("per_seat") or v.get("per_team")},
            pools=set(pools),
            currencies=set(currencies),
            orders=orders,
            declarations=set(decls),
            suit_vars={k for k, v in vars_.items() if v.get("holds") == "suit"},
            combinations=combs,
        )
        self.seat_zones, self.shared, self.pools = seat_zones, shared, pools
        taken = self.scope.zones | self.scope.seat_zones | self.scope.vars | self.scope.seat_vars | self.scope.pools
        taken |= self.scope.currencies | set(orders) | set(decls) | set(SUITS) | set(RANKS) | set(families)
        for name in combs:
            if name in taken or name in ("seat", "card", "true", "false", "none", "value"):
                self.err(
                    ("combinations", name),
                    f"'{name}' already names something else in this file: give the combination another name",
                )
        self.families = families
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
            w = self.expr(("pack", "remove", i, "when"), want=WANT_TRUTH)
            t = self.expr(("pack", "remove", i, "cards"), "card", want=WANT_TRUTH)
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
        copies = build_copies(self, pack, len(suits) * len(ranks), static)
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
        if (d.get("pack") or {}).get("jokers") and any(st.kind == "tricks" for st in steps):
            self.err(("pack", "jokers"), "the joker has no suit to lead or follow: a game of tricks has no joker")
        if (d.get("pack") or {}).get("jokers") and any(st.kind == "asking" for st in steps):
            self.err(
                ("pack", "jokers"), "the joker has no rank to ask for or make a book of: a game of asking has no joker"
            )
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
        vars_c = {  # the names interned: the generated code's constants are the same objects (dsl/codegen.py)
            sys.intern(k): (
                bool(v.get("per_seat") or v.get("per_team")),
                self.expr(("vars", k), value="none")
                if v.get("holds") == "suit"
                else self.bounded(self.expr(("vars", k, "initial"), want=WANT_NUMBER), f"the counter '{k}'"),
                v.get("reset", "game"),
            )
            for k, v in vars_.items()
        }
        for st in steps:  # the stakes of a stake step: a per-seat counter for each target, from the start
            if st.stake is not None:
                for key in dict.fromkeys(rank or name for name, rank in st.stake.targets.items()):
                    vars_c.setdefault(STAKE + key, (True, None, "game"))
        gd = GameDef(
            id=self.doc.id,
            title=d.get("title", self.doc.id),
            family=d.get("family"),
            doc=self.doc,
            min_players=pmin,
            max_players=pmax,
            suits=suits,
            ranks=ranks,
            removals=removals,
            copies=copies,
            jokers=int(pack.get("jokers", 0) or 0),
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
            dealer_seat=self.expr(("dealer", "seat"), want=WANT_SEAT),
            steps=steps,
            hands=self.expr(("game", "hands"), want=WANT_NUMBER),
            until=self.expr(("game", "until"), want=WANT_TRUTH),
            next_dealer=self.expr(("game", "next_dealer"), want=WANT_SEAT),
            hand_winner=self.expr(("game", "hand_winner"), want=WANT_SEAT_OR_NONE),
            game_end=self.effects(("game", "end"), seat_bound=False),
            standings=self.expr(("game", "standings", "score"), "seat", want=WANT_NUMBER),
            options=list(self.doc.options),
            abstract=bool(d.get("abstract")),
            teams=teams,
            team_vars=team_vars,
            scope=self.scope,
            shown={k: _shown(v["shown"]) for k, v in vars_.items() if v.get("shown") not in (None, "derived")},
            labels={k: v["label"] for k, v in vars_.items() if isinstance(v.get("label"), str)},
            wins={k: dict(v["wins"]) for k, v in vars_.items() if isinstance(v.get("wins"), dict)},
            sayings=self.sayings(vars_),
        )
        numbers = [st for st in steps if st.kind == "choose_number" or st.offers_numbers]
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

    def sayings(self, vars_: dict) -> dict:
        """``vars: NAME: say:`` (and ``parts:``): how each counter's value is told (dsl/saying.py)."""
        out, errors = sayings(vars_, lambda path: self.doc.pos(tuple(path)), self.scope, self.limits)
        self.errors.extend(errors)
        return out

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
            e = self.expr(("teams", "of"), "seat", want=None if t.get("each_hand") else WANT_NUMBER)
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
                e = self.expr(("teams", "sides", i, j), want=WANT_SEAT)
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
        from .suggest import suggest

        for cpath, src, quote in self.doc.cites():
            if isinstance(quote, str) and len(quote) > self.limits.quote_length:
                where = cpath + (("quote",) if isinstance(value_at(self.d, cpath), dict) else ())
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
                where = cpath + (("source",) if isinstance(value_at(self.d, cpath), dict) else ())
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
                if st.hand_expr is None and isinstance(value_at(self.d, where + ("hand",)), str):
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


def compile_doc(doc: Doc) -> GameDef:
    """Build and check the GameDef of a resolved rule document; a RuleError lists every problem."""
    return GameBuilder(doc).build()


def load_game(ref: str, options: list[str] | tuple = (), limits: Limits | None = None) -> GameDef:
    """Load, resolve and compile a rule file (corpus id or path)."""
    return compile_doc(resolve(ref, tuple(options), limits))


def _shown(how: Any) -> str:
    """``shown:`` as ``GameDef.shown`` keeps it: the word, or ``declared COUNTER`` for ``{declared_with: COUNTER}``."""
    return f"declared {how['declared_with']}" if isinstance(how, dict) else str(how)
