"""A resolved rule file as a list of *statements*: one per rule element, in
plain words, each with the citations (source id + quote) and editorial notes
of the element it comes from.

Statements are made by one template per concept of the rule language
(players, pack, orders, direction, zones, money, counters, declarations, the
dealer, each kind of step, effects, end conditions, the game) from the rule
data alone: nothing here knows any game. ``render`` writes them as a rule
book; ``compare`` matches the statements of two games by ``key`` and compares
their ``value`` (the rule's data without its citations).
"""

from __future__ import annotations

from .describe_words import StepWords
from .describe_phrases import (  # noqa: F401  (re-exported: the words of describe)
    _and,
    _cap,
    _describe_cards,
    _or,
    _plural,
    _plural_cards,
    _ranks,
    _seat,
    _zone,
    card_test,
    cond,
    expr,
)
from .describe_combinations import combination_text
from .dsl.loader import Doc
from .dsl.model import GameDef, compile_doc
from .statements import (  # noqa: F401  (re-exported: what a statement is, and its citations)
    ASPECT_TITLES,
    ASPECTS,
    Cite,
    Editorial,
    Statement,
    citations,
    cites_of,
    editorial_of,
    get,
    strip,
)
from .words import SUIT_PLURAL


# -- the describer ----------------------------------------------------------------
class Describer(StepWords):
    def __init__(self, doc: Doc, game: GameDef | None = None):
        self.doc, self.d = doc, doc.data
        self.game = game if game is not None else compile_doc(doc)
        zones = self.d.get("zones") or {}
        self.per_seat = {"hand"} | {
            z for z, v in zones.items() if isinstance(v, dict) and v.get("per_seat") and not v.get("money")
        }
        self.out: list[Statement] = []

    def add(self, aspect, key, text, value, path, only=None, cite_path=None, extra_cites=(), default=False):
        cites, eds, _ = citations(self.doc, cite_path if cite_path is not None else path)
        if default:
            cites, eds = [], []
        for p in extra_cites:
            c2, e2, _ = citations(self.doc, p)
            cites = cites + [c for c in c2 if c not in cites]
            eds = eds + [e for e in e2 if e not in eds]
        self.out.append(Statement(aspect, tuple(key), text, value, cites, eds, tuple(path), only, default))

    def statements(self) -> list[Statement]:
        self.players()
        self.pack()
        self.orders()
        self.combinations()
        self.direction()
        self.teams()
        self.zones()
        self.money()
        self.vars()
        self.declarations()
        self.dealer()
        self.steps()
        self.game_()
        self.attach_nested_cites()
        order = {a: i for i, (a, _) in enumerate(ASPECTS)}
        return sorted(self.out, key=lambda s: order[s.aspect])  # stable: keeps file order within

    def attach_nested_cites(self):
        """Quotes written inside an element but not in a rule element of
        their own (a deal's ``source_says``) go with the nearest statement."""
        own = set()
        for s in self.out:
            _, _, ep = citations(self.doc, s.path)
            own.add(ep)
        for cpath, src, quote in self.doc.cites():
            node_path = cpath[: cpath.index("cite")]
            if node_path in own or node_path[:1] == ("options",):
                continue
            best = None
            for s in self.out:
                if s.default or s.only == "compare":
                    continue
                if node_path[: len(s.path)] == s.path and (best is None or len(s.path) > len(best.path)):
                    best = s
            if best is not None and Cite(src, quote) not in best.cites:
                best.cites.append(Cite(src, quote))

    # -- sections ---------------------------------------------------------------------
    def players(self):
        p = self.d.get("players")
        if not isinstance(p, dict):
            return
        lo, hi = p.get("min"), p.get("max")
        text = (
            "The game is for one player alone."
            if lo == hi == 1
            else f"The game is for {lo} players."
            if lo == hi
            else f"The game is for {lo} to {hi} players."
        )
        self.add("players", ("players",), text, {"min": lo, "max": hi}, ("players",))

    def player_counts(self) -> list[int]:
        return list(range(self.game.min_players, self.game.max_players + 1))

    def pack(self):
        p = self.d.get("pack")
        if not isinstance(p, dict):
            return
        suits, ranks = p.get("suits", []), p.get("ranks", [])
        size = len(suits) * len(ranks)
        text = (
            f"The pack has {size} cards: the ranks {', '.join(str(r) for r in ranks)} in "
            f"{_and([SUIT_PLURAL.get(str(s), str(s)) for s in suits])}."
        )
        self.add("pack", ("pack", "full"), text, strip({"suits": suits, "ranks": ranks}), ("pack",), only="render")
        if p.get("jokers"):
            text = "A joker (JK), a card of no suit and no rank, is shuffled with the rest."
            self.add("pack", ("pack", "jokers"), text, p["jokers"], ("pack",))
        copies = p.get("copies")
        if isinstance(copies, int) and not isinstance(copies, bool):
            total = len(self.game.pack(self.player_counts()[0])) if self.player_counts() else size * copies
            text = f"{copies} packs are shuffled together: {total} cards, every card {copies} times."
            self.add("pack", ("pack", "copies"), text, copies, ("pack",))
        elif isinstance(copies, list):
            for i, c in enumerate(copies):
                if isinstance(c, dict):
                    text = f"Every card that is {card_test(c.get('cards'))} is in the pack {c.get('count')} times."
                    self.add("pack", ("pack", "copies", i), text, strip(c), ("pack", "copies", i))
        for i, r in enumerate(p.get("remove") or []):
            when = r.get("when")
            counts = [n for n in self.player_counts() if self._holds_for(i, n)]
            left = f" ({_plural(len(self.game.pack(counts[0])), 'card')} are left)" if len(counts) == 1 else ""
            text = f"When {cond(when)}, remove every card that is {card_test(r.get('cards'))}{left}."
            self.add("pack", ("pack", "remove", i), text, strip(r), ("pack", "remove", i), only="render")
        for n in self.player_counts():
            cards = self.game.pack(n)
            extra = [("pack", "remove", i) for i in range(len(p.get("remove") or [])) if self._holds_for(i, n)]
            text = f"With {n} players: {_plural(len(cards), 'card')}, {_describe_cards(cards)}."
            self.add(
                "pack", ("pack", n), text, sorted(c.name for c in cards), ("pack",), only="compare", extra_cites=extra
            )

    def _holds_for(self, i, n) -> bool:
        try:
            when, _ = self.game.removals[i]
        except IndexError:
            return False
        from .dsl.model import PackContext

        return bool(when(PackContext(n)))

    def orders(self):
        for name, o in (self.d.get("orders") or {}).items():
            ranks = [str(r) for r in o.get("ranks", [])]
            text = f"In the {name} order the ranks go, highest first: {_ranks(ranks)}."
            if ranks and ranks[-1] == "A":
                text += " The ace is the lowest card."
            elif ranks and ranks[0] == "A":
                text += " The ace is the highest card."
            self.add("orders", ("orders", name), text, ranks, ("orders", name))

    def combinations(self):
        for name, c in (self.d.get("combinations") or {}).items():
            if isinstance(c, dict):
                self.add("orders", ("combinations", name), combination_text(name, c), strip(c), ("combinations", name))

    def direction(self):
        d = self.d.get("direction")
        if not isinstance(d, dict):
            return
        v = d.get("value")
        hint = {"clockwise": " (to the left)", "counterclockwise": " (to the right)"}.get(v, "")
        self.add("direction", ("direction",), f"Play and deal go {v}{hint}.", v, ("direction",))

    def teams(self):
        t = self.d.get("teams")
        if not isinstance(t, dict):
            return
        if t.get("of") is not None:
            text = f"The players form sides: partners are the seats for which {expr(t['of'])} is the same."
            if t.get("each_hand"):
                text = text[:-1] + ", worked out anew at each hand."
        else:
            sides = "; ".join(", ".join(_seat(x) for x in side) for side in t.get("sides") or [])
            text = f"The players form sides: {sides}."
        self.add("players", ("teams",), text, t.get("of") or t.get("sides"), ("teams",))

    def zones(self):
        for name, z in (self.d.get("zones") or {}).items():
            if not isinstance(z, dict):
                continue
            if z.get("money"):
                text = f"The {name} is a place on the table that holds money."
                aspect = "scoring"
            elif z.get("per_seat"):
                text = f"Each player has a {name} pile in front of him."
                aspect = "pack"
            else:
                text = f"The {name} is a place on the table for cards."
                aspect = "pack"
            self.add(aspect, ("zones", name), text, strip(z), ("zones", name))

    def money(self):
        m = self.d.get("money") or {}
        for name, c in (m.get("currencies") or {}).items():
            worth = (c or {}).get("worth")
            text = f"Money is counted in {name}s"
            if worth:
                ((u, k),) = worth.items()
                text += f"; a {name} is worth {_plural(k, u)}"
            self.add("scoring", ("money", "currency", name), text + ".", strip(c), ("money", "currencies", name))
        for i, g in enumerate(m.get("start") or []):
            give = g.get("give", {})
            text = (
                f"At the start of the game each player receives {self.amount(give.get('amount'), give.get('unit'))}."
                if give.get("to") == "each"
                else f"At the start of the game {_seat(give.get('to'))} receives "
                f"{self.amount(give.get('amount'), give.get('unit'))}."
            )
            self.add("scoring", ("money", "start", i), text, strip(g), ("money", "start", i))

    def vars(self):
        for name, v in (self.d.get("vars") or {}).items():
            v = v or {}
            who = "for each player" if v.get("per_seat") else "for each side" if v.get("per_team") else "for the table"
            init = v.get("initial")
            text = f"A counter, the {name.replace('_', ' ')}, is kept {who}"
            text += f", starting at {expr(init)}" if init is not None else ", starting at 0"
            text += ", and reset at each hand." if v.get("reset") == "hand" else "."
            self.add("scoring", ("vars", name), text, strip(v), ("vars", name))

    def declarations(self):
        for name, v in (self.d.get("declarations") or {}).items():
            mx = (v or {}).get("max", 1)
            text = f"A player may announce {name}" + (" (one player at most)." if mx == 1 else f" ({mx} at most).")
            self.add("play", ("declarations", name), text, strip(v), ("declarations", name))

    def dealer(self):
        d = self.d.get("dealer")
        if not isinstance(d, dict):
            return
        if d.get("draw") is not None:
            dr = d["draw"]
            low = "lowest" if dr.get("lowest", True) else "highest"
            order = f" in the {dr['order']} order" if dr.get("order") else ""
            text = (
                f"To choose the first dealer, each player draws a card; the {low}{order} deals; "
                f"players who tie draw again."
            )
        else:
            text = f"The first dealer is {_seat(d.get('seat'))}."
        self.add("dealing", ("dealer",), text, strip(d), ("dealer",))

    # -- the game --------------------------------------------------------------------------
    def game_(self):
        g = self.d.get("game") or {}
        if g.get("hands") is not None:
            text = f"A game is a fixed number of hands: {expr(g['hands'])}."
        elif g.get("until") is not None:
            text = f"Hands are played until {cond(g['until'])}."
        else:
            text = "A game is a single hand."
        self.add(
            "game",
            ("game", "length"),
            text,
            {"hands": g.get("hands"), "until": g.get("until")},
            ("game",),
            default=not (g.get("cite") or g.get("editorial")),
        )
        if g.get("next_dealer") is not None:
            self.add(
                "game",
                ("game", "next_dealer"),
                f"After each hand the deal passes to {_seat(g['next_dealer']).replace('the dealer', 'the last dealer')}.",
                g["next_dealer"],
                ("game",),
            )
        if g.get("hand_winner") is not None:
            self.add(
                "game",
                ("game", "hand_winner"),
                f"When no end condition has named the winner of a hand, it is {_seat(g['hand_winner'])}.",
                g["hand_winner"],
                ("game",),
            )
        for i, e in enumerate(g.get("end") or []):
            self.add(
                "game", ("game", "end", i), f"At the end of the game, {self.effect(e)}.", strip(e), ("game", "end", i)
            )
        st = g.get("standings")
        if isinstance(st, dict):
            self.add(
                "scoring",
                ("game", "standings"),
                f"At the end, the players are ranked by {expr(st.get('score'))}, greatest first; "
                f"the first is the winner.",
                strip(st),
                ("game", "standings"),
            )


def describe(doc: Doc, game: GameDef | None = None) -> list[Statement]:
    return Describer(doc, game).statements()
