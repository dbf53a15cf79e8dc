"""tests/concepts/go_fish.yaml against OpenSpiel's go_fish, deal for deal: the same cards
(OpenSpiel's chance outcomes are the ranks of the cards academie's shuffle dealt and the
players drew), random legal asks made in both, and at every decision the same player to
move asking among the same seats and ranks (academie asks in two decisions, the seat then
the rank; OpenSpiel in one); at the end the same returns (OpenSpiel's: a share of one to
the most books, the rest a share of minus one). Also what a seat sees: never another's
hand nor the stock, but every card handed over when asked for."""

import json
import random
from collections import deque
from pathlib import Path

import pytest

import academie
from test_visibility import assert_names_only_seen

pyspiel = pytest.importorskip("pyspiel")

RULES = str(Path(__file__).parent / "concepts" / "go_fish.yaml")
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def rank_of(name: str) -> int:
    return RANKS.index(name[:-1])


class Feed:
    """The ranks of the cards academie dealt and drew, in the order OpenSpiel's chance nodes ask for them."""

    def __init__(self, state):
        self.state, self.seen, self.ranks = state, 0, deque()

    def chance(self, s) -> None:
        events = self.state.engine.events
        for ev in events[self.seen :]:
            if ev["type"] == "deal":  # OpenSpiel fills player 0's hand, then player 1's …
                for h in ev["hands"]:
                    self.ranks.extend(rank_of(c) for c in h)
            elif ev["type"] == "take" and ev.get("from") == "stock":
                self.ranks.extend(rank_of(c) for c in ev["cards"])
        self.seen = len(events)
        while s.is_chance_node():
            assert self.ranks, "OpenSpiel asks for a card academie did not deal"
            s.apply_action(self.ranks.popleft())


def peer_returns(books: list) -> list:
    """OpenSpiel's returns (most_books_wins) from each seat's books."""
    n, top = len(books), max(books)
    winners = books.count(top)
    if winners == n:
        return [0.0] * n
    return [1.0 / winners if b == top else -1.0 / (n - winners) for b in books]


def play_both(seed: int, players: int, check=None, options=(), params=None) -> int:
    rng = random.Random(seed)
    game = academie.load_game(RULES, options)
    ours = game.new_state(players=players, seed=f"gf/{seed}", keep_events=True)
    s = pyspiel.load_game("go_fish", {"players": players, **(params or {})}).new_initial_state()
    feed = Feed(ours)
    feed.chance(s)
    decisions = 0
    while not s.is_terminal():
        assert not ours.is_terminal(), (seed, "academie's hand ended first")
        assert ours.current_player() == s.current_player(), (seed, decisions)
        legal = s.legal_actions()
        if check is not None:
            check(ours)
        a = rng.choice(legal)
        target, rank = divmod(a, len(RANKS))
        mine = [ours.action_to_string(x) for x in ours.legal_actions()]
        if all(m.isdigit() for m in mine):  # the seat asked, first
            assert sorted(map(int, mine)) == sorted({x // len(RANKS) for x in legal}), (seed, decisions)
            ours.apply_action(game.move_to_action(target))
            mine = [ours.action_to_string(x) for x in ours.legal_actions()]
        else:  # one seat to ask: only the rank is asked for
            assert {x // len(RANKS) for x in legal} == {target}, (seed, decisions)
        theirs = sorted(RANKS[x % len(RANKS)] for x in legal if x // len(RANKS) == target)
        assert sorted(m.removeprefix("ask_") for m in mine) == theirs, (seed, decisions, mine, theirs)
        ours.apply_action(game.move_to_action("ask_" + RANKS[rank]))
        s.apply_action(a)
        decisions += 1
        feed.chance(s)
    assert ours.is_terminal(), (seed, "OpenSpiel's hand ended first")
    if "first-out" in options:  # the one out: 1, the others a share of -1
        mine = [1.0 if r else -1.0 / (players - 1) for r in ours.returns()]
        assert mine == pytest.approx(s.returns()), (seed, ours.returns(), s.returns())
        assert sum(ours.returns()) == 1
        return decisions
    assert peer_returns(ours.returns()) == pytest.approx(s.returns()), (seed, ours.returns(), s.returns())
    assert sum(ours.returns()) == len(RANKS)  # every rank in a book
    return decisions


@pytest.mark.parametrize(("players", "games"), [(2, 300), (3, 100), (4, 60)])
def test_the_same_game_as_openspiel(players, games):
    # OpenSpiel's default go_fish (two players), and three and four
    decisions = sum(play_both(seed, players) for seed in range(games))
    assert decisions > games * 10


@pytest.mark.parametrize("players", [2, 3])
def test_the_same_game_with_openspiels_other_rules(players):
    # end_on_first_out (the first out with a book wins), and ask_after_empty_draw false
    for seed in range(80):
        play_both(seed, players, options=("first-out",), params={"end_on_first_out": True, "most_books_wins": False})
    for seed in range(80):
        play_both(seed, players, options=("no-ask-after-empty-draw",), params={"ask_after_empty_draw": False})


def test_a_seat_sees_no_hand_but_its_own_nor_the_stock():
    # what a seat is shown names only cards it holds or held, and cards shown to all: handed
    # over when asked for, drawn of the rank asked for, laid down in books; never a card drawn
    def check(ours):
        assert_names_only_seen(ours, {"show": "cards", "meld": "cards"})

    for seed in range(12):
        play_both(seed, 3, check=check)


def test_cards_handed_over_are_seen_by_all():
    # "the transfer is visible to all": once asked for and given, a card is named to every seat
    game = academie.load_game(RULES)
    for seed in range(20):
        st = game.new_state(players=2, seed=f"gf/{seed}", keep_events=True)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
            given = [ev for ev in st.engine.events if ev["type"] == "take" and ev.get("from") == "hand"]
            if given:
                other = 1 - given[-1]["seat"]
                text = json.dumps(st.observation(other))
                assert all(c in text for c in given[-1]["cards"])
                break
