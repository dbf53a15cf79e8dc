"""The table speaks: every change of a counter a player sees is an event naming its rule, told
in the game's words; no table or narration shows a rule file's name, None or an expression."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import academie
from academie.cli.play import TerminalHuman
from academie.narrate import narrate
from academie.serve.app import counters_shown
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(f"{p.parent.name}/{p.stem}" for p in (ROOT / "rules").glob("*/*.yaml"))
SEEDS = (1, 2)
EXPR = re.compile(r"\(seat|==|!=|<=|>=|\bNone\b|\bif .* then\b")


def _shown_cells(st: State) -> dict:
    g = st.g
    cells = {}
    for k, v in st.vars.items():
        if g.shown.get(k) != "hidden":
            cells[(k, None)] = v
    for k, row in st.pvars.items():
        if g.shown.get(k) != "hidden":
            for s, v in enumerate(row):
                cells[(k, s)] = v
    return cells


def _played(ref: str, seed: int):
    """A random game of ``ref``: its events, and every change of a shown counter no event told."""
    game = academie.load_game(ref)
    g = game.gamedef
    box: dict = {}
    events: list[dict] = []
    untold: list = []

    def sink(ev: dict) -> None:
        st = box.get("st")
        events.append(ev)
        if st is None:  # the state is being built: its first events come before it is ours
            box.setdefault("early", []).append(ev)
            return
        expected = box["expected"]
        t = ev["type"]
        if t == "hand_start":  # the counters of a hand set back: read afresh
            box["expected"] = _shown_cells(st)
            return
        if t == "score":
            assert ev.get("rule"), ev
            for s in ev.get("seats") or [ev.get("seat")]:
                expected[(ev["counter"], s)] = ev["total"]
        elif t == "stake":  # a stake placed, taken down or settled (kind: stake, the stake effect)
            expected[("stake:" + ev["on"], ev["seat"])] = ev["amount"]
        elif t in ("number", "suit") and ev.get("into"):
            expected[(ev["into"], ev["seat"])] = ev["value"]
        now = _shown_cells(st)
        for cell, v in now.items():
            if expected.get(cell) != v:
                if t == "deliver" and cell[1] == ev["seat"] and v == len(ev.get("cards", ())):
                    expected[cell] = v  # choose_cards into: the number of cards the seat chose
                    continue
                untold.append((cell, expected.get(cell), v, t))
                expected[cell] = v

    n = g.min_players
    # the first events come while the state is built: the counters then are read once it is
    st = State(g, n, seed, keep_events=False, sink=sink, max_plays=4000)
    box["st"], box["expected"] = st, _shown_cells(st)
    play(st, make_agents(["random"], n, seed))
    return g, events, untold


@pytest.mark.parametrize("ref", GAMES)
def test_every_change_of_a_shown_counter_is_an_event_with_its_rule_and_a_sentence(ref):
    scored = 0
    for seed in SEEDS:
        g, events, untold = _played(ref, seed)
        assert not untold, f"{ref} seed {seed}: counters changed with no event: {untold[:5]}"
        for ev in events:
            if ev["type"] != "score":
                continue
            scored += 1
            assert g.shown.get(ev["counter"]) != "hidden"
            assert isinstance(ev["rule"], list) and ev["rule"]
            line = narrate(ev)
            assert line is not None
            word = g.labels.get(ev["counter"], ev["counter"])
            assert word in line.text, (line.text, ev)
            assert not EXPR.search(line.text), line.text
    if any(g.shown.get(k) != "hidden" for k in _set_by_effects(g.doc.data) & set(g.vars)):  # a count players see, told
        assert scored, f"{ref}: no score event in {len(SEEDS)} games"


def _set_by_effects(data) -> set:
    """The counters the rule document's set/add effects change."""
    out: set = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k in ("set", "add") and isinstance(v, dict):
                out.update(v)
            else:
                out |= _set_by_effects(v)
    elif isinstance(data, list):
        for x in data:
            out |= _set_by_effects(x)
    return out


@pytest.mark.parametrize("ref", GAMES)
def test_no_table_or_narration_shows_a_rule_files_name_none_or_an_expression(ref):
    g, events, _ = _played(ref, 3)
    raw = {k for k in g.vars if g.labels.get(k, k) != k}
    texts = [line.text for ev in events if (line := narrate(ev)) is not None]
    st = State(g, g.min_players, 3, keep_events=False)
    human = TerminalHuman(g.min_players, out=io.StringIO())
    rng_agents = make_agents(["random"], g.min_players, 3)
    for _ in range(200):  # the table as the terminal and the web page show it, move after move
        seat = st.current_player()
        if seat is None:
            break
        human.table(st, seat)
        for s in range(g.min_players):
            texts += [f"{k} {v}" for k, v in counters_shown(st.pvars, g, s).items()]
        texts += [f"{k} {v}" for k, v in counters_shown(st.vars, g, None).items()]
        st.apply(rng_agents[seat].choose(st, seat, st.legal_moves()))
    texts.append(human.out.getvalue())
    text = "\n".join(texts)
    assert not re.search(r"\bNone\b", text)
    for name in raw:
        # as a table shows a counter (its word, its value): never by the rule file's name
        shown = re.search(rf"(?:^|, |; |\{{)'?{re.escape(name)}'?:? (-?\d|\?|none)", text, re.M)
        assert not shown, f"{ref}: the counter {name} by its name: {shown}"
    assert not EXPR.search(text), EXPR.search(text)


def test_a_score_event_about_a_cell_a_seat_may_not_see_shows_it_no_value():
    """Whist's honours are counted at the deal from each hand: through the API each seat sees the
    value of its own count and only that the others' changed."""
    state = academie.load_game("whist/hoyle").new_state(players=4, seed=3)
    for seat in range(4):
        told = [ev for ev in state.observation(seat)["events"] if ev["type"] == "score" and ev["counter"] == "honours"]
        assert told, "the honours counted at the deal are events"
        for ev in told:
            if ev["seat"] == seat:
                assert ev["total"] == state.engine.pvars["honours"][seat]
            else:
                assert "total" not in ev and "amount" not in ev, ev
                assert "not seen" in narrate(ev).text
