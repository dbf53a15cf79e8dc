"""The betting round and the showdown (``kind: betting``, ``kind: showdown``), proven on Kuhn
poker (tests/concepts/betting.yaml), whose legal sequences and payoffs are known exactly, and on
Leduc poker (tests/concepts/betting_rounds.yaml: two rounds, a public card, raises capped)."""

from itertools import permutations
from pathlib import Path

import pytest

from academie.dsl.cards import parse_card
from academie.dsl.model import load_game
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"
KUHN = ["JS", "QS", "KS"]
# each terminal history of Kuhn poker and what the first player wins: +-1 for a showdown after
# two checks, +-2 after a bet called, and the ante for the one who did not fold
HISTORIES = {
    ("check", "check"): 1,
    ("check", "bet", "fold"): None,  # the first player folds: -1
    ("check", "bet", "call"): 2,
    ("bet", "fold"): None,  # the second player folds: +1
    ("bet", "call"): 2,
}
FOLDS = {("check", "bet", "fold"): -1, ("bet", "fold"): 1}


def kuhn():
    return load_game(str(CONCEPTS / "betting.yaml"), ())


def histories(st, prefix=()):
    """Every terminal history from ``st`` (a copy per branch), with the state it ends in."""
    if st.is_terminal():
        yield prefix, st
        return
    for m in st.legal_moves():
        c = st.copy()
        c.apply(m)
        yield from histories(c, prefix + (m,))


@pytest.mark.parametrize("cards", list(permutations(KUHN, 2)))
def test_kuhn_legal_sequences_and_payoffs(cards):
    g = kuhn()
    st = State(g, 2, 0, deal={"hands": [[cards[0]], [cards[1]]]})
    assert st.current_player() == 0 and st.legal_moves() == ["check", "bet"]
    seen = {}
    for h, end in histories(st):
        seen[h] = end.bal[0]["chip"]
        assert end.bal[0]["chip"] + end.bal[1]["chip"] == 0 and end.bal["pot"]["chip"] == 0
    assert set(seen) == set(HISTORIES)  # exactly the five terminal histories
    sign = 1 if KUHN.index(cards[0]) > KUHN.index(cards[1]) else -1
    for h, stake in HISTORIES.items():
        want = FOLDS[h] if stake is None else sign * stake
        assert seen[h] == want, (cards, h)


def test_kuhn_moves_at_each_node():
    st = State(kuhn(), 2, 0, deal={"hands": [["QS"], ["KS"]]})
    st.apply("check")
    assert (st.current_player(), st.legal_moves()) == (1, ["check", "bet"])
    st.apply("bet")
    assert (st.current_player(), st.legal_moves()) == (0, ["fold", "call"])  # no raise: Kuhn has none


def test_a_folded_hand_is_never_shown_and_the_survivor_shows_nothing():
    st = State(kuhn(), 2, 0, deal={"hands": [["KS"], ["JS"]]})
    st.apply("bet")
    st.apply("fold")
    assert st.is_terminal()
    assert not [e for e in st.events if e["type"] == "show"]
    assert st.winner == 0 and st.bal[0]["chip"] == 1


def test_a_showdown_shows_the_hands_still_in():
    st = State(kuhn(), 2, 0, deal={"hands": [["QS"], ["KS"]]})
    st.apply("check")
    st.apply("check")
    shows = [(e["seat"], e["cards"]) for e in st.events if e["type"] == "show"]
    assert shows == [(0, ["QS"]), (1, ["KS"])]
    assert st.winner == 1


def test_kuhn_through_the_api_has_stable_action_ids_and_hides_the_other_card():
    import academie

    s = academie.load_game(str(CONCEPTS / "betting.yaml")).new_state(2, seed=3)
    assert s.legal_moves() == ["check", "bet"]
    ids = s.legal_actions()
    assert len(set(ids)) == 2
    obs = s.observation(1)
    other = s.observation(0)["hand"]
    assert not set(other) & {c for e in obs.get("events", []) for c in e.get("cards", [])}


# -- Poker as The Nuttall Encyclopædia gives it (rules/poker/nuttall.yaml) ----------------------
NUTTALL_DEAL = {
    # seat 1 is eldest (the dealer is seat 0): a straight; seat 2: two pairs; seat 0: triplets
    "hands": [["7S", "7H", "7D", "KC", "AS"], ["8S", "9H", "10D", "JC", "QS"], ["AH", "AD", "KS", "KH", "9C"]],
    "stock": ["8H", "8D", "8C", "9S", "9D", "10S", "10H", "10C", "JS", "JH", "JD", "QH", "QD", "QC", "KD", "AC", "7C"],
}


def nuttall():
    return State(load_game("poker/nuttall", ()), 3, 0, dealer=0, deal=NUTTALL_DEAL, hands=1)


def stand_pat(st):
    while st.decision_kind() == "choose":
        st.apply("pass")


def test_nuttall_the_eldest_antes_and_the_second_player_throws_up_sees_or_goes_better():
    st = nuttall()
    assert st.bal["pool"]["chip"] == 1 and st.bal[1]["chip"] == -1  # "the eldest hand deposits a stake called ante"
    stand_pat(st)
    assert st.current_player() == 2 and st.legal_moves() == ["throw-up", "see", "go-better"]


def test_nuttall_the_best_class_takes_the_pool_at_the_showdown():
    st = nuttall()
    stand_pat(st)
    st.apply("see")  # seat 2 fills the ante
    st.apply("go-better")  # seat 0 sees and goes one better
    st.apply("see")  # seat 1, the eldest
    st.apply("see")  # seat 2
    assert st.is_terminal()
    shows = [e["seat"] for e in st.events if e["type"] == "show"]
    assert shows == [0, 1, 2]  # the player on the left of the caller (seat 2) shows first
    assert st.winner == 1 and st.bal[1]["chip"] == 4  # the straight beats triplets and two pairs


def test_nuttall_one_left_in_takes_the_pool_unseen():
    st = nuttall()
    stand_pat(st)
    st.apply("throw-up")
    st.apply("throw-up")
    assert st.is_terminal() and st.winner == 1
    assert not [e for e in st.events if e["type"] == "show"]


# -- Leduc poker: two rounds, a public card, raises capped (tests/concepts/betting_rounds.yaml) --
ROUND = {  # each round's sequences with a bet and a raise at most: which end the hand by a fold
    ("check", "check"): False,
    ("check", "bet", "call"): False,
    ("check", "bet", "fold"): True,
    ("check", "bet", "raise", "call"): False,
    ("check", "bet", "raise", "fold"): True,
    ("bet", "call"): False,
    ("bet", "fold"): True,
    ("bet", "raise", "call"): False,
    ("bet", "raise", "fold"): True,
}


def leduc(hands, public):
    g = load_game(str(CONCEPTS / "betting_rounds.yaml"), ())
    rest = [c for c in ["JS", "JH", "QS", "QH", "KS", "KH"] if c not in hands[0] + hands[1] + [public]]
    deck = [parse_card(c) for c in [hands[0][0], hands[1][0], public, *rest]]  # top card first
    return State(g, 2, 0, deck=deck)


def test_leduc_has_every_sequence_of_two_capped_rounds_and_no_other():
    st = leduc([["KS"], ["QH"]], "QS")
    got = {h for h, _ in histories(st)}
    want = {a for a, folds in ROUND.items() if folds} | {
        a + b for a, folds in ROUND.items() if not folds for b in ROUND
    }
    assert got == want and len(got) == 4 + 5 * 9


def test_leduc_payoffs_a_pair_with_the_public_card_beats_a_king_and_equal_hands_share():
    st = leduc([["KS"], ["QH"]], "QS")  # seat 1 pairs the public queen
    for m in ["bet", "call", "bet", "raise", "call"]:
        st.apply(m)
    assert st.is_terminal() and st.bal[1]["chip"] == 1 + 2 + 8  # ante, first round, second round
    st = leduc([["KS"], ["KH"]], "QS")
    for m in ["check", "check", "check", "check"]:
        st.apply(m)
    assert st.bal[0]["chip"] == st.bal[1]["chip"] == 0  # equal hands share the pot


def test_leduc_a_fold_in_the_first_round_ends_the_hand_and_turns_no_card():
    st = leduc([["JS"], ["KH"]], "QS")
    st.apply("bet")
    st.apply("raise")
    assert st.legal_moves() == ["fold", "call"]  # the cap: a bet and a raise
    st.apply("fold")
    assert st.is_terminal() and st.bal[1]["chip"] == 3
    assert not [e for e in st.events if e["type"] in ("turnup", "show")]


def test_nuttall_ante_not_good_a_player_comes_in_only_by_staking_double_the_ante():
    st = State(load_game("poker/nuttall", ("ante-not-good",)), 3, 0, dealer=0, deal=NUTTALL_DEAL, hands=1)
    stand_pat(st)
    assert st.current_player() == 2 and st.legal_moves() == ["throw-up", "stake-double"]  # no filling
    st.apply("stake-double")
    assert st.bal[2]["chip"] == -2
    st.apply("see")  # seat 0
    assert st.current_player() == 1 and st.legal_moves() == ["throw-up", "see", "go-better"]  # his ante is no stake
    st.apply("see")
    assert st.is_terminal() and st.winner == 1 and st.bal[1]["chip"] == 4  # 1 + 2 + 2 + 2 in the pool, 3 his


def _hands_of_log(events):
    """Each hand of a full event log: its events, and each seat's cards at its end (dealt, less
    what it gave away, with what it took)."""
    out, cur, held = [], None, None
    for ev in events:
        t = ev["type"]
        if t == "hand_start":
            cur, held = [], None
            out.append((cur, []))
        if cur is None:
            continue
        cur.append(ev)
        if t == "deal":
            held = [set(h) for h in ev["hands"]]
        elif t == "deliver" and held is not None:
            held[ev["seat"]] -= set(ev["cards"])
        elif t == "take" and held is not None and ev.get("to") == "hand":
            held[ev["seat"]] |= set(ev["cards"])
        if t == "hand_end":
            out[-1] = (cur, [set(h) for h in held])
    return out


@pytest.mark.parametrize("seed", range(12))
def test_a_folded_hand_is_in_no_observation_of_another_seat(seed):
    """Through the API, over seeded games of Poker played at random: what each seat may see of
    every hand played (``earlier_hands``) never holds a card of another seat that threw up its hand,
    except the cards it saw itself (those it gave away, those it drew are its own)."""
    import json
    import random

    import academie

    s = academie.load_game("poker/nuttall").new_state(3, seed=seed, keep_events=True)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_moves()))
    hands = _hands_of_log(s.engine.events)
    checked = 0
    for seat in range(3):
        obs = s.observation(seat)
        past = [*obs["earlier_hands"], obs["events"]]  # the hands before, and the last
        assert len(past) == len(hands)
        for k, (evs, held) in enumerate(hands):
            folded = {e["seat"] for e in evs if e["type"] == "bet" and e["move"] == "throw-up"}
            shown = {c for e in evs if e["type"] == "show" for c in e["cards"]}
            mine = held[seat] | {c for e in evs if e.get("seat") == seat for c in e.get("cards", [])}
            secret = {c for o in folded if o != seat for c in held[o]} - mine - shown
            text = json.dumps(past[k])
            assert not [c for c in secret if f'"{c}"' in text], (seed, seat, k)
            checked += len(secret)
    assert checked or not any(e["type"] == "bet" and e["move"] == "throw-up" for e in s.engine.events)


def test_a_bet_of_nothing_is_a_located_error(tmp_path):
    from academie.dsl.errors import RuleError

    text = (CONCEPTS / "betting.yaml").read_text(encoding="utf-8").replace("    bet: 1\n", "    bet: 0\n")
    f = tmp_path / "zero.yaml"
    f.write_text(text, encoding="utf-8")
    st = State(load_game(str(f), ()), 2, 0, deal={"hands": [["KS"], ["JS"]]})
    with pytest.raises(RuleError, match="at least 1") as e:
        st.apply("bet")
    assert "zero.yaml" in str(e.value)
