"""The running game: cards in zones, seats, money, counters, events, and the
public interface that drives it one decision at a time.

``State`` is assembled from one part per concern, each a class in its own
module that ``State`` inherits (a method per job, ``self`` the state):

- ``procedure``: the game and hand loop, a generator (``_run``) that yields at
  every decision a player must take;
- ``steps``: pay, effects, shuffle, deal, turn-up, announce;
- ``tricks``: the general trick loop, legal cards, end conditions;
- ``short_loop``: the short trick loop and the predicate that says when it runs;
- ``sequence``: sequence play;
- ``effects``: effects, card moves, payments;
- ``checks``: the checks of a given deck or deal.

What is worked out once per rule file lives in ``compiled`` (never in the
dsl's data classes). ``legal_moves()`` lists a decision's options;
``apply(move)`` sends the choice in and runs the rules on to the next
decision. Everything a rule file can say is read from the compiled
``GameDef``: nothing here knows any game.

Invariants: every card of the pack is in exactly one zone; the total of each
currency never changes after the opening endowment; the game stops at
``max_plays`` as "unfinished". With ``check="move"`` (the default) ``apply``
counts the cards after every move and every hand's end checks them all; with
``check="hand"`` (simulations) every hand's end counts the cards and the
money, and the game's end checks them all (a card lost and another doubled
within one hand stays doubled, so it is found then).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import chain, repeat
from typing import Any, Callable, Generator

from ..dsl.cards import Card, parse_card
from ..dsl.errors import Pos, RuleError
from ..dsl.model import GameDef, Step
from .banking import Banking
from .copies import once
from .base import (
    DEFAULT_MAX_PLAYS,
    PASS,
    Abandoned,
    Decision,
    InvariantError,
    Unfinished,
    canon_key,
    move_name,
    runtime_message,
)
from .betting import Betting
from .checks import InputChecks
from .choices import Choices
from .capture import Capture
from .compiled import for_game
from .effects import Effects
from .procedure import Procedure, Snapshot
from .patience import Patience
from .meld import DrawMeld
from .shedding import Shedding
from .restocking import Restocking
from .asking import Asking
from .sequence import Sequence
from .adding import Adding
from .short_loop import ShortLoop
from .steps import Steps
from .tricks import Tricks
from .declare import Declare
from .visibility import Visibility

__all__ = ["DEFAULT_MAX_PLAYS", "PASS", "Abandoned", "Decision", "InvariantError", "State", "move_name"]


class State(
    Procedure,
    Steps,
    Choices,
    Tricks,
    Declare,
    ShortLoop,
    Sequence,
    Capture,
    Patience,
    Adding,
    Effects,
    InputChecks,
    Visibility,
    Banking,
    Betting,
    DrawMeld,
    Shedding,
    Asking,
    Restocking,
):
    """One game of ``game`` for ``players`` players.

    ``deck``: a stacked pack (top card first) used, unshuffled and uncut, for
    the first hand. ``deal``: the first hand's deal itself ({"hands": [...],
    zone: [...]}). ``dealer``: the first dealer's seat (else the rules choose).
    ``hands``: stop after this many hands (else the rules say when).
    ``agents``: one per seat; the whole game is then played here, the agents
    asked inside the rules' loop from the first move on (as ``run_with``).
    ``snapshots``: keep in ``snapshot`` the game as it was at the top of the
    hand in progress (off by default: a simulation pays nothing for it).
    ``resume``: such a snapshot (of a state of the same rules and players):
    this state starts at that hand, with no set-up (``dealer``, ``deck`` and
    ``deal`` are then not used); the same moves from there give the same game.
    ``copy()`` gives an independent copy paused at the same decision.
    ``track``: record what hidden cards each counter's value depends on
    (``visibility``; off by default: a simulation pays nothing for it).
    """

    # the short trick loop for agents that draw uniformly (off: the general loop, for tests)
    _draw_inline = True

    def __init__(
        self,
        game: GameDef,
        players: int,
        seed: int | str = 0,
        *,
        dealer: int | None = None,
        deck: list[Card] | None = None,
        deal: dict | None = None,
        max_plays: int = DEFAULT_MAX_PLAYS,
        hands: int | None = None,
        sink: Callable[[dict], None] | None = None,
        on_hand: Callable[["State", bool], None] | None = None,
        keep_events: bool = True,
        deal_file: str = "--deal",
        check: str = "move",
        agents=None,
        snapshots: bool = False,
        resume: Snapshot | None = None,
        track: bool = False,
        rng: random.Random | None = None,
    ):
        if game.abstract:
            raise RuleError(
                f"{game.id} is a fragment for other rule files to use (abstract: true), not a game that can be played",
                Pos(game.doc.file, 1, 1),
            )
        if not (game.min_players <= players <= game.max_players):
            raise RuleError(
                f"{game.id} is for {game.min_players} to {game.max_players} players, not {players}",
                game.doc.pos(("players",)),
                code="players",
            )
        self.g = game
        self._compiled = for_game(game)  # what the interpreter works out once per rule file
        self.n = players
        self.seed = seed
        # the shuffles, cuts and draws for dealer: seeded, or a generator of the caller's (a
        # subclass of random.Random, which shuffles with its own shuffle and cuts with randrange)
        self._rng = random.Random(seed) if rng is None else rng
        self._rng_state: tuple | None = None  # _rng's state while it is not drawn from (for copy())
        self.max_plays = max_plays
        self.hands_limit = hands
        self.events: list[dict] | None = [] if keep_events else None
        self._sink = sink
        self._logging = keep_events or sink is not None
        # called as on_hand(state, False) when a hand starts and on_hand(state, True) when it ends
        # (by the rules or by the play limit), logged or not: no event is built for it
        self._on_hand = on_hand
        if check not in ("move", "hand"):
            raise ValueError("check is 'move' or 'hand'")
        self._check_moves = check == "move"
        self._forced_dealer = dealer
        if dealer is not None and not (0 <= dealer < players):
            raise RuleError(f"--dealer {dealer}: seats are 0 to {players - 1}", Pos("--dealer", 1, 1))
        self.pack_cards = game.pack(players)
        self._pack_set = game.pack_set(players)
        # zones
        self.zones: dict[str, list] = {z: [] for z in game.zones}
        self.zones["pack"] = list(self.pack_cards)
        holders, owners, zero = self._compiled.layout(game, players)
        seats = range(players)
        self.pzones: dict[str, list[list]] = {z: [[] for _ in seats] for z in game.seat_zones}
        seat_zones = [*chain.from_iterable(self.pzones.values())]
        self._all_zones = [*self.zones.values(), *seat_zones]
        self._zone_owner: dict[int, int] = dict(zip(map(id, seat_zones), owners))  # id(a seat's zone) -> the seat
        self.hand = self.pzones["hand"]
        self._hand_ids = frozenset(map(id, self.hand))
        self._touched: set[int] = set()
        self._copies = bool(game.copies)  # copies of a card (two packs): each legal card named once
        self._short_cfg: dict[int, tuple] = {}  # id(tricks step) -> what _short_setup() gives
        self._inline: tuple | None = None  # (the agents, what _agents_inline() gives)
        if resume is None:
            self._deck = self._check_deck(deck) if deck is not None else None
            self._deal = self._check_deal(deal, deal_file) if deal is not None else None
        # money
        self.bal: dict[Any, dict[str, int]] = dict(zip(holders, map(dict.copy, repeat(zero, len(holders)))))
        self._totals: dict[str, int] | None = None
        # counters
        self.vars: dict[str, Any] = {}
        self.pvars: dict[str, list] = {}
        if track:
            self._track = True
            self._taint = {}
        # hand state
        self.dealer = 0
        self.leader = None
        self.led = None
        self.trump = None
        self.winner = None
        self.mover = None
        self.other = None
        self.hand_no = 0
        self.tricks_played = 0
        self.won = [0] * players
        self.declared: dict[str, int] = {}
        # bookkeeping
        self.plays = 0
        self._plays_at_hand = 0
        self._hand_over = False
        self._end_rule: tuple = ()
        self._cur_step: Step | None = None
        self.unfinished = False
        self.truncated = False
        self.finished = False
        self.standings: list[dict] = []
        self.hand_results: list[dict] = []
        self._scores_at_hand: tuple | None = None  # each seat's standings score at the hand's start
        # ... and at the end of the last hand, while nothing has been played since (for the standings)
        self._end_scores: tuple | None = None
        self._counts = {
            "plays": 0,
            "tricks": 0,
            "takes": 0,
            "borrows": 0,
            "draws": 0,
            "lead_changes": 0,
            "declarations": 0,
        }
        # the decision at hand (``seat``, ``moves``, ``kind``; never changed once made: a move makes
        # a new one), or None once the game is over: public, read only (docs/engine.md)
        self.decision: Decision | None = None
        self._auto = agents  # agents asked inline (run_with(), or given here: the game is played now)
        self._at: tuple = (0, False, False)  # the step in progress: (index, stacked, dealt), for copy()
        self._frame: tuple = ()  # what the step paused in saved at its decision, for copy()
        self._rounds: dict = {}  # step index -> the times a repeat step went back in this hand
        self._jump: int | None = None
        self._snapshots = snapshots
        self.snapshot: Snapshot | None = None  # the top of the hand in progress (with snapshots on)
        self._resume = resume
        if resume is not None:
            self._restore(resume)
        self._gen = self._run()
        if resume is None:
            self._step_pos: Pos | None = None
        self._advance(None)
        self._resume = None

    @property
    def rng(self) -> random.Random:
        """The game's random generator (shuffles, cuts, the draw for dealer).
        Whoever draws from it gets it here, which marks the state ``copy()``
        keeps of it stale."""
        self._rng_state = None
        return self._rng

    # -- public interface ------------------------------------------------------
    @property
    def stats(self) -> dict:
        """Counters so far: plays, tricks, takes, borrows, draws, lead_changes,
        declarations."""
        d = dict(self._counts)
        d["plays"] = self.plays
        return d

    @property
    def counts(self) -> dict:
        """The running counts behind ``stats`` (tricks, takes, borrows, draws, lead_changes,
        declarations; ``plays`` is ``self.plays``), the state's own dict, not a copy: read only
        (a report that reads them at every hand's start and end)."""
        return self._counts

    @property
    def scores_at_hand(self) -> tuple | None:
        """Each seat's standings score as the state read it at the start of the hand in play (or
        just ended), or None when it read none (the hand's result, ``hand_results[-1]["scores"]``,
        holds the change): for a report that reads the scores at every hand's end."""
        return self._scores_at_hand

    @property
    def _hand_plays(self) -> int:
        """Plays made in the hand in progress (or the last one)."""
        return self.plays - self._plays_at_hand

    def current_player(self) -> int | None:
        return None if self.decision is None else self.decision.seat

    def legal_moves(self) -> list:
        """The options of the decision at hand, in canonical order (cards by
        suit S H D C and rank 2 … A; declining before declaring)."""
        if self.decision is None:
            return []
        return once(self.decision.moves) if self._copies else list(self.decision.moves)

    def decision_kind(self) -> str | None:
        return None if self.decision is None else self.decision.kind

    def is_terminal(self) -> bool:
        return self.decision is None

    def apply(self, move) -> None:
        """Take ``move`` (a Card, a card name, or a declaration name) for the
        player whose turn it is, and run the rules to the next decision."""
        if self.decision is None:
            raise RuleError("the game is over: no move can be made", Pos("<move>", 1, 1), code="move")
        if isinstance(move, str):
            c = parse_card(move)
            move = c if c is not None else move
        if move not in self.decision.moves:
            raise RuleError(
                f"{move_name(move)} is not a legal move for seat {self.decision.seat} "
                f"(legal: {' '.join(move_name(m) for m in self.decision.moves)})",
                Pos("<move>", 1, 1),
                code="move",
            )
        self.apply_legal(move)

    def apply_legal(self, move) -> None:
        """Take ``move``, already known to be one of the decision's legal moves
        (a Card or a declaration name from ``legal_moves()``), without looking
        it up again: what ``apply`` does once it has checked the move."""
        self._advance(move)
        if self._check_moves:
            self._check_card_count()

    def copy(self, sink: Callable[[dict], None] | None = None) -> "State":
        """An independent copy of this state, paused at the same decision:
        moves applied to either never change the other, and the same moves
        give both the same game and events. The cards, money, counters and
        the hand's state are copied (new lists; cards are shared, they never
        change); the procedure resumes from where this one is paused (the
        step's place, kept by ``_hand``, and the frame the pausing step saved
        at its decision), so nothing is played again. ``sink``: the copy's
        event sink (a copy never shares this one's). Taken between moves,
        not while agents are asked inside the loops (``run_with``)."""
        if self._auto is not None:
            raise ValueError("a state played by agents inside the loops (run_with, agents=) is not copied")
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        zones = new.zones = {z: cs[:] for z, cs in self.zones.items()}
        pzones = new.pzones = {z: [cs[:] for cs in per] for z, per in self.pzones.items()}
        new.hand = hand = pzones["hand"]
        new._all_zones = [*zones.values(), *chain.from_iterable(pzones.values())]
        owner = new._zone_owner = {}
        seats = range(self.n)
        for per in pzones.values():
            owner.update(zip(map(id, per), seats))
        new._hand_ids = frozenset(map(id, hand))
        new.bal = {h: b.copy() for h, b in self.bal.items()}
        new.vars = self.vars.copy()
        new.pvars = {k: v[:] for k, v in self.pvars.items()}
        if self._track:
            new._taint = self._taint.copy()
        new.won = self.won[:]
        new.declared = self.declared.copy()
        new._counts = self._counts.copy()
        new.standings = self.standings[:]
        new.hand_results = self.hand_results[:]  # each result a dict never changed once made
        new._touched = set(self._touched)
        if self.builds:  # the builds on a capture step's layout
            new.builds = [[b[0][:], b[1], b[2]] for b in self.builds]
        # the generator's state, read once and kept while nobody draws from it (``rng``):
        # copies of a state, or of its copies, between two draws share the reading
        if type(self._rng) is not random.Random:  # a generator of the caller's: its own copy
            new._rng = copy.copy(self._rng)
        else:
            rs = self._rng_state
            if rs is None:
                rs = self._rng_state = self._rng.getstate()
            new._rng = random.Random.__new__(random.Random)
            new._rng.setstate(rs)
        if self.events is not None:
            new.events = self.events[:]  # each event a dict never changed once logged
        new._sink = sink
        new._on_hand = None
        new._logging = self.events is not None or sink is not None
        new._short_cfg = {}  # it holds this state's zones
        new._inline = None
        d = self.decision
        if d is None:
            new._gen = new._run()
            new._gen.close()  # nothing left to play
        else:
            new._gen = new._run(mid=(*self._at, self._frame))
            new.decision = None
            new._advance(None)
            if new.decision is None or new.decision.seat != d.seat or new.decision.moves != d.moves:
                raise InvariantError("a copy did not resume at its original's decision")
        return new

    # -- the engine surface: what the library reads of a state (docs/engine.md) ---------
    @property
    def step(self) -> Step | None:
        """The step of the rule file being played (the one that made the decision at hand),
        or None before the first."""
        return self._cur_step

    @property
    def step_index(self) -> int:
        """The place in ``g.steps`` of the step being played."""
        return self._at[0]

    @property
    def knowing(self) -> Callable[[int], Any] | None:
        """``seat -> the cards it has seen in the hand in progress``, given by the library that
        keeps the hand's public record (None: not known). With ``track`` on, a counter worked
        out from hidden cards is shown, at the next hand's top, to the seats that saw them."""
        return self._knowing

    @knowing.setter
    def knowing(self, fn: Callable[[int], Any] | None) -> None:
        self._knowing = fn

    @property
    def counter_atoms(self) -> dict:
        """With ``track`` on: each counter cell (a name, or (name, seat)) worked out from hidden
        cards, and what it depends on (``visibility``); empty when none is, or tracking is off.
        Read only."""
        return self._taint

    @property
    def setup(self) -> dict:
        """How the game was set up by its caller: ``{"dealer", "deck", "deal"}`` as given to
        the constructor and checked (None each where the rules choose)."""
        return {
            "dealer": self._forced_dealer,
            "deck": self._deck,
            "deal": self._deal,
        }

    def silence(self) -> None:
        """Nothing recorded from here on: no event built for the sink or the log, no counter's
        hidden cards tracked (a state nobody looks at any more, played out by a search)."""
        self._sink = None
        self._logging = False
        self._track = False

    def choice_bounds(self, step: Step, seat: int) -> tuple[int, int]:
        """The fewest and most cards ``seat`` may choose at the ``choose_cards`` step ``step``."""
        return self._bounds(step, seat)

    def cards_chosen(self, seat: int) -> list:
        """The cards ``seat`` has chosen so far at the ``choose_cards`` decision at hand, as the
        paused step keeps them (empty at any other)."""
        frame = self._frame
        return list(frame[2].get(seat, [])) if len(frame) == 3 and isinstance(frame[2], dict) else []

    def zone_named(self, zone: list) -> dict:
        """How events name ``zone`` (one of this state's zones): ``{"zone": NAME}``, and
        ``"zone_seat"`` for a seat's own zone."""
        return self._zone_named(zone, self._zone_owner.get(id(zone)))

    def exchange_cards(self, here: dict) -> None:
        """Each card of ``here`` ({card: the card put in its place}) exchanged where it lies (a
        hand, a zone, the stock's order; a hand kept in canonical order): a world drawn from a
        copy of the state, with nothing played again. The caller keeps the pack whole."""
        get = here.get
        hands = self._hand_ids
        for zone in self._all_zones:
            changed = False
            for i, c in enumerate(zone):
                x = get(c)
                if x is not None:
                    zone[i] = x
                    changed = True
            if changed and id(zone) in hands:
                zone.sort(key=canon_key)

    def run_with(self, agents) -> "State":
        """Play the game to its end with ``agents`` (one per seat), asking them
        inside the rules' own loop: no suspension per move. Same game, same
        events as driving it with ``legal_moves``/``apply``."""
        self._auto = agents
        while self.decision is not None:
            d = self.decision
            self.apply(agents[d.seat].choose(self, d.seat, d.moves))
        return self

    def _ask(self, seat, moves):
        c = self._auto[seat].choose(self, seat, moves)
        if c not in moves:
            self._illegal(seat, c, moves)
        if self._check_moves:
            self._check_card_count()
        return c

    def _drawn_inline(self) -> list | None:
        """The uniform draws of the agents of run_with(), when a card is drawn in the rules'
        loop as ``_ask_card`` draws it; else None."""
        if self._auto is None or not self._draw_inline:
            return None
        return self._agents_inline()[1]

    def _ask_card(self, seat, options):
        """A card among ``options`` for ``seat``, asked of its agent inside the rules' loop: drawn
        here when the agents draw uniformly (the same draw as the agent's), else asked (``_ask``)."""
        uniform = self._agents_inline()[1]
        if uniform is not None and self._draw_inline:  # an agent drawing uniformly: draw here
            k = len(options)
            c = options[int(uniform[seat]() * k)] if k > 1 else options[0]
            if self._check_moves:
                self._check_card_count()
            return c
        return self._ask(seat, options)

    def _choice(self, kind: str, seat: int, moves: list, frame: tuple) -> Generator[Decision, Any, Any]:
        """The seat's choice among ``moves``, a decision of ``kind``: asked of its agent inside the
        rules' loop, or yielded (``frame``: all a copy of the state needs to resume the step here)."""
        if self._auto is not None:
            return self._ask(seat, moves)
        self._frame = frame
        m = yield Decision(seat, moves, kind)
        return m

    def _illegal(self, seat, move, moves):
        raise RuleError(
            f"{move_name(move)} is not a legal move for seat {seat} (legal: {' '.join(move_name(m) for m in moves)})",
            Pos("<move>", 1, 1),
            code="move",
        )

    def returns(self) -> list[int]:
        """Each seat's final score (the rules' standings), once the game is over."""
        by_seat = {r["seat"]: r["score"] for r in self.standings}
        return [by_seat.get(s, 0) for s in range(self.n)]

    def check_invariants(self, full: bool = True) -> None:
        """Every card in exactly one zone (``full=False``: as many cards in
        the zones as in the pack); each currency's total unchanged."""
        zones = self._all_zones
        count = sum(map(len, zones))
        if count != len(self.pack_cards):
            raise InvariantError(f"cards: {count} in zones, pack of {len(self.pack_cards)}")
        if full:
            seen = set(chain.from_iterable(zones))
            if seen != self._pack_set or (
                count != len(seen) and Counter(chain.from_iterable(zones)) != self.g.pack_counts(self.n)
            ):
                raise InvariantError(f"cards: {count} in zones, {len(seen)} distinct, pack of {len(self.pack_cards)}")
        if self._totals is not None:
            totals = self._money_totals()
            if totals != self._totals:
                raise InvariantError(f"money not conserved: {totals} != {self._totals}")

    # -- driving the generator ------------------------------------------------------
    def _advance(self, move) -> None:
        try:
            self.decision = self._gen.send(move)
        except StopIteration:
            self.decision = None
        except RuleError:
            self.decision = None
            raise
        except (InvariantError, Unfinished, Abandoned):
            raise
        except OSError:  # an output failing (a closed pipe, a full disk), not the rule file
            self.decision = None
            raise
        except Exception as e:  # an expression failing at run time: a fault of the rule file
            self.decision = None
            raise RuleError(
                f"the rules cannot be applied here: {runtime_message(e)}",
                self._step_pos or Pos(self.g.doc.file, 1, 1),
                code="runtime",
            ) from None

    def _check_card_count(self) -> None:
        if sum(len(z) for z in self._all_zones) != len(self.pack_cards):
            raise InvariantError("a card was lost or duplicated")

    def emit(self, ev: dict) -> None:
        """Record an event (hot paths test ``self._logging`` before building one)."""
        if self.events is not None:
            self.events.append(ev)
        if self._sink is not None:
            self._sink(ev)
