"""Decisions say what they ask: a yes or no asked as the game's question with its answers in
words (Euchre's order-up, Écarté's proposal), a choice of cards with how many and where they go,
the answer narrated in its words, and why naming the rule that asks."""

import re

from click.testing import CliRunner

import academie
from academie.asking import question
from academie.cli import main


def _play(args: list[str], stdin: str) -> str:
    r = CliRunner().invoke(main, ["play", *args], input=stdin, catch_exceptions=False)
    return r.stdout


def test_euchres_order_up_is_asked_as_a_question_and_answered_in_words():
    out = _play(["euchre/cassell", "--agents", "random,human", "-s", "3"], "why\norder it up\n")
    first = out[out.index("— your move") :]
    assert "Order it up?" in first
    assert re.search(r"answers: +\[1\] pass +\[2\] order it up", first), first[:600]
    # why: the rule that asks, quoted from its source
    assert "he can order it up" in first[: first.index("your move: ") + 2000]
    # the answer, given in its words, is taken and narrated in them
    assert "seat 1 (you) answers: order it up" in out
    assert "chooses 1" not in out


def test_a_proposal_at_ecarte_is_asked_with_its_words():
    state = academie.load_game("ecarte/hoyle").new_state(players=2, seed=1)
    asked = question(state.engine)
    assert asked is not None and asked["text"] == "Propose?"
    assert asked["answers"] == {"0": "play", "1": "propose"}


def test_a_choice_of_cards_says_how_many_where_they_go_and_which_are_chosen():
    state = academie.load_game("ecarte/hoyle").new_state(players=2, seed=1)
    while state.decision_kind() == "number":
        state.apply("1")  # propose, accept
    asked = question(state.engine)
    assert asked["kind"] == "choose"
    # the proposer throws out one card at least ("the throwing out of one or more useless cards")
    assert "choose 1 to 5 cards to go to the discards" in asked["text"], asked["text"]
    card = next(m for m in state.legal_moves() if m != "pass")
    state.apply(card)
    asked = question(state.engine)
    assert asked["chosen"] == [card.name] and "chosen so far" in asked["text"]
    assert asked["answers"]["pass"] == "done: no more cards"


def test_no_question_shows_a_bare_number_for_a_yes_or_no_in_any_corpus_game():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "rules"
    for path in sorted(root.glob("*/*.yaml")):
        ref = f"{path.parent.name}/{path.stem}"
        game = academie.load_game(ref)
        state = game.new_state(players=game.gamedef.min_players, seed=2)
        for _ in range(60):
            if state.is_terminal():
                break
            asked = question(state.engine)
            if asked is not None and asked["kind"] == "number" and set(asked["answers"]) <= {"0", "1"}:
                assert set(asked["answers"].values()).isdisjoint({"0", "1"}), (ref, asked)
                assert not re.search(r"\bNone\b", asked["text"])
            state.apply(state.legal_moves()[0])
