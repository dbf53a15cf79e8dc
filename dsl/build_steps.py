"""Building a GameDef, the steps of a hand: each step of ``hand:`` (pay, shuffle, deal, turnup,
announce, the choices, tricks, sequence, effects) built from its mapping and checked against the
game's declarations."""

from __future__ import annotations

from .build_capture import CAPTURE_MOVES, capture_spec
from .build_patience import build_patience
from .build_banking import repeat_step, stake_step
from .build_adding import build_adding
from .build_betting import build_betting
from .build_meld import build_meld
from .build_shedding import SHEDDING_MOVES, build_shedding
from .build_asking import build_asking, rank_move
from .build_declare import build_declare
from .build_pieces import WANT_NUMBER, WANT_SEAT, WANT_TRUTH, PieceBuilder
from .cards import RANKS, SUITS
from .gamedef import MAX_NUMBER, Step


class StepBuilder(PieceBuilder):
    """The steps of a hand, on the tools of ``PieceBuilder``."""

    def step(self, name, s) -> Step | None:
        base = ("hand", name)
        kind = s["kind"]
        st = Step(name=name, kind=kind, pos=self.doc.key_pos(base), when=self.expr(base + ("when",), want=WANT_TRUTH))
        if kind == "pay":
            st.payment = self.payment(base, s)
        elif kind == "shuffle":
            st.cut_by = self.expr(base + ("cut_by",), want=WANT_SEAT)
            st.min_cut = s.get("min_cut", 1)
        elif kind == "deal":
            st.first = self.expr(base + ("first",), want=WANT_SEAT)
            h = s.get("hand")
            if isinstance(h, str):  # an expression of the seat, the players, the hand number …
                st.hand_expr = self.expr(base + ("hand",), "seat", want=WANT_NUMBER)
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
            z = s.get("from")
            if z is not None and z not in self.shared and z != "pack":
                self.err(base + ("from",), f"'{z}' is not a shared zone (zones: {', '.join(self.shared)})")
            st.turn_from = z
        elif kind == "announce":
            st.first = self.expr(base + ("first",), want=WANT_SEAT)
            st.declarations = list(s["declarations"])
            for i, dname in enumerate(st.declarations):
                if dname not in self.scope.declarations:
                    self.err(base + ("declarations", i), f"'{dname}' is not declared under declarations:")
        elif kind in ("choose_number", "choose_cards", "choose_suit"):
            self.choose_step(st, base, s)
        elif kind == "tricks":
            st.leader = self.expr(base + ("leader",), want=WANT_SEAT)
            f = s.get("follow") or {}
            st.must = [
                e
                for i in range(len(f.get("must", [])))
                if (e := self.expr(base + ("follow", "must", i), "card", want=WANT_TRUTH))
            ]
            st.free = self.expr(base + ("follow", "free"), "card", want=WANT_TRUTH)
            st.lead_test = self.expr(base + ("follow", "lead"), "card", want=WANT_TRUTH)
            st.cannot_follow = self.effects(base + ("cannot_follow",), end_trick=True)
            st.winner_key = [
                e
                for i in range(len(s["winner"]["key"]))
                if (e := self.expr(base + ("winner", "key", i), "card", want=WANT_NUMBER))
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
            if "declare" in s:  # melds shown after a trick by its winner
                st.declare = build_declare(self, base + ("declare",), s["declare"])
                if st.declare is not None:
                    st.move_names = tuple(m.name for m in st.declare.melds)
        elif kind == "patience":
            st.patience = build_patience(self, st, base, s)
        elif kind == "sequence":
            st.leader = self.expr(base + ("leader",), want=WANT_SEAT)
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
                st.stops = self.expr(base + ("stops",), "card", want=WANT_TRUTH)
            st.unheld = s.get("unheld", "error")
            st.on_play = self.effects(base + ("on_play",))
            st.end = self.end_rules(base + ("end",))
        elif kind == "capture":
            st.capture = capture_spec(self, base, s)
            if st.capture is not None:
                st.move_names = CAPTURE_MOVES
        elif kind == "adding":
            st.adding = build_adding(self, base, s, WANT_SEAT, WANT_TRUTH)
        elif kind == "show":
            st.src = self.zone_ref(base + ("zone",), str(s["zone"]).strip(), "game")
        elif kind == "effects":
            st.effects = self.effects(base + ("do",), seat_bound=False)
        elif kind == "stake":
            stake_step(self, st, base, s)
        elif kind == "repeat":
            names = list((self.d.get("hand") or {}).keys())
            repeat_step(self, st, base, s, names[: names.index(name)] if name in names else [])
        elif kind in ("betting", "showdown"):
            st.betting = build_betting(self, st, base, s)
        elif kind == "draw_meld":
            st.meld = build_meld(self, base, s)
            st.move_names = ("draw", "take", "meld", "knock")
            if st.meld is not None and st.meld.lay_off_in_turn != "none":
                st.move_names += ("lay_off",)
        elif kind == "shedding":
            st.shedding = build_shedding(self, base, s)
            st.move_names = SHEDDING_MOVES
            st.offers_suits = "wild" in s
        elif kind == "asking":
            st.asking = build_asking(self, base, s)
            st.move_names = tuple(rank_move(str(r)) for r in (self.d.get("pack") or {}).get("ranks", []))
            st.offers_numbers = True  # the seat asked, by its number
            most = (self.d.get("players") or {}).get("max")
            st.high_literal = most - 1 if isinstance(most, int) and most > 0 else None
        return st

    def choose_step(self, st: Step, base: tuple, s: dict) -> None:
        """A step where players choose: a number (``choose_number``) or cards
        (``choose_cards``)."""
        st.first = self.expr(base + ("first",), want=WANT_SEAT)
        st.who = self.expr(base + ("who",), "seat", want=WANT_TRUTH)
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
            st.low = st.high = self.bounded(self.expr(base + ("count",), "seat", want=WANT_NUMBER), "a count")
            raw = s.get("count")
        else:
            st.low = self.expr(base + ("min",), "seat", want=WANT_NUMBER)
            st.high = self.expr(base + ("max",), "seat", want=WANT_NUMBER)
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
            st.allow = self.expr(base + ("allow",), "value", want=WANT_TRUTH)
        else:
            st.src = self.zone_ref(base + ("from",), s.get("from", "hand"))
            st.dest = self.zone_ref(base + ("to",), s["to"])
            st.card_test = self.expr(base + ("cards",), "card", want=WANT_TRUTH)
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
        st.allow = self.expr(base + ("allow",), "suit_value", want=WANT_TRUTH)
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
