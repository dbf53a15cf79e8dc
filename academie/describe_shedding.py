"""The words of the shedding and asking steps (``kind: shedding``, ``kind: asking``), as methods
of ``SheddingWords``, which ``describe_words.StepWords`` is made of."""

from __future__ import annotations

from .describe_phrases import _cap, _seat, card_test, expr
from .describe_kinds import RESTOCK_KEYS, end_words, restock_words
from .describe_play import PlayWords
from .statements import strip


class SheddingWords(PlayWords):
    """The statements of the shedding and asking steps (``step_KIND``)."""

    def step_shedding(self, name, s, base, phase, when):
        stock, pile = s.get("stock"), s.get("discards")
        text = ""
        if s.get("starter") is not None:
            text += (
                f"The top card of the {stock} is turned face up to begin the {pile}; a card that fails the test "
                f"({card_test(s['starter'])}) is put back in the middle of the {stock} and the next is turned. "
            )
        text += (
            f"{_cap(_seat(s.get('first', 'dealer + 1')))} plays first, then each in turn: a player plays a card of "
            f"his hand onto the {pile} that is {card_test(s['match'])} (onto: the top card of the {pile}; the suit "
            "led: the suit called for)"
        )
        if s.get("wild") is not None:
            text += f"; {card_test(s['wild'])} may be played on any, and its player names the suit to follow"
        text += (
            f". {'He may draw instead' if s.get('draw_freely') else 'If he cannot play, he draws'} the top card of "
            f"the {stock} into his hand"
            + (f", {expr(str(s['draws']))} cards at most in a turn" if s.get("draws") is not None else "")
            + f", and passes when he may draw no more or the {stock} is out. The first player with no card left "
            f"ends the hand; so do {expr(str(s.get('blocked', 'players')))} passes in a row with the {stock} out."
        )
        effects = []
        if s.get("skip") is not None:
            effects.append(f"{card_test(s['skip'])} makes the next player lose his turn")
        if s.get("reverse") is not None:
            effects.append(f"{card_test(s['reverse'])} turns the order of play round")
        pen = s.get("penalty")
        if isinstance(pen, dict):
            effects.append(
                f"{card_test(pen['when'])} makes the next player draw "
                f"{expr(str(pen.get('count', 2)))} cards, ending his turn"
                + (", unless he plays such a card himself, passing the draw on, added up" if pen.get("stack") else "")
            )
        if effects:
            text += " " + _cap("; ".join(effects)) + "."
        text += restock_words(s)
        keys = ("first", "stock", "discards", "starter", "match", "wild", "draws", "draw_freely", "blocked")
        data = {**{k: s.get(k) for k in keys}, **{k: s[k] for k in RESTOCK_KEYS if k in s}}
        self.add("play", base, _cap(when) + text, strip(data), base)
        end_words(self, s, base, "a card played")

    def step_asking(self, name, s, base, phase, when):
        first = str(s.get("first", "dealer + 1"))
        stock, books = s.get("stock"), s.get("books")
        size = expr(str(s["book"])) if s.get("book") is not None else "as many as there are suits"
        text = (
            f"{'Seat ' + first if first.isdigit() else _cap(_seat(first))} asks first. A player asks another who holds cards for a "
            "rank he holds himself; the one asked gives him every card of that rank he holds, in sight of all, "
            f"and he asks again. If he has none, the asker draws the top card of the {stock} (go fish)"
            + (
                ", and asks again only if it is of the rank he asked for, which he shows"
                if s.get("again_on_catch", True)
                else ", and his turn is over"
            )
            + f". Cards of one rank ({size}) complete in a hand are laid down face up in his {books}. "
            f"A player with no card draws one on his turn while the {stock} lasts"
            + (" and asks" if s.get("ask_after_empty_draw", True) else "")
            + ". The hand ends when every card is in a book."
        )
        keys = ("first", "stock", "books", "book", "empty_draw", "ask_after_empty_draw", "again_on_catch")
        self.add("play", base, _cap(when) + text, strip({k: s.get(k) for k in keys}), base)
