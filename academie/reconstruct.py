"""``academie reconstruct RULES``: play every editorial reading of a rule file
and set the measures side by side.

A rule file offers its readings of a damaged or silent source as options that
carry an ``editorial`` note (the reason and the evidence): Emprunt's
``runs-to-king``, the other reading of a missing footnote; Francion's
``welche-led-as-heart``. The readings are the file as it stands (its own
reading) and each such option switched on alone; an option with a citation
only (a variant the source itself gives) is not a reading, but ``--option``
switches one on for every reading.

Each reading is played on the same seeds (``SEED/i``) with the same players,
and, given a strong and a weak player, once more with one strong player among
weak ones (``measures.Skill``). The readings are then weighed as the Digital
Ludeme Project weighs reconstructions, on three questions: does the game end,
is it balanced between the seats, does it reward the better player. Each
reading gets a penalty per question: 0 for the best (and for any reading not
worse), 1 where it is significantly worse than the best at 95 %, ½ where it is
worse but not significantly. The readings are ranked by their total, ties by
Balance; every step is said in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .dsl.errors import Pos, RuleError
from .dsl.loader import is_path, resolve, split_ref
from .dsl.model import compile_doc
from .measures import newcombe


@dataclass
class Reading:
    name: str  # "as written" or the option's name
    options: tuple  # the options switched on to play it
    description: str
    reason: str  # the editorial reason ("" for the file as written)


def readings_of(ref: str, options=(), limits=None) -> list[Reading]:
    """The file as written, then each option with an editorial note, alone
    (``options`` are switched on in every reading)."""
    base, named = split_ref(ref)
    common = tuple(dict.fromkeys(tuple(named) + tuple(options)))
    doc = resolve(base, common, limits)
    out = [Reading("as written", common, "the rule file as it stands", "")]
    for name, opt in (doc.data.get("options") or {}).items():
        if not isinstance(opt, dict) or name in common:
            continue
        ed = opt.get("editorial")
        if not ed or opt.get("default"):  # a variant, or a reading already on
            continue
        reason = ed.get("reason", "") if isinstance(ed, dict) else str(ed)
        out.append(Reading(name, common + (name,), str(opt.get("description", "")), " ".join(str(reason).split())))
    if len(out) < 2:
        raise RuleError(
            f"{doc.id} offers no other reading: none of its options carries an editorial note "
            "(an option for a reading of the source has 'editorial' where a variant has 'cite')",
            Pos(doc.file, 1, 1),
            code="option",
        )
    return out


def reconstruct(
    ref: str,
    options=(),
    players: int | None = None,
    games: int = 200,
    seed="0",
    agents=("random",),
    strong: str | None = None,
    weak: str | None = None,
    max_plays: int = 50_000,
    workers: int | None = 1,
    limits=None,
    on_progress=None,
    *,
    backend: str = "local",
    scheduler: str | None = None,
    resume: str | None = None,
) -> dict:
    """Play every reading and weigh them: the measures of each, the
    penalties, the ranking and its explanation in plain words. The games of
    every reading are spread over ``workers`` processes or a Dask cluster
    (``measure_runs``); ``resume``: a checkpoint file to go on from and keep.
    ``on_progress(k)``: called as k more games are played (``games`` for each
    reading, twice that with a skill run)."""
    from .measures_run import Run, measure_runs

    base, _ = split_ref(ref)
    readings = readings_of(ref, options, limits)
    n = players
    compiled = []
    for r in readings:
        game = compile_doc(resolve(base, r.options, limits))
        if n is None:
            n = game.min_players
        if not game.min_players <= n <= game.max_players:
            raise RuleError(
                f"{game.id} with {', '.join(r.options) or 'no option'} is for {game.min_players} to "
                f"{game.max_players} players, not {n}",
                game.doc.pos(("players",)),
                code="players",
            )
        compiled.append(game)
    assert n is not None
    wref = str(Path(base).expanduser().absolute()) if is_path(base) else base  # workers may start elsewhere
    runs, games_of = [], []
    for r, game in zip(readings, compiled):
        runs.append(Run("design", wref, tuple(r.options), n, games, seed, tuple(agents), max_plays, limits))
        games_of.append(game)
        if strong and weak:
            runs.append(Run("skill", wref, tuple(r.options), n, games, seed, (strong, weak), max_plays, limits))
            games_of.append(game)
    totals = iter(
        measure_runs(
            runs,
            workers,
            backend=backend,
            scheduler=scheduler,
            games=games_of,
            on_progress=on_progress,
            resume=resume,
        )
    )
    rows = []
    for r in readings:
        row = {
            "reading": r.name,
            "options": list(r.options),
            "description": r.description,
            "editorial": r.reason,
            "design": next(totals).report(),
        }
        if strong and weak:
            row["skill"] = next(totals).report()
        rows.append(row)
    assert n is not None
    ranking, lines = rank(rows, n)
    return {
        "rules": base,
        "players": n,
        "games": games,
        "seed": seed,
        "agents": list(agents),
        "strong": strong,
        "weak": weak,
        "max_plays": max_plays,
        "readings": rows,
        "ranking": ranking,
        "explanation": lines,
    }


def _worse(best: dict, other: dict) -> float:
    """The penalty of a proportion ``other`` against the best one: 1 if
    significantly lower (Newcombe, 95 %), ½ if lower, else 0."""
    if other["p"] is None or best["p"] is None or other["p"] >= best["p"]:
        return 0.0
    _, lo, hi = newcombe(best["k"], best["n"], other["k"], other["n"])
    return 1.0 if hi < 0 else 0.5


def rank(rows: list[dict], n: int) -> tuple[list[dict], list[str]]:
    """Penalties per question, the ranking, and the plain words of each."""
    pen: dict[str, dict[str, float]] = {r["reading"]: {} for r in rows}
    lines: list[str] = []
    # 1. does it end?
    ends = {r["reading"]: r["design"]["completion"] for r in rows}
    best = max(ends.values(), key=lambda x: x["p"] or 0)
    for name, x in ends.items():
        pen[name]["ends"] = _worse(best, x)
    if all(x["p"] == 1 for x in ends.values()):
        lines.append("Every reading ends: no game was stopped by the play limit.")
    else:
        lines.append(
            "Games that end: "
            + "; ".join(f"'{k}' {x['p']:.1%} [{x['low']:.1%}, {x['high']:.1%}]" for k, x in ends.items())
            + "."
        )
    # 2. is it balanced between the seats?
    fair = {}
    for r in rows:
        d = r["design"]
        fair[r["reading"]] = (d["balance"], d["fairness"]["p_value"], d["advantage_first_player"])
    best_bal = max((v[0] for v in fair.values() if v[0] is not None), default=None)
    best_fair = any(v[1] is not None and v[1] >= 0.05 for v in fair.values())
    for name, (bal, p, _) in fair.items():
        if bal is None or best_bal is None or bal >= best_bal:
            pen[name]["balanced"] = 0.0
        elif best_fair and p is not None and p < 0.05:
            pen[name]["balanced"] = 1.0
        else:
            pen[name]["balanced"] = 0.5
    parts = []
    for name, (bal, p, adv) in fair.items():
        if bal is None:
            parts.append(f"'{name}': no finished game")
            continue
        verdict = "uneven between the seats" if p is not None and p < 0.05 else "no unevenness found"
        first = f", the first leader wins {adv['p']:.1%} [{adv['low']:.1%}, {adv['high']:.1%}]" if adv else ""
        parts.append(f"'{name}': Balance {bal:.2f}{first} against an even {1 / n:.1%} ({verdict}, p = {p:.2g})")
    lines.append("Balance between the seats: " + "; ".join(parts) + ".")
    # 3. does it reward the better player?
    skills = {r["reading"]: r.get("skill") for r in rows}
    if all(s is not None for s in skills.values()):
        shares = {k: s["strong_win_share"] for k, s in skills.items() if s is not None}
        best_s = max(shares.values(), key=lambda x: x["p"] or 0)
        for name, x in shares.items():
            pen[name]["skill"] = _worse(best_s, x)
        any_s = next(s for s in skills.values() if s is not None)
        parts = []
        for name, x in shares.items():
            if x["p"] is None:
                parts.append(f"'{name}': no finished game")
                continue
            pays = (
                "skill pays"
                if x["low"] > 1 / n
                else "the strong player does worse than an equal seat"
                if x["high"] < 1 / n
                else "no clear reward for skill"
            )
            parts.append(f"'{name}' {x['p']:.1%} [{x['low']:.1%}, {x['high']:.1%}] ({pays})")
        lines.append(
            f"Reward for skill, one {any_s['strong']} among {any_s['weak']} players (an equal seat wins "
            f"{1 / n:.1%}): " + "; ".join(parts) + "."
        )
    else:
        lines.append("Reward for skill: not measured (give --strong and --weak).")
    # the ranking
    order = sorted(
        rows,
        key=lambda r: (sum(pen[r["reading"]].values()), -(r["design"]["balance"] or 0), r["reading"]),
    )
    ranking = [
        {
            "rank": i + 1,
            "reading": r["reading"],
            "penalties": pen[r["reading"]],
            "total": sum(pen[r["reading"]].values()),
        }
        for i, r in enumerate(order)
    ]
    top, rest = ranking[0], ranking[1:]
    if all(x["total"] == top["total"] for x in rest) and top["total"] == 0:
        lines.append(
            f"No reading is worse than another on any question at these {_games(rows)} games: "
            f"'{top['reading']}' is listed first only for its Balance; more games, or stronger players, may separate them."
        )
    elif rest and rest[0]["total"] == top["total"]:
        tied = [x["reading"] for x in rest if x["total"] == top["total"]]
        lines.append(
            f"'{top['reading']}' and {_names(tied)} tie (total penalty {top['total']:g}): each is behind on some "
            f"question and no question separates them at 95%; '{top['reading']}' is listed first for its Balance."
        )
    else:
        why = _why(top, rest, rows, n)
        lines.append(f"'{top['reading']}' ranks first: {why}.")
        second = rest[0]
        if all(second["penalties"].get(q, 0) - v < 1 for q, v in top["penalties"].items()):
            lines.append(
                f"No question separates '{top['reading']}' from '{second['reading']}' at 95% in these "
                f"{_games(rows)} games: the order rests on differences within chance, and more games, or "
                "stronger players (--strong, --weak), may reverse it."
            )
    return ranking, lines


def _games(rows) -> int:
    return rows[0]["design"]["games"] if rows else 0


QUESTIONS = {
    "ends": "more of its games end than in",
    "balanced": "it is fairer between the seats than",
    "skill": "it rewards the better player more than",
}


def _why(top: dict, rest: list[dict], rows: list[dict], n: int) -> str:
    """Why ``top`` ranks first, question by question: the readings it beats on that
    question and the measures that decided it, with their figures."""
    by = {r["reading"]: r for r in rows}
    parts = []
    for q, words in QUESTIONS.items():
        if q not in top["penalties"]:
            continue
        beaten = [x for x in rest if x["penalties"].get(q, 0) > top["penalties"][q]]
        if not beaten:
            continue
        sure = [x["reading"] for x in beaten if x["penalties"][q] - top["penalties"][q] >= 1]
        unsure = [x["reading"] for x in beaten if x["reading"] not in sure]
        said = []
        if sure:
            said.append(f"{words} {_names(sure)} (significant at 95%)")
        if unsure:
            said.append(f"{words} {_names(unsure)} (not significant at 95%)")
        evidence = [_evidence(q, by[top["reading"]], by[x["reading"]], n) for x in beaten]
        parts.append(" and ".join(said) + ": " + "; ".join(evidence))
    return "; ".join(parts) or "no question separates it from the others"


def _pct(x: dict) -> str:
    return f"{x['p']:.1%} [{x['low']:.1%}, {x['high']:.1%}]"


def _evidence(q: str, top: dict, other: dict, n: int) -> str:
    """The measures behind one question's verdict, in words, for the first reading against another."""
    t, o = top["reading"], other["reading"]
    if q == "ends":
        return (
            f"Completion, the share of games that end by the rules: {_pct(top['design']['completion'])} in "
            f"'{t}', {_pct(other['design']['completion'])} in '{o}' (the others were stopped by the play limit)"
        )
    if q == "balanced":
        dt, do = top["design"], other["design"]
        pt, po = dt["fairness"]["p_value"], do["fairness"]["p_value"]
        test = (
            f"the fairness test (χ² of the games won by each position against an even share) finds '{o}' uneven "
            f"(p = {po:.2g}) and no unevenness in '{t}' (p = {pt:.2g})"
            if po is not None and pt is not None and po < 0.05 <= pt
            else f"the fairness test gives p = {pt:.2g} in '{t}' and p = {po:.2g} in '{o}'"
            if po is not None and pt is not None
            else "the fairness test could not be made"
        )
        first = ""
        pos_o, pos_t = do["win_share_by_position"], dt["win_share_by_position"]
        if pos_o and pos_t and pos_o[0]["p"] is not None:
            k = max(range(n), key=lambda i: (abs(pos_o[i]["p"] - 1 / n), -i))  # the position most unlike an even one
            who = "the first leader" if k == 0 else "the first dealer" if k == n - 1 else f"the seat +{k + 1}"
            first = (
                f"; {who} wins {_pct(pos_o[k])} of the games of '{o}' and {_pct(pos_t[k])} of '{t}', "
                f"against an even {1 / n:.1%}"
            )
        return f"{test}{first}; Balance {do['balance']:.2f} in '{o}', {dt['balance']:.2f} in '{t}'"
    st, so = top["skill"]["strong_win_share"], other["skill"]["strong_win_share"]
    d, lo, hi = newcombe(st["k"], st["n"], so["k"], so["n"])
    return (
        f"one {top['skill']['strong']} among {top['skill']['weak']} players wins {_pct(st)} of the games of '{t}' "
        f"and {_pct(so)} of '{o}' (an equal seat: {1 / n:.1%}; the difference {-d:+.1%}, 95% CI {-hi:+.1%} to "
        f"{-lo:+.1%}); its score less the others' mean: {top['skill']['score_margin']['mean']:.1f} against "
        f"{other['skill']['score_margin']['mean']:.1f}"
    )


def _names(xs: list[str]) -> str:
    return ", ".join(f"'{x}'" for x in xs)


def format_text(res: dict) -> str:
    from .compare_text import balance_text, luck_text, mean_text, share_text

    n = res["players"]
    lines = [
        f"Readings of {res['rules']}: {res['games']} games each, {n} players, seed {res['seed']}, agents "
        f"{','.join(res['agents'])}" + (f"; skill: one {res['strong']} among {res['weak']}" if res["strong"] else ""),
        "",
    ]
    for r in res["readings"]:
        lines.append(f"- '{r['reading']}' (options: {', '.join(r['options']) or 'none'}): {r['description']}")
        if r["editorial"]:
            lines.append(f"    [editorial] {r['editorial']}")
    lines.append("")
    names = [r["reading"] for r in res["readings"]]
    w = 24
    lines.append(f"  {'measure (95% CI)':<52}" + "".join(f" {x[:w]:>{w}}" for x in names))

    skipped: list[str] = []

    def row(label, cells):
        if all(c == "n/a" for c in cells):
            skipped.append(label)
            return
        lines.append(f"  {label[:52]:<52}" + "".join(f" {c:>{w}}" for c in cells))

    ds = [r["design"] for r in res["readings"]]
    row("games that end (Completion)", [share_text(d["completion"]) for d in ds])
    row("Balance", [balance_text(d) for d in ds])
    row("fairness: χ² test of even wins, p-value", [_num(d["fairness"]["p_value"], ".3g") for d in ds])
    row("AdvantageP1: games won by the first leader", [share_text(d["advantage_first_player"]) for d in ds])
    row("games won by the first dealer", [share_text(d["advantage_dealer"]) for d in ds])
    row("hands per game", [mean_text(d["duration"]["hands_per_game"]) for d in ds])
    one_hand = all(
        d["duration"]["hands_per_game"]["mean"] == 1 and d["duration"]["hands_per_game"]["se"] == 0 for d in ds
    )
    if not one_hand:  # else the same as the plays per hand
        row("plays per game (DurationMoves)", [mean_text(d["duration"]["plays_per_game"]) for d in ds])
    row("plays per hand", [mean_text(d["duration"]["plays_per_hand"]) for d in ds])
    row("LeadChange", [mean_text(d["lead_change"]) for d in ds])
    row("Drama", [mean_text(d["drama"]) for d in ds])
    row("DecisivenessMoves", [mean_text(d["decisiveness"]) for d in ds])
    sk = [r.get("skill") for r in res["readings"]]
    if all(sk):
        row("skill: games won by the strong player", [share_text(s["strong_win_share"]) for s in sk])
        row("luck (1: skill gives nothing; 0: it always wins)", [luck_text(s) for s in sk])
        row("strong player's score less the weak ones' mean", [mean_text(s["score_margin"]) for s in sk])
    if skipped:
        why = " (a game is one hand)" if one_hand else ""
        lines.append(f"  no value in any reading{why}: {', '.join(skipped)}")
    lines.append("")
    lines.append("Ranking (penalty per question: 0 best or as good, ½ worse, 1 significantly worse):")
    for x in res["ranking"]:
        pen = ", ".join(f"{k} {v:g}" for k, v in x["penalties"].items())
        lines.append(f"  {x['rank']}. '{x['reading']}' — total {x['total']:g} ({pen})")
    lines.append("")
    lines += res["explanation"]
    lines.append(
        "Whether a reading lasts as the sources describe is for the reader to judge from the durations above "
        "and the sources' words."
    )
    return "\n".join(lines)


def _num(x, fmt: str = ".2f") -> str:
    return "n/a" if x is None else format(x, fmt)


def html_page(res: dict) -> str:
    """One self-contained page: the readings, the table, the ranking, and a
    plot of the wins by seat of each reading."""
    import html

    from .render import CSS, env

    text = format_text(res)
    esc = html.escape
    parts = [f"<h1>The readings of <code>{esc(res['rules'])}</code></h1>"]
    parts.append("<ul>")
    for r in res["readings"]:
        ed = (
            f"<div class='small'><span class='editorial'>[editorial]</span> {esc(r['editorial'])}</div>"
            if r["editorial"]
            else ""
        )
        parts.append(f"<li><b>{esc(r['reading'])}</b>: {esc(r['description'])}{ed}</li>")
    parts.append("</ul><h2>Ranking</h2><ol>")
    for x in res["ranking"]:
        pen = ", ".join(f"{k} {v:g}" for k, v in x["penalties"].items())
        parts.append(f"<li>{esc(x['reading'])} — total penalty {x['total']:g} ({esc(pen)})</li>")
    parts.append("</ol>")
    parts.append("<ul>" + "".join(f"<li>{esc(x)}</li>" for x in res["explanation"]) + "</ul>")
    from .compare_html import plain_text

    with plain_text():
        parts.append(_plot(res))
    parts.append(f"<h2>The measures</h2><pre>{esc(text)}</pre>")
    from markupsafe import Markup

    return (
        env()
        .get_template("page.html.j2")
        .render(title=f"readings of {res['rules']}", css=CSS, nav=None, body=Markup("\n".join(parts)))
    )


def _plot(res: dict) -> str:
    import matplotlib.pyplot as plt

    from .compare_html import _png

    n = res["players"]
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    k = len(res["readings"])
    xs = list(range(1, n + 1))
    for j, r in enumerate(res["readings"]):
        pos = r["design"]["win_share_by_position"]
        if not pos or pos[0]["p"] is None:
            continue
        off = (j - (k - 1) / 2) * 0.15
        ax.errorbar(
            [x + off for x in xs],
            [p["p"] for p in pos],
            yerr=[[p["p"] - p["low"] for p in pos], [p["high"] - p["p"] for p in pos]],
            fmt="o",
            capsize=3,
            label=r["reading"],
        )
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"even share: 1/{n}")
    ax.set_xticks(xs)
    ax.set_xticklabels(
        [f"+{x}" + (" (leads first)" if x == 1 else " (deals)" if x == n else "") for x in xs], fontsize=8
    )
    ax.set_xlabel("seat, counted from the first dealer in the direction of play")
    ax.set_ylabel("share of games won")
    ax.set_ylim(bottom=0)
    ax.set_title("Games won by seat, by reading")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=min(4, k + 1), frameon=False)
    return (
        f'<figure><img alt="Games won by seat, by reading" src="{_png(fig)}"><figcaption>A point is a seat\'s '
        "share of the games won under a reading, its bar the 95% Wilson interval; the fairer the reading, the "
        "closer its points to the dashed line.</figcaption></figure>"
    )
