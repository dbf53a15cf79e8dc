"""The totals of a measuring run: ``Design`` folds games into exact totals
(integers and fractions), so that totals of chunks played on other processes
merge into the same numbers in any order, and reports them with their
intervals; ``Skill`` does the same for a skill run; and the course of a game
(who leads after each hand) that the lead change, drama and decisiveness are
reckoned from."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter, ne

from .measures_stats import Ratio, Sums, _prop, balance_interval, fairness_test


HAND_COUNTERS = ("plays", "tricks", "takes", "borrows", "draws", "lead_changes", "declarations")
_counters = itemgetter(*HAND_COUNTERS)  # a hand's counters, in that order


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


def _add_ratio(s: Sums, num: int, den: int) -> None:
    """``s.add_ratio(num, den)``, written out (``Design._fold``)."""
    s.n += 1
    f = s._f
    f[den] = f.get(den, 0) + num
    ff, d2 = s._ff, den * den
    ff[d2] = ff.get(d2, 0) + num * num


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
        self._groups = [
            (a, seats, len(seats))
            for a in sorted(set(names))
            for seats in [frozenset(s for s in range(n) if names[s] == a)]
        ]
        self.seat_wins = self.seat_wins or [0] * n
        self.position_wins = self.position_wins or [0] * n
        self.scores = self.scores or [Sums() for _ in range(n)]
        for k in ("plays", "hands", "lead_change", "drama", "decisiveness"):
            self.per_game.setdefault(k, Sums())
        for k in HAND_COUNTERS:
            self.per_hand.setdefault(k, Ratio())
        self._per_hand = [self.per_hand[k] for k in HAND_COUNTERS]  # in the order of a game's totals
        for k in ("eldest", "dealer"):
            self.hand_shares.setdefault(k, Ratio())
        # the totals ``_fold`` adds to at every game, looked up once
        pg = self.per_game
        self._plays, self._hands, self._lead_change = pg["plays"], pg["hands"], pg["lead_change"]
        self._drama, self._decisiveness = pg["drama"], pg["decisiveness"]
        self._eldest, self._dealer = self.hand_shares["eldest"], self.hand_shares["dealer"]
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
        leaders after each hand (``game_curve``; None for a game of one hand). The sums of
        ``Sums.add``, ``Sums.add_ratio`` and ``Ratio.add`` are written out here: this runs once a
        game, beside a game of a few hundred microseconds."""
        self.games += 1
        self.unfinished += bool(unfinished)
        s = self._plays
        s.n += 1
        s._i += plays
        s._ii += plays * plays
        s = self._hands
        s.n += 1
        s._i += hands
        s._ii += hands * hands
        hh = nd * nd
        for r, x in zip(self._per_hand, totals):  # Ratio.add(x, nd) of each counter
            r.g += 1
            r.h += nd
            r.hh += hh
            if x:
                r.x += x
                r.xx += x * x
                r.xh += x * nd
        for r, x in ((self._eldest, eldest), (self._dealer, dealer)):  # Ratio.add(x, decided)
            r.g += 1
            r.x += x
            r.h += decided
            r.xx += x * x
            r.hh += decided * decided
            r.xh += x * decided
        if unfinished:
            return
        for s, v in zip(self.scores, returns):
            if type(v) is int:
                s.n += 1
                s._i += v
                s._ii += v * v
            else:
                s.add(v)
        tie = len(winners)
        w = self._unit // tie  # a tie of k: 1/k to each, in units of 1/unit
        sw = self.seat_wins
        for p in winners:
            sw[p] += w
        pw = self.position_wins
        for p in positions:
            pw[p - 1] += w
        self.outcomes[tuple(sorted(positions)) if tie > 1 else tuple(positions)] += 1
        if self.agents:
            share_of = self.agent_share
            for name, seats, size in self._groups:
                # the kind's share of the game: (its seats among the winners) / k, over its seats
                s = share_of.get(name)
                if s is None:
                    s = share_of[name] = Sums()
                _add_ratio(s, tie if size == self.players else sum(map(seats.__contains__, winners)), tie * size)
        if curve is None:  # one hand: no course of the game (lead change, drama, decisiveness)
            return
        k = len(curve)
        if k < 2:
            return
        _add_ratio(self._lead_change, sum(map(ne, curve, curve[1:])), k - 1)  # _lead_change
        if tie == 1:
            p = winners[0]
            # _drama: the hand ends before the last at which the winner does not lead
            _add_ratio(self._drama, sum(p not in c for c in curve[:-1]), k - 1)
            # _decisiveness: from the hand at which the winner leads alone for good
            sole, j = frozenset((p,)), k
            while j > 0 and curve[j - 1] == sole:
                j -= 1
            _add_ratio(self._decisiveness, min(j + 1, k), k)

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
