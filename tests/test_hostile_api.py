"""The standing test of hostile calls to the API (issue 24, item 6; docs/security.md):
hypothesis calls every public method of ``Game`` and ``State`` with hostile arguments (seats
out of the table, moves no game has, huge and negative numbers, floats, booleans, None,
lists, dicts, text with control characters, records that are no records) at states reached
by random play. Whatever the call, it answers, or raises one of the API's documented errors
(``ApiError`` and its subclasses; ``RuleError`` where a rule file is read), within a time
bound: never another exception."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import academie
from academie.dsl.cards import parse_card
from academie.dsl.errors import RuleError

TIME_BOUND = 5.0  # seconds for one call: far above what any of these deserves
HERE = Path(__file__).parent
GAMES = ["enfle/academie", "hearts/foster+howell", str(HERE / "concepts" / "choose.yaml")]
CHOOSE_SUIT = sorted(str(p) for p in (HERE / "concepts").glob("*.yaml") if "choose_suit" in p.read_text())[:1]
GAMES += CHOOSE_SUIT

hostile_int = st.one_of(
    st.integers(-3, 60),
    st.integers(),
    st.sampled_from([-(10**30), 10**30, 2**63, -(2**63) - 1, 2**31]),
    st.builds(pow, st.just(10), st.just(5000)),  # too long for repr(): built, so that hypothesis can show it
)
text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        ["QS", "10H", "pass", "PASS", " qs ", "7", "-1", "1e9", "\x1b[31m", "\u2028", "a" * 5000, "0" * 50]
    ),
    st.from_regex(r"[0-9]{1,30}", fullmatch=True),
)
leaf = st.one_of(st.none(), st.booleans(), hostile_int, st.floats(allow_nan=True), text, st.just(parse_card("AS")))
hostile = st.recursive(
    leaf, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)), max_leaves=8
)
CALLS = [
    "apply",
    "apply_action",
    "move_to_action",
    "action_to_move",
    "action_to_string",
    "why_illegal",
    "observation",
    "information_state_string",
    "new_state",
    "from_record",
    "load_game",
]
ALLOWED = (academie.ApiError, RuleError)


def _call(game, state, name, args):
    if name == "apply":
        return state.apply(args[0])
    if name == "apply_action":
        return state.apply_action(args[0])
    if name in ("move_to_action", "action_to_move", "action_to_string"):
        return getattr(game, name)(args[0])
    if name == "why_illegal":
        return state.why_illegal(args[0])
    if name == "observation":
        return state.observation(args[0], earlier_hands=bool(args[1]))
    if name == "information_state_string":
        return state.information_state_string(args[0])
    if name == "new_state":
        kw = {}
        if isinstance(args[2], dict):
            kw["deal"] = args[2]
        elif isinstance(args[2], list):
            kw["deck"] = args[2]
        return game.new_state(args[0], args[1], dealer=args[3], **kw)
    if name == "from_record":
        rec = state.to_record()
        if isinstance(args[0], str) and args[0] in rec:  # one field of a true record spoiled
            rec[args[0]] = args[1]
        elif isinstance(args[0], (dict, list)):
            rec = args[0]
        else:
            rec["moves"] = list(rec["moves"]) + [args[1]]
        return academie.state_from_record(rec, game if args[2] is not None else None)
    if name == "load_game":
        return academie.load_game(args[0] if isinstance(args[0], str) and args[0][:1] not in "/.~" else "x y", ())
    raise AssertionError(name)


@settings(
    max_examples=int(os.environ.get("ACADEMIE_HOSTILE_EXAMPLES", 150)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    ref=st.sampled_from(GAMES),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 60),
    name=st.sampled_from(CALLS),
    args=st.tuples(hostile, hostile, hostile, hostile),
)
def test_hostile_calls_raise_only_the_apis_errors(ref, seed, moves, name, args):
    game = academie.load_game(ref)
    state = game.new_state(game.players[0], seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    t = time.monotonic()
    try:
        _call(game, state, name, args)
    except ALLOWED:
        pass
    took = time.monotonic() - t
    assert took < TIME_BOUND, f"{name}{args!r:.200} took {took:.1f} s"


@pytest.mark.parametrize(
    "call",
    [
        lambda g, s: s.apply_action(10**5000),
        lambda g, s: s.apply(10**5000),
        lambda g, s: g.action_to_move(2**70),
        lambda g, s: s.observation(10**5000),
        lambda g, s: g.new_state(10**5000),
        lambda g, s: g.new_state(4, dealer=10**5000),
        lambda g, s: g.move_to_action("9" * 5000),
    ],
)
def test_a_huge_number_is_an_api_error(call):
    """An integer too long to be written out (Python refuses repr() past 4,300 digits) made the
    API's own message raise ValueError instead of the API's error."""
    g = academie.load_game("enfle/academie")
    s = g.new_state(4, 1)
    with pytest.raises(academie.ApiError):
        call(g, s)
