"""``academie compare``: the rules side by side with both citations, the
measures of play with 95% intervals, the HTML page."""

import json
import math


from academie.compare import load_side, rank_moves, rules_diff, split_ref
from academie.measures import game_measures, mean_ci, newcombe, wilson
from academie.dsl.model import load_game


def _diff(a, b):
    return {x["aspect"]: x for x in rules_diff(load_side(a), load_side(b))}


def test_enfle_differences_each_with_both_citations():
    d = _diff("enfle/academie", "enfle/foster")

    def item(aspect, label):
        return next(x for x in d[aspect]["differences"] if x["label"] == label)

    pack = item("pack", "pack for 4 players")
    assert "52 cards" in pack["a"].text and "32 cards" in pack["b"].text
    assert any("deck of 52 cards" in c.quote for c in pack["a"].cites)
    assert any("Piquet pack of thirty-two" in c.quote for c in pack["b"].cites)
    ace = item("orders", "play order")
    assert "the ace: lowest in A, highest in B" in ace["detail"]
    assert any(c.source == "enfle-salondesjeux-fr" for c in ace["a"].cites)
    assert any("the Ace being highest in play" in c.quote for c in ace["b"].cites)
    direction = item("direction", "direction")
    assert direction["a"].value == "counterclockwise" and direction["b"].value == "clockwise"
    assert direction["a"].cites and direction["b"].cites[0].source == "hoyle-1913"
    deal = item("dealing", "deal for 4 players")
    assert "12 cards each" in deal["a"].text and "packets of 3-2-3" in deal["b"].text
    assert deal["a"].cites and any("3-2-3" in c.quote for c in deal["b"].cites)
    length = item("game", "game length")
    assert length["a"].cites and length["b"].cites
    # scoring: the opening endowment differs; the stakes are the same rules, cited differently
    scoring = d["scoring"]
    assert any(x["label"] == "money: start 1" for x in scoring["differences"])
    recited = {r["label"]: r for r in scoring["same_cited_differently"]}
    assert recited["game standings"]["a"].cites and recited["game standings"]["b"].editorial
    assert recited["step 'collect'"]["a"].editorial and recited["step 'collect'"]["b"].cites
    # identical aspects are summarised
    assert not d["end"]["differences"] and d["end"]["same"]


def test_same_game_has_no_difference():
    d = rules_diff(load_side("hearts/foster"), load_side("hearts/foster"))
    assert all(not x["differences"] and not x["same_cited_differently"] for x in d)


def test_options_by_plus_and_by_flag(run):
    assert split_ref("polignac/boussac+capot+to-twenty") == ("polignac/boussac", ["capot", "to-twenty"])
    d = _diff("polignac/boussac", "polignac/boussac+capot")
    play = [x["label"] for x in d["play"]["differences"]]
    assert "declaration 'capot'" in play and "step 'announce'" in play
    code, out, _ = run("compare", "polignac/boussac", "polignac/boussac", "--option-b", "to-twenty", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["b"]["options"] == ["to-twenty"] and data["a"]["options"] == []
    assert any(x["label"] == "counter 'limit'" for a in data["rules"] for x in a["differences"])


def test_rank_moves():
    assert rank_moves(list("KQJA"), list("AKQJ")) == ["the ace: lowest in A, highest in B"]
    assert rank_moves(["K", "Q"], ["K", "Q", "J"]) == ["the jack: in B only"]


def test_intervals():
    p, lo, hi = wilson(0, 10)
    assert p == 0 and lo == 0 and 0.27 < hi < 0.28  # the classic 0/10 Wilson bound 0.2775
    p, lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-9
    m, lo, hi, se = mean_ci([1, 2, 3, 4, 5])
    assert m == 3 and math.isclose(se, math.sqrt(2.5 / 5)) and math.isclose(hi - m, 1.959964 * se)
    d, lo, hi = newcombe(10, 100, 30, 100)
    assert math.isclose(d, 0.2) and 0 < lo < 0.2 < hi


def test_game_measures_cut_into_hands():
    g = load_game("enfle/academie")
    m = game_measures(g, 4, "t/0")
    assert len(m["hands"]) == 4  # a game is as many hands as players
    assert sum(h["plays"] for h in m["hands"]) > 0
    assert all(h["winner"] is not None for h in m["hands"])  # the first with an empty hand wins
    assert all(1 <= p <= 4 for p in m["winner_positions"])
    e = game_measures(load_game("emprunt/lacombe"), 4, "t/0")
    assert e["hands"][0]["borrows"] > 0 and e["hands"][0]["tricks"] == 0


def test_cli_compare_with_games(run, tmp_path):
    page = tmp_path / "c.html"
    code, out, err = run("compare", "enfle/academie", "enfle/foster", "--games", "40", "--html", page)
    assert code == 0, err
    assert "== Rank of the cards" in out and "the ace: lowest in A, highest in B" in out
    assert "In play: 40 games each, 4 players" in out and "Wilson" in out and "1.96·SE" in out
    assert "hands are" in out and "times longer" in out  # B's hands are shorter: significant at 40 games
    text = page.read_text()
    assert text.count("data:image/png;base64,") >= 3
    assert "http://" not in text and "https://" not in text and "<script" not in text


def test_cli_compare_json_play(run):
    code, out, _ = run("compare", "emprunt/lacombe", "enfle/foster", "--games", "30", "--json")
    assert code == 0
    play = json.loads(out)["play"]
    assert play["players"] == 4  # the fewest both allow
    rows = {r["measure"]: r for r in play["means"]}
    assert rows["borrows"]["a"]["mean"] > 0 and rows["borrows"]["b"]["mean"] == 0
    assert len(play["win_share_by_position"]) == 4


def test_no_common_player_count(run, tmp_path):
    small = tmp_path / "two.yaml"
    src = (__import__("pathlib").Path(__file__).parent / "concepts" / "runs.yaml").read_text()
    small.write_text(src)
    code, _, err = run("compare", str(small), "enfle/academie", "--games", "5")
    assert code == 2 and "no number of players suits both" in err
    code, _, err = run("compare", "enfle/academie", "enfle/foster", "--games", "5", "--players", "8")
    assert code == 2 and "enfle/foster is for 4 to 6 players, not 8" in err


def test_a_step_named_otherwise_is_compared_with_its_counterpart(tmp_path):
    # the same rules, the trick-play step renamed: nothing differs, and the label says B's name
    from academie.dsl.loader import corpus_root

    src = (corpus_root() / "enfle" / "academie.yaml").read_text(encoding="utf-8")
    old = "\n  play:\n    kind: tricks"
    assert src.count(old) == 1
    f = tmp_path / "renamed.yaml"
    f.write_text(src.replace(old, "\n  trickplay:\n    kind: tricks"), encoding="utf-8")
    d = rules_diff(load_side(str(corpus_root() / "enfle" / "academie.yaml")), load_side(str(f)))
    assert all(not x["differences"] for x in d)
    play = next(x for x in d if x["aspect"] == "play")
    assert "step 'play': follow (B: 'trickplay')" in play["same"]


def test_a_missing_opening_endowment_is_no_player_count(run):
    # money.start's rules are numbered from 0: that number is no count of players
    code, out, err = run("compare", "enfle/academie", "polignac/boussac")
    assert code == 0, err
    assert "not played by 0 players" not in out
    i = out.index("  money: start 1\n")
    assert "B: (no such rule in B)" in out[i : i + 400]
    # a pack for a count one side does not reach still says so
    code, out, _ = run("compare", "enfle/academie", "enfle/foster")
    assert "(B is not played by 7 players)" in out


def test_what_the_rules_fix_is_not_a_finding(run):
    code, out, err = run("compare", "enfle/academie", "enfle/foster", "--games", "30")
    assert code == 0, err
    assert "times more hands" not in out  # 4 hands against 1: that is the rule
    fixed = out[out.index("Fixed by the rules") :]
    assert "hands per game (DurationTurns, in hands): 4 in every game of A, 1 in every game of B" in fixed


def test_compare_reports_the_design_measures_with_intervals(run):
    code, out, err = run(
        "compare", "emprunt/lacombe", "emprunt/lacombe+runs-to-king", "--games", "120", "--json",
        "--strong", "first", "--weak", "random",
    )  # fmt: skip
    assert code == 0, err
    play = json.loads(out)["play"]
    assert play["strong"] == "first" and play["weak"] == "random"
    for side in ("a", "b"):
        d = play["design"][side]
        assert d["completion"]["p"] == 1 and d["balance"] is not None and d["fairness"]["p_value"] is not None
        assert d["advantage_first_player"]["low"] <= d["advantage_first_player"]["p"]
        sk = play["skill"][side]
        assert sk["strong_win_share"]["n"] == 120 and sk["luck"] is not None
    rows = {r["measure"]: r for r in play["means"]}
    assert rows["plays"]["a"]["games"] == 120  # per-hand: clustered by game
    assert "plays_per_game" not in rows  # a game is one hand in both: not said twice
    assert any("first leader" in x and "more than the 1/3" in x for x in play["significant"])
    one = json.loads(run("compare", "enfle/academie", "enfle/foster", "--games", "12", "--json", "-w", "1")[1])
    two = json.loads(run("compare", "enfle/academie", "enfle/foster", "--games", "12", "--json", "-w", "2")[1])
    for x in (one, two):
        del x["play"]["seconds"]
    assert one == two


def test_the_plots_of_the_report(run, tmp_path):
    import re

    page = tmp_path / "c.html"
    code, _, err = run("compare", "enfle/academie", "enfle/foster", "--games", "20", "--html", page)
    assert code == 0, err
    text = page.read_text()
    figures = re.findall(r'<figure><img alt="([^"]*)" src="data:image/png;base64,[^"]+"><figcaption>([^<]*)<', text)
    assert len(figures) >= 4
    for alt, caption in figures:
        assert caption != alt and len(caption) > len(alt)  # a caption says how to read the plot
    assert "Fixed by the rules" in text and "Balance" in text


def test_whole_numbers_are_binned_on_whole_numbers():
    from academie.compare_html import _bins

    assert _bins([3, 5, 9]) == (3, 1)  # one bar per count, centred on it
    assert _bins(list(range(0, 200))) == (0, 5)


def test_a_dollar_in_a_name_is_no_formula_in_the_plots(run, tmp_path):
    from academie.dsl.loader import corpus_root

    f = tmp_path / "t$\\frac{1$.yaml"
    f.write_text((corpus_root() / "enfle" / "academie.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = run("compare", f, "enfle/foster", "--games", "3", "--html", tmp_path / "c.html")
    assert code == 0, err


def test_a_fault_found_in_play_on_a_worker_is_located(run):
    from pathlib import Path

    bad = Path(__file__).parent / "broken" / "fault-modulo-by-zero.yaml"
    code, _, err = run("compare", bad, "enfle/academie", "--games", "4", "--workers", "2")
    assert code == 2 and "fault-modulo-by-zero.yaml:6:22: remainder by zero" in err and "Traceback" not in err


def test_ctrl_c_stops_a_run_on_workers_plainly():
    import os
    import signal
    import subprocess
    import sys
    import time

    code = "import sys\nfrom academie.cli import main\nmain(sys.argv[1:], prog_name='academie')\n"
    args = ["compare", "enfle/academie", "enfle/foster", "--games", "200000", "--workers", "2"]
    p = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        time.sleep(4)  # playing on both workers
        os.killpg(p.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130 and "interrupted" in err and "Traceback" not in err


def test_legends_hide_nothing_and_each_unit_has_its_axis(monkeypatch):
    from academie import compare_html
    from academie.compare import play_measures

    figs = []
    monkeypatch.setattr(compare_html, "_png", lambda fig: figs.append(fig) or "data:image/png;base64,")
    a, b = load_side("enfle/academie"), load_side("enfle/foster")
    played = play_measures(a, b, 4, 30, "p", ("random",), workers=1, strong="first", weak="random")
    compare_html.plots(a.label, b.label, played)
    assert len(figs) >= 5
    for fig in figs:
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        for ax in fig.axes:
            leg = ax.get_legend()
            if leg is not None:  # drawn outside the axes: it covers no bar and no point
                assert not leg.get_window_extent(r).overlaps(ax.get_window_extent(r))
    lengths = figs[0].axes[0]
    xs = sorted(p.get_x() + p.get_width() / 2 for p in lengths.patches)
    blue = [p for p in lengths.patches if p.get_facecolor()[:3] == lengths.patches[0].get_facecolor()[:3]]
    assert blue and len(xs) == len(lengths.patches)
    # the two bars of a value sit either side of it: their midpoint is a whole number times the bin width
    width = 1 if "bars of" not in lengths.get_xlabel() else int(lengths.get_xlabel().split("bars of ")[1].split()[0])
    for p in blue:  # A's bar stands just left of its value (B's just right): the value is a whole number
        value = p.get_x() + p.get_width() / 2 + 0.2 * width - (width - 1) / 2
        assert abs(value - round(value)) < 1e-9
    counts = figs[-1]  # per-hand and per-game counts: one axis per measure, in its own unit
    rows = [
        m for m in played["report"]["means"] if m["measure"] not in ("plays", "lead_change", "drama", "decisiveness")
    ]
    assert len(counts.axes) == len(
        [m for m in rows if m["a"]["n"] and m["b"]["n"] and (m["a"]["mean"] or m["b"]["mean"])]
    )


def test_every_measure_of_the_docs_is_reported_or_said_not_measured(run, tmp_path):
    """docs/measures.md lists the measures: the text, the JSON and the page give each with its interval,
    or say why this run cannot give it."""
    page = tmp_path / "c.html"
    args = ("compare", "emprunt/lacombe", "emprunt/lacombe+runs-to-king", "--games", "30", "-a", "first,random,random")
    code, out, err = run(*args, "--html", page)
    assert code == 0, err
    html_text = page.read_text()
    for text in (out, html_text):
        assert "Completion: games that end by the rules" in text and "100.0% [88.6%, 100.0%]" in text
        assert "seat 2" in text  # the wins by seat number, beside those by position
        assert "DurationMoves" in text
        for label in ("LeadChange", "Drama", "DecisivenessMoves"):
            assert f"{label}: share of" in text
        assert "n/a: a game is one hand in both" in text
        assert "skill gap and luck" in text and "give --strong and --weak" in text
        assert "tricks per hand" in text  # a counter neither side uses, said so
    line = next(x for x in out.splitlines() if x.strip().startswith("first "))
    assert line.count("%") == 6  # the share of a game won by a 'first' seat, with its interval, A and B
    play = json.loads(run(*args, "--json")[1])["play"]
    props = {r["measure"]: r for r in play["proportions"]}
    assert props["completion"]["a"]["p"] == 1 and props["completion"]["a"]["low"] < 1
    assert [s["seat"] for s in play["win_share_by_seat"]] == [0, 1, 2]
    assert all(s["a"]["low"] <= s["a"]["p"] <= s["a"]["high"] for s in play["win_share_by_seat"])
    kinds = {r["agent"]: r for r in play["win_share_by_agent"]}
    assert set(kinds) == {"first", "random"} and kinds["first"]["a"]["low"] <= kinds["first"]["a"]["mean"]
    assert {x["measure"] for x in play["not_measured"]} == {"lead_change", "drama", "decisiveness", "skill"}
    code, out, err = run("compare", "polignac/boussac", "polignac/boussac+capot", "--games", "10")
    assert code == 0, err
    assert "declarations per hand" in out  # the counter of declarations, where a side declares
    assert "win share by kind of player" in out and "every seat plays the same agent" in out
