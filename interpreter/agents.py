"""Agents choose among the legal moves of a decision.

* ``first``: always the first legal move (cards in canonical order; declining
  an optional announcement comes first);
* ``random``: uniformly at random, from a seeded generator the random agents
  of a game share;
* ``human``: shows the hand and the legal moves at the terminal and asks.

An agent is anything with ``choose(state, seat, moves)`` returning one of
``moves`` (the ``Agent`` protocol): it need not inherit from a class here.

Two attributes let the interpreter skip asking, and they hold only for the
built-in classes themselves, never for a subclass that overrides ``choose``
(such an agent is asked, and a move it returns that is not legal is refused):

* ``uniform``: a function drawing a float in [0, 1) with which the agent picks
  ``moves[int(uniform() * len(moves))]`` (the one move if there is only one).
  The interpreter then draws for it inside its loops instead of calling
  ``choose`` (the same choices, fewer calls).
* ``picks_from_moves``: true when ``choose`` always returns one of the moves it
  is given, so that the loops need not check the choice.
"""

from __future__ import annotations

import random
import sys
from typing import Any, Callable, Protocol, TextIO, runtime_checkable

from ..dsl.cards import parse_card, pretty
from ..dsl.text import safe
from .state import Abandoned, State, move_name

AGENTS = ("first", "random", "human")

# players registered by name beyond the built-ins: name -> factory(params, seat, seed) giving an
# agent. The engine imports no player: the library above it registers its own (``academie.players``
# registers its searching players, and the driver they are played with, when it is imported).
PLAYERS: dict[str, Callable[..., Any]] = {}
# the driver of the players that search (``needs_api``): drive(state, agents) plays ``state`` to its end
_DRIVERS: list[Callable[[State, list], State]] = []


def register(name: str, factory: Callable[..., Any]) -> None:
    """Make ``factory(params, seat=, seed=)`` the player called ``name`` in agent specs."""
    PLAYERS[name] = factory


def register_driver(drive: Callable[[State, list], State]) -> None:
    """Make ``drive(state, agents)`` the way ``play`` runs a game with players that search
    (``needs_api``): asked at every decision with the game as the public API holds it."""
    _DRIVERS[:] = [drive]


def known_agents() -> tuple[str, ...]:
    """The built-in agents and every registered player."""
    return AGENTS + tuple(p for p in PLAYERS if p not in AGENTS)


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """One seat's agent spec: a name, then parameters after colons
    (``ismcts:iterations=300:c=0.7``) -> (name, {parameter: text})."""
    name, *rest = spec.strip().split(":")
    params: dict[str, str] = {}
    for item in rest:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"'{item}' in agent '{spec}' is not a parameter (write name=value)")
        params[key.strip()] = value.strip()
    return name.strip(), params


def check_spec(spec: str) -> None:
    """Raise ValueError if ``spec`` names no agent or gives it a parameter it does not take."""
    name, params = split_spec(spec)
    if name in AGENTS:
        if params:
            raise ValueError(f"agent '{name}' takes no parameters")
        return
    known = known_agents()
    if name not in PLAYERS:
        raise ValueError(f"unknown agent '{name}' (agents: {', '.join(known)})")
    PLAYERS[name](params, seat=0, seed=0)


@runtime_checkable
class Agent(Protocol):
    """A player: given the state, its seat and the legal moves (in canonical
    order), it returns one of those moves."""

    def choose(self, state: State, seat: int, moves: list) -> Any: ...


class _BuiltIn:
    """What the built-in agents share: ``picks_from_moves`` holds only while
    ``choose`` is the class's own, not a subclass's."""

    name = "agent"
    _own_choose: Callable | None = None  # the choose that is known to pick from the moves

    def choose(self, state: State, seat: int, moves: list) -> Any:
        raise NotImplementedError

    @property
    def picks_from_moves(self) -> bool:
        cls = type(self)
        return cls.choose is cls._own_choose


class FirstAgent(_BuiltIn):
    """Always the first legal move."""

    name = "first"

    def choose(self, state, seat, moves):
        return moves[0]


FirstAgent._own_choose = FirstAgent.choose


class RandomAgent(_BuiltIn):
    """Uniformly at random among the legal moves."""

    name = "random"

    def __init__(self, seed=None, rng: random.Random | None = None):
        """Its own generator seeded with ``seed``, or the generator ``rng``
        it shares with other agents."""
        self.rng = rng if rng is not None else random.Random(seed)
        self._random = self.rng.random
        # how it chooses, for a loop that draws for it: moves[int(uniform() * len(moves))]
        # if there is more than one move, else the one move (not so for a subclass that
        # chooses otherwise: that one is asked)
        self.uniform: Callable[[], float] | None = self._random if type(self).choose is RandomAgent.choose else None

    def choose(self, state, seat, moves):
        k = len(moves)
        return moves[int(self._random() * k)] if k > 1 else moves[0]


RandomAgent._own_choose = RandomAgent.choose


class HumanAgent:
    """Plays at the terminal: shows the table, the hand and the legal moves,
    and takes a move by its number or its name (``QS``, ``pass``)."""

    name = "human"

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None):
        self.inp, self.out = inp or sys.stdin, out or sys.stdout

    def choose(self, state, seat, moves):
        def w(text: str) -> None:  # names come from the rule file: control characters escaped
            self.out.write(safe(text))

        w(
            f"\n— seat {seat}, hand {state.hand_no}, dealer {state.dealer}"
            + (f", trump {state.trump}" if state.trump else "")
            + "\n"
        )
        trick = state.zones.get("trick", [])
        if trick:
            w(f"  on the table: {' '.join(pretty(c) for c in trick)}\n")
        w(f"  your hand:    {' '.join(pretty(c) for c in state.hand[seat])}\n")
        w("  " + "  ".join(f"[{i + 1}] {move_name(m)}" for i, m in enumerate(moves)) + "\n")
        while True:
            w("  your move: ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise Abandoned(f"standard input ended before seat {seat} chose a move: the game is abandoned", seat)
            t = line.strip()
            m = typed_move(t, moves)
            if m is not None:
                return m
            w(f"  '{t}' is not one of the legal moves\n")


def typed_move(t: str, moves: list) -> Any:
    """The move of ``moves`` a person typed: its number in the list (from 1),
    a card's name, or a declaration's name (any case); None if none is."""
    if t.isdigit() and 1 <= int(t) <= len(moves):
        return moves[int(t) - 1]
    c = parse_card(t)
    for m in moves:
        if (c is not None and m is c) or move_name(m).lower() == t.lower():
            return m
    return None


def make_agents(spec: list[str], players: int, seed) -> list[Agent]:
    """Agents by name, one per seat; a single name serves every seat. The
    random agents of a game share one generator of their own, seeded from the
    game seed, so that their choices never disturb the shuffle (and a game
    seeds two generators, not one per seat)."""
    return agent_maker(spec, players)(seed)


def agent_maker(spec: list[str], players: int) -> "AgentMaker":
    """``make_agents`` with the spec read once: called with a game seed, it
    gives the agents of that game (the same agents as ``make_agents``), for a
    run of many games with the same spec. A spec naming no agent, or a player
    given parameters it does not take, is refused here."""
    if len(spec) == 1:
        spec = spec * players
    if len(spec) != players:
        raise ValueError(f"{len(spec)} agents for {players} players")
    # per seat: None for a random agent (it takes the shared generator), else a factory of the seed
    makers: list[Callable[[Any], Agent] | None] = []
    for seat, name in enumerate(spec):
        if ":" in name or (name not in AGENTS and name in known_agents()):
            check_spec(name)
            pname, params = split_spec(name)
            makers.append(_player(PLAYERS[pname], params, seat))
        elif name == "first":
            makers.append(lambda seed: FirstAgent())
        elif name == "random":
            makers.append(None)
        elif name == "human":
            makers.append(lambda seed: HumanAgent())
        else:
            raise ValueError(f"unknown agent '{name}' (agents: {', '.join(AGENTS)})")
    return AgentMaker(makers, all(name in AGENTS for name in spec))


class AgentMaker:
    """The agents of one game from its seed (``agent_maker``). ``built_in``:
    every seat is a built-in agent (none searches with the public API)."""

    __slots__ = ("makers", "built_in", "random_only", "seats")

    def __init__(self, makers: list[Callable[[Any], Agent] | None], built_in: bool):
        self.makers = makers
        self.built_in = built_in
        self.random_only = all(m is None for m in makers)
        self.seats = range(len(makers))

    def __call__(self, seed) -> list[Agent]:
        if self.random_only:  # the usual simulation: one generator, a random agent per seat
            shared = random.Random(f"{seed}:agents")
            return [RandomAgent(rng=shared) for _ in self.seats]
        rng = random.Random(f"{seed}:agents") if None in self.makers else None
        return [RandomAgent(rng=rng) if m is None else m(seed) for m in self.makers]


def _player(factory: Callable[..., Any], params: dict[str, str], seat: int) -> Callable[[Any], Agent]:
    """A registered player's factory for ``seat``, as a function of the seed."""
    return lambda seed: factory(dict(params), seat=seat, seed=seed)


def play(state: State, agents: list[Agent]) -> State:
    """Run ``state`` to its end with ``agents`` (one per seat). Players that
    search (``needs_api``) are asked at every decision with the game as the
    public API holds it, by the driver registered with them (``register_driver``:
    ``academie.players.drive``)."""
    if any(getattr(a, "needs_api", False) for a in agents):
        if not _DRIVERS:
            raise ValueError("a player that searches is seated, but no driver is registered (import academie.players)")
        return _DRIVERS[0](state, agents)
    return state.run_with(agents)
