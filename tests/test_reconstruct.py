"""academie reconstruct: the editorial readings of a rule file, played and weighed."""

import json

from academie.reconstruct import readings_of


def test_the_readings_are_the_options_with_an_editorial_note():
    rs = readings_of("emprunt/lacombe")
    assert [r.name for r in rs] == ["as written", "runs-to-king"]  # ante-two cites its source: a variant
    assert rs[1].options == ("runs-to-king",) and "footnote" not in rs[1].name
    assert "the sequence climbs to the king" in rs[1].reason
    both = readings_of("emprunt/lacombe", ("ante-two",))
    assert [r.options for r in both] == [("ante-two",), ("ante-two", "runs-to-king")]


def test_reconstruct_ranks_the_readings_and_says_why(run):
    args = ("reconstruct", "emprunt/lacombe", "--games", "150", "--strong", "first", "--weak", "random")
    code, out, err = run(*args)
    assert code == 0, err
    assert "1. 'runs-to-king'" in out and "2. 'as written'" in out
    why = out[out.index("'runs-to-king' ranks first:") :]
    assert "fairer between the seats than 'as written' (significant at 95%)" in why
    assert "Balance between the seats:" in out and "Every reading ends" in out
    code, js, _ = run(*args, "--json")
    res = json.loads(js)
    assert [x["reading"] for x in res["ranking"]] == ["runs-to-king", "as written"]
    first = {r["reading"]: r for r in res["readings"]}
    assert first["as written"]["design"]["fairness"]["p_value"] < 0.05
    assert first["runs-to-king"]["skill"]["strong_win_share"]["n"] == 150


def test_the_same_numbers_for_any_workers(run):
    a = run("reconstruct", "emprunt/lacombe", "-n", "30", "--json", "-w", "1")[1]
    b = run("reconstruct", "emprunt/lacombe", "-n", "30", "--json", "-w", "2")[1]
    assert a == b


def test_html_page(run, tmp_path):
    page = tmp_path / "r.html"
    code, _, err = run("reconstruct", "emprunt/lacombe", "-n", "30", "--html", page)
    assert code == 0, err
    text = page.read_text()
    assert "data:image/png;base64," in text and "runs-to-king" in text and "[editorial]" in text
    assert "http://" not in text and "https://" not in text and "<script" not in text


def test_a_file_without_readings_is_a_located_error(run):
    code, _, err = run("reconstruct", "hearts/foster", "-n", "5")
    assert code == 2 and "offers no other reading" in err and "foster.yaml:1:1" in err


def test_bad_players_are_usage_errors(run):
    code, _, err = run("reconstruct", "emprunt/lacombe", "--strong", "first")
    assert code == 2 and "give both --strong and --weak" in err
    code, _, err = run("reconstruct", "emprunt/lacombe", "--weak", "nobody", "--strong", "first")
    assert code == 2 and "unknown agent 'nobody'" in err


def test_francion_readings_of_the_welche(run):
    assert [r.name for r in readings_of("francion/terrail")] == ["as written", "welche-led-as-heart"]
    code, out, err = run("reconstruct", "francion/terrail", "-n", "20", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert {x["reading"] for x in res["ranking"]} == {"as written", "welche-led-as-heart"}
    for r in res["readings"]:
        assert r["design"]["lead_change"]["n"] == 20 and r["design"]["drama"]["n"] > 0


def test_the_ranking_names_the_measures_that_decided_it(run):
    code, out, err = run("reconstruct", "emprunt/lacombe", "-n", "100", "--strong", "first", "--weak", "random")
    assert code == 0, err
    why = out[out.index("'runs-to-king' ranks first:") :]
    assert "the fairness test (χ² of the games won by each position against an even share) finds 'as written'" in why
    assert "the first leader wins 62.0% [52.2%, 70.9%] of the games of 'as written'" in why
    assert "Balance 0.54 in 'as written', 0.87 in 'runs-to-king'" in why
    assert "one first among random players wins" in why and "the difference +" in why
    code, out, err = run("reconstruct", "francion/terrail", "-n", "30")
    assert code == 0, err
    why = out[out.index("ranks first:") :]
    assert "the first dealer wins" in why  # the position most unlike an even share, not always the first leader


def test_an_order_within_chance_is_said_to_be_so(run):
    code, out, err = run("reconstruct", "francion/terrail", "-n", "400")
    assert code == 0, err
    assert "not significant at 95%" in out
    assert "No question separates" in out and "differences within chance" in out
