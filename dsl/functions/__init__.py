"""The built-in functions of the expression language, one module per family:
``cards`` (zones and their cards, orders), ``seats`` (seats and sides),
``numbers`` (counters and money), ``declarations``, ``combinations``.

``FUNCTIONS``: name -> (least arguments, most arguments or None for any number,
builder). A builder is called by the compiler as ``build(cp, node, args)`` and
gives (closure, kind). A new function is written in the module of its family and
named here (and documented in docs/language.md)."""

from __future__ import annotations

from . import banking, cards, combinations, declarations, numbers, seats

FUNCTIONS = {
    "count": (1, 3, cards.f_count),
    "any": (2, 3, cards.f_any),
    "all": (2, 3, cards.f_all),
    "sum_cards": (2, 3, cards.f_cards_fold(sum)),
    "max_cards": (2, 3, cards.f_cards_fold(lambda vs: max(vs, default=0))),
    "rank": (1, 2, cards.f_rank),
    "run": (2, 3, cards.f_run),
    "balance": (2, 2, numbers.f_balance),
    "tricks_won": (1, 1, numbers.f_tricks_won),
    "builds": (1, 1, numbers.f_builds),
    "build_value": (1, 1, numbers.f_build_value),
    "team": (1, 1, seats.f_team),
    "team_sum": (1, 1, seats.f_team_sum),
    "teams": (0, 0, seats.f_teams),
    "top_seat": (1, 1, seats.f_top_seat),
    "count_seats": (1, 1, seats.f_count_seats),
    "sum_seats": (1, 1, seats.f_sum_seats),
    "max_seats": (1, 1, seats.f_seats_extreme(max)),
    "min_seats": (1, 1, seats.f_seats_extreme(min)),
    "min": (1, None, numbers.f_minmax(min)),
    "max": (1, None, numbers.f_minmax(max)),
    "abs": (1, 1, numbers.f_abs),
    "declared": (1, 1, declarations.f_declared),
    "declarer": (1, 1, declarations.f_declarer),
    "holder": (1, 1, cards.f_holder),
    "joined": (2, None, cards.f_joined),
    "index": (1, 1, seats.f_index),
    **{name: (2, 2, combinations.f_combination(field)) for name, field in combinations.FIELDS.items()},
    "top": (1, 1, banking.f_top),
    "staked": (1, 2, banking.f_staked),
    "tail_of": (2, 2, combinations.f_tail),
}
