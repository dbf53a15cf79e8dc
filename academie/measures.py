"""Design measures of simulated play, and the statistics to compare them.

One game is read as it is played: the state calls back at each hand's start
and end (``State(on_hand=…)``, no event built, the agents asked inside the
rules' loops), where the game's counters, ``State.stats``, are cut into hands
and every seat's running score is read. ``Reader`` (what ``simulate`` and
``run_design`` use) keeps running totals of the game and folds them into a
``Design`` at its end; ``game_measures`` gives the same as a record per hand;
``measures_from_log`` is the old reading, by an event sink, kept as the
reference they are tested against. ``Design`` folds
games into exact totals (integers and fractions), so that totals of chunks
played on other processes merge into the same numbers in any order: the same
seed gives the same report for any number of workers. Game ``i`` uses the seed
``game_seed(seed, i)`` of ``interpreter.simulate``: two games compared are
played on the same seeds.

The measures and their names (Ludii's and RECYCLE's where they are the same)
are defined in docs/measures.md. Intervals, all at 95 %: a proportion of games
has a Wilson score interval; a mean over games is mean ± 1.96·SE; a mean or a
proportion over hands is a ratio of per-game totals, with the cluster-robust
(linearised) SE of a ratio estimator, so that the hands of one game count as
one cluster; a difference of two proportions has Newcombe's hybrid score
interval, a difference of two means ± 1.96·sqrt(SE_a² + SE_b²).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import repeat
from operator import itemgetter
from typing import Callable

from .dsl.errors import RuleError
from .dsl.model import GameDef
from .interpreter.agents import agent_maker, make_agents, play
from .interpreter.simulate import game_seed
from .interpreter.state import DEFAULT_MAX_PLAYS, State

Z = 1.959964
HAND_COUNTERS = ("plays", "tricks", "takes", "borrows", "draws", "lead_changes", "declarations")
_counters = itemgetter(*HAND_COUNTERS)  # a hand's counters, in that order


def game_measures(
    game: GameDef,
    players: int,
    seed,
    agents=("random",),
    max_plays: int = DEFAULT_MAX_PLAYS,
    agent_list=None,
    keep_state: bool = False,
) -> dict:
    """Play one game; return its measures: per hand (the counters of
    ``State.stats`` within the hand, its dealer, its winner, every seat's
    running score at its end), and per game (the first dealer, the winners,
    the final scores, whether the play limit stopped it). ``agent_list``:
    agents already made (else ``agents`` are made by name for the seed);
    ``keep_state``: the finished State too, as "state".

    Read as the game is played: the state calls back at each hand's start and
    end (``State(on_hand=…)``), no event is built, and agents that draw
    uniformly are asked inside the rules' loops as in ``simulate`` (the same
    games, at the same speed). ``measures_from_log`` is the same measures
    read from the game's events."""
    hands: list[dict] = []
    first_dealer: list[int] = []
    start: list = [None, 0, 0, 0, 0, 0, 0, 0]  # the dealer, then the counters at the hand's start
    score = game.standings.fn if game.standings is not None else None
    seats, nones = range(players), (None,) * players

    def on_hand(st: State, end: bool) -> None:
        c = st.counts
        if not end:
            if not first_dealer:
                first_dealer.append(st.dealer)
            start[:] = _hand_start(st, c)
            return
        unfinished = st.unfinished  # set when the play limit stops the hand, before this call
        h = {
            "plays": st.plays - start[1],
            "tricks": c["tricks"] - start[2],
            "takes": c["takes"] - start[3],
            "borrows": c["borrows"] - start[4],
            "draws": c["draws"] - start[5],
            "lead_changes": c["lead_changes"] - start[6],
            "declarations": c["declarations"] - start[7],
            "dealer": start[0],
            "winner": None if unfinished else st.winner,
            "unfinished": unfinished,
        }
        if score is not None and not unfinished:
            h["scores"] = list(map(score, repeat(st, players), seats, nones))
        hands.append(h)

    ags = agent_list if agent_list is not None else make_agents(list(agents), players, seed)
    if any(getattr(a, "needs_api", False) for a in ags):  # players that search: asked between moves
        st = play(
            State(game, players, seed, max_plays=max_plays, keep_events=False, on_hand=on_hand, check="hand"), ags
        )
    else:
        st = State(
            game, players, seed, max_plays=max_plays, keep_events=False, on_hand=on_hand, check="hand", agents=ags
        )
    return _game_dict(st, players, hands, first_dealer, keep_state)


def _game_dict(st: State, n: int, hands: list, first_dealer: list, keep_state: bool) -> dict:
    top = [r["seat"] for r in st.standings if r["rank"] == 1]
    fd = first_dealer[0] if first_dealer else 0
    out = {
        "hands": hands,
        "first_dealer": fd,
        "winners": top,
        "returns": st.returns(),
        "plays": st.plays,
        "unfinished": st.unfinished,
        # winners as positions after the first dealer: 1 = eldest hand, n = the dealer
        "winner_positions": [((s - fd - 1) % n) + 1 for s in top],
    }
    if keep_state:
        out["state"] = st
    return out


def measures_from_log(
    game: GameDef,
    players: int,
    seed,
    agents=("random",),
    max_plays: int = DEFAULT_MAX_PLAYS,
    agent_list=None,
    keep_state: bool = False,
) -> dict:
    """``game_measures`` read from the game's events (``hand_start``,
    ``hand_end``) by an event sink, the agents asked by ``play`` between moves:
    the reference the measures read as the game is played are held to (a
    test), and what ``benchmarks/measures.py`` times them against."""
    hands: list[dict] = []
    cur: dict = {}
    first_dealer: list[int] = []
    st_ref: list[State] = []
    score = game.standings.fn if game.standings is not None else None

    def sink(ev):
        t = ev["type"]
        if t == "hand_start":
            if not first_dealer:
                first_dealer.append(ev["dealer"])
            cur.clear()
            cur.update(dealer=ev["dealer"], start=dict(st_ref[0].stats) if st_ref else {})
        elif t == "hand_end":
            st = st_ref[0] if st_ref else None
            stats = st.stats if st is not None else {}  # no decision yet: nothing counted
            start = cur.get("start", {})
            h = {k: stats.get(k, 0) - start.get(k, 0) for k in HAND_COUNTERS}
            h.update(dealer=cur.get("dealer"), winner=ev.get("winner"), unfinished=ev.get("reason") == "unfinished")
            if st is not None and score is not None and not h["unfinished"]:
                h["scores"] = [score(st, s, None) for s in range(players)]
            hands.append(h)

    # State runs the rules up to the first decision in its constructor: the sink
    # must find the state; stats start at zero, so an empty start is exact.
    st = State(game, players, seed, max_plays=max_plays, keep_events=False, sink=sink, check="hand")
    st_ref.append(st)
    play(st, agent_list if agent_list is not None else make_agents(list(agents), players, seed))
    return _game_dict(st, players, hands, first_dealer, keep_state)


def leaders(scores: list) -> frozenset:
    best = max(scores)
    return frozenset(s for s, v in enumerate(scores) if v == best)


def game_curve(m: dict) -> list[frozenset]:
    """The leaders (the seats with the highest running score) after each hand,
    the final standings last in place of the last hand's."""
    pts = [leaders(h["scores"]) for h in m["hands"] if "scores" in h]
    if m["hands"] and not m["unfinished"]:
        final = frozenset(m["winners"])
        pts = pts[:-1] + [final] if pts else [final]
    return pts


def lead_change(curve: list[frozenset]) -> Fraction | None:
    """Ludii's LeadChange over hands: the times the set of leaders changes from
    one hand's end to the next, over the hand ends after the first."""
    p = _lead_change(curve)
    return None if p is None else Fraction(*p)


def drama(curve: list[frozenset], winner: int) -> Fraction | None:
    """Ludii's Drama (counted in hands): the share of the hand ends before the
    last at which the final winner is not among the leaders."""
    p = _drama(curve, winner)
    return None if p is None else Fraction(*p)


def decisiveness(curve: list[frozenset], winner: int) -> Fraction | None:
    """Ludii's DecisivenessMoves (counted in hands): the share of the game's
    hands played when the final winner becomes the sole leader for good
    (1: only the last hand decided it). Games of one hand have none."""
    p = _decisiveness(curve, winner)
    return None if p is None else Fraction(*p)


# the three as (numerator, denominator), for the totals (no fraction made)
def _lead_change(curve: list[frozenset]) -> tuple[int, int] | None:
    if len(curve) < 2:
        return None
    return sum(a != b for a, b in zip(curve, curve[1:])), len(curve) - 1


def _drama(curve: list[frozenset], winner: int) -> tuple[int, int] | None:
    if len(curve) < 2:
        return None
    before = curve[:-1]
    return sum(winner not in c for c in before), len(before)


def _decisiveness(curve: list[frozenset], winner: int) -> tuple[int, int] | None:
    if len(curve) < 2:
        return None
    k = len(curve)
    sole = frozenset((winner,))
    while k > 0 and curve[k - 1] == sole:
        k -= 1
    return min(k + 1, len(curve)), len(curve)


# -- exact running totals -------------------------------------------------------------------
class Sums:
    """Σx, Σx² (and n) of a per-game quantity, exact. Whole numbers are summed
    as integers and fractions as integer numerators per denominator (``add``
    costs no fraction arithmetic); ``s`` and ``ss`` are the exact totals."""

    __slots__ = ("n", "_i", "_ii", "_f", "_ff")

    def __init__(self):
        self.n = self._i = self._ii = 0
        self._f: dict = {}  # denominator -> Σ numerators
        self._ff: dict = {}  # denominator² -> Σ numerators²

    def add(self, x) -> None:
        self.n += 1
        if type(x) is int:
            self._i += x
            self._ii += x * x
        else:
            if not isinstance(x, Fraction):
                x = Fraction(x)
            self._add_part(x.numerator, x.denominator)

    def add_ratio(self, num: int, den: int) -> None:
        """``add(Fraction(num, den))``, without making the fraction."""
        self.n += 1
        self._add_part(num, den)

    def _add_part(self, num: int, den: int) -> None:
        f, ff = self._f, self._ff
        f[den] = f.get(den, 0) + num
        d2 = den * den
        ff[d2] = ff.get(d2, 0) + num * num

    @property
    def s(self) -> Fraction:
        return self._i + sum((Fraction(v, d) for d, v in self._f.items()), Fraction(0))

    @property
    def ss(self) -> Fraction:
        return self._ii + sum((Fraction(v, d) for d, v in self._ff.items()), Fraction(0))

    def merge(self, o: "Sums") -> None:
        self.n += o.n
        self._i += o._i
        self._ii += o._ii
        for mine, theirs in ((self._f, o._f), (self._ff, o._ff)):
            for d, v in theirs.items():
                mine[d] = mine.get(d, 0) + v

    def ci(self) -> dict:
        """mean ± 1.96·SE over the games."""
        n = self.n
        if n == 0:
            return {"mean": None, "low": None, "high": None, "se": None, "n": 0}
        m = self.s / n
        var = (self.ss - n * m * m) / (n - 1) if n > 1 else Fraction(0)
        se = math.sqrt(max(0.0, float(var)) / n)
        return {"mean": float(m), "low": float(m) - Z * se, "high": float(m) + Z * se, "se": se, "n": n}


class Ratio:
    """A per-hand mean or share as a ratio of per-game totals Σx_g / Σh_g, its
    SE cluster-robust: each game is one cluster of hands (the linearised
    variance of a ratio estimator). Exact integer totals."""

    __slots__ = ("g", "x", "h", "xx", "hh", "xh")

    def __init__(self):
        self.g = self.x = self.h = self.xx = self.hh = self.xh = 0

    def add(self, x: int, h: int) -> None:
        self.g += 1
        self.x += x
        self.h += h
        self.xx += x * x
        self.hh += h * h
        self.xh += x * h

    def merge(self, o: "Ratio") -> None:
        for k in self.__slots__:
            setattr(self, k, getattr(self, k) + getattr(o, k))

    def value(self):
        if not self.h:
            return None, None
        r = Fraction(self.x, self.h)
        g = self.g
        if g < 2:
            return r, 0.0
        # Σ (x_g - r h_g)² = Σx² - 2rΣxh + r²Σh²
        resid = self.xx - 2 * r * self.xh + r * r * self.hh
        var = Fraction(g, g - 1) * resid / (self.h * self.h)
        return r, math.sqrt(max(0.0, float(var)))

    def ci(self) -> dict:
        r, se = self.value()
        if r is None:
            return {"mean": None, "low": None, "high": None, "se": None, "n": 0, "games": self.g}
        m = float(r)
        return {"mean": m, "low": m - Z * se, "high": m + Z * se, "se": se, "n": self.h, "games": self.g}

    def share(self) -> dict:
        """As a proportion: Wilson's interval on the effective number of hands
        (the hands divided by the design effect of their clustering)."""
        r, se = self.value()
        if r is None:
            return {"p": None, "low": None, "high": None, "n": 0, "games": self.g}
        p = float(r)
        neff = self.h
        if se and 0 < p < 1:
            neff = min(self.h, max(1.0, p * (1 - p) / (se * se)))
        _, lo, hi = wilson(p * neff, neff)
        return {"p": p, "low": lo, "high": hi, "n": self.h, "effective_n": round(neff, 1), "games": self.g}


@dataclass
class Design:
    """The design measures of many games of one rule file at ``players``
    seats, as exact totals that merge in any order. ``agents``: the agent's
    name at each seat (for the shares won by each kind of player)."""

    players: int
    agents: tuple = ()
    games: int = 0
    unfinished: int = 0
    # games won by seat, a tie of k sharing the game, in units of 1/lcm(1 … players) (whole numbers)
    seat_wins: list = field(default_factory=list)
    position_wins: list = field(default_factory=list)  # the same by position from the first dealer
    agent_share: dict = field(default_factory=dict)  # agent name -> Sums of its per-seat share of a game
    scores: list = field(default_factory=list)  # Sums of the final score, by seat
    per_game: dict = field(default_factory=dict)  # name -> Sums (plays, hands, lead_change, drama, decisiveness)
    per_hand: dict = field(default_factory=dict)  # counter -> Ratio over hands
    hand_shares: dict = field(default_factory=dict)  # eldest / dealer -> Ratio of hands won
    histograms: dict = field(default_factory=dict)  # plays / tricks -> Counter of the hands' values
    outcomes: Counter = field(default_factory=Counter)  # the winners' positions of a finished game -> games

    def __post_init__(self):
        n = self.players
        self._unit = math.lcm(*range(1, n + 1))  # a game won, in the units of seat_wins
        names = (self.agents if len(self.agents) == n else self.agents * n) if self.agents else ()
        # (kind of agent, its seats), the kinds in order of their names
        self._groups = [(a, frozenset(s for s in range(n) if names[s] == a)) for a in sorted(set(names))]
        self.seat_wins = self.seat_wins or [0] * n
        self.position_wins = self.position_wins or [0] * n
        self.scores = self.scores or [Sums() for _ in range(n)]
        for k in ("plays", "hands", "lead_change", "drama", "decisiveness"):
            self.per_game.setdefault(k, Sums())
        for k in HAND_COUNTERS:
            self.per_hand.setdefault(k, Ratio())
        for k in ("eldest", "dealer"):
            self.hand_shares.setdefault(k, Ratio())
        for k in ("plays", "tricks"):
            self.histograms.setdefault(k, Counter())

    def add(self, m: dict) -> None:
        """Fold one game's measures (``game_measures``)."""
        n = self.players
        hands = m["hands"]
        done = [h for h in hands if not h["unfinished"]]
        nd = len(done)
        if nd == 1:  # most games
            totals = list(_counters(done[0]))
        else:
            totals = list(map(sum, zip(*map(_counters, done)))) if nd else [0] * len(HAND_COUNTERS)
        for key, hist in self.histograms.items():
            for h in done:
                hist[h[key]] += 1
        eldest = dealer = decided = 0
        for h in done:
            hw = h["winner"]
            if hw is not None:
                decided += 1
                eldest += hw == (h["dealer"] + 1) % n
                dealer += hw == h["dealer"]
        unfinished = m["unfinished"]
        curve = game_curve(m) if len(hands) > 1 and not unfinished else None
        self._fold(
            m["plays"],
            len(hands),
            totals,
            nd,
            eldest,
            dealer,
            decided,
            unfinished,
            m["returns"],
            m["winners"],
            m["winner_positions"],
            curve,
        )

    def _fold(
        self, plays, hands, totals, nd, eldest, dealer, decided, unfinished, returns, winners, positions, curve
    ) -> None:
        """One game: its plays and hands; over its finished hands, the counters' totals, the hands,
        those won by the seat after the dealer and by the dealer, those with a winner; whether the
        play limit stopped it; then, if not, the final scores, the winners, their positions, and the
        leaders after each hand (``game_curve``; None for a game of one hand)."""
        self.games += 1
        self.unfinished += bool(unfinished)
        self.per_game["plays"].add(plays)
        self.per_game["hands"].add(hands)
        per_hand = self.per_hand
        for k, total in zip(HAND_COUNTERS, totals):
            per_hand[k].add(total, nd)
        self.hand_shares["eldest"].add(eldest, decided)
        self.hand_shares["dealer"].add(dealer, decided)
        if unfinished:
            return
        for s, v in enumerate(returns):
            self.scores[s].add(v)
        tie = len(winners)
        w = self._unit // tie  # a tie of k: 1/k to each, in units of 1/unit
        for s in winners:
            self.seat_wins[s] += w
        for p in positions:
            self.position_wins[p - 1] += w
        self.outcomes[tuple(sorted(positions))] += 1
        if self.agents:
            for name, seats in self._groups:
                # the kind's share of the game: (its seats among the winners) / k, over its seats
                self.agent_share.setdefault(name, Sums()).add_ratio(sum(s in seats for s in winners), tie * len(seats))
        if curve is None:  # one hand: no course of the game (lead change, drama, decisiveness)
            return
        lc = _lead_change(curve)
        if lc is not None:
            self.per_game["lead_change"].add_ratio(*lc)
        if tie == 1:
            for key, f in (("drama", _drama), ("decisiveness", _decisiveness)):
                v = f(curve, winners[0])
                if v is not None:
                    self.per_game[key].add_ratio(*v)

    def merge(self, o: "Design") -> None:
        self.games += o.games
        self.unfinished += o.unfinished
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, o.seat_wins)]
        self.position_wins = [a + b for a, b in zip(self.position_wins, o.position_wins)]
        for a, b in zip(self.scores, o.scores):
            a.merge(b)
        for name, s in o.agent_share.items():
            self.agent_share.setdefault(name, Sums()).merge(s)
        for k, hist in o.histograms.items():
            self.histograms[k].update(hist)
        self.outcomes.update(o.outcomes)
        for d, od in ((self.per_game, o.per_game), (self.per_hand, o.per_hand), (self.hand_shares, o.hand_shares)):
            for k, v in od.items():
                d[k].merge(v)

    def wins(self) -> tuple[list[Fraction], list[Fraction]]:
        """Games won by seat and by position (exact; a tie of k counts 1/k to each)."""
        u = self._unit
        return [Fraction(w, u) for w in self.seat_wins], [Fraction(w, u) for w in self.position_wins]

    # -- the report ------------------------------------------------------------------------
    def report(self) -> dict:
        n = self.players
        finished = self.games - self.unfinished
        seat_wins, position_wins = self.wins()
        seats = [_prop(w, finished) for w in seat_wins]
        positions = [_prop(w, finished) for w in position_wins]
        chi2, df, pval = fairness_test(position_wins, finished)
        rates = [float(w / finished) for w in position_wins] if finished else []
        out = {
            "games": self.games,
            "players": n,
            "completion": _prop(finished, self.games),
            "timeouts": _prop(self.unfinished, self.games),
            "win_share_by_seat": seats,
            "win_share_by_position": positions,
            "balance": (1 - (max(rates) - min(rates))) if rates else None,
            "balance_interval": balance_interval(self.outcomes, n),
            "fairness": {"chi2": chi2, "df": df, "p_value": pval},
            "advantage_first_player": positions[0] if positions else None,
            "advantage_dealer": positions[-1] if positions else None,
            "hands_won_by_first_leader": self.hand_shares["eldest"].share(),
            "hands_won_by_dealer": self.hand_shares["dealer"].share(),
            "duration": {
                "plays_per_game": self.per_game["plays"].ci(),
                "hands_per_game": self.per_game["hands"].ci(),
                "plays_per_hand": self.per_hand["plays"].ci(),
            },
            "lead_change": self.per_game["lead_change"].ci(),
            "drama": self.per_game["drama"].ci(),
            "decisiveness": self.per_game["decisiveness"].ci(),
            "per_hand": {k: self.per_hand[k].ci() for k in HAND_COUNTERS},
            "mean_score_by_seat": [s.ci() for s in self.scores],
        }
        if self.agent_share:
            out["win_share_by_agent"] = {
                k: {**v.ci(), "even": 1 / n, "seats": self._seats_of(k)} for k, v in sorted(self.agent_share.items())
            }
        return out

    def _seats_of(self, name: str) -> list[int]:
        names = self.agents if len(self.agents) == self.players else self.agents * self.players
        return [s for s in range(self.players) if names[s] == name]


BOOTSTRAP = 2000  # resamplings of the games for the interval of Balance


def balance_interval(outcomes: Counter, n: int) -> dict | None:
    """A 95% interval for Balance: the percentile interval of a bootstrap
    over the finished games (their outcomes drawn again, as many, with
    replacement), from a fixed generator: the same totals give the same
    interval, however they were gathered."""
    import numpy as np

    games = sum(outcomes.values())
    if games < 2:
        return None
    keys = sorted(outcomes)
    w = np.zeros((len(keys), n))
    for i, k in enumerate(keys):
        for pos in k:
            w[i, pos - 1] += 1 / len(k)
    probs = np.array([outcomes[k] for k in keys], dtype=float) / games
    draws = np.random.default_rng(20261130).multinomial(games, probs, size=BOOTSTRAP)
    shares = draws @ w / games
    bal = 1 - (shares.max(axis=1) - shares.min(axis=1))
    lo, hi = np.percentile(bal, [2.5, 97.5])
    return {"low": float(lo), "high": float(hi), "resamples": BOOTSTRAP}


def _prop(k, n) -> dict:
    p, lo, hi = wilson(float(k), n)
    return {
        "p": None if n <= 0 else p,
        "low": None if n <= 0 else lo,
        "high": None if n <= 0 else hi,
        "k": float(k),
        "n": n,
    }


def fairness_test(wins: list, games: int) -> tuple:
    """Pearson's χ² of the wins by position against an even share
    (df = positions - 1) and its p-value; ties shared, so approximate."""
    n = len(wins)
    if games <= 0 or n < 2:
        return None, None, None
    e = games / n
    chi2 = sum((float(w) - e) ** 2 / e for w in wins)
    return chi2, n - 1, chi2_sf(chi2, n - 1)


def chi2_sf(x: float, k: int) -> float:
    """P(χ²_k ≥ x) for a whole number of degrees of freedom k (closed forms)."""
    if x <= 0:
        return 1.0
    h = x / 2
    if k % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, k // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    term = math.sqrt(h) / math.gamma(1.5)  # i = 1: h^(1/2) / Γ(3/2)
    for i in range(1, (k + 1) // 2):
        total += math.exp(-h) * term
        term *= h / (i + 0.5)
    return min(1.0, total)


# -- skill ------------------------------------------------------------------------------------
@dataclass
class Skill:
    """One strong player among weak ones, its seat turning with the game
    index (game i: seat i mod n): its share of the games won (ties shared)
    and its score less the weak players' mean score, per game."""

    players: int
    strong: str = ""
    weak: str = ""
    games: int = 0
    unfinished: int = 0
    won: Fraction = Fraction(0)
    margin: Sums = field(default_factory=Sums)

    def add(self, strong_seat: int, m: dict) -> None:
        self.games += 1
        if m["unfinished"]:
            self.unfinished += 1
            return
        if strong_seat in m["winners"]:
            self.won += Fraction(1, len(m["winners"]))
        r = m["returns"]
        weak = [v for s, v in enumerate(r) if s != strong_seat]
        self.margin.add(Fraction(r[strong_seat]) - Fraction(sum(weak), len(weak)))

    def merge(self, o: "Skill") -> None:
        self.games += o.games
        self.unfinished += o.unfinished
        self.won += o.won
        self.margin.merge(o.margin)

    def report(self) -> dict:
        n = self.players
        finished = self.games - self.unfinished
        share = _prop(self.won, finished)
        luck = luck_interval = None
        if share["p"] is not None:
            # 1: the strong player wins no more than an equal one would (pure luck); 0: it always wins
            luck = (1 - share["p"]) / (1 - 1 / n)
            luck_interval = {"low": (1 - share["high"]) / (1 - 1 / n), "high": (1 - share["low"]) / (1 - 1 / n)}
        return {
            "strong": self.strong,
            "weak": self.weak,
            "games": self.games,
            "unfinished": self.unfinished,
            "even": 1 / n,
            "strong_win_share": share,
            "strong_loses": _prop(finished - self.won, finished),
            "luck": luck,
            "luck_interval": luck_interval,
            "score_margin": self.margin.ci(),
        }


class DesignCollector:
    """The design measures of a simulation (``interpreter.simulate.Job.collector``):
    plays each game with a ``Reader`` and folds it into a ``Design``."""

    def __init__(self, job):
        self.job = job
        self.design = Design(job.players, tuple(_seat_names(job.agents, job.players)))
        self.maker = agent_maker(list(job.agents), job.players)  # the spec read once per chunk
        self.reader: Reader | None = None

    def play(self, game: GameDef, seed, i: int) -> State:
        r = self.reader
        if r is None or r.game is not game:
            r = self.reader = Reader(self.design, game)
        return r.play(seed, self.maker(seed), self.job.max_plays)

    def merge(self, other: "DesignCollector") -> None:
        self.design.merge(other.design)

    def __getstate__(self) -> dict:
        """Its totals go back from a worker process; the agents' maker and the reader (which holds
        the compiled rules) stay there."""
        return {"job": self.job, "design": self.design}

    def __setstate__(self, state: dict) -> None:
        self.job, self.design = state["job"], state["design"]
        self.maker = agent_maker(list(self.job.agents), self.job.players)
        self.reader = None


class Reader:
    """The measures of one game after another, read as each is played (the
    state's call at each hand's start and end, ``State(on_hand=…)``) into
    running totals of the game, and folded into ``design`` at its end: what
    ``game_measures`` gives, without the hands' records (the same totals: a
    test holds them to the measures read from the log)."""

    def __init__(self, design: Design, game: GameDef):
        self.design, self.game = design, game
        n = self.n = design.players
        self.score = game.standings.fn if game.standings is not None else None
        self.seats, self.nones = range(n), (None,) * n
        self.plays_hist, self.tricks_hist = design.histograms["plays"], design.histograms["tricks"]
        self.start: tuple = ()

    def play(self, seed, agents: list, max_plays: int) -> State:
        self.first_dealer: int | None = None
        self.hands = self.done = self.eldest = self.dealer_won = self.decided = 0
        self.totals = [0] * len(HAND_COUNTERS)
        self.leaders: list[frozenset] = []
        g, n = self.game, self.n
        if any(getattr(a, "needs_api", False) for a in agents):  # players that search: asked between moves
            st = play(
                State(g, n, seed, max_plays=max_plays, keep_events=False, on_hand=self.on_hand, check="hand"), agents
            )
        else:
            st = State(
                g, n, seed, max_plays=max_plays, keep_events=False, on_hand=self.on_hand, check="hand", agents=agents
            )
        winners = [r["seat"] for r in st.standings if r["rank"] == 1]
        fd = self.first_dealer or 0
        curve = None
        if self.hands > 1 and not st.unfinished:  # the final standings in place of the last hand's leaders
            pts = self.leaders
            final = frozenset(winners)
            curve = pts[:-1] + [final] if pts else [final]
        self.design._fold(
            st.plays,
            self.hands,
            self.totals,
            self.done,
            self.eldest,
            self.dealer_won,
            self.decided,
            st.unfinished,
            st.returns(),
            winners,
            [((s - fd - 1) % n) + 1 for s in winners],
            curve,
        )
        return st

    def on_hand(self, st: State, end: bool) -> None:
        c = st.counts
        if not end:
            if self.first_dealer is None:
                self.first_dealer = st.dealer
            self.start = _hand_start(st, c)
            return
        self.hands += 1
        if st.unfinished:  # the hand the play limit stopped: counted as a hand, not measured
            return
        dealer, p0, t0, k0, b0, d0, l0, x0 = self.start
        plays, tricks = st.plays - p0, c["tricks"] - t0
        tot = self.totals
        tot[0] += plays
        tot[1] += tricks
        tot[2] += c["takes"] - k0
        tot[3] += c["borrows"] - b0
        tot[4] += c["draws"] - d0
        tot[5] += c["lead_changes"] - l0
        tot[6] += c["declarations"] - x0
        self.done += 1
        self.plays_hist[plays] += 1
        self.tricks_hist[tricks] += 1
        w = st.winner
        if w is not None:
            self.decided += 1
            self.eldest += w == (dealer + 1) % self.n
            self.dealer_won += w == dealer
        if self.score is not None:
            sc = list(map(self.score, repeat(st, self.n), self.seats, self.nones))
            best = max(sc)
            self.leaders.append(frozenset([s for s, v in enumerate(sc) if v == best]))


def check_agent_specs(specs: list[str], players: int | None = None) -> None:
    """Raise ValueError, said plainly, unless ``specs`` name agents the engine
    can make (each alone; with ``players``, also one for all seats or one per
    seat) and none of them is a human."""
    if "human" in specs:
        raise ValueError("measures are played without a human")
    for spec in specs:
        make_agents([spec], 1, "check")
    if players is not None and len(specs) not in (1, players):
        raise ValueError(f"{len(specs)} agents for {players} players: give one, or one per seat")


# -- running ----------------------------------------------------------------------------------
def _seat_names(agents, players: int) -> list[str]:
    names = list(agents)
    return names * players if len(names) == 1 else names


def run_design(game: GameDef, players: int, start: int, stop: int, seed, agents, max_plays: int) -> Design:
    d = Design(players, tuple(_seat_names(agents, players)))
    maker, reader = agent_maker(list(agents), players), Reader(d, game)
    for i in range(start, stop):
        s = game_seed(seed, i)
        reader.play(s, maker(s), max_plays)
    return d


def skill_agents(strong: str, weak: str, players: int, i: int) -> list[str]:
    """The seats of game i of a skill run: the strong player at seat i mod n."""
    names = [weak] * players
    names[i % players] = strong
    return names


def run_skill(game: GameDef, players: int, start: int, stop: int, seed, strong: str, weak: str, max_plays: int):
    k = Skill(players, strong, weak)
    for i in range(start, stop):
        s = game_seed(seed, i)
        m = game_measures(game, players, s, skill_agents(strong, weak, players, i), max_plays)
        k.add(i % players, m)
    return k


_LOADED: dict = {}


def _load(ref: str, options: tuple, limits=None) -> GameDef:
    key = (ref, options, limits)
    if key not in _LOADED:
        from .dsl.model import load_game

        _LOADED[key] = load_game(ref, list(options), limits)
    return _LOADED[key]


def _chunk(task: tuple) -> tuple:
    """Games a … b-1 of a task: (a, totals), or (a, diagnostics) of a rule
    error (they pickle; the exception would lose its position)."""
    kind, ref, options, limits, players, a, b, seed, agents, max_plays = task
    try:
        g = _load(ref, options, limits)
        if kind == "design":
            return a, run_design(g, players, a, b, seed, agents, max_plays)
        strong, weak = agents
        return a, run_skill(g, players, a, b, seed, strong, weak, max_plays)
    except RuleError as e:
        return a, e.diagnostics


def _merge(total, part) -> None:
    if isinstance(part, (Design, Skill)):
        total.merge(part)
    else:
        raise RuleError(part)


def measure(
    kind: str,
    ref: str,
    options: tuple,
    players: int,
    games: int,
    seed,
    agents,
    max_plays: int = DEFAULT_MAX_PLAYS,
    workers: int | None = 1,
    limits=None,
    game: GameDef | None = None,
    chunk: int | None = None,
    on_progress: Callable[[int], None] | None = None,
):
    """Play games 0 … games-1 and fold them: ``kind`` "design" (a ``Design``,
    ``agents`` by seat) or "skill" (a ``Skill``, ``agents`` = (strong, weak)).
    On ``workers`` processes, each loading the rules by ``ref`` and
    ``options``; the totals are exact, so any ``workers`` gives the same.
    ``on_progress(k)`` is called as each chunk of k games is folded in."""
    if game is not None:
        _LOADED[(ref, tuple(options), limits)] = game
    if workers is None:
        import os

        workers = os.cpu_count() or 1
    # about 16 chunks per worker (balance), at most 10,000 games each: the chunks are made as they are sent
    size = chunk or max(1, min(10_000, games // (max(1, workers) * 16)))
    count = -(-games // size)
    tasks = (
        (kind, ref, tuple(options), limits, players, a, min(a + size, games), seed, tuple(agents), max_plays)
        for a in range(0, games, size)
    )
    total: Design | Skill
    if kind == "design":
        total = Design(players, tuple(_seat_names(agents, players)))
    else:
        total = Skill(players, agents[0], agents[1])
    sizes = (min(a + size, games) - a for a in range(0, games, size))  # the chunks come back in order
    if workers <= 1 or count <= 1:
        for _, part in map(_chunk, tasks):
            _merge(total, part)
            if on_progress is not None:
                on_progress(next(sizes))
        return total
    from multiprocessing import Pool

    # the workers ignore Ctrl-C: this process gets it, and leaving the block terminates them
    with Pool(min(workers, count), initializer=_ignore_interrupts) as pool:
        for _, part in pool.imap(_chunk, tasks):
            _merge(total, part)
            if on_progress is not None:
                on_progress(next(sizes))
        pool.close()
        pool.join()
    return total


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


# -- statistics ---------------------------------------------------------------------------
def wilson(k: float, n: int, z: float = Z) -> tuple[float, float, float]:
    """(p, low, high): the Wilson score interval of k successes in n."""
    if n <= 0:
        return (float("nan"),) * 3
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(xs: list[float], z: float = Z) -> tuple[float, float, float, float]:
    """(mean, low, high, se): mean ± z·SE."""
    n = len(xs)
    if n == 0:
        return (float("nan"),) * 4
    m = sum(xs) / n
    if n == 1:
        return m, m, m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    se = math.sqrt(var / n)
    return m, m - z * se, m + z * se, se


def newcombe(k1, n1, k2, n2) -> tuple[float, float, float]:
    """(d, low, high): p2 - p1 with Newcombe's hybrid score interval."""
    p1, l1, u1 = wilson(k1, n1)
    p2, l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def mean_diff(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """(d, low, high): mean(b) - mean(a) ± 1.96·sqrt(SE_a² + SE_b²)."""
    ma, _, _, sa = mean_ci(a)
    mb, _, _, sb = mean_ci(b)
    d = mb - ma
    h = Z * math.sqrt(sa * sa + sb * sb)
    return d, d - h, d + h


def _hand_start(st, c) -> tuple:
    """What a hand's measures are reckoned from: the dealer, and the state's running counts when it begins."""
    return (
        st.dealer,
        st.plays,
        c["tricks"],
        c["takes"],
        c["borrows"],
        c["draws"],
        c["lead_changes"],
        c["declarations"],
    )
