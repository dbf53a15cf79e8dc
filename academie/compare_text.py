"""The comparison of two games as text: the rules' differences with the
citations of both sides, and the table of the measures of play."""

from __future__ import annotations

import math

from .compare_rules import Side, missing_note
from .describe import Statement


def _cite_lines(s: Statement | None, side: Side) -> list[str]:
    if s is None:
        return []
    out = [f'[{c.source}] "{" ".join(c.quote.split())}"' for c in s.cites]
    out += [f"[editorial] {e.reason} — evidence: {e.evidence}" for e in s.editorial]
    if s.default:
        out.append("[default] the rule file is silent: the rule language's default")
    return out


def format_rules(a: Side, b: Side, diff: list[dict]) -> str:
    lines = [f"A: {a.game.title} ({a.label})", f"B: {b.game.title} ({b.label})", ""]
    for asp in diff:
        d = asp["differences"]
        if not d:
            lines.append(
                f"== {asp['title']}: the same in both ({len(asp['same'])} rule"
                f"{'s' if len(asp['same']) != 1 else ''}: {', '.join(asp['same'])})"
            )
            continue
        lines.append(f"== {asp['title']}: {len(d)} difference{'s' if len(d) != 1 else ''}")
        last: dict = {}
        for item in d:
            lines.append(f"  {item['label']}")
            for mark, s, side in (("A", item["a"], a), ("B", item["b"], b)):
                other = item["b"] if mark == "A" else item["a"]
                text = s.text if s is not None else missing_note(mark, other.key, side)
                lines.append(f"    {mark}: {text}")
                cl = _cite_lines(s, side)
                if cl and cl == last.get(mark):
                    lines.append("         (the same citations as above)")
                    continue
                if cl:
                    last[mark] = cl
                for c in cl:
                    lines.append(f"         {c}")
            for det in item["detail"]:
                lines.append(f"    * {det}")
        if asp["same"]:
            lines.append(f"  the same in both: {', '.join(asp['same'])}")
        for r in asp["same_cited_differently"]:
            lines.append(f"  the same rule, cited differently: {r['label']}")
            for mark, s, side in (("A", r["a"], a), ("B", r["b"], b)):
                for c in _cite_lines(s, side):
                    lines.append(f"    {mark}: {c}")
    return "\n".join(lines)


def format_play(p: dict) -> str:
    r = p["report"]
    n = p["players"]
    lines = [
        f"In play: {p['games']} games each, {n} players, seed {p['seed']}, agents {','.join(p['agents'])} "
        f"(the same seeds for A and B)",
        f"  {r['method']}",
        "",
    ]
    lines.append(f"  {'measure (95% CI)':<62} {'A':>24} {'B':>24}")
    for row in r["means"]:
        lines.append(f"  {row['label'][:62]:<62} {mean_text(row['a']):>24} {mean_text(row['b']):>24}")
    for row in r["proportions"]:
        extra = f"  (even: {row['expected']:.1%})" if "expected" in row else ""
        lines.append(f"  {row['label'][:62]:<62} {share_text(row['a']):>24} {share_text(row['b']):>24}{extra}")
    lines.append(f"  game wins by seat, counted from the first dealer (+1 = the first leader; even: {1 / n:.1%}):")
    for s in r["win_share_by_position"]:
        lines.append(f"  {'seat +' + str(s['position']):<62} {share_text(s['a']):>24} {share_text(s['b']):>24}")
    lines.append(f"  game wins by seat number (the first dealer is drawn; even: {1 / n:.1%}):")
    for s in r.get("win_share_by_seat", []):
        lines.append(f"  {'seat ' + str(s['seat']):<62} {share_text(s['a']):>24} {share_text(s['b']):>24}")
    if r.get("win_share_by_agent"):
        lines.append(f"  share of a game won by each kind of player, per seat (even: {1 / n:.1%}):")
        for row in r["win_share_by_agent"]:
            lines.append(f"  {row['agent'][:62]:<62} {_opt(pct_text, row['a']):>24} {_opt(pct_text, row['b']):>24}")
    da, db = r["design"]["a"], r["design"]["b"]
    lines.append(
        f"  {'Balance (1 - the largest gap between two seats’ win shares)':<62} "
        f"{balance_text(da):>24} {balance_text(db):>24}"
    )
    lines.append(
        f"  {'fairness: χ² test of an even share of wins, p-value':<62} "
        f"{_num(da['fairness']['p_value'], '.3g'):>24} {_num(db['fairness']['p_value'], '.3g'):>24}"
    )
    for tag in ("a", "b"):
        sk = r["skill"].get(tag)
        if sk:
            lines.append(
                f"  skill ({tag.upper()}): one {sk['strong']} among {sk['weak']}: wins "
                f"{share_text(sk['strong_win_share'])} (even {sk['even']:.1%}); score margin "
                f"{mean_text(sk['score_margin'])}; luck {luck_text(sk)}"
            )
    for x in r.get("not_measured", []):
        lines.append(f"  {x['label'][:62]:<62} n/a: {x['why']}")
    if r.get("counters_unused"):
        lines.append("  0 in every hand of both (the rules have none): " + "; ".join(r["counters_unused"]))
    lines.append("")
    if r["fixed_by_rules"]:
        lines.append("Fixed by the rules (the same in every game: not a finding of play):")
        lines += [f"  - {x}" for x in r["fixed_by_rules"]]
    if r["significant"]:
        lines.append(
            "Significant differences (95%; each test alone: about 1 in 20 tests of no real difference "
            "is listed by chance):"
        )
        lines += [f"  - {x}" for x in r["significant"]]
    else:
        lines.append("No significant difference at 95%.")
    return "\n".join(lines)


def _num(x, fmt: str = ".2f") -> str:
    return "n/a" if x is None else format(x, fmt)


def pct_text(x) -> str:
    """A mean of shares, in per cent, with its interval."""
    if not x["n"] or x["mean"] is None:
        return "n/a"
    return f"{x['mean']:.1%} [{x['low']:.1%}, {x['high']:.1%}]"


def _opt(fmt, x) -> str:
    """A figure that one side may lack (a kind of player only one side seats)."""
    return "n/a" if x is None else fmt(x)


def balance_text(d: dict) -> str:
    """Balance with its bootstrap interval."""
    b, ci = d.get("balance"), d.get("balance_interval")
    if b is None:
        return "n/a"
    return f"{b:.2f} [{ci['low']:.2f}, {ci['high']:.2f}]" if ci else f"{b:.2f}"


def luck_text(sk: dict) -> str:
    """Luck with the interval its win share gives."""
    if sk.get("luck") is None:
        return "n/a"
    ci = sk.get("luck_interval")
    return f"{sk['luck']:.2f} [{ci['low']:.2f}, {ci['high']:.2f}]" if ci else f"{sk['luck']:.2f}"


def mean_text(x) -> str:
    if not x["n"] or x["mean"] is None or math.isnan(x["mean"]):
        return "n/a"
    return f"{x['mean']:.2f} [{x['low']:.2f}, {x['high']:.2f}]"


def share_text(x) -> str:
    if not x["n"] or x["p"] is None:
        return "n/a"
    return f"{x['p']:.1%} [{x['low']:.1%}, {x['high']:.1%}]"
