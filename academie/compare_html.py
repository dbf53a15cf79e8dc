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


def plots(a_label: str, b_label: str, played: dict) -> list[tuple[str, str]]:
    """(title, data URL) of each plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ca, cb = played["a"], played["b"]
    out = []
    for key, title in (("plays", "Length of a hand: plays per hand"), ("tricks", "Tricks per hand")):
        xa, xb = ca.per_hand[key], cb.per_hand[key]
        if not any(xa) and not any(xb):
            continue
        fig, ax = plt.subplots(figsize=(7.5, 3.4))
        lo, hi = min(xa + xb), max(xa + xb)
        width = max(1, (hi - lo + 1) // 40)
        bins = list(range(lo, hi + width + 1, width))
        for xs, lab, col in ((xa, "A: " + a_label, "#1f77b4"), (xb, "B: " + b_label, "#d62728")):
            ax.hist(
                xs,
                bins=bins,
                alpha=0.55,
                label=f"{lab} (mean {sum(xs) / max(1, len(xs)):.1f})",
                color=col,
                density=True,
            )
        ax.set_xlabel(title.split(": ")[-1])
        ax.set_ylabel("share of hands")
        ax.set_title(title)
        ax.legend(fontsize=8)
        out.append((title, _png(fig)))
    r = played["report"]
    n = played["players"]
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    xs = list(range(1, n + 1))
    for off, side, lab, col in ((-0.12, "a", "A: " + a_label, "#1f77b4"), (0.12, "b", "B: " + b_label, "#d62728")):
        ps = [s[side]["p"] for s in r["win_share_by_position"]]
        err = [
            [max(0, s[side]["p"] - s[side]["low"]) for s in r["win_share_by_position"]],
            [max(0, s[side]["high"] - s[side]["p"]) for s in r["win_share_by_position"]],
        ]
        ax.errorbar([x + off for x in xs], ps, yerr=err, fmt="o", capsize=4, label=lab, color=col)
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"even: 1/{n}")
    ax.set_xticks(xs)
    ax.set_xticklabels(
        [f"+{x}" + (" (leads first)" if x == 1 else " (deals)" if x == n else "") for x in xs], fontsize=8
    )
    ax.set_xlabel("seat, counted from the first dealer in the direction of play")
    ax.set_ylabel("share of games won")
    ax.set_title("Win share by seat, with 95% Wilson intervals")
    ax.legend(fontsize=8)
    out.append(("Win share by seat", _png(fig)))
    means = [m for m in r["means"] if m["measure"] != "plays" and (m["a"]["mean"] or m["b"]["mean"])]
    if means:
        fig, ax = plt.subplots(figsize=(7.5, 0.6 + 0.55 * len(means)))
        for j, m in enumerate(means):
            for off, side, col in ((-0.15, "a", "#1f77b4"), (0.15, "b", "#d62728")):
                v = m[side]
                ax.errorbar(
                    [v["mean"]],
                    [j + off],
                    xerr=[[v["mean"] - v["low"]], [v["high"] - v["mean"]]],
                    fmt="o",
                    capsize=3,
                    color=col,
                    label=("A" if side == "a" else "B") if j == 0 else None,
                )
        ax.set_yticks(range(len(means)))
        ax.set_yticklabels([m["label"] for m in means], fontsize=8)
        ax.set_title("Other measures (mean ± 1.96·SE)")
        ax.legend(fontsize=8)
        out.append(("Other measures", _png(fig)))
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
    from .compare import missing_note

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


def play_html(a, b, played) -> str:
    from .compare import mean_text, share_text

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
    out.append("</table>")
    if r["significant"]:
        out.append(
            "<h3>Significant differences</h3><ul>"
            + "".join(f"<li>{html.escape(x)}</li>" for x in r["significant"])
            + "</ul>"
        )
    else:
        out.append("<p>No significant difference at 95%.</p>")
    for title, url in plots(a.label, b.label, played):
        out.append(
            f'<figure><img alt="{html.escape(title)}" src="{url}"><figcaption>{html.escape(title)}</figcaption></figure>'
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
