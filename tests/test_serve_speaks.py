"""The table speaks in the browser: Piquet's discard asked with how many cards and where they go,
the cards chosen marked, a declaration narrated in the log; Euchre's order-up answered by a
button in words."""

import re

import pytest

from test_serve import CHROMIUM, browser, server  # noqa: F401 (the fixtures)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")


def _start(page, url, game, players, seed):
    page.goto(url)
    page.select_option(
        "#game",
        label=next(
            o
            for o in page.eval_on_selector_all("#game option", "os => os.map(o => o.textContent)")
            if o.startswith(game + " ")
        ),
    )
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#hand button")


def _move(page, selector):
    before = page.text_content("#log")
    page.click(selector)
    page.wait_for_function("b => document.getElementById('log').textContent !== b", arg=before)
    page.wait_for_selector("body[data-sending='0']")  # every picked card sent


def test_piquets_discard_is_asked_and_a_declaration_is_narrated(browser, server):  # noqa: F811
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _start(page, server, "piquet/hoyle", 2, 1)
    asked = page.eval_on_selector("#declare .question", "q => q.firstChild.textContent")
    assert asked and re.search(r"(?i)choose (up to|\d+ to) \d+ cards to go to", asked), asked
    first = page.get_attribute("#hand button.legal >> nth=0", "data-card")
    page.click(f"#hand button[data-card='{first}']")  # picked: marked, not yet sent
    page.wait_for_selector(f"#hand button.chosen[data-card='{first}']")
    assert "Picked:" in page.text_content("#declare .picked")
    page.click(f"#hand button[data-card='{first}']")  # taken back before it is confirmed
    page.wait_for_selector(f"#hand button.chosen[data-card='{first}']", state="detached")
    assert page.query_selector("#hand button.chosen") is None
    page.click("#hand button.legal >> nth=1")
    page.click("#hand button.legal >> nth=2")
    assert page.text_content("#declare button.confirm") == "confirm 2 cards"
    _move(page, "#declare button.confirm")
    for _ in range(40):  # on to the count: a declaration in words in the log
        log = page.text_content("#log")
        if re.search(r"point", log):
            break
        confirm = page.query_selector("#declare button.confirm")
        if confirm is not None:  # another choice of cards: one picked, then confirmed
            if confirm.is_disabled():
                page.click("#hand button.legal >> nth=0")
            _move(page, "#declare button.confirm")
            continue
        done = page.query_selector("#declare button.move")
        _move(page, "#declare button.move >> nth=0" if done else "#hand button.legal >> nth=0")
    log = page.text_content("#log")
    assert re.search(r"[Ss]eat \d( \(you\))? (scores \d+: point \d+|\(point: not seen\))", log), log[-800:]
    assert not re.search(r"\bNone\b|\bpointv\b|\bseqlen\b", page.text_content("body"))
    assert errors == []
    page.close()


def test_euchres_order_up_is_a_button_in_words(browser, server):  # noqa: F811
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    for seed in range(1, 12):
        _start(page, server, "euchre/cassell", 2, seed)
        if page.query_selector("#declare button[data-move='1']") and "Order it up?" in (
            page.text_content("#declare") or ""
        ):
            break
    else:
        raise AssertionError("no seed had the human order it up")
    buttons = page.eval_on_selector_all("#declare button.move", "bs => bs.map(b => b.textContent)")
    assert buttons == ["pass", "order it up"]
    # why: the rule that asks, quoted
    assert "he can order it up" in page.text_content("#declare .question .explanation")
    _move(page, "#declare button[data-move='1']")
    assert "answers: order it up" in page.text_content("#log")
    page.close()
