"""Modern Hearts in academie beside OpenSpiel's Hearts, driven as each engine's users drive it.

    PYTHONPATH=$PWD python benchmarks/peer.py                     # about a minute
    PYTHONPATH=$PWD python benchmarks/peer.py --games 400 --repeat 7 --seed 3 --json

academie plays ``tests/concepts/leads.yaml`` (no passing; the two of clubs
leads; no heart nor the queen of spades on the first trick unless the hand
holds nothing else; hearts are led once broken, and the queen of spades breaks
them); OpenSpiel plays ``hearts`` with ``pass_cards=False`` and its other
defaults, the same rules. OpenSpiel's first chance node still offers the four
pass directions with ``pass_cards=False`` (three of them pass three cards):
it is given "No Pass" here, so its games have 52 plays as academie's do.
OpenSpiel's deal is 52 chance nodes, each given a uniform outcome picked by
its index. Plays are the moves actually made, counted as they are made.

Figures, all from one process, in rounds (each figure's timing once per
round, in turn: A, B, C, A, B, C, ...), each timing ``--games`` whole games on
new seeds, timed by the process's CPU time (the machine may be shared: its
wall time measures the other processes too); each figure is the best of its
``--repeat`` rounds. Compare figures of one run (the ratios), not runs.

(a) whole random games from Python, plays per second: OpenSpiel's Python loop
    (``new_initial_state``, then ``legal_actions``/``apply_action`` with a
    uniform choice at each decision); academie's ``simulate`` as
    ``academie simulate -w 1 --no-measures`` plays (``interpreter.simulate``,
    random agents asked inside the rules' loops); the interpreter's
    ``play_one``; and academie's API in the loop OpenSpiel's is in
    (``new_state``, ``legal_actions``, ``apply_action``);
(b) each engine's recorded random games replayed move by move through its API
    (``legal_actions`` then ``apply_action`` at every decision, the deal
    included in the game's time: OpenSpiel's chance actions applied as
    recorded), decisions per second;
(c) OpenSpiel's C++ ``evaluate_bots`` with its uniform random bots, on a new
    state after "No Pass" (the deal sampled in C++, the game played on that
    state), plays per second, the plays read from the state's history after
    the game (its length less "No Pass" and the 52 cards dealt).

Two commits compared (before and after a change): install each apart (``git archive COMMIT``
unpacked, then ``pip install --no-deps --target DIR`` of it) and run this script of each in turn
with ``PYTHONPATH=DIR``, from outside the worktree, on the same ``--seed``: base, new, base, new,
... (each run times both engines side by side, so a run's ratios hold under the load of its
moment); compare the medians of the runs' ratios. On a loaded machine, the instructions per
game under ``valgrind --tool=callgrind`` (less a run of no game) do not depend on the load.

Then the check that the two play the same game: over ``--check`` random
games of each, from the (seat, card) of every play, with the same code for
both: plays per game, the points a seat takes (a heart 1, the queen of spades
13: mean, and mean square), the share of games in which one seat takes all 26,
the trick in which the first heart falls and the first heart is led, and the
share of games with a heart or the queen of spades on the first trick; each
with its 95 % interval, and the difference.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import subprocess
import time
from pathlib import Path

import academie
from academie.interpreter.simulate import Job, game_seed, play_one, simulate
from academie.interpreter.state import DEFAULT_MAX_PLAYS

ROOT = Path(__file__).resolve().parent.parent
MODERN_HEARTS = str(ROOT / "tests" / "concepts" / "leads.yaml")
OPENSPIEL_HEARTS = {"pass_cards": False}  # its other defaults are the concept file's rules
RANKS = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"])}
clock = time.process_time


# -- OpenSpiel ----------------------------------------------------------------------------------
class Peer:
    """OpenSpiel's Hearts; its games start with "No Pass" (the deal to come)."""

    def __init__(self):
        import pyspiel

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("hearts", OPENSPIEL_HEARTS)
        s = self.game.new_initial_state()
        names = {s.action_to_string(a): a for a, _ in s.chance_outcomes()}
        self.no_pass = names["No Pass"]

    def new_game(self):
        s = self.game.new_initial_state()
        s.apply_action(self.no_pass)
        return s

    def python_game(self, rng: random.Random) -> int:
        """One random game driven from Python: plays made."""
        s = self.new_game()
        plays = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                plays += 1
        return plays

    def recorded_game(self, rng: random.Random) -> tuple[list[int], list[tuple[int, str]]]:
        """One random game: every action after "No Pass" (chance and plays), and the (seat, card) of each play."""
        s = self.new_game()
        plays = []
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                a = rng.choice(s.legal_actions())
                plays.append((s.current_player(), s.action_to_string(a)))
                s.apply_action(a)
        return s.history()[1:], plays

    def replay(self, actions: list[int]) -> int:
        """A recorded game through the API: decisions made."""
        s = self.new_game()
        decisions = 0
        for a in actions:
            if s.is_chance_node():
                s.apply_action(a)
            else:
                s.legal_actions()
                s.apply_action(a)
                decisions += 1
        return decisions


# -- academie -----------------------------------------------------------------------------------
class Ours:
    def __init__(self):
        self.game = academie.load_game(MODERN_HEARTS)
        self.gd = self.game.gamedef

    def api_game(self, seed, rng: random.Random) -> int:
        s = self.game.new_state(players=4, seed=seed)
        plays = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            plays += 1
        return plays

    def recorded_game(self, seed, rng: random.Random) -> tuple[list[int], list[tuple[int, str]]]:
        s = self.game.new_state(players=4, seed=seed)
        actions, plays = [], []
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            plays.append((s.current_player(), s.action_to_string(a)))
            actions.append(a)
            s.apply_action(a)
        return actions, plays

    def replay(self, seed, actions: list[int]) -> int:
        s = self.game.new_state(players=4, seed=seed)
        for a in actions:
            s.legal_actions()
            s.apply_action(a)
        return len(actions)


# -- the same game? -----------------------------------------------------------------------------
def card(name: str) -> tuple[str, int]:
    """(suit, rank index) of "QS", "10H" or "TH"."""
    r = name[:-1]
    return name[-1], RANKS["T" if r == "10" else r]


def game_stats(plays: list[tuple[int, str]]) -> dict:
    """What the rules decide, read from the plays alone (the same code for both engines)."""
    points = [0, 0, 0, 0]
    first_heart = first_heart_led = 14
    first_trick_points = False
    for t in range(0, len(plays), 4):
        trick = [(seat, *card(c)) for seat, c in plays[t : t + 4]]
        led = trick[0][1]
        winner = max((x for x in trick if x[1] == led), key=lambda x: x[2])[0]
        pts = sum(1 if suit == "H" else 13 if (suit, rank) == ("S", RANKS["Q"]) else 0 for _, suit, rank in trick)
        points[winner] += pts
        no = t // 4 + 1
        if any(suit == "H" for _, suit, _ in trick):
            first_heart = min(first_heart, no)
        if led == "H":
            first_heart_led = min(first_heart_led, no)
        if no == 1 and pts:
            first_trick_points = True
    return {
        "plays per game": len(plays),
        "points of a seat": sum(points) / 4,
        "points of a seat, squared": sum(p * p for p in points) / 4,
        "one seat takes all 26": float(max(points) == 26),
        "trick of the first heart": first_heart,
        "trick of the first heart led": first_heart_led,
        "points on the first trick": float(first_trick_points),
        "two of clubs leads": float(plays[0][1] == "2C"),
    }


def mean_ci(xs: list[float]) -> dict:
    n = len(xs)
    m = sum(xs) / n
    se = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    return {"mean": m, "se": se}


def compare_games(ours: list[dict], peer: list[dict]) -> dict:
    out = {}
    for k in ours[0]:
        a, b = mean_ci([g[k] for g in ours]), mean_ci([g[k] for g in peer])
        d = a["mean"] - b["mean"]
        half = 1.96 * math.sqrt(a["se"] ** 2 + b["se"] ** 2)
        out[k] = {"academie": a["mean"], "openspiel": b["mean"], "difference": d, "half_width": half}
    return out


# -- timing -------------------------------------------------------------------------------------
def rounds(figures: dict, repeat: int) -> dict:
    """Each figure's run() (returning the moves it made) timed once a round, in turn; the best rate."""
    best = {k: 0.0 for k in figures}
    for _ in range(repeat):
        for k, run in figures.items():
            t0 = clock()
            moves = run()
            el = clock() - t0
            best[k] = max(best[k], moves / el)
    return best


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300, help="whole games in each timing (default 300)")
    ap.add_argument("--repeat", type=int, default=5, help="rounds of timings; each figure's best is kept (default 5)")
    ap.add_argument("--check", type=int, default=4000, help="random games of each engine for the check (default 4000)")
    ap.add_argument("--seed", type=int, default=0, help="seeds every game and choice of the run (default 0)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    peer, ours = Peer(), Ours()
    games = a.games
    rng = random.Random(a.seed)
    seeds = iter(range(10**9))
    tag = f"peer{a.seed}"

    def os_python() -> int:
        return sum(peer.python_game(rng) for _ in range(games))

    def ac_simulate() -> int:
        job = Job(MODERN_HEARTS, (), 4, f"{tag}/sim{next(seeds)}", ("random",), DEFAULT_MAX_PLAYS)
        return simulate(job, games, workers=1, game=ours.gd).stats["plays"]

    def ac_play_one() -> int:
        base = f"{tag}/one{next(seeds)}"
        return sum(play_one(ours.gd, 4, game_seed(base, i), ["random"], DEFAULT_MAX_PLAYS).plays for i in range(games))

    def ac_api() -> int:
        base = f"{tag}/api{next(seeds)}"
        return sum(ours.api_game(game_seed(base, i), rng) for i in range(games))

    # (b): games recorded once, replayed in every round
    os_games = [peer.recorded_game(rng)[0] for _ in range(games)]
    ac_games = [
        (game_seed(f"{tag}/rec", i), ours.recorded_game(game_seed(f"{tag}/rec", i), rng)[0]) for i in range(games)
    ]

    def os_replay() -> int:
        return sum(peer.replay(acts) for acts in os_games)

    def ac_replay() -> int:
        return sum(ours.replay(s, acts) for s, acts in ac_games)

    bots = [peer.pyspiel.make_uniform_random_bot(p, a.seed * 4 + p) for p in range(4)]

    def os_cpp() -> int:
        plays = 0
        for _ in range(games):
            s = peer.new_game()
            peer.pyspiel.evaluate_bots(s, bots, next(seeds))  # plays the game on s
            plays += len(s.history()) - 53  # less "No Pass" and the 52 cards dealt: the plays made
        return plays

    rates = rounds(
        {
            "openspiel_python_loop": os_python,
            "academie_simulate": ac_simulate,
            "academie_play_one": ac_play_one,
            "academie_api_loop": ac_api,
            "openspiel_api_replay": os_replay,
            "academie_api_replay": ac_replay,
            "openspiel_cpp_evaluate_bots": os_cpp,
        },
        a.repeat,
    )
    ratios = {
        "simulate / openspiel python loop": rates["academie_simulate"] / rates["openspiel_python_loop"],
        "play_one / openspiel python loop": rates["academie_play_one"] / rates["openspiel_python_loop"],
        "api loop / openspiel python loop": rates["academie_api_loop"] / rates["openspiel_python_loop"],
        "api replay / openspiel api replay": rates["academie_api_replay"] / rates["openspiel_api_replay"],
        "simulate / openspiel c++": rates["academie_simulate"] / rates["openspiel_cpp_evaluate_bots"],
        "api replay / openspiel c++": rates["academie_api_replay"] / rates["openspiel_cpp_evaluate_bots"],
    }
    check_rng = random.Random(a.seed + 1)
    ours_stats = [game_stats(ours.recorded_game(f"{tag}/check/{i}", check_rng)[1]) for i in range(a.check)]
    peer_stats = [game_stats(peer.recorded_game(check_rng)[1]) for _ in range(a.check)]
    same = compare_games(ours_stats, peer_stats)
    report = {
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "commit": commit(),
        "python": platform.python_version(),
        "games_per_timing": games,
        "repeat": a.repeat,
        "seed": a.seed,
        "clock": "process CPU time",
        "plays_per_s": rates,
        "ratios": ratios,
        "same_game": {"games": a.check, "measures": same},
    }
    if a.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{report['date']} commit {report['commit']}, Python {report['python']}, CPU time, best of {a.repeat} rounds")
    print(f"of {games} games each\n")
    for k, v in rates.items():
        print(f"  {k:32} {v:>12,.0f} plays/s")
    print()
    for k, v in ratios.items():
        print(f"  {k:36} {v:6.2f}x")
    print(f"\nthe same game? {a.check} random games of each (mean; difference ± 95 % half-width)")
    for k, v in same.items():
        flag = "" if abs(v["difference"]) <= v["half_width"] or v["difference"] == 0 else "   <- differs"
        print(
            f"  {k:30} academie {v['academie']:8.4f}  openspiel {v['openspiel']:8.4f}"
            f"  {v['difference']:+.4f} ± {v['half_width']:.4f}{flag}"
        )


if __name__ == "__main__":
    main()
