"""Built-in functions of seats and sides: ``team``, ``teams``, ``team_sum`` (a seat's
side, the number of sides, a sum over a side), ``top_seat``, ``count_seats``,
``sum_seats``, ``max_seats``, ``min_seats`` (an expression about a seat, over every
seat) and ``index`` (a seat's place at the table, as a number). ``sides_of``: each
seat's side, as the engine reads it too."""

from __future__ import annotations

from ..errors import Diagnostic, RuleError
from ..kinds import NUMERIC
from ..syntax import text_of


def sides_of(st) -> list[int]:
    """Each seat's side (0, 1, … in the order first met by seat): fixed for the
    game (``GameDef.team_of``), or, with ``teams: {each_hand: true}``, worked
    out from the hand in progress each time it is read."""
    t = st.g.teams
    if t is None or t[0] != "hand":
        return st.g.team_of(st.n)
    fn = t[1].fn
    names: dict = {}
    return [names.setdefault(fn(st, x, None), len(names)) for x in range(st.n)]


def f_team(cp, node, args):
    f, k = cp.seat_arg(args[0])
    return (lambda st, s, c: sides_of(st)[f(st, s, c)]), "num"


def f_team_sum(cp, node, args):
    """The sum of EXPR over the seats of the side of ``seat`` (``seat``
    rebound to each of them)."""
    if "seat" not in cp.bound:
        cp.fail(node, "team_sum(…) sums over the side of the seat in hand: it needs an expression about a seat")
    e = cp.lazy(args[0], "seat", *NUMERIC)

    def team_sum(st, s, c):
        side = sides_of(st)
        mine = side[s]
        return sum(e(st, x, c) for x in range(st.n) if side[x] == mine)

    return team_sum, "num"


def f_teams(cp, node, args):
    return (lambda st, s, c: max(sides_of(st)) + 1), "num"


def f_top_seat(cp, node, args):
    e = cp.lazy(args[0], "seat", *NUMERIC)

    def top(st, s, c):  # the seats in play order from the dealer's next, no list made
        n = st.n
        first = st.dealer + 1
        best, best_v = None, None
        for k in range(first, first + n):
            x = k % n
            v = e(st, x, c)
            if best_v is None or v > best_v:
                best, best_v = x, v
        return best

    return top, "seat"


def f_count_seats(cp, node, args):
    e = cp.lazy(args[0], "seat", "bool")
    return (lambda st, s, c: len([x for x in range(st.n) if e(st, x, c)])), "num"


def f_sum_seats(cp, node, args):
    e = cp.lazy(args[0], "seat", *NUMERIC)
    return (lambda st, s, c: sum([e(st, x, c) for x in range(st.n)])), "num"


def f_seats_extreme(fn):
    def build(cp, node, args):
        e = cp.lazy(args[0], "seat", *NUMERIC)
        return (lambda st, s, c: fn([e(st, x, c) for x in range(st.n)])), "num"  # a list: quicker than a generator

    return build


def f_index(cp, node, args):
    """``index(SEAT)``: the seat's place at the table as a number (0, 1, …
    players - 1), for arithmetic on seats or to keep a seat in a counter. A seat
    that is none (``declarer(NAME)`` when none was declared) is a located error."""
    f, k = cp.c(args[0])
    cp.need(args[0], k, "seat")
    where, text = cp.where(args[0]), text_of(cp.text, args[0])

    def index(st, s, c):
        v = f(st, s, c)
        if type(v) is not int:
            raise RuleError(Diagnostic(where, f"{text!r} names no seat here (it is {v!r})", code="runtime"))
        return v

    return index, "num"
