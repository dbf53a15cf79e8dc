"""Table stakes and side pots (``stack:`` and ``total:`` of ``kind: betting`` / ``kind: showdown``),
proven on tests/concepts/side_pots.yaml: three players with stacks of 5, 10 and 20 chips, blinds of
1 and 2, two rounds of no-limit betting, one card each. Its hands are played move for move against
OpenSpiel's ``universal_poker`` (the same game: the same deals, the same moves offered at every
node, the same actions, the same returns),
and hand-worked deals check each part alone."""

import random
import re
from itertools import permutations
from pathlib import Path

import pytest

from academie.dsl.model import load_game
from academie.narrate import narrate
from academie.interpreter.state import State

CONCEPT = Path(__file__).parent / "concepts" / "side_pots.yaml"
STACKS = (5, 10, 20)
CARDS = ["2C", "2D", "3C", "3D", "4C", "4D"]  # universal_poker's card ids 0..5 (rank major, suits c, d)


def game():
    return load_game(str(CONCEPT), ())


def play(hands, moves):
    st = State(game(), 3, 0, deal={"hands": [[c] for c in hands]})
    for m in moves:
        assert m in st.legal_moves(), (m, st.legal_moves())
        st.apply(m)
    return st


def returns(st):
    return [st.bal[s]["chip"] - STACKS[s] for s in range(3)]


def test_an_all_in_call_for_less_wins_only_what_it_matched():
    # the dealer (20) goes all in for 20, the first blind (5) and the second (10) call all in for less;
    # the first blind has the best card: it wins the main pot of 15, the second blind (next best)
    # the side pot of 10, the dealer's 10 no one matched comes back to it
    st = play(["4C", "3C", "2C"], ["raise", 18, "call", "call"])
    assert st.is_terminal()
    assert [st.pvars["put"][s] for s in range(3)] == [5, 10, 20]
    all_in = [e for e in st.events if e["type"] == "bet" and e.get("all_in")]
    assert [e["seat"] for e in all_in] == [2, 0, 1]
    assert narrate(all_in[1]).clause == "seat 0: call (4 staked, 5 in all) and is all in"
    assert returns(st) == [10, 0, -10]
    pays = [(e["to"], e["amount"]) for e in st.events if e["type"] == "pay" and e["from"] == "pot"]
    assert pays == [(0, 15), (1, 10), (2, 10)]


def test_a_seat_all_in_acts_no_more_and_a_round_with_one_seat_to_act_is_not_played():
    st = play(["2C", "3C", "4C"], ["raise", 3])  # the dealer raises to 5
    assert st.current_player() == 0 and st.legal_moves() == ["fold", "call"]  # 4 left: no raise over 5
    st.apply("call")  # all in for 4 more: 5 in all
    assert st.bal[0]["chip"] == 0 and st.current_player() == 1
    st.apply("call")
    # the second round: the first blind is all in, the other two still bet
    assert st.current_player() == 1 and st.legal_moves() == ["check", "bet"]
    st.apply("bet")
    assert st.legal_moves() == [2, 3, 4, 5]  # at least the big blind, at most what it has left
    st.apply(5)  # all in
    assert st.current_player() == 2 and st.legal_moves() == ["fold", "call"]  # no one left to answer a raise
    st.apply("call")
    assert st.is_terminal()
    assert returns(st) == [-5, -10, 15]


def test_a_short_call_and_the_uncalled_rest_come_back_at_the_showdown():
    # the dealer raises to 20, the first blind folds, the second calls all in for 10: the dealer's
    # 10 unmatched comes back to it whatever the cards
    st = play(["4C", "4D", "2C"], ["raise", 18, "fold", "call"])
    assert returns(st) == [-1, 11, -10]
    assert [e["seat"] for e in st.events if e["type"] == "show"] == [1, 2]  # the folded hand is never shown
    st = play(["4C", "2D", "4D"], ["raise", 18, "fold", "call"])
    assert returns(st) == [-1, -10, 11]


def test_equal_hands_share_each_pot_they_are_in():
    # the first blind (5) and the dealer hold the fours: they share the main pot of 15 (the odd chip
    # to the first from the dealer's next); the side pot of 10 between the second blind and the
    # dealer goes to the dealer; its unmatched 10 comes back
    st = play(["4C", "3C", "4D"], ["raise", 18, "call", "call"])
    assert returns(st) == [3, -10, 7]


def test_without_a_stack_a_seat_may_stake_beyond_what_it_has(tmp_path):
    # the concept file with stack: and total: taken away: the first blind calls the full 20 (a debt),
    # and the pot is one
    text = CONCEPT.read_text()
    text = re.sub(r"\n    (stack|total): [^\n]*", "", text)
    (tmp_path / "plain.yaml").write_text(text)
    st = State(load_game(str(tmp_path / "plain.yaml"), ()), 3, 0, deal={"hands": [["4C"], ["3C"], ["2C"]]})
    for m in ["raise", 18, "call", "call", "check", "check", "check"]:
        st.apply(m)
    assert st.is_terminal() and st.bal[0]["chip"] == 5 - 20 + 60


pyspiel = None


def _universal():
    global pyspiel
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game(
        "universal_poker",
        {
            "betting": "nolimit",
            "numPlayers": 3,
            "numRounds": 2,
            "blind": "1 2 0",
            "firstPlayer": "3 1",
            "numSuits": 2,
            "numRanks": 3,
            "numHoleCards": 1,
            "numBoardCards": "0 0",
            "stack": " ".join(map(str, STACKS)),
            "bettingAbstraction": "fullgame",
        },
    )


def _as_universal(st, seat, to_call):
    """The moves ``seat`` may make, named as universal_poker names them: Fold, Call (a check too)
    and BetN for a bet or raise that brings all it has put in to N."""
    names = set()
    for m in st.legal_moves():
        if m == "fold":
            names.add("Fold")
        elif m in ("call", "check"):
            names.add("Call")
        else:
            c = st.copy()
            c.apply(m)
            for extra in c.legal_moves():
                names.add(f"Bet{st.pvars['put'][seat] + to_call + extra}")
    return names


@pytest.mark.parametrize("deal", list(permutations(range(6), 3)))
def test_the_same_as_universal_poker(deal):
    up = _universal()
    rng = random.Random(hash(deal) & 0xFFFF)
    for _ in range(6):
        ref = up.new_initial_state()
        for c in deal:
            ref.apply_action(c)
        st = State(game(), 3, 0, deal={"hands": [[CARDS[c]] for c in deal]})
        while not ref.is_terminal():
            assert not st.is_terminal()
            seat = ref.current_player()
            assert st.current_player() == seat
            legal = {ref.action_to_string(a).split("move=")[1]: a for a in ref.legal_actions()}
            ours = st.legal_moves()
            to_call = (
                max(st.pvars["staked"][s] for s in range(3) if not st.pvars["folded"][s]) - st.pvars["staked"][seat]
            )
            theirs = set(legal)
            if to_call == 0:
                theirs.discard("Fold")  # universal_poker lets a seat fold for nothing; a check is offered here
            assert _as_universal(st, seat, to_call) == theirs, (deal, st.events[-3:], ours, sorted(legal))
            name = rng.choice(sorted(legal))
            ref.apply_action(legal[name])
            if name == "Fold":
                if "fold" not in ours:
                    break  # a fold for nothing (not offered here): the hand goes another way
                st.apply("fold")
            elif name == "Call":
                st.apply("call" if "call" in ours else "check")
            else:
                to = int(re.fullmatch(r"Bet(\d+)", name).group(1))  # the total it raises to
                extra = to - st.pvars["put"][seat] - to_call
                st.apply("raise" if "raise" in ours else "bet")
                st.apply(extra)
        else:
            assert st.is_terminal()
            want = ref.returns()
            got = returns(st)
            assert sum(got) == 0
            # equal hands: universal_poker splits a pot into fractions, the rule gives the odd chip
            # to the first from the dealer's next
            assert all(abs(g - w) < 1 for g, w in zip(got, want)), (deal, got, want)
            if all(w == int(w) for w in want):
                assert got == [int(w) for w in want], (deal, got, want)


@pytest.mark.parametrize(
    "old, new, says",
    [
        ("    total: put\n    stack", "    total: nothing\n    stack", "'nothing' is not a counter kept per seat"),
        ("    total: put\n    stack", "    total: staked\n    stack", "'staked' is already the step's stake"),
        ("    raised: raised\n", "    raised: put\n", "'put' is not a counter of the game"),
        ('stack: "balance(seat, chip)"', "stack: nowhere(seat)", "nowhere"),
    ],
)
def test_a_wrong_stack_total_or_raised_is_a_located_error(tmp_path, old, new, says):
    from academie.dsl.errors import RuleError

    text = CONCEPT.read_text()
    assert old in text
    (tmp_path / "bad.yaml").write_text(text.replace(old, new, 1))
    with pytest.raises(RuleError) as err:
        load_game(str(tmp_path / "bad.yaml"), ())
    assert says in str(err.value) and "bad.yaml:" in str(err.value)
