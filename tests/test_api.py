"""The public API (academie.load_game, Game, State): every corpus game and option played
through it alone, with clones and pickles, and what each seat's observation holds."""

import copy
import json
import pickle
import random
from pathlib import Path

import pytest

import academie
from academie.dsl.errors import RuleError
from academie.dsl.loader import corpus_ids, resolve
from academie.interpreter.state import State as EngineState

CONCEPTS = Path(__file__).parent / "concepts"
PLAYABLE = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]
FACE_UP = {
    "play": "card",
    "turnup": "card",
    "draw": "card",
    "borrow": "card",
    "trick": "cards",
    "show": "cards",
    "turn": "card",
    "move": "cards",
    "meld": "cards",
    "discard": "card",
}


def _variants():
    for cid in PLAYABLE:
        yield cid
        for opt in resolve(cid).data.get("options") or {}:
            yield f"{cid}+{opt}"
    # the concept files: a talon drawn from and cards borrowed in sequence play, a turn-up,
    # a renouncer who takes another zone, tricks won to a shared zone
    for f in sorted(CONCEPTS.glob("*.yaml")):
        if not resolve(str(f)).data.get("abstract"):
            yield str(f)


def shown_this_hand(events):
    """The cards shown face up since the hand in progress began, from the full log."""
    start = next((i for i in range(len(events) - 1, -1, -1) if events[i]["type"] == "hand_start"), 0)
    shown = set()
    for ev in events[start:]:
        key = FACE_UP.get(ev["type"])
        if key:
            v = ev[key]
            shown.update(v if isinstance(v, list) else [v])
        elif ev["type"] == "draw_for_dealer":
            shown.update(ev["cards"].values())
    return shown


def known_to(events, seat):
    """The cards ``seat`` passed on, or was passed, since the hand in progress began: he knows where they went;
    and those it looked at to choose from a zone not its own."""
    start = next((i for i in range(len(events) - 1, -1, -1) if events[i]["type"] == "hand_start"), 0)
    return {
        c
        for ev in events[start:]
        if (ev["type"] == "deliver" and seat in (ev["seat"], ev["to_seat"]))
        or (ev["type"] == "look" and ev["seat"] == seat)
        for c in ev["cards"]
    }


def hands_of_log(events):
    """The full log cut at each hand_start (the set-up before the first hand, if any, first)."""
    groups = [[]]
    for ev in events:
        if ev["type"] == "hand_start" and groups[-1]:
            groups.append([])
        groups[-1].append(ev)
    return [g for g in groups if g]


def hidden_in_hand(events, seat):
    """The cards dealt to other seats in this hand's log that it never showed face up."""
    dealt = {c for ev in events if ev["type"] == "deal" for s, h in enumerate(ev["hands"]) if s != seat for c in h}
    return dealt - shown_this_hand(events) - known_to(events, seat)


def hidden_from(state, seat):
    """The cards in other seats' hands that were never shown face up this hand."""
    shown = shown_this_hand(state.engine.events)
    return {c.name for s, h in enumerate(state.engine.hand) if s != seat for c in h} - shown


def leaks(text, hidden):
    return sorted(c for c in hidden if f'"{c}"' in text)


def views(state):
    return [state.information_state_string(s) for s in range(state.players)], state.legal_actions()


def check_clone_and_pickle(state, rng):
    before = views(state)
    c = state.clone()
    assert views(c) == before and c == state
    moves = 0
    while not c.is_terminal() and moves < 3:  # moves on the clone leave the original as it was
        c.apply_action(rng.choice(c.legal_actions()))
        moves += 1
    assert views(state) == before
    p = pickle.loads(pickle.dumps(state))
    assert p == state and views(p) == before
    d = copy.deepcopy(state)
    assert d == state and d.engine is not state.engine and views(d) == before
    if not state.is_terminal():  # apply_action(a) is apply(move), and apply(name)
        a = rng.choice(state.legal_actions())
        x, y, z = state.clone(), state.clone(), state.clone()
        x.apply_action(a)
        y.apply(state.game.action_to_move(a))
        z.apply(state.action_to_string(a))
        assert views(x) == views(y) == views(z)
        assert views(state) == before


@pytest.mark.parametrize("ref", list(_variants()), ids=lambda r: Path(r).stem if r.endswith(".yaml") else r)
def test_every_game_through_the_api_alone(ref):
    game = academie.load_game(ref)
    rng = random.Random(ref)
    for players in sorted(set(game.players)):
        state = game.new_state(players=players, seed=3, keep_events=True)
        decisions = checked = 0
        while not state.is_terminal():
            seat = state.current_player()
            moves, actions = state.legal_moves(), state.legal_actions()
            assert actions and len(actions) == len(moves)
            assert [game.action_to_move(a) for a in actions] == moves  # the same ids in every state
            # in the order of their ids: cards in canonical order, then pass and declarations, then numbers
            assert actions == sorted(actions)
            assert all(0 <= a < game.num_distinct_actions() for a in actions)
            sample = decisions < 10 or rng.random() < 0.05
            shown = shown_this_hand(state.engine.events)
            new_hand = state.engine.hand_no != checked
            earlier = hands_of_log(state.engine.events)[:-1] if new_hand or sample else []
            for s in range(players):
                obs = state.observation(s, earlier_hands=False)
                hidden = {c.name for o, h in enumerate(state.engine.hand) if o != s for c in h} - shown
                hidden -= known_to(state.engine.events, s)
                # two packs: a name the seat holds itself is its own to see (the other copy stays unnamed)
                hidden -= {c.name for per in state.engine.pzones.values() for c in per[s]}
                assert not leaks(json.dumps(obs), hidden), (ref, players, decisions, s)
                if new_hand or sample:  # the earlier hands: nothing that was hidden in each of them
                    past = state.observation(s)["earlier_hands"]
                    assert len(past) == len(earlier)
                    for k in range(len(earlier)):
                        assert not leaks(json.dumps(past[k]), hidden_in_hand(earlier[k], s)), (ref, players, k, s)
                        assert [ev["type"] for ev in past[k]] == [ev["type"] for ev in earlier[k]]
                if sample:
                    assert json.loads(state.information_state_string(s)) == state.observation(s)
            checked = state.engine.hand_no
            obs = state.observation(seat)
            assert obs["hand"] == [c.name for c in state.engine.hand[seat]]
            assert obs["hand_sizes"] == [len(h) for h in state.engine.hand]
            assert obs["legal"] == [state.action_to_string(a) for a in actions]
            # clones and pickles at up to ~40 decisions of each game, the first ones always
            if sample:
                check_clone_and_pickle(state, rng)
            state.apply_action(rng.choice(actions))
            decisions += 1
        assert state.returns() == [
            next(r["score"] for r in state.standings() if r["seat"] == s) for s in range(players)
        ]
        check_clone_and_pickle(state, rng)
        assert state.observation(0)["terminal"] and state.current_player() is None


def test_the_leak_check_can_fail():
    # the full log holds every hand: the same check finds the other seats' cards there
    state = academie.load_game("hearts/foster").new_state(players=4, seed=1, keep_events=True)
    hidden = hidden_from(state, 0)
    assert len(hidden) == 39
    assert leaks(json.dumps(state.engine.events), hidden) == sorted(hidden)
    obs = json.loads(state.information_state_string(0))
    assert obs.pop("earlier_hands")[0][-1] == {"type": "dealer", "seat": state.engine.dealer}
    assert not leaks(json.dumps(obs), hidden)


def test_a_seat_sees_its_own_deal_and_the_others_sizes():
    state = academie.load_game("hearts/foster").new_state(players=4, seed=1)
    for seat in range(4):
        obs = state.observation(seat)
        deal = next(ev for ev in obs["events"] if ev["type"] == "deal")
        assert deal["hand"] == obs["hand"] and deal["hand_sizes"] == [13] * 4
        assert obs["hand_sizes"] == [13] * 4 and len(obs["hand"]) == 13
    assert state.information_state_string(0) != state.information_state_string(1)
    while state.engine.tricks_played < 2:
        state.apply_action(state.legal_actions()[0])
    obs = state.observation(0)
    piles = obs["seat_zones"]["tricks"]
    assert sum(p["count"] for p in piles) == 8 and sum(len(p["cards"]) for p in piles) == 8
    assert obs["zones"]["pack"] == {"count": 0, "cards": []} and obs["tricks_played"] == 2
    assert [ev["type"] for ev in obs["events"]].count("trick") == 2


def test_a_pick_up_shows_the_cards_that_were_played():
    # in L'Enflé a player who cannot follow picks up the trick: those cards were seen
    game = academie.load_game("enfle/academie")
    state = game.new_state(players=4, seed=2, keep_events=True)
    rng = random.Random(0)
    while not state.is_terminal():
        takes = [ev for ev in state.observation(0)["events"] if ev["type"] == "take" and ev["to"] == "hand"]
        if takes:
            assert all(ev["cards"] for ev in takes)
            break
        state.apply_action(rng.choice(state.legal_actions()))
    else:
        pytest.fail("no pick-up in the game")


def test_the_api_plays_the_engines_game():
    # the same seed and moves give the same event log as the interpreter driven directly
    game = academie.load_game("polignac/boussac+capot")
    assert game.options == ("capot",) and game.players == (4, 7)
    state = game.new_state(players=5, seed=11, keep_events=True)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    direct = EngineState(game.gamedef, 5, 11)
    for m in state.history:
        direct.apply(m)
    assert direct.events == state.engine.events and direct.returns() == state.returns()


def test_action_ids_are_the_full_pack_then_the_other_moves():
    game = academie.load_game("polignac/boussac+capot")
    names = [game.action_to_string(a) for a in range(game.num_distinct_actions())]
    pack = max((game.gamedef.pack(n) for n in range(4, 8)), key=len)
    assert names[: len(pack)] == [c.name for c in pack]
    assert names[len(pack) :] == ["pass", "capot"]
    assert academie.load_game("hearts/foster").num_distinct_actions() == 52
    assert academie.load_game("hearts/foster").move_to_action("AS") == 12


def test_a_path_and_an_id_with_options_load():
    assert academie.load_game("hearts/foster+howell").options == ("howell",)
    g = academie.load_game(str(CONCEPTS / "trumps.yaml"))
    assert g.new_state(players=g.players[0]).current_player() is not None
    assert academie.load_game("hearts/foster") is academie.load_game("hearts/foster")
    with pytest.raises(RuleError):  # a rule file that is not there: the loader's error
        academie.load_game("hearts/nowhere")


def test_the_same_seed_gives_the_same_game_and_a_stacked_deck_is_used():
    game = academie.load_game("hearts/foster")
    a, b = game.new_state(players=4, seed="x"), game.new_state(players=4, seed="x")
    assert views(a) == views(b)
    deck = [c.name for c in game.gamedef.pack(4)]
    s = game.new_state(players=4, deck=deck, dealer=0)
    hands = [s.observation(i)["hand"] for i in range(4)]
    assert sorted(sum(hands, []), key=deck.index) == deck
    deal = {"hands": [deck[i * 13 : (i + 1) * 13] for i in range(4)]}
    s = game.new_state(players=4, deal=deal, dealer=0)
    assert s.observation(2)["hand"] == deck[26:39]
    deal["hands"][2] = deal["hands"][1]  # the state keeps its own copy of the deal
    assert s.clone() == s and s.clone().observation(2)["hand"] == deck[26:39]
    assert pickle.loads(pickle.dumps(s)) == s


def test_misuse_raises_the_apis_exceptions():
    game = academie.load_game("hearts/foster")
    state = game.new_state(players=4, seed=1)
    illegal = (
        next(c for c in state.engine.hand[state.current_player()] if c not in state.legal_moves())
        if len(state.legal_moves()) < 13
        else None
    )
    other = next(c for s, h in enumerate(state.engine.hand) if s != state.current_player() for c in h)
    before = views(state)
    with pytest.raises(academie.IllegalMove, match="not a legal move"):
        state.apply(other)
    if illegal is not None:
        with pytest.raises(academie.IllegalMove):
            state.apply(illegal)
    with pytest.raises(academie.UnknownAction):
        state.apply_action(52)
    with pytest.raises(academie.UnknownAction):
        state.apply_action(-1)
    with pytest.raises(academie.UnknownAction):
        state.apply("capot")
    with pytest.raises(academie.InvalidSeat):
        state.observation(4)
    with pytest.raises(academie.InvalidSeat):
        state.information_state_string(-1)
    with pytest.raises(academie.InvalidSeat):
        game.new_state(players=9)
    with pytest.raises(academie.InvalidSeat):
        game.new_state(players=4, dealer=4)
    with pytest.raises(academie.ApiError, match="seed"):
        game.new_state(players=4, seed=[1])
    with pytest.raises(academie.ApiError, match="not a card"):
        game.new_state(players=4, deck=["ZZ"])
    with pytest.raises(academie.ApiError, match="lacks"):
        game.new_state(players=4, deck=["AS"])
    assert views(state) == before  # a refused move changes nothing
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(academie.GameOver):
        state.apply_action(0)
    with pytest.raises(academie.GameOver):
        state.apply("AS")
    for exc in (academie.IllegalMove, academie.GameOver, academie.UnknownAction, academie.InvalidSeat):
        assert issubclass(exc, ValueError) and not issubclass(exc, RuleError)


def test_the_public_names():
    from academie.players import agent

    for name in academie.__all__:
        assert getattr(academie, name) is (agent if name == "agent" else getattr(academie.api, name))
    with pytest.raises(AttributeError):
        academie.no_such_name


def test_every_name_the_docs_give_under_academie_is_in_all():
    import importlib.util
    import re

    docs = Path(__file__).parent.parent / "docs"
    named = set()
    for page in docs.glob("*.md"):
        # a name, not a web address such as dictionnaire-academie.fr
        named |= set(re.findall(r"(?<![\w./-])academie\.([A-Za-z_]\w*)\b", page.read_text(encoding="utf-8")))
    # a submodule (academie.openspiel, academie.dsl) is imported by its own name, not from __all__
    names = {n for n in named if n != "__all__" and importlib.util.find_spec(f"academie.{n}") is None}
    assert {"agent", "load_game", "IllegalMove"} <= names
    assert sorted(names - set(academie.__all__)) == []
    star: dict = {}
    exec("from academie import *", star)  # every name of __all__ imports
    assert set(academie.__all__) <= set(star)


def test_the_examples_of_docs_api_run(capsys):
    text = (Path(__file__).parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert len(blocks) >= 3
    for code in blocks:
        exec(compile(code, "docs/api.md", "exec"), {})
    assert capsys.readouterr().out


def test_each_thread_plays_its_own_compiled_game():
    """A compiled rule file fills tables and cells while it is played, so two
    threads must not share one: load_game keeps its games per thread, and so
    does simulate's worker (a Dask worker may run chunks in threads)."""
    import threading

    from academie.interpreter import simulate as sim

    here = academie.load_game("francion/terrail")
    assert academie.load_game("francion/terrail") is here
    here_def = sim._game("francion/terrail", ())
    assert sim._game("francion/terrail", ()) is here_def
    got: dict = {}

    def other():
        got["game"] = academie.load_game("francion/terrail")
        got["def"] = sim._game("francion/terrail", ())
        got["result"] = got["game"].new_state(players=4, seed=5).playout(random.Random(1))

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert got["game"] is not here and got["game"].gamedef is not here.gamedef
    assert got["def"] is not here_def
    assert got["result"] == here.new_state(players=4, seed=5).playout(random.Random(1))


class _OwnRandom(random.Random):
    """A generator of the caller's: random.Random's own shuffle, randrange and sample."""


@pytest.mark.parametrize("ref,players", [("hearts/foster", 4), ("piquet/hoyle", 2), ("polignac/boussac", 4)])
def test_a_generator_of_ones_own_deals_as_its_seed_would(ref, players):
    game = academie.load_game(ref)
    seeded = game.new_state(players, seed=7)
    own = game.new_state(players, rng=_OwnRandom(7))  # random.shuffle's algorithm: the same game
    assert isinstance(own.rng, _OwnRandom)
    rng = random.Random(1)
    for _ in range(40):
        if seeded.is_terminal():
            break
        for seat in range(players):
            assert own.information_state_string(seat) == seeded.information_state_string(seat)
        a = rng.choice(seeded.legal_actions())
        seeded.apply_action(a)
        c = own.clone()  # the copy draws from its own copy of the generator
        assert isinstance(c.rng, _OwnRandom) and c.rng is not own.rng
        own.apply_action(a)
    with pytest.raises(academie.ApiError):
        own.to_record()
