"""What a seat sees never depends on which copy of a card lies where, in the games of two packs
(``pack: copies:``), where the differential test of ``test_visibility_families`` exchanges names
only: a name of which a seat has seen one copy stays where its copies are, so a leak of where the
other copy lies is not in its reach. Here one copy is moved by hand, between two places the seat
cannot see, and the seat must not see the difference."""

from __future__ import annotations

import json
import random

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
