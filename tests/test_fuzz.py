"""Whatever a user writes, the answer is a value or a located RuleError: never
another exception (which the CLI would show as an internal error)."""

import string

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from academie.dsl.cards import card
from academie.dsl.compiler import Scope, compile_expr
from academie.dsl.errors import Pos, RuleError
from academie.dsl.loader import check_schema, load_yaml
from academie.dsl.model import compile_doc
from academie.dsl.loader import Doc

SCOPE = Scope(
    zones={"stock", "trick"},
    seat_zones={"hand", "tricks"},
    vars={"limit"},
    seat_vars={"points"},
    pools={"pot"},
    currencies={"chip"},
    orders={"play": {card("AS"): 13}},
    declarations={"capot"},
)
TOKENS = [
    "card",
    "seat",
    "dealer",
    "led",
    "trump",
    "players",
    ".suit",
    ".rank",
    ".colour",
    ".x",
    "==",
    "!=",
    "<",
    "+",
    "-",
    "*",
    "/",
    "%",
    "and",
    "or",
    "not",
    "in",
    "if",
    "then",
    "else",
    "(",
    ")",
    "[",
    "]",
    ",",
    "count",
    "hand",
    "tricks",
    "stock",
    "pot",
    "chip",
    "rank",
    "balance",
    "top_seat",
    "declared",
    "capot",
    "AH",
    "10S",
    "K",
    "2",
    "0",
    "7",
    '"black"',
    "none",
    "true",
    "__class__",
    "__import__",
    "os",
    "points",
    "limit",
    "min_seats",
    "max",
    "abs",
    "holder",
    "1X",
    "'",
    '"',
    "@",
    "\n",
    "  ",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12), st.sampled_from(["game", "seat", "card"]))
def test_expressions_compile_or_fail_with_a_location(tokens, kind):
    text = " ".join(tokens)
    try:
        e = compile_expr(text, Pos("f.yaml", 3, 9), SCOPE, kind)
    except RuleError as err:
        d = err.diagnostics[0]
        assert d.pos.file == "f.yaml" and d.pos.line >= 3 and d.message
    else:
        assert e.text == text


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(alphabet=string.printable + "éà–“", max_size=300))
def test_any_bytes_load_or_fail_with_a_location(raw):
    try:
        data, positions = load_yaml(raw, "x.yaml")
    except RuleError as err:
        assert err.diagnostics[0].pos.file == "x.yaml"
        return
    try:
        check_schema(data, positions, "x.yaml")
    except RuleError as err:
        assert all(d.pos.file == "x.yaml" for d in err.diagnostics)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.sampled_from(
        [
            "players",
            "dealer + 1",
            "card.suit == led",
            "count(hand(seat)) == 0",
            "each",
            "pot",
            "chip",
            "stock",
            "tricks",
            "hand",
            "x",
            "K",
            "S",
            "play",
            "deal",
            "tricks",
            "pay",
            "shuffle",
            "turnup",
            "sequence",
            "effects",
            "announce",
            "capot",
            "seat",
            "enfle-jeux-oublies",
            "L'Enflé is played by four to eight players",
        ]
    )
)
keys = st.sampled_from(
    [
        "title",
        "source",
        "players",
        "min",
        "max",
        "cite",
        "editorial",
        "reason",
        "evidence",
        "pack",
        "suits",
        "ranks",
        "remove",
        "when",
        "cards",
        "orders",
        "play",
        "zones",
        "per_seat",
        "money",
        "currencies",
        "start",
        "give",
        "to",
        "amount",
        "unit",
        "dealer",
        "draw",
        "lowest",
        "order",
        "hand",
        "kind",
        "first",
        "batches",
        "rest",
        "leader",
        "follow",
        "must",
        "winner",
        "key",
        "won_to",
        "end",
        "after",
        "game",
        "hands",
        "standings",
        "score",
        "vars",
        "declarations",
        "options",
        "set",
        "take",
        "from",
        "do",
        "zone",
        "obtain",
        "pay",
        "4",
        "5",
    ]
)
documents = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=6), max_leaves=40
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(keys, documents, min_size=1, max_size=8))
def test_any_document_compiles_or_fails_with_a_location(data):
    text = yaml.safe_dump(data, allow_unicode=True)
    try:
        data2, positions = load_yaml(text, "doc.yaml")
        check_schema(data2, positions, "doc.yaml")
        compile_doc(Doc(data2, positions, "doc.yaml", "doc", ["doc.yaml"], defaults={"doc.yaml": "enfle-jeux-oublies"}))
    except RuleError as err:
        assert all(d.pos.file == "doc.yaml" for d in err.diagnostics)


def _leaves(node):
    from academie.dsl.loader import walk

    return [p for p, v in walk(node) if not isinstance(v, (dict, list))]


def _set(node, path, value):
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["enfle/academie", "francion/terrail", "emprunt/lacombe", "polignac/boussac"]),
    st.lists(st.tuples(st.integers(0, 10_000), scalars), min_size=1, max_size=3),
    st.integers(0, 3),
)
def test_a_corpus_file_with_changed_values_loads_plays_or_fails_located(cid, changes, seed):
    """Change a few values of a real rule file (an expression, a number, a
    name): loading, compiling and playing answer a game or a RuleError."""
    import copy
    from academie.dsl.loader import corpus_root
    from academie.interpreter.agents import make_agents
    from academie.interpreter.state import State

    path = corpus_root() / f"{cid}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data.pop("extends", None), data.pop("imports", None)
    leaves = [
        p
        for p in _leaves(data)
        if p and p[-1] not in ("cite", "quote", "reason", "evidence") and "cite" not in p and "editorial" not in p
    ]
    for i, value in changes:
        _set(data, leaves[i % len(leaves)], value)
    text = yaml.safe_dump(data, allow_unicode=True)
    try:
        d, positions = load_yaml(text, "mut.yaml")
        check_schema(d, positions, "mut.yaml")
        game = compile_doc(
            Doc(d, positions, "mut.yaml", "mut", ["mut.yaml"], defaults={"mut.yaml": d.get("source", "")})
        )
        if game.abstract or game.min_players < 1 or game.max_players > 12 or game.min_players > game.max_players:
            return
        n = game.min_players
        st_ = State(game, n, seed, max_plays=3000, keep_events=False, check="hand")
        st_.run_with(make_agents(["random"], n, seed))
    except RuleError as err:
        assert all(dg.pos.file in ("mut.yaml", "<move>", "--deal", "--deck") for dg in err.diagnostics), err.format()
