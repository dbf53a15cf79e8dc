"""What a seat sees never depends on which copy of a card lies where, in the games of two packs
(``pack: copies:``), where the differential test of ``test_visibility_families`` exchanges names
only: a name of which a seat has seen one copy stays where its copies are, so a leak of where the
other copy lies is not in its reach. Here one copy is moved by hand, between two places the seat
cannot see, and the seat must not see the difference."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import academie
from academie.interpreter.base import canon_key


def _swap_hand_and_stock(state, seat: int, c, stock: str):
    """A copy of ``state`` in which ``seat``'s copy of ``c`` in hand lies in the stock, and a card
    of the stock of another name in its place in the hand (one from the middle of the stock)."""
    other = state.clone()
    e = other.engine
    pile = e.zones[stock]
    mid = len(pile) // 2  # a card far from either end: the next cards drawn are the same
    i = min((j for j, x in enumerate(pile) if x != c), key=lambda j: abs(j - mid))
    x = pile[i]
    hand = e.hand[seat]
    hand.remove(c)
    hand.append(x)
    hand.sort(key=canon_key)
    pile[i] = c
    assert state.engine.hand[seat].count(c) == hand.count(c) + 1  # the state itself is unchanged
    return other


def _seen(state, seat: int) -> str:
    return json.dumps(state.observation(seat), sort_keys=True) + state.information_state_string(seat)


def test_a_declared_card_played_says_nothing_of_a_copy_of_it_in_the_hand():
    """Bezique: a card declared lies face up on its holder's table and still may be played. When
    he plays a card he has both on the table and in his hand, the copy that leaves must not
    depend on his hand: a copy taken from the hand while one stays on the table told the
    adversary that the hidden hand held a second copy of it (the table's copy goes first)."""
    game = academie.load_game("bezique/bezique")
    tried = 0
    for seed in range(60):
        st = game.new_state(players=2, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and st.hand_no == 1:
            e = st.engine
            s = st.current_player()
            if e.decision_kind() == "play" and e.zones["stock"]:
                both = sorted((c for c in set(e.pzones["declared"][s]) if c in e.hand[s]), key=canon_key)
                if both:
                    c = both[0]
                    other = _swap_hand_and_stock(st, s, c, "stock")
                    assert _seen(st, 1 - s) == _seen(other, 1 - s)
                    st.apply(c)
                    other.apply(c)
                    assert _seen(st, 1 - s) == _seen(other, 1 - s), (seed, c)
                    tried += 1
                    continue
            st.apply(rng.choice(st.legal_moves()))
    assert tried >= 8


_TAKE_WHOLE = """\
title: "two packs: the stock taken whole into a seat's pile"
family: trick
players: {min: 2, max: 2, editorial: {reason: a test, evidence: a test}}
pack:
  suits: [S]
  ranks: [Q, K, A]
  copies: 2
  editorial: {reason: "two packs of three cards", evidence: a test}
zones:
  stock: {editorial: {reason: a test, evidence: a test}}
  up: {editorial: {reason: a test, evidence: a test}}
  pile: {per_seat: true, editorial: {reason: a test, evidence: a test}}
hand:
  shuffle: {kind: shuffle, editorial: {reason: a test, evidence: a test}}
  deal: {kind: deal, hand: 1, rest: stock, editorial: {reason: one each, evidence: a test}}
  turn1: {kind: turnup, from: stock, to: up, sets_trump: false, editorial: {reason: a test, evidence: a test}}
  turn2: {kind: turnup, from: stock, to: up, sets_trump: false, editorial: {reason: a test, evidence: a test}}
  turn3: {kind: turnup, from: stock, to: up, sets_trump: false, editorial: {reason: a test, evidence: a test}}
  gather:
    kind: effects
    do:
      - take: GATHER
        at: dealer
        editorial: {reason: "the dealer takes cards face down, unseen by the other", evidence: a test}
    editorial: {reason: a test, evidence: a test}
game:
  hands: 1
  editorial: {reason: one hand, evidence: a test}
  standings: {score: count(pile(seat)), editorial: {reason: a test, evidence: a test}}
"""


@pytest.mark.parametrize(
    "gather",
    [
        "{from: stock, to: pile}",  # the whole of a shared zone: its take named no zone it came from
        "{from: hand(dealer), to: pile, count: 1}",  # from his own hand, unseen by the others
    ],
)
def test_cards_taken_unseen_are_not_shown_by_the_names_seen_of_their_copies(tmp_path, gather):
    """Two packs: cards taken unseen into a seat's zone (the stock whole, a card of his hand) were
    shown to all when every name among them had been seen face up (their other copies), and the
    zone they went into showed them by name: the others learnt which copies lay there, and so
    what the dealer's hand held. Every deal of the little pack is played; two deals alike to seat
    1 (its hand, the cards turned up) must look alike to it."""
    import itertools

    path = tmp_path / "take_whole.yaml"
    path.write_text(_TAKE_WHOLE.replace("GATHER", gather))
    game = academie.load_game(str(path))
    pack = list(game.new_state(players=2, seed=0).engine.pack_cards)
    views: dict = {}
    for deck in set(itertools.permutations(pack)):
        st = game.new_state(players=2, seed=0, dealer=0, deck=list(deck))
        e = st.engine
        key = (tuple(e.hand[1]), tuple(e.zones["up"]))
        views.setdefault(key, set()).add(_seen(st, 1))
    assert len(views) > 1
    assert all(len(v) == 1 for v in views.values())


def _twin_in_other_hand(state, seat: int) -> list:
    """The names of which ``seat`` sees a copy (its hand, what it is shown) while another copy lies,
    unseen, in the other seat's hand."""
    obs = state.observation(seat, earlier_hands=False)
    seen = Counter(obs["hand"])
    for z in obs["zones"].values():
        seen.update(z["cards"])
    for per in obs["seat_zones"].values():
        for z in per:
            seen.update(z["cards"])
    other = Counter(c.name for c in state.engine.hand[1 - seat])
    counts = {c.name: k for c, k in state.engine.g.pack_counts(2).items()}
    return [n for n in other if seen[n] >= 1 and seen[n] + other[n] <= counts[n]]


def test_a_world_moves_the_unseen_copy_of_a_card_whose_twin_the_seat_has_seen():
    """In Bezique, a card of which the seat holds (or was shown) one copy while the other lies in the
    adversary's hand: the worlds a search player draws for the seat put that other copy anywhere
    unseen, in the stock as well, not always where it truly lies (which the seat cannot know)."""
    game = academie.load_game("rules/bezique/bezique.yaml")
    cases = moved = 0
    for seed in range(2):
        rng = random.Random(seed)
        st = game.new_state(players=2, seed=seed)
        steps = 0
        while not st.is_terminal() and st.hand_no == 1 and steps < 60:
            seat = st.current_player()
            if steps % 6 == 0 and seat is not None and seat >= 0:
                names = _twin_in_other_hand(st, seat)
                truly = Counter(c.name for c in st.engine.hand[1 - seat])
                for _ in range(4):
                    world = st.resample(seat, rng)
                    if getattr(world, "fallback", False):
                        continue
                    there = Counter(c.name for c in world.engine.hand[1 - seat])
                    for n in names:
                        cases += 1
                        moved += there[n] < truly[n]
            st.apply(rng.choice(st.legal_moves()))
            steps += 1
    assert cases > 20
    assert moved > cases // 5, (moved, cases)


def _places(state) -> tuple:
    e = state.engine
    return tuple(tuple(c.name for c in h) for h in e.hand), tuple(
        (z, tuple(c.name for c in cs)) for z, cs in sorted(e.zones.items())
    )


def test_two_games_apart_by_an_unseen_copy_give_the_seat_the_same_worlds():
    """Two deals of Bezique alike to seat 0 but for one card: a copy of a name seat 0 holds lies in
    the adversary's hand in one, and in the stock in the other, exchanged with a stock card of
    another name seat 0 has not seen. Seat 0 cannot tell them apart, so the worlds drawn for it
    with the same random draws are the same worlds, card for card."""
    game = academie.load_game("rules/bezique/bezique.yaml")
    tried = 0
    for seed in range(4):
        deck = list(game.new_state(players=2, seed=seed).engine.pack_cards)
        random.Random(seed).shuffle(deck)
        real = game.new_state(players=2, seed=0, dealer=0, deck=deck)
        seat = real.current_player()
        if seat is None or seat < 0:
            continue
        e = real.engine
        stock = e.zones["stock"]
        names = _twin_in_other_hand(real, seat)
        mine = {c.name for c in e.hand[seat]} | {c.name for cs in e.zones.values() for c in cs[-1:]}
        others = [c.name for c in stock[len(stock) // 2 :] if c.name not in mine and c.name not in names]
        if not names or not others:
            continue
        n, m = names[0], others[0]
        twin = None
        for i, x in enumerate(deck):
            for j, y in enumerate(deck):
                if x.name == n and y.name == m and twin is None:
                    d2 = deck[:]
                    d2[i], d2[j] = y, x
                    st = game.new_state(players=2, seed=0, dealer=0, deck=d2)
                    hand = [c.name for c in st.engine.hand[1 - seat]]
                    if hand.count(n) < [c.name for c in e.hand[1 - seat]].count(n) and m in hand:
                        twin = st
        assert twin is not None
        assert twin.current_player() == seat
        assert _seen(real, seat) == _seen(twin, seat)
        assert _places(real) != _places(twin)
        for k in range(6):
            a = real.resample(seat, random.Random(k))
            b = twin.resample(seat, random.Random(k))
            assert _places(a) == _places(b), (seed, k)
            tried += 1
    assert tried >= 6


# -- the patiences of two packs: a copy face down is unseen though its twin lies face up ---------
_PATIENCES = ["rules/napoleon/cadogan.yaml", "tests/concepts/spider2.yaml"]


def _hidden_twins(state) -> list:
    """The places ((zone, index)) of the face-down cards of a patience (a pile's lowest cards, the
    stock whole) of which a copy lies face up somewhere, and the true card's name there."""
    e = state.engine
    down, stock = e.pile_down
    hidden = {(stock, i) for i in range(len(e.zones[stock]))}
    hidden |= {(z, i) for z, k in down.items() for i in range(k)}
    up = {c.name for z, cs in e.zones.items() for i, c in enumerate(cs) if (z, i) not in hidden}
    return [(z, i, e.zones[z][i].name) for z, i in sorted(hidden) if e.zones[z][i].name in up]


@pytest.mark.parametrize("path", _PATIENCES)
def test_a_world_of_a_patience_moves_a_face_down_copy_whose_twin_lies_face_up(path):
    """Napoleon at St Helena and Spider of two packs: a copy lying face down (the stock, a
    column's lowest cards) whose twin the player sees face up is a card it has never seen. The
    worlds a search player draws put another card there, not always the true one: a world that
    kept every such copy where it truly lies told the search where hidden cards are."""
    game = academie.load_game(path)
    cases = kept = 0
    for seed in range(2):
        rng = random.Random(seed)
        st = game.new_state(players=1, seed=seed)
        for step in range(12):
            if st.is_terminal():
                break
            if step % 4 == 0:
                twins = _hidden_twins(st)
                for k in range(10):
                    world = st.resample(0, random.Random(k))
                    assert not world.fallback
                    assert world.information_state_string(0) == st.information_state_string(0)
                    if k == 0:  # a world of a world: exchanged again, by the same places
                        again = world.resample(0, random.Random(99))
                        assert not again.fallback
                        assert again.information_state_string(0) == st.information_state_string(0)
                    zones = world.engine.zones
                    for z, i, name in twins:
                        cases += 1
                        kept += zones[z][i].name == name
            st.apply(rng.choice(st.legal_moves()))
    assert cases > 200
    assert kept < cases // 4, (kept, cases)


def _napoleon_twins(game, seed: int) -> tuple:
    """Two decks of Napoleon alike but for two cards of the stock, exchanged (places 60 and more:
    never drawn in the first moves), one of a name that lies face up on the tableau (the first 40
    cards), the other of a name that does not."""
    deck = list(game.new_state(players=1, seed=seed).engine.pack_cards)
    random.Random(seed).shuffle(deck)
    up = {c.name for c in deck[:40]}
    i = next(p for p in range(60, 104) if deck[p].name in up)
    j = next(p for p in range(60, 104) if deck[p].name not in up and deck[p].name != deck[i].name)
    other = deck[:]
    other[i], other[j] = deck[j], deck[i]
    return deck, other


def _spider_twins(game, seed: int) -> tuple:
    """Two decks of Spider alike but for two face-down cards of the columns exchanged (not the
    last of a column, laid face up), one of a name that lies face up, the other of a name that
    does not."""
    deck = list(game.new_state(players=1, seed=seed).engine.pack_cards)
    random.Random(seed).shuffle(deck)
    last = {50 + k if k < 4 else 40 + k for k in range(10)}  # the last card of each column
    up = {deck[p].name for p in last}
    i = next(p for p in range(54) if p not in last and deck[p].name in up)
    j = next(p for p in range(54) if p not in last and deck[p].name not in up and deck[p].name != deck[i].name)
    other = deck[:]
    other[i], other[j] = deck[j], deck[i]
    return deck, other


@pytest.mark.parametrize(("path", "twins"), [(_PATIENCES[0], _napoleon_twins), (_PATIENCES[1], _spider_twins)])
def test_two_patiences_apart_by_two_face_down_cards_give_the_same_worlds(path, twins):
    """Two deals of a patience of two packs alike to the player but for two face-down cards
    exchanged, one the twin of a card it sees face up: it cannot tell them apart, so the worlds
    drawn for it with the same random draws are the same worlds, card for card, after the same
    moves."""
    game = academie.load_game(path)
    tried = 0
    for seed in range(3):
        deck, other = twins(game, seed)
        real = game.new_state(players=1, seed=0, deck=deck)
        twin = game.new_state(players=1, seed=0, deck=other)
        rng = random.Random(seed)
        for _ in range(3):
            assert _seen(real, 0) == _seen(twin, 0)
            assert _places(real) != _places(twin)
            for k in range(3):
                a = real.resample(0, random.Random(k))
                b = twin.resample(0, random.Random(k))
                assert _places(a) == _places(b), (seed, k)
                tried += 1
            if real.is_terminal():
                break
            m = rng.choice(real.legal_moves())
            real.apply(m)
            twin.apply(m)
    assert tried >= 18
