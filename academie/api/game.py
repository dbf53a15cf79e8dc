"""Games: a rule file compiled with its options (``Game``), the action ids of its moves, and
the games loaded per thread; a game's record (``rules_record``) read back."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any, Iterable

from ..dsl import codegen
from ..dsl.cards import Card, parse_card
from ..dsl.errors import UNKNOWN, RuleError
from ..dsl.loader import digest_of, in_corpus, is_path, split_ref
from ..dsl.model import GameDef
from ..dsl.model import load_game as _compile
from .actions import _EAGER_NUMBERS, PASS, Move, _ActionIds, _Actions, _name, _shown
from .errors import ApiError, OtherGame, UnknownAction
from .state import State

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
    key = (base, opts, codegen.enabled())  # compiled with the generated code or without (dsl/codegen.py)
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
        # the family of play its rule file names (``trick``, ``vying``, … dsl/families.py), or None
        self.family: str | None = gamedef.family
        self.options: tuple[str, ...] = tuple(gamedef.options)
        self._ref_options = options
        self.players: tuple[int, int] = (gamedef.min_players, gamedef.max_players)
        cards: dict[Card, None] = {}
        for n in range(gamedef.min_players, gamedef.max_players + 1):
            cards.update(dict.fromkeys(gamedef.pack(n)))
        decls = [d for d in gamedef.declarations if d != PASS]
        kinds = {st.kind for st in gamedef.steps}
        named = [
            m for m in dict.fromkeys(m for st in gamedef.steps for m in st.move_names) if m != PASS and m not in decls
        ]
        others = [PASS, *decls, *named] if decls or named or "choose_cards" in kinds else []
        with_numbers = "choose_number" in kinds or any(st.offers_numbers for st in gamedef.steps)
        numbers = range(gamedef.number_bound + 1) if with_numbers else range(0)
        with_suits = "choose_suit" in kinds or any(st.offers_suits for st in gamedef.steps)
        suits = list(gamedef.suits) if with_suits else []  # a suit named: its letter
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
    on = codegen.enabled()
    for key, g in getattr(_LOADED, "games", {}).items():  # loaded already (by any name): the same Game
        if key[2] == on and g.rules_record() == rec:
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


Game.__module__ = "academie.api"
