"""Expressions and effect lists compiled to Python source (``dsl/codegen.py``,
``interpreter/effect_code.py``): the games played are the closures' games, every
corpus file and option, with events kept and without; and a hostile rule file puts
nothing of its text into the source."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import academie
from academie.dsl import codegen
from academie.dsl.cards import card
from academie.dsl.compiler import compile_expr
from academie.dsl.errors import Pos, RuleError
from academie.dsl.expr import Scope
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.compiled import for_game
from academie.interpreter.state import State
from test_event_hashes import _variants

GENERATED = "<academie: generated>"


def _game(ref: str, keep_events: bool, seed: int) -> list:
    """One seeded game of every player count: its event log, or (without events) every
    position's legal moves and the counters and money at the end."""
    cid, *opts = ref.split("+")
    game = academie.load_game(cid, opts)
    lo, hi = game.players
    out = []
    for n in sorted({lo, hi}):
        st = game.new_state(n, seed=seed, keep_events=keep_events)
        rng = random.Random(f"{ref}:{n}:{seed}")
        trace = []
        while not st.is_terminal() and len(trace) < 3000:
            moves = st.legal_moves()
            trace.append(moves)
            st.apply(rng.choice(moves))
        eng = st.engine
        if keep_events:
            out.append(eng.events)
        else:
            out.append([trace, eng.vars, eng.pvars, eng.bal])
    return out


def _both(ref: str, keep_events: bool, seed: int) -> tuple[list, list]:
    with codegen.switched(True):
        on = _game(ref, keep_events, seed)
    with codegen.off():
        off = _game(ref, keep_events, seed)
    return on, off


@pytest.mark.parametrize("ref", _variants())
def test_every_corpus_game_plays_the_same_with_and_without_generated_code(ref):
    on, off = _both(ref, True, 1)
    assert on == off, f"{ref}: the event logs differ"
    on, off = _both(ref, False, 2)  # no events kept: the counters change in the generated source itself
    assert on == off, f"{ref}: the games differ when no events are kept"


def _generated(fn) -> bool:
    return getattr(getattr(fn, "__code__", None), "co_filename", None) == GENERATED


def _piquet_runners() -> list:
    game = academie.load_game("piquet/hoyle")
    st = game.new_state(2, seed=1)
    rng = random.Random(1)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_moves()))
    return list(for_game(game.gamedef).runners.values())


def test_piquet_runs_its_effects_and_conditions_as_generated_functions():
    with codegen.switched(True):
        runners = _piquet_runners()
    assert any(_generated(r) for r in runners), "no effect list of Piquet ran as one function"
    with codegen.off():
        runners = _piquet_runners()
    assert runners and not any(_generated(r) for r in runners)


def test_the_names_generated_code_looks_up_are_the_states_own_keys():
    """A counter's or zone's name in a generated function is the very string the state's
    dictionaries are keyed by (both interned), so a look-up is settled by identity with no
    comparison of characters: 3.4 % of Piquet's instructions."""
    with codegen.switched(True):
        runners = [r for r in _piquet_runners() if _generated(r)]
    st = State(academie.load_game("piquet/hoyle").gamedef, 2, seed=1)
    keys = {id(k): k for d in (st.vars, st.pvars, st.zones, st.pzones) for k in d}
    named = [v for r in runners for v in r.__globals__.values() if type(v) is str and v in st.pvars]
    assert named, "no counter named in Piquet's generated effects"
    assert all(id(v) in keys for v in named)


def test_a_combination_read_in_generated_code_is_the_closures_value_and_error():
    """``best``, ``count_of``… written inline read what the combination keeps per the cards and
    work it out on a miss: the closure's value, and its located error for a zone too large."""
    scope = load_game(str(Path(__file__).parent / "concepts" / "combinations.yaml")).scope
    text = "best(hand(seat), poker) * 1000 + count_of(hand(seat), pairs) + size_of(hand(seat + 1), poker)"
    with codegen.switched(True):
        gen = compile_expr(text, Pos("f.yaml", 7, 9), scope, "seat")
    with codegen.off():
        ref = compile_expr(text, Pos("f.yaml", 7, 9), scope, "seat")
    assert gen.code is not None and ".get(" in gen.code.src and _generated(gen.fn)
    names = [f"{r}{s}" for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    rng = random.Random(5)
    for _ in range(200):
        cards = [card(x) for x in rng.sample(names, 10)]

        class St:
            n, pzones = 2, {"hand": [sorted(cards[:5], key=lambda x: x.canon), cards[5:]]}

        for seat in (0, 1):
            assert gen.fn(St, seat, None) == ref.fn(St, seat, None)

    class Large:
        n, pzones = 2, {"hand": [[card(x) for x in names[:20]], []]}

    errors = []
    for fn in (gen.fn, ref.fn):
        with pytest.raises(RuleError) as e:
            fn(Large, 0, None)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "holds more than" in errors[0] and "f.yaml:7:9" in errors[0], errors


HOSTILE = "'); __import__('os').system('touch /tmp/pwned') #"


def _scope() -> Scope:
    return Scope(zones={"trick"}, vars={"n"}, seat_vars={"pts"}, seat_zones={"hand"})


def test_a_string_of_the_rule_file_is_a_constant_never_source():
    text = f'if "{HOSTILE}" == "x" then pts(seat) + 1 else n * 2'
    with codegen.switched(True):
        e = compile_expr(text, Pos("f.yaml", 3, 5), _scope(), "seat")
    assert e.code is not None and _generated(e.fn)
    assert "__import__" not in e.code.src and "pwned" not in e.code.src and "'" not in e.code.src
    assert HOSTILE in e.code.ns.values()
    with codegen.off():
        ref = compile_expr(text, Pos("f.yaml", 3, 5), _scope(), "seat")

    class St:
        n, vars, pvars = 2, {"n": 4}, {"pts": [3, 5]}

    assert e.fn(St, 1, None) == ref.fn(St, 1, None) == 8
    assert e.fn.__globals__["__builtins__"] == {}


@pytest.mark.parametrize(
    "text",
    [
        "max_seats(pts(seat) + pts(seat + 1))",
        "min_seats(pts(seat) - n)",
        "sum_seats(pts(seat))",
        "sum_seats(pts(seat) > 2)",
        "count_seats(pts(seat) > 2)",
        "max_seats(pts(seat) > 2)",
        "max_seats(pts(seat)) + min_seats(pts(seat)) * sum_seats(pts(seat + 1)) - count_seats(pts(seat) == n)",
    ],
)
def test_a_sum_or_greatest_over_the_seats_written_out_seat_by_seat_is_the_loops_value(text):
    # for two, three and four seats each seat's value is written out (no loop); every count of seats
    # gives the closures' value, and of the same type (a sum of truths is a number, a greatest one a truth)
    with codegen.switched(True):
        e = compile_expr(text, Pos("f.yaml", 1, 1), _scope(), "seat")
    with codegen.off():
        ref = compile_expr(text, Pos("f.yaml", 1, 1), _scope(), "seat")
    assert e.code is not None and "st.n == 2" in e.code.src and "st.n == 4" in e.code.src
    rng = random.Random(text)
    for n in range(1, 8):
        for _ in range(30):

            class St:
                pass

            St.n, St.vars, St.pvars = n, {"n": rng.randint(0, 4)}, {"pts": [rng.randint(0, 4) for _ in range(n)]}
            got, want = e.fn(St, rng.randrange(n), None), ref.fn(St, 0, None)
            assert got == want and type(got) is type(want), (n, St.pvars, got, want)


@pytest.mark.parametrize("name", ["max_seats", "min_seats"])
def test_a_greatest_of_values_that_do_not_compare_fails_as_the_loop_fails(name):
    # a number or none (of no one kind) for each seat, two to six seats (written out, or the
    # loop): max()'s own error, none taken as no value yet
    text = f"{name}(if pts(seat) > 0 then 1 else none)"
    with codegen.switched(True):
        e = compile_expr(text, Pos("f.yaml", 1, 1), _scope(), "seat")
    with codegen.off():
        ref = compile_expr(text, Pos("f.yaml", 1, 1), _scope(), "seat")
    assert e.code is not None and _generated(e.fn)
    for pts in ([3, -1], [-1, 3], [3, -1, 2], [3, 3, -1, 3], [-1, 3, 3, 3, 3], [3, 3, 3, 3, -1, 3]):

        class St:
            n, vars, pvars = len(pts), {"n": 0}, {"pts": pts}

        errors = []
        for fn in (e.fn, ref.fn):
            with pytest.raises(TypeError) as got:
                fn(St, 0, None)
            errors.append(str(got.value))
        assert errors[0] == errors[1], (pts, errors)


def test_the_seats_written_out_are_bounded_per_expression():
    text = " + ".join(["max_seats(pts(seat) + pts(seat + 1) + pts(seat + 2))"] * 17)  # within 1,000 characters
    with codegen.switched(True):
        e = compile_expr(text, Pos("f.yaml", 1, 1), _scope(), "seat")
    assert e.code is not None and e.code.src.count("st.n == 2") < 17  # the later ones are calls
    assert len(e.code.src) < 4 * codegen._UNROLL_BUDGET


def test_deep_nesting_is_bounded_and_still_the_closures_value():
    depth = 45  # within the loader's limit of 50
    text = "(" * depth + "pts(seat) + 1" + ")" * depth + " + " + " + ".join(["n"] * 140)
    with codegen.switched(True):
        e = compile_expr(text, Pos("f.yaml", 1, 1), _scope(), "seat")
    with codegen.off():
        ref = compile_expr(text, Pos("f.yaml", 1, 1), _scope(), "seat")

    class St:
        n, vars, pvars = 2, {"n": 1}, {"pts": [3, 5]}

    assert e.fn(St, 0, None) == ref.fn(St, 0, None) == 144
    assert e.code is not None and e.code.written <= codegen.MAX_NODES
    assert len(e.code.src) < 40 * codegen.MAX_NODES
    nots = "not " * 60 + "n == 1"
    with pytest.raises(RuleError) as err:
        compile_expr(nots, Pos("f.yaml", 7, 9), _scope(), "seat")
    assert "f.yaml:7" in str(err.value)


def test_a_hostile_rule_file_loads_with_a_located_error_or_plays_safely(tmp_path):
    src = (Path(__file__).parent / "concepts" / "played.yaml").read_text()
    hostile = "\n".join(
        [
            "      - add:",
            "          placed: >-",
            f'            if last_card.colour == "{HOSTILE}" then 100 else {"(" * 30}1{")" * 30}',
            "        when: >-",
            "          not not not (count(trick) >= 1 and last_card.colour != '\"); __import__(1)')",
            "        editorial: {reason: hostile, evidence: a test}",
            "",
        ]
    )
    p = tmp_path / "hostile.yaml"
    assert "    on_trick:\n" in src
    p.write_text(src.replace("    on_trick:\n", hostile + "    on_trick:\n"))
    with codegen.switched(True):
        g = load_game(str(p))
        st = play(State(g, 3, 1, keep_events=False), make_agents(["random"], 3, 1))
        runners = [r for r in for_game(g).runners.values() if _generated(r)]
    with codegen.off():
        ref = play(State(load_game(str(p)), 3, 1, keep_events=False), make_agents(["random"], 3, 1))
    assert st.pvars == ref.pvars and st.bal == ref.bal
    assert not Path("/tmp/pwned").exists()
    assert runners, "the on_play list ran as one generated function"
    for r in runners:  # the strings are constants of the namespace, not of the code
        assert not any(isinstance(k, str) and "import" in k for k in r.__code__.co_consts)
        assert r.__globals__["__builtins__"] == {}
    assert any(HOSTILE in r.__globals__.values() for r in runners)
    bad = p.read_text().replace("  placed: {per_seat", '  "pl\'aced\\n__import__": {per_seat', 1)
    p.write_text(bad)
    with pytest.raises(RuleError) as err:
        load_game(str(p))
    assert "hostile.yaml:" in str(err.value)


def test_a_sink_that_silences_the_state_inside_a_list_of_effects_gets_no_more_of_its_events():
    """A sink told of a counter's event may stop the events (``silence()``) in the middle of a
    list of effects: the list's later effects then make none, as the closures make none (the
    generated list tests whether events are kept again at each effect while they are)."""
    rules = str(Path(__file__).parent / "concepts" / "adding.yaml")

    def silenced(game) -> list:
        box: dict = {}

        def sink(ev):  # silences the state at the first event of the on_stop list
            if ev.get("rule", [None])[:3] == ["hand", "play", "on_stop"]:
                box["st"].silence()

        st = box["st"] = State(game.gamedef, 2, 0, keep_events=True, sink=sink)
        r = random.Random(1)
        while st.decision is not None and st._sink is not None:
            st.apply(r.choice(st.decision.moves))
        assert not st._logging  # the sink did silence it
        return [e for e in st.events if e["type"] == "score"]

    generated = silenced(academie.load_game(rules))
    with codegen.off():
        closures = silenced(academie.load_game(rules))
    assert generated[-1]["rule"] == ["hand", "play", "on_stop", 0]  # nothing after the silencing event
    assert generated == closures
