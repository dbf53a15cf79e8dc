"""One compiled game played by several threads at once (``docs/engine.md``, "One
compiled game, many threads"): each thread's game is the game the same seed gives
alone. The games below are those whose expressions name the cards of a zone
(``count(ZONE, x, …)``), keep values per what they read and hoist parts of card tests,
the values one evaluation hands to another (kept per thread)."""

import json
import random
import sys
import threading

import pytest

import academie
from academie.dsl.cards import parse_card
from academie.dsl.compiler import Scope, compile_expr
from academie.dsl.errors import Pos

GAMES = ["piquet/hoyle", "hoc/encyclopedie", "ecarte/hoyle", "hearts/foster"]


def _play(game, seed: int) -> str:
    """The event log of a game played with random moves drawn from ``seed``."""
    state = game.new_state(seed=seed, keep_events=True)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return json.dumps(state.engine.events, sort_keys=True, default=str)


@pytest.mark.parametrize("ref", GAMES)
def test_two_threads_on_one_game_play_what_each_seed_plays_alone(ref):
    game = academie.load_game(ref)
    seeds = [11, 12, 13, 14]
    alone = {s: _play(game, s) for s in seeds}  # one after the other, in this thread
    got: dict[int, str] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(len(seeds))

    def run(seed: int) -> None:
        try:
            start.wait()
            for _ in range(2):
                got[seed] = _play(game, seed)
                assert got[seed] == alone[seed], f"{ref} seed {seed}: another game than alone"
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            errors.append(e)

    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switched as often as the interpreter allows
    try:
        threads = [threading.Thread(target=run, args=(s,)) for s in seeds]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(saved)
    if errors:
        raise errors[0]
    assert got == alone


class _St:
    """Just what the expressions below read."""

    def __init__(self, hands, trick):
        self.n = len(hands)
        self.pzones = {"hand": [[parse_card(x) for x in h.split()] for h in hands]}
        self.zones = {"trick": [parse_card(x) for x in trick.split()]}
        self.vars: dict = {}
        self.led = self.trump = self.dealer = self.leader = self.winner = self.mover = self.other = None


ORDER = {parse_card(r + s): i for s in "SHDC" for i, r in enumerate(["7", "8", "9", "10", "J", "Q", "K", "A"])}
EXPRESSIONS = [
    # the card a count names, read after a pass over the seats (a thread may switch between)
    ("count(trick, x, sum_seats(count(hand(seat), y, y.suit == x.suit)) > 0 and rank(x) > rank(card))", "card"),
    ("sum_cards(hand(seat), y, count(trick, x, x.suit == y.suit and rank(x) < rank(y)))", "seat"),
    ("card.suit != H or sum_seats(count(hand(seat), y, y.suit == H)) > 2", "card"),
]


@pytest.mark.parametrize("text,kind", EXPRESSIONS)
def test_an_expression_evaluated_by_two_threads_at_once_gives_each_its_own_value(text, kind):
    scope = Scope(zones={"trick"}, seat_zones={"hand"}, orders={"play": ORDER})
    e = compile_expr(text, Pos("<t>", 1, 1), scope, kind)
    deal = random.Random(text)
    cards = [r + s for s in "SHDC" for r in ["7", "8", "9", "10", "J", "Q", "K", "A"]]
    states = []
    for _ in range(2):
        deal.shuffle(cards)
        states.append(_St([" ".join(cards[0:8]), " ".join(cards[8:16])], " ".join(cards[16:20])))
    probes = [parse_card(c) for c in cards[20:28]]

    def values(st):
        if kind == "card":
            return [e.fn(st, 0, c) for c in probes] + [e.filter(st, 0, probes)]
        return [e.fn(st, s, None) for s in range(st.n)]

    alone = [values(st) for st in states]
    bad: list = []

    def run(i: int) -> None:
        try:
            for _ in range(3000):
                v = values(states[i])
                if v != alone[i]:
                    bad.append((i, v))
                    return
        except Exception as ex:  # noqa: BLE001 - handed to the main thread
            bad.append((i, repr(ex)))

    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(saved)
    assert bad == []
