"""The compiled game: ``GameDef`` and its pieces (``Step``, ``Effect``, ``Payment``, ``EndRule``),
the static form of a rule file that the interpreter plays, every expression in it a closure; and
what is worked out from it alone (the pack for a number of players, the sides, the plan of a deal).
They are built and checked from a resolved document by build_game.py (build_steps.py,
build_pieces.py); the interpreter never looks at the YAML again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from typing import TYPE_CHECKING

from .cards import JOKER, Card, card as _card
from .compiler import Expr, Scope
from .document import Doc
from .build_adding import AddingSpec
from .errors import Pos, RuleError

if TYPE_CHECKING:
    from .betting import BettingSpec

BUILTIN_SEAT_ZONES = ("hand",)
MAX_NUMBER = 10**18 - 1  # the greatest max of a choose_number step (its action ids are worked out, not listed)
BUILTIN_ZONES = ("trick",)
STEP_KINDS = (
    "pay",
    "shuffle",
    "deal",
    "turnup",
    "announce",
    "choose_number",
    "choose_suit",
    "choose_cards",
    "tricks",
    "sequence",
    "capture",
    "adding",
    "show",
    "effects",
    "patience",
    "stake",
    "repeat",
    "betting",
    "showdown",
    "draw_meld",
    "shedding",
    "asking",
)


@dataclass
class Effect:
    op: str  # take | end_trick | pay | set | add
    args: dict
    when: Expr | None
    pos: Pos
    at: Expr | None = None  # the seat the effect is about, if not the one in hand
    each: str | None = None  # at: each (every seat) or each_side (the first seat of every side)
    team_vars: frozenset = frozenset()  # the counters it sets that are kept by team
    path: tuple = ()  # where it is in the resolved document (the events name it as "rule")


@dataclass
class Payment:
    payer: Expr | None  # None: each seat
    payee: Expr | None  # None: each seat
    amount: Expr
    unit: str
    where: Expr | None
    exclude: Expr | None
    pos: Pos
    path: tuple = ()  # where it is in the resolved document (the events name it as "rule")


@dataclass
class EndRule:
    when: Expr
    after: str  # play | trick
    winner: Expr | None
    pos: Pos
    zone_only: bool = False  # reads only the seat's own card zones
    path: tuple = ()  # where it is in the resolved document (the events name it as "rule")


@dataclass
class Step:
    name: str
    kind: str
    pos: Pos
    when: Expr | None = None
    # pay
    payment: Payment | None = None
    # shuffle
    cut_by: Expr | None = None
    min_cut: int = 1
    # deal
    first: Expr | None = None
    hand: dict[int, int] = field(default_factory=dict)
    batches: dict[int, list[int] | int] = field(default_factory=dict)
    rest: str | None = None
    rest_count: dict[int, int] = field(default_factory=dict)
    hand_expr: Expr | None = None  # the cards each seat is dealt, as an expression (seat bound)
    # turnup
    to: str | None = None
    to_expr: Expr | None = None  # a zone that is not a shared one (the dealer's hand)
    sets_trump: bool = True
    turn_from: str | None = None  # turnup: the shared zone turned up from (default: pack, then the deal's rest)
    # announce
    declarations: list[str] = field(default_factory=list)
    # choose_number / choose_cards: each seat from ``first`` that ``who`` admits chooses
    who: Expr | None = None  # which seats choose (seat bound); default every seat
    low: Expr | None = None  # the least number (of cards) a seat may choose (seat bound)
    high: Expr | None = None  # the greatest
    high_literal: int | None = None  # ``max`` when written as a number
    allow: Expr | None = None  # choose_number: the numbers allowed (``value``, ``seat`` bound)
    into: str | None = None  # the per-seat counter that keeps the number (of cards) chosen
    src: Expr | None = None  # choose_cards: the zone the cards are chosen from (seat bound)
    dest: Expr | None = None  # choose_cards: the zone they go to (seat bound: the chooser)
    card_test: Expr | None = None  # choose_cards: which cards may be chosen
    suits: tuple[str, ...] = ()  # choose_suit: the suits offered (empty: every suit of the pack)
    label: str | None = None  # a choice: what it asks, in the game's words (``label:``)
    value_labels: dict[int, str] = field(default_factory=dict)  # choose_number: each number's words (``values:``)
    # tricks / sequence
    leader: Expr | None = None
    must: list[Expr] = field(default_factory=list)
    free: Expr | None = None
    lead_test: Expr | None = None
    cannot_follow: list[Effect] = field(default_factory=list)
    winner_key: list[Expr] = field(default_factory=list)
    key_pure: bool = False  # the winner keys read only the card, led and trump
    won_to: str | None = None
    on_trick: list[Effect] = field(default_factory=list)
    on_play: list[Effect] = field(default_factory=list)  # after each card played, seat = its player
    lead_passes: bool = False  # a leader without cards: the next seat with a card leads
    declare: Any = None  # tricks: melds its winner may show after a trick, a DeclareSpec (dsl/build_declare.py)
    end: list[EndRule] = field(default_factory=list)
    order: dict | None = None
    wrap: bool = False
    obtain: list[tuple[str, list[Effect]]] = field(default_factory=list)
    new_run: str = "last_player"
    by_rank: bool = False  # sequence: the next card is any card of the next rank, whatever its suit
    stops: Expr | None = None  # sequence: cards played for any card, that end the run
    unheld: str = "error"  # sequence: a card required that the player cannot obtain: error | pass
    effects: list[Effect] = field(default_factory=list)
    adding: AddingSpec | None = None  # kind adding: play to a running total (dsl/build_adding.py)
    betting: BettingSpec | None = None  # betting / showdown (dsl/build_betting.py)
    # the moves a step kind offers besides cards, declarations, numbers and suits: named moves
    # (a finite set known at load, so that each has a stable action id), and whether the step
    # offers numbers (0 … the game's number_bound) or suits as moves
    meld: Any = None  # draw_meld: its keys, a MeldSpec (dsl/build_meld.py, which imports this module)
    move_names: tuple[str, ...] = ()
    # patience: the piles, layout, kinds of move, stock and goal (dsl/build_patience.py)
    patience: Any = None
    offers_numbers: bool = False
    offers_suits: bool = False
    # capture: the fishing play (dsl/build_capture.py)
    capture: Any = None  # a CaptureSpec (dsl/build_capture.py, which imports this module)
    # stake / repeat (dsl/build_banking.py): the targets and amounts of a stake step; where a
    # repeat goes back to, until when
    stake: Any = None  # StakeSpec | None
    repeat: Any = None  # RepeatSpec | None
    # shedding / asking: their keys (dsl/build_shedding.py, dsl/build_asking.py)
    shedding: Any = None  # SheddingSpec | None
    asking: Any = None  # AskingSpec | None


@dataclass
class GameDef:
    id: str
    title: str
    family: str | None  # the family of play (``family:``, dsl/families.py), inherited through extends
    doc: Doc
    min_players: int
    max_players: int
    suits: list[str]
    ranks: list[str]
    removals: list[tuple[Expr, Expr]]
    orders: dict[str, dict[Card, int]]
    direction: str
    seat_zones: list[str]
    zones: list[str]
    pools: list[str]
    currencies: dict[str, tuple[str, int] | None]
    start: list[Payment]
    vars: dict[str, tuple[bool, Expr | None, str]]
    declarations: dict[str, int]
    dealer_draw: dict | None
    dealer_seat: Expr | None
    steps: list[Step]
    hands: Expr | None
    until: Expr | None
    next_dealer: Expr | None
    hand_winner: Expr | None
    game_end: list[Effect]
    standings: Expr | None
    options: list[str]
    abstract: bool = False
    teams: tuple | None = None  # ("of", Expr) | ("sides", [[Expr, …], …]); None: each seat a side
    team_vars: frozenset = frozenset()  # per-seat counters kept by team
    # the greatest number a choose_number step may offer (each number has an action id up to it)
    number_bound: int = 0
    scope: Scope | None = field(default=None, repr=False, compare=False)
    # counter -> how seats see it (``vars: NAME: shown:``): public, own, hidden, declared (public once
    # a cell scores), "declared COUNTER" (public once the same seat's cell of COUNTER is declared);
    # derived (the default) is worked out from the hidden cards its value depends on (interpreter/visibility.py)
    shown: dict[str, str] = field(default_factory=dict)  # the names the rule file declares (dsl.compiler.Scope)
    # counter -> the game's word for it (``vars: NAME: label:``), for the players
    labels: dict[str, str] = field(default_factory=dict)
    # counter -> what it counts as won (``vars: NAME: wins: {one, of}``), for the narration
    wins: dict[str, dict] = field(default_factory=dict)
    # counter -> how its value is told (``vars: NAME: say:``, ``parts:``; dsl/saying.py), for the narration
    sayings: dict = field(default_factory=dict)
    _teams: dict = field(default_factory=dict, repr=False)
    # copies of a card (``pack: copies:``): ((a card test or None for every card, how many), …),
    # the first whose test holds; () : one card of each name
    copies: tuple = ()
    jokers: int = 0  # the jokers (``pack: jokers:``), the card JK of no suit and no rank
    _packs: dict = field(default_factory=dict, repr=False)
    _pack_sets: dict = field(default_factory=dict, repr=False)
    _pack_counts: dict = field(default_factory=dict, repr=False)

    def pack(self, players: int) -> list[Card]:
        """The cards in play for ``players`` players, in canonical order."""
        p = self._packs.get(players)
        if p is None:
            ctx = PackContext(players)
            cards = [_card(r + s) for s in self.suits for r in self.ranks]
            for when, test in self.removals:
                if when(ctx):
                    cards = [c for c in cards if not test(ctx, None, c)]
            if self.copies:
                cards = [c for c in cards for _ in range(self.copies_of(c))]
            cards += [_card(JOKER)] * self.jokers
            p = self._packs[players] = sorted(cards, key=lambda c: c.canon)
        return list(p)

    def copies_of(self, c: Card) -> int:
        """How many copies of card ``c`` the pack holds (``pack: copies:``; 1 without it)."""
        ctx = PackContext(0)
        for test, k in self.copies:
            if test is None or test(ctx, None, c):
                return k
        return 1

    def pack_counts(self, players: int) -> dict[Card, int]:
        """How many copies of each card are in play for ``players`` players."""
        pc = self._pack_counts.get(players)
        if pc is None:
            pc = {}
            for c in self.pack(players):
                pc[c] = pc.get(c, 0) + 1
            self._pack_counts[players] = pc
        return pc

    def pack_set(self, players: int) -> frozenset:
        """The cards in play for ``players`` players, as a set."""
        ps = self._pack_sets.get(players)
        if ps is None:
            ps = self._pack_sets[players] = frozenset(self.pack(players))
        return ps

    def team_of(self, players: int) -> list[int]:
        """The side of each seat for ``players`` players (0, 1, …): from
        ``teams:``, or each seat a side of its own."""
        t = self._teams.get(players)
        if t is None:
            t = self._teams[players] = team_table(self.teams, players)
        return t

    def deal_counts(self, players: int) -> list[tuple[Step, int | None, list[int], int | None]]:
        """For each deal step: (step, cards per hand or None if the table has
        no entry for this many players, batches, expected rest)."""
        return [(st, *deal_plan(st, players)) for st in self.steps if st.kind == "deal"]


def team_table(teams: tuple | None, players: int) -> list[int]:
    """Each seat's side, numbered 0, 1, … in the order the sides are first met
    (by ``sides`` as written, or by seat for ``of``). A seat named by two sides,
    or by none, is a located error."""
    ctx = PackContext(players)
    if teams is None or teams[0] == "hand":  # sides by hand: read in play (compiler.sides_of)
        return list(range(players))
    kind, spec = teams
    if kind == "of":
        raw = [spec.fn(ctx, s, None) for s in range(players)]
        names: dict = {}
        return [names.setdefault(v, len(names)) for v in raw]
    side: list[int | None] = [None] * players
    for i, exprs in enumerate(spec):
        for e in exprs:
            v = e.fn(ctx, None, None)
            if not isinstance(v, int) or isinstance(v, bool):
                raise RuleError(f"'{e.text}' names no seat (it gives {v!r})", e.pos, code="teams")
            v %= players
            if side[v] is not None and side[v] != i:
                raise RuleError(f"for {players} players seat {v} is on two sides", e.pos, code="teams")
            side[v] = i
    missing = [str(x) for x, t in enumerate(side) if t is None]
    if missing:
        at = spec[0][0].pos
        raise RuleError(f"for {players} players seat {', '.join(missing)} is on no side", at, code="teams")
    return [t for t in side if t is not None]


def deal_plan(st: Step, players: int) -> tuple[int | None, list[int], int | None]:
    """A deal step for ``players``: cards per hand (None: no entry), the
    batches of each round, the number of cards the rules say are left over."""
    per = st.hand.get(players, st.hand.get(0))
    rest = st.rest_count.get(players, st.rest_count.get(0))
    if per is None:
        return None, [], rest
    b = st.batches.get(players, st.batches.get(0, per))
    if isinstance(b, int):
        b = max(b, 1)
        batches = [b] * (per // b) + ([per % b] if per % b else [])
    else:
        batches = list(b)
    return per, batches, rest


class PackContext:
    """Just enough state to evaluate pack removals: the number of players."""

    def __init__(self, n):
        self.n = n
