"""The API's ``State``: one game, built on the interpreter's state and driven one decision at
a time (moves, the end, copies, records). What a seat sees is ``views``; the worlds a seat
cannot tell from it, ``resampling``."""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any, Iterable

from ..dsl.cards import Card
from ..dsl.errors import RuleError
from ..interpreter import state as _engine
from ..interpreter.base import PASS
from .actions import Move, _card_of, _name, _shown
from .errors import ApiError, GameOver, IllegalMove, InvalidSeat
from .resampling import Resampling
from .views import Views, _Entry

if TYPE_CHECKING:
    from .game import Game


def follow_rule_of(e: _engine.State, seat: int | None = None) -> dict | None:
    """``State.follow_rule`` for the interpreter's state ``e``, at the
    decision at hand, or for ``seat`` asked to play a card inside the rules'
    loop (an agent's ``choose``: the terminal's human player is shown why a
    card is refused)."""
    if seat is None:
        seat = e.current_player()
        if seat is None or e.decision_kind() != "play":
            return None
    got = e.follow_tier(seat)
    if got is None:
        return None
    st, tier = got
    base = ["hand", st.name, "follow"]
    if tier is None:
        if st.lead_test is None:
            return None
        return {"rule": [*base, "lead"], "test": st.lead_test.text, "tier": None}
    if tier >= len(st.must):
        return {"rule": [*base, "must"], "test": None, "tier": tier}
    return {"rule": [*base, "must", tier], "test": st.must[tier].text, "tier": tier}


_FEW = 64  # legal moves mapped to their ids at each call; more (numbers) are mapped once a decision


class State(Views, Resampling):
    """One game, driven one decision at a time. Built by ``Game.new_state``."""

    _lazy = False  # True: no record of the hand kept yet (``_rec`` makes it)
    _dec: Any = None  # a decision of many moves whose legal action ids are in ``_acts``
    _acts: tuple[int, ...] = ()

    def __init__(
        self,
        game: Game,
        players: int,
        seed: int | str = 0,
        dealer: int | None = None,
        deck: Iterable[Card | str] | None = None,
        deal: dict | None = None,
        *,
        keep_events: bool = False,
        _moves: Iterable[Move] = (),
        _record: bool = False,
        rng: random.Random | None = None,
    ):
        lo, hi = game.players
        if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
            raise InvalidSeat(f"{game.id} is for {lo} to {hi} players, not {_shown(players)}")
        if dealer is not None and (
            isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players
        ):
            raise InvalidSeat(f"dealer {_shown(dealer)}: seats are 0 to {players - 1}")
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ApiError(f"a seed is an int or a string, not {type(seed).__name__}")
        cards = None if deck is None else [_card_of(c) for c in deck]
        self.game = game
        self.players = players
        self._recipe: tuple[int, int | str, int | None, list[Card] | None, dict | None] = (
            players,
            seed,
            dealer,
            cards,
            None if deal is None else copy.deepcopy(deal),
        )
        self._keep = keep_events
        # a generator of the caller's, as it was given (a copy, to play the game again from the start)
        self._rng0 = None if rng is None else copy.copy(rng)
        # the hand's public record (events, cards seen) is kept only once someone asks for it
        # (observation, resample, the engine itself): until then the engine logs nothing, and
        # the record is then made by playing the moves again from the start (``_rec``)
        self._lazy = not (keep_events or _record)  # _record: its record kept from the start
        try:
            self._start(_moves)
        except RuleError as e:
            if e.diagnostics and e.diagnostics[0].pos.file in ("--deck", "--deal"):
                raise ApiError(e.diagnostics[0].message) from None
            raise

    def _start(self, moves: Iterable[Move]) -> None:
        """The engine built afresh from the recipe, ``moves`` applied: logging
        into the hand's record unless the state is lazy."""
        players, seed, dealer, deck, deal = self._recipe
        lazy = self._lazy
        self._moves: list[Move] = []
        self._applying = 0  # 1 while a move is sent to the engine (not yet in _moves)
        self._mark: tuple[int, int] = (0, 0)  # at the top of the hand in progress: (moves made, len(_earlier))
        self._ev: list[_Entry] = []  # the hand in progress (or the set-up before it)
        self._earl: list[list[_Entry]] = []  # the hands before (and the set-up), in order
        self._views: dict[int, tuple[int, list, str]] = {}  # seat -> (hands, views, JSON)
        self._seen_: set[str] = set()
        self.__dict__.pop("_e", None)  # not the engine before (its zones are not this one's)
        self._e = _engine.State(
            self.game.gamedef,
            players,
            seed,
            dealer=dealer,
            deck=deck,
            deal=deal,
            keep_events=self._keep,
            rng=None if self._rng0 is None else copy.copy(self._rng0),
            sink=None if lazy else self._on_event,
            check="hand",
            snapshots=not lazy,  # the top of each hand, from which worlds are drawn (resample)
            track=not lazy,  # what hidden cards each counter's value depends on (observation)
        )
        if not lazy:
            self._e.knowing = self._knows
        for m in moves:
            self._send(m)

    def _rec(self) -> "State":
        """This state, with the hand's public record kept from now on (made,
        the first time, by playing the moves again from the start: the same
        game, as ``clone_by_replay``)."""
        if self._lazy:
            self._lazy = False
            self._start(self._moves)
        return self

    @property
    def engine(self) -> _engine.State:
        """The interpreter's state (asking for it keeps the hand's record from then on)."""
        return self._rec()._e

    @engine.setter
    def engine(self, e: _engine.State) -> None:
        self._e = e

    # the hand's record, made when first asked for (``_rec``)
    def _get(name: str):  # type: ignore[misc]
        return property(lambda self: getattr(self._rec(), name), lambda self, v: setattr(self, name, v))

    _events = _get("_ev")
    _earlier = _get("_earl")
    _earlier_views = _get("_views")
    _seen = _get("_seen_")
    _hand_mark = _get("_mark")
    del _get

    def _send(self, m: Move) -> None:
        """Apply the legal move ``m`` in the engine and record it."""
        if self._lazy:
            self._e.apply(m)
        else:
            self._applying = 1
            try:
                self._e.apply(m)
            finally:
                self._applying = 0
        self._moves.append(m)

    def __repr__(self) -> str:
        return f"<State {self.game.id}, {self.players} players, {len(self._moves)} moves>"

    # -- the decision at hand ---------------------------------------------------
    def current_player(self) -> int | None:
        """The seat to move, or None once the game is over."""
        d = self._e.decision
        return None if d is None else d.seat

    def decision_kind(self) -> str | None:
        """``"play"`` (a card), ``"announce"`` (a declaration or pass), ``"choose"``
        (a card to set aside, or pass to stop), ``"number"`` (a whole number), ``"place"``
        (a patience: the pile the card chosen goes to),
        ``"suit"`` (a suit named, by its letter), or None at the end."""
        return self._e.decision_kind()

    def legal_moves(self) -> list[Move]:
        """The legal moves, in canonical order (cards by suit S H D C and rank
        2 … A; declining before declaring); empty once the game is over."""
        return self._e.legal_moves()

    def legal_actions(self) -> list[int]:
        """The legal moves as action ids, in the same order."""
        d = self._e.decision
        if d is None:
            return []
        moves = d.moves
        if len(moves) <= _FEW:  # the caller's own list, the one allocation of a call: nothing kept
            return list(map(self.game._ids.__getitem__, moves))
        if d is not self._dec:  # many numbers: worked out once a decision (a decision is never changed once made)
            self._acts = tuple(map(self.game._ids.__getitem__, moves))
            self._dec = d
        return list(self._acts)

    def action_to_string(self, action: int) -> str:
        """The name of the move of ``action`` (``"QS"``, ``"pass"``)."""
        return self.game.action_to_string(action)

    def move_to_action(self, move: Move) -> int:
        return self.game.move_to_action(move)

    def apply(self, move: Move) -> None:
        """Make ``move`` (a move, a card's name or a declaration's name) for the
        seat to move, and run the rules to the next decision. ``GameOver`` after
        the end, ``UnknownAction`` for what is no move of the game,
        ``IllegalMove`` for a move not legal now."""
        eng = self._e
        if eng.is_terminal():
            raise GameOver(
                f"the game is over: no move can be made ({_name(move) if isinstance(move, (Card, str)) else _shown(move)})"
            )
        m = self.game._move(move)
        legal = eng.legal_moves()
        if m not in legal:
            from ..words import duty  # the rule that refuses it, in words

            said = duty(self.follow_rule() or {"rule": None})
            raise IllegalMove(
                f"{_name(m)} is not a legal move for seat {eng.current_player()}: {said}"
                f" (legal: {' '.join(map(_name, legal))})"
            )
        self._send(m)

    def apply_action(self, action: int) -> None:
        """``apply`` the move of action id ``action``."""
        e = self._e
        d = e.decision
        if d is not None and type(action) is int:
            moves = self.game._moves
            if 0 <= action < len(moves):
                m = moves[action]
                if type(m) is not str and m in d.moves:
                    # a legal card or number: straight to the engine (what ``apply`` checks, checked)
                    if self._lazy:
                        e.apply_legal(m)
                    else:
                        self._applying = 1
                        try:
                            e.apply_legal(m)
                        finally:
                            self._applying = 0
                    self._moves.append(m)
                    return
        if d is None:
            raise GameOver(f"the game is over: no move can be made (action {_shown(action)})")
        self.apply(self.game.action_to_move(action))

    def follow_rule(self) -> dict | None:
        """The rule element that chose the legal cards of the decision at hand,
        when a trick's follow rule (or lead rule) did: ``{"rule": path in the
        rule file, "test": the tier's expression, "tier": its index}``; the
        index is None for the lead rule, and ``len(must)`` (with no test) when
        no tier could be met and any card may be played. None at any other
        decision. The engine's own tiers, not a guess made after the fact."""
        return follow_rule_of(self._e)

    def why_illegal(self, move: Move) -> dict | None:
        """None if ``move`` is legal now; else why not: ``{"move", "legal",
        "rule", "test", "tier"}`` with the follow rule that refused it (see
        ``follow_rule``; ``rule`` is None when no follow rule was at work).
        ``UnknownAction`` for what is no move of the game."""
        m = self.game._move(move)
        legal = self._e.legal_moves()
        if m in legal:
            return None
        why = self.follow_rule() or {"rule": None, "test": None, "tier": None}
        return {"move": _name(m), "legal": [_name(x) for x in legal], **why}

    # -- the end -----------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._e.decision is None

    def returns(self) -> list[int]:
        """Each seat's final score by the rules' standings (0 each until the end)."""
        return self._e.returns()

    def standings(self) -> list[dict]:
        """``[{seat, score, rank}, …]`` best first, once the game is over (else empty)."""
        return [dict(r) for r in self._e.standings]

    def scores(self) -> list:
        """Each seat's score by the rules' standings as if the game ended now
        (the final ``returns()`` once it has ended): what a search scores a
        position by when it stops before the end. Zero each where the rules
        give no standings."""
        e = self._e
        if e.is_terminal():
            return e.returns()
        fn = e.g.standings
        if fn is None:
            return [0] * self.players
        try:
            return [fn.fn(e, s, None) for s in range(self.players)]
        except Exception:  # a score that is read only at the end (a count of what is not yet there)
            return [0] * self.players

    def playout(self, rng: random.Random, hands: int | None = None, *, stakes: bool = True) -> list:
        """Play on with uniformly random moves, to the end of the game or, with
        ``hands``, to the end of that many hands (the one in progress counting
        as the first; the game is then stopped there, with no final
        settlement), and return ``scores()``. The moves are drawn by the
        interpreter's random agent inside its own loops, unrecorded, for a
        search's rollouts: the state is used up — it holds its scores, but
        ``history``, ``observation`` and ``clone()`` no longer describe it.
        With ``stakes=False`` a seat asked to name a target at a ``stake`` step
        passes (it names none: the stakes lie as they are, to be settled by the
        cards), every other move drawn at random as before."""
        from ..interpreter.agents import RandomAgent

        e = self._e
        self._lazy = False  # used up: its engine is kept as the playout leaves it, never built again
        if not e.is_terminal():
            if hands is not None:
                e.hands_limit = e.hand_no + max(1, hands) - 1
            e.silence()  # nobody looks at it any more: no event built, no counter's atoms recorded
            staking = not stakes and any(x.kind == "stake" for x in self.game.gamedef.steps)
            e.run_with([_StakesLie(rng) if staking else RandomAgent(rng=rng)] * self.players)
        return self.scores()

    @property
    def rng(self) -> random.Random:
        """The random generator this state draws its shuffles, cuts and draws for dealer from:
        the one given to ``new_state(rng=…)`` (a clone has its own copy), else one seeded with
        the seed."""
        return self._e.rng

    @property
    def hand_no(self) -> int:
        """The number of the hand in progress (1 for the first)."""
        return self._e.hand_no

    @property
    def history(self) -> list[Move]:
        """The moves made since the start, in order."""
        return list(self._moves)

    # -- copies ------------------------------------------------------------------------
    def clone(self) -> "State":
        """An independent copy: moves applied to it never change this state (nor
        the reverse). The interpreter's state is copied as it is, paused at its
        decision (``copy``: cards, money, counters and the procedure's place;
        nothing is played again); the same state as ``clone_by_replay()``."""
        new = State.__new__(State)
        new.game = self.game
        new.players = self.players
        new._recipe = self._recipe
        new._rng0 = self._rng0
        new._keep = self._keep
        new._moves = self._moves[:]
        new._applying = 0
        new._lazy = lazy = self._lazy
        if lazy:  # no record yet: none for the copy either (it makes its own when asked)
            new._ev, new._earl, new._views, new._seen_, new._mark = [], [], {}, set(), (0, 0)
            new._e = self._e.copy()
            return new
        new._ev = self._ev[:]  # each entry never changed once made
        new._earl = self._earl[:]  # earlier hands' events: never changed once there
        new._views = self._views.copy()  # each view never changed once made
        new._seen_ = set(self._seen_)
        new._mark = self._mark
        new._e = self._e.copy(sink=new._on_event)
        new._e.knowing = new._knows
        return new

    def clone_by_replay(self) -> "State":
        """The reference copy: a new state built the way this one was, with its
        moves replayed from the start (what pickling does)."""
        players, seed, dealer, deck, deal = self._recipe
        return State(
            self.game, players, seed, dealer, deck, deal, keep_events=self._keep, _moves=self._moves, rng=self._rng0
        )

    def __deepcopy__(self, memo: dict) -> "State":
        return self.clone()

    def to_record(self) -> dict:
        """This state as plain JSON-ready data: the game's ``rules_record``, how the game was
        made (players, seed, dealer, deck, deal) and the moves' names. ``state_from_record``
        rebuilds it; unlike a pickle, reading a record runs no code. A state drawing from a
        generator of its own (``rng``) has none: ``ApiError``."""
        if self._rng0 is not None:
            raise ApiError("a state drawing from a generator of its own (rng) has no record: its seed is not its game")
        return copy.deepcopy(self.__getstate__())

    def __getstate__(self) -> dict:
        players, seed, dealer, deck, deal = self._recipe
        return {
            "game": self.game.rules_record(),
            "players": players,
            "seed": seed,
            "dealer": dealer,
            "deck": None if deck is None else [c.name for c in deck],
            "deal": deal,
            "keep_events": self._keep,
            "moves": [_name(m) for m in self._moves],
            **({} if self._rng0 is None else {"rng": self._rng0}),
        }

    def __setstate__(self, d: dict) -> None:
        from .game import _game_of_record, load_game  # the games above the states

        rec = d["game"]  # an older pickle: (reference, options)
        game = _game_of_record(rec) if isinstance(rec, dict) else load_game(rec[0], rec[1])
        moves = [game._move(m) for m in d["moves"]]
        State.__init__(
            self,
            game,
            d["players"],
            d["seed"],
            d["dealer"],
            d["deck"],
            d["deal"],
            keep_events=d["keep_events"],
            _moves=moves,
            rng=d.get("rng"),
        )

    def __eq__(self, other: object) -> bool:
        """Two states are equal when made the same way with the same moves."""
        if not isinstance(other, State):
            return NotImplemented
        return self.game is other.game and self.__getstate__() == other.__getstate__()

    __hash__ = None  # type: ignore[assignment]


State.__module__ = "academie.api"


class _StakesLie:
    """A random player that names no stake: at a ``stake`` step's choice of a target it passes;
    every other move uniformly at random (``State.playout(stakes=False)``)."""

    def __init__(self, rng: random.Random):
        self.random = rng.random

    def choose(self, state: _engine.State, seat: int, moves: list) -> Any:
        k = len(moves)
        if k == 1:
            return moves[0]
        if moves[0] == PASS and state.step is not None and state.step.kind == "stake":
            return moves[0]
        return moves[int(self.random() * k)]
