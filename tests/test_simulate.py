"""Simulations give the same report however they are split between processes."""

import csv
import json

import pytest

from academie.interpreter.simulate import Job, Tally, run_chunk, simulate


def _sim(run, *args):
    code, out, err = run("simulate", "enfle/academie", "-p", 5, "-n", 24, "-s", 7, "--json", *args)
    assert code == 0, err
    return json.loads(out)


def test_two_workers_give_the_same_report_as_one(run):
    one = _sim(run, "--workers", 1)
    two = _sim(run, "--workers", 2)
    assert one == two
    assert one["games"] == 24 and one["hands"] == 24 * 5
    assert sum(one["wins_by_seat"]) == 24


def test_chunk_size_does_not_change_the_report(run):
    assert _sim(run, "--workers", 1, "--chunk", 1) == _sim(run, "--workers", 2, "--chunk", 5)


def test_merging_tallies_is_order_independent():
    job = Job("enfle/academie", (), 6, 3, ("random",), 50_000)
    parts = [run_chunk(job, a, a + 3)[1] for a in range(0, 12, 3)]
    fwd, back = Tally(6), Tally(6)
    for t in parts:
        fwd.merge(t)
    for t in reversed(parts):
        back.merge(t)
    assert fwd.report() == back.report() == simulate(job, 12, workers=1).report()


def test_a_worker_loads_the_rules_with_the_limits_of_the_command():
    # a worker that has not got the compiled rules (Dask, or a spawned process) loads them
    # itself, within the size limits the command was given, not the defaults
    from academie.dsl.loader import Limits

    tight = Job("enfle/academie", (), 4, 1, ("random",), 50_000, limits=Limits(file_bytes=200))
    start, diagnostics, rows = run_chunk(tight, 0, 1)
    assert not isinstance(diagnostics, Tally)
    assert any("200" in d.message for d in diagnostics), [d.message for d in diagnostics]
    start, tally, rows = run_chunk(Job("enfle/academie", (), 4, 1, ("random",), 50_000), 0, 1)
    assert isinstance(tally, Tally) and tally.games == 1


def test_rows_are_written_in_game_order_whatever_the_workers(run, tmp_path):
    files = {}
    for w in (1, 2):
        c, j = tmp_path / f"{w}.csv", tmp_path / f"{w}.jsonl"
        _sim(run, "--workers", w, "--chunk", 2, "--csv", c, "--jsonl", j)
        files[w] = (c.read_text(), j.read_text())
        assert not (tmp_path / f"{w}.csv.part").exists()
    assert files[1] == files[2]
    rows = list(csv.DictReader(files[1][0].splitlines()))
    assert [int(r["game"]) for r in rows] == list(range(24))
    assert rows[3]["seed"] == "7/3"
    lines = [json.loads(x) for x in files[1][1].splitlines()]
    assert [x["game"] for x in lines] == list(range(24))
    assert all(len(x["scores"]) == 5 and sum(x["scores"]) == 25 for x in lines)  # n chips each, conserved
    assert all(x["hands"] == 5 and not x["unfinished"] for x in lines)


def test_a_bad_rule_file_is_still_a_located_error(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: x\nplayers: {min: 2, max: 3, cite: q}\n")
    code, out, err = run("simulate", bad, "--workers", 2)
    assert code == 2
    assert "bad.yaml:" in err and "Traceback" not in err


def test_bad_worker_count_is_a_usage_error(run):
    code, _, err = run("simulate", "enfle/academie", "--workers", 0)
    assert code == 2 and "--workers" in err


def test_dask_backend_gives_the_same_report_as_local(run):
    pytest.importorskip("distributed", reason="dask[distributed] not installed (pip install 'academie[dask]')")
    local = _sim(run, "--workers", 1)
    dask = _sim(run, "--backend", "dask", "--workers", 2)
    assert dask == local


def test_dask_backend_with_a_scheduler_address(run):
    distributed = pytest.importorskip(
        "distributed", reason="dask[distributed] not installed (pip install 'academie[dask]')"
    )
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = _sim(run, "--backend", "dask", "--scheduler", cluster.scheduler_address)
    assert remote == _sim(run, "--workers", 1)


def test_options_after_a_plus_as_compare_takes_them(run):
    # RULES+OPTION is the same as RULES -o OPTION, in simulate and in play
    args = ["-p", 4, "-n", 6, "-s", 2, "--json", "--workers", 1]
    code, plus, err = run("simulate", "hearts/foster+sweepstakes", *args)
    assert code == 0, err
    code, flag, err = run("simulate", "hearts/foster", "-o", "sweepstakes", *args)
    assert plus == flag and json.loads(plus)["hands"] > 6 * 4  # the option's game: until a player is out
    code, out, err = run("play", "polignac/boussac+capot", "--seed", 2, "--json")
    assert code == 0 and json.loads(out)["options"] == ["capot"]
    code, out, err = run("simulate", "hearts/foster+nope", "-n", 2)
    assert code == 2 and "unknown option 'nope'" in err


def test_wins_are_percentages_with_intervals(run):
    code, out, err = run("simulate", "enfle/academie", "-n", 40, "-s", 3, "-w", 1)
    assert code == 0, err
    assert "95% Wilson intervals" in out and "an even share is 25.0%" in out
    line = next(x for x in out.splitlines() if x.strip().startswith("seat 0:"))
    pct, low, high = [float(t.strip("[],%")) for t in line.split()[2:5]]
    assert low <= pct <= high and "of 40 games" in line
    assert "unfinished games (play limit 50000): 0 (0.0% [0.0%," in out
    data = _sim(run, "--workers", 1)
    shares = data["win_share_by_seat"]
    assert len(shares) == 5 and all(x["low"] <= x["p"] <= x["high"] for x in shares)
    assert sum(x["wins"] for x in shares) == 24


def test_design_measures_in_the_report_the_same_for_any_workers(run):
    one, two = _sim(run, "--workers", 1), _sim(run, "--workers", 2, "--chunk", 3)
    m = one["measures"]
    assert m == two["measures"]
    for k in ("balance", "fairness", "advantage_first_player", "advantage_dealer", "lead_change", "drama"):
        assert k in m
    assert m["duration"]["hands_per_game"]["mean"] == 5
    assert m["per_hand"]["plays"]["games"] == 24  # the hands' interval counts games as clusters
    code, out, _ = run("simulate", "enfle/academie", "-n", 10, "--json", "--no-measures", "-w", 1)
    assert code == 0 and "measures" not in json.loads(out)


def test_the_measures_do_not_change_the_games(run):
    with_m, without = _sim(run, "--workers", 1), _sim(run, "--workers", 1, "--no-measures")
    del with_m["measures"]
    assert with_m == without


def test_mixed_agents_get_their_own_share(run):
    code, out, err = run("simulate", "emprunt/lacombe+runs-to-king", "-n", 60, "-a", "first,random,random", "-w", 1)
    assert code == 0, err
    assert "by kind of player" in out and "first" in out and "(seats 1, 2; even 33.3%)" in out
    code, _, err = run("simulate", "enfle/academie", "-a", "nobody")
    assert code == 2 and "unknown agent 'nobody'" in err


def test_the_time_left_leaves_out_the_start_of_the_workers():
    from academie.cli.simulate import Eta

    t = iter([30.0, 31.0, 32.0, 33.0])  # the first chunk after 30 s of start, then one a second
    eta = Eta(1000, clock=lambda: next(t))
    assert eta.done(100) is None  # one chunk tells no rate
    assert eta.done(100) == "about 0:08 left"  # 800 games at 100 a second, not at 200 in 31 s
    assert eta.done(100) == "about 0:07 left"
    assert eta.done(700) is None  # finished


def _agents_by_hand(spec, seed):
    """The agents of one game as make_agents has always made them: the random seats share one
    generator seeded with "<game seed>:agents"; a registered player is made with the game seed."""
    import random

    from academie.interpreter.agents import PLAYERS, FirstAgent, RandomAgent, split_spec

    shared = random.Random(f"{seed}:agents")
    out = []
    for seat, name in enumerate(spec):
        if name == "random":
            out.append(RandomAgent(rng=shared))
        elif name == "first":
            out.append(FirstAgent())
        else:
            pname, params = split_spec(name)
            out.append(PLAYERS[pname](params, seat=seat, seed=seed))
    return out


@pytest.mark.parametrize(
    "agents",
    [("random",) * 4, ("first", "random", "random", "first"), ("random", "mc:iterations=4", "random", "first")],
)
def test_a_run_plays_each_game_with_the_agents_of_its_seed(agents):
    """A chunk reads the agent spec once: its games are those of agents made for each seed alone."""
    import academie.players  # noqa: F401  (registers mc, which the engine alone does not know)
    from academie import load_game
    from academie.interpreter.agents import play
    from academie.interpreter.simulate import game_seed
    from academie.interpreter.state import State

    game = load_game("enfle/academie").gamedef
    job = Job("enfle/academie", (), 4, 11, agents, 50_000, rows=True)
    _, _, rows = run_chunk(job, 0, 4, game)
    for i, row in enumerate(rows):
        s = game_seed(11, i)
        st = play(State(game, 4, s, max_plays=50_000, keep_events=False), _agents_by_hand(agents, s))
        assert (row["plays"], row["scores"]) == (st.plays, st.returns())


def test_a_worker_process_of_its_own_plays_the_registered_players_of_a_job():
    """A worker that imported nothing but the engine (a process started afresh, as a Dask worker
    or a spawned one is) plays the players the job names: the job carries what registered them."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import academie.players  # noqa: F401  (the library registers its players; the engine imports none)

    job = Job("enfle/academie", (), 4, 11, ("mc:iterations=4", "random", "random", "first"), 50_000, rows=True)
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as ex:
        _, tally, rows = ex.submit(run_chunk, job, 0, 2).result(timeout=120)
    _, _, mine = run_chunk(job, 0, 2)
    assert tally.games == 2 and [r["scores"] for r in rows] == [r["scores"] for r in mine]
