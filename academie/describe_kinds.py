"""The words of the betting, showdown and draw-and-meld steps, as methods of ``KindWords``,
which ``describe_words.StepWords`` is made of (beside ``describe_play.PlayWords``)."""

from __future__ import annotations

from .describe_phrases import _cap, _or, _seat, _zone, cond, expr
from .describe_play import PlayWords
from .statements import strip

KNOCK_KEYS = (
    "lay",
    "deadwood",
    "knock_at_most",
    "counts",
    "lay_off",
    "lay_off_when",
    "lay_off_melds",
    "knocked",
    "first_offer",
    "stock_least",
    "returns_end",
    "takes_end",
)


RESTOCK_KEYS = ("restock", "restocks", "restock_keep")


def restock_words(s) -> str:
    """The restocking of a drawing step (``draw_meld``, ``shedding``), in words ("" when none)."""
    how = s.get("restock", "none")
    if how == "none":
        return ""
    pile = "the " + str(s.get("discards")) + ("" if s.get("restock_keep", 1) == 0 else " but its top card")
    made = "turned over as it lies" if how == "turn" else "shuffled, unseen by all,"
    most = int(s.get("restocks", 1))
    times = "once in a hand" if most == 1 else f"{most} times at most in a hand"
    return f" When the {s.get('stock')} is out and a card is to be drawn, {pile} is {made} to make a new {s.get('stock')} ({times})."


def end_words(words, s, base, after: str) -> None:
    """The ``end:`` conditions of a step, each a statement: after ``after``, if it holds, the hand
    ends (and who wins)."""
    for i, e in enumerate(s.get("end") or []):
        who = f", and {_seat(e['winner'])} wins" if e.get("winner") is not None else ""
        words.add(
            "play",
            base + ("end", i),
            f"After {after}, if {cond(e['when'])}, the hand ends{who}.",
            strip(e),
            base + ("end", i),
        )


class KindWords(PlayWords):
    """The statements of the vying and draw-and-meld steps, one method per kind (``step_KIND``)."""

    per_seat: set[str]

    def _choosers(self, s) -> str:
        raise NotImplementedError

    def step_betting(self, name, s, base, phase, when):
        words = s.get("words") or {}

        def w(m):
            return str(words.get(m, m)).replace("-", " ")

        def amount(v):
            if isinstance(v, dict):
                return f"an amount he chooses from {expr(v.get('min', 1))} to {expr(v.get('max'))}"
            return expr(v)

        moves = [f"{w('fold')} (he is out of the hand, his stake left in the {s.get('to')})"]
        if s.get("check", True):
            moves.append(f"{w('check')} while nothing is to be matched")
        moves.append(f"{w('call')} (stake what matches the highest stake)")
        if s.get("bet") is not None:
            moves.append(f"{w('bet')} {amount(s['bet'])} when no one has staked")
        if s.get("raise") is not None:
            moves.append(f"{w('raise')} (match, and go {amount(s['raise'])} over)")
        text = (
            f"{phase}, {when}a round of stakes into the {s.get('to')}: "
            f"{self._choosers(s)} still in the hand may {_or(moves)}"
        )
        if s.get("cap") is not None:
            text += f", at most {expr(s['cap'])} bets and raises in the round"
        text += (
            "; the round ends when every player still in has matched the highest stake, or one alone is left"
            f" (each stake is kept as his {s.get('stake')}, a player out as his {s.get('out')})"
        )
        if s.get("stack") is not None:
            text += (
                f"; no player stakes more than he has ({expr(s['stack'])}): one short of what is to be matched"
                " may call with all he has, and a player who has staked all he has stays in the hand but"
                " acts no more"
            )
        if s.get("total") is not None:
            text += f"; all a player puts in the {s.get('to')} in the hand is kept as his {s['total']}"
        if s.get("raised") is not None:
            text += f"; what each bet or raise goes over is kept as the {s['raised']}"
        if s.get("lapse_on_raise"):
            text += (
                f"; a player who said {w('check')} may come in again to a bet made after him, but is out when it"
                " was raised before his turn came"
            )
        self.add("play", base, text + ".", strip(s), base)

    def step_showdown(self, name, s, base, phase, when):
        keys = ", then ".join(expr(k) for k in s.get("key") or [])
        tie = "share it" if s.get("ties", "split") == "split" else "leave it to the first of them"
        text = (
            f"{phase}, {when}a player alone still in the hand takes the {s.get('from')} without showing; "
            f"otherwise, beginning with {_seat(s.get('first', 'dealer + 1'))}, the players still in show their "
            f"hands, and the best by {keys} takes the {s.get('from')} (equal hands {tie})"
        )
        if s.get("total") is not None:
            text += (
                f"; the {s.get('from')} is first cut by what each has put in ({s['total']}): from the"
                " smallest amount put in by a player still in, each part holds what every player put in"
                " up to that amount, and only those still in who put in as much may win it"
            )
        self.add("scoring", base, text + ".", strip(s), base)

    def step_draw_meld(self, name, s, base, phase, when):
        faced = s.get("drawn") == "faced"
        table = _zone(s.get("table"), self.per_seat)
        text = (
            f"The cards are drawn and laid out. {_cap(_seat(s.get('first', 'dealer + 1')))} begins; "
            f"each in turn draws the top card of the {s.get('stock')} or takes the top card of the "
            f"{s.get('discards')}"
            + (
                " (only to lay it out at once). A card drawn is turned face up and never taken into the hand: "
                "he lays it out at once with cards of his hand, or refuses it and it lies on the "
                f"{s.get('discards')} for the next player"
                if faced
                else ", into his hand"
            )
            + (
                f". He lays out cards on {table}, one by one: all of them together must lie in "
                f"{s.get('melds')} (sets and runs, no card used twice), his earlier ones re-laid as he likes"
                if s.get("lay", "turn") == "turn" and s.get("lay_off_in_turn", "none") == "none"
                else ""
            )
            + (
                f". Then, while his hand holds a card, he discards one to the {s.get('discards')}"
                if s.get("discard", True)
                else ""
            )
            + (
                f". When the {s.get('stock')} is out at a turn"
                + (" and cannot be made again" if s.get("restock", "none") != "none" else "")
                + ", the hand ends with no winner."
            )
        )
        if s.get("lay_off_in_turn", "none") != "none":
            whose = (
                "his own melds" if s["lay_off_in_turn"] == "own" else "any melds on the table, his own or the others'"
            )
            text = text.replace(
                ". Then, while",
                f". He lays down melds of {s.get('melds')} on {table}, each apart, and lays off cards one at a "
                f"time on {whose}. Then, while",
                1,
            )
        text += restock_words(s)
        if s.get("discard_taken") == "forbidden":
            text += " He may not discard the card he took from the pile in the same turn, unless it is his only card."
        if s.get("knock") is not None:
            text += f" After his discard he may knock, ending the hand, if {cond(s['knock'])}."
        if s.get("knock_at_most") is not None:
            text += self.knock_words(s)
        self.add(
            "play",
            base,
            _cap(when) + text,
            strip(
                {
                    **{
                        k: s.get(k)
                        for k in ("first", "stock", "discards", "table", "melds", "drawn", "discard", *KNOCK_KEYS)
                    },
                    **{k: s[k] for k in ("lay_off_in_turn", "discard_taken", *RESTOCK_KEYS) if k in s},
                }
            ),
            base,
        )
        end_words(self, s, base, "a turn")

    @staticmethod
    def knock_words(s) -> str:
        """The knock and the laying down of a ``draw_meld`` step, in words."""
        t = ""
        if s.get("first_offer"):
            t += (
                f" Before any draw the top card of the {s.get('discards')} is offered to each in turn; "
                f"when all have refused it, the first draws from the {s.get('stock')}."
            )
        t += (
            f" In place of a discard a player may knock when a discard would leave his deadwood "
            f"({expr(s['deadwood'])}) at most {expr(s['knock_at_most'])}; he then discards such a card."
        )
        if s.get("lay") == "knock":
            t += (
                " Melds are laid down only after a knock, each apart: the knocker first, only melds that keep "
                f"his deadwood within the limit, until his hand counts ({expr(s.get('counts', '0'))}) at most "
                f"{expr(s['knock_at_most'])}; then each other player"
            )
            if s.get("lay_off", "none") != "none":
                who = "the other players'" if s["lay_off"] == "others" else "any player's"
                t += f" lays off cards on {who} melds"
                if s.get("lay_off_when") is not None:
                    t += f" (only if {cond(s['lay_off_when'])})"
                t += ", then"
            t += " lays down his own melds."
        if s.get("stock_least"):
            t += (
                f" A turn begun with {s['stock_least']} cards or fewer in the {s.get('stock')} may only knock "
                f"with the top card of the {s.get('discards')}, or the hand ends with no winner."
            )
        if s.get("returns_end"):
            t += (
                f" The hand ends with no winner when {s['returns_end']} turns in a row discard the card "
                "taken from the pile."
            )
        if s.get("takes_end"):
            t += f" It ends so at the {s['takes_end']}th take of the pile."
        return t
