"""The play of two games compared (``academie compare --games N``): the
measures of ``measures`` for both, on the same seeds, and the report that
sets them side by side with their 95 % intervals and a plain-words line for
each significant difference."""

from __future__ import annotations

import math
from pathlib import Path

from .compare_rules import Side
from .dsl.loader import is_path, split_ref
from .measures import Z, Design, newcombe

# (measure, label, the plain-words line of a difference: {r} the ratio, {g} the game)
HAND_MEASURES = [
    ("plays", "plays per hand (length of a hand)", "hands are {r} times longer in {g}"),
    ("tricks", "tricks per hand", "there are {r} times more tricks per hand in {g}"),
    ("takes", "pick-ups per hand (renounce, take to hand)", "cards are picked up {r} times more often in {g}"),
    ("borrows", "cards borrowed per hand", "cards are borrowed {r} times more often in {g}"),
    ("draws", "cards drawn from a stock per hand", "cards are drawn {r} times more often in {g}"),
    (
        "lead_changes",
        "changes of the player on lead, per hand",
        "the lead passes to another player {r} times more often in {g}",
    ),
    ("declarations", "declarations per hand", "players declare {r} times more often in {g}"),
]
GAME_MEASURES = [
    ("hands_per_game", "hands per game (DurationTurns, in hands)", "a game lasts {r} times more hands in {g}"),
    ("plays_per_game", "plays per game (DurationMoves)", "a game lasts {r} times more plays in {g}"),
    (
        "lead_change",
        "LeadChange: share of hand ends where the leader changes",
        "the lead changes {r} times more often in {g}",
    ),
    (
        "drama",
        "Drama: share of hand ends where the final winner trails",
        "the final winner trails {r} times more often in {g}",
    ),
    (
        "decisiveness",
        "DecisivenessMoves: share of the game until it is decided",
        "games are decided {r} times later in {g}",
    ),
]
HANDS_PHRASE = GAME_MEASURES[0][2]


def play_measures(
    a: Side,
    b: Side,
    players: int,
    games: int,
    seed,
    agents=("random",),
    max_plays: int = 50_000,
    workers: int | None = 1,
    limits=None,
    strong: str | None = None,
    weak: str | None = None,
    on_progress=None,
    *,
    backend: str = "local",
    scheduler: str | None = None,
    resume: str | None = None,
) -> dict:
    """N games of each on the same seeds (SEED/i), folded into ``Design``
    totals; with ``strong`` and ``weak``, also a skill run of each (one strong
    player among weak ones, its seat turning). All the games of the two (or
    four) runs are spread over ``workers`` processes or a Dask cluster
    (``measure_runs``); ``resume``: a checkpoint file to go on from and keep.
    ``on_progress(k)``: called as k more games are played (2N in all, 4N with a
    skill run)."""
    from .measures_run import Run, measure_runs

    out: dict = {"players": players, "games": games, "seed": seed, "agents": list(agents), "max_plays": max_plays}
    sides = (a, b)
    runs = [
        Run("design", _ref(s), tuple(s.options), players, games, seed, tuple(agents), max_plays, limits) for s in sides
    ]
    if strong and weak:
        runs += [
            Run("skill", _ref(s), tuple(s.options), players, games, seed, (strong, weak), max_plays, limits)
            for s in sides
        ]
    totals = measure_runs(
        runs,
        workers,
        backend=backend,
        scheduler=scheduler,
        games=[s.game for s in sides] * (len(runs) // 2),
        on_progress=on_progress,
        resume=resume,
    )
    da, db = totals[0], totals[1]
    assert isinstance(da, Design) and isinstance(db, Design)
    out.update(a=da, b=db)
    if strong and weak:
        out["strong"], out["weak"] = strong, weak
        out["skill_a"], out["skill_b"] = totals[2].report(), totals[3].report()
    out["report"] = report(da, db, players, out.get("skill_a"), out.get("skill_b"))
    return out


def _ref(side: Side) -> str:
    """The rules of a side as a worker process loads them: a path made absolute (a worker may start elsewhere)."""
    ref = split_ref(side.ref)[0]
    return str(Path(ref).expanduser().absolute()) if is_path(ref) else ref


def _diff_means(x: dict, y: dict) -> tuple[float, float, float]:
    d = y["mean"] - x["mean"]
    h = Z * math.sqrt((x["se"] or 0.0) ** 2 + (y["se"] or 0.0) ** 2)
    return d, d - h, d + h


def _fixed(x: dict) -> bool:
    """A measure every game gives alike (no spread at all): the rules fix it."""
    return x["n"] > 1 and x["se"] == 0


def report(da: Design, db: Design, n: int, skill_a: dict | None = None, skill_b: dict | None = None) -> dict:
    ra, rb = da.report(), db.report()
    rows, lines, fixed = [], [], []
    means = [(k, lab, verb, ra["per_hand"][k], rb["per_hand"][k]) for k, lab, verb in HAND_MEASURES]
    by_game = {
        "hands_per_game": (ra["duration"]["hands_per_game"], rb["duration"]["hands_per_game"]),
        "plays_per_game": (ra["duration"]["plays_per_game"], rb["duration"]["plays_per_game"]),
        "lead_change": (ra["lead_change"], rb["lead_change"]),
        "drama": (ra["drama"], rb["drama"]),
        "decisiveness": (ra["decisiveness"], rb["decisiveness"]),
    }
    means += [(k, lab, verb, *by_game[k]) for k, lab, verb in GAME_MEASURES]
    one_hand = all(_fixed(x) and x["mean"] == 1 for x in by_game["hands_per_game"])
    not_measured = []  # the measures of docs/measures.md that this run cannot give, and why
    unused = []
    for key, label, verb, ma, mb in means:
        if one_hand and key == "plays_per_game":
            continue  # a game is one hand in both: the same as the plays per hand
        if not ma["n"] and not mb["n"]:
            why = (
                "a game is one hand in both"
                if one_hand
                else "no game of two hands or more"
                + ("" if key == "lead_change" else " with a single winner")
                + " in either"
            )
            not_measured.append({"measure": key, "label": label, "why": why})
            continue
        if key in da.per_hand and not ma["mean"] and not mb["mean"]:
            unused.append(label)  # a counter neither game uses
            continue
        if one_hand and key == "plays":
            label = "plays per hand = per game (DurationMoves; a game is one hand)"
        row = {"measure": key, "label": label, "a": ma, "b": mb}
        if ma["n"] and mb["n"]:
            d, lo, hi = _diff_means(ma, mb)
            row["difference"] = {"d": d, "low": lo, "high": hi}
            if _fixed(ma) and _fixed(mb):
                # the same in every game of each: a consequence of the rules, not a finding
                row["significant"] = False
                row["fixed_by_rules"] = True
                if ma["mean"] != mb["mean"]:
                    fixed.append(f"{label}: {ma['mean']:g} in every game of A, {mb['mean']:g} in every game of B")
            else:
                row["significant"] = not (lo <= 0 <= hi)
                if row["significant"]:
                    lines.append(_ratio_line(verb, label, ma["mean"], mb["mean"], d, lo, hi))
        rows.append(row)
    props = []
    for key, label, xa, xb, even in (
        (
            "first_leader",
            "hands won by the first leader (the seat after the dealer)",
            ra["hands_won_by_first_leader"],
            rb["hands_won_by_first_leader"],
            1 / n,
        ),
        ("dealer", "hands won by the dealer", ra["hands_won_by_dealer"], rb["hands_won_by_dealer"], 1 / n),
        (
            "advantage_first_player",
            "AdvantageP1: games won by the first leader",
            ra["advantage_first_player"],
            rb["advantage_first_player"],
            1 / n,
        ),
        ("advantage_dealer", "games won by the first dealer", ra["advantage_dealer"], rb["advantage_dealer"], 1 / n),
        ("completion", "Completion: games that end by the rules", ra["completion"], rb["completion"], None),
        ("timeouts", "Timeouts: games stopped by the play limit", ra["timeouts"], rb["timeouts"], None),
    ):
        if not xa["n"] and not xb["n"]:
            continue
        if one_hand and key in ("first_leader", "dealer"):
            continue  # a game is one hand in both: the same as the games won
        row = {"measure": key, "label": label, "a": xa, "b": xb}
        if even is not None:
            row["expected"] = even
            for tag, e in (("A", xa), ("B", xb)):
                if e["n"] and not (e["low"] <= even <= e["high"]):
                    more = e["p"] > even
                    lines.append(
                        f"in {tag}, {label}: {e['p']:.1%} (95% CI {e['low']:.1%} to {e['high']:.1%}), "
                        f"{'more' if more else 'less'} than the 1/{n} = {even:.1%} of an even game"
                    )
        if xa["n"] and xb["n"]:
            na, nb = xa.get("effective_n", xa["n"]), xb.get("effective_n", xb["n"])
            d, lo, hi = newcombe(xa["p"] * na, na, xb["p"] * nb, nb)
            row["difference"] = {"d": d, "low": lo, "high": hi}
            row["significant"] = not (lo <= 0 <= hi)
            if row["significant"]:
                lines.append(
                    f"{label}: {xa['p']:.1%} in A, {xb['p']:.1%} in B (difference {d:+.1%}, "
                    f"95% CI {lo:+.1%} to {hi:+.1%})"
                )
        props.append(row)
    seats = [
        {"position": i + 1, "a": x, "b": y}
        for i, (x, y) in enumerate(zip(ra["win_share_by_position"], rb["win_share_by_position"]))
    ]
    by_number = [
        {"seat": i, "a": x, "b": y} for i, (x, y) in enumerate(zip(ra["win_share_by_seat"], rb["win_share_by_seat"]))
    ]
    kinds = sorted(set(ra.get("win_share_by_agent", {})) | set(rb.get("win_share_by_agent", {})))
    by_agent = []
    if len(kinds) > 1:
        for k in kinds:
            xa, xb = ra["win_share_by_agent"].get(k), rb["win_share_by_agent"].get(k)
            row = {"agent": k, "a": xa, "b": xb, "expected": 1 / n}
            if xa and xb and xa["n"] and xb["n"]:
                d, lo, hi = _diff_means(xa, xb)
                row["difference"] = {"d": d, "low": lo, "high": hi}
                row["significant"] = not (lo <= 0 <= hi)
                if row["significant"]:
                    lines.append(
                        f"share of a game won by a {k} seat: {xa['mean']:.1%} in A, {xb['mean']:.1%} in B "
                        f"(difference {d:+.1%}, 95% CI {lo:+.1%} to {hi:+.1%})"
                    )
            by_agent.append(row)
    else:
        not_measured.append(
            {
                "measure": "win_share_by_agent",
                "label": "win share by kind of player",
                "why": "every seat plays the same agent (give mixed --agents, e.g. first,random,random)",
            }
        )
    if skill_a is None and skill_b is None:
        not_measured.append(
            {
                "measure": "skill",
                "label": "skill gap and luck",
                "why": "no skill run (give --strong and --weak)",
            }
        )
    for tag, r in (("A", ra), ("B", rb)):
        f = r["fairness"]
        if f["p_value"] is not None and f["p_value"] < 0.05:
            lines.append(
                f"{tag} is not fair between the seats: the wins by position from the first dealer differ from an "
                f"even share (χ² = {f['chi2']:.1f}, {f['df']} df, p = {f['p_value']:.2g}); Balance {r['balance']:.2f}"
            )
    skill = {}
    for tag, sk in (("a", skill_a), ("b", skill_b)):
        if sk is None:
            continue
        skill[tag] = sk
        s = sk["strong_win_share"]
        if s["n"]:
            above = s["low"] > sk["even"]
            below = s["high"] < sk["even"]
            verdict = (
                "skill pays" if above else "the strong player does worse" if below else "no clear reward for skill"
            )
            lines.append(
                f"in {tag.upper()}, one {sk['strong']} among {sk['weak']} players wins {s['p']:.1%} of the games "
                f"(95% CI {s['low']:.1%} to {s['high']:.1%}) against the {sk['even']:.1%} of an equal seat: {verdict}"
            )
    return {
        "means": rows,
        "proportions": props,
        "win_share_by_position": seats,
        "win_share_by_seat": by_number,
        "win_share_by_agent": by_agent,
        "not_measured": not_measured,
        "counters_unused": unused,
        "design": {"a": ra, "b": rb},
        "skill": skill,
        "significant": lines,
        "fixed_by_rules": fixed,
        "method": "proportions of games: Wilson score intervals; per-hand means and shares: ratios of per-game "
        "totals with cluster-robust SEs (the hands of a game are one cluster; a share's Wilson interval on the "
        "effective number of hands); means over games: mean ± 1.96·SE; differences: Newcombe's hybrid score "
        "interval for proportions, ± 1.96·sqrt(SE_a² + SE_b²) for means; all 95%",
    }


def _ratio_line(phrase, label, ma, mb, d, lo, hi) -> str:
    ci = f"{label}: {ma:.2f} in A, {mb:.2f} in B; difference B - A {d:+.2f}, 95% CI {lo:+.2f} to {hi:+.2f}"
    if ma > 0 and mb > 0:
        r, g = (mb / ma, "B") if mb >= ma else (ma / mb, "A")
        return phrase.format(r=f"{r:.2f}", g=g) + f" ({ci})"
    return ci
