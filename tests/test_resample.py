"""State.resample(seat, rng): a world the seat cannot tell from the state.

A world never contradicts what the seat has seen (its information-state
string, which holds its hand, every public card, every hand's and zone's
size and the whole public course of the game, is the same), and over many
draws every placement of the unseen cards that is consistent occurs.
"""

from __future__ import annotations

import itertools
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import academie
from academie.api import _World
from academie.interpreter.worlds import place

# every corpus game, at the fewest and the most players it takes (and one between)
TABLES = [
    ("hearts/foster", 4),
    ("hearts/foster", 3),
    ("enfle/academie", 4),
    ("enfle/foster", 6),
    ("emprunt/lacombe", 4),
    ("emprunt/lacombe", 6),
    ("polignac/boussac", 4),
    ("polignac/boussac+capot", 5),
    ("francion/terrail", 3),
    ("francion/terrail", 5),
]


def played(ref: str, n: int, seed: int, moves: int) -> academie.State:
    """A game after up to ``moves`` random moves."""
    state = academie.load_game(ref).new_state(players=n, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 160),
    seat=st.integers(0, 5),
    draw=st.integers(0, 2**32),
)
def test_a_world_never_contradicts_the_seat(table, seed, moves, seat, draw):
    ref, n = table
    state = played(ref, n, seed, moves)
    seat %= n
    world = state.resample(seat, random.Random(draw))
    assert not world.fallback
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert world.observation(seat)["hand"] == state.observation(seat)["hand"]
    assert world.current_player() == state.current_player()
    if state.current_player() == seat:
        assert world.legal_actions() == state.legal_actions()
    # a world drawn from a world is one too (its deal was exchanged already: exchanged again)
    again = world.resample(seat, random.Random(draw + 1))
    assert again.information_state_string(seat) == state.information_state_string(seat)
    # the world is a game that goes on to its end like any other
    rng = random.Random(draw)
    while not world.is_terminal():
        world.apply_action(rng.choice(world.legal_actions()))
    assert len(world.returns()) == n


def hidden_layouts(state: academie.State, seat: int) -> set:
    """Every placement of the cards ``seat`` has not seen that it cannot tell
    from the state: found by trying them all, each one a world built with that
    exchange and kept when its information state is the seat's."""
    e = state.engine
    deal = next(full for _, owner, full in state._events if owner == -1)
    known = set(deal["hands"][seat]) | state._seen
    by_name = {c.name: c for c in e.pack_cards}
    groups = [[by_name[x] for x in names if x not in known] for s, names in enumerate(deal["hands"]) if s != seat]
    dealt = {x for names in deal["hands"] for x in names}
    for z, names in deal.items():  # a stock or talon dealt face down
        if z not in ("type", "hands"):
            dealt.update(names)
            groups.append([by_name[x] for x in names if x not in known])
    groups.append([c for c in e.pack_cards if c.name not in dealt and c.name not in known])  # left in the pack
    cards = [c for g in groups for c in g]
    truth = state.information_state_string(seat)
    found = set()
    for split in splits(cards, [len(g) for g in groups]):
        sigma = {c: x for g, part in zip(groups, split) for c, x in zip(g, part)}
        world = _World.__new__(_World)
        world._from(state, e.snapshot, sigma, 0)
        if world._ok and world.information_state_string(seat) == truth:
            found.add(layout(world, seat))
    return found


def splits(cards: list, sizes: list[int]):
    """Every way to deal ``cards`` into groups of ``sizes``."""
    if not sizes:
        yield []
        return
    for part in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in part]
        for more in splits(rest, sizes[1:]):
            yield [list(part), *more]


def layout(world: academie.State, seat: int) -> tuple:
    """The other seats' hands and the shared zones' cards (a placement of the unseen cards)."""
    e = world.engine
    return tuple(frozenset(c.name for c in h) for s, h in enumerate(e.hand) if s != seat) + tuple(
        frozenset(c.name for c in cs) for _, cs in sorted(e.zones.items())
    )


@pytest.mark.parametrize(
    "ref, n, seed, moves", [("hearts/foster", 4, 0, 43), ("enfle/foster", 4, 2, 22), ("enfle/academie", 4, 0, 55)]
)
def test_every_consistent_placement_occurs(ref, n, seed, moves):
    state = played(ref, n, seed, moves)
    seat = state.current_player()
    consistent = hidden_layouts(state, seat)
    assert 1 < len(consistent) < 400  # a real choice, small enough to enumerate
    rng = random.Random(1)
    drawn = [layout(state.resample(seat, rng), seat) for _ in range(30 * len(consistent))]
    assert set(drawn) <= consistent  # never a placement the seat could rule out
    assert set(drawn) == consistent  # and every one it cannot


def test_voids_shown_are_kept_and_the_rest_is_free():
    # hearts: a seat that did not follow the suit led holds none of it in any world
    state = played("hearts/foster", 4, 11, 30)
    shown: dict[int, set[str]] = {}
    led = None
    for pub, _, _ in state._events:
        if pub["type"] == "play":
            suit = pub["card"][-1]
            if led is None:
                led = suit
            elif suit != led:
                shown.setdefault(pub["seat"], set()).add(led)
        elif pub["type"] == "trick":
            led = None
    assert shown, "the game chosen shows a void"
    seat = state.current_player()
    rng = random.Random(2)
    for _ in range(200):
        world = state.resample(seat, rng)
        for s, suits in shown.items():
            if s != seat:
                assert not any(c.suit in suits for c in world.engine.hand[s])


def test_the_hands_to_come_are_not_the_true_ones():
    # a world plays the next hands from a generator of its own: the next deal differs from the truth's
    state = played("polignac/boussac", 4, 4, 10)
    seat = state.current_player()
    hand = state.hand_no

    def next_deal(s: academie.State) -> tuple:
        rng = random.Random(0)
        while s.hand_no == hand:
            s.apply_action(rng.choice(s.legal_actions()))
        return tuple(tuple(c.name for c in h) for h in s.engine.hand)

    truth = next_deal(state.clone())
    rng = random.Random(3)
    futures = {next_deal(state.resample(seat, rng)) for _ in range(5)}
    assert truth not in futures and len(futures) == 5


def test_a_world_copies_into_the_same_world():
    state = played("enfle/academie", 4, 8, 25)
    world = state.resample(0, random.Random(4))
    copy = world.clone()
    for s in range(4):
        assert copy.information_state_string(s) == world.information_state_string(s)
    rng_a, rng_b = random.Random(5), random.Random(5)
    while not world.is_terminal():
        world.apply_action(rng_a.choice(world.legal_actions()))
        copy.apply_action(rng_b.choice(copy.legal_actions()))
    assert copy.returns() == world.returns()
    with pytest.raises(TypeError, match="not pickled"):
        pickle.dumps(world)


def test_resample_checks_the_seat_and_takes_a_seed():
    state = played("hearts/foster", 4, 1, 5)
    with pytest.raises(academie.InvalidSeat):
        state.resample(4)
    a = state.resample(1, 7)
    b = state.resample(1, 7)
    assert layout(a, 1) == layout(b, 1)  # the same seed, the same world
    assert state.history == a.history


def test_place_draws_every_permutation_that_fits():
    cards = [academie.api.parse_card(x) for x in ("2S", "3S", "2H", "3H")]
    groups = [("a", cards[:2]), ("b", cards[2:])]
    barred = {"a": {cards[2], cards[3]}}
    rng = random.Random(0)
    seen = set()
    for _ in range(300):
        sigma = place(groups, barred, rng, tries=0 if len(seen) % 2 else 30)
        assert sigma is not None
        a = {sigma[c] for c in cards[:2]}
        assert not any(c.suit == "H" for c in a)
        seen.add((tuple(sigma[c].name for c in cards[:2]), tuple(sigma[c].name for c in cards[2:])))
    assert len(seen) == 4  # 2 orders of the spades x 2 of the hearts
    assert place(groups, {"a": set(cards)}, rng) is None


@pytest.mark.parametrize("ref, n", [("enfle/foster", 4), ("enfle/academie", 5), ("hearts/foster", 4)])
def test_worlds_at_every_decision_of_a_game(ref, n):
    # at every decision of a few whole games, a world for each seat in turn agrees with it; a seat
    # that must renounce (and so take the trick) shows by not doing so that it holds the suit led
    rng = random.Random(0)
    for seed in range(3):
        state = academie.load_game(ref).new_state(players=n, seed=seed)
        k = 0
        while not state.is_terminal():
            seat = k % n
            world = state.resample(seat, rng)
            assert world.information_state_string(seat) == state.information_state_string(seat), (seed, k, seat)
            state.apply_action(rng.choice(state.legal_actions()))
            k += 1


def test_cards_moved_in_secret_replay_in_the_world():
    """Cards another seat chose and passed in secret are played again in the world as the cards
    dealt where they lay: worlds drawn after a pass replay the hand, never fall back to the true
    deal, and do not give away the other hands."""
    game = academie.load_game(str(Path(__file__).parent / "concepts" / "choose.yaml"))
    state = game.new_state(players=4, seed=6)
    rng = random.Random(6)
    worlds = differ = 0
    while not state.is_terminal() and state.engine.hand_no == 1:
        if state.decision_kind() in ("choose", "number", "play") and any(
            e["type"] == "choose" and e["seat"] != state.current_player()
            for e in state.observation(state.current_player(), earlier_hands=False)["events"]
        ):
            seat = state.current_player()
            w = state.resample(seat, rng)
            worlds += 1
            assert not w.fallback
            assert w.engine.hand[seat] == state.engine.hand[seat]
            differ += any(w.engine.hand[s] != state.engine.hand[s] for s in range(4) if s != seat)
        state.apply_action(rng.choice(state.legal_actions()))
    assert worlds > 20 and differ > worlds // 2


def test_a_void_is_kept_in_the_cards_a_seat_drew():
    """Piquet: each seat discards and draws from the talon, then plays to tricks. A seat that shows a
    void holds none of that suit in any world, among the cards it drew as among those it was dealt,
    so a world replays its play: none is the state copied, the last resort (``copied``). (A world may still fall back to one that
    reaches the same decision with other declared counts: the point, sequences and sets each hand
    declares narrow the hands that can give them.)"""
    game = academie.load_game("piquet/hoyle")
    rng = random.Random(0)
    worlds = voids = 0
    for seed in range(3):
        state = game.new_state(players=2, seed=seed)
        while not state.is_terminal() and state.hand_no == 1:
            seat = state.current_player()
            other = 1 - seat
            shown: set[str] = set()
            led = None
            for pub, _, _ in state._events:
                if pub["type"] == "play":
                    if led is None:
                        led = pub["card"][-1]
                    elif pub["seat"] == other and pub["card"][-1] != led:
                        shown.add(led)
                elif pub["type"] == "trick":
                    led = None
            for _ in range(3):
                world = state.resample(seat, rng)
                worlds += 1
                assert not world.copied  # a world found, not the last resort
                assert world.current_player() == seat and world.engine.hand[seat] == state.engine.hand[seat]
                if not world.fallback:
                    assert world.information_state_string(seat) == state.information_state_string(seat)
                assert not any(c.suit in shown for c in world.engine.hand[other])
            voids += bool(shown)
            state.apply_action(rng.choice(state.legal_actions()))
    assert voids > 5 and worlds > 100


@pytest.mark.parametrize(
    "ref, n",
    [
        ("hearts/foster", 4),
        ("hearts/foster", 3),
        ("enfle/foster", 4),
        ("polignac/boussac", 5),
        ("faro/hoyle", 2),
        ("faro/hoyle", 3),
        ("lansquenet/eb11", 2),
    ],
)
def test_a_world_made_from_a_copy_is_the_world_played_again(ref, n):
    """Where nothing but the deal and cards played face up to tricks has happened, or where the only
    unseen cards lie in a pack face down that nothing reads (a banking game's, the cards turned up
    from it one by one between the stakes), a world is made from a copy of the state with the unseen
    cards exchanged in place: it is the very world that playing the hand again with that exchange
    gives (every seat's view, the moves, the future)."""
    from academie.interpreter.worlds import place as draw

    rng = random.Random(3)
    copied = 0
    for seed in range(2):
        state = academie.load_game(ref).new_state(players=n, seed=seed)
        while not state.is_terminal() and state.hand_no <= 2 and len(state.history) < 120:
            seat = state.current_player()
            _, groups, barred, copyable, _ = state._unseen(seat)
            if copyable is not None:
                sigma = draw(groups, barred, rng)
                a = _World.__new__(_World)
                a._copy(state, state.engine.snapshot, sigma, sigma, 5, copyable)
                b = _World.__new__(_World)
                b._from(state, state.engine.snapshot, sigma, 5)
                assert b._ok
                for s in range(n):
                    assert a.information_state_string(s) == b.information_state_string(s)
                assert a.legal_actions() == b.legal_actions()
                assert [list(h) for h in a.engine.hand] == [list(h) for h in b.engine.hand]
                assert {z: list(cs) for z, cs in a.engine.zones.items()} == {
                    z: list(cs) for z, cs in b.engine.zones.items()
                }
                copied += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert copied > 50


def test_a_follow_rule_that_reads_the_hand_bars_what_a_play_shows():
    """Quadrille: to a trump led, a seat must play a trump unless its only trumps are matadores
    higher than the card led. A seat that plays another card shows it holds no other trump: each
    card is tried in its hand in turn, so that no world gives it one, and every world replays the
    hand (none is the true deal)."""
    game = academie.load_game("quadrille/hoyle")
    rng = random.Random(1)
    worlds = 0
    for seed in range(3):
        state = game.new_state(players=4, seed=seed)
        while not state.is_terminal() and state.hand_no == 1:
            seat = state.current_player()
            for _ in range(4):
                world = state.resample(seat, rng)
                worlds += 1
                assert not world.fallback
                assert world.information_state_string(seat) == state.information_state_string(seat)
            state.apply_action(rng.choice(state.legal_actions()))
    assert worlds > 100


@pytest.mark.parametrize("n", [2, 4])
def test_a_card_laid_off_is_seen_by_every_seat(n):
    """Rummy: a card laid off on a meld on the table is laid face up, seen by every seat. A world
    keeps it where it is, so the hand replays: no world drawn once a card was laid off falls back
    (the true deal once, whose hidden cards the search then saw), and the observation shows the card on the
    table."""
    game = academie.load_game(str(Path(__file__).parent / "concepts" / "rummy.yaml"))
    worlds = 0
    for seed in range(2):
        state = game.new_state(players=n, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.hand_no == 1 and worlds < 150:
            seat = state.current_player()
            laid = [pub["card"] for pub, _, _ in state._events if pub["type"] == "lay_off"]
            if laid:
                table = state.observation(seat)["seat_zones"]
                assert set(laid) <= {c for per in table.values() for z in per for c in z["cards"]}
                world = state.resample(seat, rng)
                worlds += 1
                assert not world.fallback
                assert world.information_state_string(seat) == state.information_state_string(seat)
            state.apply_action(rng.choice(state.legal_actions()))
    assert worlds > 50
