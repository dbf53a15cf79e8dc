"""The rules of two games compared (``academie compare``): the statements of
``describe`` of each side, matched by key and compared by value, aspect by
aspect; and the number of players both can be played by."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .describe import ASPECTS, Statement, describe
from .dsl.errors import Pos, RuleError
from .dsl.loader import resolve, split_ref
from .dsl.model import GameDef, compile_doc
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
