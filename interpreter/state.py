"""The running game: cards in zones, seats, money, counters, and the rules'
steps executed one decision at a time.

The procedure of a game (set-up, hands, steps, tricks …) is written once, as a
generator (``State._run``) that yields at every decision a player must take.
``legal_moves()`` lists that decision's options; ``apply(move)`` sends the
choice in and runs the rules on to the next decision. Everything a rule file
can say is read from the compiled ``GameDef``: nothing here knows any game.

Invariants: every card of the pack is in exactly one zone; the total of each
currency never changes after the opening endowment; the game stops at
``max_plays`` as "unfinished". With ``check="move"`` (the default) ``apply``
counts the cards after every move and every hand's end checks them all; with
``check="hand"`` (simulations) every hand's end counts the cards and the
money, and the game's end checks them all (a card lost and another doubled
within one hand stays doubled, so it is found then).
"""
from __future__ import annotations

import random
from bisect import bisect_left
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, Callable, Iterator

from ..dsl.cards import RANKS, SUITS, Card, parse_card
from ..dsl.errors import Pos, RuleError
from ..dsl.model import Effect, GameDef, Payment, Step, deal_plan

DEFAULT_MAX_PLAYS = 50_000
PASS = "pass"


class InvariantError(AssertionError):
    """The interpreter broke one of its own invariants: a bug, never a user error."""


class _Unfinished(Exception):
    pass


class Abandoned(Exception):
    """An agent cannot choose any more (a person's input ended): the game
    stops here. Not a fault of the rule file, nor of the interpreter."""

    def __init__(self, message: str, seat: int | None = None):
        super().__init__(message)
        self.seat = seat


class Decision:
    __slots__ = ("seat", "moves", "kind")

    def __init__(self, seat: int, moves: list, kind: str):
        self.seat, self.moves, self.kind = seat, moves, kind


def _runtime_message(e: Exception) -> str:
    """What an expression's failure in play means for the rules (the Python
    error after it, for whoever debugs the rule file)."""
    detail = f"({type(e).__name__}: {e})"
    if isinstance(e, TypeError) and "NoneType" in str(e):
        return ("a seat is none at this point of play (a winner, leader, holder or declarer not decided yet) "
                f"and is used as a number or a seat {detail}")
    if isinstance(e, TypeError):
        return f"values of different kinds are combined {detail}"
    if isinstance(e, (KeyError, IndexError)):
        return f"a seat, zone or money holder is used that does not exist here {detail}"
    return f"{type(e).__name__}: {e}"


def move_name(m) -> str:
    return m.name if isinstance(m, Card) else str(m)


class State:
    """One game of ``game`` for ``players`` players.

    ``deck``: a stacked pack (top card first) used, unshuffled and uncut, for
    the first hand. ``deal``: the first hand's deal itself ({"hands": [...],
    zone: [...]}). ``dealer``: the first dealer's seat (else the rules choose).
    ``hands``: stop after this many hands (else the rules say when).
    ``agents``: one per seat; the whole game is then played here, the agents
    asked inside the rules' loop from the first move on (as ``run_with``).
    """
    # the short trick loop for agents that draw uniformly (off: the general loop, for tests)
    _draw_inline = True

    def __init__(self, game: GameDef, players: int, seed: int | str = 0, *,
                 dealer: int | None = None, deck: list[Card] | None = None,
                 deal: dict | None = None, max_plays: int = DEFAULT_MAX_PLAYS,
                 hands: int | None = None, sink: Callable[[dict], None] | None = None,
                 keep_events: bool = True, deal_file: str = "--deal", check: str = "move",
                 agents=None):
        if game.abstract:
            raise RuleError(f"{game.id} is a fragment for other rule files to use (abstract: true), "
                            "not a game that can be played", Pos(game.doc.file, 1, 1))
        if not (game.min_players <= players <= game.max_players):
            raise RuleError(f"{game.id} is for {game.min_players} to {game.max_players} players, not {players}",
                            game.doc.pos(("players",)), code="players")
        self.g = game
        self.n = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.max_plays = max_plays
        self.hands_limit = hands
        self.events: list[dict] = [] if keep_events else None
        self._sink = sink
        self._logging = keep_events or sink is not None
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
        self.pzones: dict[str, list[list]] = {}
        self._all_zones = list(self.zones.values())
        self._zone_owner: dict[int, int] = {}       # id(a seat's zone) -> the seat
        seats = range(players)
        for z in game.seat_zones:
            zs = self.pzones[z] = [[] for _ in seats]
            self._all_zones += zs
            self._zone_owner.update(zip(map(id, zs), seats))
        self.hand = self.pzones["hand"]
        self._hand_ids = frozenset(map(id, self.hand))
        self._touched: set[int] = set()
        self._short_cfg: dict[int, tuple] = {}       # id(tricks step) -> what _short_setup() gives
        self._inline: tuple | None = None            # (the agents, what _agents_inline() gives)
        self._deck = self._check_deck(deck) if deck is not None else None
        self._deal = self._check_deal(deal, deal_file) if deal is not None else None
        # money
        zero = dict.fromkeys(game.currencies, 0)
        self.bal: dict[Any, dict[str, int]] = {h: zero.copy() for h in [*range(players), *game.pools]}
        self._totals: dict[str, int] | None = None
        # counters
        self.vars: dict[str, Any] = {}
        self.pvars: dict[str, list] = {}
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
        self.unfinished = False
        self.truncated = False
        self.finished = False
        self.standings: list[dict] = []
        self.hand_results: list[dict] = []
        self._counts = {"plays": 0, "tricks": 0, "takes": 0, "borrows": 0, "draws": 0,
                      "lead_changes": 0, "declarations": 0}
        self._decision: Decision | None = None
        self._auto = agents          # agents asked inline (run_with(), or given here: the game is played now)
        self._gen = self._run()
        self._step_pos: Pos | None = None
        self._advance(None)

    # -- public interface ------------------------------------------------------
    @property
    def stats(self) -> dict:
        """Counters so far: plays, tricks, takes, borrows, draws, lead_changes,
        declarations."""
        d = dict(self._counts)
        d["plays"] = self.plays
        return d

    @property
    def _hand_plays(self) -> int:
        """Plays made in the hand in progress (or the last one)."""
        return self.plays - self._plays_at_hand

    def current_player(self) -> int | None:
        return None if self._decision is None else self._decision.seat

    def legal_moves(self) -> list:
        """The options of the decision at hand, in canonical order (cards by
        suit S H D C and rank 2 … A; declining before declaring)."""
        return [] if self._decision is None else list(self._decision.moves)

    def decision_kind(self) -> str | None:
        return None if self._decision is None else self._decision.kind

    def is_terminal(self) -> bool:
        return self._decision is None

    def apply(self, move) -> None:
        """Take ``move`` (a Card, a card name, or a declaration name) for the
        player whose turn it is, and run the rules to the next decision."""
        if self._decision is None:
            raise RuleError("the game is over: no move can be made", Pos("<move>", 1, 1), code="move")
        if isinstance(move, str):
            c = parse_card(move)
            move = c if c is not None else move
        if move not in self._decision.moves:
            raise RuleError(f"{move_name(move)} is not a legal move for seat {self._decision.seat} "
                            f"(legal: {' '.join(move_name(m) for m in self._decision.moves)})",
                            Pos("<move>", 1, 1), code="move")
        self._advance(move)
        if self._check_moves:
            self._check_card_count()

    def run_with(self, agents) -> "State":
        """Play the game to its end with ``agents`` (one per seat), asking them
        inside the rules' own loop: no suspension per move. Same game, same
        events as driving it with ``legal_moves``/``apply``."""
        self._auto = agents
        while self._decision is not None:
            d = self._decision
            self.apply(agents[d.seat].choose(self, d.seat, d.moves))
        return self

    def _ask(self, seat, moves):
        c = self._auto[seat].choose(self, seat, moves)
        if c not in moves:
            self._illegal(seat, c, moves)
        if self._check_moves:
            self._check_card_count()
        return c

    def _illegal(self, seat, move, moves):
        raise RuleError(f"{move_name(move)} is not a legal move for seat {seat} "
                        f"(legal: {' '.join(move_name(m) for m in moves)})", Pos("<move>", 1, 1), code="move")

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
            if seen != self._pack_set:
                raise InvariantError(f"cards: {count} in zones, {len(seen)} distinct, pack of {len(self.pack_cards)}")
        if self._totals is not None:
            totals = self._money_totals()
            if totals != self._totals:
                raise InvariantError(f"money not conserved: {totals} != {self._totals}")

    # -- driving the generator ------------------------------------------------------
    def _advance(self, move) -> None:
        try:
            self._decision = self._gen.send(move)
        except StopIteration:
            self._decision = None
        except RuleError:
            self._decision = None
            raise
        except (InvariantError, _Unfinished, Abandoned):
            raise
        except OSError:      # an output failing (a closed pipe, a full disk), not the rule file
            self._decision = None
            raise
        except Exception as e:  # an expression failing at run time: a fault of the rule file
            self._decision = None
            raise RuleError(f"the rules cannot be applied here: {_runtime_message(e)}",
                            self._step_pos or Pos(self.g.doc.file, 1, 1), code="runtime") from None

    def _check_card_count(self) -> None:
        if sum(len(z) for z in self._all_zones) != len(self.pack_cards):
            raise InvariantError("a card was lost or duplicated")

    def emit(self, ev: dict) -> None:
        """Record an event (hot paths test ``self._logging`` before building one)."""
        if self.events is not None:
            self.events.append(ev)
        if self._sink is not None:
            self._sink(ev)

    # -- input checks -------------------------------------------------------------
    def _check_deck(self, deck: list[Card]) -> list[Card]:
        bad = [c for c in deck if c not in self._pack_set]
        if bad:
            raise RuleError(f"the stacked deck holds {', '.join(map(str, bad))}, not in this game's pack "
                            f"for {self.n} players", Pos("--deck", 1, 1), code="deck")
        dup = sorted({c.name for c in deck if deck.count(c) > 1})
        if dup:
            raise RuleError(f"the stacked deck holds {', '.join(dup)} more than once", Pos("--deck", 1, 1), code="deck")
        missing = [c.name for c in self.pack_cards if c not in set(deck)]
        if missing:
            raise RuleError(f"the stacked deck lacks {len(missing)} card(s) of the pack: {', '.join(missing)}",
                            Pos("--deck", 1, 1), code="deck")
        return list(deck)

    def _check_deal(self, deal: dict, file: str) -> dict:
        """Check a given deal: ``deal`` is the data, or {"data":, "positions":}
        from ``load_yaml`` so that errors point at the card's line and column."""
        positions = {}
        if isinstance(deal, dict) and "data" in deal and "positions" in deal:
            deal, positions = deal["data"], deal["positions"]

        def at(*path):
            path = tuple(path)
            while path and path not in positions:
                path = path[:-1]
            return positions.get(path, Pos(file, 1, 1))
        where = at()
        if not isinstance(deal, dict) or "hands" not in deal:
            raise RuleError("a deal file is a mapping with hands: [[cards of seat 0], [cards of seat 1], …]",
                            where, code="deal")
        hands = deal["hands"]
        if not isinstance(hands, list) or len(hands) != self.n:
            raise RuleError(f"the deal gives {len(hands) if isinstance(hands, list) else 'no list of'} hands "
                            f"for {self.n} players", at("hands"), code="deal")
        counts = self.g.deal_counts(self.n)
        per = counts[0][1] if counts else None
        rest_zone = counts[0][0].rest if counts else None
        out: dict[str, Any] = {"hands": []}
        seen: dict[Card, str] = {}

        def cards_of(items, label, path):
            if isinstance(items, str):
                items = items.replace(",", " ").split()
            if not isinstance(items, list):
                raise RuleError(f"{label}: expected a list of cards", at(*path), code="deal")
            got = []
            for j, x in enumerate(items):
                c = parse_card(str(x))
                if c is None:
                    raise RuleError(f"{label}: '{x}' is not a card (write rank + suit: AS, 10H, KD)",
                                    at(*path, j), code="deal")
                if c not in self._pack_set:
                    raise RuleError(f"{label}: {c} is not in this game's pack for {self.n} players",
                                    at(*path, j), code="deal")
                if c in seen:
                    raise RuleError(f"{label}: {c} is dealt twice (also in {seen[c]})", at(*path, j), code="deal")
                seen[c] = label
                got.append(c)
            return got
        for i, h in enumerate(hands):
            cs = cards_of(h, f"hand of seat {i}", ("hands", i))
            if per is not None and len(cs) != per:
                raise RuleError(f"hand of seat {i} has {len(cs)} cards; the rules deal {per} to each of {self.n}",
                                at("hands", i), code="deal")
            out["hands"].append(cs)
        # besides the hands, only the zones the rules deal to before play (the rest
        # of a deal, a turn-up) may be given: a card in a zone of play (the trick, a
        # pile of won tricks) before anyone has played is no deal
        dealt_to = []
        for st in self.g.steps:
            zs = (st.rest,) if st.kind == "deal" else (st.to, st.rest) if st.kind == "turnup" else ()
            dealt_to += [z for z in zs if z and z not in dealt_to]
        for k, v in deal.items():
            if k == "hands":
                continue
            if k not in self.zones or k == "pack":
                raise RuleError(f"the deal names '{k}', which is not a shared zone of this game "
                                f"(a deal gives the hands" + (f" and {', '.join(dealt_to)})" if dealt_to else " only)"),
                                positions.get((k, "@key"), where), code="deal")
            if k not in dealt_to:
                raise RuleError(f"the deal puts cards in '{k}', a zone the rules do not deal to: a deal gives "
                                f"the hands" + (f" and {', '.join(dealt_to)}" if dealt_to else " only"),
                                positions.get((k, "@key"), where), code="deal")
            out[k] = cards_of(v, f"zone {k}", (k,))
        left = [c for c in self.pack_cards if c not in seen]
        if left:
            rest_count = counts[0][3] if counts else 0
            if rest_zone is not None and rest_zone not in out:
                out[rest_zone] = left                # the rest goes where the rules deal it
            elif rest_zone is None and rest_count != 0:
                out["pack"] = left                   # undealt cards stay in the pack
            else:
                raise RuleError(f"the deal leaves out {len(left)} card(s) of the pack: "
                                f"{', '.join(c.name for c in left)}", where, code="deal")
        return out

    # -- the procedure ------------------------------------------------------------
    def _run(self) -> Iterator[Decision]:
        g = self.g
        for name, (per_seat, init, reset) in g.vars.items():
            self._init_var(name, per_seat, init)
        for p in g.start:
            self._pay(p, None, bank=True)
        self._totals = self._money_totals()
        if self._forced_dealer is not None:
            self.dealer = self._forced_dealer
        elif g.dealer_draw is not None:
            self.dealer = self._draw_dealer(g.dealer_draw)
        elif g.dealer_seat is not None:
            self.dealer = g.dealer_seat(self) % self.n
        else:
            self.dealer = 0
        idle = 0    # hands in which nobody played: they count against the play limit too
        try:
            while True:
                self.hand_no += 1
                yield from self._hand()
                if self._hand_plays == 0:
                    idle += 1
                    if self.plays + idle > self.max_plays:
                        self.unfinished = True
                        break
                if self.hands_limit is not None and self.hand_no >= self.hands_limit:
                    self.truncated = True   # stopped by the user, not by the rules:
                    break                   # no final settlement
                if g.hands is not None and self.hand_no >= g.hands.fn(self, None, None):
                    break
                if g.until is not None and g.until.fn(self, None, None):
                    break
                if g.hands is None and g.until is None:
                    break
                if g.next_dealer is not None:
                    self.dealer = g.next_dealer.fn(self, None, None) % self.n
            if not self.truncated and not self.unfinished:
                self._effects(g.game_end, None)
        except _Unfinished:
            self.unfinished = True
            self.emit({"type": "hand_end", "hand": self.hand_no, "winner": None, "reason": "unfinished"})
            self.hand_results.append({"hand": self.hand_no, "winner": None, "plays": self._hand_plays,
                                      "reason": "unfinished"})
        self._finish()

    def _finish(self):
        g = self.g
        if g.standings is not None:
            score = g.standings.fn
            scores = [score(self, s, None) for s in range(self.n)]
        else:
            scores = [0] * self.n
        order = sorted(range(self.n), key=scores.__getitem__, reverse=True)   # stable: ties by seat
        standings, rank, last = [], 0, None
        for i, s in enumerate(order):
            if scores[s] != last:
                rank, last = i + 1, scores[s]
            standings.append({"seat": s, "score": last, "rank": rank})
        self.standings = standings
        self.check_invariants()
        self.finished = True
        if self._logging:
            self.emit({"type": "game_end", "standings": standings, "unfinished": self.unfinished,
                       "truncated": self.truncated,
                       "hands": self.hand_no, "plays": self.plays})

    def _init_var(self, name, per_seat, init):
        if per_seat:
            self.pvars[name] = [init(self, s) if init else 0 for s in range(self.n)]
        else:
            self.vars[name] = init(self) if init else 0

    def _draw_dealer(self, spec: dict) -> int:
        order = self.g.orders.get(spec.get("order") or "", None)
        if order is None and self.g.orders:
            order = self.g.orders.get("play") or next(iter(self.g.orders.values()))
        lowest = spec.get("lowest", True)
        seats = list(range(self.n))
        if len(self.pack_cards) < self.n:
            raise RuleError(f"the draw for dealer needs a card for each of {self.n} players",
                            self.g.doc.pos(("dealer",)), code="runtime")
        for _ in range(1000):
            cards = self.rng.sample(self.pack_cards, len(seats))    # each draws a card of the pack
            drawn = {s: cards[i] for i, s in enumerate(seats)}
            if self._logging:
                self.emit({"type": "draw_for_dealer", "cards": {str(s): drawn[s].name for s in seats}})
            vals = {s: order.get(drawn[s], 0) if order else drawn[s].canon for s in seats}
            best = (min if lowest else max)(vals.values())
            seats = [s for s in seats if vals[s] == best]
            if len(seats) == 1:
                self.emit({"type": "dealer", "seat": seats[0]})
                return seats[0]
        raise RuleError("the draw for dealer never decides: the order gives the drawn cards equal values",
                        self.g.doc.pos(("dealer",)), code="runtime")

    def _hand(self) -> Iterator[Decision]:
        g = self.g
        self.led = self.trump = self.winner = self.leader = None
        self.tricks_played = 0
        self.won = [0] * self.n
        self.declared = {}
        self._plays_at_hand = self.plays
        self._hand_over = False
        for name, (per_seat, init, reset) in g.vars.items():
            if reset == "hand":
                self._init_var(name, per_seat, init)
        self._gather()
        first = self.hand_no == 1
        stacked = first and self._deck is not None
        dealt = first and self._deal is not None
        if stacked:
            self.zones["pack"][:] = self._deck
        if self._logging:
            self.emit({"type": "hand_start", "hand": self.hand_no, "dealer": self.dealer})
        for st in g.steps:
            self._step_pos = st.pos
            if st.when is not None and not st.when.fn(self, None, None):
                continue
            if st.kind == "shuffle" and (stacked or dealt):
                continue
            if st.kind == "deal" and dealt:
                self._place_deal(st)
                dealt = False
                continue
            handler = getattr(self, "_step_" + st.kind)
            r = handler(st)
            if r is not None:
                yield from r
        self._step_pos = None
        if self.winner is None and g.hand_winner is not None:
            self.winner = g.hand_winner.fn(self, None, None)
        if self._logging:
            self.emit({"type": "hand_end", "hand": self.hand_no, "winner": self.winner,
                       "plays": self._hand_plays, "tricks": self.tricks_played})
        self.hand_results.append({"hand": self.hand_no, "winner": self.winner, "plays": self._hand_plays,
                                  "tricks": self.tricks_played})
        self.check_invariants(full=self._check_moves)

    def _gather(self):
        """Every card back to the pack: the shared zones', then each seat's."""
        pack = self.zones["pack"]
        for z in self._all_zones:
            if z and z is not pack:
                pack.extend(z)
                z.clear()

    # -- steps ----------------------------------------------------------------------
    def _step_pay(self, st: Step):
        self._pay(st.payment, None)

    def _step_effects(self, st: Step):
        self._effects(st.effects, None)

    def _step_shuffle(self, st: Step):
        pack = self.zones["pack"]
        getrandbits = self.rng.getrandbits
        # Fisher-Yates, each place drawn uniformly by rejection from getrandbits: the
        # algorithm of random.shuffle, without a Python call per card
        for i in range(len(pack) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            pack[i], pack[j] = pack[j], pack[i]
        if self._logging:
            self.emit({"type": "shuffle", "seat": self.dealer})
        if st.cut_by is not None and len(pack) > 2 * st.min_cut:
            n = len(pack) - 2 * st.min_cut + 1          # the cut: min_cut … len - min_cut, uniformly
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            at = st.min_cut + j
            pack[:] = pack[at:] + pack[:at]
            if self._logging:
                self.emit({"type": "cut", "seat": st.cut_by(self) % self.n, "at": at})

    def _step_deal(self, st: Step):
        n = self.n
        plan = st.deal_plans.get(n)
        if plan is None:
            plan = st.deal_plans[n] = self._deal_plan(st)
        need, take = plan
        first = st.first.fn(self, None, None) % n if st.first is not None else (self.dealer + 1) % n
        pack = self.zones["pack"]
        if len(pack) < need:
            raise RuleError(f"the deal needs {need} cards for {n} players but {len(pack)} are left",
                            st.pos, code="deal")
        hands = self.hand
        for k in range(n):          # the k-th seat from the first gets the cards at its places in the pack
            h = hands[(first + k) % n]
            h.extend(take[k](pack))
            h.sort(key=_canon)
        rest = pack[need:]
        del pack[:]
        if st.rest is not None:
            self.zones[st.rest].extend(rest)
        else:
            pack.extend(rest)
        self._touched.update(range(n))
        if self._logging:
            ev = {"type": "deal", "hands": [[c.name for c in h] for h in hands]}
            if st.rest is not None:
                ev[st.rest] = [c.name for c in self.zones[st.rest]]
            self.emit(ev)

    def _deal_plan(self, st: Step):
        """For a deal step and this many players: the number of cards dealt,
        and for the k-th seat from the first a function giving the cards the
        batches put in its hand (from their places in the pack)."""
        n = self.n
        per, batches, _ = deal_plan(st, n)
        if per is None:
            raise RuleError(f"the deal says nothing for {n} players", st.pos, code="deal")
        places: list[list[int]] = [[] for _ in range(n)]
        i = 0
        for size in batches:
            for k in range(n):
                places[k].extend(range(i, i + size))
                i += size
        take = [itemgetter(*pl) if len(pl) > 1 else itemgetter(slice(pl[0], pl[0] + 1) if pl else slice(0, 0))
                for pl in places]
        return i, take

    def _place_deal(self, st: Step):
        pack = self.zones["pack"]
        pack.clear()
        for seat, cs in enumerate(self._deal["hands"]):
            self.hand[seat][:] = sorted(cs, key=_canon)
        self._touched.update(range(self.n))
        for z, cs in self._deal.items():
            if z != "hands":
                self.zones[z][:] = cs
        ev = {"type": "deal", "hands": [[c.name for c in h] for h in self.hand]}
        for z in self._deal:
            if z != "hands":
                ev[z] = [c.name for c in self.zones[z]]
        self.emit(ev)

    def _step_turnup(self, st: Step):
        if self.zones[st.to]:          # a given deal already placed the turn-up
            if st.sets_trump:
                self.trump = self.zones[st.to][-1].suit
            self.emit({"type": "turnup", "card": self.zones[st.to][-1].name, "trump": self.trump})
            return
        pack = self.zones["pack"]
        src = pack if pack else self.zones.get(self._rest_zone() or "", [])
        if not src:
            raise RuleError("no card left to turn up", st.pos, code="deal")
        c = src.pop(0)
        self.zones[st.to].append(c)
        if st.sets_trump:
            self.trump = c.suit
        if st.rest is not None and pack:
            self.zones[st.rest].extend(pack)
            pack.clear()
        self.emit({"type": "turnup", "card": c.name, "trump": self.trump})

    def _rest_zone(self):
        for st in self.g.steps:
            if st.kind == "deal" and st.rest:
                return st.rest
        return None

    def _step_announce(self, st: Step):
        first = st.first.fn(self, None, None) % self.n if st.first is not None else (self.dealer + 1) % self.n
        for k in range(self.n):
            seat = (first + k) % self.n
            options = [PASS] + [d for d in st.declarations
                                if sum(1 for x in self.declared if x == d) < self.g.declarations.get(d, 1)
                                and d not in self.declared]
            if len(options) == 1:
                continue
            if self._auto is not None:
                choice = self._ask(seat, options)
            else:
                choice = yield Decision(seat, options, "announce")
            if choice != PASS:
                self.declared[choice] = seat
                self._counts["declarations"] += 1
                self.emit({"type": "declare", "seat": seat, "declaration": choice})

    def _count_play(self):
        self.plays += 1
        if self.plays > self.max_plays:
            raise _Unfinished()

    def _legal(self, st: Step, seat: int) -> tuple[list, bool]:
        """The legal cards of ``seat``, in canonical order, and whether his
        hand meets the first tier of the follow rule (False: he cannot follow)."""
        hand = self.hand[seat]
        if self.led is None:
            if st.lead_test is not None:
                return (st.lead_test.filter(self, seat, hand) or list(hand)), True
            return list(hand), True
        for i, tier in enumerate(st.must):
            ok = tier.filter(self, seat, hand)
            if ok:
                if st.free is not None:
                    keep, free = set(ok), st.free.fn
                    ok = [c for c in hand if c in keep or free(self, seat, c)]
                return ok, i == 0
        return list(hand), not st.must

    def _agents_inline(self):
        """How the agents of run_with() are asked inside the loop: (choose
        methods, the uniform draws of agents that pick uniformly with their own
        ``random()``, or None, whether a choice must be checked)."""
        auto = self._auto
        if auto is None:
            return None, None, True
        if self._inline is not None and self._inline[0] is auto:
            return self._inline[1]
        choosers = [a.choose for a in auto]
        uniform = [getattr(a, "uniform", None) for a in auto]
        if None in uniform:
            uniform = None
        # the built-in first and random agents pick from the list they are given
        check_choice = not all(getattr(a, "picks_from_moves", False) for a in auto)
        self._inline = (auto, (choosers, uniform, check_choice))
        return choosers, uniform, check_choice

    def _step_tricks(self, st: Step):
        choosers, uniform, check_choice = self._agents_inline()
        if uniform is not None and self._draw_inline and not self._logging and _short_loop_fits(st):
            self._tricks_drawn(st, uniform)          # nothing to ask nor to record: the short loop
            return
        n = self.n
        leader = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
        trick = self.zones["trick"]
        logging = self._logging
        keys = [f.fn for f in st.winner_key]
        # keys that read only the card, led and trump are tabulated per (led, trump)
        # and the best is kept as the cards are played
        key_tables = st.key_tables if st.key_pure else None
        end_play = [r for r in st.end if r.after == "play"]
        end_trick = [r for r in st.end if r.after == "trick"]
        hands, touched, legal = self.hand, self._touched, self._legal
        # one end condition after play, reading only the seat's own zones: test the mover directly
        mover_only = end_play[0].when.fn if len(end_play) == 1 and end_play[0].zone_only else None
        # ... and of the shape ``count(hand(seat)) == 0``: test the hands themselves, no call
        empty_hand_ends = mover_only is not None and end_play[0].when.shape == "count(hand(seat)) == 0"
        cannot_follow = st.cannot_follow
        renounce = self._runner(cannot_follow) if cannot_follow else None
        suit_led = bool(st.must) and st.must[0].shape == "card.suit == led"
        one_tier = len(st.must) == 1
        lead_any = st.lead_test is None
        free = st.free.fn if st.free is not None else None
        nxt = [(s + 1) % n for s in range(n)]   # the seat after each seat
        max_plays = self.max_plays
        counts = self._counts
        won = self.won
        won_seat = self.pzones.get(st.won_to) if st.won_to is not None else None
        won_zone = self.zones[st.won_to] if st.won_to is not None and won_seat is None else None
        pack = self.zones["pack"]
        played = self.plays         # kept in a local, written back before anything else can read it
        try:
            while not self._hand_over:
                if not hands[leader]:
                    break
                self.leader = leader
                # ``led`` is kept in a local and written to self.led when the first card
                # is played: nothing else sets it during a trick
                self.led = led = None
                plays: list[tuple[int, Card]] = []
                table = best_seat = best_key = None
                seat = leader
                broke = False
                for _ in range(n):
                    hand = hands[seat]
                    if not hand:
                        seat = nxt[seat]
                        continue
                    c = None
                    if led is None:
                        if lead_any:
                            if uniform is not None:      # an agent drawing uniformly from the hand
                                k = len(hand)
                                c = hand.pop(int(uniform[seat]() * k) if k > 1 else 0)
                            else:
                                moves, follows = hand[:], True
                        else:
                            moves, follows = legal(st, seat)
                    elif suit_led:
                        moves = [c for c in hand if c.suit == led]
                        if moves:
                            follows = True
                            if free is not None:
                                keep = set(moves)
                                moves = [c for c in hand if c in keep or free(self, seat, c)]
                        else:
                            follows = False
                            if renounce is None:
                                moves = hand[:] if one_tier else legal(st, seat)[0]
                        c = None
                    else:
                        moves, follows = legal(st, seat)
                    if c is None:
                        if not follows and renounce is not None:
                            if logging:
                                self.emit({"type": "renounce", "seat": seat, "led": led})
                            self.plays = played
                            new = renounce(self, seat)
                            if new is not None:              # the trick is over; he (or another) leads
                                if new != leader:
                                    counts["lead_changes"] += 1
                                leader = new
                                broke = True
                                break
                            if self._hand_over:
                                return
                            moves, _ = legal(st, seat)       # the effects may have changed his hand
                            if not moves:
                                seat = nxt[seat]
                                continue
                        self.mover = seat
                        if uniform is not None:              # an agent drawing uniformly: draw here
                            k = len(moves)
                            c = moves[int(uniform[seat]() * k)] if k > 1 else moves[0]
                        elif choosers is not None:
                            self.plays = played
                            c = choosers[seat](self, seat, moves)
                            if check_choice and c not in moves:
                                self._illegal(seat, c, moves)
                        else:
                            self.plays = played
                            c = yield Decision(seat, moves, "play")
                            if self._auto is not None:   # run_with() took over: ask its agents inline from now on
                                choosers, uniform, check_choice = self._agents_inline()
                        hand.remove(c)
                    else:
                        self.mover = seat
                    trick.append(c)
                    if led is None:
                        self.led = led = c.suit
                        if key_tables is not None:
                            table = key_tables.get((led, self.trump))
                            if table is None:
                                table = key_tables[(led, self.trump)] = {}
                    if table is not None:
                        k = table.get(c)
                        if k is None:
                            k = table[c] = tuple([f(self, seat, c) for f in keys])
                        if best_key is None or k > best_key:
                            best_seat, best_key = seat, k
                    else:
                        plays.append((seat, c))
                    played += 1
                    if played > max_plays:
                        raise _Unfinished()
                    if logging:
                        self.emit({"type": "play", "seat": seat, "card": c.name})
                    if end_play:
                        if empty_hand_ends:
                            # the mover's hand, then any other hand changed since the last check
                            if not hand:
                                touched.add(seat)
                                self.plays = played
                                self._check_end(end_play, seat)
                                return
                            if touched:
                                for s in touched:
                                    if not hands[s]:
                                        touched.add(seat)
                                        self.plays = played
                                        if self._check_end(end_play, seat):
                                            return
                                        break
                                touched.clear()
                        elif not touched and mover_only is not None:   # only the mover's zones changed
                            self.plays = played
                            if mover_only(self, seat, None):
                                touched.add(seat)
                                self._check_end(end_play, seat)
                                return
                        else:
                            touched.add(seat)
                            self.plays = played
                            if self._check_end(end_play, seat):
                                return
                    seat = nxt[seat]
                if broke:
                    if trick:
                        self._move_cards(trick, pack, None, "pack", src=trick)
                    continue
                if table is None:
                    if not plays:
                        break
                    self.plays = played
                    for s, c in plays:
                        k = tuple([f(self, s, c) for f in keys])
                        if best_key is None or k > best_key:
                            best_seat, best_key = s, k
                self.tricks_played += 1
                counts["tricks"] += 1
                won[best_seat] += 1
                if logging:
                    cards = [c.name for c in trick]
                    self.emit({"type": "trick", "winner": best_seat, "cards": cards})
                if won_seat is not None or won_zone is not None:
                    (won_seat[best_seat] if won_seat is not None else won_zone).extend(trick)
                    trick.clear()
                    if won_seat is not None:
                        touched.add(best_seat)
                    if logging:
                        self.emit({"type": "take", "seat": best_seat, "cards": cards, "to": st.won_to})
                else:
                    pack.extend(trick)
                    trick.clear()
                if best_seat != leader:
                    counts["lead_changes"] += 1
                self.mover = best_seat
                leader = best_seat
                if st.on_trick:
                    self.plays = played
                    self._effects(st.on_trick, best_seat)
                self.led = None
                if end_trick:
                    self.plays = played
                    if self._check_end(end_trick, best_seat):
                        return
            self.led = None
        finally:
            self.plays = played

    def _short_setup(self, st: Step) -> tuple:
        """What the short loop needs of a tricks step, worked out once a game."""
        n = self.n
        trick = self.zones["trick"]
        end_play = [r for r in st.end if r.after == "play"]
        end_trick = [r for r in st.end if r.after == "trick"]
        empty_hand_ends = (len(end_play) == 1 and end_play[0].zone_only
                           and end_play[0].when.shape == "count(hand(seat)) == 0")
        cannot_follow = st.cannot_follow
        renounce = self._runner(cannot_follow) if cannot_follow else None
        # the renounce takes the whole of a shared zone into a zone of his and he leads: done in the loop
        whole = getattr(renounce, "whole", None)
        w_src = self.zones[whole[0]] if whole is not None else None
        w_dst = self.pzones[whole[1]] if whole is not None else None
        w_sort = w_dst is self.hand
        w_into_gap = w_src is trick and w_dst is self.hand
        nxt = [(s + 1) % n for s in range(n)]
        return (trick, [f.fn for f in st.winner_key], st.key_tables, end_play, end_trick, empty_hand_ends,
                renounce, whole, w_src, w_dst, w_sort, w_into_gap, nxt)

    def _tricks_drawn(self, st: Step, uniform: list) -> None:
        """The trick loop when nothing needs to be asked or recorded: every
        agent draws uniformly (``uniform``, asked inline), no events are kept,
        any card may be led, the follow rule is the one tier ``card.suit ==
        led`` and the winner keys are tabulated per (led, trump). The same
        game as ``_step_tricks`` plays, with the choices those settings make
        needless left out of the loop (tests compare the two)."""
        n = self.n
        leader = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
        cfg = self._short_cfg.get(id(st))
        if cfg is None:
            cfg = self._short_cfg[id(st)] = self._short_setup(st)
        (trick, keys, key_tables, end_play, end_trick, empty_hand_ends, renounce,
         whole, w_src, w_dst, w_sort, w_into_gap, nxt) = cfg
        hands, touched, legal = self.hand, self._touched, self._legal
        max_plays = self.max_plays
        counts = self._counts
        won = self.won
        won_seat = self.pzones.get(st.won_to) if st.won_to is not None else None
        won_zone = self.zones[st.won_to] if st.won_to is not None and won_seat is None else None
        pack = self.zones["pack"]
        played = self.plays
        by_led: dict = {}      # led -> its winner-key table (trump does not change during the step)
        # the one end test is "his hand is empty": a seat that gains cards need not be
        # tested again (every seat is marked for later steps when the loop ends)
        mark_gains = not (empty_hand_ends and not end_trick)
        mover = self.mover
        try:
            while not self._hand_over:
                if not hands[leader]:
                    break
                self.leader = leader
                led = None          # self.led is set by the lead; nothing reads it before
                table = best_seat = best_key = None
                seat = leader
                for _ in range(n):
                    hand = hands[seat]
                    if not hand:
                        seat = nxt[seat]
                        continue
                    if led is None:                      # the lead: any card of the hand
                        k = len(hand)
                        c = hand.pop(int(uniform[seat]() * k) if k > 1 else 0)
                        self.led = led = c.suit
                        led_lo, led_hi = _SUIT_SPAN[led]
                        table = by_led.get(led)
                        if table is None:
                            table = by_led[led] = key_tables.setdefault((led, self.trump), {})
                        best_key = table.get(c)
                        if best_key is None:
                            best_key = table[c] = tuple([f(self, seat, c) for f in keys])
                        best_seat = seat
                    else:
                        # a hand is in canonical order, so the cards of a suit lie together:
                        # hand[i:j], found by bisection
                        i = bisect_left(hand, led_lo, key=_canon)
                        if i < len(hand) and hand[i].suit == led:
                            k = bisect_left(hand, led_hi, i + 1, key=_canon) - i
                            c = hand.pop(i + int(uniform[seat]() * k) if k > 1 else i)
                        else:
                            if whole is not None:            # he takes the whole of a zone and leads
                                if w_src:
                                    if w_into_gap:
                                        # the trick holds only cards of the suit led, which his hand
                                        # lacks: sorted, they go where that suit would be, at i
                                        trick.sort(key=_canon)
                                        hand[i:i] = trick
                                    else:
                                        dst = w_dst[seat]
                                        dst.extend(w_src)
                                        if w_sort:
                                            dst.sort(key=_canon)
                                    w_src.clear()
                                    if mark_gains:
                                        touched.add(seat)
                                    counts["takes"] += 1
                                if seat != leader:
                                    counts["lead_changes"] += 1
                                leader = seat
                                break
                            if renounce is not None:
                                self.plays = played
                                self.mover = mover
                                new = renounce(self, seat)
                                if new is not None:          # the trick is over; he (or another) leads
                                    if new != leader:
                                        counts["lead_changes"] += 1
                                    leader = new
                                    break
                                if self._hand_over:
                                    return
                                moves = legal(st, seat)[0]   # the effects may have changed his hand
                                if not moves:
                                    seat = nxt[seat]
                                    continue
                            else:
                                moves = hand
                            k = len(moves)
                            c = moves[int(uniform[seat]() * k)] if k > 1 else moves[0]
                            hand.remove(c)
                        k = table.get(c)
                        if k is None:
                            k = table[c] = tuple([f(self, seat, c) for f in keys])
                        if k > best_key:
                            best_seat, best_key = seat, k
                    mover = seat        # self.mover is written before anything reads it
                    trick.append(c)
                    played += 1
                    if played > max_plays:
                        raise _Unfinished()
                    if empty_hand_ends:
                        # the mover's hand, then any other hand changed since the last check
                        if not hand:
                            touched.add(seat)
                            self.plays = played
                            self.mover = mover
                            self._check_end(end_play, seat)
                            return
                        if touched:
                            for s in touched:
                                if not hands[s]:
                                    touched.add(seat)
                                    self.plays = played
                                    self.mover = mover
                                    if self._check_end(end_play, seat):
                                        return
                                    break
                            touched.clear()
                    elif end_play:
                        touched.add(seat)
                        self.plays = played
                        self.mover = mover
                        if self._check_end(end_play, seat):
                            return
                    seat = nxt[seat]
                else:               # everyone has played: the trick is won
                    if best_seat is None:
                        break
                    self.tricks_played += 1
                    counts["tricks"] += 1
                    won[best_seat] += 1
                    if won_seat is not None:
                        won_seat[best_seat].extend(trick)
                        if mark_gains:
                            touched.add(best_seat)
                    else:
                        (won_zone if won_zone is not None else pack).extend(trick)
                    trick.clear()
                    if best_seat != leader:
                        counts["lead_changes"] += 1
                    self.mover = mover = best_seat
                    leader = best_seat
                    if st.on_trick:
                        self.plays = played
                        self._effects(st.on_trick, best_seat)
                    self.led = None
                    if end_trick:
                        self.plays = played
                        if self._check_end(end_trick, best_seat):
                            return
                    continue
                if trick:           # a renounce broke the trick off
                    self._move_cards(trick, pack, None, "pack", src=trick)
            self.led = None
        finally:
            self.plays = played
            self.mover = mover
            if not mark_gains:
                touched.update(range(n))

    def _check_end(self, rules, mover: int) -> bool:
        """Check end conditions for every seat from ``mover`` on; a condition
        that reads only the seat's own card zones is checked only for seats
        whose zones changed since the last check."""
        n = self.n
        touched = self._touched
        order = None
        for rule in rules:
            test = rule.when.fn
            if rule.zone_only and len(touched) == 1:
                seats = touched
            else:
                order = order or [(mover + k) % n for k in range(n)]
                seats = order if not rule.zone_only else [x for x in order if x in touched]
            for s in seats:
                if test(self, s, None):
                    w = rule.winner(self, s) if rule.winner is not None else None
                    self.winner = w % n if isinstance(w, int) else w
                    self._hand_over = True
                    self.led = None
                    touched.clear()
                    return True
        touched.clear()
        return False

    def _step_sequence(self, st: Step):
        """Sequence play: each player in turn plays the card that follows the
        last one in its suit (by the step's order), obtained from the first
        place in ``obtain`` that holds it; when a run ends, a player begins a
        new one with any card of his hand. With ``wrap``, a run goes round the
        suit (past the top card to the lowest) until the whole suit is played."""
        n = self.n
        order = st.order
        suits: dict[str, list[Card]] = {}
        for c in sorted(self.pack_cards, key=lambda c: order.get(c, 0)):
            suits.setdefault(c.suit, []).append(c)
        played: set[Card] = set()
        end_play = [r for r in st.end if r.after == "play"]
        seat = st.leader.fn(self, None, None) % n if st.leader is not None else (self.dealer + 1) % n
        last: Card | None = None
        start: Card | None = None
        last_seat = seat
        while not self._hand_over:
            required = None
            if last is not None:
                run = suits[last.suit]
                i = run.index(last)
                for k in range(1, len(run)):
                    j = i + k
                    if j >= len(run):
                        if not st.wrap:
                            break
                        j -= len(run)
                    c = run[j]
                    if c is start:
                        break
                    if c not in played:
                        required = c
                        break
            self.mover = seat
            if required is None:
                if last is not None:
                    seat = last_seat if st.new_run == "last_player" else (last_seat + 1) % n
                    self.mover = seat
                if not self.hand[seat]:
                    break
                self.led = None
                if self._auto is not None:
                    c = self._ask(seat, list(self.hand[seat]))
                else:
                    c = yield Decision(seat, list(self.hand[seat]), "play")
                self.hand[seat].remove(c)
                src = "hand"
                start = c
                self.emit({"type": "run", "seat": seat, "suit": c.suit})
            else:
                src = None
                for zone, effects in st.obtain:
                    holder = None
                    if zone == "hand":
                        if required in self.hand[seat]:
                            self.hand[seat].remove(required)
                            src = "hand"
                    elif zone == "others":
                        for k in range(1, n):
                            o = (seat + k) % n
                            if required in self.hand[o]:
                                holder = o
                                break
                        if holder is not None:
                            self.hand[holder].remove(required)
                            self._touched.add(holder)
                            src = "borrow"
                            self._counts["borrows"] += 1
                            self.emit({"type": "borrow", "seat": seat, "from": holder, "card": required.name})
                            self.other = holder
                            self._effects(effects, seat)
                            self.other = None
                    elif zone in self.zones and required in self.zones[zone]:
                        self.zones[zone].remove(required)
                        src = zone
                        self._counts["draws"] += 1
                        self.emit({"type": "draw", "seat": seat, "from": zone, "card": required.name})
                        self._effects(effects, seat)
                    if src is not None:
                        break
                if src is None:
                    raise RuleError(f"{required} is nowhere the sequence may take it from", st.pos, code="runtime")
                c = required
            self.zones["trick"].append(c)
            played.add(c)
            self.led = c.suit
            self._count_play()
            self.emit({"type": "play", "seat": seat, "card": c.name, "from": src})
            last, last_seat = c, seat
            self._touched.add(seat)
            if end_play and self._check_end(end_play, seat):
                break
            seat = (seat + 1) % n
        self.led = None

    # -- effects and money -----------------------------------------------------------
    def _effects(self, effects: list[Effect], seat):
        """Run ``effects`` for ``seat``. Returns the seat that leads next if
        an ``end_trick`` effect ended the trick (the effects after it are not
        run), else None."""
        return self._runner(effects)(self, seat)

    def _runner(self, effects: list[Effect]) -> Callable[["State", Any], int | None]:
        """``effects`` as one function of (state, seat), built once per rule
        file (kept with the game): each effect a closure over its compiled
        expressions, so that running them looks nothing up by name."""
        runners = self.g.runners
        run = runners.get(id(effects))
        if run is None:
            run = runners[id(effects)] = _runner(effects)
        return run

    def _move_cards(self, cards: list, dst: list, seat, to_name: str, src: list | None = None):
        """Move ``cards`` into zone ``dst``. ``src`` is the zone they all come
        from when known (a whole zone moves when ``cards is src``); otherwise
        each card is looked for in every zone."""
        if not cards:
            return
        if src is not None and cards is src and src is not dst:
            moved = src[:] if self._logging else None
            dst.extend(src)
            src.clear()
        else:
            moved = list(cards)
            if src is not None and cards is src:
                src.clear()
            elif src is not None:
                for c in moved:
                    src.remove(c)
            else:
                for c in moved:
                    for zone in self._all_zones:
                        if c in zone:
                            zone.remove(c)
                            break
            dst.extend(moved)
        owner = self._zone_owner
        if id(src) in owner:
            self._touched.add(owner[id(src)])
        o = owner.get(id(dst))
        if o is not None:
            self._touched.add(o)
            if id(dst) in self._hand_ids:
                dst.sort(key=_canon)
        self._counts["takes"] += 1
        if self._logging:
            self.emit({"type": "take", "seat": seat, "cards": [c.name for c in moved], "to": to_name})

    def _money_totals(self) -> dict[str, int]:
        holders = self.bal.values()
        tot = {}
        for c in self.g.currencies:
            tot[c] = sum(map(itemgetter(c), holders))
        return tot

    def _pay(self, p: Payment, seat, bank: bool = False):
        """Make payment ``p``. With ``from: each`` (or ``to: each``) every seat
        in play order from the dealer's next pays (or is paid), ``seat`` bound
        to it in every expression; otherwise one payment, ``seat`` bound to the
        seat the rule is about (the player who borrowed, renounced …)."""
        n = self.n
        amount = p.amount.fn
        if p.payer is not None and p.payee is not None and not bank:     # one payment
            if p.where is None or p.where.fn(self, seat, None):
                self._transfer(p.payer.fn(self, seat, None), p.payee.fn(self, seat, None),
                               amount(self, seat, None), p.unit)
            return
        first = self.dealer + 1
        order = [(first + k) % n for k in range(n)]
        if bank:
            for t in (order if p.payee is None else [p.payee.fn(self, seat, None)]):
                amt = amount(self, t, None)
                self.bal[self._holder(t)][p.unit] += amt
                if self._logging:
                    self.emit({"type": "give", "to": self._holder(t), "amount": amt, "unit": p.unit})
            return
        payer = p.payer.fn if p.payer is not None else None
        payee = p.payee.fn if p.payee is not None else None
        where = p.where.fn if p.where is not None else None
        exclude = p.exclude.fn if p.exclude is not None else None
        unit, transfer = p.unit, self._transfer
        if p.ante is None:
            pools = set(self.g.pools)
            p.ante = (where is None and exclude is None and payer is None and p.payee is not None
                      and p.payee.names <= pools and not p.amount.names)
        if p.ante:
            # each seat pays a set amount to a set money zone (an ante): one evaluation, no calls per seat
            to, amt, bal = self._holder(payee(self, None, None)), amount(self, None, None), self.bal
            if amt > 0:
                for s in order:
                    if s != to:
                        bal[s][unit] -= amt
                        bal[to][unit] += amt
                        if self._logging:
                            self.emit({"type": "pay", "from": s, "to": to, "amount": amt, "unit": unit})
            return
        for s in order:
            if where is not None and not where(self, s, None):
                continue
            if exclude is not None and exclude(self, s, None) == s:
                continue
            transfer(s if payer is None else payer(self, s, None), s if payee is None else payee(self, s, None),
                     amount(self, s, None), unit)

    def _transfer(self, frm, to, amount: int, unit: str) -> None:
        if frm is None or to is None or amount <= 0:
            return
        bal = self.bal
        frm = frm % self.n if type(frm) is int else self._holder(frm)
        to = to % self.n if type(to) is int else self._holder(to)
        if frm == to:
            return
        bal[frm][unit] -= amount
        bal[to][unit] += amount
        if self._logging:
            self.emit({"type": "pay", "from": frm, "to": to, "amount": amount, "unit": unit})

    def _holder(self, h):
        if isinstance(h, int):
            return h % self.n
        if h in self.bal:
            return h
        raise RuleError(f"'{h}' cannot hold money", self._step_pos or Pos(self.g.doc.file, 1, 1), code="runtime")


def _runner(effects: list[Effect]) -> Callable[[State, Any], int | None]:
    """Only ``end_trick`` gives a seat back; the effects after an
    unconditional one are never run."""
    fns = [_effect_fn(e) for e in effects]
    ends = [i for i, e in enumerate(effects) if e.op == "end_trick"]
    if ends and all(effects[i].when is None and effects[i].at is None for i in ends):
        body, end = fns[:ends[0]], effects[ends[0]]
        ld = end.args["leader"]
        if ld is None or ld.text.strip() == "seat":       # the seat in hand leads: no call
            if len(body) == 1:
                only = body[0]

                def run(st, seat):
                    only(st, seat)
                    return seat
                run.whole = getattr(only, "whole", None)  # the move, then the seat leads
            else:
                def run(st, seat):
                    for f in body:
                        f(st, seat)
                    return seat
        else:
            last = fns[ends[0]]

            def run(st, seat):
                for f in body:
                    f(st, seat)
                return last(st, seat)
    elif not fns:
        def run(st, seat):
            return None
    elif len(fns) == 1:
        run = fns[0]
    else:
        def run(st, seat):
            for f in fns:
                r = f(st, seat)
                if r is not None:
                    return r
            return None
    return run


def _effect_fn(e: Effect) -> Callable[[State, Any], int | None]:
    op, a = e.op, e.args
    if op == "take":
        fsrc, fdst, test, to_name = a["from"].fn, a["to"].fn, a["cards"], a["to_name"]
        src_name, own = a["from_shared"], a["to_own"]
        if test is None and src_name is not None and own is not None:
            # the whole of a shared zone to a zone of the seat's own: no expression to evaluate
            def f(st, seat):
                src = st.zones[src_name]
                if not src:
                    return None
                dst = st.pzones[own][seat]
                moved = src[:] if st._logging else None
                dst.extend(src)
                src.clear()
                st._touched.add(seat)
                if dst is st.hand[seat]:
                    dst.sort(key=_canon)
                st._counts["takes"] += 1
                if moved is not None:
                    st.emit({"type": "take", "seat": seat, "cards": [c.name for c in moved], "to": to_name})
                return None
            f.whole = (src_name, own)     # for a loop that does this move itself
        elif test is None:
            def f(st, seat):
                src = fsrc(st, seat, None)
                st._move_cards(src, fdst(st, seat, None), seat, to_name, src)
        else:
            filt = test.filter

            def f(st, seat):
                src = fsrc(st, seat, None)
                st._move_cards(filt(st, seat, src), fdst(st, seat, None), seat, to_name, src)
    elif op == "end_trick":
        ld = a["leader"]
        if ld is None:
            def f(st, seat):
                return seat
        else:
            fld = ld.fn

            def f(st, seat):
                return fld(st, seat, None) % st.n
    elif op == "pay":
        payment = a["payment"]

        def f(st, seat):
            st._pay(payment, seat)
    else:
        items = list(a.items())

        def f(st, seat):
            for name, (per_seat, expr) in items:
                v = expr(st, seat)
                if per_seat:
                    target = st.pvars[name]
                    if op == "set":
                        target[seat] = v
                    else:
                        target[seat] += v
                else:
                    st.vars[name] = v if op == "set" else st.vars[name] + v
    if e.when is not None:
        inner, when = f, e.when

        def f(st, seat):
            if when(st, seat):
                return inner(st, seat)
            return None
    if e.at is not None:
        inner2, at = f, e.at

        def f(st, seat):
            seat = at(st, seat)
            if not isinstance(seat, int):
                raise RuleError(f"at: {at.text} names no seat here (it is {seat!r})", at.pos,
                                code="runtime")
            return inner2(st, seat)
    return f


def _short_loop_fits(st: Step) -> bool:
    """The tricks step can be played by the short loop (when the agents draw
    uniformly and nothing is logged): any card led, one follow tier that is
    ``card.suit == led``, winner keys that read only the card, led and trump."""
    fits = st.short_loop
    if fits is None:
        fits = st.short_loop = (st.lead_test is None and st.key_pure and len(st.must) == 1
                                and st.must[0].shape == "card.suit == led" and st.free is None)
    return fits


# the canonical order's sort key, read in C (no Python call per card)
_canon = attrgetter("canon")
# the canonical order puts the cards of each suit together: suit -> [first, last + 1) of their keys
_SUIT_SPAN = {s: (i * len(RANKS), (i + 1) * len(RANKS)) for i, s in enumerate(SUITS)}
