"""Building a ``kind: patience`` step: one player lays out piles of cards (some face down), moves
cards between piles by the build rules the file gives, turns the stock, and wins when every card
is on the goal piles (docs/language.md, "kind: patience")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .build_pieces import WANT_NUMBER, WANT_TRUTH, PieceBuilder
from .compiler import Expr
from .errors import Pos

if TYPE_CHECKING:
    from .gamedef import Step

# the named moves of a patience step besides the piles a card may go to
DRAW, GIVE_UP = "draw", "give_up"
CARDS = ("top", "face_up", "run", "any")
MAX_LIMIT = 100_000  # the most moves a limit: may allow
MAX_REDEALS = 100  # a bound: every pass through the stock is a finite number of moves


@dataclass
class PatienceLayout:
    """Cards laid from ``src`` onto the piles of ``to``: ``counts[i]`` on its pile i, the last
    ``face_up`` of each face up (the others face down), dealt a card to a pile ``by: row`` (each
    pile still short of its count in turn, as rows across the table) or ``by: pile``."""

    to: str
    src: str
    counts: list[int]
    face_up: int
    by: str
    pos: Pos


@dataclass
class PatienceMove:
    """A kind of move: cards from a pile of ``src`` to a pile of ``to``. ``cards``: ``top`` (the top
    card), ``face_up`` (every face-up card of the pile, together), ``run`` (the top card and any cards
    under it that follow one another by ``run``, the card below being ``onto``); ``build``: whether
    the lowest card moved (``card``) may go on the destination's top card (``onto``); ``empty``:
    whether it may go to an empty pile (none: never); ``most``, ``least``: how many cards a move may
    carry (a complete suit of thirteen: ``least: 13``); ``any``: any face-up card of the pile, taken
    out alone (the cards above it close up), only every ``every``-th counted from the lowest face-up
    card (1st, 1 + every-th, …); ``spaces``: ``first``, a card goes to the first empty pile only (the
    spaces are alike), ``all`` to any; ``whole``: false, the cards of a whole pile (nothing under
    them) never go to an empty pile."""

    src: str
    to: str
    cards: str
    build: Expr | None
    empty: Expr | None
    run: Expr | None
    most: Expr | None
    least: Expr | None
    pos: Pos
    every: int = 1
    spaces: str = "all"
    whole: bool = True


@dataclass
class PatienceSpec:
    piles: dict[str, tuple[str, ...]]  # a family or zone named by the step -> its zones
    layout: list[PatienceLayout] = field(default_factory=list)
    moves: list[PatienceMove] = field(default_factory=list)
    stock: str | None = None  # the pile turned ``draw`` cards at a time onto ``waste`` (a family: one on each pile)
    waste: str | None = None
    draw: int = 1
    draw_when: Expr | None = None  # the stock may be drawn only when this holds
    redeals: int = 0  # the times the waste may be turned over to make the stock again
    goal: str | None = None  # won when every card of the pack is on these piles
    give_up: bool = False  # the player may give up (a named move): the patience is lost
    turn_up: bool = True  # a face-down card uncovered is turned face up
    repeat: bool = False  # a position may come back (the limit ends the patience)
    limit: int | None = None  # the patience ends after this many moves
    limit_turns: bool = False  # each card turned face up (laid so, or uncovered) counts as a move for the limit
    turned: str | None = None  # a counter: one more for each card turned face up when uncovered


def build_patience(b: PieceBuilder, st: Step, base: tuple, s: dict) -> PatienceSpec:
    """The step's parts, each zone checked against the file's zones and families."""
    families = b.families
    piles: dict[str, tuple[str, ...]] = {}

    def zone(path: tuple, name) -> str:
        name = str(name)
        if name in families:
            piles[name] = families[name]
        elif name in b.shared or name == "pack":
            piles[name] = (name,)
        else:
            b.err(path, f"'{name}' is not a shared zone nor a family of piles (zones: NAME: {{piles: N}})")
        return name

    spec = PatienceSpec(piles=piles)
    for i, lay in enumerate(s.get("layout") or []):
        p = base + ("layout", i)
        to = zone(p + ("to",), lay["to"])
        src = zone(p + ("from",), lay.get("from", "pack"))
        counts = lay["cards"]
        n = len(piles.get(to, ()))
        if isinstance(counts, int):
            counts = [counts] * n
        if len(counts) != n and to in piles:
            b.err(p + ("cards",), f"{len(counts)} counts for the {n} piles of '{to}'")
        spec.layout.append(
            PatienceLayout(to, src, list(counts), int(lay.get("face_up", 1)), lay.get("by", "row"), b.doc.key_pos(p))
        )
    for i, m in enumerate(s.get("moves") or []):
        p = base + ("moves", i)
        spec.moves.append(
            PatienceMove(
                src=zone(p + ("from",), m["from"]),
                to=zone(p + ("to",), m["to"]),
                cards=m.get("cards", "top"),
                build=b.expr(p + ("build",), "card", want=WANT_TRUTH),
                empty=b.expr(p + ("empty",), "card", want=WANT_TRUTH),
                run=b.expr(p + ("run",), "card", want=WANT_TRUTH),
                most=b.expr(p + ("most",), want=WANT_NUMBER),
                least=b.expr(p + ("least",), want=WANT_NUMBER),
                pos=b.doc.key_pos(p),
                every=int(m.get("every", 1)),
                spaces=str(m.get("spaces", "all")),
                whole=bool(m.get("whole", True)),
            )
        )
        if "every" in m and m.get("cards") != "any":
            b.err(p + ("every",), "every: counts the cards a move of any card may take (cards: any)")
        if m.get("cards") == "run" and "run" not in m and "build" not in m:
            b.err(p, "a move of a run says what a run is (run: a test of card on onto), or its build:")
    d = s.get("draw")
    if d is not None:
        p = base + ("draw",)
        spec.stock = zone(p + ("from",), d["from"])
        spec.waste = zone(p + ("to",), d["to"])
        spec.draw = int(d.get("count", 1))
        spec.redeals = int(d.get("redeals", 0))
        spec.draw_when = b.expr(p + ("when",), want=WANT_TRUTH)
        if spec.redeals > MAX_REDEALS:
            b.err(p + ("redeals",), f"at most {MAX_REDEALS} redeals", code="limit")
    goal = s.get("goal")
    if goal is not None:
        spec.goal = zone(base + ("goal",), goal)
    spec.give_up = bool(s.get("give_up", False))
    spec.turn_up = bool(s.get("turn_up", True))
    spec.repeat = bool(s.get("repeat", False))
    lim = s.get("limit")
    if lim is not None:
        spec.limit = int(lim["moves"])
        spec.limit_turns = bool(lim.get("turns", False))
        if spec.limit > MAX_LIMIT:
            b.err(base + ("limit", "moves"), f"at most {MAX_LIMIT:,} moves", code="limit")
    if spec.repeat and spec.limit is None:
        b.err(base + ("repeat",), "a patience whose positions may come back ends after a number of moves (limit:)")
    turned = s.get("turned")
    if turned is not None:
        spec.turned = b.game_counter(base + ("turned",), turned)
    dests = [z for m in spec.moves for z in piles.get(m.to, ())]
    if (b.d.get("pack") or {}).get("copies") is not None:  # copies of a card: the pile it leaves is named
        dests += [z for m in spec.moves for z in piles.get(m.src, ())]
    st.move_names = tuple(
        dict.fromkeys([*dests, *([DRAW] if spec.stock else []), *([GIVE_UP] if spec.give_up else [])])
    )
    return spec
