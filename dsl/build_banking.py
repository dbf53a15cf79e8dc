"""Building the steps of banking games: ``stake`` (each punter puts stakes on
outcomes named by the rule file, a rank of the pack or a named outcome) and
``repeat`` (the steps from a named one played again until a condition holds, at
most ``max`` times): the turn of a banking game (stakes, cards turned, stakes
settled) repeated within a hand. The engine side is interpreter/banking.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from .build_pieces import WANT_SEAT, WANT_TRUTH
from .gamedef import Step

# the most times a repeat may go round in one hand (a rule file that never stops is a located error)
MAX_ROUNDS = 10_000


@dataclass
class StakeSpec:
    """``kind: stake``: each seat that ``who`` admits, in play order from
    ``first``, names targets (``targets``: move name -> the rank it stands for, or
    None for an outcome named only, written ``outcome``) one at a time and, for each, the amount it puts on
    it (0 … ``max``; 0 takes the stake down), then passes. ``withdraw``: when
    false for the seat, a stake may not be lowered or taken down."""

    targets: dict[str, str | None] = field(default_factory=dict)
    high: int = 1
    withdraw: object = None  # Expr | None (seat bound)


@dataclass
class RepeatSpec:
    """``kind: repeat``: when this step is reached and ``until`` is false, play
    goes back to the step ``back_to`` (an earlier step of the hand), at most
    ``max`` times in a hand."""

    back_to: int = 0
    until: object = None  # Expr (game)
    rounds: int = MAX_ROUNDS


def stake_step(b, st: Step, base: tuple, s: dict) -> None:
    """Fill ``st`` (kind ``stake``) from its mapping ``s``; ``b`` the StepBuilder."""
    spec = StakeSpec()
    st.first = b.expr(base + ("first",), want=WANT_SEAT)
    st.who = b.expr(base + ("who",), "seat", want=WANT_TRUTH)
    if isinstance(s.get("label"), str):
        st.label = s["label"]
    ranks = [str(r) for r in (b.d.get("pack") or {}).get("ranks", [])]
    on = s.get("targets") or {}
    for name, rank in on.items():
        name = str(name)
        if name.isdigit():
            b.err(
                base + ("targets", name), f"a target is named by a word, not a number ('{name}'): numbers are amounts"
            )
            continue
        if rank == "outcome":  # an outcome named only (a hand against the dealer's)
            rank = None
        if rank is not None and str(rank) not in ranks:
            b.err(
                base + ("targets", name), f"'{rank}' is not a rank of the pack (ranks: {', '.join(ranks)}), nor outcome"
            )
            continue
        spec.targets[name] = None if rank is None else str(rank)
    spec.high = int(s.get("max", 1))
    st.high_literal = spec.high
    spec.withdraw = b.expr(base + ("withdraw",), "seat", want=WANT_TRUTH)
    st.move_names = tuple(spec.targets)
    st.offers_numbers = True
    st.stake = spec


def repeat_step(b, st: Step, base: tuple, s: dict, names: list[str]) -> None:
    """Fill ``st`` (kind ``repeat``); ``names``: the names of the hand's steps
    before this one (``back_to`` must be one of them)."""
    spec = RepeatSpec()
    target = str(s.get("back_to", ""))
    if target not in names:
        b.err(
            base + ("back_to",),
            f"'{target}' is not a step before this one (steps before it: {', '.join(names) or 'none'})",
        )
    else:
        spec.back_to = names.index(target)
    spec.until = b.expr(base + ("until",), want=WANT_TRUTH)
    rounds = s.get("max", MAX_ROUNDS)
    if isinstance(rounds, int) and not isinstance(rounds, bool):
        if rounds > MAX_ROUNDS:
            b.err(base + ("max",), f"a repeat goes round at most {MAX_ROUNDS:,} times in a hand", code="limit")
        spec.rounds = min(max(rounds, 1), MAX_ROUNDS)
    st.repeat = spec
