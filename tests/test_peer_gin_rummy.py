"""Gin Rummy written as a rule file (tests/concepts/gin_rummy.yaml) against OpenSpiel's
``gin_rummy`` (default parameters): the same deals in both engines (OpenSpiel's chance
outcomes are academie's deal), moves chosen at random from the legal set, the legal moves of
every decision compared (mapped both ways) and the returns at the end. Half the games choose
uniformly (few of them are knocked: a knock is one move of twelve when it may be made); the
other half are ``keen`` (a knock made when it may be, melds laid down and cards laid off rather
than passing, discards that keep the deadwood low), so that hands are knocked, laid down, laid
off on and settled.

The mapping: a card is OpenSpiel's ``suit * 13 + rank`` (suits s c d h, ranks A … K); 52
"Draw upcard" is ``take``, 53 "Draw stock" ``draw``, 54 "Pass" ``pass``, 55 "Knock"
``knock``. A meld declared (OpenSpiel's actions 56 …, one action a meld) is, in academie, its
cards chosen one by one and then ``meld``: at each of those decisions the cards academie offers
are the cards of OpenSpiel's legal melds holding the cards chosen, and ``meld`` is offered when
the cards chosen are one of them, each card asked even when it is the one that completes the
meld. A decision OpenSpiel asks with one legal move is asked in academie too (the pass at the
stock's last cards of a hand that cannot knock, a discard with one card allowed after a knock, a
pass with nothing to lay down or lay off), since whether the move is the only one reads the
seat's hand; academie makes it without asking only when it is forced by what every seat sees
(``public_one_move``): the stock drawn when both refused the upcard, the pass of a knocker whose
hand is laid down whole.

One difference is known and counted (``layoff_chain``): OpenSpiel extends a run laid off on
by at most one card laid off at each end before it (gin_rummy_utils.cc, ``AllLayoffs``): after
the 6 and 7 of a suit are laid off on its 3 4 5, the 8 is not offered. academie offers every
card that continues the run. At such a decision the move is chosen among OpenSpiel's."""

from __future__ import annotations

from os import environ
import random
from collections import Counter
from pathlib import Path

import pytest

from academie.dsl.cards import card
from academie.dsl.model import load_game
from academie.interpreter.base import PASS
from academie.interpreter.state import State

pyspiel = pytest.importorskip("pyspiel")

CONCEPT = Path(__file__).parent / "concepts" / "gin_rummy.yaml"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
OS_RANKS = "A23456789TJQK"
SUITS = "SCDH"  # OpenSpiel's "scdh"
CARDS = [card(r + s) for s in SUITS for r in RANKS]  # by OpenSpiel's card number
NUMBER = {c: i for i, c in enumerate(CARDS)}
NAMED = {52: "take", 53: "draw", 54: PASS, 55: "knock"}
MELD_BASE = 56
# games of each kind (uniform, keen): ACADEMIE_PEER_GAMES=3000 for a longer run (about six minutes)
GAMES = int(environ.get("ACADEMIE_PEER_GAMES", "150"))


def os_card(text: str) -> int:
    return SUITS.index(text[1].upper()) * 13 + OS_RANKS.index(text[0])


class Pair:
    """One deal played in both engines."""

    def __init__(self, game, seed: int, keen: bool = False):
        self.rng = random.Random(seed)
        self.keen = keen
        self.spec = next(s.meld for s in game.steps if s.meld is not None)
        deck = CARDS[:]
        self.rng.shuffle(deck)
        hands, up, self.draws = [deck[:10], deck[10:20]], deck[20], deck[21:]
        self.up = up
        # academie: a draw takes the stock's last card; the upcard is turned from its other end
        deal = {"hands": [h[:] for h in hands], "stock": [up, *reversed(self.draws)]}
        self.st = State(game, 2, seed, dealer=1, deal=deal, hands=1)
        self.os = pyspiel.load_game("gin_rummy").new_initial_state()
        for c in (*hands[0], *hands[1], up):
            self.os.apply_action(NUMBER[c])
        self.k = 0  # stock cards drawn
        self.decisions = 0
        self.differences: Counter = Counter()
        self.asked_one: Counter = Counter()  # decisions of one legal move asked in both engines

    def choose(self, legal: list) -> int:
        """A move of the legal set, at random; in the ``keen`` games a knock is made when it may
        be, four times in five, a meld is laid down or a card laid off rather than passing four
        times in five, and a discard is the one leaving the least deadwood, one time in two (so
        that hands are knocked, laid down and laid off on, undercut, and settled)."""
        rng = self.rng
        if not self.keen:
            return rng.choice(legal)
        if 55 in legal and rng.random() < 0.8:
            return 55
        if 54 in legal and 52 not in legal and len(legal) > 1 and rng.random() < 0.8:
            return rng.choice([a for a in legal if a != 54])  # a meld laid down, a card laid off
        cards = [a for a in legal if a < 52]
        seat = self.os.current_player()
        if len(self.st.hand[seat]) == 11 and len(cards) > 1 and rng.random() < 0.5:
            dw = self.spec.deadwood.fn
            counts = {a: self.st._meld_eval(dw, seat, (CARDS[a],)) for a in cards}
            least = min(counts.values())
            return rng.choice([a for a in cards if counts[a] == least])
        return rng.choice(legal)

    def meld_cards(self, a: int) -> frozenset:
        text = self.os.action_to_string(self.os.current_player(), a).split("Action: ")[1]
        return frozenset(CARDS[os_card(text[i : i + 2])] for i in range(0, len(text), 2))

    def public_one_move(self, legal: list) -> bool:
        """Whether OpenSpiel's one legal move is forced by what every seat sees, made by academie
        without asking: the stock drawn when both refused the upcard, a pass with an empty hand."""
        if legal == [53]:
            return True
        return legal == [54] and not self.st.hand[self.os.current_player()]

    def ours(self) -> set:
        return set(self.st.legal_moves())

    def check(self, want: set, what: str) -> None:
        got = self.ours()
        self.decisions += 1
        assert got == want, f"{what}: academie {sorted(map(str, got))} OpenSpiel {sorted(map(str, want))}"

    def play(self) -> None:
        os, st = self.os, self.st
        while not os.is_terminal():
            if os.is_chance_node():
                os.apply_action(NUMBER[self.draws[self.k]])
                self.k += 1
                continue
            legal = os.legal_actions()
            melds = {a: self.meld_cards(a) for a in legal if a >= MELD_BASE}
            if len(legal) == 1 and not melds and self.public_one_move(legal):
                os.apply_action(legal[0])  # forced by what every seat sees: academie does not ask
                continue
            if (
                len(legal) == 1
            ):  # asked in both: a pass (at the stock's last cards, laying down or off), a discard, a meld
                self.asked_one["meld" if melds else "pass" if legal == [54] else "discard"] += 1
            assert not st.is_terminal(), "academie's hand is over, OpenSpiel's is not"
            assert st.current_player() == os.current_player()
            if melds:  # a meld declared: its cards one by one, then meld
                want = {x for m in melds.values() for x in m} | ({PASS} if 54 in legal else set())
                self.check(want, "lay down")
                a = self.choose(legal)
                if a == 54:
                    st.apply(PASS)
                    os.apply_action(a)
                    continue
                chosen: list = []
                for x in sorted(melds[a], key=NUMBER.__getitem__):
                    if chosen:  # each card asked, the one that completes the meld too
                        fit = [m for m in melds.values() if set(chosen) <= m]
                        want = {y for m in fit for y in m} - set(chosen)
                        want |= {"meld"} if frozenset(chosen) in fit else set()
                        self.check(want, "lay down, cards chosen")
                    st.apply(x)
                    chosen.append(x)
                fit = [m for m in melds.values() if set(chosen) <= m]
                want = {y for m in fit for y in m} - set(chosen) | {"meld"}
                self.check(want, "lay down, meld")  # asked even when it is the one move
                st.apply("meld")
                os.apply_action(a)
                continue
            want = {NAMED[a] if a >= 52 else CARDS[a] for a in legal}
            got = self.ours()
            if got != want and 54 in legal and want < got and all(isinstance(x, type(CARDS[0])) for x in got - want):
                # a run laid off on: OpenSpiel's chain of at most one card at each end
                self.differences["layoff_chain"] += 1
            else:
                self.check(want, f"decision ({os.current_player()})")
            a = self.choose(legal)
            st.apply(NAMED[a] if a >= 52 else CARDS[a])
            os.apply_action(a)
        assert st.is_terminal(), "OpenSpiel's hand is over, academie's is not"
        assert [float(x) for x in st.pvars["score"]] == os.returns()


@pytest.fixture(scope="module")
def game():
    return load_game(str(CONCEPT))


def test_the_deal_and_the_first_offer_are_openspiels(game):
    p = Pair(game, 1)
    assert p.st.zones["discards"] == [p.up] and p.st.current_player() == 0
    assert set(p.st.legal_moves()) == {"take", PASS} and p.os.legal_actions() == [52, 54]


def play_many(game, seeds, keen: bool) -> Counter:
    seen: Counter = Counter()
    for seed in seeds:
        p = Pair(game, seed, keen)
        p.play()
        seen["games"] += 1
        seen["decisions"] += p.decisions
        seen.update(p.differences)
        seen.update({f"one move asked: {k}": v for k, v in p.asked_one.items()})
        types = Counter(e["type"] for e in p.st.events or [])
        seen["knocked"] += bool(types["knock"])
        seen["laid off"] += bool(types["lay_off"])
        knocks = [e["seat"] for e in p.st.events or [] if e["type"] == "knock"]
        seen["undercut"] += bool(knocks) and p.os.returns()[knocks[0]] < 0
        seen["gin"] += bool(knocks) and not p.st.hand[knocks[0]]
    return seen


def test_uniformly_random_deals_play_alike_in_both_engines(game):
    seen = play_many(game, range(GAMES), keen=False)
    assert seen["games"] == GAMES and seen["decisions"] > GAMES * 50
    assert seen["layoff_chain"] <= max(2, GAMES // 100)


def test_deals_knocked_laid_down_and_laid_off_play_alike_in_both_engines(game):
    seen = play_many(game, range(1000, 1000 + GAMES), keen=True)
    assert seen["games"] == GAMES and seen["knocked"] > GAMES // 3 and seen["laid off"] > GAMES // 15
    assert seen["layoff_chain"] <= max(2, GAMES // 100)
