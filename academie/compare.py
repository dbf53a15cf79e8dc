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
from .measures import Z, Design, newcombe
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
    """Why a rule is missing from one side: a rule per number of players (the
    pack, the deal) that this side's player count does not reach, or none."""
    per_players = len(key) == 2 and key[0] == "pack" or len(key) == 3 and key[0] == "hand"  # (pack, n), (hand, deal, n)
    n = key[-1] if per_players and isinstance(key[-1], int) else None
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
) -> dict:
    """N games of each on the same seeds (SEED/i), folded into ``Design``
    totals; with ``strong`` and ``weak``, also a skill run of each (one strong
    player among weak ones, its seat turning). ``on_progress(k)``: called as k
    more games are played (2N in all, 4N with a skill run)."""
    from .measures import measure

    out: dict = {"players": players, "games": games, "seed": seed, "agents": list(agents), "max_plays": max_plays}
    sides = {}
    for tag, side in (("a", a), ("b", b)):
        sides[tag] = measure(
            "design",
            split_ref(side.ref)[0],
            tuple(side.options),
            players,
            games,
            seed,
            agents,
            max_plays,
            workers,
            limits,
            side.game,
            on_progress=on_progress,
        )
    out.update(sides)
    if strong and weak:
        out["strong"], out["weak"] = strong, weak
        for tag, side in (("a", a), ("b", b)):
            out["skill_" + tag] = measure(
                "skill",
                split_ref(side.ref)[0],
                tuple(side.options),
                players,
                games,
                seed,
                (strong, weak),
                max_plays,
                workers,
                limits,
                side.game,
                on_progress=on_progress,
            ).report()
    out["report"] = report(sides["a"], sides["b"], players, out.get("skill_a"), out.get("skill_b"))
    return out


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
