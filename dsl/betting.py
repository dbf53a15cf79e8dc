"""The parsed form of the vying steps (``kind: betting``, ``kind: showdown``): ``BettingSpec``, the
one field of ``Step`` they fill (``Step.betting``), built by dsl/build_betting.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from .expr import Expr

# the moves of a betting round, in the order a decision offers them
MOVES = ("fold", "check", "call", "bet", "raise", "straddle", "decline")
# the greatest amount a bet chosen within bounds may have (each number is an action id)
MAX_AMOUNT = 1000


@dataclass
class BettingSpec:
    """A betting round or a showdown, as the rule file says it."""

    zone: str  # the money zone stakes go into (betting: to:) or are paid from (showdown: from:)
    unit: str  # the currency
    stake: str  # the per-seat counter of each seat's stake (to be matched)
    out: str  # the per-seat counter that is 1 once a seat has thrown up its hand
    # betting: the amount of an opening bet / of a raise over the highest stake (seat bound), or the
    # bounds of an amount the seat chooses (lo, hi); None: no such move
    bet: Expr | None = None
    bet_range: tuple[Expr | None, int] | None = None
    raise_: Expr | None = None
    raise_range: tuple[Expr | None, int] | None = None
    cap: Expr | None = None  # the most bets and raises in one round (the opening bet counts)
    stack: Expr | None = None  # what a seat may still stake (seat bound); None: no bound (a debt)
    total: str | None = None  # the per-seat counter of all a seat put in the pot this hand (side pots)
    raised: str | None = None  # a game counter set to what each bet or raise went over (a least raise reads it)
    check: bool = True  # a seat may stay in without staking while nothing is to be matched
    # a seat that checked may come in again to a bet, but is out once the stake was raised over a
    # bet since it checked (two bets or raises of the round after its check)
    lapse_on_raise: bool = False
    # straddles before the round: the first seat offered one (seat bound) and the most a stake may
    # be doubled to (seat bound); None: no straddle
    straddle_first: Expr | None = None
    straddle_max: Expr | None = None
    opens: Expr | None = None  # who may open the round (the first bet), seat bound; None: any seat
    show_opener: bool = False  # an opener left alone at the end of the round shows his hand
    words: dict[str, str] = field(default_factory=dict)  # move -> the game's word for it (the move's name)
    # showdown: the keys that rank a seat's hand (seat bound), greatest first, and what a tie does
    key: list[Expr] = field(default_factory=list)
    ties: str = "split"  # split (the pot shared, the odd units to the first from `first`) | first

    def word(self, move: str) -> str:
        return self.words.get(move, move)
