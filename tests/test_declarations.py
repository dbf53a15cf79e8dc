"""Declarations are public, in words: a count the rules have a player say aloud when it scores
(``shown: declared``) is seen by every seat from the moment it is declared, with what the
declaration says (``shown: {declared_with: …}``: the count of a point), and told as a sentence
("seat 1 declares point 5 (…)"); a count that does not score is kept by its holder."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import academie
from academie.narrate import narrate
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game

DECLARED = str(Path(__file__).parent / "concepts" / "declared.yaml")


def _declarations(obs: dict) -> list[dict]:
    return [e for e in obs["events"] if e["type"] == "score" and e.get("declared")]


def test_a_count_that_scores_is_seen_by_all_with_what_it_declares():
    state = academie.load_game(DECLARED).new_state(players=2, seed=4)  # hearts held: 3 and 2
    assert state.engine.pvars["held"] == [3, 2] and state.engine.pvars["good"] == [3, 0]
    other = state.observation(1)
    assert other["pvars"]["good"] == [3, "?"]  # seat 0's, declared; seat 1's own nothing: not said
    assert other["pvars"]["held"] == [3, 2]  # what seat 0 declared, with it
    assert state.observation(0)["pvars"]["held"] == [3, "?"]  # seat 1's count, not good: kept to himself
    (said,) = _declarations(other)
    assert said["seat"] == 0 and said["total"] == 3
    assert said["with"] == [{"counter": "held", "label": "hearts held", "total": 3}]
    assert narrate(said, you={1}).text == "Seat 0 declares hearts 3 (hearts held 3)."


def test_equal_counts_score_for_neither_and_neither_is_declared():
    state = academie.load_game(DECLARED).new_state(players=2, seed=5)  # 3 hearts each
    assert state.engine.pvars["held"] == [3, 3]
    for seat in (0, 1):
        obs = state.observation(seat)
        assert obs["pvars"]["held"][1 - seat] == "?"
        assert not _declarations(obs)
        assert all(e.get("total") is None for e in obs["events"] if e["type"] == "score" and e["seat"] != seat)


def test_declared_with_names_a_counter_kept_as_it_is(tmp_path):
    text = Path(DECLARED).read_text(encoding="utf-8").replace("{declared_with: good}", "{declared_with: nothing}")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("../../dsl/schema.json", "x"), encoding="utf-8")
    with pytest.raises(RuleError) as e:
        load_game(str(bad))
    assert "shown with 'nothing', which is no counter shown: declared and kept per seat" in str(e.value)
    assert ":22:" in str(e.value)  # the line of declared_with:
    original = Path(DECLARED).read_text(encoding="utf-8").replace("../../dsl/schema.json", "x")
    bad.write_text(original.replace("{declared_with: good}", "{declared_with: points}"), encoding="utf-8")
    with pytest.raises(RuleError) as e:  # a counter never declared: nothing to be shown with
        load_game(str(bad))
    assert "shown with 'points', which is no counter shown: declared" in str(e.value)


def _to_play(seed: int):
    state = academie.load_game("piquet/hoyle").new_state(players=2, seed=seed)
    rng = random.Random(seed)
    while state.decision_kind() != "play":
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_piquet_the_adversarys_point_is_narrated_with_its_count():
    """Hoyle: "The points, the tierces, quarts, quints, &c, are to be shown on the table, that their
    value may be seen and reckoned": the point that is good is declared to the adversary, its
    number of cards and its count; the one not good is not."""
    for seed in range(6):
        state = _to_play(seed)
        e = state.engine
        good = [s for s in (0, 1) if e.pvars["pointv"][s]]
        if not good:
            continue
        (holder,) = good
        adversary = 1 - holder
        obs = state.observation(adversary)
        said = [x for x in _declarations(obs) if x["counter"] == "pointv"]
        assert [x["seat"] for x in said] == [holder]
        line = narrate(said[0], you={adversary}).text
        pt = e.pvars["pt"][holder]
        assert line == f"Seat {holder} declares point {pt // 100} (point held (a hundred a card, and the pips) {pt})."
        assert "not seen" not in line
        assert obs["pvars"]["pt"][holder] == pt and obs["pvars"]["pointv"][holder] == pt // 100
        assert state.observation(holder)["pvars"]["pt"][adversary] == "?"  # not good: not shown
        return
    pytest.fail("no seed gave a good point")


def test_the_terminal_tells_a_human_the_declarations_and_nothing_of_a_point_kept(tmp_path):
    """academie play with a human: the adversary's point is told when he declares it, with its
    count; when it is not good, its count is never told (it was, before declarations were public)."""
    import json

    from click.testing import CliRunner

    from academie.cli import main

    word = "point held (a hundred a card, and the pips)"
    kept = declared = 0
    for seed in range(1, 6):
        for agents, other in (("human,random", 1), ("random,human", 0)):
            log = tmp_path / f"{seed}{other}.jsonl"
            args = ["play", "piquet/hoyle", "-s", str(seed), "--hands", "1", "--agents", agents, "--log", str(log)]
            out = CliRunner().invoke(main, args, input="1\ndone\n" + "1\n" * 40).output
            events = [json.loads(x) for x in log.read_text().splitlines()][1:]
            pt = {e["seat"]: e["total"] for e in events if e["type"] == "score" and e["counter"] == "pt"}
            good = {e["seat"]: e["total"] for e in events if e["type"] == "score" and e["counter"] == "pointv"}
            if other in good:
                assert f"seat {other} declares point {good[other]} ({word} {pt[other]})" in out
                declared += 1
            elif other in pt:
                assert f"seat {other}: {word}" not in out and f"seat {other} declares point" not in out
                assert f"seat {other} ({word}: not seen)" in out
                kept += 1
    assert kept and declared


def test_a_game_won_is_told_as_a_win_with_the_others_games_in_the_rubber(tmp_path):
    """Whist's games (vars: games: wins: {one: game, of: rubber}): "The rubber is the best of three
    games" — each game won told with the score of the rubber, in the terminal, the API's
    observation and a replay of the log."""
    from click.testing import CliRunner

    from academie.cli import main

    log = tmp_path / "whist.jsonl"
    out = CliRunner().invoke(main, ["play", "whist/hoyle", "-p", "4", "-s", "2", "--log", str(log)]).output
    assert "seats 0 and 2 win the game: 1 game to 0 in the rubber" in out
    assert "seats 1 and 3 win the game: 1 game to 1 in the rubber" in out
    assert "seats 0 and 2 win the game: 2 games to 1 in the rubber" in out
    assert "score 1: games" not in out
    told = CliRunner().invoke(main, ["replay", str(log)]).output
    assert "Seats 0 and 2 win the game: 1 game to 0 in the rubber." in told
    assert "Seats 0 and 2 win the game: 2 games to 1 in the rubber." in told

    state = academie.load_game("whist/hoyle").new_state(players=4, seed=2)
    rng = random.Random(0)
    while not state.is_terminal() and not any(state.engine.pvars["games"]):
        state.apply(rng.choice(state.legal_moves()))
    for seat in range(4):
        obs = state.observation(seat)
        (ev,) = [
            e
            for e in [x for hand in obs["earlier_hands"] for x in hand] + obs["events"]
            if e["type"] == "score" and e["counter"] == "games"
        ]
        assert ev["won"] == {"one": "game", "of": "rubber", "others": [0]}
        line = narrate(ev, you={seat}).text
        assert line.startswith("Seats ") and line.endswith("win the game: 1 game to 0 in the rubber."), line
