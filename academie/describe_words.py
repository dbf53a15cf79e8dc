"""The words of ``describe``: expressions, seats, zones and card sets in
plain words, and the templates of the steps of a hand (the deal, the choices,
the play of tricks and sequences, payments and effects), written as methods
of ``StepWords``, which ``describe.Describer`` is made of.
"""

from __future__ import annotations

import json

from .statements import strip
from .words import words

from .describe_phrases import (
    _cap,
    _or,
    _plural,
    _plural_cards,
    _seat,
    _zone,
    card_test,
    cond,
    expr,
)
from .describe_kinds import KindWords
from .describe_shedding import SheddingWords


class StepWords(KindWords, SheddingWords):
    """The statements of a hand's steps, one method per kind of step
    (``step_KIND``), and the words of payments and effects."""

    d: dict
    per_seat: set[str]

    def add(self, aspect, key, text, value, path, only=None, cite_path=None, extra_cites=(), default=False):
        raise NotImplementedError

    def player_counts(self) -> list[int]:
        raise NotImplementedError

    # -- the hand ---------------------------------------------------------------------
    def steps(self):
        hand = self.d.get("hand") or {}
        names = list(hand)
        kinds = [(hand[n] or {}).get("kind") for n in names]
        first_deal = next((i for i, k in enumerate(kinds) if k == "deal"), None)
        first_play = next(
            (
                i
                for i, k in enumerate(kinds)
                if k in ("tricks", "sequence", "capture", "patience", "adding", "draw_meld", "shedding", "asking")
            ),
            None,
        )
        for i, name in enumerate(names):
            s = hand[name] or {}
            kind = s.get("kind")
            base = ("hand", name)
            if first_deal is not None and i < first_deal:
                phase = "Before the deal"
            elif first_play is not None and i < first_play:
                phase = "Before the play"
            elif first_play is not None:
                phase = "After the play"
            else:
                phase = "At each hand"
            when = f"if {cond(s['when'])}, " if s.get("when") is not None else ""
            fn = getattr(self, "step_" + str(kind), None)
            if fn is not None:
                fn(name, s, base, phase, when)

    def step_pay(self, name, s, base, phase, when):
        self.add("scoring", base, f"{phase}, {when}{self.payment(s)}.", strip(s), base)

    def step_effects(self, name, s, base, phase, when):
        for i, e in enumerate(s.get("do") or []):
            self.add("scoring", base + ("do", i), f"{phase}, {when}{self.effect(e)}.", strip(e), base + ("do", i))

    def step_shuffle(self, name, s, base, phase, when):
        text = "The dealer shuffles the pack"
        if s.get("cut_by") is not None:
            text += f", and {_seat(s['cut_by'])} cuts it"
            if s.get("min_cut", 1) > 1:
                text += f", leaving at least {s['min_cut']} cards in each packet"
        elif s.get("cut_by") is None:
            text += " (it is not cut)"
        self.add("dealing", base, _cap(when) + text + ".", strip(s), base)

    def deal_at(self, s, n):
        def by(v):
            if isinstance(v, dict):
                return v.get(n, v.get(str(n)))
            return v

        per, b, rest = by(s.get("hand")), by(s.get("batches")), by(s.get("rest_count"))
        if per is None:
            return None, [], rest
        b = per if b is None else b
        if isinstance(per, str):  # a size that is an expression: its batches as written
            return per, [] if isinstance(b, str) else [b] if isinstance(b, int) else list(b), rest
        if isinstance(b, int):
            b = max(b, 1)  # a deal of no cards each has no batches (as the model reads it)
            batches = [b] * (per // b) + ([per % b] if per % b else [])
        else:
            batches = list(b)
        return per, batches, rest

    def _deal_words(self, s, n) -> str:
        per, batches, rest = self.deal_at(s, n)
        if per is None:
            return "no deal is given"
        text = f"to each seat {expr(per)} cards" if isinstance(per, str) else f"{_plural(per, 'card')} each"
        if batches and all(x == 1 for x in batches):
            text += ", one at a time"
        elif batches:
            text += f", in packets of {'-'.join(map(str, batches))}"
        if s.get("rest"):
            text += f", {rest} left to the {s['rest']}" if rest is not None else f", the rest to the {s['rest']}"
        elif rest:
            text += f", {rest} left in the pack"
        return text

    def step_deal(self, name, s, base, phase, when):
        first = _seat(s.get("first", "dealer + 1"))
        counts = self.player_counts()
        if (
            isinstance(s.get("hand"), dict)
            or isinstance(s.get("batches"), dict)
            or isinstance(s.get("rest_count"), dict)
        ):
            table = "; ".join(f"with {n} player{'s' if n != 1 else ''}, {self._deal_words(s, n)}" for n in counts)
            text = f"The dealer deals, beginning with {first} and going round the table: {table}."
        else:
            text = f"The dealer deals {self._deal_words(s, counts[0] if counts else 0)}, beginning with {first}."
        self.add("dealing", base, _cap(when) + text, strip(s), base, only="render")
        self.add(
            "dealing",
            base + ("first",),
            f"The deal begins with {first}.",
            s.get("first", "dealer + 1"),
            base,
            only="compare",
        )
        for n in counts:
            per, batches, rest = self.deal_at(s, n)
            self.add(
                "dealing",
                base + (n,),
                f"With {n} players: {self._deal_words(s, n)}.",
                {"hand": per, "batches": batches, "rest": s.get("rest"), "rest_count": rest},
                base,
                only="compare",
            )

    def step_turnup(self, name, s, base, phase, when):
        to = str(s.get("to"))
        text = f"The next card of the pack is turned up into {expr(to) if '(' in to else 'the ' + to}"
        if s.get("sets_trump", True):
            text += "; its suit is trumps for the hand"
        if s.get("rest"):
            text += f"; the rest of the pack goes to the {s['rest']}"
        self.add("dealing", base, _cap(when) + text + ".", strip(s), base)

    def step_announce(self, name, s, base, phase, when):
        decls = _or([str(x) for x in s.get("declarations", [])])
        text = (
            f"Before the play, beginning with {_seat(s.get('first', 'dealer + 1'))}, each player in turn "
            f"may announce {decls} or pass"
        )
        self.add("play", base, _cap(when) + text + ".", strip(s), base)

    def _choosers(self, s) -> str:
        who = f" for whom {cond(s['who'])}" if s.get("who") is not None else ""
        return f"beginning with {_seat(s.get('first', 'dealer + 1'))}, each player{who} in turn"

    @staticmethod
    def _how_many(s, unit: str) -> str:
        if s.get("count") is not None:
            return f"{expr(s['count'])} {unit}"
        lo = s.get("min")
        if lo is None or lo == 0:
            return f"up to {expr(s.get('max'))} {unit}"
        return f"from {expr(lo)} to {expr(s.get('max'))} {unit}"

    def step_choose_number(self, name, s, base, phase, when):
        rng = f"from {expr(s.get('min', 0))} to {expr(s.get('max', s.get('count')))}"
        text = f"{phase}, {when}{self._choosers(s)} chooses a number {rng}"
        if s.get("allow") is not None:
            text += f" such that {cond(s['allow'])}"
        text += f"; it is kept as his {s.get('into')}"
        self.add("play", base, text + ".", strip(s), base)

    def step_stake(self, name, s, base, phase, when):
        targets = s.get("targets") or {}
        named = [f"{k} ({v})" if v is not None else str(k) for k, v in targets.items()]
        text = (
            f"{phase}, {when}{self._choosers(s)} may stake on any of {_or(named)}, each at most once: "
            f"for each he names, he says the stake he puts there, from 0 (none, or taken down) to {expr(s.get('max'))}, "
            "then he passes; the stakes lie on the table, seen by all"
        )
        if s.get("withdraw") is not None:
            text += f"; a stake may be lowered or taken down only while {cond(s['withdraw'])}"
        self.add("play", base, text + ".", strip(s), base)

    def step_repeat(self, name, s, base, phase, when):
        text = (
            f"{phase}, {when}unless {cond(s.get('until'))}, play goes back to the step "
            f"\u201c{s.get('back_to')}\u201d and on from there (at most {expr(s.get('max'))} times in a hand)"
        )
        self.add("play", base, text + ".", strip(s), base)

    def step_choose_suit(self, name, s, base, phase, when):
        suits = _or([str(x) for x in s.get("suits") or []]) or "any suit of the pack"
        text = f"{phase}, {when}{self._choosers(s)} names a suit ({suits})"
        if s.get("allow") is not None:
            text += f" such that {cond(s['allow'])}"
        kept = []
        if s.get("into") is not None:
            kept.append(f"it is kept as his {s['into']}")
        if s.get("sets_trump", True):
            kept.append("it is trumps for the hand")
        text += "; " + " and ".join(kept) if kept else ""
        self.add("play", base, text + ".", strip(s), base)

    def step_choose_cards(self, name, s, base, phase, when):
        which = f" ({card_test(s['cards'])})" if s.get("cards") is not None else ""
        frm = _zone(s.get("from", "hand"), self.per_seat)
        text = (
            f"{phase}, {when}{self._choosers(s)} chooses {self._how_many(s, 'cards')}{which} of {frm}; "
            f"when all have chosen, the cards go to {_zone(s.get('to'), self.per_seat)}"
        )
        if s.get("into") is not None:
            text += f", and their number is kept as his {s['into']}"
        self.add("play", base, text + ".", strip(s), base)

    def step_tricks(self, name, s, base, phase, when):
        self.add(
            "play",
            base + ("leader",),
            (_cap(when) + "the" if when else "The")
            + f" cards are played in tricks. {_cap(_seat(s.get('leader', 'dealer + 1')))} "
            f"leads to the first trick, and each player in turn plays one card to it.",
            s.get("leader", "dealer + 1"),
            base,
        )
        f = s.get("follow")
        must = []
        if isinstance(f, dict):
            must = f.get("must") or []
            parts = []
            if must:
                parts.append(f"Each player must play {card_test(must[0])} if he can")
                for t in must[1:]:
                    parts.append(f"failing that, {card_test(t)} if he can")
            else:
                parts.append("Each player may play any card")
            if f.get("free") is not None:
                parts.append(f"{card_test(f['free'])} may always be played")
            if f.get("lead") is not None:
                parts.append(f"the leader may lead only {card_test(f['lead'])}")
            self.add("play", base + ("follow",), "; ".join(parts) + ".", strip(f), base + ("follow",))
        for i, e in enumerate(s.get("cannot_follow") or []):
            lack = card_test(must[0]) if must else "the card required"
            self.add(
                "play",
                base + ("cannot_follow", i),
                f"A player who has no {lack[2:] if lack.startswith('a ') else lack} to play: {self.effect(e)}.",
                strip(e),
                base + ("cannot_follow", i),
            )
        w = s.get("winner")
        if isinstance(w, dict):
            crit = []
            for k in w.get("key") or []:
                wt = words(k, "value")
                if wt is not None and not any(op in str(k) for op in ("==", " in ", "!=", " and ", " or ")):
                    crit.append(wt)
                else:
                    crit.append("being " + card_test(k))
            text = (
                "A trick is won by the card that comes first by: "
                + "; then ".join(crit)
                + " (of two cards alike, the one played first)."
            )
            self.add("play", base + ("winner",), text, strip(w), base + ("winner",))
        if s.get("won_to") is not None:
            z = s["won_to"]
            where = f"his {z} pile" if z in self.per_seat else f"the {z}"
            self.add(
                "play",
                base + ("won_to",),
                f"The winner of a trick puts its cards in {where} and leads to the next.",
                z,
                base,
            )
        if isinstance(s.get("declare"), dict):
            self.declare(s["declare"], base + ("declare",))
        for i, e in enumerate(s.get("on_trick") or []):
            self.add(
                "play", base + ("on_trick", i), f"After each trick, {self.effect(e)}.", strip(e), base + ("on_trick", i)
            )
        self.passes_and_ends(s, base)

    def declare(self, d, base):
        """The melds the winner of a trick may show (``declare`` of a trick step)."""
        when = f", if {cond(d['when'])}" if d.get("when") is not None else ""
        most = int(d.get("max", 1))
        again = (
            "a card shown may not be shown again in any meld"
            if d.get("reuse") == "never"
            else "a card shown may be shown again only in a meld of another kind"
        )
        self.add(
            "play",
            base,
            f"After each trick{when}, its winner may declare {'one meld' if most == 1 else f'up to {most} melds'}, "
            f"laying its cards face up in his {d.get('table')} zone; they stay his to play from there. A meld shows at "
            f"least one card from his hand, and {again}.",
            strip(d),
            base,
        )
        for name, m in (d.get("melds") or {}).items():
            if not isinstance(m, dict):
                continue
            test = f", of cards each {card_test(m['cards'])}" if m.get("cards") is not None else ""
            scores = "; ".join(self.effect(e) for e in m.get("do") or [])
            self.add(
                "play",
                base + ("melds", name),
                f"The meld {name.replace('_', ' ')}: a {str(m.get('combination')).replace('_', ' ')}{test}"
                + (f"; {scores}." if scores else "."),
                strip(m),
                base + ("melds", name),
            )

    def step_adding(self, name, s, base, phase, when):
        test = f" that is {card_test(s['cards'])}" if s.get("cards") is not None else ""
        text = (
            f"The cards are played to a count. Beginning with {_seat(s.get('first', 'dealer + 1'))}, each player in "
            f"turn adds to the table a card of his hand{test}; a player who has no such card says go, and the turn "
            "passes. When no player can add a card, the count stops"
        )
        if s.get("stop", "again") == "end":
            text += ", and the play ends: the cards left are not played"
        else:
            aside = f" (its cards go to the {s['set_aside']})" if s.get("set_aside") else ""
            text += f"{aside}, and the player after the last to play begins a new count, until all the cards are played"
        if s.get("return_to"):
            text += f". At the end each player takes back into his {s['return_to']} the cards he played"
        text = _cap(when + text[0].lower() + text[1:]) if when else text
        self.add("play", base, text + ".", strip({k: s.get(k) for k in ("first", "cards", "stop")}), base)
        for i, e in enumerate(s.get("on_stop") or []):
            self.add(
                "play",
                base + ("on_stop", i),
                f"When the count stops, for the last player to add a card, {self.effect(e)}.",
                strip(e),
                base + ("on_stop", i),
            )
        self.passes_and_ends(s, base)

    def step_show(self, name, s, base, phase, when):
        z = str(s.get("zone"))
        text = f"{phase}, {when}the cards of {expr(z) if '(' in z else 'the ' + z} are shown to every player"
        self.add("scoring", base, text + ".", strip(s), base)

    def step_sequence(self, name, s, base, phase, when):
        text = (
            f"The cards are played in runs. {_cap(_seat(s.get('leader', 'dealer + 1')))} begins with any card; "
            + (
                "each next player must play a card of the rank that follows the last one, whatever its suit, in the "
                if s.get("by_rank")
                else "each next player must play the card that follows the last one in its suit, in the "
            )
            + f"{s.get('order', 'sequence')} order"
        )
        if s.get("by_rank"):
            text += "; when no card of that rank is left, the run ends"
        if s.get("wrap"):
            text += ", going round the suit until every card of it is played"
        new = {
            "last_player": "the player who played the last card of a run",
            "next_player": "the player after him",
        }.get(s.get("new_run", "last_player"), s.get("new_run"))
        text += f". {_cap(new)} begins the next run with any card."
        self.add(
            "play",
            base + ("leader",),
            _cap(when) + text,
            strip({k: s.get(k) for k in ("leader", "order", "wrap", "new_run")}),
            base,
        )
        places = []
        for i, ob in enumerate(s.get("obtain") or []):
            z = ob.get("zone")
            place = (
                "from his own hand"
                if z == "hand"
                else "from another player's hand"
                if z == "others"
                else f"from the {z}"
            )
            places.append(place)
            text = (
                f"{'If he cannot, he takes it ' if i else 'The card is taken '}{place}"
                + ("".join(f"; {self.effect(e)}" for e in ob.get("do") or []))
                + "."
            )
            self.add("play", base + ("obtain", i), text, strip(ob), base + ("obtain", i))
        if s.get("unheld") == "pass":
            self.add(
                "play",
                base + ("unheld",),
                "A player who cannot play the card required passes; when every player has passed in turn, "
                "the run ends and the last to play begins the next.",
                "pass",
                base + ("unheld",),
            )
        if s.get("stops") is not None:
            self.add(
                "play",
                base + ("stops",),
                f"Any card that is {card_test(s['stops'])} may be played "
                "for the card required; it ends the run, and its player begins the next.",
                s["stops"],
                base + ("stops",),
            )
        self.passes_and_ends(s, base)

    def passes_and_ends(self, s, base):
        """The effects after each card played (``on_play``), a lead that passes over a player with
        no card (``lead_passes``), and when the play ends: alike in trick and sequence play."""
        for i, e in enumerate(s.get("on_play") or []):
            self.add(
                "play",
                base + ("on_play", i),
                f"After each card played, {self.effect(e)}.",
                strip(e),
                base + ("on_play", i),
            )
        if s.get("lead_passes"):
            self.add(
                "play",
                base + ("lead_passes",),
                "A player with no card left is passed over; when it is his turn to lead, the next player who has a card leads.",
                True,
                base,
            )
        self.ends(
            s,
            base,
            "the play ends when no player has a card left"
            if s.get("lead_passes")
            else "the play ends when the leader has no card left",
        )

    def ends(self, s, base, default):
        ends = s.get("end") or []
        for i, e in enumerate(ends):
            moment = "at once, after the card is played" if e.get("after", "trick") == "play" else "after the trick"
            text = f"The hand ends {moment}, when {cond(e.get('when'))}"
            if e.get("winner") is not None:
                text += f"; {_seat(e['winner'])} wins the hand"
            self.add("end", base + ("end", i), text + ".", strip(e), base + ("end", i))
        if not ends:
            self.add("end", base + ("end",), _cap(default) + ".", None, base)

    # -- payments and effects ------------------------------------------------------------
    def amount(self, amount, unit) -> str:
        if isinstance(amount, int) or (isinstance(amount, str) and amount.isdigit()):
            return _plural(int(amount), str(unit))
        return f"{expr(amount)} (in {unit}s)"

    def payment(self, p: dict) -> str:
        frm, to = p.get("from"), p.get("to")
        money_zones = {z for z, v in (self.d.get("zones") or {}).items() if isinstance(v, dict) and v.get("money")}

        def holder(h):
            if h == "each":
                return "each player"
            if h in money_zones:
                return f"the {h}"
            return _seat(h)

        amt = self.amount(p.get("amount"), p.get("unit"))
        if frm == "each":
            text = f"each player pays {amt} to {holder(to)}"
        elif to == "each":
            text = f"{holder(frm)} pays each player {amt}"
        else:
            text = f"{holder(frm)} pays {amt} to {holder(to)}"
        if p.get("where") is not None:
            text += f" (only players for whom {cond(p['where'])})"
        if p.get("except") is not None:
            text += f" (except {_seat(p['except'])})"
        return text

    def effect(self, e: dict) -> str:
        if not isinstance(e, dict):
            return f"`{e}`"
        pre = f"if {cond(e['when'])}, " if e.get("when") is not None else ""
        if e.get("at") == "each":
            pre += "for each player, "
        elif e.get("at") == "each_side":
            pre += "for each side, "
        elif e.get("at") is not None:
            pre += f"for {_seat(e['at'])}, "
        if "take" in e:
            t = e["take"]
            what = f"the {_plural_cards(card_test(t['cards']))} in" if t.get("cards") else "the cards in"
            if t.get("count") is not None:  # N cards, from the top
                what = f"{expr(t['count'])} of {what}"
            body = f"he takes {what} {_zone(t.get('from'), self.per_seat)} into {_zone(t.get('to'), self.per_seat)}"
        elif "end_trick" in e:
            ld = (e["end_trick"] or {}).get("leader")
            body = "the trick is over at once" + (
                f", and {_seat(ld)} leads the next one".replace("the player leads", "he leads") if ld else ""
            )
        elif "pay" in e:
            body = self.payment(e["pay"])
        elif "set" in e:
            body = "; ".join(f"the {k.replace('_', ' ')} is set to {expr(v)}" for k, v in e["set"].items())
        elif "add" in e:
            body = "; ".join(f"{expr(v)} is added to the {k.replace('_', ' ')}" for k, v in e["add"].items())
        elif "stake" in e:
            st = e["stake"] or {}
            on = f"on the rank of {expr(st['card'])}" if st.get("card") is not None else "on every target"
            to = st.get("to")
            body = f"the player's stake {on} is taken down" if str(to) == "0" else f"his stake {on} is {expr(to)}"
        else:
            body = f"`{json.dumps(strip(e))}`"
        return pre + body
