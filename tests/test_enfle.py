"""L'Enflé (rules/enfle/academie.yaml) played from data alone."""

import json

import pytest

from conftest import moves, read_log

# The hand of tests/data/enfle4-midtrick.yaml, worked out by hand: dealer 0,
# `first` agents (lowest card in canonical order), K high and the ace lowest.
WORKED = (
    "p1:2S p2:3S p3:8S p0:7S t3 "  # 8S is the highest spade
    "p3:10S p0:9S p1:4S p2:QS t2 "
    "p2:3H p3:2H p0:4H p1:9H t1 "
    "p1:5S r2 p2:5S p3:JS p0:KS p1:6S t0 "  # seat 2 has no spade: takes 5S, leads it
    "p0:7H p1:10H r2 p2:7H p3:5H r0 p0:5H p1:JH p2:10H p3:6H t1 "
    "p1:QH r2 p2:QH p3:8H p0:7H p1:AH t2 "  # the ace is the lowest heart
    "p2:3D p3:4D p0:2D p1:9D t1 "
    "p1:JD p2:7D p3:KD p0:5D t3 "
    "p3:2C p0:7C p1:10C end:1"  # 10C was seat 1's last card: mid-trick
).split()


def test_worked_hand_from_a_given_deal(run, data, tmp_path):
    log = tmp_path / "out.jsonl"
    code, out, err = run(
        "play",
        "enfle/academie",
        "--players",
        4,
        "--agents",
        "first,first,first,first",
        "--deal",
        data / "enfle4-midtrick.yaml",
        "--dealer",
        0,
        "--hands",
        1,
        "--log",
        log,
    )
    assert code == 0, err
    events = read_log(log)
    assert moves(events) == WORKED
    takes = [e for e in events if e["type"] == "take" and e["to"] == "hand"]
    rule = ["hand", "play", "cannot_follow", 0]  # each pick-up names the rule that made it
    assert takes[0] == {"type": "take", "seat": 2, "cards": ["5S"], "to": "hand", "rule": rule}
    assert takes[2] == {"type": "take", "seat": 0, "cards": ["7H", "5H"], "to": "hand", "rule": rule}
    # the pot of four chips goes to the winner of the hand
    pays = [e for e in events if e["type"] == "pay" and e["from"] == "pot"]
    assert pays == [{"type": "pay", "from": "pot", "to": 1, "amount": 4, "unit": "chip", "rule": ["hand", "collect"]}]


def test_stacked_deck_is_dealt_three_at_a_time_from_the_dealers_right(run, data, tmp_path):
    log = tmp_path / "out.jsonl"
    code, out, err = run(
        "play",
        "enfle/academie",
        "--players",
        4,
        "--agents",
        "first,first,first,first",
        "--deck",
        data / "enfle4-midtrick.deck",
        "--dealer",
        0,
        "--hands",
        1,
        "--log",
        log,
    )
    assert code == 0, err
    events = read_log(log)
    deal = next(e for e in events if e["type"] == "deal")
    import yaml

    given = yaml.safe_load((data / "enfle4-midtrick.yaml").read_text())
    assert deal["hands"] == [[str(c) for c in h] for h in given["hands"]]
    assert deal["stock"] == given["stock"]
    assert moves(events) == WORKED


def test_a_game_has_one_hand_per_dealer_moving_to_the_right(run, tmp_path):
    log = tmp_path / "out.jsonl"
    code, _, err = run("play", "enfle/academie", "-p", 5, "-s", 8, "--dealer", 3, "--log", log)
    assert code == 0, err
    starts = [e["dealer"] for e in read_log(log) if e["type"] == "hand_start"]
    assert starts == [3, 4, 0, 1, 2]


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_every_player_count_plays_a_complete_game(run, players):
    code, out, err = run("play", "enfle/academie", "--players", players, "--seed", 3, "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert not summary["unfinished"]
    assert len(summary["hands"]) == players  # one hand per dealer
    assert all(h["winner"] is not None for h in summary["hands"])
    chips = sum(b["chip"] for b in summary["balances"].values())
    assert chips == players * players  # each starts with n chips
    assert summary["standings"][0]["score"] == max(b["chip"] for h, b in summary["balances"].items() if h.isdigit())


def test_same_seed_same_log_byte_for_byte(run, tmp_path):
    logs = []
    for i in range(3):
        log = tmp_path / f"{i}.jsonl"
        seed = 11 if i < 2 else 12
        code, _, err = run("play", "enfle/academie", "-p", 6, "-s", seed, "--log", log)
        assert code == 0, err
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_narrative_shows_deal_plays_and_result(run):
    code, out, err = run("play", "enfle/academie", "-p", 5, "-s", 3)
    assert code == 0
    assert "== Hand 5" in out and "== Game over" in out
    assert "plays" in out and "wins." in out
