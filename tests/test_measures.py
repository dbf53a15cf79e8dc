"""The design measures: exact totals that merge in any order, intervals that
respect the clustering of hands within games, and the course of a game."""

import math
from fractions import Fraction

import pytest

from academie.dsl.model import load_game
from academie.measures import (
    Design,
    Ratio,
    Sums,
    chi2_sf,
    check_agent_specs,
    decisiveness,
    drama,
    game_measures,
    lead_change,
    measure,
    run_design,
    skill_agents,
)


def curve(*leaders):
    return [frozenset(x) for x in leaders]


def test_lead_change_drama_and_decisiveness_of_a_hand_made_game():
    # four hands: seat 0 leads, then 1, then 0 and 1 tie, and 1 wins
    c = curve({0}, {1}, {0, 1}, {1})
    assert lead_change(c) == Fraction(3, 3)  # the leaders change at every hand end
    assert drama(c, 1) == Fraction(1, 3)  # the winner trailed after the first hand only
    assert decisiveness(c, 1) == Fraction(4, 4)  # sole leader for good only at the end
    c = curve({2}, {2}, {2}, {2})
    assert lead_change(c) == 0 and drama(c, 2) == 0
    assert decisiveness(c, 2) == Fraction(1, 4)  # decided by the first hand
    assert lead_change(curve({1})) is None and decisiveness(curve({1}), 1) is None  # one hand: no course


def test_the_chi_square_tail_matches_the_tables():
    for x, k in ((3.841459, 1), (5.991465, 2), (7.814728, 3), (9.487729, 4), (11.0705, 5)):
        assert math.isclose(chi2_sf(x, k), 0.05, rel_tol=1e-4)
    assert chi2_sf(0, 3) == 1.0


def test_a_per_hand_interval_counts_a_game_as_one_cluster():
    # every hand of a game is alike: 4 hands of 0 or 4 hands of 10, in equal numbers
    r, naive = Ratio(), Sums()
    for g in range(100):
        v = 10 * (g % 2)
        r.add(4 * v, 4)
        for _ in range(4):
            naive.add(v)
    c = r.ci()
    assert c["mean"] == 5 and c["n"] == 400 and c["games"] == 100
    iid = naive.ci()["se"]  # as if the 400 hands were independent
    assert math.isclose(c["se"], iid * 2, rel_tol=0.01)  # sqrt(design effect 4) = 2
    # a share too: its Wilson interval is on the effective number of hands
    s = Ratio()
    for g in range(100):
        s.add(4 * (g % 2), 4)
    sh = s.share()
    assert sh["p"] == 0.5 and math.isclose(sh["effective_n"], 100, rel_tol=0.02)


def test_totals_merge_into_the_same_report_in_any_order():
    g = load_game("enfle/academie")
    whole = run_design(g, 4, 0, 30, "m", ("random",), 50_000)
    parts = [run_design(g, 4, a, b, "m", ("random",), 50_000) for a, b in ((20, 30), (0, 7), (7, 20))]
    merged = Design(4, ("random",) * 4)
    for p in parts:
        merged.merge(p)
    assert merged.report() == whole.report()


def test_workers_give_the_same_numbers():
    one = measure("design", "francion/terrail", (), 3, 24, "w", ("random",), workers=1)
    two = measure("design", "francion/terrail", (), 3, 24, "w", ("random",), workers=2, chunk=5)
    assert one.report() == two.report()
    s1 = measure("skill", "emprunt/lacombe", (), 3, 30, "w", ("first", "random"), workers=1)
    s2 = measure("skill", "emprunt/lacombe", (), 3, 30, "w", ("first", "random"), workers=2, chunk=4)
    assert s1.report() == s2.report()


def test_a_game_of_several_hands_has_a_course_and_one_of_one_hand_has_none():
    r = measure("design", "enfle/academie", (), 4, 40, "c", ("random",)).report()
    for k in ("lead_change", "drama", "decisiveness"):
        assert r[k]["n"] > 30 and 0 <= r[k]["low"] <= r[k]["mean"] <= r[k]["high"]
    assert r["duration"]["hands_per_game"]["mean"] == 4
    one = measure("design", "hearts/foster", (), 4, 20, "c", ("random",)).report()
    assert one["lead_change"]["n"] == 0 and one["drama"]["mean"] is None


def test_balance_and_the_advantage_of_the_first_leader():
    # Emprunt as written favours the first leader heavily under random play
    r = measure("design", "emprunt/lacombe", (), 3, 150, "b", ("random",)).report()
    rates = [x["p"] for x in r["win_share_by_position"]]
    assert math.isclose(r["balance"], 1 - (max(rates) - min(rates)))
    assert r["advantage_first_player"]["low"] > 1 / 3
    assert r["fairness"]["p_value"] < 0.05
    assert sum(x["k"] for x in r["win_share_by_seat"]) == pytest.approx(150)


def test_the_skill_run_turns_the_strong_seat_and_measures_its_share():
    assert skill_agents("first", "random", 3, 0) == ["first", "random", "random"]
    assert skill_agents("first", "random", 3, 4) == ["random", "first", "random"]
    k = measure("skill", "emprunt/lacombe", ("runs-to-king",), 3, 150, "k", ("first", "random")).report()
    s = k["strong_win_share"]
    assert s["n"] == 150 and s["low"] > 1 / 3  # always playing the lowest card pays in this reading
    assert math.isclose(k["luck"], (1 - s["p"]) / (2 / 3))
    assert math.isclose(k["strong_loses"]["p"], 1 - s["p"])


def test_the_win_share_of_each_kind_of_player():
    r = measure("design", "emprunt/lacombe", ("runs-to-king",), 3, 60, "a", ("first", "random", "random")).report()
    by = r["win_share_by_agent"]
    assert by["first"]["seats"] == [0] and by["random"]["seats"] == [1, 2]
    assert math.isclose(by["first"]["mean"] + 2 * by["random"]["mean"], 1.0)


def test_a_game_cut_into_hands_keeps_the_running_scores():
    m = game_measures(load_game("francion/terrail"), 3, "s/0")
    assert len(m["hands"]) > 1 and all(len(h["scores"]) == 3 for h in m["hands"])
    assert m["returns"] == [r for r in m["returns"]] and len(m["returns"]) == 3


def test_agent_specs_are_checked_plainly():
    check_agent_specs(["random", "first"])
    with pytest.raises(ValueError, match="unknown agent"):
        check_agent_specs(["nobody"])
    with pytest.raises(ValueError, match="without a human"):
        check_agent_specs(["human"])
    with pytest.raises(ValueError, match="2 agents for 3 players"):
        check_agent_specs(["random", "first"], 3)


def test_balance_and_luck_have_intervals():
    r = measure("design", "emprunt/lacombe", (), 3, 120, "i", ("random",)).report()
    ci = r["balance_interval"]
    assert ci["low"] <= r["balance"] <= ci["high"] and ci["high"] - ci["low"] > 0.05
    again = measure("design", "emprunt/lacombe", (), 3, 120, "i", ("random",), workers=2, chunk=7).report()
    assert again["balance_interval"] == ci  # a fixed generator over exact totals
    k = measure("skill", "emprunt/lacombe", (), 3, 60, "i", ("first", "random")).report()
    s = k["strong_win_share"]
    assert math.isclose(k["luck_interval"]["low"], (1 - s["high"]) * 1.5)
    assert k["luck_interval"]["low"] <= k["luck"] <= k["luck_interval"]["high"]


@pytest.mark.parametrize("ref,players", [("francion/terrail", 3), ("polignac/boussac", 4)])
def test_any_split_of_the_games_merges_into_the_same_totals(ref, players):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    g = load_game(ref)
    whole = run_design(g, players, 0, 12, "h", ("random",), 50_000).report()

    @settings(max_examples=8, deadline=None)
    @given(st.lists(st.integers(1, 11), unique=True, max_size=4), st.randoms(use_true_random=False))
    def check(cuts, rnd):
        bounds = [0, *sorted(cuts), 12]
        parts = [run_design(g, players, a, b, "h", ("random",), 50_000) for a, b in zip(bounds, bounds[1:])]
        rnd.shuffle(parts)
        total = Design(players, ("random",) * players)
        for p in parts:
            total.merge(p)
        assert total.report() == whole

    check()
