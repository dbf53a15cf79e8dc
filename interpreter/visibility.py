"""Which seats may see each counter: the hidden cards a counter's value was worked out from.

With tracking on (``State(track=True)``: the library's states, the worlds of a search; never
``simulate``), every counter cell an effect sets (a counter, or one seat's cell of a counter kept
per seat) carries the *atoms* of hidden information its value depends on, in ``_taint`` ({the
counter's name, or (name, seat): frozenset of atoms}; a cell not there depends on nothing hidden).

An atom is a tuple of alternatives, each a frozenset of cards: a seat knows the atom when it has
seen every card of one alternative. Reading the cards of a zone (``count(hand(seat), TEST)``,
``sum_cards``, ``run`` …) gives the atom of the cards in the zone then; a ``count``/``any``/``all``
whose test reads the card alone (``dsl/reads.py``) gives a second alternative, the cards of the
pack that pass the test (knowing where each lies tells the count). Reading a counter inherits its
atoms. ``set`` gives the cell the value's atoms, ``add`` adds them to the cell's, a reset (``reset:
hand``) or a value a seat chose clears them; the atoms of the ``when:`` guarding an effect go to the
cells it may set whether it fired or not. At the top of each hand the atoms are collapsed
(``collapse``): a cell every seat can see becomes plain, any other keeps the seats that can see it
(an atom that is an int, a bit per seat), so that a score kept from hand to hand carries no atom of
the cards of hands gone.

A counter ``shown: declared`` keeps its atoms until an effect sets a cell to a value that scores: the
cell is then said aloud, its atoms dropped (seen by every seat), and with it the same seat's cell of
each counter ``shown: {declared_with: …}`` (kept in ``GameDef.shown`` as ``declared NAME``).

What a seat has seen (its hand, the cards shown face up, the cards it took) is the library's to say
(``academie.api``): ``view`` gives the counters as a seat sees them, a cell it may not see as None.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..dsl.reads import Reads, reads_of
from .base import StateParts
from .compiled import for_game

if TYPE_CHECKING:
    from ..dsl.compiler import Expr
    from ..dsl.model import Effect, GameDef

HIDDEN = "?"  # what a seat sees of a counter cell it may not see (no counter holds a string)

NOTHING: frozenset = frozenset()

# the shown: words that say outright who sees a cell; any other (derived, declared) is read from its atoms
_SAID = frozenset({"public", "own", "hidden"})


class Visibility(StateParts):
    """``State``'s record of what each counter cell depends on."""

    _track = False  # off: nothing recorded, nothing paid (simulate)
    _taint: dict = {}
    _guard: frozenset = NOTHING  # the atoms of the ``when:`` of the effect being run
    _knowing: Callable[[int], Any] | None = None  # seat -> the cards it has seen this hand (set by the library)

    def _vis_clear(self, names: Iterable[str]) -> None:
        """The counters ``names`` set again (a reset): they depend on nothing hidden."""
        taint = self._taint
        if not taint:
            return
        for name in names:
            taint.pop(name, None)
            for s in range(self.n):
                taint.pop((name, s), None)

    def _vis_chosen(self, name: str, seat: int) -> None:
        """``seat``'s cell of ``name`` holds a value the seat chose, in sight of all."""
        if self._taint:
            self._taint.pop((name, seat), None)

    def _vis_step(self, st: Any, fired: bool) -> None:
        """A step's ``when:`` tested: its atoms to every cell the step's effects may set (run or
        not), and, when it runs, to the cells they set (the guard, cleared after the step)."""
        if st.kind != "effects":
            return
        reads = plan(st.when, self.g)
        atoms = atoms_of(self, reads, None) if reads is not None else NOTHING
        if not atoms:
            return
        taint = self._taint
        for e in st.effects:
            if e.op not in ("set", "add"):
                continue
            for name, (per_seat, _) in e.args.items():
                for k in [(name, x) for x in range(self.n)] if per_seat else [name]:
                    _add(taint, k, atoms, self.g.shown)
        if fired:
            self._guard = self._guard | atoms

    def _collapse(self) -> None:
        """At the top of a hand: each cell's atoms replaced by the seats that can see it (none kept
        when all can), read from what each seat saw in the hand that ended."""
        taint = self._taint
        if not taint or self._knowing is None:
            return
        known = [self._knowing(s) for s in range(self.n)]
        everyone = (1 << self.n) - 1
        for cell, atoms in list(taint.items()):
            mask = 0
            for s in range(self.n):
                if sees(atoms, s, known[s]):
                    mask |= 1 << s
            if mask == everyone:
                del taint[cell]
            else:
                taint[cell] = frozenset({mask})

    def view(self, seat: int, known: set) -> tuple[dict, dict]:
        """The counters (``vars``, ``pvars``) as ``seat`` sees them, having seen the cards ``known``:
        a cell it may not see is ``HIDDEN``."""
        return project(self.vars, self.pvars, self._taint, self.g.shown, seat, known)


def project(vars_: dict, pvars: dict, taint: dict, shown: dict, seat: int, known) -> tuple[dict, dict]:
    """Counters ``vars_`` and ``pvars`` as ``seat`` sees them (new containers), their cells' atoms
    ``taint``, the rule file's ``shown:`` of each counter, the cards ``known`` seen by the seat."""
    if not taint and not shown:
        return dict(vars_), {k: list(v) for k, v in pvars.items()}
    vs = {}
    for k, v in vars_.items():
        how = shown.get(k, "derived")
        if how == "hidden" or (how not in _SAID and not sees(taint.get(k, NOTHING), seat, known)):
            v = HIDDEN
        vs[k] = v
    ps = {}
    for k, per in pvars.items():
        how = shown.get(k, "derived")
        row = list(per)
        if how != "public":
            for s in range(len(row)):
                if (
                    how == "hidden"
                    or (how == "own" and s != seat)
                    or (how not in _SAID and not sees(taint.get((k, s), NOTHING), seat, known))
                ):
                    row[s] = HIDDEN
        ps[k] = row
    return vs, ps


def visible_cells(vars_: dict, pvars: dict, taint: dict, shown: dict, seat: int, known) -> tuple:
    """The cells ``seat`` sees (as ``project`` shows them): (counters, (counter, seat) of the per-seat ones)."""
    vs, ps = project(vars_, pvars, taint, shown, seat, known)
    return (
        tuple(k for k, v in vs.items() if v is not HIDDEN),
        tuple((k, s) for k, row in ps.items() for s, v in enumerate(row) if v is not HIDDEN),
    )


def cell_values(vars_: dict, pvars: dict, cells: tuple) -> tuple:
    """The values of ``cells`` (``visible_cells``) in ``vars_`` and ``pvars``."""
    names, per = cells
    return tuple(vars_.get(k) for k in names), tuple(pvars[k][s] for k, s in per)


def sees(atoms: Iterable, seat: int, known) -> bool:
    """Whether ``seat``, having seen the cards ``known``, knows every atom of ``atoms``."""
    for a in atoms:
        if type(a) is int:
            if not a >> seat & 1:
                return False
            continue
        for alt in a:
            if alt <= known:
                break
        else:
            return False
    return True


def atoms_of(st: Any, reads: Reads, seat: Any) -> frozenset:
    """The atoms of a value worked out now, by an expression that reads ``reads``, for ``seat``."""
    out: set = set()
    taint = st._taint
    for z in reads.zones:
        if z.per_seat:
            per = st.pzones[z.name]
            if z.each or not isinstance(seat, int):
                cards = frozenset(chain.from_iterable(per))
            else:
                cards = frozenset(per[seat])
        else:
            cards = frozenset(st.zones[z.name])
        if not cards:
            continue  # an empty zone: its size says it all
        test = z.test
        if test is not None and not any(_cell_atoms(taint, c, seat, st.n) for c in reads.cells):
            out.add((cards, frozenset(test.filter(st, seat, st.pack_cards))))
        else:
            out.add((cards,))
    if taint:
        for c in reads.cells:
            got = _cell_atoms(taint, c, seat, st.n)
            if got:
                out |= got
    for b in reads.branches:  # if C then A else B: what C reads, and the branch taken
        if b.test is not None:
            out |= atoms_of(st, b.test, seat)
        taken = b.then if b.cond.fn(st, seat, None) else b.other
        if taken is not None:
            out |= atoms_of(st, taken, seat)
    return frozenset(out)


def _cell_atoms(taint: dict, c: Any, seat: Any, n: int) -> frozenset:
    if not c.per_seat:
        return taint.get(c.name, NOTHING)
    if not c.each and isinstance(seat, int):
        return taint.get((c.name, seat), NOTHING)
    out: frozenset = NOTHING
    for s in range(n):
        t = taint.get((c.name, s))
        if t:
            out = out | t
    return out


def plan(expr: Expr | None, game: GameDef) -> Reads | None:
    """What ``expr`` reads (``dsl.reads``), worked out once per rule file; None when nothing hidden."""
    if expr is None:
        return None
    tables = for_game(game).reads
    key = id(expr)
    if key in tables:
        return tables[key][1]
    teams = game.teams[1].text if game.teams is not None and game.teams[0] == "hand" else None
    r = reads_of(expr.text, game.scope, expr.pos, teams) if game.scope is not None else None
    tables[key] = (expr, r)  # the expression kept alive with its entry: its id stays its own
    return r


def value_taint(st: Any, name: str, per_seat: bool, reads: Reads | None, seat: Any, op: str, targets) -> None:
    """Record the atoms of the value just set (``op`` ``set`` or ``add``) in ``name``'s cells ``targets``
    (the seats whose cell was set, or None for a counter kept once)."""
    atoms = atoms_of(st, reads, seat) if reads is not None else NOTHING
    guard = st._guard
    if guard:
        atoms = atoms | guard
    taint = st._taint
    keys = [name] if not per_seat else [(name, x) for x in targets]
    shown = st.g.shown
    for k in keys:
        if shown and _said(taint, k, shown):
            continue
        if op == "set":
            if atoms:
                taint[k] = atoms
            else:
                taint.pop(k, None)
        elif atoms:
            old = taint.get(k)
            taint[k] = atoms if old is None else old | atoms
    if shown and shown.get(name) == "declared":
        declare(st, name, keys)


def declare(st: Any, name: str, keys: list) -> None:
    """The cells ``keys`` of ``name`` (``shown: declared``) just set: each that scores (holds a value
    other than nothing) is said aloud, seen by every seat, and with it the same seat's cell of each
    counter ``shown: {declared_with: name}``; a cell that scores nothing stays as worked out (the
    holder keeps to himself what is not good)."""
    taint = st._taint
    with_ = declared_with(st.g.shown, name)
    for k in keys:
        v = st.vars[k] if isinstance(k, str) else st.pvars[name][k[1]]
        if not v:
            continue
        taint.pop(k, None)
        for c in with_:
            taint.pop(c if isinstance(k, str) else (c, k[1]), None)


def declared_with(shown: dict, name: str) -> list[str]:
    """The counters shown with ``name``'s declaration (``shown: {declared_with: name}``)."""
    return [c for c, how in shown.items() if how == "declared " + name]


def _said(taint: dict, k: Any, shown: dict) -> bool:
    """Whether the rule file says who sees the cell ``k`` (``shown:``): then its atoms are what it says
    (none for a public counter, the seat's own bit for ``own``), whatever it was worked out from, and
    what reads it inherits those. A ``hidden`` counter (a working value, shown to no seat) keeps the
    atoms it was worked out from, so that a counter worked out from it is seen as they say."""
    name, seat = (k, None) if isinstance(k, str) else k
    how = shown.get(name)
    if how is None or how == "hidden" or how.startswith("declared"):
        # a working value (shown to none) or a declaration: what reads it seen as what it was read
        # from (a declaration's atoms are dropped when it is said, ``declare``)
        return False
    if how == "public":
        taint.pop(k, None)
    elif how == "own" and seat is not None:
        taint[k] = frozenset({1 << seat})
    else:
        taint[k] = frozenset({0})
    return True


def _add(taint: dict, k: Any, atoms: frozenset, shown: dict) -> None:
    if shown and _said(taint, k, shown):
        return
    old = taint.get(k)
    taint[k] = atoms if old is None else old | atoms


def guard_taint(st: Any, e: Effect, reads: Reads, seat: Any, each_seat: bool) -> frozenset:
    """The atoms of ``e``'s ``when:`` (or ``at:``) worked out now for ``seat``, given to every cell the effect may set
    (fired or not: that it did not fire says as much). Returned, for the cells it sets when it fires."""
    atoms = atoms_of(st, reads, seat)
    if not atoms:
        return atoms
    taint = st._taint
    for name, (per_seat, _) in e.args.items():
        if not per_seat:
            keys: list = [name]
        elif each_seat or e.at is None:
            keys = [(name, seat)] if isinstance(seat, int) else [(name, x) for x in range(st.n)]
        else:  # the seat it is about is not worked out unless it fires: every seat's cell
            keys = [(name, x) for x in range(st.n)]
        for k in keys:
            _add(taint, k, atoms, st.g.shown)
    return atoms


# the events that show cards face up to every seat (the key that names them); a take shows its cards
# when every seat saw them already
FACE_UP = {
    "play": "card",
    "turnup": "card",
    "draw": "card",
    "borrow": "card",
    "trick": "cards",
    "turn": "card",  # a card turned face up where it lies (patience)
    "show": "cards",  # the cards of a zone shown face up to every seat (a show step)
    "move": "cards",  # face-up cards moved from pile to pile (patience)
    "meld": "cards",
    "discard": "card",
    "lay_off": "card",  # a card of the hand laid off face up on a meld on the table
}


class Seen:
    """What each seat has seen of the cards in the hand in progress, followed from the events as
    they happen (an event sink): every card shown face up, and each seat's own (dealt it, chosen
    or passed by it or to it, taken by it). ``known(state, seat)`` adds the cards in its zones now.
    For a front end that drives the interpreter itself (the terminal); the library keeps its own
    record of the hand (``academie.api``), read the same way."""

    def __init__(self, players: int):
        self.shown: set[str] = set()
        self.own: list[set[str]] = [set() for _ in range(players)]

    def __call__(self, ev: dict) -> None:
        t = ev.get("type")
        if t == "hand_start":
            self.shown.clear()
            for mine in self.own:
                mine.clear()
        key = FACE_UP.get(t) if isinstance(t, str) else None
        if key is not None:
            v = ev.get(key)
            self.shown.update(v if isinstance(v, list) else [str(v)])
        elif t == "draw_for_dealer":
            self.shown.update(ev.get("cards", {}).values())
        elif t == "restock" and ev.get("shuffled"):  # shuffled face down: where each lies, no one knows
            gone = ev.get("cards", ())
            self.shown.difference_update(gone)
            for mine in self.own:
                mine.difference_update(gone)
        elif t == "deal":
            for mine, names in zip(self.own, ev.get("hands", ())):
                mine.update(names)
        elif t in ("take", "choose", "deliver"):
            cards = ev.get("cards", ())
            if t == "take" and self.shown.issuperset(cards):
                return
            for s in (ev.get("seat"), ev.get("to_seat")):
                if isinstance(s, int) and 0 <= s < len(self.own):
                    self.own[s].update(cards)

    def known(self, state: Any, seat: int) -> set:
        names = self.shown | self.own[seat]
        out = {c for c in state.pack_cards if c.name in names}
        for per in state.pzones.values():
            out.update(per[seat])
        return out
