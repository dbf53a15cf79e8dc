"""What the sequence step and the payments from each seat work out once and
keep: each kept thing is right when what it was made from changes between two turns (a
hand given a card by an effect), and is made only for the rule shapes it holds for."""

import pytest

from academie.dsl.model import load_game
from academie.dsl.reads import reads_seat
from academie.interpreter import compiled
from academie.interpreter.effects import ANTE, ONE_PAYEE, PER_SEAT, _pay_shape
from academie.interpreter.fastpath import reads_last_card_only
from academie.interpreter.simulate import play_one
from academie.interpreter.state import State

RUNS = """\
title: "runs by rank, a card given between two turns"
players: {{min: 2, max: 2, editorial: {{reason: two players, evidence: a test}}}}
pack:
  suits: [S, H]
  ranks: [A, 2, 3, 4, 5, 6]
  editorial: {{reason: twelve cards, evidence: a test}}
orders:
  sequence: {{ranks: [6, 5, 4, 3, 2, A], editorial: {{reason: "six high, ace low", evidence: a test}}}}
zones:
  talon: {{editorial: {{reason: the cards left out, evidence: a test}}}}
money:
  currencies:
    pip: {{editorial: {{reason: a unit, evidence: a test}}}}
  start:
    - give: {{to: each, amount: 10, unit: pip}}
      editorial: {{reason: ten each, evidence: a test}}
hand:
  deal: {{kind: deal, hand: 4, rest: talon, rest_count: {{2: 4}}, editorial: {{reason: four each, evidence: a test}}}}
  play:
    kind: sequence
    leader: dealer + 1
    order: sequence
    by_rank: true
    stops: card == 6S
    unheld: pass
    editorial: {{reason: runs by rank; the six of spades stops, evidence: a test}}
    obtain:
      - {{zone: hand, editorial: {{reason: from his own hand only, evidence: a test}}}}
    on_play:
      - take: {{from: talon, to: hand, cards: card.rank == 2, count: 1}}
        at: seat + 1
        when: {when}
        editorial: {{reason: a card of the talon given to the next player, evidence: a test}}
      - pay: {{from: each, to: mover, except: mover, amount: 1, unit: pip}}
        when: {when}
        editorial: {{reason: a pip from each other player, evidence: a test}}
    end:
      - {{when: count(hand(seat)) == 0, after: play, winner: seat, editorial: {{reason: first out wins, evidence: a test}}}}
"""


def runs(tmp_path, when):
    path = tmp_path / "runs.yaml"
    path.write_text(RUNS.format(when=when))
    return load_game(str(path))


def played(tmp_path, when):
    """The events of the first hand: seat 1 begins with the ace of spades, seat 0 holds no two."""
    g = runs(tmp_path, when)
    events: list[dict] = []
    hands = [["3H", "4H", "5H", "6H"], ["AS", "3S", "4S", "5S"]]
    st = State(g, 2, 0, dealer=0, deal={"hands": hands, "talon": ["6S", "AH", "2H", "2S"]}, sink=events.append)
    st.apply(next(m for m in st.legal_moves() if str(m) == "AS"))
    return g, st, [(e["type"], e.get("seat"), e.get("card") or e.get("cards")) for e in events if e["type"] != "pay"]


@pytest.mark.parametrize("when", ["last_card.rank == A", "last_card.rank == A and count(hand(seat)) >= 0"])
def test_a_card_given_between_two_turns_is_played(tmp_path, when):
    """The next player holds no two until the ace's effect gives him one: his options are
    those of his hand as it is at his turn, and he plays it (his only card of the rank)."""
    _, st, ev = played(tmp_path, when)
    i = ev.index(("play", 1, "AS"))
    assert ev[i + 1 : i + 3] == [("take", 0, ["2H"]), ("play", 0, "2H")]
    assert st.bal[1]["pip"] == 11 and st.bal[0]["pip"] == 9  # the ace's pip, paid once


def test_effects_after_a_card_skipped_only_when_their_tests_read_the_card_alone(tmp_path):
    """The table of the cards whose play fires an effect is kept only when every test reads
    ``last_card`` alone; a test that reads the hand is evaluated at each play."""
    for when, kept in (("last_card.rank == A", True), ("last_card.rank == A and count(hand(seat)) >= 0", False)):
        g, st, _ = played(tmp_path, when)
        plan = compiled.for_game(g).sequences[(id(g.steps[-1]), 2)]
        assert (plan[-1] is not None) is kept
        if kept:
            assert plan[-1] == {c: c.rank == "A" for c in plan[-1]}  # filled as cards were played
        assert reads_last_card_only(g.steps[-1].on_play[0].when, g) is kept


def test_payment_shapes(tmp_path):
    """A payee and an amount are read once only when they read neither the paying seat nor
    money; an ante is a set amount to a money zone."""
    g = load_game("hoc/encyclopedie")
    on_play = next(st for st in g.steps if st.kind == "sequence").on_play[0].args["payment"]
    assert _pay_shape(on_play, g) == ONE_PAYEE  # to: mover, except: mover, amount: 1
    ante = next(st for st in g.steps if st.kind == "effects").effects[0].args["payment"]
    assert _pay_shape(ante, g) == ANTE
    won = next(st for st in g.steps if st.name == "sequence_won").effects[0].args["payment"]
    # to and except: top_seat(sq(seat)), amount: nseq(top_seat(sq(seat))): seat rebound, counters only: read once
    assert _pay_shape(won, g) == ONE_PAYEE
    assert not reads_seat("nseq(top_seat(sq(seat)))") and not reads_seat("max_seats(sq(seat)) > 0")
    assert reads_seat("sq(seat) + 1") and reads_seat("team_sum(sq(seat))")  # the side of the seat in hand


def test_a_payee_read_for_each_seat(tmp_path):
    """``to: seat + 1``: each seat pays the next one, its payee read for it."""
    path = tmp_path / "ring.yaml"
    text = RUNS.format(when="last_card.rank == A").replace("to: mover, except: mover", "to: seat + 1")
    path.write_text(text)
    g = load_game(str(path))
    st = State(g, 2, 0, dealer=0, deal={"hands": [["3H", "4H", "5H", "6H"], ["AS", "3S", "4S", "5S"]]})
    st.apply(next(m for m in st.legal_moves() if str(m) == "AS"))
    assert st.bal[0]["pip"] == 10 and st.bal[1]["pip"] == 10  # each paid the other one pip
    pay = g.steps[-1].on_play[1].args["payment"]
    assert _pay_shape(pay, g) == PER_SEAT


@pytest.mark.parametrize("rules", ["runs", "hoc/encyclopedie"])
def test_the_plainest_shape_plays_in_its_own_loop_the_same_games(tmp_path, rules, monkeypatch):
    """Runs by rank from the player's own hand, passing, the one end test of an empty hand, the
    agents drawing uniformly and no events kept: a loop of its own plays it, and the same seeds
    give the same games as the general loop asking the agents (also when an effect after a card
    gives the next player a card between two turns)."""
    if rules == "runs":  # every two of the talon given (none left is no error, as a count of one would be)
        path = tmp_path / "runs.yaml"
        path.write_text(RUNS.format(when="last_card.rank == A").replace(", count: 1", ""))
        g = load_game(str(path))
    else:
        g = load_game(rules)
    used = []
    real = State._sequence_drawn

    def counting(self, *a):
        used.append(1)
        return real(self, *a)

    monkeypatch.setattr(State, "_sequence_drawn", counting)

    def outcome(seed, n):
        st = play_one(g, n, seed, ["random"], 50_000)
        return st.standings, st.hand_results, st.stats, st.bal, [[c.name for c in h] for h in st.hand]

    for n in sorted({g.min_players, g.max_players}):
        for seed in range(12):
            monkeypatch.setattr(State, "_draw_inline", True)
            own = outcome(f"plain/{seed}", n)
            monkeypatch.setattr(State, "_draw_inline", False)
            general = outcome(f"plain/{seed}", n)
            assert own == general, (rules, n, seed)
    assert used  # the loop of its own ran
