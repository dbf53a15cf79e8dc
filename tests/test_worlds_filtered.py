"""Worlds of a game whose draws are filtered from a zone dealt (tests/concepts/filtered_draw.yaml:
after each trick its winner takes the first heart of the stock, not its top card). The seat cannot
tell where in the stock a card drawn so lay, so a world is a deal in which each such draw was
made from the top: the seat's own under the name it saw, another seat's, unseen, a card that
passes the take's test (``drawn._seen_at``). Every world looks to the seat as the game does, and
two deals the seat cannot tell apart give it the same worlds."""

from __future__ import annotations

import random
from pathlib import Path

import academie
from test_visibility import _replay
from test_visibility_copies import _places, _seen

FILTERED = str(Path(__file__).parent / "concepts" / "filtered_draw.yaml")


def test_worlds_of_draws_filtered_from_the_stock_look_to_the_seat_as_the_game_does():
    # a world drawn at each of 40 decisions of two random games: on the code before, 17 of these 80
    # looked otherwise to the seat (its own hand another: its filtered draw kept as the top card
    # of the stock) and 71 fell back; now none looks otherwise and fewer fall back
    game = academie.load_game(FILTERED)
    fell = drawn = 0
    for g in range(2):
        state = game.new_state(players=2, seed=g)
        moves, worlds = random.Random(g), random.Random(f"w{g}")
        for _ in range(40):
            seat = state.current_player()
            world = state.resample(seat, worlds)
            drawn += 1
            fell += world.fallback
            assert world.information_state_string(seat) == state.information_state_string(seat), (g, drawn)
            assert world.legal_moves() == state.legal_moves()
            state.apply_action(moves.choice(state.legal_actions()))
    assert drawn == 80 and fell <= 50, fell


def _twins(seed: int, every: int = 6):
    """(real, twin, seat) on a stacked deck: at decisions of a random game, two cards of the deck
    of different names that the seat has not seen (neither in its hand, nor drawn by it, nor shown)
    exchanged, the same moves made again, and kept where the seat sees the same in both."""
    game = academie.load_game(FILTERED)
    deck = list(game.new_state(players=2, seed=seed).engine.pack_cards)
    random.Random(seed).shuffle(deck)
    rng = random.Random(f"twin:{seed}")
    walk = game.new_state(players=2, seed=0, dealer=0, deck=deck)
    moves: list = []
    while not walk.is_terminal() and len(moves) < 30:
        m = rng.choice(walk.legal_moves())
        moves.append(m)
        walk.apply(m)
    for k in range(every, len(moves), every):
        real = _replay(game, 2, deck, moves[:k], {})
        seat = real.current_player()
        known = {c.name for c in real._knows(seat)}
        free = [i for i, c in enumerate(deck) if c.name not in known]
        for _ in range(40):
            i, j = rng.sample(free, 2)
            if deck[i].name == deck[j].name:
                continue
            other = deck[:]
            other[i], other[j] = deck[j], deck[i]
            twin = _replay(game, 2, other, moves[:k], {})
            if twin is not None and _places(twin) != _places(real) and _seen(twin, seat) == _seen(real, seat):
                yield real, twin, seat
                break


def test_two_deals_alike_to_a_seat_give_it_the_same_worlds_where_draws_are_filtered():
    # the places a world gives the seat's filtered draws are named from what it saw, never read
    # from the deal: on the code before, the card dealt at the top place (hidden) was kept there.
    # (The worlds drawn, not those copied where none was found: a copy of a game with copies keeps
    # a name of which the seat saw a copy where its unseen copy lies, docs/players.md)
    tried = 0
    for seed in range(4):
        for real, twin, seat in _twins(seed):
            for k in range(3):
                a = real.clone().resample(seat, random.Random(k))
                b = twin.clone().resample(seat, random.Random(k))
                assert a.copied == b.copied, (seed, seat, k)
                if not a.copied:
                    assert _places(a) == _places(b), (seed, seat, k)
                    tried += 1
    assert tried >= 6, tried
