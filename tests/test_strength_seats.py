"""``benchmarks/players.py strength`` seats the search only where a seat decides something, and can
set beside each game the same deal played by a random player in that seat (``--paired``)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location("bench_players", ROOT / "benchmarks" / "players.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_search_is_seated_only_where_a_seat_decides_something():
    """Faro's banker only turns the cards (the punters stake): a search seated there would measure the
    punters' play, so every game seats it at a punter; where every seat decides (Écarté), seat i mod n
    as before, so the games already measured keep their seats and figures."""
    b = _bench()
    assert b.seats_that_decide("faro/hoyle", 2) == [1]
    assert b.seats_that_decide("faro/hoyle", 4) == [1, 2, 3]
    assert b.seats_that_decide("ecarte/hoyle", 2) == [0, 1]
    seat, *_ = b.play_match(("faro/hoyle", 2, 0, "random", 1))
    assert seat == 1
    assert [b.play_match(("ecarte/hoyle", 2, i, "random", 1))[0] for i in range(2)] == [0, 1]


def test_a_paired_game_sets_a_random_player_in_the_same_seat_on_the_same_deal():
    b = _bench()
    seat, win, margin, _, _, extra = b.play_match(("ecarte/hoyle", 2, 1, "random", 1, True))
    assert seat == 1 and set(extra) == {"random_win", "random_margin"}
    # the random player in the seat is the game's own random play: the same deal, the same opponents
    base = b._play_seated(
        b.academie.load_game("ecarte/hoyle"),
        2,
        1,
        1,
        b.academie.agent("random", seed="1:1:random-in-seat"),
        "random",
        1,
    )
    assert (extra["random_win"], extra["random_margin"]) == base[:2]
    rows = [
        {
            "game": "g",
            "players": 2,
            "against": "random",
            "iterations": 1,
            "win": w,
            "margin": m,
            "hands": 1,
            "seconds": 1.0,
            "random_win": 0.0,
            "random_margin": r,
        }
        for w, m, r in [(1.0, 4, -2), (0.0, -1, -3), (1.0, 2, 2)]
    ]
    (row,) = b.summary(rows)
    assert row["paired_gain"] == 2.67 and row["random_in_seat_margin"] == -1.0
    assert row["paired_gain_ci"][0] < 2.67 < row["paired_gain_ci"][1]  # (6 + 2 + 0) / 3


def test_the_player_that_searches_is_chosen_and_its_games_kept_apart():
    """``strength --player mc`` seats ``mc`` in the seat: its rows say so, and ``report`` never counts
    them with ``ismcts``'s games of the same game and iterations (a row without ``player`` is ismcts's)."""
    b = _bench()
    job = ("ecarte/hoyle", 2, 1, "random", 2, False)
    played = [b.play_match((*job, name))[1:3] for name in ("mc", "ismcts")]
    assert b.play_match(job)[1:3] == played[1]  # ismcts when not said
    seen: list = []
    real = b.academie.agent
    b.academie.agent = lambda name, **kw: seen.append(name) or real(name, **kw)
    try:
        b.play_match((*job, "mc"))
    finally:
        b.academie.agent = real
    assert seen[0] == "mc"
    row = {"game": "g", "players": 2, "against": "random", "iterations": 2, "win": 1.0, "margin": 3, "hands": 1}
    rows = b.summary([{**row, "seconds": 1.0}, {**row, "seconds": 1.0, "margin": -3, "player": "mc"}])
    assert sorted((r.get("player", "ismcts"), r["games"], r["margin"]) for r in rows) == [
        ("ismcts", 1, 3),
        ("mc", 1, -3),
    ]


def test_the_searching_players_parameters_are_passed_and_kept_apart():
    """``strength --player-param root=paired`` gives the parameter to the player in the seat; a row
    says ``params``, and ``report`` (``summary``) and ``--resume`` never count such games with those
    of the player's defaults."""
    b = _bench()
    seen: list = []
    real = b.academie.agent
    b.academie.agent = lambda name, **kw: seen.append((name, kw.get("root"))) or real(name, **kw)
    try:
        b.play_match(("ecarte/hoyle", 2, 1, "random", 2, False, "ismcts", {"root": "paired"}))
    finally:
        b.academie.agent = real
    assert seen[0] == ("ismcts", "paired")
    assert b.player_params(["root=paired", "c=1"]) == {"root": "paired", "c": "1"}
    row = {"game": "g", "players": 2, "against": "random", "iterations": 2, "win": 1.0, "margin": 3, "hands": 1}
    rows = b.summary([{**row, "seconds": 1.0}, {**row, "seconds": 1.0, "margin": -3, "params": {"root": "paired"}}])
    assert sorted((r.get("params", {}).get("root", "-"), r["games"], r["margin"]) for r in rows) == [
        ("-", 1, 3),
        ("paired", 1, -3),
    ]
    assert "(root=paired)" in b.markdown([r for r in rows if "params" in r])
