"""``academie compare A B``: two games side by side.

In the rules: the statements of ``describe`` for each game (after ``extends``,
imports and options), matched by key and compared by value, aspect by aspect;
each difference with the citations or editorial notes of both sides;
identical aspects summarised. In play (``--games N``): the measures of
``measures`` for both, on the same seeds, with 95 % intervals, and a
plain-words line for each significant difference.

Options: ``A+NAME`` switches option NAME on for that side
(``polignac/boussac+capot``), as do ``--option-a NAME`` and ``--option-b NAME``;
``--option NAME`` switches it on for both.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass

from .describe import ASPECTS, Statement, describe
from .dsl.errors import Pos, RuleError
from .dsl.loader import resolve, split_ref
from .dsl.model import GameDef, compile_doc
from .measures import Collected, mean_ci, mean_diff, newcombe, run, wilson
from .words import rank_word


@dataclass
class Side:
    ref: str
    options: list[str]
    doc: object
    game: GameDef
    statements: list[Statement]

    @property
    def label(self) -> str:
        return self.game.id + "".join("+" + o for o in self.options)


def load_side(ref: str, options=(), limits=None) -> Side:
    base, opts = split_ref(ref)
    opts = opts + [o for o in options if o not in opts]
    doc = resolve(base, tuple(opts), limits)
    game = compile_doc(doc)
    return Side(ref, list(doc.options), doc, game, describe(doc, game))


# -- the rules ---------------------------------------------------------------------------
def label_of(key: tuple) -> str:
    """A short name for a rule, from its key: ("orders", "play") -> "play order"."""
    k = [str(x).replace("_", " ") for x in key]
    head = k[0]
    if head == "orders" and len(k) == 2:
        return f"{k[1]} order"
    if head in ("zones", "vars", "declarations") and len(k) == 2:
        return {"zones": "zone", "vars": "counter", "declarations": "declaration"}[head] + f" '{k[1]}'"
    if head == "money":
        return "money: " + " ".join(str(int(x) + 1) if x.isdigit() else x for x in k[1:])
    if head == "hand" and len(k) >= 2:
        rest = [str(int(x) + 1) if x.isdigit() else x for x in k[2:]]
        return f"step '{k[1]}'" + (": " + " ".join(rest) if rest else "")
    return " ".join(k)


def _label(s: Statement) -> str:
    key = s.key
    if key[0] == "pack" and len(key) == 2 and isinstance(key[1], int):
        return f"pack for {key[1]} players"
    if key[0] == "hand" and s.aspect == "dealing" and isinstance(key[-1], int):
        return f"{key[1]} for {key[-1]} players"
    return label_of(key)


def rank_moves(a: list[str], b: list[str]) -> list[str]:
    """The ranks whose place differs between two orders (highest first),
    said in words: the ranks outside their longest common run of order."""
    common = [r for r in a if r in b]
    cb = [r for r in b if r in a]
    sm = difflib.SequenceMatcher(None, common, cb, autojunk=False)
    kept = set()
    for blk in sm.get_matching_blocks():
        kept.update(common[blk.a : blk.a + blk.size])
    out = []
    for r in common:
        if r in kept:
            continue
        out.append(f"the {rank_word(r)}: {_place(a, r)} in A, {_place(b, r)} in B")
    for r in a:
        if r not in b:
            out.append(f"the {rank_word(r)}: in A only")
    for r in b:
        if r not in a:
            out.append(f"the {rank_word(r)}: in B only")
    return out


def _place(order: list[str], r: str) -> str:
    i = order.index(r)
    if i == 0:
        return "highest"
    if i == len(order) - 1:
        return "lowest"
    return f"{_ordinal(i + 1)} from the top"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def step_pairs(a: Side, b: Side) -> dict[str, str]:
    """B's steps that A names otherwise: B's name -> A's. Steps of the same kind
    with the same name pair; the others of a kind pair in the order of play."""
    kinds_a: dict[str, list[str]] = {}
    kinds_b: dict[str, list[str]] = {}
    for st in a.game.steps:
        kinds_a.setdefault(st.kind, []).append(st.name)
    for st in b.game.steps:
        kinds_b.setdefault(st.kind, []).append(st.name)
    names_a = {st.name for st in a.game.steps}
    out = {}
    for kind, nb in kinds_b.items():
        na = kinds_a.get(kind, [])
        for x, y in zip([n for n in na if n not in nb], [n for n in nb if n not in na]):
            if y not in names_a:
                out[y] = x
    return out


def rules_diff(a: Side, b: Side) -> list[dict]:
    """Per aspect: its differences (both statements, with citations), the
    rules the same in both, and those the same but cited differently. A step
    B names otherwise than A (``step_pairs``) is compared with A's."""
    sa = [s for s in a.statements if s.only != "render"]
    sb = [s for s in b.statements if s.only != "render"]
    renamed = step_pairs(a, b)
    back = {v: k for k, v in renamed.items()}

    def key_b(s):
        k = s.key
        return ("hand", renamed[k[1]]) + tuple(k[2:]) if k[0] == "hand" and len(k) > 1 and k[1] in renamed else k

    out = []
    for aspect, title in ASPECTS:
        ka = {s.key: s for s in sa if s.aspect == aspect}
        kb = {key_b(s): s for s in sb if s.aspect == aspect}
        keys = list(ka) + [k for k in kb if k not in ka]
        diffs, same, recited = [], [], []
        for k in keys:
            x, y = ka.get(k), kb.get(k)
            lab = _label(ka[k] if k in ka else kb[k])
            if x is not None and y is not None and k[0] == "hand" and len(k) > 1 and k[1] in back:
                lab += f" (B: '{back[k[1]]}')"
            if x is not None and y is not None and _norm(x.value_json, a) == _norm(y.value_json, b):
                same.append(lab)
                if _cites_key(x) != _cites_key(y):
                    recited.append({"label": lab, "a": x, "b": y})
                continue
            detail = []
            if k[0] == "orders" and x is not None and y is not None:
                detail = rank_moves([str(r) for r in x.value], [str(r) for r in y.value])
            diffs.append({"label": lab, "a": x, "b": y, "detail": detail})
        if ka or kb:
            out.append(
                {
                    "aspect": aspect,
                    "title": title,
                    "differences": diffs,
                    "same": same,
                    "same_cited_differently": recited,
                }
            )
    return out


def _norm(text: str, side: Side) -> str:
    """A rule's data with the defaults of the language written out, so that
    ``rank(card)`` and ``rank(card, play)`` compare equal where ``play`` is
    the default order."""
    orders = list(side.game.orders)
    default = "play" if "play" in orders else (orders[0] if len(orders) == 1 else None)
    if default:
        text = re.sub(r"\brank\(\s*(\w+)\s*\)", rf"rank(\1, {default})", text)
    return text


def missing_note(mark: str, key: tuple, side: Side) -> str:
    n = key[-1] if key and isinstance(key[-1], int) else None
    if n is not None and not (side.game.min_players <= n <= side.game.max_players):
        return f"({mark} is not played by {n} players)"
    return f"(no such rule in {mark})"


def _cites_key(s: Statement):
    return ([(c.source, " ".join(c.quote.split())) for c in s.cites], [(e.reason, e.evidence) for e in s.editorial])


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


def rules_json(diff: list[dict]) -> list[dict]:
    def st(s):
        if s is None:
            return None
        return {"text": s.text, "value": s.value, **s.citation_json(), "default": s.default}

    return [
        {
            "aspect": x["aspect"],
            "title": x["title"],
            "same": x["same"],
            "differences": [
                {"label": d["label"], "a": st(d["a"]), "b": st(d["b"]), "detail": d["detail"]} for d in x["differences"]
            ],
            "same_cited_differently": [
                {"label": r["label"], "a": st(r["a"]), "b": st(r["b"])} for r in x["same_cited_differently"]
            ],
        }
        for x in diff
    ]


# -- in play ------------------------------------------------------------------------------
def common_players(a: GameDef, b: GameDef, players: int | None) -> int:
    lo, hi = max(a.min_players, b.min_players), min(a.max_players, b.max_players)
    if players is None:
        if lo > hi:
            raise RuleError(
                f"no number of players suits both: {a.id} is for {a.min_players} to "
                f"{a.max_players}, {b.id} for {b.min_players} to {b.max_players}",
                Pos(a.doc.file, 1, 1),
                code="players",
            )
        return lo
    for g in (a, b):
        if not (g.min_players <= players <= g.max_players):
            raise RuleError(
                f"{g.id} is for {g.min_players} to {g.max_players} players, not {players}",
                g.doc.pos(("players",)),
                code="players",
            )
    return players


# (counter of a hand, label, the plain-words line of a difference: {r} the ratio, {g} the game)
MEAN_MEASURES = [
    ("plays", "plays per hand (length of a hand)", "hands are {r} times longer in {g}"),
    ("tricks", "tricks per hand", "there are {r} times more tricks per hand in {g}"),
    ("takes", "pick-ups per hand (renounce, take to hand)", "cards are picked up {r} times more often in {g}"),
    ("borrows", "cards borrowed per hand", "cards are borrowed {r} times more often in {g}"),
    ("draws", "cards drawn from a stock per hand", "cards are drawn {r} times more often in {g}"),
    ("lead_changes", "lead changes per hand", "the lead changes {r} times more often in {g}"),
]
HANDS_PHRASE = "a game lasts {r} times more hands in {g}"


def play_measures(
    a: Side, b: Side, players: int, games: int, seed, agents=("random",), max_plays: int = 50_000
) -> dict:
    ca = run(a.game, players, games, seed, agents, max_plays)
    cb = run(b.game, players, games, seed, agents, max_plays)
    return {
        "players": players,
        "games": games,
        "seed": seed,
        "agents": list(agents),
        "max_plays": max_plays,
        "a": ca,
        "b": cb,
        "report": report(ca, cb, players),
    }


def _mean(xs):
    m, lo, hi, _ = mean_ci(xs)
    return {"mean": m, "low": lo, "high": hi, "n": len(xs)}


def _prop(k, n):
    p, lo, hi = wilson(k, n)
    return {"p": p, "low": lo, "high": hi, "k": k, "n": n}


def report(ca: Collected, cb: Collected, n: int) -> dict:
    rows, lines = [], []
    for key, label, verb in MEAN_MEASURES:
        xa, xb = ca.per_hand[key], cb.per_hand[key]
        if not any(xa) and not any(xb):
            continue
        d, lo, hi = mean_diff(xa, xb)
        ma, mb = _mean(xa), _mean(xb)
        sig = not (lo <= 0 <= hi)
        rows.append(
            {
                "measure": key,
                "label": label,
                "a": ma,
                "b": mb,
                "difference": {"d": d, "low": lo, "high": hi},
                "significant": sig,
            }
        )
        if sig:
            lines.append(_ratio_line(verb, label, ma["mean"], mb["mean"], d, lo, hi))
    rows.append(
        {
            "measure": "hands_per_game",
            "label": "hands per game",
            "a": _mean(ca.hands_per_game),
            "b": _mean(cb.hands_per_game),
        }
    )
    ha, hb = ca.hands_per_game, cb.hands_per_game
    d, lo, hi = mean_diff(ha, hb)
    rows[-1].update(difference={"d": d, "low": lo, "high": hi}, significant=not (lo <= 0 <= hi))
    if rows[-1]["significant"]:
        lines.append(
            _ratio_line(HANDS_PHRASE, "hands per game", rows[-1]["a"]["mean"], rows[-1]["b"]["mean"], d, lo, hi)
        )
    props = []
    # the first leader: the seat after the dealer, who leads first
    ea, eb = _prop(ca.eldest_wins, ca.decided_hands), _prop(cb.eldest_wins, cb.decided_hands)
    props.append(
        {
            "measure": "first_leader",
            "label": "hands won by the first leader (the seat after the dealer)",
            "a": ea,
            "b": eb,
            "expected": 1 / n,
        }
    )
    for tag, e in (("A", ea), ("B", eb)):
        if e["n"] and not (e["low"] <= 1 / n <= e["high"]):
            more = e["p"] > 1 / n
            lines.append(
                f"in {tag} the first leader wins {e['p']:.1%} of the hands (95% CI {e['low']:.1%} to "
                f"{e['high']:.1%}), {'more' if more else 'less'} than the 1/{n} = {1 / n:.1%} of an even "
                f"game: leading first is {'an advantage' if more else 'a disadvantage'}"
            )
    ua, ub = _prop(ca.unfinished, ca.games), _prop(cb.unfinished, cb.games)
    props.append({"measure": "unfinished", "label": "games stopped by the play limit", "a": ua, "b": ub})
    for row in props:
        x, y = row["a"], row["b"]
        if x["n"] and y["n"]:
            d, lo, hi = newcombe(x["k"], x["n"], y["k"], y["n"])
            row["difference"] = {"d": d, "low": lo, "high": hi}
            row["significant"] = not (lo <= 0 <= hi)
            if row["significant"]:
                lines.append(
                    f"{row['label']}: {x['p']:.1%} in A, {y['p']:.1%} in B (difference {d:+.1%}, "
                    f"95% CI {lo:+.1%} to {hi:+.1%})"
                )
    seats = []
    for i in range(n):
        x = _prop(ca.position_wins[i] if ca.position_wins else 0, ca.games - ca.unfinished)
        y = _prop(cb.position_wins[i] if cb.position_wins else 0, cb.games - cb.unfinished)
        seats.append({"position": i + 1, "a": x, "b": y})
        for tag, e in (("A", x), ("B", y)):
            if e["n"] and not (e["low"] <= 1 / n <= e["high"]):
                who = " (the first leader)" if i == 0 else (" (the first dealer)" if i == n - 1 else "")
                lines.append(
                    f"in {tag}, seat +{i + 1} from the first dealer{who} wins {e['p']:.1%} of the games "
                    f"(95% CI {e['low']:.1%} to {e['high']:.1%}), against 1/{n} = {1 / n:.1%}"
                )
    return {
        "means": rows,
        "proportions": props,
        "win_share_by_position": seats,
        "significant": lines,
        "method": "proportions: Wilson score intervals; means: mean ± 1.96·SE (over hands); differences: "
        "Newcombe's hybrid score interval for proportions, ± 1.96·sqrt(SE_a² + SE_b²) for means; "
        "all 95%",
    }


def _ratio_line(phrase, label, ma, mb, d, lo, hi) -> str:
    ci = f"{label}: {ma:.2f} in A, {mb:.2f} in B; difference B - A {d:+.2f}, 95% CI {lo:+.2f} to {hi:+.2f}"
    if ma > 0 and mb > 0:
        r, g = (mb / ma, "B") if mb >= ma else (ma / mb, "A")
        return phrase.format(r=f"{r:.2f}", g=g) + f" ({ci})"
    return ci


def format_play(p: dict) -> str:
    r = p["report"]
    n = p["players"]
    lines = [
        f"In play: {p['games']} games each, {n} players, seed {p['seed']}, agents {','.join(p['agents'])} "
        f"(the same seeds for A and B)",
        f"  {r['method']}",
        "",
    ]
    lines.append(f"  {'measure (95% CI)':<58} {'A':>24} {'B':>24}")
    for row in r["means"]:
        lines.append(f"  {row['label']:<58} {mean_text(row['a']):>24} {mean_text(row['b']):>24}")
    for row in r["proportions"]:
        extra = f"  (even: {row['expected']:.1%})" if "expected" in row else ""
        lines.append(f"  {row['label'][:58]:<58} {share_text(row['a']):>24} {share_text(row['b']):>24}{extra}")
    lines.append(f"  game wins by seat, counted from the first dealer (+1 = the first leader; even: {1 / n:.1%}):")
    for s in r["win_share_by_position"]:
        lines.append(f"  {'seat +' + str(s['position']):<58} {share_text(s['a']):>24} {share_text(s['b']):>24}")
    lines.append("")
    if r["significant"]:
        lines.append(
            "Significant differences (95%; each test alone: about 1 in 20 tests of no real difference "
            "is listed by chance):"
        )
        lines += [f"  - {x}" for x in r["significant"]]
    else:
        lines.append("No significant difference at 95%.")
    return "\n".join(lines)


def mean_text(x) -> str:
    if x["n"] == 0 or math.isnan(x["mean"]):
        return "n/a"
    return f"{x['mean']:.2f} [{x['low']:.2f}, {x['high']:.2f}]"


def share_text(x) -> str:
    if not x["n"]:
        return "n/a"
    return f"{x['p']:.1%} [{x['low']:.1%}, {x['high']:.1%}]"
