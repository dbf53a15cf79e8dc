"""tests/concepts/crazy_eights.yaml against OpenSpiel's crazy_eights, deal for deal: the same
cards (OpenSpiel's chance outcomes are the cards academie's shuffle dealt, turned and drew),
random legal moves made in both, and at every decision the same player to move with the
same legal moves (mapped by name: the card, draw, pass, the suit named); at the end the
same returns. Also what a seat sees: never another's hand nor the stock."""

import random
from collections import deque
from pathlib import Path

import pytest

import academie
from test_visibility import assert_names_only_seen

pyspiel = pytest.importorskip("pyspiel")

RULES = str(Path(__file__).parent / "concepts" / "crazy_eights.yaml")
RANKS, SUITS = "23456789TJQKA", "CDHS"
DRAW, PASS, NOMINATE = 52, 53, 54


def os_action(name: str) -> int:
    """OpenSpiel's action id of academie's card name (10H, QS)."""
    r, s = name[:-1], name[-1]
    return RANKS.index("T" if r == "10" else r) * 4 + SUITS.index(s)


def os_name(a: int) -> str:
    """academie's move name of OpenSpiel's action id."""
    if a < DRAW:
        r = RANKS[a // 4]
        return ("10" if r == "T" else r) + SUITS[a % 4]
    if a == DRAW:
        return "draw"
    if a == PASS:
        return "pass"
    return SUITS[a - NOMINATE]


class Feed:
    """The cards academie dealt, turned and drew, in the order OpenSpiel's chance nodes ask for them."""

    def __init__(self, state, dealer: int, players: int):
        self.state, self.dealer, self.n = state, dealer, players
        self.seen, self.cards = 0, deque()

    def pull(self) -> None:
        events = self.state.engine.events
        for ev in events[self.seen :]:
            t = ev["type"]
            if t == "deal":  # one card at a time from the dealer's left, as OpenSpiel deals
                hands = [deque(h) for h in ev["hands"]]
                for i in range(sum(map(len, hands))):
                    self.cards.append(hands[(self.dealer + 1 + i) % self.n].popleft())
            elif t == "turnup" or (t == "take" and ev.get("from") == "stock"):
                self.cards.extend([ev["card"]] if t == "turnup" else ev["cards"])
        self.seen = len(events)

    def chance(self, s) -> None:
        self.pull()
        while s.is_chance_node():
            assert self.cards, "OpenSpiel asks for a card academie did not deal"
            s.apply_action(os_action(self.cards.popleft()))


def play_both(seed: int, players: int, options=(), params=None, check=None):
    rng = random.Random(seed)
    game = academie.load_game(RULES, options)
    dealer = rng.randrange(players)
    ours = game.new_state(players=players, seed=f"c8/{seed}", dealer=dealer, keep_events=True)
    peer = pyspiel.load_game("crazy_eights", {"players": players, **(params or {})})
    s = peer.new_initial_state()
    s.apply_action(DRAW + dealer)  # chance: the dealer
    feed = Feed(ours, dealer, players)
    feed.chance(s)
    decisions = 0
    while not s.is_terminal():
        assert not ours.is_terminal(), (seed, "academie's hand ended first")
        assert ours.current_player() == s.current_player(), (seed, decisions)
        mine = sorted(ours.action_to_string(a) for a in ours.legal_actions())
        theirs = sorted(os_name(a) for a in s.legal_actions())
        assert mine == theirs, (seed, decisions, mine, theirs)
        if check is not None:
            check(ours)
        a = rng.choice(s.legal_actions())
        ours.apply_action(game.move_to_action(os_name(a)))
        s.apply_action(a)
        decisions += 1
        feed.chance(s)
    assert ours.is_terminal(), (seed, "OpenSpiel's hand ended first")
    assert ours.returns() == [int(r) for r in s.returns()], (seed, ours.returns(), s.returns())
    return decisions


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_same_game_as_openspiel(players):
    # OpenSpiel's default crazy_eights (five players), and two and three: 120 deals each
    decisions = sum(play_both(seed, players) for seed in range(120))
    assert decisions > 120 * 20


def test_the_same_game_with_openspiel_special_cards():
    # use_special_cards: a queen skips, an ace reverses, a two makes the next draw two (stacked)
    for seed in range(100):
        play_both(seed, 4, ("special-cards",), {"use_special_cards": True})


def test_the_same_game_with_a_short_limit_on_the_cards_played():
    # max_turns 20: most hands end on the limit, every hand then scored
    for seed in range(100):
        play_both(seed, 3, ("short",), {"max_turns": 20})
    for seed in range(40):
        play_both(seed, 4, ("short", "special-cards"), {"max_turns": 20, "use_special_cards": True})


def test_a_seat_sees_no_hand_but_its_own_nor_the_stock():
    # what a seat is shown (observation) names only cards it holds or held, and cards shown
    # face up to all: played, or turned up to start; never a card drawn by another
    def check(ours):
        assert_names_only_seen(ours, {"discard": "card", "turnup": "card"})

    for seed in range(12):
        play_both(seed, 3, check=check)
