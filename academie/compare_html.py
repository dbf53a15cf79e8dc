"""The comparison as ONE self-contained HTML page: inline CSS, the plots as
base64 PNG drawn by matplotlib with the Agg backend; nothing is fetched."""

from __future__ import annotations

import base64
import html
import io

from .render import CSS, code_html


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


COLOURS = {"a": "#1f77b4", "b": "#d62728"}


def _legend_below(ax, ncol: int = 2) -> None:
    """The legend under the axes, outside them: it never hides a bar or a point."""
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=ncol, frameon=False)


def _bins(values: list[int]) -> tuple[int, int]:
    """(first, width) of bins centred on whole numbers: a count k is drawn in
    [k - 0.5, k + 0.5), or in groups of ``width`` whole numbers when there are
    too many to show one by one."""
    lo, hi = min(values), max(values)
    return lo, max(1, -(-(hi - lo + 1) // 40))


def plain_text():
    """Matplotlib with no math in text: a '$' in a name from a rule file or a
    path is a dollar sign, never a formula to parse."""
    import matplotlib

    matplotlib.use("Agg")
    return matplotlib.rc_context({"text.parse_math": False})


def plots(a_label: str, b_label: str, played: dict) -> list[tuple[str, str, str]]:
    """(alt text, data URL, caption) of each plot. The title is drawn in the
    plot; the caption says how to read it."""
    with plain_text():
        return _plots(a_label, b_label, played)


def _plots(a_label: str, b_label: str, played: dict) -> list[tuple[str, str, str]]:
    import matplotlib.pyplot as plt

    da, db = played["a"], played["b"]
    labels = {"a": "A: " + a_label, "b": "B: " + b_label}
    out = []
    for key, title, unit in (
        ("plays", "Length of a hand", "plays in the hand"),
        ("tricks", "Tricks per hand", "tricks in the hand"),
    ):
        ha, hb = da.histograms[key], db.histograms[key]
        values = list(ha) + list(hb)
        if not values or not any(values):
            continue
        lo, width = _bins(values)
        fig, ax = plt.subplots(figsize=(7.5, 3.6))
        bar = 0.4 * width
        for off, tag, hist in ((-0.2, "a", ha), (0.2, "b", hb)):
            total = sum(hist.values())
            grouped: dict[int, int] = {}
            for v, c in hist.items():
                k = lo + (v - lo) // width * width
                grouped[k] = grouped.get(k, 0) + c
            xs = sorted(grouped)
            ax.bar(
                [x + (width - 1) / 2 + off * width for x in xs],
                [grouped[x] / total for x in xs],
                width=bar,
                color=COLOURS[tag],
                label=labels[tag],
            )
        ax.set_xlabel(unit + (f" (bars of {width} values)" if width > 1 else ""))
        ax.set_ylabel("share of hands")
        ax.set_title(title)
        _legend_below(ax)
        caption = (
            f"Each bar is the share of the hands of A (blue) or B (red) that had that many {unit.split(' in ')[0]}"
            + (f", {width} values to a bar" if width > 1 else "")
            + "; the means with their intervals are in the table."
        )
        out.append((title, _png(fig), caption))
    r = played["report"]
    n = played["players"]
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    xs = list(range(1, n + 1))
    for off, tag in ((-0.12, "a"), (0.12, "b")):
        rows = [s[tag] for s in r["win_share_by_position"]]
        if not rows or rows[0]["p"] is None:
            continue
        ps = [x["p"] for x in rows]
        err = [[max(0, x["p"] - x["low"]) for x in rows], [max(0, x["high"] - x["p"]) for x in rows]]
        ax.errorbar([x + off for x in xs], ps, yerr=err, fmt="o", capsize=4, label=labels[tag], color=COLOURS[tag])
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"even share: 1/{n}")
    ax.set_xticks(xs)
    ax.set_xticklabels(
        [f"+{x}" + (" (leads first)" if x == 1 else " (deals)" if x == n else "") for x in xs], fontsize=8
    )
    ax.set_xlabel("seat, counted from the first dealer in the direction of play")
    ax.set_ylabel("share of games won")
    ax.set_ylim(bottom=0)
    ax.set_title("Games won by seat")
    _legend_below(ax, 3)
    out.append(
        (
            "Games won by seat",
            _png(fig),
            "A point is a seat's share of the games won (ties shared), its bar the 95% Wilson interval; "
            "a seat whose bar misses the dashed line wins more or less than an even share.",
        )
    )
    skill = r.get("skill") or {}
    if skill:
        fig, ax = plt.subplots(figsize=(7.5, 2.4))
        ys = []
        for j, tag in enumerate(("a", "b")):
            sk = skill.get(tag)
            if not sk or sk["strong_win_share"]["p"] is None:
                continue
            v = sk["strong_win_share"]
            ax.errorbar(
                [v["p"]],
                [1 - j],
                xerr=[[v["p"] - v["low"]], [v["high"] - v["p"]]],
                fmt="o",
                capsize=4,
                color=COLOURS[tag],
            )
            ys.append((1 - j, labels[tag]))
        first = next(iter(skill.values()))
        ax.axvline(first["even"], color="grey", linestyle="--", linewidth=1, label=f"an equal seat: 1/{n}")
        ax.set_yticks([y for y, _ in ys])
        ax.set_yticklabels([lab for _, lab in ys], fontsize=8)
        ax.set_ylim(-0.6, 1.6)
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of games won by the strong player")
        ax.set_title(f"One {first['strong']} among {first['weak']} players")
        _legend_below(ax, 1)
        out.append(
            (
                "Reward for skill",
                _png(fig),
                "The share of the games the strong player wins, its seat turning with the game, with its 95% Wilson "
                "interval: to the right of the dashed line, the game rewards the better player.",
            )
        )
    shares = [m for m in r["means"] if m["measure"] in ("lead_change", "drama", "decisiveness")]
    shares = [m for m in shares if m["a"]["n"] or m["b"]["n"]]
    if shares:
        fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.6 * len(shares)))
        for j, m in enumerate(shares):
            for off, tag in ((-0.15, "a"), (0.15, "b")):
                v = m[tag]
                if not v["n"]:
                    continue
                ax.errorbar(
                    [v["mean"]],
                    [j + off],
                    xerr=[[v["mean"] - v["low"]], [v["high"] - v["mean"]]],
                    fmt="o",
                    capsize=3,
                    color=COLOURS[tag],
                    label=labels[tag] if j == 0 else None,
                )
        ax.set_yticks(range(len(shares)))
        ax.set_yticklabels([m["label"].split(":")[0] for m in shares], fontsize=8)
        ax.set_xlim(0, 1)
        ax.set_xlabel("share (0 to 1)")
        ax.set_title("The course of a game")
        _legend_below(ax)
        out.append(
            (
                "The course of a game",
                _png(fig),
                "LeadChange: how often the leader changes from one hand to the next; Drama: how often the final "
                "winner trails; DecisivenessMoves: how much of the game is played before the winner leads for "
                "good. Means over games with 95% intervals.",
            )
        )
    counts = [
        m
        for m in r["means"]
        if m["measure"] not in ("plays", "lead_change", "drama", "decisiveness")
        and m["a"]["n"]
        and m["b"]["n"]
        and (m["a"]["mean"] or m["b"]["mean"])
    ]
    if counts:
        fig, axes = plt.subplots(len(counts), 1, figsize=(7.5, 0.95 * len(counts) + 0.6), squeeze=False)
        for ax, m in zip(axes[:, 0], counts):
            for y, tag in ((1, "a"), (0, "b")):
                v = m[tag]
                ax.errorbar(
                    [v["mean"]],
                    [y],
                    xerr=[[v["mean"] - v["low"]], [v["high"] - v["mean"]]],
                    fmt="o",
                    capsize=3,
                    color=COLOURS[tag],
                )
            ax.set_yticks([1, 0])
            ax.set_yticklabels(["A", "B"], fontsize=8)
            ax.set_ylim(-0.6, 1.6)
            ax.set_title(m["label"], fontsize=8, loc="left")
            ax.tick_params(axis="x", labelsize=8)
        fig.tight_layout()
        out.append(
            (
                "Counts per hand and per game",
                _png(fig),
                "Each measure on its own axis, in its own unit: the mean for A (blue) and B (red) with its 95% "
                "interval (per-hand measures with the hands of a game counted as one cluster).",
            )
        )
    return out


def _cites_html(s) -> str:
    if s is None:
        return ""
    parts = [
        f'<div class="small">[{html.escape(str(c.source))}] <q>{html.escape(" ".join(c.quote.split()))}</q></div>'
        for c in s.cites
    ]
    parts += [
        f'<div class="small"><span class="editorial">[editorial]</span> {html.escape(e.reason)} — evidence: '
        f"{html.escape(e.evidence)}</div>"
        for e in s.editorial
    ]
    if s.default:
        parts.append('<div class="small">[default] the rule file is silent: the language\'s default</div>')
    return "".join(parts)


def rules_table(a, b, diff) -> str:
    from .compare_rules import missing_note

    rows = [
        f"<table><tr><th>rule</th><th>A: {html.escape(a.game.title)} (<code>{html.escape(a.label)}</code>)</th>"
        f"<th>B: {html.escape(b.game.title)} (<code>{html.escape(b.label)}</code>)</th></tr>"
    ]
    for asp in diff:
        rows.append(
            f'<tr><th colspan="3">{html.escape(asp["title"])}'
            + (f" — the same in both ({len(asp['same'])} rules)" if not asp["differences"] else "")
            + "</th></tr>"
        )
        last: dict = {}
        for d in asp["differences"]:
            cells = []
            for mark, s, other in (("A", d["a"], d["b"]), ("B", d["b"], d["a"])):
                side = a if mark == "A" else b
                text = code_html(s.text) if s is not None else html.escape(missing_note(mark, other.key, side))
                ch = _cites_html(s)
                if ch and ch == last.get(mark):
                    ch = '<div class="small">(the same citations as above)</div>'
                elif ch:
                    last[mark] = ch
                cells.append(f"<td>{text}{ch}</td>")
            det = "".join(f"<div><em>{html.escape(x)}</em></div>" for x in d["detail"])
            rows.append(f'<tr class="diff"><td>{html.escape(d["label"])}{det}</td>{"".join(cells)}</tr>')
        if asp["differences"] and asp["same"]:
            rows.append(
                f'<tr class="same"><td colspan="3">the same in both: {html.escape(", ".join(asp["same"]))}</td></tr>'
            )
        for r in asp["same_cited_differently"]:
            rows.append(
                f'<tr class="same"><td>{html.escape(r["label"])} <span class="small">(the same rule, cited '
                f"differently)</span></td><td>{_cites_html(r['a'])}</td><td>{_cites_html(r['b'])}</td></tr>"
            )
    rows.append("</table>")
    return "\n".join(rows)


def _num(x, fmt: str = ".2f") -> str:
    return "n/a" if x is None else format(x, fmt)


def play_html(a, b, played) -> str:
    from .compare_text import _opt, balance_text, luck_text, mean_text, pct_text, share_text

    r = played["report"]
    n = played["players"]
    out = [
        f"<h2>In play</h2><p>{played['games']} games of each, {n} players, seed <code>{html.escape(str(played['seed']))}</code>, "
        f"agents {html.escape(','.join(played['agents']))}; the same seeds for A and B.<br>"
        f"<span class='small'>{html.escape(r['method'])}</span></p>"
    ]
    out.append("<table><tr><th>measure (95% CI)</th><th>A</th><th>B</th></tr>")
    for row in r["means"]:
        out.append(
            f"<tr><td>{html.escape(row['label'])}</td><td>{mean_text(row['a'])}</td><td>{mean_text(row['b'])}</td></tr>"
        )
    for row in r["proportions"]:
        out.append(
            f"<tr><td>{html.escape(row['label'])}</td><td>{share_text(row['a'])}</td><td>{share_text(row['b'])}</td></tr>"
        )
    for s in r["win_share_by_position"]:
        out.append(
            f"<tr><td>games won by seat +{s['position']} from the first dealer</td><td>{share_text(s['a'])}</td>"
            f"<td>{share_text(s['b'])}</td></tr>"
        )
    for s in r.get("win_share_by_seat", []):
        out.append(
            f"<tr><td>games won by seat {s['seat']} (seat number; the first dealer is drawn)</td>"
            f"<td>{share_text(s['a'])}</td><td>{share_text(s['b'])}</td></tr>"
        )
    for row in r.get("win_share_by_agent", []):
        out.append(
            f"<tr><td>share of a game won by a {html.escape(row['agent'])} seat (even {row['expected']:.1%})</td>"
            f"<td>{_opt(pct_text, row['a'])}</td><td>{_opt(pct_text, row['b'])}</td></tr>"
        )
    da, db = r["design"]["a"], r["design"]["b"]
    out.append(
        f"<tr><td>Balance (1 - the largest gap between two seats' win shares)</td><td>{balance_text(da)}</td>"
        f"<td>{balance_text(db)}</td></tr>"
    )
    out.append(
        f"<tr><td>fairness: χ² test of an even share of wins, p-value</td><td>{_num(da['fairness']['p_value'], '.3g')}"
        f"</td><td>{_num(db['fairness']['p_value'], '.3g')}</td></tr>"
    )
    if r["skill"]:
        sk = [r["skill"].get("a"), r["skill"].get("b")]
        first = next(x for x in sk if x)
        out.append(
            f"<tr><th colspan='3'>skill: one {html.escape(first['strong'])} among {html.escape(first['weak'])} "
            f"players, its seat turning (even share {first['even']:.1%})</th></tr>"
        )
        for key, label, fmt in (
            ("strong_win_share", "games won by the strong player", share_text),
            ("strong_loses", "games the strong player does not win", share_text),
            ("score_margin", "its score less the weak players' mean score", mean_text),
        ):
            out.append(
                f"<tr><td>{label}</td>" + "".join(f"<td>{fmt(x[key]) if x else 'n/a'}</td>" for x in sk) + "</tr>"
            )
        out.append(
            "<tr><td>luck (1: the strong player wins no more than an equal one; 0: it always wins)</td>"
            + "".join(f"<td>{luck_text(x) if x else 'n/a'}</td>" for x in sk)
            + "</tr>"
        )
    for x in r.get("not_measured", []):
        out.append(f"<tr><td>{html.escape(x['label'])}</td><td colspan='2'>n/a: {html.escape(x['why'])}</td></tr>")
    if r.get("counters_unused"):
        out.append(
            "<tr><td>0 in every hand of both (the rules have none)</td><td colspan='2'>"
            + html.escape("; ".join(r["counters_unused"]))
            + "</td></tr>"
        )
    out.append("</table>")
    if r["fixed_by_rules"]:
        out.append(
            "<h3>Fixed by the rules</h3><p class='small'>The same in every game of each: a consequence of the rules, "
            "not a finding of play.</p><ul>"
            + "".join(f"<li>{html.escape(x)}</li>" for x in r["fixed_by_rules"])
            + "</ul>"
        )
    if r["significant"]:
        out.append(
            "<h3>Significant differences</h3><ul>"
            + "".join(f"<li>{html.escape(x)}</li>" for x in r["significant"])
            + "</ul>"
        )
    else:
        out.append("<p>No significant difference at 95%.</p>")
    for alt, url, caption in plots(a.label, b.label, played):
        out.append(
            f'<figure><img alt="{html.escape(alt)}" src="{url}"><figcaption>{html.escape(caption)}</figcaption></figure>'
        )
    return "\n".join(out)


def body(a, b, diff, played=None) -> str:
    parts = [
        f"<h1>{html.escape(a.game.title)} and {html.escape(b.game.title)}</h1>",
        f"<p>A: <code>{html.escape(a.label)}</code> · B: <code>{html.escape(b.label)}</code>. "
        "Each difference with the citations of both sides; aspects that are the same are summarised.</p>",
        "<h2>In the rules</h2>",
        rules_table(a, b, diff),
    ]
    if played:
        parts.append(play_html(a, b, played))
    return "\n".join(parts)


def page(a, b, diff, played=None) -> str:
    from .render import env

    return (
        env()
        .get_template("page.html.j2")
        .render(title=f"{a.label} and {b.label}", css=CSS, nav=None, body=_markup(body(a, b, diff, played)))
    )


def _markup(s):
    from markupsafe import Markup

    return Markup(s)
