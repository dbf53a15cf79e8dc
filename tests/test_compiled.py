"""What the interpreter works out once per rule file lives in its own cache
(interpreter/compiled.py), never in the dsl's data classes: a game plays the
same whether its tables are new or already filled, and they go with the game."""

import dataclasses
import gc
import json
import weakref

import pytest

from academie.dsl.loader import corpus_ids, resolve
from academie.dsl.model import EndRule, Effect, GameDef, Payment, Step, load_game
from academie.interpreter import compiled
from academie.interpreter.agents import make_agents, play
from academie.interpreter.simulate import play_one
from academie.interpreter.state import State

PLAYABLE = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]


def test_the_dsl_data_classes_hold_nothing_of_the_interpreter():
    interpreter_fields = {"runners", "key_tables", "deal_plans", "short_loop", "ante"}
    for cls in (GameDef, Step, Payment, Effect, EndRule):
        assert not interpreter_fields & {f.name for f in dataclasses.fields(cls)}, cls.__name__


@pytest.mark.parametrize("cid", PLAYABLE)
def test_a_game_plays_the_same_with_its_tables_new_or_filled(cid):
    game = load_game(cid)
    n = game.min_players

    def log(g, seed):
        st = play(State(g, n, seed), make_agents(["random"], n, seed))
        return [json.dumps(e) for e in st.events]

    first = log(game, 3)  # fills the tables
    assert compiled.for_game(game).runners or compiled.for_game(game).deal_plans
    play_one(game, n, 4, ["random"], 50_000)  # the short loop fills its own (no events)
    again = log(game, 3)  # reads them
    fresh = log(load_game(cid), 3)  # another GameDef of the same file: tables of its own
    assert first == again == fresh


def test_the_tables_of_a_game_go_with_it():
    gc.collect()
    before = compiled.held()
    game = load_game("enfle/academie")
    play_one(game, 4, 1, ["random"], 50_000)
    c = compiled.for_game(game)
    assert c.key_tables and c.deal_plans and c.short_loop
    assert compiled.for_game(game) is c  # one set of tables per GameDef
    assert compiled.held() == before + 1
    alive = weakref.ref(game)
    del game, c
    gc.collect()
    assert alive() is None  # the tables do not keep the game alive
    assert compiled.held() == before  # and they are dropped with it
