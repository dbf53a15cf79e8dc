"""``academie replay LOG [RULES]``: a logged game trick by trick, each rule
that acted in its source's words; a log that is no log is an error at its
line, never a traceback."""

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import academie
from academie.cli import main


def logged(run, tmp_path, *extra):
    log = tmp_path / "game.jsonl"
    code, _, err = run("play", "enfle/academie", "-p", 4, "-s", 3, "--hands", 1, "--log", log, *extra)
    assert code == 0, err
    return log


def test_trick_by_trick_with_the_rules_explained(run, tmp_path):
    log = logged(run, tmp_path)
    code, out, err = run("replay", log, "enfle/academie", "--no-step")
    assert code == 0, err
    assert "-- Hand 1: the deal" in out and "-- Hand 1, trick 1" in out and "-- Hand 1: the end" in out
    assert '§ "Before each hand, each of the players puts one of his chips into a pot' in out
    # the pick-up after a renounce, and the end of the hand, each with its own words
    assert "cannot follow" in out and "pick up all the cards played before him" in out
    assert "The hand ends immediately when a player has managed to get rid of all the cards" in out
    assert "5♠" in out or "♠" in out  # cards as the table shows them


def test_without_the_rules_the_events_only(run, tmp_path):
    log = logged(run, tmp_path)
    log.write_text(log.read_text().split("\n", 1)[1])  # a log without its game record (an older one)
    code, out, _ = run("replay", log, "--no-step")
    assert code == 0 and "-- Hand 1, trick 1" in out and "§" not in out
    assert "give the rule file after the log" in out


def test_step_by_step_stops_on_q(tmp_path, run):
    log = logged(run, tmp_path)
    r = CliRunner().invoke(main, ["replay", str(log), "enfle/academie", "--step"], input="\n\nq\n")
    assert r.exit_code == 0
    assert "-- Hand 1, trick 1" in r.stdout and "-- Hand 1: the end" not in r.stdout


def test_a_page_of_the_replay(run, tmp_path):
    log = logged(run, tmp_path)
    page = tmp_path / "replay.html"
    code, _, err = run("replay", log, "enfle/academie", "--html", page)
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert 'id="step1"' in text and 'href="#step2"' in text and "<details" in text and "<script" not in text


def test_a_log_that_is_no_log(run, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "hand_start", "hand": 1, "dealer": 0}\nnot json\n')
    code, out, err = run("replay", bad, "--no-step")
    assert code == 2 and f"{bad}:2:1: not JSON" in err and "Traceback" not in err
    bad.write_text("[1, 2]\n")
    code, _, err = run("replay", bad)
    assert code == 2 and ":1:1:" in err
    bad.write_bytes(b"\xff\xfe")
    code, _, err = run("replay", bad)
    assert code == 2 and "UTF-8" in err
    code, _, err = run("replay", tmp_path / "missing.jsonl")
    assert code == 2


def _styles(css: str) -> dict[str, str]:
    """Selector -> declarations of a page's style, whitespace removed."""
    return {sel.strip(): decl.replace(" ", "") for sel, decl in re.findall(r"([^{}]+)\{([^}]*)\}", css)}


def test_the_page_styles_the_narrations_seats_and_cards_as_the_web_page(run, tmp_path):
    log = logged(run, tmp_path)
    page = tmp_path / "replay.html"
    code, _, err = run("replay", log, "enfle/academie", "--html", page)
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    style = _styles(re.search(r"<style>(.*?)</style>", text, re.S).group(1))
    # the narration's spans are on the page: a seat, a card, a red card, a deal's hands
    assert '<span class="ev-seat">' in text and '<span class="ev-card">' in text
    assert '<span class="ev-card red">' in text and '<ul class="details">' in text
    # and styled as on the web page of academie serve
    web = _styles((Path(academie.__file__).parent / "serve" / "static" / "style.css").read_text(encoding="utf-8"))
    assert "font-weight:bold" in web[".log .ev-seat"] and "font-weight:bold" in style[".ev-seat"]
    assert "color:#c00000" in web[".ev-card.red"] and "color:#c00000" in style[".ev-card.red"]
    assert "DejaVuSans" in web[".ev-card"] and "DejaVuSans" in style[".ev-card"]
    assert "list-style:none" in web[".log ul.details"] and "list-style:none" in style["ul.details"]


CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)), None)


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
def test_the_page_shows_seats_in_bold_red_cards_in_red_on_a_phone(run, tmp_path):
    from playwright.sync_api import sync_playwright

    log = logged(run, tmp_path)
    page_file = tmp_path / "replay.html"
    code, _, err = run("replay", log, "enfle/academie", "--html", page_file)
    assert code == 0, err
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = b.new_page(viewport={"width": 390, "height": 844})
        page.goto(page_file.as_uri())
        got = page.evaluate(
            """() => {
              const s = q => getComputedStyle(document.querySelector(q));
              return [s('.ev-seat').fontWeight, s('.ev-card.red').color, s('ul.details').listStyleType,
                      document.documentElement.scrollWidth];
            }"""
        )
        b.close()
    assert got[:3] == ["700", "rgb(192, 0, 0)", "none"]
    assert got[3] <= 390  # the page still fits a phone's screen
