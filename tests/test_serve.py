"""``academie serve``: the JSON API in process (Starlette's test client), and
the whole page in a real headless Chromium (Playwright pointed at the system
browser): a whole hand of two corpus games played by clicks, a refused card
showing its source's words, no console error."""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import academie
from academie.serve.explain import duty_cites
from academie.serve.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(), base_url="http://127.0.0.1:8765")


def test_the_test_client_runs_on_the_http_client_starlette_asks_for():
    """The test extra installs httpx2, which starlette's TestClient asks for: importing it warns
    of nothing (with plain httpx it warns that httpx is deprecated there)."""
    r = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import starlette.testclient"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr


def key_of(client, gid):
    return next(g["key"] for g in client.get("/api/games").json() if g["id"] == gid)


def test_the_games_are_the_corpus_with_their_options(client):
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert {"hearts/foster", "enfle/academie", "francion/terrail"} <= set(games)
    assert {o["name"] for o in games["hearts/foster"]["options"]} >= {"sweepstakes"}
    assert games["francion/terrail"]["players"] == [3, 5]
    page = client.get("/").text
    assert "hearts/foster" in page and "/static/app.js" in page


def test_the_game_chooser_groups_the_games_by_family_of_play(client):
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games["hearts/foster"]["family"] == "trick" and games["klondike/cadogan"]["family"] == "patience"
    page = client.get("/").text
    heads = re.findall(r'<optgroup label="([^"]+)">', page)
    assert heads[:2] == ["trick games", "stops games"] and "patience games" in heads
    assert len(heads) == len(set(heads))  # one group a family
    # each option sits under its family's heading, and keeps the key the API gives it
    for head, body in re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', page, re.S):
        for key, gid in re.findall(r'<option value="(\d+)">([^ ]+) ', body):
            g = games[gid]
            assert g["key"] == int(key) and head == f"{g['family']} games"


def test_a_new_game_shows_the_table_as_the_human_sees_it(client):
    r = client.post(
        "/api/new",
        json={"game": key_of(client, "hearts/foster"), "players": 4, "seats": ["human", "random", "random", "random"]},
    )
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["seat"] == 0 and v["current_player"] == 0 and not v["terminal"]
    assert [s["hand_size"] for s in v["seats"]][0] == len(v["hand"])
    # the other seats played before the human: who played which card, cards with their symbols
    assert all(p["text"][-1] in "♠♥♦♣" for p in v["trick"])
    assert all(re.search("[♠♥♦♣]", c["text"]) for c in v["hand"])
    # a payment or the deal names the rule that acted, with its words
    ruled = [line for line in v["log"] if line["rule"]]
    assert all(line["rule"]["cites"] or line["rule"]["editorial"] for line in ruled)


def test_a_refused_card_comes_back_with_the_follow_rule_and_its_words(client):
    key = key_of(client, "hearts/foster")
    for seed in range(20):
        v = client.post("/api/new", json={"game": key, "players": 4, "seed": seed}).json()
        for _ in range(13):
            bad = [c["card"] for c in v["hand"] if not c["legal"]]
            if bad and v["led"]:
                r = client.post(f"/api/game/{v['id']}/play", json={"move": bad[0]}).json()
                refused = r["refused"]
                assert refused["rule"] == ["hand", "play", "follow", "must", 0]
                doc = academie.load_game("hearts/foster").gamedef.doc
                # the quotations of the duty to follow suit, the sentence made from the rule
                cites = duty_cites(doc, refused["rule"])
                assert [c["quote"] for c in refused["explained"]["cites"]] == [c.quote for c in cites]
                assert all("must follow suit" in c.quote for c in cites) and cites
                assert "you must follow suit: play one of" in refused["text"] and "card.suit" not in refused["text"]
                assert r["hand"] == v["hand"]  # nothing was played
                return
            v = client.post(f"/api/game/{v['id']}/play", json={"move": v["legal"][0]["move"]}).json()
            if v["terminal"] or v["hand_no"] > 1:
                break
    raise AssertionError("no refused card in twenty games")


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": 999}, "no such game"),
        ({"game": "../../etc/passwd"}, "no such game"),
        ({"game": 0, "players": 99}, "players"),
        ({"game": 0, "options": ["nope"]}, "options"),
        ({"game": 0, "players": 3, "seats": ["human", "robot", "random"]}, "agent"),
    ],
)
def test_a_bad_request_is_refused_and_names_no_path(client, body, words):
    if body.get("game") == 0:  # a game of three to six players
        body = {**body, "game": key_of(client, "hearts/foster")}
    r = client.post("/api/new", json=body)
    assert r.status_code == 400 and words in r.json()["error"]


def test_unknown_game_ids_and_moves(client):
    assert client.get("/api/game/nope").status_code == 404
    assert client.get("/static/../../pyproject.toml").status_code == 404
    assert client.get("/static/app.js").status_code == 200
    v = client.post("/api/new", json={"game": key_of(client, "hearts/foster"), "players": 4}).json()
    r = client.post(f"/api/game/{v['id']}/play", json={"move": "ZZ"})
    assert r.status_code == 400
    r = client.post(f"/api/game/{v['id']}/play", content=b"not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400


def test_serve_binds_to_this_machine_by_default(run):
    code, out, _ = run("serve", "--help")
    assert code == 0 and "127.0.0.1" in out


# -- the page in a real browser ----------------------------------------------------------
CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "academie", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url, timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError(proc.stderr.read())
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium): the page is not tried in a browser")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def play_a_hand_by_clicks(browser, url, game, players, seed, shot=None, width=1200):
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
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
    refused_words = None
    clicks = 0
    while (
        page.get_attribute("#status", "data-results") == "0" and page.get_attribute("#status", "data-terminal") == "0"
    ):
        before = page.text_content("#log")
        bad = page.query_selector("#hand button:not(.legal)")
        if refused_words is None and bad is not None:
            bad.click()
            page.wait_for_selector("#message:not([hidden])")
            refused_words = page.text_content("#message")
            assert page.text_content("#log") == before  # nothing was played
        page.click("#hand button.legal >> nth=0")
        page.wait_for_function("b => document.getElementById('log').textContent !== b", arg=before)
        clicks += 1
        assert clicks < 200
    if shot:
        page.screenshot(path=str(shot), full_page=True)
    text = page.text_content("body")
    page.close()
    return clicks, refused_words, text, errors


@pytest.mark.parametrize("game, players, seed", [("hearts/foster", 4, 3), ("francion/terrail", 3, 2)])
def test_a_whole_hand_by_clicks_in_chromium(browser, server, game, players, seed):
    clicks, refused, text, errors = play_a_hand_by_clicks(browser, server, game, players, seed)
    assert clicks >= 5
    assert errors == []
    assert "ends" in text  # the end of the hand is in the log
    assert refused is not None, "no card was ever refused"
    doc = academie.load_game(game).gamedef.doc
    path = ("hand", "play", "follow", "must", 0)
    words = [c.quote for c in duty_cites(doc, path)]
    assert words and any(w in refused for w in words), refused


def test_the_console_check_would_see_an_error(browser, server):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.evaluate("setTimeout(() => undefinedFunction(), 0)")
    page.wait_for_timeout(200)
    page.close()
    assert errors


def test_the_page_fits_a_phone(browser, server):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server)
    page.click("#start")
    page.wait_for_selector("#hand button")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()


def test_screenshots(browser, server, tmp_path):
    """The README's pictures: the play page (a refused card explained), a replay page (a rule
    that acted, opened) and a compare report, each drawn in the browser; written over
    docs/screenshots when ACADEMIE_SCREENSHOTS=1, else to a scratch folder."""
    from academie.site import build, page_name

    if os.environ.get("ACADEMIE_SCREENSHOTS"):
        docs = Path(__file__).parent.parent / "docs" / "screenshots"
        docs.mkdir(exist_ok=True)
    else:
        docs = tmp_path / "shots"
        docs.mkdir()
    page = browser.new_page(viewport={"width": 1100, "height": 1000})
    page.goto(server)
    page.select_option(
        "#game",
        label=next(
            o
            for o in page.eval_on_selector_all("#game option", "os => os.map(o => o.textContent)")
            if o.startswith("hearts/foster ")
        ),
    )
    page.fill("#seed", "3")
    page.click("#start")
    page.wait_for_selector("#hand button")
    for _ in range(4):
        before = page.text_content("#log")
        page.click("#hand button.legal >> nth=0")
        page.wait_for_function("b => document.getElementById('log').textContent !== b", arg=before)
    bad = page.query_selector("#hand button:not(.legal)")
    if bad is not None:
        bad.click()
        page.wait_for_selector("#message:not([hidden])")
    page.screenshot(path=str(docs / "play.png"), full_page=True)
    build(tmp_path / "site")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto((tmp_path / "site" / page_name("compare", "enfle/academie-enfle/foster")).as_uri())
    page.screenshot(path=str(docs / "compare.png"))
    page.set_viewport_size({"width": 1100, "height": 1000})
    page.goto((tmp_path / "site" / page_name("replay", "enfle/academie")).as_uri())
    end = page.eval_on_selector_all(
        "section.step", "ss => ss.filter(s => s.textContent.includes('cannot follow'))[0].id"
    )
    page.goto((tmp_path / "site" / page_name("replay", "enfle/academie")).as_uri() + "#" + end)
    for d in page.query_selector_all(f"#{end} details"):
        d.evaluate("d => d.open = true")
    page.screenshot(path=str(docs / "replay.png"))
    page.close()
    for name in ("play.png", "compare.png", "replay.png"):  # each a picture of a page drawn
        data = (docs / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, name


# -- every game, and the user's own files ------------------------------------------------------
def test_every_corpus_game_plays_to_its_end_through_the_api(client):
    for g in client.get("/api/games").json():
        n = g["players"][0]
        v = client.post(
            "/api/new", json={"game": g["key"], "players": n, "seats": ["human"] * n, "seed": 4, "hotseat": True}
        ).json()
        for _ in range(400):
            if v["terminal"]:
                break
            assert v["legal"], (g["id"], v)
            assert v["seat"] == v["current_player"]  # each human sees the table from his own seat
            v = client.post(f"/api/game/{v['id']}/play", json={"move": v["legal"][-1]["move"]}).json()
            assert v.get("refused") is None
        assert all(isinstance(line["text"], str) for line in v["log"])


def test_a_rule_file_named_on_the_command_line_is_offered(tmp_path):
    concept = Path(__file__).parent / "concepts" / "penalty.yaml"
    mine = tmp_path / "mine.yaml"
    mine.write_text(concept.read_text(encoding="utf-8"), encoding="utf-8")
    c = TestClient(create_app([str(mine)]), base_url="http://127.0.0.1:8765")
    games = c.get("/api/games").json()
    assert games[-1]["id"].endswith("mine") or "mine" in games[-1]["id"]
    v = c.post("/api/new", json={"game": games[-1]["key"], "players": games[-1]["players"][0]}).json()
    assert "hand" in v


def test_a_faulty_rule_file_is_reported_before_serving(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: x\nplayers: {min: 2, max: [}\n")
    code, out, err = run("serve", bad, "--port", free_port())
    assert code == 2 and f"{bad}:2:" in err and "serving" not in out


def until_my_turn(client, v, seconds=60):
    """The table once the search players have played (they think on a worker thread: the page polls)."""
    end = time.monotonic() + seconds
    while v["thinking"]:
        assert time.monotonic() < end, "the search players never played"
        time.sleep(0.05)
        v = client.get(f"/api/game/{v['id']}").json()
    return v


def test_search_players_take_seats(client):
    """The seats may go to the search players: they play their turns, and a bad seat is refused."""
    body = {"game": key_of(client, "hearts/foster"), "players": 4, "seats": ["human", "ismcts", "mc", "random"]}
    v = until_my_turn(client, client.post("/api/new", json={**body, "seed": 5}).json())
    assert v["agents"] == ["human", "ismcts", "mc", "random"]
    plays = 0
    while not v.get("terminal") and plays < 13:  # a whole hand: the others answer each of the human's cards
        v = client.post(f"/api/game/{v['id']}/play", json={"move": v["legal"][0]["move"]}).json()
        v = until_my_turn(client, v)
        plays += 1
    log = client.get(f"/api/game/{v['id']}").json()
    text = json.dumps(log)
    assert plays == 13 and "seat 1" in text.lower() and "seat 2" in text.lower()
    bad = client.post("/api/new", json={**body, "seats": ["human", "ismcts", "alphazero", "random"]})
    assert bad.status_code == 400 and "ismcts" in bad.json()["error"]


def start_in_page(page, url, game, players, seats, hotseat=False, seed=1):
    page.goto(url)
    label = next(
        o
        for o in page.eval_on_selector_all("#game option", "os => os.map(o => o.textContent)")
        if o.startswith(game + " ")
    )
    page.select_option("#game", label=label)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    for s, agent in enumerate(seats):
        page.select_option(f"#seat-{s}", agent)
    if hotseat:
        page.check("#hotseat")
    page.fill("#seed", str(seed))
    page.click("#start")


def test_the_page_shows_a_search_player_thinking_and_disables_moves(browser, server):
    """The search players think on the server while the page asks again: it says who is
    thinking, and no card can be clicked meanwhile."""
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_in_page(page, server, "hearts/foster", 4, ["human", "ismcts", "mc", "ismcts"])
    page.wait_for_selector("#hand button")
    seen_thinking = moves = 0
    snap = """() => ({thinking: !document.getElementById('thinking').hidden,
        text: document.getElementById('thinking').textContent,
        enabled: [...document.querySelectorAll('#hand button, #declare button')].filter(b => !b.disabled).length})"""
    end = time.monotonic() + 60
    while moves < 4 and time.monotonic() < end:
        s = page.evaluate(snap)
        if s["thinking"]:
            seen_thinking += 1
            assert s["enabled"] == 0, s  # nothing can be played while a search player thinks
            assert "is thinking" in s["text"] and ("ismcts" in s["text"] or "mc" in s["text"])
        elif s["enabled"]:
            before = page.text_content("#log")
            page.click("#hand button.legal >> nth=0")
            page.wait_for_function("b => document.getElementById('log').textContent !== b", arg=before)
            moves += 1
        page.wait_for_timeout(30)
    page.close()
    assert moves == 4 and seen_thinking and errors == []


def test_two_people_on_two_browsers_each_see_their_own_hand(browser, server):
    """Each human seat has its own secret link: the second person opens it in another browser
    (context) and sees and plays seat 1 alone; the first never sees seat 1's cards."""
    first = browser.new_context().new_page()
    start_in_page(first, server, "hearts/foster", 4, ["human", "human", "random", "random"])
    first.wait_for_selector("#links code")
    link = first.text_content("#links p[data-seat='1'] code")
    assert link.startswith(server) and "#t=" in link
    second = browser.new_context().new_page()
    second.goto(link)
    second.wait_for_selector("#hand button")
    mine = set(first.eval_on_selector_all("#hand button", "bs => bs.map(b => b.dataset.card)"))
    theirs = set(second.eval_on_selector_all("#hand button", "bs => bs.map(b => b.dataset.card)"))
    assert mine and theirs and not mine & theirs
    assert "seat 1 (you)" in second.text_content("#seats-view") and "seat 0 (you)" not in second.text_content(
        "#seats-view"
    )
    for _ in range(6):  # whoever's turn it is plays; the other page follows by asking again
        for page in (first, second):
            if page.query_selector("#hand button.legal:not([disabled])"):
                before = page.text_content("#log")
                page.click("#hand button.legal:not([disabled]) >> nth=0")
                page.wait_for_function("b => document.getElementById('log').textContent !== b", arg=before)
                break
        else:
            first.wait_for_timeout(300)
    for page in (first, second):
        page.wait_for_timeout(1800)  # one poll
    logs = [first.text_content("#log"), second.text_content("#log")]
    assert logs[0].count("seat 1") > 0 and logs[1].count("seat 0") > 0
    first.context.close()
    second.context.close()


def test_hot_seat_hides_each_hand_until_its_owner_shows_it(browser, server):
    page = browser.new_page()
    start_in_page(page, server, "hearts/foster", 4, ["human", "human", "random", "random"], hotseat=True)
    page.wait_for_selector("#show-hand")
    shown = []
    for _ in range(8):
        if page.is_visible("#show-hand"):  # a new seat to play: its hand hidden until shown
            assert page.is_hidden("#hand") and page.is_hidden("#log")
            shown.append(page.text_content("#show-hand"))
            page.click("#show-hand")
        assert page.is_visible("#hand button")
        before = page.text_content("#log")
        page.click("#hand button.legal >> nth=0")
        page.wait_for_function("b => document.getElementById('log').textContent !== b", arg=before)
    page.close()
    assert len(set(shown)) == 2, shown  # seat 0's and seat 1's, each shown by its owner
