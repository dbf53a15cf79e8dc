"""Any rule file as an OpenSpiel game, built on the public API (``academie.api``) alone.

    import academie.openspiel, pyspiel
    name = academie.openspiel.register("hearts/foster", players=4)
    game = pyspiel.load_game(name)

``register(ref, players=None)`` registers the rule file ``ref`` (a corpus id, an id with
options, or a path, as ``academie.load_game``) for a fixed number of players (default: the
fewest the rules allow) as a Python game of OpenSpiel, and returns its short name.

Chance, as in OpenSpiel's own card games: each card of each shuffle is a chance outcome (its
action id, uniform over the cards left), each cut and each card of the draw for dealer too. The
engine draws through ``ChanceRandom`` (``new_state(rng=…)``), which gives only what chance has
chosen; a draw not chosen yet stops the engine, the state is then a chance node, and once chance
has chosen, the move is made again from a copy of the state before it.

Actions are academie's stable action ids; observation strings are ``observation(seat,
earlier_hands=False)`` as JSON and information-state strings ``information_state_string(seat)``;
the tensors encode ``observation(seat)`` (``academie.encoding``). Returns are ``returns()``,
centred on the table's mean when the probes' returns all summed to the same number (the game is
then declared zero-sum). Bounds are estimated by ``probes`` random games (docs/api.md).

``serialize()`` / ``pyspiel.deserialize_game_and_state`` are OpenSpiel's own for Python games:
a pickle. Unpickling data you did not make yourself runs code: keep ``state.history()``
(plain ints) and apply them to ``game.new_initial_state()`` instead (``docs/api.md``).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import numpy as np
import pyspiel

from .api import Game, State, load_game
from .dsl.cards import Card
from .encoding import ObservationEncoder

__all__ = ["register", "AcademieGame", "AcademieState"]

MAX_ACTIONS = 100_000  # action ids a game may have here (OpenSpiel lists them all in its masks)
_REGISTERED: dict[str, tuple[pyspiel.GameType, pyspiel.GameInfo, str]] = {}


def short_name(game: Game, players: int) -> str:
    """The OpenSpiel short name of ``game`` for ``players`` players: ``academie_hearts_foster_4p``."""
    ref = "+".join((game.id, *game.options))
    return "academie_" + re.sub(r"[^A-Za-z0-9]+", "_", ref).strip("_").lower() + f"_{players}p"


def _probe(game: Game, players: int, probes: int) -> tuple[int, int, float, bool]:
    """Of ``probes`` uniformly random games: the most decisions, the most hands, the largest
    absolute return (centred when the sums are constant) and whether every game's returns
    summed to the same number."""
    rng = random.Random(0)
    longest, hands, sums, results = 0, 1, set(), []
    for seed in range(probes):
        s = game.new_state(players, seed=seed)
        n = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        longest, hands = max(longest, n), max(hands, s.hand_no)
        r = [float(x) for x in s.returns()]
        sums.add(round(sum(r), 9))
        results.append(r)
    constant = len(sums) <= 1
    if constant:
        results = [[x - sum(r) / len(r) for x in r] for r in results]
    largest = max((abs(x) for r in results for x in r), default=0.0)
    return longest, hands, largest, constant


def register(
    ref: str,
    players: int | None = None,
    *,
    probes: int = 64,
    max_game_length: int | None = None,
    utility: tuple[float, float] | None = None,
    zero_sum: bool | None = None,
) -> str:
    """Register rule file ``ref`` for ``players`` players as an OpenSpiel game; return its short
    name for ``pyspiel.load_game``. Registering the same game and players again returns the same name
    (and keeps the first registration's bounds). ``zero_sum``: returns centred on the table's
    mean and the game declared zero-sum (default: when the probes' returns all summed to the
    same number)."""
    game = load_game(ref)
    n = game.players[0] if players is None else players
    name = short_name(game, n)
    if name in _REGISTERED:
        return name
    game.check_actions(MAX_ACTIONS, "the OpenSpiel adapter")  # a legal-action mask is made of every id
    game.new_state(n)  # a wrong number of players raises the API's InvalidSeat here
    cards = sum(isinstance(game.action_to_move(a), Card) for a in range(game.num_distinct_actions()))
    longest, hands, largest, constant = _probe(game, n, probes)
    if zero_sum is None:
        zero_sum = constant
    if max_game_length is None:
        # each hand: a shuffle (a chance node per card), a cut, and a draw for dealer at the start
        max_game_length = 2 * longest + 2 * hands * (cards + 1) + n
    if utility is None:
        bound = max(1.0, 4.0 * largest)
        utility = (-bound, bound)
    U = pyspiel.GameType.Utility
    gtype = pyspiel.GameType(
        short_name=name,
        long_name=f"academie {game.title} ({'+'.join((game.id, *game.options))}), {n} players",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=U.ZERO_SUM if zero_sum else U.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=max(1, cards),
        num_players=n,
        min_utility=float(utility[0]),
        max_utility=float(utility[1]),
        utility_sum=0.0 if zero_sum else None,
        max_game_length=int(max_game_length),
    )
    _REGISTERED[name] = (gtype, info, ref)
    pyspiel.register_game(gtype, _game_class(name))
    return name


def _game_class(name: str) -> type:
    """A subclass of ``AcademieGame`` bound to the registered ``name`` (OpenSpiel builds it
    with the parameters alone)."""
    return type(f"AcademieGame_{name}", (AcademieGame,), {"_name": name})


class AcademieGame(pyspiel.Game):
    """An academie rule file as an OpenSpiel game (made by ``register``)."""

    _name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        gtype, info, ref = _REGISTERED[self._name]
        params = dict(params or {})
        super().__init__(gtype, info, params)
        self.academie = game = load_game(ref)
        self.players = info.num_players
        self.centre = gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
        self.card_ids = {
            game.action_to_string(a): a
            for a in range(game.num_distinct_actions())
            if isinstance(game.action_to_move(a), Card)
        }
        self.encoder = ObservationEncoder(game, self.players, "the OpenSpiel adapter")

    def new_initial_state(self) -> "AcademieState":
        return AcademieState(self)

    def tensor_size(self, perfect_recall: bool) -> int:
        """The observation tensor's length, or the information state tensor's (``perfect_recall``)."""
        return self.encoder.size + (self.players * len(self.card_ids) if perfect_recall else 0)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "AcademieObserver":
        return AcademieObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class NeedChance(BaseException):
    """Raised by ``ChanceRandom`` when the engine draws what chance has not chosen yet (a
    BaseException: it passes through the engine, which turns errors into rule errors)."""

    def __init__(self, kind: str, options: list[int], left: int):
        super().__init__(kind)
        self.kind, self.options, self.left = kind, options, left


class ChanceRandom(random.Random):
    """The engine's random generator in an OpenSpiel state: every draw is a chance outcome chosen
    before it is drawn (``draws``, in order). A shuffle is the pack's cards chosen one by one,
    top first, each among those left (an outcome is a card's action id; the last card is
    forced); a cut is a number below the places it may take; the draw for dealer is a card per
    seat, each among the pack's cards not drawn. A draw not chosen yet raises ``NeedChance``."""

    def __init__(self, ids: dict[str, int], draws: list[int] | None = None, pos: int = 0):
        super().__init__(0)
        self.ids, self.draws, self.pos = ids, [] if draws is None else draws, pos

    def __copy__(self) -> "ChanceRandom":
        new = ChanceRandom.__new__(ChanceRandom)  # the Mersenne state is never drawn from: not seeded
        new.ids, new.draws, new.pos = self.ids, self.draws[:], self.pos
        return new

    def __reduce__(self):  # type: ignore[override]
        return (ChanceRandom, (self.ids, self.draws, self.pos))

    def _cards(self, cards: list[Any], k: int) -> list[Any]:
        """``k`` of ``cards`` in the order chance chose them (the last one left forced)."""
        ids, draws = self.ids, self.draws
        by: dict[int, list[Any]] = {}
        for c in reversed(cards):  # each id's cards, the first in the pack last (popped first)
            by.setdefault(ids[c.name], []).append(c)
        chosen = []
        n = len(cards)
        for _ in range(k):
            if n == 1:  # the last card left: forced
                chosen.extend(next(v for v in by.values() if v))
                break
            if self.pos >= len(draws):
                picked = set(map(id, chosen))
                left = [ids[c.name] for c in cards if id(c) not in picked]
                r = k - len(chosen)
                raise NeedChance("card", left, r - (r == len(left)))
            want = draws[self.pos]
            got = by.get(want)
            if not got:
                raise ValueError(f"chance outcome {want} is no card left to draw")
            chosen.append(got.pop())
            self.pos += 1
            n -= 1
        return chosen

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        x[:] = self._cards(x, len(x))

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list:  # type: ignore[override]
        return self._cards(list(population), k)

    def randrange(self, start: int, stop: Any = None, step: int = 1) -> int:  # type: ignore[override]
        if stop is not None or step != 1:
            raise NotImplementedError("ChanceRandom.randrange(n) only")
        if self.pos >= len(self.draws):
            raise NeedChance("below", list(range(start)), 1)
        j = self.draws[self.pos]
        if not 0 <= j < start:
            raise ValueError(f"chance outcome {j}: a number below {start}")
        self.pos += 1
        return j

    def getrandbits(self, k: int) -> int:
        raise NotImplementedError("the engine draws through shuffle, randrange and sample only")


class _Live:
    """The engine side of an OpenSpiel state: ``inner`` (academie's ``State``, None at a chance
    node); ``snap``, a copy of the state where chance last finished (None before), and the
    moves made since (``moves``), to make them again once chance has chosen; the chance outcomes
    chosen (``draws``) and what chance is choosing now (``need``). Not pickled: an unpickled
    state plays its OpenSpiel history again."""

    __slots__ = ("inner", "snap", "moves", "draws", "need", "stale", "world")

    def __init__(self) -> None:
        self.inner: State | None = None
        self.snap: State | None = None
        self.moves: list[int] = []
        self.draws: list[int] = []
        self.need: list | None = None  # [kind, options (a multiset), how many more]
        self.stale = False
        self.world = False

    def __deepcopy__(self, memo: dict) -> "_Live":
        new = _Live()
        new.inner = None if self.inner is None else self.inner.clone()
        new.snap, new.world = self.snap, self.world  # the snapshot is never changed
        new.moves = self.moves[:]
        new.draws = self.draws[:]
        new.need = None if self.need is None else [self.need[0], self.need[1][:], self.need[2]]
        new.stale = self.stale
        return new

    def __getstate__(self) -> dict:
        if self.world:
            raise TypeError("a world drawn by resample_from_infostate is not pickled")
        return {}

    def __setstate__(self, d: dict) -> None:
        _Live.__init__(self)
        self.stale = True


class AcademieState(pyspiel.State):
    """One game: chance deals the cards (each card, each cut, each draw for dealer an outcome),
    academie's ``State`` plays the rules."""

    def __init__(self, game: AcademieGame):
        super().__init__(game)
        self._academie = game.academie
        self._players = game.players
        self._ids = game.card_ids
        self._centre = game.centre
        self._log: list[int] = []  # the history, to play again after unpickling
        self._live = _Live()
        self._run()

    # -- the engine driven by chance ---------------------------------------------------
    def _L(self) -> _Live:
        live = self._live
        if live.stale:  # unpickled: play the history again
            self._live = _Live()
            log, self._log = self._log, []
            self._run()
            for a in log:
                self._step(a)
            live = self._live
        return live

    def _run(self) -> None:
        """Once chance has chosen: the engine from the snapshot (or the start) with the chance
        outcomes chosen so far and the moves made since, to the next decision (a new snapshot)
        or to the next draw chance has not chosen yet."""
        live = self._live
        try:
            if live.snap is None:
                inner = State(
                    self._academie, self._players, 0, rng=ChanceRandom(self._ids, live.draws[:]), _record=True
                )
            else:
                inner = live.snap.clone()
                gen = inner.rng
                if isinstance(gen, ChanceRandom):
                    gen.draws = live.draws[:]
            for a in live.moves:
                inner.apply_action(a)
        except NeedChance as need:
            live.inner, live.need = None, [need.kind, need.options, need.left]
            return
        live.inner, live.need = inner, None
        live.snap, live.moves = inner.clone(), []

    def _step(self, action: int) -> None:
        live = self._live
        action = int(action)
        if live.need is not None:
            kind, options, left = live.need
            if action not in options:
                raise ValueError(f"chance outcome {action} is not one of {sorted(set(options))}")
            live.draws.append(action)
            if kind == "card" and left > 1:
                options.remove(action)
                live.need = [kind, options, left - 1]
            else:
                self._run()
        else:
            inner = live.inner
            assert inner is not None
            try:
                inner.apply_action(action)  # an illegal move is refused before anything changes
            except NeedChance as need:  # the move ends a hand, and the next one is dealt
                live.inner, live.need = None, [need.kind, need.options, need.left]
            live.moves.append(action)
        self._log.append(action)

    def _before(self) -> State | None:
        """At a chance node: academie's state before the move that ended the hand (None at the
        start), made again from the snapshot."""
        live = self._L()
        if live.snap is None:
            return None
        before = live.snap.clone()
        for a in live.moves[:-1]:
            before.apply_action(a)
        return before

    @property
    def inner(self) -> State | None:
        """academie's ``State`` (None at a chance node)."""
        return self._L().inner

    def current_player(self) -> int:
        live = self._L()
        if live.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert live.inner is not None
        if live.inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        p = live.inner.current_player()
        assert p is not None
        return p

    def _legal_actions(self, player: int) -> list[int]:
        inner = self.inner
        assert inner is not None and player >= 0
        return inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        live = self._L()
        assert live.need is not None
        options = live.need[1]
        n = len(options)
        counts: dict[int, int] = {}
        for o in options:
            counts[o] = counts.get(o, 0) + 1
        return [(o, c / n) for o, c in sorted(counts.items())]

    def _apply_action(self, action: int) -> None:
        self._L()
        self._step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            need = self._L().need
            if need is not None and need[0] == "below":
                return f"chance {action}"
            return f"card {self._academie.action_to_string(int(action))}"
        return self._academie.action_to_string(int(action))

    def is_terminal(self) -> bool:
        inner = self.inner
        return inner is not None and inner.is_terminal()

    def returns(self) -> list[float]:
        inner = self.inner
        if inner is None:
            return [0.0] * self._players
        r = [float(x) for x in inner.returns()]
        if self._centre and inner.is_terminal():
            mean = sum(r) / len(r)
            r = [x - mean for x in r]
        return r

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "AcademieState":
        """A state ``player_id`` cannot tell from this one: academie's ``State.resample``, the
        cards the seat has not seen dealt again (the deals of hands to come are chance nodes
        again). ``probability_sampler()`` seeds the draw. At a chance node, the state itself."""
        live = self._L()
        if live.inner is None:
            return self.clone()
        seed = int(probability_sampler() * 2**31)
        world = live.inner.resample(player_id, seed)
        new = self.get_game().new_initial_state()
        wl = _Live()
        wl.inner, wl.snap, wl.world, wl.draws = world, world.clone(), True, live.draws[:]
        new._live = wl
        return new

    def __str__(self) -> str:
        inner = self.inner
        if inner is None:
            return f"chance: {len(self._L().draws)} outcomes drawn"
        moves = " ".join(self._academie.action_to_string(self._academie.move_to_action(m)) for m in inner.history)
        return f"{len(self._L().draws)} chance outcomes; moves: {moves}"


class AcademieObserver:
    """Strings and tensors: the information state (perfect recall) or the observation, as
    ``docs/api.md`` describes; the tensors from ``observation(seat)`` alone."""

    def __init__(self, game: "AcademieGame", iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = game.encoder
        self.players = game.players
        self.cards = {name: i for i, name in enumerate(game.card_ids)}  # a card's place in a seat's block
        self.size = game.tensor_size(self.perfect_recall)
        self.tensor = np.zeros(self.size, np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor}

    def set_from(self, state: AcademieState, player: int) -> None:
        self.tensor[:] = 0
        inner = state.inner
        if inner is None:  # a chance node: the seat has seen nothing of the deal being made
            return
        obs = inner.observation(player, earlier_hands=False)
        enc = self.encoder
        self.tensor[: enc.size] = enc.encode(obs)
        if self.perfect_recall:  # this hand's plays, by seat (the observer first)
            cards = self.cards
            c, base = len(cards), enc.size
            for ev in obs.get("events") or []:
                if ev.get("type") == "play" and isinstance(ev.get("seat"), int) and ev.get("card") in cards:
                    rel = (ev["seat"] - player) % self.players
                    self.tensor[base + rel * c + cards[ev["card"]]] = 1

    def string_from(self, state: AcademieState, player: int) -> str:
        inner = state.inner
        if inner is None:  # chance at work: the seat has seen nothing of it yet
            before = state._before()
            return "start" if before is None else before.information_state_string(player) + " then chance"
        if self.perfect_recall:
            return inner.information_state_string(player)
        return json.dumps(inner.observation(player, earlier_hands=False), sort_keys=True, separators=(",", ":"))
