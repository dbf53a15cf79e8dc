"""Engine behaviour users rely on, for every game of the corpus: the same seed
gives the same game, invariants hold, the play limit stops a game, and a human
can play at the terminal."""

import io
from pathlib import Path
import json
import random

import pytest

from academie.dsl.loader import corpus_ids, resolve
from academie.dsl.model import load_game
from academie.interpreter.agents import HumanAgent, make_agents, play
from academie.interpreter.state import InvariantError, State

PLAYABLE = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]


def log_of(game, n, seed, agents="random"):
    st = play(State(game, n, seed), make_agents([agents], n, seed))
    return "\n".join(json.dumps(e) for e in st.events), st


@pytest.mark.parametrize("cid", PLAYABLE)
def test_same_seed_same_game_at_every_player_count(cid):
    game = load_game(cid)
    for n in range(game.min_players, game.max_players + 1):
        a, st = log_of(game, n, 7)
        b, _ = log_of(game, n, 7)
        c, _ = log_of(game, n, 8)
        assert a == b, f"{cid} with {n} players is not deterministic"
        assert a != c
        assert not st.unfinished
        st.check_invariants()


@pytest.mark.parametrize("cid", PLAYABLE)
def test_every_option_plays(cid):
    doc = resolve(cid)
    for opt in doc.data.get("options") or {}:
        game = load_game(cid, [opt])
        _, st = log_of(game, game.min_players, 3)
        assert not st.unfinished and opt in game.options


@pytest.mark.parametrize("cid", PLAYABLE)
def test_hands_stay_in_canonical_order(cid):
    # the interpreter finds a suit's cards by bisection: every hand must stay sorted
    # through deals, plays, pick-ups, borrows and draws
    game = load_game(cid)
    for n in sorted({game.min_players, game.max_players}):
        st = State(game, n, 5, keep_events=False)
        agents = make_agents(["random"], n, 5)
        while not st.is_terminal():
            for h in st.hand:
                assert h == sorted(h, key=lambda c: c.canon), f"{cid}: a hand out of order: {h}"
            seat = st.current_player()
            st.apply(agents[seat].choose(st, seat, st.legal_moves()))


def test_play_limit_reports_unfinished_instead_of_hanging():
    game = load_game("enfle/academie")
    st = play(State(game, 4, 1, max_plays=30), make_agents(["random"], 4, 1))
    assert st.unfinished and st.plays == 31
    ends = [e for e in st.events if e["type"] in ("hand_end", "game_end")]
    assert ends[0]["reason"] == "unfinished" and ends[0]["winner"] is None
    assert ends[-1]["unfinished"] is True
    st.check_invariants()  # the cards and chips are all still accounted for


def test_a_card_lost_or_doubled_is_caught():
    game = load_game("enfle/academie")
    # a card lost: the next move finds the count wrong
    st = State(game, 4, 1)
    st.zones["stock"].pop()
    with pytest.raises(InvariantError, match="a card was lost or duplicated"):
        st.apply(st.legal_moves()[0])
    # a card doubled in place of another: the count holds, the end of the hand sees it
    st = State(game, 4, 1)
    stock = st.zones["stock"]
    stock[0] = stock[1]
    with pytest.raises(InvariantError, match="51 distinct"):
        st.run_with(make_agents(["random"], 4, 1))
    assert st.hand_no == 1
    # in a simulation (check="hand") the end of the game sees it
    st = State(game, 4, 1, keep_events=False, check="hand")
    stock = st.zones["stock"]
    stock[0] = stock[1]
    with pytest.raises(InvariantError, match="51 distinct"):
        st.run_with(make_agents(["random"], 4, 1))
    assert st.hand_no == 4


def test_money_made_from_nothing_is_caught():
    game = load_game("enfle/academie")
    st = State(game, 4, 1, keep_events=False, check="hand")
    st.bal[0]["chip"] += 1
    with pytest.raises(InvariantError, match="money not conserved"):
        st.run_with(make_agents(["random"], 4, 1))
    assert st.hand_no == 1


def test_the_shuffle_and_cut_draw_as_the_standard_library_does():
    """The shuffle step is random.shuffle's algorithm written out, and the cut
    random.randint's: the same generator gives the same order (so the pack is
    a uniform permutation, cut at a uniform place)."""
    game = load_game("enfle/academie")
    step = next(s for s in game.steps if s.kind == "shuffle")
    for seed in range(20):
        st = State(game, 4, seed)
        twin = random.Random()
        twin.setstate(st.rng.getstate())
        cards = list(st.pack_cards)
        st.zones["pack"][:] = cards
        st._step_shuffle(step)
        expected = list(cards)
        twin.shuffle(expected)
        at = twin.randint(step.min_cut, len(expected) - step.min_cut)
        assert st.zones["pack"] == expected[at:] + expected[:at]
        assert st.zones["pack"] != cards


def test_a_deal_of_no_cards_plays_out(tmp_path):
    # the language allows a hand of 0: everything goes to the rest; nobody can lead
    src = (Path(__file__).parent / "concepts" / "drawpile.yaml").read_text()
    src = src.replace("hand: {3: 5, 4: 4}", "hand: {3: 0, 4: 0}").replace(
        "rest_count: {3: 9, 4: 8}", "rest_count: {3: 24, 4: 24}"
    )
    f = tmp_path / "nodeal.yaml"
    f.write_text(src)
    game = load_game(str(f))
    st = play(State(game, 3, 1), make_agents(["random"], 3, 1))
    assert st.finished and st.plays == 0 and len(st.zones["stock"]) == 24
    assert [h["plays"] for h in st.hand_results] == [0, 0, 0]


def test_human_agent_shows_the_hand_and_takes_a_number_or_a_name():
    game = load_game("enfle/academie")
    # seat 1 leads first; the human answers nonsense, then a number, then names
    answers = io.StringIO("zz\n1\n" + "\n".join(["1"] * 400) + "\n")
    out = io.StringIO()
    agents = make_agents(["random"], 4, 0)
    agents[1] = HumanAgent(answers, out)
    st = play(State(game, 4, 0, dealer=0, hands=1), agents)
    text = out.getvalue()
    assert "your hand:" in text and "[1]" in text
    assert "'zz' is not one of the legal moves" in text
    first = next(e for e in st.events if e["type"] == "play")
    deal = next(e for e in st.events if e["type"] == "deal")
    assert first["seat"] == 1 and first["card"] == deal["hands"][1][0]  # [1] = the first legal move


def test_a_draw_for_dealer_that_can_never_decide_is_an_error_not_a_hang(tmp_path, run):
    text = (__import__("pathlib").Path(__file__).parent / "concepts" / "trumps.yaml").read_text()
    text = text.replace(
        "hand:\n", "dealer: {draw: {lowest: true, order: cut}, editorial: {reason: r, evidence: e}}\nhand:\n", 1
    )
    text = text.replace("orders:\n", "orders:\n  cut: {ranks: [2], editorial: {reason: r, evidence: e}}\n", 1)
    p = tmp_path / "undecided.yaml"
    p.write_text(text)
    code, out, err = run("play", p, "-p", 2)
    assert code == 2
    assert "undecided.yaml" in err and "the draw for dealer never decides" in err


def test_play_narrates_live_and_hides_the_others_hands_from_a_human(run):
    import click.testing
    from academie.cli import main

    answers = "\n".join(["1"] * 300) + "\n"
    r = click.testing.CliRunner().invoke(
        main,
        ["play", "enfle/academie", "-p", "4", "-s", "2", "--hands", "1", "--agents", "human,random,random,random"],
        input=answers,
    )
    assert r.exit_code == 0, r.output
    out = r.output
    deal = out[out.index("Deal:") : out.index("stock:")]
    assert "seat 1: 12 cards" in deal and "seat 0: 12 cards" not in deal  # his own hand, not the others'
    # the others' plays are shown before he is asked
    first_prompt = out.index("your move:")
    assert "seat 1 plays" in out[:first_prompt] and "seat 3 plays" in out[:first_prompt]


@pytest.mark.parametrize("cid", PLAYABLE)
def test_driving_by_apply_and_running_inline_give_the_same_game(cid):
    """The public interface (legal_moves/apply, one suspension per move) and
    run_with (agents asked inside the rules' loop) play the same game."""
    from academie.dsl.loader import resolve as _resolve

    options = list((_resolve(cid).data.get("options") or {}))[:1]
    game = load_game(cid, options)
    n = game.max_players
    a = State(game, n, 11)
    agents = make_agents(["random"], n, 11)
    while not a.is_terminal():
        seat = a.current_player()
        a.apply(agents[seat].choose(a, seat, a.legal_moves()))
    b = State(game, n, 11).run_with(make_agents(["random"], n, 11))
    assert a.events == b.events and not a.unfinished


def test_empty_hand_end_shape_is_recognised():
    """The end condition count(hand(seat)) == 0 is given a shape (the trick loop then
    tests the mover's hand itself)."""
    game = load_game("enfle/academie")
    ends = [r.when for st in game.steps for r in (getattr(st, "end", None) or [])]
    assert [e.shape for e in ends] == ["count(hand(seat)) == 0"]
