"""The players that search (academie/players): their speed and their strength.

    python benchmarks/players.py speed                 # iterations per second, every corpus game
    python benchmarks/players.py speed --openspiel     # beside OpenSpiel's ISMCTSBot on its C++ Hearts
    python benchmarks/players.py strength --games 200 --out games.jsonl   # the games of docs/players.md
    python benchmarks/players.py strength --only hearts/foster --players 4 --games 40 --iterations 100
    python benchmarks/players.py report games.jsonl --markdown           # their table
    python benchmarks/players.py worlds                # how often a world falls back (docs/players.md, Limits)
    python benchmarks/players.py advantage --only lansquenet/eb11 --players 2 --iterations 50 --minutes 10
    python benchmarks/players.py report-advantage results.jsonl          # their table (--json)

**speed**: for each corpus game (4 players where the rules allow, else the
fewest), ``--states`` states met in random games, each at a decision with more
than one legal move; ``ismcts`` searches each with ``--iterations``
iterations; the figure is all the iterations over all the time (median state
too). With ``--openspiel``, OpenSpiel's own Python ``ISMCTSBot``
(``open_spiel.python.algorithms.ismcts``, random rollouts, one rollout per
leaf, its C++ ``hearts`` underneath) searches as many states of Hearts with
the same budget, in the same run.

**strength**: for each corpus game and number of players, ``--games`` games
of ``ismcts`` (one seat, turning round the table from game to game) against
``random`` in every other seat, and as many against ``mc`` (same iterations)
in every other seat. Game ``i`` uses the seed ``i``; each player's generator
is seeded from it. Reported per match: the share of games the ismcts seat
wins (rank 1; a tie shared), with its Wilson 95 % interval, beside the share
a seat would win by chance (1/n); and its mean score less the mean of the
other seats, with a 95 % interval (mean ± 1.96·SE). The cells share the
time (``--minutes``): the next game is always the one of the cell that has
taken least time so far, so a quick game gets more games than a long one;
``--out`` keeps every game as a JSON line (``--resume`` plays only the seeds not
yet there), and ``report`` makes the table from such files; ``--first-seed N``
plays seeds N, N+1, … instead, so that runs over disjoint seeds, each with a
file of its own, share a cell among processes or machines. ``--workers K``
plays K games at once (default: all cores); a cell's figures are made from its
games in seed order, the same for any K with ``--games`` and no ``--minutes``.

**worlds**: for each game of ``--only`` (by default the games whose hands
move cards in secret or from a talon), ``--games`` random games (seeds 0, 1,
…), and at each of their first ``--decisions`` decisions a world drawn for the
seat to move (``State.resample``): how many fell back (``world.fallback``),
how many of those are the state copied with its unseen cards exchanged in place
(``world.copied``: no world reached the same decision; none is the true deal since worlds are
mended).

**advantage**: how much better than chance an agent *decides*, decision by decision. Games of
``--only`` with ``--agent`` (``ismcts`` at ``--iterations``) in one seat (the seats that decide,
turning round as in **strength**) and ``random`` elsewhere, and as many with a ``random`` agent in
that seat (the control); game ``i`` is dealt from the seed ``"{--seed}/{i}"``, the same deals for
both. At each decision of the measured seat with more than one legal move (a share ``--sample`` of
them), the agent decides from what it sees; then, on a copy of the TRUE state (a measurement, not a
player), every legal action is played out ``--rollouts`` times with random players to the end of
the hand (``--horizon game``: of the game), rollout ``j`` of every action drawing from the same
generator (common random numbers: the differences between the actions carry little noise, and
actions that change nothing come out exactly equal). Q(a) is the mean margin of the seat (its
score less the others' mean; its own score alone). The decision's advantage is Q(the agent's
action) less the mean of Q over the legal actions, which is what a random choice gets: a random
agent's advantage is 0 in expectation, which the control checks. Summed over a game's decisions
it estimates the agent's gain over a random player in that seat (the performance-difference
identity), per hand. Reported per cell: the mean advantage per decision and per hand, with 95 %
intervals clustered by game (the ratio's linearised standard error, Student's t on games − 1);
``--out`` keeps each game as a JSON line, ``--resume`` plays only the games not yet there,
``--minutes`` stops starting games after that long (the next game is the cell's that has taken
least time), ``report-advantage`` makes the table from such files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

import academie
from academie.dsl.loader import corpus_ids, resolve

Z = 1.959964


def rules_digest(ref: str) -> str:
    """A digest of the rule file a game is read from (and the files it extends): the games of a
    results file made on other rules are never counted with these (``--resume``, ``report``)."""
    doc = resolve(ref)
    files = [doc.file, *doc.chain]
    h = hashlib.blake2b(digest_size=6)
    for f in dict.fromkeys(x for x in files if x):
        with open(f, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def games_of_corpus() -> list[str]:
    return [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]


def table_size(game: academie.Game) -> int:
    lo, hi = game.players
    return 4 if lo <= 4 <= hi else lo


def states_for_search(ref: str, n: int, count: int, seed: int = 0) -> list[academie.State]:
    """``count`` states of random games of ``ref``, each at a decision with a choice."""
    game = academie.load_game(ref)
    rng = random.Random(seed)
    out = []
    g = 0
    while len(out) < count:
        state = game.new_state(players=n, seed=f"speed/{g}")
        g += 1
        moves = []
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                moves.append(len(state.history))
            state.apply_action(rng.choice(state.legal_actions()))
        if not moves:
            continue
        at = moves[rng.randrange(len(moves))]
        s = game.new_state(players=n, seed=f"speed/{g - 1}")
        replay = state.history[:at]
        for m in replay:
            s.apply(m)
        out.append(s)
    return out


def speed(args) -> dict:
    rows = []
    refs = args.only or games_of_corpus()
    for ref in refs:
        game = academie.load_game(ref)
        n = args.players or table_size(game)
        states = states_for_search(ref, n, args.states)
        times = []
        for i, s in enumerate(states):
            p = academie.agent("ismcts", iterations=args.iterations, seed=i)
            t = time.perf_counter()
            p.search(s, s.legal_actions())
            times.append(time.perf_counter() - t)
        rows.append(
            {
                "game": ref,
                "players": n,
                "iterations": args.iterations,
                "states": len(states),
                "iterations_per_second": round(args.iterations * len(times) / sum(times)),
                "median_state_per_second": round(args.iterations / statistics.median(times)),
            }
        )
        print(json.dumps(rows[-1]), file=sys.stderr)
    out: dict = {"academie": rows}
    if args.openspiel:
        out["openspiel"] = openspiel_speed(args.iterations, args.states)
        print(json.dumps(out["openspiel"]), file=sys.stderr)
    return out


def openspiel_speed(iterations: int, count: int) -> dict:
    """OpenSpiel's Python ISMCTSBot on its C++ Hearts, at decisions with a choice in the play."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("hearts")
    rng = random.Random(0)
    states = []
    while len(states) < count:
        s = game.new_initial_state()
        path = []
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
                continue
            if len(s.legal_actions()) > 1 and s.move_number() > 0:
                path.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
        # a decision of the play (after the passing), taken at random
        play = [p for p in path if "Pass" not in s.action_to_string(p.current_player(), p.legal_actions()[0])]
        if play:
            states.append(play[rng.randrange(len(play))])
    times = []
    for i, s in enumerate(states):
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(i)),
            2.0,
            iterations,
            random_state=np.random.RandomState(i),
        )
        t = time.perf_counter()
        bot.step(s)
        times.append(time.perf_counter() - t)
    return {
        "game": "open_spiel hearts (C++), ISMCTSBot (Python), random rollouts",
        "players": 4,
        "iterations": iterations,
        "states": len(times),
        "iterations_per_second": round(iterations * len(times) / sum(times)),
        "median_state_per_second": round(iterations / statistics.median(times)),
    }


WORLD_GAMES = ["piquet/hoyle", "reversis/hoyle", "whist/hoyle", "hoc/encyclopedie", "ecarte/hoyle", "quadrille/hoyle"]


def worlds(args) -> list[dict]:
    rows = []
    for ref in args.only or WORLD_GAMES:
        game = academie.load_game(ref)
        n = args.players or table_size(game)
        drawn = fell = copied = again = 0
        t = time.perf_counter()
        for g in range(args.games):
            state = game.new_state(players=n, seed=g)
            rng = random.Random(g)
            for _ in range(args.decisions):
                if state.is_terminal():
                    break
                seat = state.current_player()
                w = state.resample(seat, rng)
                drawn += 1
                again += w.again
                if w.fallback:
                    fell += 1
                    copied += w.copied
                state.apply_action(rng.choice(state.legal_actions()))
        rows.append(
            {
                "game": ref,
                "players": n,
                "worlds": drawn,
                "fallback": fell,
                "copied": copied,
                "drawn_again": again,
                "seconds": round(time.perf_counter() - t, 2),
            }
        )
        print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


# -- strength ---------------------------------------------------------------------------------
def seats_that_decide(ref: str, n: int, games: int = 5) -> list[int]:
    """The seats that have a choice to make (two legal moves or more) at some decision of
    ``games`` random games of ``ref`` at ``n`` players (seeds 0, 1, …): a banker who only turns
    the cards decides nothing, and a search seated there would measure the others' play. Every
    seat where none is found to decide."""
    game = academie.load_game(ref)
    found: set[int] = set()
    for g in range(games):
        state = game.new_state(players=n, seed=f"seats/{g}")
        rng = random.Random(g)
        while not state.is_terminal() and len(found) < n:
            legal = state.legal_actions()
            if len(legal) > 1:
                found.add(state.current_player())
            state.apply_action(legal[int(rng.random() * len(legal))])
        if len(found) == n:
            break
    return sorted(found) or list(range(n))


_SEATS: dict[tuple[str, int], list[int]] = {}


def play_match(job: tuple) -> tuple[int, int, float, float, int]:
    """One game: ``ismcts`` at the ``i``-th seat that decides something (``seats_that_decide``:
    seat ``i % n`` where every seat does) against ``opponent`` in the other seats. (seat, 1 if the
    ismcts seat ranks first — shared by ties —, its score less the others' mean, seconds, the
    number of hands)."""
    ref, n, i, opponent, iterations, *more = job
    paired = bool(more and more[0])
    game = academie.load_game(ref)
    if n == 1:
        return _play_alone(game, i, opponent, iterations)
    seats = _SEATS.get((ref, n))
    if seats is None:
        seats = _SEATS[(ref, n)] = seats_that_decide(ref, n)
    seat = seats[i % len(seats)]
    player = more[1] if len(more) > 1 else "ismcts"
    params = more[2] if len(more) > 2 else {}
    me = academie.agent(player, iterations=iterations, seed=f"{i}:{seat}:{player}", **params)
    t = time.perf_counter()
    win, margin, hands = _play_seated(game, n, i, seat, me, opponent, iterations)
    seconds = time.perf_counter() - t
    if not paired:
        return seat, win, margin, seconds, hands
    # the same deal (seed), the same seat, with a random player there instead: what chance gives that seat
    base = academie.agent("random", seed=f"{i}:{seat}:random-in-seat")
    base_win, base_margin, _ = _play_seated(game, n, i, seat, base, opponent, iterations)
    return seat, win, margin, seconds, hands, {"random_win": base_win, "random_margin": base_margin}


def _play_seated(game: academie.Game, n: int, i: int, seat: int, me, opponent: str, iterations: int) -> tuple:
    """Game ``i`` (seed ``i``) with ``me`` at ``seat`` and ``opponent`` in the other seats: (1 if ``seat``
    ranks first — shared by ties —, its score less the others' mean, the number of hands)."""
    state = game.new_state(players=n, seed=i)
    others = [
        academie.agent(opponent, seed=f"{i}:{s}:{opponent}", **({"iterations": iterations} if opponent == "mc" else {}))
        for s in range(n)
    ]
    while not state.is_terminal():
        s = state.current_player()
        state.apply_action((me if s == seat else others[s]).choose(state))
    ret = state.returns()
    top = [r["seat"] for r in state.standings() if r["rank"] == 1]
    win = 1 / len(top) if seat in top else 0.0
    margin = ret[seat] - sum(ret[s] for s in range(n) if s != seat) / (n - 1)
    return win, margin, state.hand_no


def _play_alone(game: academie.Game, i: int, opponent: str, iterations: int) -> tuple:
    """A game for one player (a patience): ``ismcts`` and ``opponent`` each play deal ``i``. (0, 1
    if ismcts won it — the rules name it the hand's winner —, its score less the opponent's,
    seconds, hands, 1 if the opponent won it.)"""
    t = time.perf_counter()
    out = []
    for name in ("ismcts", opponent):
        agent = academie.agent(
            name, seed=f"{i}:0:{name}", **({"iterations": iterations} if name in ("ismcts", "mc") else {})
        )
        state = game.new_state(players=1, seed=i)
        while not state.is_terminal():
            state.apply_action(agent.choose(state))
        won = any(r.get("winner") == 0 for r in state.observation(0, earlier_hands=False)["hand_results"])
        out.append((1.0 if won else 0.0, state.returns()[0], state.hand_no))
    (win, score, hands), (other_win, other_score, _) = out
    return 0, win, score - other_score, time.perf_counter() - t, hands, other_win


def wilson(k: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf")
    return m, m - Z * se, m + Z * se


def cells_of(args) -> list[tuple[str, int, str]]:
    out = []
    for ref in args.only or games_of_corpus():
        game = academie.load_game(ref)
        lo, hi = game.players
        counts = args.players_list or sorted({lo, hi} if hi - lo < 3 else {lo, table_size(game), hi})
        for n in counts:
            if lo <= n <= hi:
                out.extend((ref, n, opponent) for opponent in args.opponents)
    return out


def strength(args) -> dict:
    """Play the matches, each cell's games by seed (game i of a cell: seed i), the cells sharing the
    time: the next game is always the cell's that has taken the least time so far, its games still
    being played counted at the cell's mean (so that a cheap game gets more games than a long one in
    the same time). ``--workers`` games are played at once, each in its own process; every game is a
    line of ``--out`` as it ends, and ``--resume`` plays only the seeds not yet there. A cell's figures
    are made from its games in seed order: with ``--games`` and no ``--minutes``, the same for any
    number of workers. ``--minutes`` stops starting games after that long."""
    cells = cells_of(args)
    params = getattr(args, "params", None) or {}  # --player-param
    done: dict[tuple, dict[int, dict]] = {c: {} for c in cells}  # seed -> the game's row
    digests = {ref: rules_digest(ref) for ref in {c[0] for c in cells}}
    if args.out and args.resume:
        for row in _read(args.out):
            key = (row["game"], row["players"], row["against"])
            same = (
                row["iterations"] == args.iterations
                and row.get("player", "ismcts") == args.player
                and row.get("params", {}) == params
            )
            if key in done and same and row.get("rules") == digests[row["game"]]:
                done[key].setdefault(row["seed"], row)
    spent = {c: sum(r["seconds"] for r in done[c].values()) for c in cells}
    flying: dict[tuple, set[int]] = {c: set() for c in cells}
    stop = time.perf_counter() + 60 * args.minutes if args.minutes else None
    workers = max(1, args.workers or os.cpu_count() or 1)

    first = getattr(args, "first_seed", 0) or 0  # --first-seed: this run's seeds are first .. first + games - 1

    def next_seed(c) -> int:
        i = first
        while i in done[c] or i in flying[c]:
            i += 1
        return i

    def load(c) -> float:
        mean = spent[c] / len(done[c]) if done[c] else 0.0
        return spent[c] + mean * len(flying[c])

    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    running: dict = {}
    try:
        with open(args.out, "a") if args.out else open(os.devnull, "w") as out:
            if args.out and out.tell() and not _ends_with_newline(args.out):
                out.write("\n")  # after a line cut short: the next game on a line of its own
            while True:
                while len(running) < workers and (stop is None or time.perf_counter() <= stop):
                    open_cells = [c for c in cells if next_seed(c) < first + args.games]
                    if not open_cells:
                        break
                    cell = min(open_cells, key=lambda c: (load(c), cells.index(c)))
                    ref, n, opponent = cell
                    i = next_seed(cell)
                    job = (ref, n, i, opponent, args.iterations, getattr(args, "paired", False), args.player, params)
                    f: Future = pool.submit(play_match, job) if pool is not None else _now(play_match, job)
                    running[f] = (cell, i)
                    flying[cell].add(i)
                if not running:
                    break
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for f in finished:
                    cell, i = running.pop(f)
                    flying[cell].discard(i)
                    seat, win, margin, seconds, hands, *alone = f.result()
                    ref, n, opponent = cell
                    row = {
                        "game": ref,
                        "players": n,
                        "against": opponent,
                        "iterations": args.iterations,
                        "seed": i,
                        "seat": seat,
                        "win": win,
                        "margin": margin,
                        "hands": hands,
                        "seconds": round(seconds, 2),
                        "rules": digests[ref],
                    }
                    if args.player != "ismcts":  # the player searched in that seat (ismcts when not said)
                        row["player"] = args.player
                    if params:  # the searching player's parameters given (--player-param), its defaults otherwise
                        row["params"] = params
                    if alone and isinstance(alone[0], dict):  # --paired: a random player in that seat
                        row.update(alone[0])
                    elif alone:  # one player: the opponent played the same deal on its own
                        row["opponent_win"] = alone[0]
                    done[cell][i] = row
                    spent[cell] += seconds
                    out.write(json.dumps(row) + "\n")  # one write of the whole line
                    out.flush()
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return {"strength": summary([done[c][i] for c in cells for i in sorted(done[c])])}


def _ends_with_newline(path: str) -> bool:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def _now(fn, job) -> Future:
    """``fn(job)`` played here, as a finished future (one worker: no process started)."""
    f: Future = Future()
    f.set_result(fn(job))
    return f


def _read(path: str) -> list[dict]:
    """The games of a results file; a line cut short (a run killed while writing it) is left out, and said."""
    try:
        with open(path) as f:
            lines = f.read().split("\n")
    except FileNotFoundError:
        return []
    rows, cut = [], 0
    for line in lines:
        if line.strip():
            try:
                rows.append(json.loads(line))
            except ValueError:
                cut += 1
    if cut:
        print(f"{path}: {cut} line(s) cut short, left out", file=sys.stderr)
    return rows


def summary(games: list[dict]) -> list[dict]:
    """One row per (game, players, opponent, iterations): the figures of docs/players.md."""
    cells: dict[tuple, list] = {}
    for g in games:
        key = (
            g["game"],
            g["players"],
            g["against"],
            g["iterations"],
            g.get("rules"),
            g.get("player", "ismcts"),
            tuple(sorted(g.get("params", {}).items())),
        )
        cells.setdefault(key, []).append(g)
    current: dict[str, str | None] = {}
    rows = []
    for (ref, n, opponent, iterations, digest, player, params), rs in cells.items():
        if ref not in current:
            try:
                current[ref] = rules_digest(ref)
            except Exception:  # a game no longer in the corpus
                current[ref] = None
        wins = sum(r["win"] for r in rs)
        lo_w, hi_w = wilson(wins, len(rs))
        m, m_lo, m_hi = mean_ci([r["margin"] for r in rs])
        rows.append(
            {
                "game": ref,
                **({} if player == "ismcts" else {"player": player}),
                **({"params": dict(params)} if params else {}),
                "players": n,
                "against": opponent,
                "iterations": iterations,
                "games": len(rs),
                "win_share": round(wins / len(rs), 3),
                "win_ci": [round(lo_w, 3), round(hi_w, 3)],
                # one player: the share of deals the opponent won, playing each on its own
                "chance": round(
                    statistics.fmean(r["opponent_win"] for r in rs) if all("opponent_win" in r for r in rs) else 1 / n,
                    3,
                ),
                "margin": round(m, 2),
                "margin_ci": [round(m_lo, 2), round(m_hi, 2)],
                "hands_mean": round(statistics.fmean(r["hands"] for r in rs), 1),
                **_paired(rs),
                "seconds_per_game": round(statistics.fmean(r["seconds"] for r in rs), 1),
                "rules": digest,
                "rules_now": digest is not None and digest == current[ref],
            }
        )
    return rows


def _paired(rs: list[dict]) -> dict:
    """Where every game was also played with a random player in the ``ismcts`` seat (``--paired``):
    that player's share of wins, and the mean over the games of the ``ismcts`` margin less the random
    player's on the same deal, in the same seat (mean ± 1.96·SE)."""
    if not rs or not all("random_margin" in r for r in rs):
        return {}
    d, lo, hi = mean_ci([r["margin"] - r["random_margin"] for r in rs])
    return {
        "random_in_seat_win_share": round(statistics.fmean(r["random_win"] for r in rs), 3),
        "random_in_seat_margin": round(statistics.fmean(r["random_margin"] for r in rs), 2),
        "paired_gain": round(d, 2),
        "paired_gain_ci": [round(lo, 2), round(hi, 2)],
    }


def markdown(rows: list[dict]) -> str:
    out = [
        "| game (player, when not ismcts) | rules | players | against | iterations | games | wins (95% CI) | by chance | score margin (95% CI) |",
        "|---|---|---:|---|---:|---:|---|---:|---|",
    ]
    for r in rows:
        rules = "current" if r.get("rules_now") else "older" if r.get("rules") is None else "changed since"
        out.append(
            f"| {r['game']}{_who(r)} | {rules} | {r['players']} | {r['against']} | {r['iterations']} | {r['games']} | "
            f"{r['win_share']:.1%} ({r['win_ci'][0]:.1%}–{r['win_ci'][1]:.1%}) | {r['chance']:.1%} | "
            f"{r['margin']:+.1f} ({r['margin_ci'][0]:+.1f} to {r['margin_ci'][1]:+.1f}) |"
        )
    return "\n".join(out)


def _who(r: dict) -> str:
    """' (player, key=value …)' after a game's name where the player is not ismcts with its defaults."""
    said = ([r["player"]] if "player" in r else []) + [f"{k}={v}" for k, v in sorted(r.get("params", {}).items())]
    return f" ({' '.join(said)})" if said else ""


def player_params(pairs: list[str] | None) -> dict[str, str]:
    """``--player-param KEY=VALUE`` (again for more) as a dict."""
    out = {}
    for p in pairs or []:
        k, eq, v = p.partition("=")
        if not eq or not k:
            raise ValueError(f"--player-param takes KEY=VALUE, not {p!r}")
        out[k] = v
    return out


# -- advantage ---------------------------------------------------------------------------------
def margin_of(scores: list, seat: int) -> float:
    """A seat's score less the mean of the others' (its own score where it plays alone)."""
    n = len(scores)
    if n == 1:
        return float(scores[0])
    return scores[seat] - math.fsum(scores[s] for s in range(n) if s != seat) / (n - 1)


def action_values(
    state: academie.State, seat: int, legal: list[int], rollouts: int, key: str, horizon: str, worlds: bool = False
) -> list:
    """For each legal action of ``state`` (``seat`` to move), the SUM over ``rollouts`` random
    playouts of ``seat``'s margin at the end of the hand in progress (``horizon="hand"``) or of the
    game. Played on copies of the true state: nothing here is what a player could know, it is the
    measurement. Rollout ``j`` of every action draws its random players' moves from the same
    generator (seeded ``key:j``) and every copy carries the state's own generator (its shuffles,
    draws): common random numbers, so two actions whose consequences are the same get the same sum.
    An action that itself ends the hand is scored where the game stops for the next decision.
    With ``worlds``, rollout ``j`` starts instead from a world drawn for ``seat`` (``State.resample``),
    the same world for every action: the value of the action to what the seat knows, not to the
    true deal (less spread, but only as right as the worlds' draw)."""
    hand = state.hand_no
    hands = 1 if horizon == "hand" else None
    # with ``worlds``, rollout j starts from the j-th world drawn for the seat (the same for every action)
    starts = [state.resample(seat, random.Random(f"{key}:world:{j}")) for j in range(rollouts)] if worlds else None
    sums = []
    for b in legal:
        total = 0.0
        for j in range(rollouts):
            c = (state if starts is None else starts[j]).clone()
            c.apply_action(b)
            if c.is_terminal() or (hands is not None and c.hand_no != hand):
                scores = c.scores()
            else:
                scores = c.playout(random.Random(f"{key}:{j}"), hands)
            total += margin_of(scores, seat)
        sums.append(total)
    return sums


def decision_advantage(sums: list, legal: list[int], chosen: int, rollouts: int) -> float:
    """Q(chosen) less the mean of Q over the legal actions (what a uniform random choice gets)."""
    return (sums[legal.index(chosen)] - math.fsum(sums) / len(sums)) / rollouts


def advantage_game(
    game: academie.Game,
    n: int,
    i: int,
    seat: int,
    agent,
    *,
    seed: str | int = 0,
    rollouts: int = 8,
    sample: float = 1.0,
    horizon: str = "hand",
) -> dict:
    """Game ``i`` (dealt from the seed ``"{seed}/{i}"``) with ``agent`` at ``seat`` and random
    players elsewhere; at each of ``seat``'s decisions with a choice (a share ``sample`` of them,
    drawn from a generator of their own) the advantage of the agent's action (``action_values``).
    The agent decides first, from the state as it is; the measurement only copies it."""
    deal = f"{seed}/{i}"
    state = game.new_state(players=n, seed=deal)
    others = [academie.agent("random", seed=f"{deal}:{s}:random") for s in range(n)]
    measured = random.Random(f"{deal}:measured")
    decisions = 0
    advantages: list[float] = []
    kinds: list[str | None] = []
    t = time.perf_counter()
    while not state.is_terminal():
        s = state.current_player()
        if s != seat:
            state.apply_action(others[s].choose(state))
            continue
        legal = state.legal_actions()
        a = agent.choose(state)
        if len(legal) > 1:
            decisions += 1
            if measured.random() < sample:
                sums = action_values(state, seat, legal, rollouts, f"{deal}:{len(state.history)}", horizon)
                advantages.append(decision_advantage(sums, legal, a, rollouts))
                kinds.append(state.decision_kind())
        state.apply_action(a)
    return {
        "seat": seat,
        "decisions": decisions,
        "advantages": [round(x, 6) for x in advantages],
        "kinds": kinds,
        "hands": state.hand_no,
        "margin": margin_of(state.returns(), seat),
        "seconds": round(time.perf_counter() - t, 2),
    }


T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]


def t975(df: int) -> float:
    """Student's t quantile 0.975 for ``df`` degrees of freedom (a table to 10, then the
    Cornish-Fisher expansion, within 0.001)."""
    if df < 1:
        return math.inf
    if df <= len(T975):
        return T975[df - 1]
    z = Z
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def ratio_ci(num: list[float], den: list[float]) -> tuple[float, float, float]:
    """Σnum/Σden over clusters (games), with a 95 % interval: the linearised standard error of a
    ratio over G clusters, Student's t on G − 1 degrees of freedom."""
    g = len(num)
    total = math.fsum(den)
    if g == 0 or total == 0:
        return (math.nan, math.nan, math.nan)
    r = math.fsum(num) / total
    if g < 2:
        return (r, -math.inf, math.inf)
    se = math.sqrt(g / (g - 1) * math.fsum((a - r * d) ** 2 for a, d in zip(num, den))) / total
    h = t975(g - 1) * se
    return (r, r - h, r + h)


def advantage_summary(rows: list[dict]) -> list[dict]:
    """One row per cell (game, players, agent, iterations, rollouts, horizon, sample, seed, rules):
    the mean advantage per decision and per hand, each with its 95 % interval clustered by game. A
    game's share of its hand is its measured advantages scaled up to all its decisions."""
    cells: dict[tuple, list] = {}
    for r in rows:
        key = tuple(
            r.get(k) for k in ("game", "players", "agent", "iterations", "rollouts", "horizon", "sample", "seed")
        )
        cells.setdefault((*key, r.get("rules")), []).append(r)
    out = []
    for (ref, n, agent, iterations, rollouts, horizon, sample, seed, digest), rs in cells.items():
        adv = [math.fsum(r["advantages"]) for r in rs]
        counts = [len(r["advantages"]) for r in rs]
        per_game = [a * r["decisions"] / c if c else 0.0 for a, c, r in zip(adv, counts, rs)]
        d, d_lo, d_hi = ratio_ci(adv, counts)
        h, h_lo, h_hi = ratio_ci(per_game, [r["hands"] for r in rs])
        out.append(
            {
                "game": ref,
                "players": n,
                "agent": agent,
                "iterations": iterations,
                "rollouts": rollouts,
                "horizon": horizon,
                "sample": sample,
                "seed": seed,
                "games": len(rs),
                "hands": sum(r["hands"] for r in rs),
                "decisions": sum(counts),
                "per_decision": round(d, 4),
                "per_decision_ci": [round(d_lo, 4), round(d_hi, 4)],
                "per_hand": round(h, 3),
                "per_hand_ci": [round(h_lo, 3), round(h_hi, 3)],
                "seconds_per_game": round(statistics.fmean(r["seconds"] for r in rs), 1),
                "rules": digest,
                **_by_kind(rs),
            }
        )
    return out


def _by_kind(rs: list[dict]) -> dict:
    """Over the games of a cell that record the kind of each decision measured (``decision_kind``:
    a card, a stake, a number…; games written before it was recorded do not): the mean advantage a
    decision of each kind, with its interval clustered by game."""
    rs = [r for r in rs if "kinds" in r]
    if not rs:
        return {}
    out = {}
    for kind in sorted({str(k) for r in rs for k in r["kinds"]}):
        num = [math.fsum(x for x, k in zip(r["advantages"], r["kinds"]) if str(k) == kind) for r in rs]
        den = [sum(1 for k in r["kinds"] if str(k) == kind) for r in rs]
        m, lo, hi = ratio_ci(num, den)
        out[kind] = {
            "decisions": sum(den),
            "per_decision": round(m, 4),
            "per_decision_ci": [round(lo, 4), round(hi, 4)],
        }
    return {"by_kind_games": len(rs), "by_kind": out}


def advantage_markdown(rows: list[dict]) -> str:
    out = [
        "| game | players | agent | iterations | games | hands | decisions | advantage a decision (95% CI) "
        "| advantage a hand (95% CI) | s a game |",
        "|---|---:|---|---:|---:|---:|---:|---|---|---:|",
    ]
    for r in rows:
        it = r["iterations"] if r["agent"] != "random" else "—"
        out.append(
            f"| {r['game']} | {r['players']} | {r['agent']} | {it} | {r['games']} | {r['hands']} | {r['decisions']} | "
            f"{r['per_decision']:+.3f} ({r['per_decision_ci'][0]:+.3f} to {r['per_decision_ci'][1]:+.3f}) | "
            f"{r['per_hand']:+.2f} ({r['per_hand_ci'][0]:+.2f} to {r['per_hand_ci'][1]:+.2f}) | "
            f"{r['seconds_per_game']:.0f} |"
        )
    return "\n".join(out)


def advantage(args) -> list[dict]:
    """The games of each cell (a game and number of players, the agent and the random control),
    one at a time, the next always the cell's that has taken least time so far; each game a line
    of ``--out`` as it ends (``--resume``: the games already there are counted, not played)."""
    cells = []
    for ref in args.only:
        game = academie.load_game(ref)
        lo, hi = game.players
        for n in args.players_list or [lo]:
            if lo <= n <= hi:
                cells.extend((ref, n, name) for name in args.agents)
    digests = {ref: rules_digest(ref) for ref in {c[0] for c in cells}}
    games = {ref: academie.load_game(ref) for ref in digests}

    def fixed(ref: str, name: str) -> dict:
        return {
            "iterations": args.iterations if name != "random" else None,
            "rollouts": args.rollouts,
            "horizon": args.horizon,
            "sample": args.sample,
            "seed": args.seed,
            "rules": digests[ref],
        }

    done: dict[tuple, dict[int, dict]] = {c: {} for c in cells}
    if args.out and args.resume:
        for row in _read(args.out):
            for c in cells:
                ref, n, name = c
                if (row.get("game"), row.get("players"), row.get("agent")) == c and all(
                    row.get(k) == v for k, v in fixed(ref, name).items()
                ):
                    done[c].setdefault(row["i"], row)
    spent = {c: sum(r["seconds"] for r in done[c].values()) for c in cells}
    stop = time.perf_counter() + 60 * args.minutes if args.minutes else None

    def next_i(c) -> int:
        i = 0
        while i in done[c]:
            i += 1
        return i

    with open(args.out, "a") if args.out else open(os.devnull, "w") as out:
        if args.out and out.tell() and not _ends_with_newline(args.out):
            out.write("\n")
        while stop is None or time.perf_counter() <= stop:
            open_cells = [c for c in cells if next_i(c) < args.games]
            if not open_cells:
                break
            cell = min(open_cells, key=lambda c: (spent[c], cells.index(c)))
            ref, n, name = cell
            i = next_i(cell)
            seats = _SEATS.get((ref, n))
            if seats is None:
                seats = _SEATS[(ref, n)] = seats_that_decide(ref, n)
            seat = seats[i % len(seats)]
            spec = f"{args.seed}/{i}:{seat}:{name}"
            agent = academie.agent(name, seed=spec, **({"iterations": args.iterations} if name != "random" else {}))
            row = advantage_game(
                games[ref],
                n,
                i,
                seat,
                agent,
                seed=args.seed,
                rollouts=args.rollouts,
                sample=args.sample,
                horizon=args.horizon,
            )
            row = {"game": ref, "players": n, "agent": name, "i": i, **fixed(ref, name), **row}
            done[cell][i] = row
            spent[cell] += row["seconds"]
            out.write(json.dumps(row) + "\n")
            out.flush()
            adv = row["advantages"]
            print(
                f"{ref} {n}p {name} game {i} seat {seat}: {len(adv)} decisions, "
                f"advantage {math.fsum(adv) / max(1, len(adv)):+.3f} a decision, {row['seconds']} s",
                file=sys.stderr,
            )
    return advantage_summary([done[c][i] for c in cells for i in sorted(done[c])])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--iterations", type=int, default=300)
    sp.add_argument("--states", type=int, default=5)
    sp.add_argument("--players", type=int)
    sp.add_argument("--only", action="append")
    sp.add_argument("--openspiel", action="store_true")
    wp = sub.add_parser("worlds")
    wp.add_argument("--games", type=int, default=3)
    wp.add_argument("--decisions", type=int, default=40)
    wp.add_argument("--players", type=int)
    wp.add_argument("--only", action="append")
    st = sub.add_parser("strength")
    st.add_argument("--iterations", type=int, default=300)
    st.add_argument("--games", type=int, default=200)
    st.add_argument("--players", dest="players_list", type=int, action="append")
    st.add_argument("--only", action="append")
    st.add_argument("--against", dest="opponents", action="append", choices=["random", "mc"])
    st.add_argument("--out", help="append each game as a JSON line to this file")
    st.add_argument("--resume", action="store_true", help="count the games already in --out")
    st.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="the first seed of each cell (default 0; then --games seeds from it): runs over disjoint seeds, "
        "each with an --out of its own, share a cell among processes or machines, and report reads their "
        "files together",
    )
    st.add_argument("--minutes", type=float, help="start no game after this many minutes")
    st.add_argument(
        "--workers",
        type=int,
        help="games played at once, each in its own process (default: all cores); with --games and no "
        "--minutes the figures are the same for any number (the seconds per game grow with the load)",
    )
    st.add_argument(
        "--paired",
        action="store_true",
        help="also play each game with a random player in the ismcts seat: the gain over it on the same deal",
    )
    st.add_argument(
        "--player",
        choices=["ismcts", "mc"],
        default="ismcts",
        help="the player that searches in the seat (a row says 'player' where it is not ismcts)",
    )
    st.add_argument(
        "--player-param",
        dest="player_param",
        action="append",
        metavar="KEY=VALUE",
        help="a parameter of that player (again for more; e.g. root=paired): a row says 'params' where given, "
        "and report and --resume keep such games apart",
    )
    st.add_argument("--markdown", action="store_true")
    rp = sub.add_parser("report", help="the table from the games of strength --out files")
    rp.add_argument("files", nargs="+")
    rp.add_argument("--markdown", action="store_true")
    rp.add_argument(
        "--superseded",
        action="store_true",
        help="also list the rows made on older rules where the same cell has rows of today's rules",
    )
    ad = sub.add_parser("advantage", help="the mean advantage of an agent's decisions over random ones")
    ad.add_argument("--only", action="append", required=True, help="a game (again for more)")
    ad.add_argument("--players", dest="players_list", type=int, action="append")
    ad.add_argument("--agent", dest="agents", action="append", choices=["ismcts", "mc", "random"])
    ad.add_argument("--iterations", type=int, default=50)
    ad.add_argument("--games", type=int, default=1000)
    ad.add_argument("--rollouts", type=int, default=8, help="playouts per legal action (the same seeds for each)")
    ad.add_argument("--sample", type=float, default=1.0, help="the share of decisions measured")
    ad.add_argument("--horizon", choices=["hand", "game"], default="hand")
    ad.add_argument("--seed", default="0", help="game i is dealt from the seed '{seed}/{i}'")
    ad.add_argument("--out", help="append each game as a JSON line to this file")
    ad.add_argument("--resume", action="store_true", help="count the games already in --out")
    ad.add_argument("--minutes", type=float, help="start no game after this many minutes")
    ad.add_argument("--json", action="store_true", help="the summary as JSON (else a markdown table)")
    ra = sub.add_parser("report-advantage", help="the table from the games of advantage --out files")
    ra.add_argument("files", nargs="+")
    ra.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.what in ("advantage", "report-advantage"):
        if args.what == "advantage":
            if not 0 < args.sample <= 1 or args.rollouts < 1 or args.iterations < 1:
                ap.error("--sample is a share in (0, 1]; --rollouts and --iterations are at least 1")
            args.agents = args.agents or ["ismcts", "random"]
            rows = advantage(args)
        else:
            rows = advantage_summary([g for f in args.files for g in _read(f)])
        print(json.dumps({"advantage": rows}, indent=1) if args.json else advantage_markdown(rows))
        return
    if args.what == "speed":
        print(json.dumps(speed(args), indent=1))
    elif args.what == "worlds":
        print(json.dumps({"worlds": worlds(args)}, indent=1))
    elif args.what == "report":
        rows = summary([g for f in args.files for g in _read(f)])
        rows.sort(key=lambda r: (r["against"] != "random", r["against"], r["game"], r["players"], r["iterations"]))
        if not args.superseded:

            def cell(r: dict) -> tuple:
                return (
                    r["game"],
                    r.get("player"),
                    tuple(sorted(r.get("params", {}).items())),
                    r["players"],
                    r["against"],
                    r["iterations"],
                )

            now = {cell(r) for r in rows if r["rules_now"]}
            rows = [r for r in rows if r["rules_now"] or cell(r) not in now]
        print(markdown(rows) if args.markdown else json.dumps({"strength": rows}, indent=1))
    else:
        args.opponents = args.opponents or ["random", "mc"]
        try:
            args.params = player_params(args.player_param)
            academie.agent(args.player, **args.params)  # checked before any game is played
        except ValueError as e:
            ap.error(str(e))
        res = strength(args)
        print(markdown(res["strength"]) if args.markdown else json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
