"""The words of the play steps of the families beyond tricks and sequences (capture,
patience, …), as methods of ``PlayWords``, which ``describe_words.StepWords`` is made of."""

from __future__ import annotations

from .describe_phrases import _cap, _seat, cond
from .statements import strip


class PlayWords:
    """The statements of the play steps of other families, one method per kind (``step_KIND``)."""

    def add(self, aspect, key, text, value, path, only=None, cite_path=None, extra_cites=(), default=False):
        raise NotImplementedError

    def effect(self, e: dict) -> str:
        raise NotImplementedError

    def step_capture(self, name, s, base, phase, when):
        layout = s.get("layout", "table")
        text = (
            f"{_cap(_seat(s.get('leader', 'dealer + 1')))} plays first, then each in turn: a player plays a card "
            f"of his hand to the {layout} and takes with it the cards of its rank there, or cards whose values "
            f"(each card {cond(s.get('value'))}) add up to its own"
            + (
                f" (or, for the card played, to its other value: {cond(s['also'])})"
                if s.get("also") is not None
                else ""
            )
            + (", several such sets at once" if s.get("several", True) else ", one set at a time")
            + f"; the cards he takes go to his {s.get('won_to')}."
        )
        if s.get("rank_first"):
            text += " A card of its rank on the table must be taken before any set adding up to it."
        if s.get("builds"):
            text += (
                " Or he puts it on table cards to make a build of the number they make together, which he must"
                " hold another card of: the build is his, taken only whole and only by a card of its number, by"
                " anyone, and any player holding the card of a higher number may raise it."
            )
        text += " A card that takes nothing" + (" and builds nothing" if s.get("builds") else "")
        text += " is left on the table."
        if s.get("must_take"):
            text += " A card that can take must take."
        self.add(
            "play",
            base + ("value",),
            _cap(when) + text,
            strip(
                {
                    k: s.get(k)
                    for k in ("leader", "layout", "value", "also", "several", "builds", "must_take", "rank_first")
                }
            ),
            base,
        )
        r = s.get("refill")
        if r:
            t = ""
            if r.get("turn_up"):
                t += (
                    f"Before the play, {r['turn_up']} cards of the {r.get('from')} are turned face up on the {layout}. "
                )
            t += (
                f"When every hand is played, {r.get('hand')} more are dealt to each player, one at a time, from the "
                f"{r.get('from')}, until it is exhausted."
            )
            self.add("play", base + ("refill",), t, strip(r), base + ("refill",))
        if s.get("rest", "last") == "last":
            self.add(
                "play",
                base + ("rest",),
                f"At the end of the play the cards left on the {layout} go to the last player who took cards.",
                "last",
                base,
            )
        for i, e in enumerate(s.get("on_capture") or []):
            self.add(
                "play",
                base + ("on_capture", i),
                f"After each taking, {self.effect(e)}.",
                strip(e),
                base + ("on_capture", i),
            )

    def step_patience(self, name, s, base, phase, when):
        """A patience: the layout, each kind of move, the stock, the end (``kind: patience``)."""
        for i, lay in enumerate(s.get("layout") or []):
            counts = lay.get("cards")
            many = ", ".join(map(str, counts)) if isinstance(counts, list) else str(counts)
            up = lay.get("face_up", 1)
            text = (
                f"{_cap(when)}The player lays out the piles of the {lay['to']} from the {lay.get('from', 'pack')}: "
                f"{many} cards on each in turn, "
                + ("a row at a time" if lay.get("by", "row") == "row" else "a pile at a time")
                + f"; the last {up} of each face up, the others face down."
            )
            self.add("play", base + ("layout", i), text, strip(lay), base + ("layout", i))
        what = {
            "top": "the top card",
            "face_up": "all the face-up cards together",
            "run": "the top card, or a run of cards under it",
        }
        for i, mv in enumerate(s.get("moves") or []):
            text = f"A move: {what.get(mv.get('cards', 'top'), 'the top card')} of a pile of the {mv['from']} "
            text += f"to a pile of the {mv['to']}"
            if mv.get("build") is not None:
                text += f", the lowest card moved laid on the top card there (onto) if {cond(mv['build'])}"
            if mv.get("empty") is not None:
                text += f"; to an empty pile if {cond(mv['empty'])}"
            else:
                text += "; never to an empty pile"
            if mv.get("run") is not None:
                text += f"; a run is cards each laid on the one under it if {cond(mv['run'])}"
            if mv.get("most") is not None:
                text += f"; at most {cond(mv['most'])} cards at once"
            self.add("play", base + ("moves", i), text + ".", strip(mv), base + ("moves", i))
        d = s.get("draw")
        if d is not None:
            n = d.get("count", 1)
            r = d.get("redeals", 0)
            text = (
                f"The player may turn {n} card{'s' if n != 1 else ''} of the {d['from']} face up onto the {d['to']}; "
                + (
                    "when it is empty the game goes on without it (no redeal)"
                    if not r
                    else f"when it is empty the {d['to']} is turned over to make it again, {r} time{'s' if r != 1 else ''}"
                )
                + "."
            )
            self.add("play", base + ("draw",), text, strip(d), base + ("draw",))
        text = ""
        if s.get("turn_up", True):
            text += "A face-down card uncovered is turned face up. "
        if s.get("goal"):
            text += f"The patience is won when every card is on the {s['goal']}; "
        text += "it is lost when no move is left"
        if s.get("give_up"):
            text += " or the player gives up"
        text += ". A move that would bring back a position already seen is not allowed."
        self.add(
            "play",
            base,
            text,
            strip({k: s.get(k) for k in ("goal", "turn_up", "give_up")}),
            base,
        )
