"""Plays per second for every corpus game, option and concept file, in one run,
and modern Hearts (``tests/concepts/leads.yaml``) beside OpenSpiel's Hearts.

    PYTHONPATH=$PWD python benchmarks/corpus.py                 # 4 players where allowed
    PYTHONPATH=$PWD python benchmarks/corpus.py --seconds 1 --repeat 5 --json

For each rule file, at ``--players`` (clamped to what it allows), random players:

* sim plays/s: whole games as ``simulate`` plays them (random agents asked inside
  the rules' loops, no event log): plays made divided by the time;
* general plays/s: the same games with the fast trick loop switched off
  (``State._draw_inline = False``), the reference loop the fast one is held to;
* api moves/s: whole random games through the public API (``new_state``,
  ``legal_actions``, ``apply_action``), one call per move, as a search does;
* clone+playout: a state cloned at mid-game (half the moves of a random game)
  and played out at random through the API: the time of one clone and playout
  in ms, and its moves per second.

Each figure is the best of ``--repeat`` timings of at least ``--seconds`` each,
timed by the process's CPU time (``--clock cpu``, the default: on a shared,
loaded machine the wall time mostly measures the other processes) or by the
wall clock (``--clock wall``). Compare figures of one run (the ratios) rather
than runs. At the end: the slowest corpus game against the fastest, and
modern Hearts against OpenSpiel's Hearts with the same rules (no passing; the
two of clubs leads, no points on the first trick, hearts broken, the queen of
spades breaks them), whole random games: OpenSpiel driven move by move from
Python (chance nodes included) and OpenSpiel's C++ ``evaluate_bots`` with its
uniform random bots, both as ``peer.py`` drives them ("No Pass" taken at the
pass-direction node, plays counted as made); ``peer.py`` gives the fuller
comparison (the API replayed move by move, and the check that the two play
the same game).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import academie  # noqa: E402
from academie.dsl.loader import corpus_ids, resolve  # noqa: E402
from academie.interpreter.simulate import play_one  # noqa: E402
from academie.interpreter.state import State  # noqa: E402

CONCEPTS = Path(__file__).resolve().parent.parent / "tests" / "concepts"
MODERN_HEARTS = str(CONCEPTS / "leads.yaml")
OPENSPIEL_HEARTS = {"pass_cards": False}  # its other defaults are the concept file's rules ("No Pass" given)


def variants() -> list[tuple[str, str]]:
    """(label, reference) for every playable corpus game and option, then every concept file."""
    out = []
    for cid in corpus_ids():
        if resolve(cid).data.get("abstract"):
            continue
        out.append((cid, cid))
        for opt in resolve(cid).data.get("options") or {}:
            out.append((f"{cid}+{opt}", f"{cid}+{opt}"))
    for f in sorted(CONCEPTS.glob("*.yaml")):
        if resolve(str(f)).data.get("abstract"):
            continue
        out.append((f"concepts/{f.stem}", str(f)))
        for opt in resolve(str(f)).data.get("options") or {}:
            out.append((f"concepts/{f.stem}+{opt}", f"{f}+{opt}"))
    return out


CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}
clock = time.process_time


def _rate(run, seconds: float, repeat: int) -> float:
    """The best of ``repeat`` rates of ``run()`` (which returns how many plays it
    made), each measured over at least ``seconds``."""
    best = 0.0
    for _ in range(repeat):
        done, t0 = 0, clock()
        while True:
            done += run()
            el = clock() - t0
            if el >= seconds:
                break
        best = max(best, done / el)
    return best


def _api_game(game, n: int, seed, rng: random.Random) -> int:
    state = game.new_state(players=n, seed=seed)
    moves = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return moves


def measure(ref: str, players: int, seconds: float, repeat: int) -> dict:
    game = academie.load_game(ref)
    lo, hi = game.players
    n = min(max(players, lo), hi)
    gd = game.gamedef
    seeds = iter(range(10**9))

    def sim() -> int:
        return play_one(gd, n, f"bench/{next(seeds)}", ["random"], 50_000).plays

    sim_rate = _rate(sim, seconds, repeat)
    State._draw_inline = False
    try:
        general_rate = _rate(sim, seconds, repeat)
    finally:
        State._draw_inline = True
    rng = random.Random(0)
    api_rate = _rate(lambda: _api_game(game, n, f"bench/{next(seeds)}", rng), seconds, repeat)
    # a state at mid-game, cloned and played out at random
    full = game.new_state(players=n, seed="bench/mid")
    while not full.is_terminal():
        full.apply_action(rng.choice(full.legal_actions()))
    mid = game.new_state(players=n, seed="bench/mid")
    for m in full.history[: len(full.history) // 2]:
        mid.apply(m)
    calls = [0]

    def playout() -> int:
        s = mid.clone()
        moves = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            moves += 1
        calls[0] += 1
        return moves

    playout_rate = _rate(playout, seconds, repeat)
    t0 = clock()
    k = 0
    while clock() - t0 < seconds / 2:
        playout()
        k += 1
    playout_ms = (clock() - t0) / k * 1e3
    return {
        "game": ref,
        "players": n,
        "sim_plays_s": sim_rate,
        "general_plays_s": general_rate,
        "api_moves_s": api_rate,
        "playout_moves_s": playout_rate,
        "clone_playout_ms": playout_ms,
    }


def openspiel(seconds: float, repeat: int) -> dict | None:
    """OpenSpiel's Hearts with the concept file's rules, driven as ``peer.py``
    drives it ("No Pass" at its pass-direction node, a uniform chance outcome
    picked by index, plays counted as made): plays per second of whole random
    games driven from Python, and by its C++ ``evaluate_bots``; None without
    OpenSpiel."""
    try:
        from peer import Peer

        peer = Peer()
    except ImportError:
        return None
    rng = random.Random(1)
    bots = [peer.pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(4)]
    seeds = iter(range(10**9))

    def cpp() -> int:
        s = peer.new_game()
        peer.pyspiel.evaluate_bots(s, bots, next(seeds))  # plays the game on s
        return len(s.history()) - 53  # less "No Pass" and the cards dealt

    return {
        "python_plays_s": _rate(lambda: peer.python_game(rng), seconds, repeat),
        "cpp_plays_s": _rate(cpp, seconds, repeat),
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=0.5, help="the least time of each timing")
    ap.add_argument("--repeat", type=int, default=3, help="timings of each figure (the best is kept)")
    ap.add_argument("--only", default=None, help="only the rule files whose label contains this")
    ap.add_argument("--clock", choices=sorted(CLOCK), default="cpu", help="what times the runs (default: cpu)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    global clock
    clock = CLOCK[a.clock]
    rows = []
    for label, ref in variants():
        if a.only and a.only not in label:
            continue
        r = measure(ref, a.players, a.seconds, a.repeat)
        r["label"] = label
        rows.append(r)
        if not a.json:
            print(
                f"{label:40} {r['players']:>2}  sim {r['sim_plays_s']:>9,.0f}  general {r['general_plays_s']:>9,.0f}"
                f"  api {r['api_moves_s']:>8,.0f}  clone+playout {r['clone_playout_ms']:>7.3f} ms"
                f" ({r['playout_moves_s']:>8,.0f} moves/s)",
                flush=True,
            )
    peer = openspiel(a.seconds, a.repeat) if not a.only or "leads" in a.only else None
    corpus = [r for r in rows if not r["label"].startswith("concepts/")]
    summary: dict = {}
    if corpus:
        slow = min(corpus, key=lambda r: r["sim_plays_s"])
        fast = max(corpus, key=lambda r: r["sim_plays_s"])
        summary["fastest_over_slowest"] = fast["sim_plays_s"] / slow["sim_plays_s"]
        summary["slowest"], summary["fastest"] = slow["label"], fast["label"]
    hearts = next((r for r in rows if r["label"] == "concepts/leads"), None)
    if peer is not None and hearts is not None:
        for k in ("python_plays_s", "cpp_plays_s"):
            summary[f"modern_hearts_sim_over_openspiel_{k[:-8]}"] = hearts["sim_plays_s"] / peer[k]
            summary[f"modern_hearts_api_over_openspiel_{k[:-8]}"] = hearts["api_moves_s"] / peer[k]
    if a.json:
        print(json.dumps({"academie": rows, "openspiel": peer, "summary": summary}, indent=1))
        return
    if peer is not None:
        print(
            f"\nOpenSpiel hearts {OPENSPIEL_HEARTS}: driven from Python {peer['python_plays_s']:,.0f} plays/s, "
            f"C++ evaluate_bots {peer['cpp_plays_s']:,.0f} plays/s"
        )
    for k, v in summary.items():
        print(f"{k}: {v:.2f}" if isinstance(v, float) else f"{k}: {v}")


if __name__ == "__main__":
    main()
