"""An independent referee re-reads the event logs of random L'Enflé games and
checks every rule the source states, move by move."""

import pytest

from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State

ORDER = "K Q J 10 9 8 7 6 5 4 3 2 A".split()  # the French page: ace lowest


def strength(card):
    return len(ORDER) - ORDER.index(card[:-1])


def referee(events, n):
    """Replay a log, asserting the rules; return the number of pick-ups seen."""
    hands, trick, led, turn, pickups = None, [], None, None, 0
    for e in events:
        t = e["type"]
        if t == "deal":
            hands = [set(h) for h in e["hands"]]
            assert sorted(len(h) for h in hands) == [len(hands[0])] * n
            trick, led = [], None
        elif t == "hand_start":
            dealer = e["dealer"]
            turn = (dealer + 1) % n  # the player to the dealer's right leads
        elif t == "renounce":
            s = e["seat"]
            assert s == turn
            assert not any(c[-1] == led for c in hands[s]), "renounced while holding the suit led"
        elif t == "take" and e["to"] == "hand":
            s = e["seat"]
            assert sorted(e["cards"]) == sorted(c for _, c in trick), "must pick up all cards played before him"
            hands[s] |= set(e["cards"])
            trick, led, turn = [], None, s  # trick over; he leads
            pickups += 1
        elif t == "play":
            s, c = e["seat"], e["card"]
            assert s == turn, f"seat {s} played out of turn (expected {turn})"
            assert c in hands[s]
            if led is not None and any(x[-1] == led for x in hands[s]):
                assert c[-1] == led, "did not follow suit"
            hands[s].remove(c)
            trick.append((s, c))
            if led is None:
                led = c[-1]
            turn = (s + 1) % n  # counterclockwise = next seat
            if not hands[s]:
                turn = None  # the hand ends at once
        elif t == "trick":
            assert len(trick) == n and all(c[-1] == led for _, c in trick)
            best = max(trick, key=lambda sc: strength(sc[1]))
            assert e["winner"] == best[0]
            trick, led, turn = [], None, e["winner"]
        elif t == "hand_end":
            if e.get("reason") != "unfinished":
                empty = [s for s in range(n) if not hands[s]]
                assert empty == [e["winner"]], "the winner is the one player with an empty hand"
    return pickups


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_random_games_obey_every_rule(players):
    game = load_game("enfle/academie")
    pickups = 0
    for seed in range(15):
        st = State(game, players, seed)
        play(st, make_agents(["random"], players, seed))
        assert not st.unfinished
        pickups += referee(st.events, players)
        st.check_invariants()
        # money: n chips each at the start, none created or lost
        assert sum(b["chip"] for b in st.bal.values()) == players * players
    assert pickups > 0
