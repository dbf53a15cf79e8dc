"""The table speaks in the browser: Piquet's discard asked with how many cards and where they go,
the cards chosen marked, the adversary's declarations narrated in the log with what they count;
Euchre's order-up answered by a button in words; on a phone, the set-up form folded away once the
game starts, the hand seen without scrolling."""

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
    _start(page, server, "piquet/hoyle", 2, 2)
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
        if re.search(r"scores \d+: count", log):  # the declarations made, the count begun
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
    # the adversary's declarations said aloud, in words, with what they count (the point with its count)
    said = re.findall(r"Seat 1 declares (point|sequences|quatorze or three|carte blanche) (\d+)", log)
    assert said and all(int(n) > 0 for _, n in said), log[-1500:]
    assert ("point", "6") in said  # seed 2: the adversary's point is good
    assert re.search(r"Seat 1 declares point 6 \(point held \(a hundred a card, and the pips\) 6\d\d\)", log)
    assert not re.search(r"\((point|sequences|quatorze or three|carte blanche): not seen\)", log), log[-1500:]
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


@pytest.mark.parametrize("game, players", [("piquet/hoyle", 2), ("whist/hoyle", 4)])
def test_a_phone_sees_its_hand_without_scrolling_and_can_open_the_form_again(browser, server, game, players):  # noqa: F811
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    _start(page, server, game, players, 1)
    assert not page.is_visible("#setup-form")  # folded away once the game starts
    hand = page.query_selector("#hand button").bounding_box()
    last = page.query_selector("#hand button >> nth=-1").bounding_box()
    assert page.evaluate("window.scrollY") == 0
    assert hand["y"] >= 0 and last["y"] + last["height"] <= 844, (hand, last)
    page.click("#setup summary")  # opened again, to start another game
    assert page.is_visible("#setup-form") and page.is_visible("#start")
    page.close()
