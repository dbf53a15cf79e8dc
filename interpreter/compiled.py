"""What the interpreter works out once per rule file, kept here rather than in
the dsl's data classes: the compiled ``GameDef`` stays as the dsl made it.

``for_game(game)`` gives the ``Compiled`` of a ``GameDef``, made on first use
and dropped when the ``GameDef`` is. Its tables are keyed by the ``id`` of the
step, payment or list of effects they belong to (all kept alive by the game):

- ``runners``: id(list of effects) -> one function of (state, seat) running them
  (``effects.build_runner``);
- ``key_tables``: id(tricks step) -> {(led, trump): {card: winner key}}, for keys
  that read only the card, ``led`` and ``trump``;
- ``deal_plans``: id(deal step) -> {players: (cards dealt, per-seat getters)};
- ``short_loop``: id(tricks step) -> whether it has the plainest shape, which the short
  loop plays with a loop of its own (``short_loop.plain_shape``);
- ``ante``: id(payment) -> what ``Effects._pay`` reads of it: its shape (an ante: every seat
  pays a set amount to a set money zone; one payee read once …) and its parts' closures;
- ``card_tests``: id(card test) -> {card: bool}, for tests that read only the card;
- ``end_scans``: id(tricks step) -> its end tests after each card as one generated function
  (``effect_code.end_scan``), or None;
- ``watchers``: id(tricks step) -> its effects after each card as one generated function that
  says whether a counter its end tests read may have changed (``effects.build_watcher``), or None;
- ``card_only``: id(card test) -> whether it reads only the card (``fastpath.card_only_table``);
- ``key_plans``: id(tricks step) -> its winner keys split into tabulated and evaluated
  (``fastpath.KeyPlan``);
- ``card_values``: id(number expression) -> {card: number}, for numbers of a card that read
  only the card (a capture step's ``value`` and ``also``);
- ``sequences``: (id(sequence step), players) -> its plan (``Sequence._sequence_plan``): each
  suit's cards in the step's order and each card's place in its suit, the cards of each rank,
  the cards a player may play when a rank is required, and the cards whose play fires an
  effect (filled as they are played, when the effects' tests read only ``last_card``);
- ``hand_vars``: the counters set again at every hand, (name, per seat, initial value
  or None), or None until first needed; ``game_vars``: every counter so, set at the game's start;
- ``step_plan``: the hand's steps as (step, kind, place in the file, ``when``, the name of
  its method), read once rather than from each step at every hand; None until first needed;
- ``tracked``: as ``runners``, for states that record what hidden cards each counter's
  value depends on (``visibility``);
- ``reads``: id(expression) -> (the expression, what it reads: ``dsl.reads``);
- ``layouts``: players -> what a new state's zones and money are made from
  (``layout``).

Nothing in these tables changes what a game does: each entry is a function of
the rule file alone (and of the number of players, where it says so). So states of
one game played by several threads at once may fill them together: an entry is
stored whole once made (or, in a table per card, a card's value), and two threads
making one store the same. ``for_game`` makes a game's ``Compiled`` under a lock, so
that every state of a game uses one.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Callable

from ..dsl.model import GameDef


class Compiled:
    __slots__ = (
        "runners",
        "key_tables",
        "deal_plans",
        "short_loop",
        "ante",
        "card_tests",
        "card_only",
        "card_filled",
        "end_scans",
        "watchers",
        "key_plans",
        "sequences",
        "card_values",
        "hand_vars",
        "game_vars",
        "step_plan",
        "layouts",
        "tracked",
        "reads",
        "patience_fits",
    )

    def __init__(self) -> None:
        self.runners: dict[int, Callable[[Any, Any], int | None]] = {}
        self.key_tables: dict[int, dict] = {}
        self.deal_plans: dict[int, dict[int, tuple]] = {}
        self.short_loop: dict[int, bool] = {}
        self.ante: dict[int, tuple] = {}
        self.card_tests: dict[int, dict] = {}
        self.card_only: dict[int, bool] = {}  # id(a card test) -> whether it reads only the card
        self.card_filled: set[tuple[int, int]] = set()  # (id(a card test), players): its table holds that pack
        self.end_scans: dict[int, Any] = {}  # id(a tricks step) -> its end tests after a card as one function
        self.watchers: dict[int, Any] = {}  # id(a tricks step) -> its effects after a card, watched
        self.key_plans: dict[int, Any] = {}
        self.sequences: dict[tuple[int, int], tuple] = {}
        self.card_values: dict[int, dict] = {}
        self.hand_vars: list[tuple[str, bool, Any]] | None = None
        self.game_vars: list[tuple[str, bool, Any]] | None = None
        self.step_plan: tuple | None = None
        self.layouts: dict[int, tuple] = {}
        self.tracked: dict[int, Callable[[Any, Any], int | None]] = {}
        self.reads: dict[int, tuple] = {}
        # id(a build rule) -> the cards each card may lie on, or those an empty pile takes (None: read in play)
        self.patience_fits: dict[int, Any] = {}

    def layout(self, game: GameDef, players: int) -> tuple[tuple, tuple[int, ...], dict[str, int]]:
        """For ``players`` players: the holders of money (the seats, then the money zones),
        the seat of each seat's zone in the order a state lists them (zone by zone, seat by
        seat), and a balance of nothing in every currency (copied for each holder)."""
        lay = self.layouts.get(players)
        if lay is None:
            holders = (*range(players), *game.pools)
            owners = tuple(range(players)) * len(game.seat_zones)
            lay = self.layouts[players] = (holders, owners, dict.fromkeys(game.currencies, 0))
        return lay


# id(GameDef) -> its Compiled; an entry goes when its GameDef is collected (a
# GameDef is a mutable dataclass, unhashable, so not a WeakKeyDictionary key)
_CACHE: dict[int, Compiled] = {}
_MAKING = threading.Lock()


def for_game(game: GameDef) -> Compiled:
    """The interpreter's tables for ``game``, made on first use."""
    c = _CACHE.get(id(game))
    if c is None:
        with _MAKING:  # two threads starting states of one game at once make one Compiled
            c = _CACHE.get(id(game))
            if c is None:
                c = _CACHE[id(game)] = Compiled()
                weakref.finalize(game, _CACHE.pop, id(game), None)
    return c


def held() -> int:
    """How many games have tables here now (each goes when its GameDef does)."""
    return len(_CACHE)
