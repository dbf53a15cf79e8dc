"""The engine as a library: load a rule file, play it move by move, copy a
state, and see it as one seat may see it.

    import academie
    game = academie.load_game("hearts/foster")
    state = game.new_state(players=4, seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()

A ``Game`` is one compiled rule file (with its options). A ``State`` is one
game of it, built on the interpreter's state and driven one decision at a
time. Moves are the interpreter's own: a card (``academie.dsl.cards.Card``,
named ``"QS"``, ``"10H"``) or a declaration's name (``"pass"`` declines). Every
move has a stable action id: the cards of the game's full pack in canonical
order, then (in a game with declarations) ``pass`` and the declarations in the
order the rule file gives.

``clone()`` copies a state as it is, paused at its decision (the
interpreter's ``copy``: nothing is played again); ``clone_by_replay()`` (the
reference) and pickling rebuild a state from how the game was created (rule
file, options, players, seed, dealer, deck, deal) and every move applied
since. ``docs/api.md`` describes every call.
"""

from __future__ import annotations

import copy
import json
import random
import threading
from pathlib import Path
from typing import Any, Iterable, Sequence, Union

from .dsl.cards import _ALL as _CARDS
from .dsl.cards import Card, parse_card
from .dsl.errors import UNKNOWN, RuleError
from .dsl.loader import digest_of, in_corpus, is_path, split_ref
from .dsl.model import GameDef
from .dsl.model import load_game as _compile
from .interpreter import state as _engine
from .interpreter.visibility import FACE_UP

__all__ = [
    "ApiError",
    "Game",
    "GameOver",
    "IllegalMove",
    "InvalidSeat",
    "Move",
    "OtherGame",
    "State",
    "UnknownAction",
    "load_game",
    "state_from_record",
]

Move = Union[Card, str, int]
"""A move: a card, or the name of a declaration (``"pass"`` declines)."""

PASS = _engine.PASS


# -- the exceptions of misuse -----------------------------------------------------
class ApiError(ValueError):
    """A call the API cannot honour: a wrong argument, not a fault of the rule file."""


class IllegalMove(ApiError):
    """The move is not one of the legal moves of the decision at hand."""


class GameOver(IllegalMove):
    """A move was made after the end of the game."""


class UnknownAction(IllegalMove):
    """An action id that no move of this game has, or a move this game never offers."""


class InvalidSeat(ApiError):
    """A seat (or a number of players) outside the game's table."""


class OtherGame(ApiError):
    """A pickled state or a state's record made with another rule file (or other options)
    than the one it is read against."""


# -- games ---------------------------------------------------------------------------
_LOADED = threading.local()  # games kept per thread: a compiled rule file is filled while played


def load_game(ref: str, options: Iterable[str] = ()) -> "Game":
    """The game of rule file ``ref``: a corpus id (``hearts/foster``), an id
    with options after plus signs (``polignac/boussac+capot``), or a path to a
    YAML file. ``options`` adds more. A faulty rule file raises the loader's
    ``RuleError`` (located in the file). Games are kept: loading the same
    reference twice in one thread gives the same ``Game`` (each thread loads
    its own: a game's compiled tables are filled while it is played)."""
    if not isinstance(ref, str):
        ref = str(ref)
    base, named = split_ref(ref)
    opts = tuple(dict.fromkeys([*named, *options]))
    key = (base, opts)
    games = getattr(_LOADED, "games", None)
    if games is None:
        games = _LOADED.games = {}
    g = games.get(key)
    if g is None:
        g = games[key] = Game(_compile(base, list(opts)), base, opts)
    return g


class Game:
    """One compiled rule file, with its options: what never changes from one
    state of the game to another (the table, the pack, the action ids)."""

    def __init__(self, gamedef: GameDef, ref: str, options: tuple[str, ...] = ()):
        self.gamedef = gamedef
        self.ref = ref
        self.id: str = gamedef.id
        self.title: str = gamedef.title
        self.options: tuple[str, ...] = tuple(gamedef.options)
        self._ref_options = options
        self.players: tuple[int, int] = (gamedef.min_players, gamedef.max_players)
        cards: dict[Card, None] = {}
        for n in range(gamedef.min_players, gamedef.max_players + 1):
            cards.update(dict.fromkeys(gamedef.pack(n)))
        decls = [d for d in gamedef.declarations if d != PASS]
        kinds = {st.kind for st in gamedef.steps}
        others = [PASS, *decls] if decls or "choose_cards" in kinds else []
        numbers = range(gamedef.number_bound + 1) if "choose_number" in kinds else range(0)
        suits = list(gamedef.suits) if "choose_suit" in kinds else []  # a suit named: its letter
        head: list[Move] = [*sorted(cards, key=lambda c: c.canon), *others]
        self._moves: list[Move] | _Actions
        self._ids: dict[Any, int] | _ActionIds
        if len(numbers) <= _EAGER_NUMBERS:
            self._moves = [*head, *numbers, *suits]
            self._ids = {m: i for i, m in enumerate(self._moves)}
        else:  # a large max: the numbers' ids are worked out, never listed (play offers 1,000 at most)
            self._moves = _Actions(head, numbers, suits)
            self._ids = _ActionIds(self._moves)
        self._by_name: dict[str, Move] = {_name(m).lower(): m for m in (*head, *numbers[:_EAGER_NUMBERS], *suits)}
        self._numbers = numbers

    def __repr__(self) -> str:
        return f"<Game {self.id}{''.join('+' + o for o in self.options)}>"

    def __reduce__(self):
        return (_game_of_record, (self.rules_record(),))

    def rules_record(self) -> dict:
        """Which rule file this game is, as plain data: ``{"rules": corpus id or absolute
        path, "corpus": bool, "options": [names], "digest": "sha256:…"}`` (the digest of the
        rule file and of what it extends and imports). A pickled state and ``State.to_record``
        keep it, and are refused against another file (``OtherGame``)."""
        rec: dict[str, Any] | None = self.__dict__.get("_rules_record")
        if rec is None:
            doc = self.gamedef.doc
            corpus = in_corpus(Path(doc.file))
            rec = {
                "rules": self.id if corpus else str(Path(doc.file).resolve()),
                "corpus": corpus,
                "options": list(self.options),
                "digest": digest_of(doc),
            }
            self._rules_record = rec
        return dict(rec, options=list(rec["options"]))

    def num_distinct_actions(self) -> int:
        """How many action ids the game has: every card of its largest pack,
        then ``pass`` and each declaration (``pass`` also where cards are
        chosen), then each number from 0 to the greatest a player may choose,
        then each suit of the pack where a player names one."""
        return len(self._moves)

    def check_actions(self, limit: int, user: str) -> None:
        """Refuse, for ``user`` (an adapter that lists every action id, in an
        action mask or a space), a game with more than ``limit`` action ids:
        a ``RuleError`` at the ``max:`` of the step whose numbers make them so many."""
        n = len(self._moves)
        if n <= limit:
            return
        steps = [st for st in self.gamedef.steps if st.kind == "choose_number" and st.high is not None]
        st = max(steps, key=lambda st: st.high_literal or 0, default=None)
        pos = st.high.pos if st is not None and st.high is not None else UNKNOWN
        raise RuleError(
            f"{self.id} has {n:,} action ids (its numbers go up to {len(self._numbers) - 1:,}), more than "
            f"{limit:,}, the most {user} takes: lower this max (the API itself has no such bound)",
            pos,
            code="limit",
        )

    def action_to_move(self, action: int) -> Move:
        """The move of action id ``action`` (``UnknownAction`` if none)."""
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(self._moves):
            raise UnknownAction(
                f"{_shown(action)} is not an action id of {self.id} (ids are 0 to {len(self._moves) - 1})"
            )
        return self._moves[action]

    def move_to_action(self, move: Move) -> int:
        """The action id of ``move`` (a card, a card's name or a declaration's name)."""
        m = self._move(move)
        return self._ids[m]

    def action_to_string(self, action: int) -> str:
        return _name(self.action_to_move(action))

    def _move(self, move: Any) -> Move:
        """The move meant by ``move``: itself, or the move of that name."""
        if isinstance(move, Card):
            if move in self._ids:
                return move
        elif isinstance(move, int) and not isinstance(move, bool):
            if move in self._ids:
                return move
        elif isinstance(move, str):
            c = parse_card(move)
            key = c.name.lower() if c is not None else move.strip().lower()
            m = self._by_name.get(key)
            if m is not None:
                return m
            if 0 < len(key) <= 20 and key.isascii() and key.isdigit() and int(key) in self._numbers:
                return int(key)
        last = [str(self._moves[i]) for i in range(max(0, len(self._moves) - 3), len(self._moves))]
        raise UnknownAction(
            f"{_shown(move)} is not a move of {self.id} (a card of its pack, {PASS}, or a declaration: {', '.join(last)} …)"
        )

    def new_state(
        self,
        players: int | None = None,
        seed: int | str = 0,
        *,
        dealer: int | None = None,
        deck: Iterable[Card | str] | None = None,
        deal: dict | None = None,
        keep_events: bool = False,
        rng: random.Random | None = None,
    ) -> "State":
        """A new game at its first decision. ``players``: the number at the
        table (default: the fewest the rules allow). ``seed``: the shuffle's
        (the same seed, the same game). ``dealer``: the first dealer's seat
        (else the rules choose). ``deck``: a stacked pack, top card first, for
        the first hand. ``deal``: the first hand's deal, ``{"hands": [[cards
        of seat 0], …], zone: [cards]}``. ``keep_events``: keep the whole event
        log (every card, for a referee) in ``state.engine.events``. ``rng``: a
        generator of your own (a subclass of ``random.Random``) for the shuffles
        (its ``shuffle``), cuts (its ``randrange``) and the draw for dealer (its
        ``sample``) of every hand, instead of one seeded with ``seed``."""
        return State(
            self,
            self.players[0] if players is None else players,
            seed,
            dealer,
            deck,
            deal,
            keep_events=keep_events,
            rng=rng,
        )


_MAX_RECORD_MOVES = 1_000_000  # moves a record may hold (a game of the corpus makes a few hundred)


def _game_of_record(rec: Any, paths: bool = True) -> "Game":
    """The game a ``rules_record`` names, refused (``OtherGame``) if the file there now is
    another one. ``paths``: whether a path may be read (not for a record from elsewhere)."""
    if not isinstance(rec, dict) or not isinstance(rec.get("rules"), str) or not isinstance(rec.get("options"), list):
        raise ApiError('a game is recorded as {"rules", "corpus", "options", "digest"}')
    opts = rec["options"]
    if not all(isinstance(o, str) for o in opts) or len(opts) > 64:
        raise ApiError("a game's options are recorded by name")
    ref = rec["rules"]
    if rec.get("corpus") is True:
        if is_path(ref):
            raise ApiError(f"{_shown(ref)} is recorded as a corpus id but is a path")
    elif not paths:
        raise ApiError(f"the record names the rule file {_shown(ref)} by its path: load it and pass the game")
    elif not Path(ref).is_absolute():
        raise ApiError(f"a rule file is recorded by its absolute path, not {_shown(ref)}")
    for g in getattr(_LOADED, "games", {}).values():  # loaded already (by any name): the same Game
        if g.rules_record() == rec:
            return g
    game = load_game(ref, opts)
    _same_game(game, rec)
    return game


def _same_game(game: "Game", rec: dict) -> None:
    mine = game.rules_record()
    if sorted(mine["options"]) != sorted(map(str, rec.get("options") or ())):
        raise OtherGame(
            f"recorded with {_shown(rec.get('rules'))} and options {rec.get('options')}, "
            f"not {game.id} with options {mine['options']}"
        )
    if mine["digest"] != rec.get("digest"):
        raise OtherGame(
            f"recorded with a rule file {_shown(rec.get('rules'))} of digest {_shown(rec.get('digest'))}; "
            f"{mine['rules']} is now another file ({mine['digest']})"
        )


def state_from_record(record: Any, game: "Game | None" = None) -> "State":
    """The state ``State.to_record()`` gave, rebuilt: the game made the same way, each move
    applied again and checked. Safe on untrusted data (plain JSON, no code): ``game`` must be
    the recorded game (``OtherGame`` if not); without it, only a corpus id is loaded, never a
    path. ``ApiError`` (``UnknownAction``, ``IllegalMove``, ``GameOver``, ``InvalidSeat``) for a
    record that is not one."""
    if not isinstance(record, dict):
        raise ApiError(f"a state's record is a dict, not {type(record).__name__}")
    rec = record.get("game")
    if game is None:
        game = _game_of_record(rec, paths=False)
    elif not isinstance(rec, dict):
        raise ApiError('a state\'s record names its game ({"rules", "options", "digest"})')
    else:
        _same_game(game, rec)
    moves, deck, deal = record.get("moves", []), record.get("deck"), record.get("deal")
    if not isinstance(moves, list) or len(moves) > _MAX_RECORD_MOVES:
        raise ApiError(f"a state's moves are a list of at most {_MAX_RECORD_MOVES:,} names")
    if deck is not None and not isinstance(deck, list):
        raise ApiError("a deck is a list of cards")
    if deal is not None and not isinstance(deal, dict):
        raise ApiError("a deal is a dict of zones")
    try:
        state = game.new_state(
            record.get("players"),  # type: ignore[arg-type]
            record.get("seed", 0),
            dealer=record.get("dealer"),
            deck=deck,
            deal=deal,
            keep_events=record.get("keep_events") is True,
        )
    except RuleError as e:  # a deck or deal that does not fit the game
        raise ApiError(e.diagnostics[0].message) from None
    for m in moves:
        if not isinstance(m, (str, int)) or isinstance(m, bool):
            raise UnknownAction(f"a move is recorded by its name, not {_shown(m)}")
        state.apply(m)
    return state


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


def _name(m: Move) -> str:
    return m.name if isinstance(m, Card) else str(m)


def _shown(v: Any) -> str:
    """``repr(v)`` for a message, cut: an argument may be any object, of any size."""
    try:
        r = repr(v) if isinstance(v, (str, int, float, Card)) else f"a {type(v).__name__}"
    except ValueError:  # an integer too long to be written out
        r = "a very large integer"
    return r if len(r) <= 60 else r[:57] + "..."


_EAGER_NUMBERS = 4096  # numbers whose action ids are listed; above, they are worked out (``_Actions``)


class _Actions:
    """The moves by action id, as a list would give them, for a game whose
    numbers go too high to list: the cards and declarations (``head``), then
    the numbers 0 … bound (a ``range``: no memory per number), then the suits."""

    __slots__ = ("head", "numbers", "tail", "_n", "_end")

    def __init__(self, head: Sequence[Move], numbers: range, tail: Sequence[Move]) -> None:
        self.head, self.numbers, self.tail = head, numbers, tail
        self._n = len(head)
        self._end = self._n + len(numbers)

    def __len__(self) -> int:
        return self._end + len(self.tail)

    def __getitem__(self, i: int) -> Move:
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i < self._n:
            return self.head[i]
        if i < self._end:
            return self.numbers[i - self._n]
        return self.tail[i - self._end]


class _ActionIds:
    """The action id of each move (as a dict would give it) for ``_Actions``."""

    __slots__ = ("head", "numbers", "tail", "_n", "_end")

    def __init__(self, moves: _Actions) -> None:
        self.head = {m: i for i, m in enumerate(moves.head)}
        self.numbers = moves.numbers
        self._n, self._end = moves._n, moves._end
        self.tail = {m: self._end + i for i, m in enumerate(moves.tail)}

    def __contains__(self, m: Any) -> bool:
        if isinstance(m, int):
            return m in self.numbers
        return m in self.head or m in self.tail

    def __getitem__(self, m: Any) -> int:
        if isinstance(m, int):
            if m in self.numbers:
                return self._n + m
            raise KeyError(m)
        i = self.head.get(m)
        return self.tail[m] if i is None else i


# -- what a seat sees ---------------------------------------------------------------------
# the cards these events show face up; a take shows its cards when all of them were seen
_FACE_UP = FACE_UP


def _plain(v: Any) -> Any:
    """A value as JSON-ready data (cards by name, mappings keyed by strings)."""
    if isinstance(v, Card):
        return v.name
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


class State:
    """One game, driven one decision at a time. Built by ``Game.new_state``."""

    _lazy = False  # True: no record of the hand kept yet (``_rec`` makes it)
    _dec: Any = None  # the decision whose legal action ids are in ``_acts``
    _acts: list[int] = []

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
        self._dec = None
        self._acts = []
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
            self._e._knowing = self._knows
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
        d = self._e._decision
        return None if d is None else d.seat

    def decision_kind(self) -> str | None:
        """``"play"`` (a card), ``"announce"`` (a declaration or pass), ``"choose"``
        (a card to set aside, or pass to stop), ``"number"`` (a whole number),
        ``"suit"`` (a suit named, by its letter), or None at the end."""
        return self._e.decision_kind()

    def legal_moves(self) -> list[Move]:
        """The legal moves, in canonical order (cards by suit S H D C and rank
        2 … A; declining before declaring); empty once the game is over."""
        return self._e.legal_moves()

    def legal_actions(self) -> list[int]:
        """The legal moves as action ids, in the same order."""
        d = self._e._decision
        if d is None:
            return []
        if d is not self._dec:  # worked out once a decision (a decision is never changed once made)
            self._acts = acts = list(map(self.game._ids.__getitem__, d.moves))
            self._dec = d
            return acts[:]
        return self._acts[:]

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
            from .words import duty  # the rule that refuses it, in words

            said = duty(self.follow_rule() or {"rule": None})
            raise IllegalMove(
                f"{_name(m)} is not a legal move for seat {eng.current_player()}: {said}"
                f" (legal: {' '.join(map(_name, legal))})"
            )
        self._send(m)

    def apply_action(self, action: int) -> None:
        """``apply`` the move of action id ``action``."""
        e = self._e
        d = e._decision
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
        return self._e._decision is None

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

    def playout(self, rng: random.Random, hands: int | None = None) -> list:
        """Play on with uniformly random moves, to the end of the game or, with
        ``hands``, to the end of that many hands (the one in progress counting
        as the first; the game is then stopped there, with no final
        settlement), and return ``scores()``. The moves are drawn by the
        interpreter's random agent inside its own loops, unrecorded, for a
        search's rollouts: the state is used up — it holds its scores, but
        ``history``, ``observation`` and ``clone()`` no longer describe it."""
        from .interpreter.agents import RandomAgent

        e = self._e
        self._lazy = False  # used up: its engine is kept as the playout leaves it, never built again
        if not e.is_terminal():
            if hands is not None:
                e.hands_limit = e.hand_no + max(1, hands) - 1
            e._sink = None
            e._logging = False
            e._track = False  # nobody looks at it any more: no counter's atoms recorded
            e.run_with([RandomAgent(rng=rng)] * self.players)
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
        new._e._knowing = new._knows
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

    # -- worlds for a seat that cannot see every card -----------------------------
    def _unseen(self, seat: int) -> tuple:
        """The hand's deal as dealt (every card, or None before the deal), the places of the cards
        ``seat`` has not seen ([(a place's key, [its unseen cards])]: the cards dealt to a seat or a
        zone, split by what may lie there) and what may not lie in each ({key: {card, …}})."""
        from .interpreter.worlds import lacks

        deal = next((full for _, owner, full in self._events if owner == -1), None)
        groups: list = []
        barred: dict = {}
        if deal is not None:
            e = self.engine
            known = set(deal["hands"][seat]) | self._seen | {c.name for c in e.hand[seat]}
            for z, per in e.pzones.items():
                known.update(c.name for c in per[seat])
            for _, owner, full in self._events:
                if owner == seat and full is not None:
                    known.update(full.get("cards", ()))
            by_name = {c.name: c for c in e.pack_cards}
            placed: set[str] = set()
            for s, names in enumerate(deal["hands"]):
                placed.update(names)
                if s != seat:
                    groups.append((s, [by_name[n] for n in names if n not in known]))
            for z, names in deal.items():
                if z not in ("type", "hands") and isinstance(names, list):
                    placed.update(names)
                    groups.append(("zone:" + z, [by_name[n] for n in names if n not in known]))
            rest = [c for c in e.pack_cards if c.name not in placed and c.name not in known]
            groups.append(("zone:pack", rest))
            # what each seat has shown it lacks (the suits its renounces show, the cards that would
            # have met the first duty of the follow rule where it played another), barred from the
            # places of the cards it held then: the hand played again tells which, so that a card it
            # drew or was passed is barred too, and one it had laid out is not
            at, _ = self._hand_mark
            snap = e.snapshot
            shown: dict = {}
            marks: list = []
            if snap is not None:
                world = self._world if isinstance(self, _World) and snap is self._world[0] else None
                shown = lacks(
                    self.game.gamedef,
                    snap,
                    self.players,
                    self._moves[at:],
                    seat,
                    sigma=world[1] if world else None,
                    seed=world[2] if world else 0,
                    marks=marks,
                )
            split: list = []
            for g, cs in groups:
                kinds: dict = {}  # the places of the group by what is barred from them, in order
                for c in cs:
                    bar = shown.get(c)
                    kinds.setdefault(frozenset(bar) if bar else frozenset(), []).append(c)
                for k, (bar, places) in enumerate(kinds.items()):
                    key = g if not k else (g, k)
                    split.append((key, places))
                    if bar:
                        barred[key] = set(bar)
            groups = split
            return deal, groups, barred, self._copyable(seat, deal), marks
        return deal, groups, barred, None, None

    def _copyable(self, seat: int, deal: dict | None) -> tuple | None:
        """Whether a world for ``seat`` may be made from a copy of this state with the unseen cards
        exchanged in place, with nothing played again: what playing the hand again would check,
        the barred cards say already. So when the hand so far is its one deal and then only cards
        played to the tricks of a step whose follow rule (``must``, ``lead``, ``free``) reads the
        card, ``led`` and ``trump`` alone (a card's legality then turns on the cards of the tiers
        before the one the hand met, which ``lacks`` bars), ``seat`` is to move (its moves are
        its own), and no card moved in secret (no event but the deal was seen by some seats
        only). The places in the hand's events of those some seats saw in full (the deal), or
        None."""
        from .interpreter.fastpath import reads_card_led_trump, reads_card_only

        e = self.engine
        if deal is None or self._keep or e.current_player() != seat:
            return None
        g = self.game.gamedef
        step = e._cur_step
        deals = [i for i, x in enumerate(g.steps) if x.kind == "deal"]
        if step is None or step.kind != "tricks" or len(deals) != 1 or e._at[0] != deals[0] + 1:
            return None
        if not all(reads_card_led_trump(t, g) for t in step.must):
            return None
        if step.lead_test is not None and not reads_card_led_trump(step.lead_test, g):
            return None
        if step.free is not None and not reads_card_only(step.free, g):
            return None
        if not all(owner is None or owner == -1 for _, owner, _ in self._events):
            return None
        if e._taint and not self._sees_all_counters(seat):  # a hidden counter is worked out again
            return None
        return tuple(i for i, (_, owner, _) in enumerate(self._events) if owner is not None)

    def resample(self, seat: int, rng: "random.Random | int | str | None" = None) -> "State":
        """A world ``seat`` cannot tell from this state: the same game with the
        cards ``seat`` has not seen this hand (the other hands' hidden cards, a
        stock or talon face down) placed afresh, at random, where hidden cards
        lie; every card it has seen (its own, every card shown face up, every
        card it took) where it is, every hand and zone the same size, no seat
        given a suit it has shown it lacks, and the hands to come shuffled
        afresh. Built like ``clone()``, with the hand's moves played again in
        that world; a world in which one of them is not legal, or whose public
        course differs, is drawn again. Where nothing but the deal and cards
        played face up under a follow rule that reads the card alone has
        happened, the world is a copy with the unseen cards exchanged in place,
        nothing played again. ``rng``: a ``random.Random`` (or a seed for one).
        See docs/players.md."""
        from .interpreter.worlds import place

        self._check_seat(seat)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        snap = self.engine.snapshot
        if snap is None:  # no hand begun (cannot happen once built)
            return self.clone()
        key = (seat, len(self._moves), snap)
        cached = getattr(self, "_resample_cache", None)
        if cached is not None and cached[0] == key:  # a search draws many worlds from one state
            deal, groups, barred, copyable, marks, found, stats = cached[1]
        else:
            deal, groups, barred, copyable, marks = self._unseen(seat)
            found, stats = [], [0, 0]  # the exchanges that gave a world; [worlds drawn, fallen back]
            self._resample_cache = (key, (deal, groups, barred, copyable, marks, found, stats))
        # a state whose worlds mostly fall back (a count declared from a hand that few hands give)
        # draws fewer before it takes a world it drew before
        tries = _RESAMPLE_TRIES if stats[0] < 5 or 2 * stats[1] <= stats[0] else _RESAMPLE_FEW
        stats[0] += 1
        # the worlds given up, in the order drawn: one that replays the hand to the same decision,
        # though its public course differs, is kept if no world drawn gives that course
        given_up: list = []
        for attempt in range(tries + 1):
            if deal is None:
                sigma = None
            elif attempt == tries:
                stats[1] += 1
                if found:  # an exchange that gave a world before, with a future of its own
                    sigma, here = found[int(rng.random() * len(found))]
                    w = _World.__new__(_World)
                    w._from(self, snap, sigma, rng.getrandbits(64), swap=here, seat=seat)
                    if w._ok:
                        w.again = True
                        return w
                for w, args in given_up:
                    if args is not None:  # given up at its first difference: played to the end now
                        w = _World.__new__(_World)
                        a_snap, a_sigma, a_seed, a_here = args
                        w._from(self, a_snap, a_sigma, a_seed, swap=a_here, seat=seat)
                    if w._near:
                        w.fallback = True  # never the true deal where a world that plays on exists
                        return w
                sigma = {}  # no world drawn could replay the hand: the true deal, the future afresh
            else:
                sigma = place(groups, barred, rng)
                if sigma is None:  # what was inferred leaves no placement (a rule not as plain as
                    # the inference reads it): the replay alone judges
                    sigma = place(groups, {}, rng)
            here = sigma
            if sigma is not None and isinstance(self, _World) and snap is self._world[0] and self._world[1]:
                # a world of a world: its deal was the true one exchanged already; exchange that again
                first = self._world[1]
                sigma = {c: sigma.get(first.get(c, c), first.get(c, c)) for c in {*first, *sigma}}
            world = _World.__new__(_World)
            seed = rng.getrandbits(64)
            if copyable is not None and here is not None and attempt < tries:
                # no check needs the hand played again
                world._copy(self, snap, here, sigma, seed, copyable)
                return world
            early = marks if attempt < tries else None
            world._from(self, snap, sigma, seed, swap=here, marks=early, seat=seat)
            if world._ok:
                world.fallback = world.true_deal = attempt == tries
                if attempt < tries and len(found) < 64:
                    found.append((sigma, here))
                return world
            if world._near is None:
                given_up.append((None, (snap, sigma, seed, here)))
            elif world._near:
                given_up.append((world, None))
        raise AssertionError("the true deal always replays")  # pragma: no cover

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

    # -- what a seat may know --------------------------------------------------------
    def _on_event(self, ev: dict) -> None:
        """Each event of the engine, as it happens: the hand's public record."""
        t = ev["type"]
        if t == "hand_start":
            if self._ev:
                self._earl.append(self._ev)
                self._ev = []
            self._seen_.clear()
            self._mark = (len(self._moves) + self._applying, len(self._earl))
        events = self._ev
        key = _FACE_UP.get(t)
        if key is not None:
            v = ev[key]
            if isinstance(v, list):
                self._seen_.update(v)
            else:
                self._seen_.add(v)
            events.append((ev, None, None))
        elif t == "take":
            seen = self._seen_
            if all(c in seen for c in ev["cards"]):
                events.append((ev, None, None))
            else:  # cards no one saw: their number for all, the cards for the taker
                public = {k: v for k, v in ev.items() if k != "cards"}
                public["count"] = len(ev["cards"])
                events.append((public, ev["seat"], ev))
        elif t == "deal":
            public = {"type": "deal", "hand_sizes": [len(h) for h in ev["hands"]]}
            public.update({k: len(v) for k, v in ev.items() if k not in ("type", "hands")})
            events.append((public, -1, ev))  # -1: each seat sees its own hand
        elif t == "look":  # the cards of a zone not his own a seat chooses from: how many for all, which for him
            public = {k: v for k, v in ev.items() if k != "cards"}
            public["count"] = len(ev["cards"])
            events.append((public, ev["seat"], ev))
        elif t == "choose":  # a card chosen in secret: that a card was chosen, for all; which, for him
            events.append(({"type": "choose", "seat": ev["seat"]}, ev["seat"], ev))
        elif t == "deliver":  # chosen cards passed on: their number for all, the cards for both seats
            public = {k: v for k, v in ev.items() if k != "cards"}
            public["count"] = len(ev["cards"])
            both = (ev["seat"],) if ev.get("to_seat") is None else (ev["seat"], ev["to_seat"])
            events.append((public, both, ev))
        elif t == "draw_for_dealer":
            self._seen_.update(ev["cards"].values())
            events.append((ev, None, None))
        elif t == "score":  # a counter changed: its value for the seats that may see the cell, that it changed for all
            seers = self._seers(ev)
            if seers is None:  # a declaration told with what it declares, a win with the others' (narrate.told)
                events.append((self._declared(ev), None, None))
            else:
                public = {k: v for k, v in ev.items() if k not in ("amount", "total")}
                events.append((public, seers, self._declared(ev)))
        else:
            events.append((ev, None, None))

    def _declared(self, ev: dict) -> dict:
        from .narrate import told

        return told(ev, self.game.gamedef)

    def _seers(self, ev: dict) -> tuple | None:
        """The seats that may see the counter cell a ``score`` event is about, as ``view`` shows it
        now (interpreter/visibility.py), or None when every seat may."""
        from .interpreter.visibility import NOTHING, sees

        name, seat = ev["counter"], ev.get("seat")
        atoms = getattr(ev, "atoms", NOTHING)  # the cell's, as the engine had them (interpreter/effects.py)
        how = self.game.gamedef.shown.get(name, "derived")
        if how == "public":
            return None
        if how == "hidden":
            return ()
        if how == "own":
            return tuple(ev.get("seats") or ([seat] if seat is not None else range(self.players)))
        if not atoms:
            return None
        return tuple(s for s in range(self.players) if sees(atoms, s, self._knows(s)))

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidSeat(f"seat {_shown(seat)}: seats are 0 to {self.players - 1}")

    def observation(self, seat: int, earlier_hands: bool = True) -> dict:
        """What ``seat`` may know, as plain data (see docs/api.md): its own
        hand, every hand's size, the cards shown face up in each other zone
        and its size, money, counters, declarations, scores, and the public
        events of the hand in progress. Never a card of another seat's hand
        that was not shown."""
        self._check_seat(seat)
        e = self.engine
        seen = self._seen
        events = _view(self._events, seat)
        zones = {z: {"count": len(cs), "cards": [c.name for c in cs if c.name in seen]} for z, cs in e.zones.items()}
        seat_zones = {
            z: [
                {"count": len(cs), "cards": [c.name for c in cs if s == seat or c.name in seen]}
                for s, cs in enumerate(per)
            ]
            for z, per in e.pzones.items()
            if z != "hand"
        }
        mover = e.current_player()
        vs, pvs = e.view(seat, self._knows(seat))  # a counter worked out from cards it has not seen: "?"
        obs = {
            "game": self.game.id,
            "options": list(self.game.options),
            "players": self.players,
            "seat": seat,
            "hand": [c.name for c in e.hand[seat]],
            "hand_sizes": [len(h) for h in e.hand],
            "zones": zones,
            "seat_zones": seat_zones,
            "current_player": mover,
            "decision": e.decision_kind(),
            "legal": [_name(m) for m in e.legal_moves()] if mover == seat else [],
            "hand_no": e.hand_no,
            "dealer": e.dealer,
            "winner": e.winner,
            "leader": e.leader,
            "led": e.led,
            "trump": e.trump,
            "tricks_played": e.tricks_played,
            "won": list(e.won),
            "declared": _plain(e.declared),
            "vars": _plain(vs),
            "pvars": _plain(pvs),
            "balances": _plain(e.bal),
            "hand_results": [dict(r) for r in e.hand_results],
            "standings": [dict(r) for r in e.standings],
            "terminal": e.is_terminal(),
            "events": events,
        }
        if earlier_hands:
            obs["earlier_hands"] = [[dict(ev) for ev in hand] for hand in self._earlier_view(seat)[1]]
        return obs

    def _knows(self, seat: int) -> set:
        """The cards ``seat`` has seen in the hand in progress: its own (dealt, drawn, passed, in its
        zones now), every card shown face up, the cards of the events it saw in full."""
        e = self.__dict__.get("_e")  # None while the engine is being built (its events come first)
        names = set(self._seen)
        for public, owner, full in self._events:
            if full is None or owner is None:
                continue
            if owner == -1:
                names.update(full["hands"][seat])
            elif owner == seat or (isinstance(owner, tuple) and seat in owner):
                names.update(x for x in full.get("cards", ()) if isinstance(x, str))
        by_name = self.game._by_name
        known = {by_name[x.lower()] for x in names if x.lower() in by_name}
        if e is not None:
            for per in e.pzones.values():
                known.update(per[seat])
        return known

    def _cells_seen(self, seat: int | None, known: set | None) -> tuple | None:
        """The counter cells ``seat`` sees now (``visibility.visible_cells``), kept while no move is made."""
        from .interpreter.visibility import visible_cells

        if seat is None:
            return None
        key = (seat, len(self._moves))
        got = getattr(self, "_cells_cache", None)
        if got is None or got[0] != key:
            e = self._e
            cells = visible_cells(e.vars, e.pvars, e._taint, self.game.gamedef.shown, seat, known)
            got = self._cells_cache = (key, cells)
        return got[1]

    def _sees_all_counters(self, seat: int) -> bool:
        """Whether ``seat`` sees every counter cell (none worked out from cards it has not seen)."""
        e = self._e
        vs, pvs = e.view(seat, self._knows(seat))
        return vs == e.vars and pvs == e.pvars

    def _earlier_view(self, seat: int) -> tuple[int, list, str]:
        """The earlier hands' events as ``seat`` saw them, and as JSON: kept, since they never change."""
        got = self._earlier_views.get(seat)
        if got is None or got[0] != len(self._earlier):
            views = (got[1] if got else []) + [_view(h, seat) for h in self._earlier[len(got[1]) if got else 0 :]]
            got = self._earlier_views[seat] = (len(self._earlier), views, _dumps(views))
        return got

    def information_state_string(self, seat: int) -> str:
        """``observation(seat)`` as a deterministic string (JSON, keys sorted)."""
        obs = self.observation(seat, earlier_hands=False)
        obs["earlier_hands"] = _SLOT  # the earlier hands' JSON is kept, not made again
        return _dumps(obs).replace(_dumps(_SLOT), self._earlier_view(seat)[2], 1)


# (public event, who sees the full one: a seat, the seats of a tuple, -1 each his own hand of a deal; full)
_Entry = tuple[dict, Union[int, tuple, None], Union[dict, None]]
_SLOT = "\x00earlier hands\x00"  # no event holds a NUL: the place of a JSON kept aside


def _view(entries: list[_Entry], seat: int) -> list[dict]:
    """Events as ``seat`` sees them (a deal: its own hand; a take of unseen cards: the taker)."""
    out = []
    for public, owner, full in entries:
        if owner is None:
            out.append(dict(public))
        elif owner == -1:
            out.append({**public, "hand": list(full["hands"][seat])})  # type: ignore[index]
        elif isinstance(owner, tuple):
            out.append(dict(full if seat in owner else public))  # type: ignore[arg-type]
        else:
            out.append(dict(full if owner == seat else public))  # type: ignore[arg-type]
    return out


def _dumps(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _card_of(c: Card | str) -> Card:
    if isinstance(c, Card):
        return c
    k = parse_card(str(c))
    if k is None:
        raise ApiError(f"the stacked deck holds '{c}', which is not a card (write rank + suit: AS, 10H, KD)")
    return k


def _exchanged(full: Any, names: dict) -> Any:
    """An event's full form (a deal's hands, a take's cards) with the cards renamed by ``names``
    (a deal's hands in canonical order again, as dealt)."""
    out = {}
    for k, v in full.items():
        if k == "hands":
            v = [sorted((names.get(x, x) for x in h), key=_name_canon) for h in v]
        elif isinstance(v, list):
            v = [names.get(x, x) if isinstance(x, str) else x for x in v]
        elif isinstance(v, str) and k != "type":
            v = names.get(v, v)
        out[k] = v
    return out


def _name_canon(name: str) -> int:
    c = _CARDS.get(name)
    return -1 if c is None else c.canon


def _canon_key(c: Card) -> int:
    return c.canon


_RESAMPLE_TRIES = 20  # worlds drawn before the true deal is taken (with the hands to come afresh)
_RESAMPLE_FEW = 1  # ... once most worlds drawn from a state have fallen back


class _World(State):
    """A state ``resample`` drew: it copies (``clone()``) into the same world."""

    # True when no world drawn gave the hand's public course: the first that reached the same
    # decision, else (none did) the true deal
    fallback = False
    true_deal = False  # the true deal (the future afresh): no world drawn reached the same decision
    again = False  # an exchange drawn before for the same state (none drawn this time gave a world)

    def _from(
        self,
        state: State,
        snap: Any,
        sigma: dict | None,
        seed: int,
        swap: dict | None = None,
        marks: Any = None,
        seat: int | None = None,
    ) -> None:
        """This world: ``state``'s hand dealt again from ``snap`` with the unseen
        cards exchanged by ``sigma``, and its moves played again. A card moved
        in the true game is moved as the card that took its place (``sigma``): a
        card another seat chose or passed in secret is, in the world, the one
        dealt where it lay. ``swap``: how ``state``'s cards become this world's,
        when not by ``sigma`` (``state`` a world: its moves are its own cards).
        ``marks``: the counters and money every seat saw at the hand's first
        decision and after each of its moves: the world is given up at its
        first public difference. ``seat``: the seat the world is drawn for: the counters
        compared are those it sees (``visibility``)."""
        from .interpreter.visibility import cell_values, visible_cells
        from .interpreter.worlds import World

        at, earlier = state._hand_mark
        self.game = state.game
        self.players = state.players
        self._recipe = state._recipe
        self._rng0 = state._rng0
        self._keep = state._keep
        self._moves = state._moves[:at]
        self._events = []
        self._earlier = state._earlier[:earlier]
        self._earlier_views = {s: v for s, v in state._earlier_views.items() if v[0] == earlier}
        self._seen = set()
        self._applying = 0
        self._hand_mark = (at, earlier)
        self._world = (snap, sigma, seed)
        self._ok = True
        players, _, _, _, _ = state._recipe
        self.engine = World(
            state.game.gamedef,
            players,
            resume=snap,
            sigma=sigma,
            seed=seed,
            keep_events=state._keep,
            sink=self._on_event,
            check="hand",
            snapshots=True,
            track=True,
        )
        self.engine._knowing = self._knows
        known = state._knows(seat) if seat is not None else None
        shown = state.game.gamedef.shown
        try:
            swap = swap if swap is not None else sigma if sigma else None
            truth = state._events
            done = 0
            moves = state._moves[at:]
            for i in range(len(moves) + 1):
                if i:
                    m = moves[i - 1]
                    if swap is not None and isinstance(m, Card):
                        m = swap.get(m, m)  # a card the seat never saw: the one that lies where it lay
                    self._send(m)  # the interpreter refuses a move that is not legal in this world
                if marks is not None and i < len(marks):
                    # given up at the first public difference: whether it would reach the same
                    # decision is not known (None), and is found out only if it is wanted
                    ev = self._events
                    n = len(ev)
                    e = self.engine
                    mark = marks[i]
                    pv, vs, dec, bal, taint = mark[:5]
                    if seat is not None and len(mark) == 5:  # the cells the seat sees then, and their values
                        cells = visible_cells(vs, pv, taint, shown, seat, known)
                        mark = marks[i] = (*mark, cells, cell_values(vs, pv, cells))  # kept with the state's marks
                    if (
                        n > len(truth)
                        or any(ev[k][0] != truth[k][0] for k in range(done, n))
                        or (e.declared, e.bal) != (dec, bal)
                        or (
                            cell_values(e.vars, e.pvars, mark[5]) != mark[6]
                            if seat is not None
                            else (e.pvars, e.vars) != (pv, vs)
                        )
                    ):
                        self._ok = False
                        self._near = None
                        return
                    done = n
        except RuleError:
            self._ok = self._near = False
            return
        # the same decision at hand, and (below) the same public course of the hand (a seat that had to renounce here, and did not
        # there, shows what it holds), and the same decision at hand
        e, t = self.engine, state.engine
        self._near = e.current_player() == t.current_player()
        self._ok = (
            self._near
            and len(self._events) == len(state._events)
            and all(a[0] == b[0] for a, b in zip(self._events, state._events))
            # the counters and money the seat sees (a count of its own hand, say; not one of another's)
            and (
                cell_values(e.vars, e.pvars, seen) == cell_values(t.vars, t.pvars, seen)
                if (seen := state._cells_seen(seat, known)) is not None
                else (e.pvars, e.vars) == (t.pvars, t.vars)
            )
            and e.declared == t.declared
            and e.bal == t.bal
        )

    def _copy(self, state: State, snap: Any, here: dict, sigma: dict | None, seed: int, owned: tuple) -> None:
        """This world: a copy of ``state`` (paused mid-hand, nothing played again) with each card of
        ``here`` ({card: the card put in its place}) exchanged where it lies (hands, zones, the
        stock's order), the hand's events as the seats saw them exchanged the same way, and a
        random generator of its own. ``sigma``: the exchange from the true deal (``here`` itself,
        but for a world of a world). ``owned``: the places in the hand's events of those some seats
        saw in full."""
        names = {c.name: x.name for c, x in here.items()}
        self.game = state.game
        self.players = state.players
        self._recipe = state._recipe
        self._rng0 = state._rng0
        self._keep = state._keep
        self._moves = state._moves[:]
        events = self._events = state._events[:]
        for i in owned:
            public, owner, full = events[i]
            events[i] = (public, owner, _exchanged(full, names))
        self._earlier = state._earlier[:]
        self._earlier_views = state._earlier_views.copy()
        self._seen = set(state._seen)
        self._applying = 0
        self._hand_mark = state._hand_mark
        self._world = (snap, sigma, seed)
        self._ok = self._near = True
        e = self.engine = state.engine.copy(sink=self._on_event)
        e._knowing = self._knows
        get = here.get
        hands = set(map(id, e.hand))
        for zone in e._all_zones:
            changed = False
            for i, c in enumerate(zone):
                x = get(c)
                if x is not None:
                    zone[i] = x
                    changed = True
            if changed and id(zone) in hands:
                zone.sort(key=_canon_key)  # a hand is kept in canonical order
        e._rng.seed(seed)
        e._rng_state = None

    def clone(self) -> "State":
        new = State.clone(self)
        new.__class__ = _World
        new._world = self._world  # type: ignore[attr-defined]
        new.fallback, new.true_deal, new.again = self.fallback, self.true_deal, self.again  # type: ignore[attr-defined]
        return new

    def clone_by_replay(self) -> "State":
        return self.clone()

    def __reduce_ex__(self, protocol):
        raise TypeError("a world drawn by resample() is not pickled: pickle the state it was drawn from")
