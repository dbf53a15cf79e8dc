"""Players that any rule file gets for free: they search the game through the
public API (``academie.api``) alone and know no game.

* ``mc``: flat Monte Carlo; each legal move in turn, in a world drawn anew
  (``State.resample``), played out at random; the move with the best mean;
* ``ismcts``: information-set Monte Carlo tree search; each iteration draws a
  world and searches it with one tree shared by all the worlds;
* ``random``, ``first``: the interpreter's own, for a table of mixed players.

From Python, ``academie.players.agent("ismcts", iterations=300, seed=1)``
gives a player whose ``choose(state)`` returns an action id of ``state``. On
the command line ``--agents ismcts:iterations=300,random`` (parameters after
colons) seats them: importing this package registers them, and ``drive``, in
the interpreter's registry (``academie.interpreter.agents``, which imports no
player), where ``make_agents`` finds them and ``play`` drives the game with
them decision by decision, with a copy of it under the public API for these
players to search.
docs/players.md describes them, their strength and their speed.
"""

from __future__ import annotations

import random
import time as _time
from typing import Any

from ..api import Game, State
from ..interpreter import agents as _agents
from ..interpreter.agents import RandomAgent

__all__ = ["PLAYERS", "Player", "agent", "drive", "parse_params"]


class Player:
    """A player that searches: ``choose(state)`` (an ``academie.State``, the
    seat to move being this player's) returns an action id. ``needs_api``
    tells the interpreter's ``play`` to ask it with the public API's state."""

    name = "player"
    needs_api = True
    # parameter -> (type, default, what it is); ``seed`` is every player's
    PARAMS: dict[str, tuple[type, Any, str]] = {}

    def __init__(self, seed: int | str | None = None, **params: Any):
        unknown = sorted(set(params) - set(self.PARAMS))
        if unknown:
            raise ValueError(
                f"{self.name} takes no parameter '{unknown[0]}' (its parameters: {', '.join([*self.PARAMS, 'seed'])})"
            )
        for k, (kind, default, _) in self.PARAMS.items():
            v = params.get(k, default)
            if v is not None:
                v = _value(self.name, k, kind, v)
            setattr(self, k, v)
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.PARAMS if getattr(self, k) is not None)
        return f"<{self.name} {shown}>"

    def choose(self, state: State, seat: Any = None, moves: Any = None) -> int:
        """The action id this player takes at ``state`` (its seat to move)."""
        if not isinstance(state, State):
            raise TypeError(
                f"{self.name} plays through the public API: give it an academie.State "
                "(the interpreter's play() does so; a state built with agents= inside cannot)"
            )
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no move to choose")
        if len(legal) == 1:
            return legal[0]
        return self.search(state, legal)

    def search(self, state: State, legal: list[int]) -> int:
        raise NotImplementedError

    def _budget(self):
        """A function saying whether iteration ``i`` may start (iterations, then time)."""
        iterations = getattr(self, "iterations", None)
        seconds = getattr(self, "time", None)
        if seconds is None:
            n = iterations if iterations is not None else 100
            return lambda i: i < n
        stop = _time.perf_counter() + seconds
        if iterations is None:
            return lambda i: i == 0 or _time.perf_counter() < stop
        return lambda i: i < iterations and (i == 0 or _time.perf_counter() < stop)


def _value(player: str, key: str, kind: type, v: Any) -> Any:
    """Parameter ``key`` as ``kind``, checked (from a spec's text or a Python value)."""
    try:
        if isinstance(v, bool):
            raise ValueError
        x = kind(v)
    except (TypeError, ValueError):
        raise ValueError(f"{player}: {key} must be {'an integer' if kind is int else 'a number'}, not {v!r}") from None
    if kind is float and not (x == x and x != float("inf")):
        raise ValueError(f"{player}: {key} must be a finite number, not {v!r}")
    if key in ("iterations", "playouts") and x < 1:
        raise ValueError(f"{player}: {key} must be at least 1, not {v!r}")
    if key == "time" and x <= 0:
        raise ValueError(f"{player}: time (seconds a move) must be more than 0, not {v!r}")
    if key == "c" and x < 0:
        raise ValueError(f"{player}: c must be 0 or more, not {v!r}")
    if key == "iterations" and x > 10**7:
        raise ValueError(f"{player}: at most 10000000 iterations, not {v!r}")
    if key == "horizon" and x not in ("hand", "game"):
        raise ValueError(f"{player}: horizon is 'hand' or 'game', not {v!r}")
    if key == "stakes" and x not in ("lie", "random"):
        raise ValueError(f"{player}: stakes is 'lie' or 'random', not {v!r}")
    if key == "root" and x not in ("ucb", "paired"):
        raise ValueError(f"{player}: root is 'ucb' or 'paired', not {v!r}")
    return x


def playout(state: State, seat_count: int, rng: random.Random, horizon: str, stakes: str = "lie") -> list[float]:
    """Play ``state`` on at random to the end of the hand in progress
    (``horizon="hand"``) or of the game (``State.playout``: the state is used
    up); each seat's score then, less the table's mean (``State.scores``: the
    rules' standings as if the game ended). With ``stakes="lie"`` nobody names
    a new stake in the playout (``State.playout(stakes=False)``): the stakes as
    they lie are settled by the cards; ``"random"``: staked at random too."""
    return centred(state.playout(rng, 1 if horizon == "hand" else None, stakes=stakes == "random"))


def centred(scores: list) -> list[float]:
    mean = sum(scores) / len(scores)
    return [s - mean for s in scores]


from .ismcts import ISMCTS  # noqa: E402
from .mc import MonteCarlo  # noqa: E402

PLAYERS: dict[str, type[Player]] = {"mc": MonteCarlo, "ismcts": ISMCTS}


def agent(name: str, **params: Any) -> Any:
    """A player by name: ``mc`` or ``ismcts`` (``iterations``, ``time``, ``c``,
    ``horizon``, ``stakes``, ``seed``), or the interpreter's ``random`` (``seed``) and
    ``first``. ``ValueError`` for an unknown name or parameter."""
    if name in PLAYERS:
        return PLAYERS[name](**params)
    if name == "random":
        extra = sorted(set(params) - {"seed"})
        if extra:
            raise ValueError(f"random takes no parameter '{extra[0]}' (its parameters: seed)")
        return _ApiRandom(params.get("seed"))
    if name == "first":
        if params:
            raise ValueError("first takes no parameters")
        return _ApiFirst()
    raise ValueError(f"unknown player '{name}' (players: {', '.join([*PLAYERS, 'random', 'first'])})")


class _ApiRandom(RandomAgent):
    """The random agent, also asked with an ``academie.State`` (``choose(state)`` gives an action id)."""

    def choose(self, state, seat=None, moves=None):
        if isinstance(state, State):
            legal = state.legal_actions()
            return legal[int(self.rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        return RandomAgent.choose(self, state, seat, moves)


class _ApiFirst(_agents.FirstAgent):
    def choose(self, state, seat=None, moves=None):
        if isinstance(state, State):
            return state.legal_actions()[0]
        return moves[0]


def parse_params(cls: type[Player], params: dict[str, str]) -> dict[str, Any]:
    """A spec's parameters (text) as the player's own values (checked)."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k == "seed":
            out[k] = int(v) if v.lstrip("-").isdigit() and v.isascii() else v
        elif k not in cls.PARAMS:
            raise ValueError(
                f"{cls.name} takes no parameter '{k}' (its parameters: {', '.join([*cls.PARAMS, 'seed'])})"
            )
        else:
            out[k] = _value(cls.name, k, cls.PARAMS[k][0], v)
    return out


class _Factory:
    """A player of ``cls`` from a spec's parameters, for a seat and a game seed: what the
    interpreter's registry holds (a class, not a closure, so that a simulation's job carries it
    to worker processes)."""

    def __init__(self, cls: type[Player]):
        self.cls = cls

    def __call__(self, params: dict[str, str], seat: int, seed: Any) -> Player:
        cls = self.cls
        p = parse_params(cls, params)
        # each seat's own generator, from the game's seed (or the spec's): the same
        # game seed gives the same choices, whatever process plays the game
        base = p.pop("seed", None)
        return cls(seed=f"{seed if base is None else base}:{seat}:{cls.name}", **p)


for _name, _cls in PLAYERS.items():
    _agents.register(_name, _Factory(_cls))


# -- driving a game of the interpreter with players that search ------------------------
_API_GAMES: dict[int, tuple[Any, Game]] = {}


def _api_game(gamedef) -> Game:
    got = _API_GAMES.get(id(gamedef))
    if got is None or got[0] is not gamedef:
        got = _API_GAMES[id(gamedef)] = (gamedef, Game(gamedef, gamedef.id, tuple(gamedef.options)))
    return got[1]


def drive(st: Any, agents: list) -> Any:
    """Play the interpreter's state ``st`` (new, no move made yet) to its end,
    one decision at a time: a player that searches is asked with a twin of
    the game under the public API (built from the same rules, seed, dealer,
    deck and deal, and given every move), the others with ``st`` itself as
    always. Returns ``st``."""
    setup = st.setup
    deal = setup["deal"]
    twin = State(
        _api_game(st.g),
        st.n,
        st.seed,
        dealer=setup["dealer"],
        deck=setup["deck"],
        deal=None
        if deal is None
        else {z: [[c.name for c in h] for h in cs] if z == "hands" else [c.name for c in cs] for z, cs in deal.items()},
    )
    while not st.is_terminal():
        seat = st.current_player()
        moves = st.legal_moves()
        a = agents[seat]
        if getattr(a, "needs_api", False):
            m = twin.game.action_to_move(a.choose(twin))
        else:
            m = a.choose(st, seat, moves)
        st.apply(m)
        if not twin.is_terminal():
            twin.apply(m)
    return st


_agents.register_driver(drive)  # the interpreter's play() drives its searching players with it
