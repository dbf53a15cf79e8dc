"""Every event the engine writes is told in words (academie/narrate.py), the
same words in the terminal, on the web page and in the replay: no kind of
event left out, no "None", no raw dict or list, no "seat None", whether the
event is the logged one (every card named) or a seat's view of it (a card no
one saw only counted)."""

import json
import random
import re

import pytest

import academie
from academie.dsl.loader import corpus_ids, resolve
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State
from academie.narrate import KINDS, card_text, html, narrate, terminal

PLAYABLE = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]
RAW = re.compile(r"None|[{}\[\]]|\bseat (?!\d)")


def words_of(ev: dict, **kw) -> list[str]:
    line = narrate(ev, **kw)
    assert line is not None, f"no words for {ev}"
    return [line.text, line.clause, terminal(line), html(line)] + [d.clause for d in line.details]


def assert_told(ev: dict, **kw) -> None:
    for text in words_of(ev, **kw):
        assert text.strip() and not RAW.search(text), (text, ev)


@pytest.fixture(scope="module")
def logged() -> dict[str, list[dict]]:
    """Each corpus game played once by random seats, with its event log."""
    out = {}
    for cid in PLAYABLE:
        game = load_game(cid)
        n = game.min_players
        out[cid] = play(State(game, n, 7), make_agents(["random"], n, 7)).events or []
    return out


def test_every_kind_of_event_in_the_corpus_is_told(logged):
    kinds = set()
    for cid, events in logged.items():
        assert events, cid
        for ev in events:
            kinds.add(ev["type"])
            assert_told(ev)  # as the replay tells it: everything shown
            assert_told(ev, you={0}, hidden={1, 2, 3}, symbols=False, draw_lowest=False)  # a human at seat 0
    assert kinds <= KINDS, kinds - KINDS
    # the corpus has them all: a game's life from the draw for the deal to its end
    assert {"draw_for_dealer", "dealer", "shuffle", "cut", "deal", "play", "trick", "take", "pay", "give"} <= kinds


@pytest.mark.parametrize("cid", PLAYABLE)
def test_what_a_seat_sees_is_told(cid):
    """The web page narrates a seat's view of the events (``observation``):
    a deal by its hands' sizes, a card chosen or taken in secret by its number."""
    game = academie.load_game(cid)
    n = game.gamedef.min_players
    st = game.new_state(players=n, seed=5)
    rng = random.Random(5)
    for _ in range(400):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_moves()))
    obs = st.observation(0)
    for hand in obs["earlier_hands"] + [obs["events"]]:
        for ev in hand:
            assert_told(ev, you={0})


def test_hidden_cards_are_counted_not_named():
    deal = {"type": "deal", "hands": [["AS", "KD"], ["2C", "3C"]], "stock": ["QH"]}
    told = terminal(narrate(deal, you={0}, hidden={1}, symbols=False))
    assert "seat 0 (you): AS KD" in told and "seat 1: 2 cards" in told and "2C" not in told and "QH" not in told
    public = {"type": "deal", "hand_sizes": [12, 12], "stock": 8, "hand": ["AS"]}
    assert narrate(public).text == "Deal: 12 cards each, 8 to the stock."
    assert narrate({"type": "choose", "seat": 1}).text == "Seat 1 chooses a card."
    assert narrate({"type": "choose", "seat": 1, "card": "QS"}, hidden={1}).text == "Seat 1 chooses a card."
    given = {"type": "deliver", "seat": 1, "to": "hand", "to_seat": 2, "cards": ["QS", "2H"]}
    assert narrate(given, hidden={1, 2}, symbols=False).text == "Seat 1 gives 2 cards to seat 2's hand."
    assert narrate(given, hidden={2}, symbols=False).text == "Seat 1 gives QS 2H to seat 2's hand."
    take = {"type": "take", "seat": None, "count": 3, "to": "widow"}
    assert narrate(take).text == "The table takes 3 cards into widow."


def test_words_of_the_rule_file_are_escaped():
    """A zone, a unit or a declaration of an untrusted rule file cannot send
    control sequences to the terminal, nor markup to a page."""
    ev = {"type": "pay", "from": 0, "to": "po\x1b[2Jol", "amount": 2, "unit": "<b>chip</b>\u202e"}
    line = narrate(ev)
    assert "\x1b" not in terminal(line, style=True).replace("\x1b[1m", "").replace("\x1b[0m", "")
    assert "\u202e" not in line.text and "\\x1b" in line.text
    assert "<b>" not in html(line) and "&lt;b&gt;" in html(line)
    declared = narrate({"type": "declare", "seat": 1, "declaration": "\x07ring"})
    assert declared.text == "Seat 1 announces \\x07ring."


def test_the_parts_name_seats_and_cards():
    line = narrate({"type": "play", "seat": 2, "card": "QH"}, you={2})
    kinds = [(p.kind, p.value) for p in line.parts if p.kind != "text"]
    assert kinds == [("seat", 2), ("card", "QH")]
    assert line.text == "Seat 2 (you) plays Q♥." and line.as_dict()["parts"][0]["text"] == "Seat 2 (you)"
    assert '<span class="ev-card red">Q♥</span>' in html(line)


def test_every_kind_the_event_log_documents_is_told():
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "events.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(\w+)` \|", doc.split("**Which rule acted.**")[0], re.M))
    assert len(documented) > 20 and documented <= KINDS, documented - KINDS


def test_a_take_of_cards_no_one_saw_is_counted_for_the_others():
    from academie.narrate import Witness

    w = Witness({0})
    w.view({"type": "hand_start", "hand": 1, "dealer": 0})
    w.view({"type": "play", "seat": 1, "card": "QS"})
    assert (
        narrate(w.view({"type": "take", "seat": 1, "cards": ["QS"], "to": "hand"})).clause
        == "seat 1 takes Q♠ into hand"
    )
    secret = {"type": "take", "seat": 1, "cards": ["AS", "QS"], "to": "hand"}
    assert narrate(w.view(secret)).clause == "seat 1 takes 2 cards into hand"
    assert narrate(w.view({**secret, "seat": 0}), you={0}).clause == "seat 0 (you) takes A♠ Q♠ into hand"
    w.view({"type": "hand_start", "hand": 2, "dealer": 1})  # what was seen, seen in its hand only
    assert "count" in w.view({"type": "take", "seat": None, "cards": ["QS"], "to": "widow"})


def test_the_terminal_does_not_show_a_human_the_cards_another_seat_drew_from_the_talon(tmp_path):
    """Piquet: the younger hand (seat 1, a random player) takes cards of the talon into his hand;
    the human at seat 0 is told how many, not which."""
    from click.testing import CliRunner

    from academie.cli import main

    log = tmp_path / "log.jsonl"
    args = ["play", "piquet/hoyle", "-p", "2", "-s", "1", "--hands", "1", "--agents", "human,random", "--log", str(log)]
    r = CliRunner().invoke(main, args, input="1\ndone\n" + "1\n" * 300)  # a card laid out, confirmed; then play
    assert r.exit_code == 0, r.output
    events = [json.loads(x) for x in log.read_text().splitlines()]
    drawn = next(e for e in events if e["type"] == "take" and e["seat"] == 1 and e["to"] == "hand")
    told = re.search(r"seat 1 takes (.*) into hand", r.output).group(1)
    assert told == f"{len(drawn['cards'])} card" + ("s" if len(drawn["cards"]) != 1 else ""), told
    mine = next(e for e in events if e["type"] == "take" and e["seat"] == 0 and e["to"] == "hand")
    shown = {" ".join(mine["cards"]), " ".join(card_text(c) for c in mine["cards"])}  # his own, named
    assert any(f"seat 0 (you) takes {cards} into hand" in r.output for cards in shown)
