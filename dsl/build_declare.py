"""Building the declarations of a trick step (``declare:`` of ``kind: tricks``): after winning a
trick, its winner may show combinations of his cards (melds) on his side of the table, each
scored by its effects, the cards shown staying his to play. docs/language.md, section 4,
``kind: tricks``, ``declare``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import parse_card
from .combinations import Combination

if TYPE_CHECKING:
    from .compiler import Expr
    from .gamedef import Effect

REUSE = ("other_kind", "never")
# the kinds of combination a meld may be: each of its ways is a set of cards found in hand and table
MELD_KINDS = ("set", "run", "sum")
MAX_DECLARE = 10  # melds declared after one trick, at most


@dataclass
class MeldRule:
    """One meld a winner may declare: its name (the move), the combination it is, which cards may
    make it (``card`` bound, ``seat`` the declarer; None: any), and the effects that score it."""

    name: str
    comb: Combination
    cards: Expr | None
    do: list[Effect] = field(default_factory=list)


@dataclass
class DeclareSpec:
    """What ``declare:`` says: the per-seat zone the melds lie on (face up, still played from there),
    the melds, when the winner may declare (``seat`` bound), how many melds after one trick, and
    whether a card shown may serve again in a meld of another kind (``other_kind``) or never."""

    table: str
    melds: list[MeldRule]
    when: Expr | None = None
    most: int = 1
    reuse: str = "other_kind"


def build_declare(b, base: tuple, s: dict) -> DeclareSpec | None:
    """The ``DeclareSpec`` of ``s`` (the ``declare:`` mapping at ``base``, checked by the schema), its
    names checked against the game's zones and combinations (``b``: the StepBuilder)."""
    from .build_pieces import WANT_TRUTH

    ok = True
    table = str(s["table"])
    if table not in b.seat_zones or table == "hand":
        b.err(base + ("table",), f"'{table}' is not a zone of each seat (declare it with per_seat: true)")
        ok = False
    melds: list[MeldRule] = []
    for name, m in (s.get("melds") or {}).items():
        p = base + ("melds", name)
        if name == "pass" or parse_card(str(name)) is not None:
            b.err(p, f"'{name}' cannot name a meld: it is a move already (a card, or pass)")
            ok = False
            continue
        comb = b.scope.combinations.get(str(m["combination"]))
        if comb is None or comb.kind not in MELD_KINDS:
            b.err(
                p + ("combination",),
                f"'{m['combination']}' is not a combination of kind {', '.join(MELD_KINDS)}",
            )
            ok = False
            continue
        cards = b.expr(p + ("cards",), "card", want=WANT_TRUTH)
        melds.append(MeldRule(str(name), comb, cards, b.effects(p + ("do",))))
    when = b.expr(base + ("when",), "seat", want=WANT_TRUTH)
    if not ok:
        return None
    return DeclareSpec(table, melds, when, int(s.get("max", 1)), s.get("reuse", "other_kind"))
