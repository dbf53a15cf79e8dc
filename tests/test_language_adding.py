"""Play to a running total (``kind: adding``, tests/concepts/adding.yaml): the card test that
keeps the total within its limit, the go, the stop that scores the last to add and starts a new
count led by the seat after him, scores for the last cards (``tail_of``), the cards given back,
the game ended the moment a seat reaches its target, and the show."""

import textwrap
from pathlib import Path

from academie.dsl.model import load_game
from academie.interpreter.state import State

CONCEPT = Path(__file__).parent / "concepts" / "adding.yaml"
DEAL = {"hands": [["5S", "4S", "3S", "2S", "AS"], ["5H", "4H", "3H", "2H", "AH"]]}


def names(cards):
    return sorted(c.name if hasattr(c, "name") else c for c in cards)


def game(tmp_path=None, target=None):
    if target is None:
        return load_game(str(CONCEPT))
    (tmp_path / "adding.yaml").write_text(CONCEPT.read_text())
    path = tmp_path / "target.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            title: a target
            extends: adding.yaml
            vars:
              target: {{initial: {target}, shown: public, editorial: {{reason: a target, evidence: a test}}}}
            """
        )
    )
    return load_game(str(path))


def test_a_card_is_offered_only_while_the_total_stays_within_the_limit_and_a_seat_that_can_add_none_says_go():
    st = State(game(), 2, 0, dealer=0, deal=DEAL, keep_events=True)
    assert st.current_player() == 1  # the dealer's next adds first
    st.apply("5H")
    assert names(st.legal_moves()) == names(DEAL["hands"][0])  # 5 + 5 is 10: every card comes in
    st.apply("5S")  # 10: a pair (2) and ten exactly (2)
    assert st.pvars["points"] == [5, 0]  # and, neither able to add, the last card's 1
    goes = [e["seat"] for e in st.events if e["type"] == "go"]
    assert goes == [1, 0]
    assert st.vars["stops"] == 1
    # a new count: the table set aside, the seat after the last to add leading
    assert names(st.zones["played"]) == ["5H", "5S"] and st.zones["trick"] == []
    assert st.current_player() == 1


def test_a_run_made_by_the_last_cards_in_any_order_scores_a_card_each():
    st = State(game(), 2, 0, dealer=0, deal=DEAL, keep_events=True)
    for c in ["5H", "5S"]:
        st.apply(c)
    st.apply("2H")
    st.apply("3S")
    st.apply("4H")  # 2 3 4: a run of three
    assert st.pvars["points"] == [5, 3]
    assert names(st.legal_moves()) == ["AS"]  # 9: only the ace comes in
    st.apply("AS")  # 2 3 4 A: the last four run A-4 (4) and make ten (2); none can add: the last card (1)
    assert st.pvars["points"] == [12, 3]
    assert st.vars["stops"] == 2


def test_the_cards_go_back_to_their_players_and_the_show_shows_them():
    st = State(game(), 2, 0, dealer=0, deal=DEAL, keep_events=True)
    while not st.finished:
        st.apply(st.legal_moves()[0])
    assert names(st.hand[0]) == names(DEAL["hands"][0])
    assert names(st.hand[1]) == names(DEAL["hands"][1])
    shown = [e for e in st.events if e["type"] == "show"]
    assert shown and shown[0]["seat"] == 0 and sorted(shown[0]["cards"]) == names(DEAL["hands"][0])


def test_the_game_ends_the_moment_a_seat_reaches_its_target(tmp_path):
    st = State(game(tmp_path, 3), 2, 0, dealer=0, deal=DEAL, keep_events=True)
    st.apply("5H")
    st.apply("5S")  # 4 points: the target
    assert st.finished and st.winner == 0
    assert [e["card"] for e in st.events if e["type"] == "play"] == ["5H", "5S"]
    assert not any(e["type"] == "go" for e in st.events)


def test_three_seats_pass_round_the_table():
    deal = {"hands": [["5S", "4S", "3S"], ["5H", "4H", "3H"], ["2S", "2H", "AS"]]}
    st = State(game(), 3, 0, dealer=0, deal=deal, keep_events=True)
    st.apply("5H")  # seat 1
    st.apply("2S")  # seat 2: 7
    assert names(st.legal_moves()) == ["3S"]  # seat 0: only the three comes in (10)
    st.apply("3S")
    assert st.pvars["points"][0] == 2 + 1  # ten exactly, then the last card
    assert st.current_player() == 1
