"""Agents: any object with choose(state, seat, moves) plays; the built-in agents' fast
paths (drawing for them inside the loops, not checking their choice) hold only for the
built-in classes, never for a subclass that chooses otherwise."""

import pytest

from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.agents import Agent, FirstAgent, HumanAgent, RandomAgent, make_agents
from academie.interpreter.state import State


class Outsider(RandomAgent):
    """Chooses a card that is not among the legal moves when it can."""

    def choose(self, state, seat, moves):
        legal = set(moves)
        for c in state.hand[seat]:
            if c not in legal:
                return c
        return moves[0]


class Lazy(FirstAgent):
    """Returns a move no decision ever offers."""

    def choose(self, state, seat, moves):
        return "no such move"


class Plain:
    """An agent that inherits nothing: the protocol is enough."""

    def __init__(self):
        self.asked = 0

    def choose(self, state, seat, moves):
        self.asked += 1
        return moves[-1]


def test_the_built_in_agents_meet_the_protocol():
    for a in (FirstAgent(), RandomAgent(1), HumanAgent(), Plain()):
        assert isinstance(a, Agent)
    assert not isinstance(object(), Agent)


def test_only_the_built_in_classes_claim_to_pick_from_their_moves():
    assert FirstAgent().picks_from_moves and RandomAgent(1).picks_from_moves
    assert RandomAgent(1).uniform is not None
    assert not Outsider(1).picks_from_moves and Outsider(1).uniform is None
    assert not Lazy().picks_from_moves

    class Renamed(RandomAgent):  # a subclass that keeps the built-in choice keeps its fast path
        name = "renamed"

    assert Renamed(1).picks_from_moves and Renamed(1).uniform is not None


@pytest.mark.parametrize("agent", [Outsider, Lazy])
@pytest.mark.parametrize("check", ["move", "hand"])
def test_a_subclass_returning_an_illegal_move_gets_the_engines_error(agent, check):
    # in Hearts a player who holds the suit led must follow: the outsider plays another
    # suit at the first chance, which must be refused, in both trick loops
    game = load_game("hearts/foster")
    agents = [agent(seed=s) if agent is Outsider else agent() for s in range(4)]
    with pytest.raises(RuleError, match="not a legal move"):
        State(game, 4, 5, keep_events=(check == "move"), check=check, agents=agents)


def test_the_same_subclass_with_a_legal_choice_plays_to_the_end():
    class Lowest(RandomAgent):
        def choose(self, state, seat, moves):
            return moves[0]

    game = load_game("hearts/foster")
    st = State(game, 4, 5, keep_events=False, check="hand", agents=[Lowest(seed=s) for s in range(4)])
    assert st.finished


def test_an_agent_of_no_class_here_is_asked_at_every_decision():
    game = load_game("enfle/academie")
    agents = [Plain() for _ in range(4)]
    st = State(game, 4, 2, keep_events=False, check="hand", agents=agents)
    assert st.finished and sum(a.asked for a in agents) >= st.plays > 0


def test_built_in_random_agents_still_take_the_short_loop(monkeypatch):
    game = load_game("hearts/foster")
    used = []
    real = State._tricks_drawn

    def counting(self, st, uniform):
        used.append(1)
        return real(self, st, uniform)

    monkeypatch.setattr(State, "_tricks_drawn", counting)
    State(game, 4, 1, keep_events=False, check="hand", agents=make_agents(["random"], 4, 1))
    assert used
