"""The design measures read as the game is played (the state's call at each
hand's start and end, agents asked inside the rules' loops, no event built) are
the measures read from the game's events, and their totals are the totals the
plain fraction arithmetic gives: the same numbers, whatever made them quicker."""

from collections import Counter
from fractions import Fraction

import pytest

from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents
from academie.interpreter.simulate import Job, game_seed, run_chunk, simulate
from academie.interpreter.state import State
from academie.measures import (
    HAND_COUNTERS,
    Design,
    DesignCollector,
    decisiveness,
    drama,
    game_curve,
    game_measures,
    lead_change,
    measures_from_log,
)

# several hands (L'Enflé, Polignac, Francion), ties (Polignac), borrows (Emprunt), declarations
# (Piquet), a follow rule reading the hand (Quadrille), one hand (Hearts), two short hands scored
# in chips, ties shared (Poker)
GAMES = [
    ("enfle/academie", 4),
    ("polignac/boussac", 4),
    ("francion/terrail", 3),
    ("emprunt/lacombe", 3),
    ("piquet/hoyle", 2),
    ("quadrille/hoyle", 4),
    ("hearts/foster", 4),
    ("poker/hoffmann", 2),
]


@pytest.mark.parametrize("ref,players", GAMES)
def test_the_measures_read_as_played_are_those_of_the_log(ref, players):
    g = load_game(ref)
    agents = ["first"] + ["random"] * (players - 1)
    for i in range(6):
        seed = game_seed("inc", i)
        for ags, limit in ((["random"], 50_000), (agents, 50_000), (["random"], 40)):  # 40: the play limit stops it
            got = game_measures(g, players, seed, ags, limit)
            want = measures_from_log(g, players, seed, ags, limit)
            assert got == want, (ref, seed, ags, limit)


def test_the_hand_calls_come_in_pairs_with_the_state_at_each_end():
    g = load_game("enfle/academie")
    calls = []
    st = State(g, 4, "pairs", keep_events=False, check="hand", on_hand=lambda s, end: calls.append((end, s.hand_no)))
    st.run_with(make_agents(["random"], 4, "pairs"))
    assert calls == [(end, h) for h in range(1, 5) for end in (False, True)]
    assert st._logging is False  # the calls need no log
    cut = []
    ags = make_agents(["random"], 4, "pairs")  # asked inside the loops: the game is played in the constructor
    st = State(
        g, 4, "pairs", max_plays=30, keep_events=False, check="hand", agents=ags, on_hand=lambda s, e: cut.append(e)
    )
    assert st.unfinished and cut == [False, True]  # the hand the play limit stops ends too


class OldSums:
    """Σx, Σx² in fractions, as they were summed before."""

    def __init__(self):
        self.n, self.s, self.ss = 0, Fraction(0), Fraction(0)

    def add(self, x):
        self.n += 1
        self.s += x
        self.ss += x * x


def old_totals(ms: list[dict], n: int, names: list[str]) -> dict:
    """The totals of a Design folded as they were before (fractions throughout)."""
    seat, pos = [Fraction(0)] * n, [Fraction(0)] * n
    per_game = {k: OldSums() for k in ("plays", "hands", "lead_change", "drama", "decisiveness")}
    scores = [OldSums() for _ in range(n)]
    share: dict = {}
    per_hand = {k: [0, 0, 0, 0, 0, 0] for k in (*HAND_COUNTERS, "eldest", "dealer")}
    hist = {"plays": Counter(), "tricks": Counter()}
    outcomes: Counter = Counter()

    def ratio(k, x, h):
        r = per_hand[k]
        for j, v in enumerate((1, x, h, x * x, h * h, x * h)):
            r[j] += v

    for m in ms:
        per_game["plays"].add(m["plays"])
        per_game["hands"].add(len(m["hands"]))
        done = [h for h in m["hands"] if not h["unfinished"]]
        for k in HAND_COUNTERS:
            ratio(k, sum(h[k] for h in done), len(done))
        for k in hist:
            hist[k].update(h[k] for h in done)
        decided = [h for h in done if h["winner"] is not None]
        ratio("eldest", sum(h["winner"] == (h["dealer"] + 1) % n for h in decided), len(decided))
        ratio("dealer", sum(h["winner"] == h["dealer"] for h in decided), len(decided))
        if m["unfinished"]:
            continue
        for s, v in enumerate(m["returns"]):
            scores[s].add(v)
        w = Fraction(1, len(m["winners"]))
        for s in m["winners"]:
            seat[s] += w
        for p in m["winner_positions"]:
            pos[p - 1] += w
        outcomes[tuple(sorted(m["winner_positions"]))] += 1
        for name in sorted(set(names)):
            seats = [s for s in range(n) if names[s] == name]
            # Fraction(0) to start: the sum alone was the integer 0 when the kind won nothing, and its
            # division a float, which turned the whole total into floats (rounded, and not the same in
            # every order of merging); the totals are now exact
            share.setdefault(name, OldSums()).add(
                sum((w for s in m["winners"] if s in seats), Fraction(0)) / len(seats)
            )
        curve = game_curve(m)
        lc = lead_change(curve)
        if lc is not None:
            per_game["lead_change"].add(lc)
        if len(m["winners"]) == 1:
            for k, f in (("drama", drama), ("decisiveness", decisiveness)):
                v = f(curve, m["winners"][0])
                if v is not None:
                    per_game[k].add(v)
    return {
        "wins": (seat, pos),
        "per_game": {k: (v.n, v.s, v.ss) for k, v in per_game.items()},
        "scores": [(v.n, v.s, v.ss) for v in scores],
        "share": {k: (v.n, v.s, v.ss) for k, v in share.items()},
        "per_hand": per_hand,
        "hist": hist,
        "outcomes": outcomes,
    }


def new_totals(d: Design) -> dict:
    ratio = {**d.per_hand, **d.hand_shares}
    return {
        "wins": d.wins(),
        "per_game": {k: (v.n, v.s, v.ss) for k, v in d.per_game.items()},
        "scores": [(v.n, v.s, v.ss) for v in d.scores],
        "share": {k: (v.n, v.s, v.ss) for k, v in d.agent_share.items()},
        "per_hand": {k: [r.g, r.x, r.h, r.xx, r.hh, r.xh] for k, r in ratio.items()},
        "hist": d.histograms,
        "outcomes": d.outcomes,
    }


@pytest.mark.parametrize("ref,players", GAMES)
def test_the_totals_are_those_of_the_fractions_summed_one_by_one(ref, players):
    g = load_game(ref)
    for names in (["random"] * players, ["first"] + ["random"] * (players - 1)):
        ms = [measures_from_log(g, players, game_seed("tot", i), names, 50_000 if i % 5 else 60) for i in range(25)]
        d = Design(players, tuple(names))
        half = Design(players, tuple(names))
        for m in ms[:12]:
            d.add(m)
        for m in ms[12:]:
            half.add(m)
        d.merge(half)
        assert new_totals(d) == old_totals(ms, players, names), (ref, names)
        # as simulate folds them: read into running totals as the games are played, no hand kept
        for limit in (50_000, 60):
            job = Job(ref, (), players, "tot", tuple(names), limit, collector=DesignCollector)
            read = run_chunk(job, 0, 12, g)[1].extra.design  # game i: seed tot/i
            logged = [measures_from_log(g, players, game_seed("tot", i), names, limit) for i in range(12)]
            assert new_totals(read) == old_totals(logged, players, names), (ref, names, limit)


@pytest.mark.parametrize("ref,players", [("polignac/boussac", 4), ("enfle/academie", 4), ("piquet/hoyle", 2)])
def test_simulate_with_the_measures_plays_the_same_games_and_reports_the_log_s_measures(ref, players):
    g = load_game(ref)
    plain = simulate(Job(ref, (), players, "sim", ("random",), 50_000), 30, workers=1, game=g)
    job = Job(ref, (), players, "sim", ("random",), 50_000, collector=DesignCollector)
    measured = simulate(job, 30, workers=1, game=g)
    assert measured.report() == plain.report()
    want = Design(players, ("random",) * players)
    for i in range(30):
        want.add(measures_from_log(g, players, game_seed("sim", i)))
    assert measured.extra.design.report() == want.report()


def test_the_measures_come_back_from_worker_processes_with_any_agents():
    # the collector's reader holds the compiled rules and its agents' maker a function: neither travels
    job = Job("emprunt/lacombe", (), 3, "w", ("first", "random", "random"), 50_000, collector=DesignCollector)
    one = simulate(job, 12, workers=1)
    two = simulate(job, 12, workers=2, chunk=3)
    assert two.extra.design.report() == one.extra.design.report()
