"""What a copy of a state costs, through the public API (academie.State).

    python benchmarks/clone.py               # every corpus game and option, 4 players where allowed
    python benchmarks/clone.py --json

For each game: a random game is played through the API to learn its length,
then a state is rebuilt at mid-game (half its moves) and timed:

* clone: ``state.clone()`` at mid-game (the interpreter's state copied as it is,
  paused at its decision);
* replay: ``state.clone_by_replay()`` at mid-game (a replay of every move made so far);
* playout: a random playout from that clone to the end, through the API;
* hand: one hand played by the interpreter alone (``simulate``'s way: random
  agents asked inside the loops, no event log), the whole game's time divided
  by its hands;
* api hand: one hand through the API from the start (the whole game's time,
  move by move, divided by its hands).

Each figure is the median of ``--number`` calls. ``clone / hand`` and
``replay / hand`` are the price of a copy against a hand played by the
interpreter: a clone by replay costs about as much as playing the moves made
so far through the API again; the clone, a copy of the state alone.

Beside them, when OpenSpiel is installed (``pip install open_spiel``), the same
figures for OpenSpiel's own Hearts (C++, driven from Python): ``state.clone()``
at mid-game, a random playout from it, and a whole game, in the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import academie
from academie.dsl.loader import corpus_ids, resolve
from academie.interpreter.simulate import play_one


def _variants():
    for cid in corpus_ids():
        if resolve(cid).data.get("abstract"):
            continue
        yield cid
        for opt in resolve(cid).data.get("options") or {}:
            yield f"{cid}+{opt}"


def _median(fn, number: int) -> float:
    """The median time of ``number`` calls of ``fn`` (robust to a busy machine)."""
    times = []
    for _ in range(number):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _random_game(game, players: int, seed, rng_seed) -> academie.State:
    state = game.new_state(players=players, seed=seed)
    rng = random.Random(rng_seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def measure(ref: str, players: int | None, number: int, seed="clone") -> dict:
    game = academie.load_game(ref)
    lo, hi = game.players
    n = min(max(players or 4, lo), hi)
    full = _random_game(game, n, seed, 0)
    moves = full.history
    hands = max(full.engine.hand_no, 1)
    mid = game.new_state(players=n, seed=seed)
    for m in moves[: len(moves) // 2]:
        mid.apply(m)
    rng = random.Random(1)
    clone = _median(mid.clone, number)
    replay = _median(mid.clone_by_replay, number)
    copies = [mid.clone() for _ in range(number)]

    def playout():
        s = copies.pop()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))

    out = _median(playout, number)
    engine_game = _median(lambda: play_one(game.gamedef, n, seed, ["random"], 50_000), number)
    engine_hands = max(play_one(game.gamedef, n, seed, ["random"], 50_000).hand_no, 1)
    api_game = _median(lambda: _random_game(game, n, seed, 0), number)
    return {
        "game": ref,
        "players": n,
        "moves": len(moves),
        "mid": len(moves) // 2,
        "hands": hands,
        "clone_ms": clone * 1e3,
        "replay_ms": replay * 1e3,
        "playout_ms": out * 1e3,
        "hand_ms": engine_game / engine_hands * 1e3,
        "api_hand_ms": api_game / hands * 1e3,
        "clone_per_hand": clone / (engine_game / engine_hands),
        "replay_per_hand": replay / (engine_game / engine_hands),
    }


def openspiel_hearts(number: int) -> dict | None:
    """OpenSpiel's C++ Hearts at mid-game: its clone, a random playout from the
    clone, and a whole random game (its one hand), each the median of ``number``
    calls; None if OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def playout(state):
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return state

    whole = playout(game.new_initial_state())
    length = len(whole.history())
    mid = game.new_initial_state()
    for a in whole.history()[: length // 2]:
        mid.apply_action(a)
    clone_ms = _median(mid.clone, number) * 1000
    playout_ms = _median(lambda: playout(mid.clone()), number) * 1000
    game_ms = _median(lambda: playout(game.new_initial_state()), number) * 1000
    return {
        "game": "OpenSpiel hearts (C++)",
        "moves": length,
        "mid": length // 2,
        "clone_ms": clone_ms,
        "playout_ms": playout_ms,
        "hand_ms": game_ms,
        "clone_per_hand": clone_ms / game_ms,
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--number", type=int, default=31, help="calls timed for each figure (their median is given)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rows = [measure(ref, a.players, a.number) for ref in _variants()]
    peer = openspiel_hearts(a.number)
    if a.json:
        print(json.dumps({"academie": rows, "openspiel": peer}, indent=1))
        return
    print(
        f"{'game':34} {'n':>2} {'moves':>5} {'mid':>4} {'hands':>5} {'clone ms':>9} {'replay ms':>9} "
        f"{'playout ms':>10} {'hand ms':>8} {'api hand ms':>11} {'clone/hand':>10} {'replay/hand':>11}"
    )
    for r in rows:
        print(
            f"{r['game']:34} {r['players']:>2} {r['moves']:>5} {r['mid']:>4} {r['hands']:>5} "
            f"{r['clone_ms']:>9.3f} {r['replay_ms']:>9.3f} {r['playout_ms']:>10.3f} {r['hand_ms']:>8.3f} "
            f"{r['api_hand_ms']:>11.3f} {r['clone_per_hand']:>10.2f} {r['replay_per_hand']:>11.2f}"
        )

    if peer is not None:
        print(
            f"\n{peer['game']}, 4 players: {peer['moves']} moves (chance included), clone at move {peer['mid']}: "
            f"clone {peer['clone_ms']:.4f} ms, random playout from it {peer['playout_ms']:.3f} ms, "
            f"a whole game {peer['hand_ms']:.3f} ms; clone/hand {peer['clone_per_hand']:.3f}"
        )


if __name__ == "__main__":
    main()
