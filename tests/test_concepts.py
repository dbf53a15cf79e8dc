"""Each general concept of the language, proven on its own small rule file
(tests/concepts/), before the corpus relies on it."""

import json
from pathlib import Path

import pytest

import academie
from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.agents import FirstAgent, make_agents, play
from academie.interpreter.base import canon_key
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"


def game(name, *options):
    return load_game(str(CONCEPTS / f"{name}.yaml"), options)


def names(cards):
    return [c.name if hasattr(c, "name") else c for c in cards]


def first_agents_until_end(st):
    a = FirstAgent()
    while not st.is_terminal():
        st.apply(a.choose(st, st.current_player(), st.legal_moves()))
    return st


# -- trumps, a free card, a card that beats all but one ---------------------------
TRUMPS_DEAL = {
    "hands": [["9S", "QH", "10D", "QD"], ["KH", "AD", "10S", "JH"]],
    "turnup": ["9H"],
    "talon": ["JS", "QS", "KS", "AS", "10H", "AH", "9D", "JD", "KD"],
}


def test_turnup_fixes_trumps_and_a_free_card_may_always_be_played():
    st = State(game("trumps"), 2, 0, dealer=0, deal=TRUMPS_DEAL, hands=1)
    assert st.trump == "H"
    st.apply("KH")  # seat 1 leads a heart
    assert names(st.legal_moves()) == ["9S", "QH"]  # must follow hearts, or the free 9S
    st.apply("9S")
    trick = [e for e in st.events if e["type"] == "trick"][-1]
    assert trick == {"type": "trick", "winner": 0, "cards": ["KH", "9S"]}  # 9S beats even a trump


def test_a_card_beats_all_but_one():
    deal = {
        "hands": [["9S", "QH", "10D", "QD"], ["AD", "KH", "10S", "JH"]],
        "turnup": ["9H"],
        "talon": TRUMPS_DEAL["talon"],
    }
    st = State(game("trumps"), 2, 0, dealer=0, deal=deal, hands=1)
    st.apply("AD")
    assert names(st.legal_moves()) == ["9S", "10D", "QD"]
    st.apply("9S")  # the one card 9S does not beat is AD
    assert [e for e in st.events if e["type"] == "trick"][-1]["winner"] == 1


def test_trump_beats_the_suit_led_when_void():
    deal = {
        "hands": [["QH", "10D", "QD", "JS"], ["10S", "AD", "KH", "JH"]],
        "turnup": ["9H"],
        "talon": ["9S", "QS", "KS", "AS", "10H", "AH", "9D", "JD", "KD"],
    }
    st = State(game("trumps"), 2, 0, dealer=0, deal=deal, hands=1)
    st.apply("10S")
    assert names(st.legal_moves()) == ["JS"]  # he holds a spade: he must follow
    st.apply("JS")
    assert [e for e in st.events if e["type"] == "trick"][-1]["winner"] == 0
    st.apply("QH")  # seat 0 leads a trump
    st.apply("KH")
    assert [e for e in st.events if e["type"] == "trick"][-1]["winner"] == 1


# -- a renounce trigger that pays; counters; a game to a target ---------------------
def test_cannot_follow_trigger_pays_then_the_player_plays():
    deal = {
        "hands": [
            ["10H", "JH", "QH", "KH", "AH", "10D"],
            ["10S", "JS", "QS", "KS", "AS", "JD"],
            ["10C", "JC", "QC", "KC", "AC", "QD"],
        ]
    }
    st = State(game("penalty"), 3, 0, dealer=0, deal=deal, hands=1)
    st.apply("10S")  # seat 1 leads a spade; seat 2 has none
    ev = st.events[-3:]
    assert ev[0] == {"type": "play", "seat": 1, "card": "10S"}
    assert ev[1] == {"type": "renounce", "seat": 2, "led": "S", "rule": ["hand", "play", "cannot_follow"]}
    assert ev[2] == {
        "type": "pay",
        "from": 2,
        "to": "kitty",
        "amount": 1,
        "unit": "mark",
        "rule": ["hand", "play", "cannot_follow", 0, "pay"],
    }
    assert st.current_player() == 2  # ... and then he plays as usual
    assert names(st.legal_moves()) == ["QD", "10C", "JC", "QC", "KC", "AC"]


def test_counters_money_between_zones_and_a_game_to_a_target():
    g = game("penalty")
    st = play(State(g, 3, 5), make_agents(["random"], 3, 5))
    assert not st.unfinished and st.hand_no > 1
    assert max(st.pvars["score"]) >= 10  # the game ended when someone reached 10
    st.check_invariants()  # marks and bundles conserved
    total = sum(b["mark"] + 5 * b["bundle"] for b in st.bal.values())
    assert total == 3 * 3 * 5
    # the final settlement: each other seat paid the winner one bundle
    winner = max(range(3), key=lambda s: (st.pvars["score"][s], -((s - st.dealer - 1) % 3)))
    end_pays = [e for e in st.events if e["type"] == "pay" and e["unit"] == "bundle"]
    assert sorted(e["from"] for e in end_pays) == sorted(s for s in range(3) if s != winner)
    assert all(e["to"] == winner for e in end_pays)


# -- runs by rank, stop cards, passing ----------------------------------------------------
def test_a_run_by_rank_takes_either_suit_and_a_stop_card_ends_it_and_pays():
    deal = {"hands": [["AS", "3H", "6S", "5S"], ["2S", "2H", "4S", "6H"]], "talon": ["AH", "3S", "4H", "5H"]}
    st = State(game("stops"), 2, 0, dealer=1, deal=deal, hands=1)
    st.apply("AS")
    assert sorted(names(st.legal_moves())) == ["2H", "2S"]  # any two, whatever its suit
    st.apply("2H")
    assert sorted(names(st.legal_moves())) == ["3H", "6S"]  # the three, or the stop card for it
    st.apply("6S")
    pays = [(e["from"], e["to"], e["amount"]) for e in st.events if e["type"] == "pay"]
    assert pays == [(1, 0, 1)]  # the stop card is paid for by the other player
    assert st.current_player() == 0  # and its player begins the next run with any card
    assert sorted(names(st.legal_moves())) == ["3H", "5S"]


def test_when_nobody_can_play_the_next_rank_the_last_player_begins_again():
    # both threes lie in the talon: after the two, each player passes in turn
    deal = {"hands": [["2S", "2H", "4S", "5S"], ["AS", "4H", "5H", "6H"]], "talon": ["3S", "3H", "6S", "AH"]}
    st = State(game("stops"), 2, 0, dealer=1, deal=deal, hands=1)
    st.apply("2S")
    assert st.current_player() == 0
    assert sorted(names(st.legal_moves())) == ["2H", "4S", "5S"]  # a new run: any card of his hand
    assert [e["card"] for e in st.events if e["type"] == "play"] == ["2S"]  # nobody could follow


def test_without_passing_a_card_nowhere_to_be_had_is_an_error(tmp_path):
    f = tmp_path / "nopass.yaml"
    f.write_text((CONCEPTS / "stops.yaml").read_text().replace("    unheld: pass\n", ""))
    g = load_game(str(f))
    deal = {"hands": [["2S", "2H", "4S", "5S"], ["AS", "4H", "5H", "6H"]], "talon": ["3S", "3H", "6S", "AH"]}
    st = State(g, 2, 0, dealer=1, deal=deal, hands=1)
    with pytest.raises(RuleError, match="nowhere"):
        st.apply("2S")


# -- sequence play without wrapping -------------------------------------------------------
def test_runs_take_the_next_card_from_talon_before_a_neighbour():
    deal = {"hands": [["2S", "5S", "2H", "3H"], ["3S", "7S", "4H", "5H"]], "talon": ["4S", "6S", "6H", "7H"]}
    st = first_agents_until_end(State(game("runs"), 2, 0, dealer=0, deal=deal))
    plays = [(e["seat"], e["card"], e["from"]) for e in st.events if e["type"] == "play"]
    assert plays == [
        (1, "3S", "hand"),
        (0, "4S", "talon"),  # not in his hand: the talon before the other player
        (1, "5S", "borrow"),  # not in the talon: borrowed from seat 0
        (0, "6S", "talon"),
        (1, "7S", "hand"),  # the top of the suit: the run ends (no wrap)
        (0, "2S", "hand"),  # the next player begins a run; 3S-7S are played: it ends at once
        (1, "4H", "hand"),  # so the next player begins another
        (0, "5H", "borrow"),  # seat 1 lends his last card ...
    ]
    assert st.winner == 1  # ... and, his hand empty, wins
    pays = [(e["from"], e["to"], e["amount"]) for e in st.events if e["type"] == "pay"]
    assert pays == [(0, "pool", 2), (1, 0, 1), (0, "pool", 2), (0, 1, 1)]


# -- variants: extends, replace, delete, options ------------------------------------------
def test_variant_replaces_an_element_deletes_a_step_and_adds_one_by_option():
    assert [s.name for s in game("variant").steps] == ["deal", "play", "bonus"]
    assert [s.name for s in game("variant", "fines").steps] == ["deal", "fine", "play", "bonus"]
    st = State(game("variant"), 3, 1, dealer=0)
    assert st.current_player() == 2  # leader: dealer + 2, not the parent's dealer + 1


def test_options_change_the_game_and_conflicts_are_refused():
    short = play(State(game("variant", "short"), 3, 2), make_agents(["random"], 3, 2))
    long_ = play(State(game("variant", "long"), 3, 2), make_agents(["random"], 3, 2))
    assert max(short.pvars["score"]) >= 3 and short.hand_no < long_.hand_no
    with pytest.raises(RuleError, match="options 'short' and 'long' cannot be used together"):
        game("variant", "short", "long")


def test_seat_and_card_are_never_taken_for_constants():
    """A comparison with `seat` or `card` on the right reads them when it runs
    (they are not literals, though they are unset when the file is loaded)."""
    from academie.dsl.compiler import Scope, compile_expr
    from academie.dsl.errors import Pos
    from academie.dsl.cards import card as c

    class St:
        n, dealer = 4, 1

    assert compile_expr("dealer == seat", Pos("f", 1, 1), Scope(), "seat")(St, 1) is True
    assert compile_expr("dealer != seat", Pos("f", 1, 1), Scope(), "seat")(St, 2) is True
    assert compile_expr("AH == card", Pos("f", 1, 1), Scope(), "card")(St, 0, c("AH")) is True
    assert compile_expr("card.rank in [A, 10]", Pos("f", 1, 1), Scope(), "card")(St, 0, c("10S")) is True


# -- a renouncer takes a whole shared zone (not the trick) and leads -------------------
DRAW_DEAL = {
    "hands": [["9S", "10S", "JS", "QS", "KS"], ["9H", "10H", "JH", "QH", "KH"], ["9D", "10D", "JD", "QD", "KD"]],
    "stock": ["AS", "AH", "AD", "9C", "10C", "JC", "QC", "KC", "AC"],
}


def test_a_renouncer_takes_the_whole_stock_and_leads():
    st = State(game("drawpile"), 3, 0, dealer=0, deal=DRAW_DEAL, hands=1)
    assert st.current_player() == 1
    st.apply("9H")  # seat 2 holds no heart
    renounce, take, back = st.events[-3:]
    assert renounce == {"type": "renounce", "seat": 2, "led": "H", "rule": ["hand", "play", "cannot_follow"]}
    assert take["type"] == "take" and take["seat"] == 2 and take["to"] == "hand"
    assert sorted(take["cards"]) == sorted(DRAW_DEAL["stock"])
    assert back == {"type": "take", "seat": None, "cards": ["9H"], "to": "pack"}
    assert st.zones["stock"] == [] and names(st.zones["pack"]) == ["9H"]  # the broken trick
    assert st.current_player() == 2  # he leads, any card of his hand (in order)
    assert names(st.legal_moves()) == [
        "AS",
        "AH",
        "9D",
        "10D",
        "JD",
        "QD",
        "KD",
        "AD",
        "9C",
        "10C",
        "JC",
        "QC",
        "KC",
        "AC",
    ]


RACE_DEAL = {
    "hands": [["9S", "10S", "9H", "10H", "9D"], ["AS", "AH", "KS", "KH", "AD"], ["JS", "JH", "QS", "QH", "10D"]],
    "stock": ["JD", "QD", "KD", "9C", "10C", "JC", "QC", "KC", "AC"],
}


def test_an_end_after_the_trick_as_an_option():
    # seat 1 leads KS then AS and wins both tricks: with the option he wins the hand then
    ends = {}
    for opts in ((), ("race",)):
        st = State(game("drawpile", *opts), 3, 0, dealer=0, deal=RACE_DEAL, hands=1)
        first_agents_until_end(st)
        ends[opts] = [e for e in st.events if e["type"] == "hand_end"][0]
    assert ends[("race",)] == {
        "type": "hand_end",
        "hand": 1,
        "winner": 1,
        "plays": 6,
        "tricks": 2,
        "rule": ["hand", "play", "end", 1],  # the end condition the option adds
    }
    assert ends[()]["plays"] > 6  # without it the hand goes on


# -- the card led -----------------------------------------------------------------
LEDCARD_DEAL = {
    "hands": [["9S", "QH", "10D", "QD"], ["AS", "KH", "10S", "JH"]],
    "turnup": ["9H"],
    "talon": ["JS", "QS", "KS", "10H", "AH", "9D", "JD", "KD", "AD"],
}


def test_the_card_led_calls_for_trumps():
    st = State(game("ledcard"), 2, 0, dealer=0, deal=LEDCARD_DEAL, hands=1)
    st.apply("AS")  # seat 1 leads the ace of spades: trumps (hearts) are called for
    assert names(st.legal_moves()) == ["QH"]


def test_a_card_that_stands_apart_does_not_bind_its_holder_to_follow():
    deal = dict(LEDCARD_DEAL, hands=[["AS", "QH", "10D", "QD"], ["9S", "KH", "10S", "JH"]])
    st = State(game("ledcard"), 2, 0, dealer=0, deal=deal, hands=1)
    st.apply("9S")  # a spade led; seat 0's only spade is the ace, which stands apart
    assert names(st.legal_moves()) == ["AS", "QH", "10D", "QD"]


# -- cards chosen from a shared zone ------------------------------------------------------
def test_cards_chosen_in_turn_from_a_shared_zone_leave_it_and_are_not_offered_again():
    st = State(game("widow"), 3, 0, dealer=0, hands=1)
    widow = names(sorted(st.zones["widow"], key=canon_key))  # offered in canonical order: its order is secret
    a = FirstAgent()
    offered = {}
    for _ in range(6):  # two cards each, seats 1, 2, 0
        seat = st.current_player()
        offered.setdefault(seat, names(c for c in st.legal_moves()))
        st.apply(a.choose(st, seat, st.legal_moves()))
    # a card chosen by a seat before him is not offered to the next
    assert offered == {1: widow, 2: widow[2:], 0: widow[4:]}
    # each looked at what was left, he alone
    looks = [e for e in st.events if e["type"] == "look"]
    assert [(e["seat"], e["zone"], e["cards"]) for e in looks] == [
        (1, "widow", widow),
        (2, "widow", widow[2:]),
        (0, "widow", widow[4:]),
    ]
    delivered = {e["seat"]: e["cards"] for e in st.events if e["type"] == "deliver"}
    assert delivered == {1: widow[0:2], 2: widow[2:4], 0: widow[4:6]}
    assert sorted(names(st.zones["widow"])) == sorted(widow[6:])  # the chosen cards left the widow
    for seat, cards in delivered.items():
        assert set(cards) <= set(names(st.pzones["hand"][seat])) and st.pvars["picked"][seat] == 2
    first_agents_until_end(st)
    st.check_invariants()


def test_a_seat_sees_the_cards_it_chose_from_but_the_others_only_their_number():
    g = academie.load_game(str(CONCEPTS / "widow.yaml"))
    st = g.new_state(players=3, seed=0)
    seat = st.current_player()
    st.apply_action(st.legal_actions()[0])
    mine = [e for e in st.observation(seat)["events"] if e["type"] == "look"]
    other = [e for e in st.observation((seat + 1) % 3)["events"] if e["type"] == "look"]
    assert len(mine[0]["cards"]) == 8 and "cards" not in other[0] and other[0]["count"] == 8
    for s in range(3):  # a search player's worlds keep what it looked at: its moves stay legal there
        world = st.resample(st.current_player(), s)
        assert set(world.legal_actions()) == set(st.legal_actions())


def test_games_with_a_shared_widow_play_to_the_end():
    for seed in range(5):
        st = play(State(game("widow"), 3, seed), make_agents(["random"], 3, seed))
        assert not st.unfinished
        st.check_invariants()


# -- effects after each card played (on_play, last_card) ---------------------------
PLAYED_DEAL = {"hands": [["JH", "9H", "AD", "10D"], ["KS", "QS", "QH", "JD"]]}


def test_a_card_placed_on_another_suit_is_paid_as_it_falls():
    st = State(game("played"), 2, 0, dealer=0, deal=PLAYED_DEAL, hands=1)
    st.apply("KS")  # seat 1 leads a spade; seat 0 has none
    st.apply("JH")  # and places the knave of hearts on it
    pays = [e for e in st.events if e["type"] == "pay"]
    assert [(p["from"], p["to"], p["amount"]) for p in pays] == [("pool", 0, 2)]
    assert st.bal[0]["chip"] == 12 and st.bal["pool"]["chip"] == 8


def test_a_card_forced_or_led_pays_and_an_ace_placed_is_paid_by_the_trick_winner():
    deal = {"hands": [["JH", "9S", "AD", "10D"], ["QH", "QS", "KH", "JD"]]}
    st = State(game("played"), 2, 0, dealer=0, deal=deal, hands=1)
    st.apply("KH")  # seat 1 leads a heart: seat 0's only heart is the knave, forced
    assert names(st.legal_moves()) == ["JH"]
    st.apply("JH")
    assert st.bal[0]["chip"] == 8 and st.bal["pool"]["chip"] == 12
    st.apply("QS")  # seat 1 won and leads a spade; seat 0 follows
    st.apply("9S")
    st.apply("JD")  # seat 1 leads a diamond ...
    st.apply("AD")  # ... seat 0 wins it with the ace: played in suit, not placed
    st.apply("10D")  # seat 0 leads the ten of diamonds; seat 1 has only the queen of hearts
    st.apply("QH")
    assert st.bal[0]["chip"] == 8 and st.bal[1]["chip"] == 10  # no ace placed: nobody paid


def test_an_ace_placed_is_paid_by_the_winner_of_the_trick_and_a_card_led_pays_more():
    deal = {"hands": [["AH", "JH", "9S", "10S"], ["KS", "QS", "JS", "AD"]]}
    st = State(game("played"), 2, 0, dealer=0, deal=deal, hands=1)
    st.apply("KS")  # seat 1 leads
    st.apply("9S")  # seat 0 must follow spades
    st.apply("QS")
    st.apply("10S")
    st.apply("JS")  # seat 1 leads his last spade; seat 0 has none: he places the ace of hearts
    st.apply("AH")
    pays = [(p["from"], p["to"], p["amount"]) for p in st.events if p["type"] == "pay"]
    assert pays == [(1, 0, 1)]  # the winner of the trick (seat 1) pays for the ace placed on it
    st.apply("AD")  # seat 1 leads; seat 0 places the knave of hearts: the pool pays him
    st.apply("JH")
    assert st.bal == {0: {"chip": 13}, 1: {"chip": 9}, "pool": {"chip": 8}}
    deal = {"hands": [["AH", "9S", "10S", "JS"], ["JH", "QS", "KS", "AD"]]}
    st = State(game("played"), 2, 0, dealer=0, deal=deal, hands=1)
    st.apply("JH")  # led: pays three to the pool
    assert st.bal[1]["chip"] == 7 and st.bal["pool"]["chip"] == 13


# -- a lead that passes on (lead_passes) ---------------------------------------------
def test_a_player_out_of_cards_is_passed_over_and_the_next_leads():
    deal = {"hands": [["AS", "AH"], ["9S", "10S", "JS", "9H", "10H"], ["QS", "KS", "JH", "QH", "KH"]]}
    st = State(game("leadpass"), 3, 0, dealer=0, deal=deal, hands=1, keep_events=True)
    for card in ("9S", "QS", "AS", "AH", "9H", "KH"):  # seat 0 wins both tricks and has no card left
        st.apply(card)
    assert st.current_player() == 1  # the lead passes to the next seat that has a card
    for card in ("10S", "KS", "QH", "10H", "JH", "JS"):
        st.apply(card)
    tricks = [e for e in st.events if e["type"] == "trick"]
    assert [t["cards"] for t in tricks[2:]] == [["10S", "KS"], ["QH", "10H"], ["JH", "JS"]]
    assert st.is_terminal() and not any(st.hand)  # every card is played


# -- banking: stakes on ranks, a card turned each turn, the turn repeated ---------------
def bal(st):
    return [st.bal[s]["chip"] for s in range(st.n)]


def pack_of(*names):
    from academie.dsl.cards import card

    return [card(n) for n in names]


def test_stakes_are_placed_settled_as_cards_turn_and_the_turn_repeats():
    deck = ["KH", "KS", "AH", "QS", "AS", "QH"]
    st = State(game("banking"), 2, 0, dealer=0, deck=pack_of(*deck), hands=1)
    assert st.decision_kind() == "stake" and st.legal_moves() == ["pass", "ace", "king", "queen"]
    st.apply("king")
    assert st.decision_kind() == "number" and st.legal_moves() == [0, 1, 2]
    st.apply(2)
    assert st.legal_moves() == ["pass", "ace", "queen"]  # each target once in a turn
    st.apply("pass")
    # KH turned: a heart, the bank pays the stake on kings, which stays on the table
    assert bal(st) == [-2, 2] and st.pvars["stake:K"] == [0, 2]
    assert st.legal_moves() == ["pass", "ace", "king", "queen"]  # the second turn: stakes again
    st.apply("pass")
    # KS turned: the stake on kings is lost and leaves the table
    assert bal(st) == [0, 0] and st.pvars["stake:K"] == [0, 0]
    turned = [e["card"] for e in st.events if e["type"] == "turnup"]
    assert turned == ["KH", "KS"]
    while not st.is_terminal():
        st.apply("pass")
    assert [e["card"] for e in st.events if e["type"] == "turnup"] == deck  # repeated until the pack is out
    assert sum(1 for e in st.events if e["type"] == "repeat") == 5


def test_late_in_the_pack_a_stake_may_be_raised_but_not_lowered():
    st = State(game("banking"), 2, 0, dealer=0, deck=pack_of("AH", "AS", "QH", "KH", "QS", "KS"), hands=1)
    st.apply("queen")
    st.apply(1)
    st.apply("pass")  # AH
    st.apply("pass")  # AS
    st.apply("pass")  # QH: the bank pays, the stake on queens stays; three cards left
    assert st.pvars["stake:Q"] == [0, 1]
    st.apply("queen")
    assert st.legal_moves() == [0, 1, 2]  # three left: may still take it down
    st.apply(1)
    st.apply("pass")  # KH: two cards left
    st.apply("queen")
    assert st.legal_moves() == [1, 2]  # no lowering now
    st.apply(2)
    st.apply("pass")  # QS: the stake of two is lost
    assert bal(st) == [1, -1] and st.pvars["stake:Q"] == [0, 0]  # won 1 on QH, lost 2 on QS


def test_a_copy_taken_in_a_repeated_turn_plays_on_as_its_original():
    st = State(game("banking"), 3, 5, dealer=0, hands=1)
    for m in ["king", 1, "pass", "ace", 2, "pass", "pass", "queen"]:
        st.apply(m)
    cp = st.copy()
    assert cp.legal_moves() == st.legal_moves() == [0, 1, 2]
    moves = [2, "pass"] + ["pass"] * 40
    for m in moves:
        if st.is_terminal():
            break
        st.apply(m)
        cp.apply(m)
    assert st.is_terminal() and cp.is_terminal() and st.events == cp.events


def test_a_repeat_that_goes_back_more_than_its_max_is_a_located_error(tmp_path):
    text = (CONCEPTS / "banking.yaml").read_text().replace("max: 6", "max: 2")
    f = tmp_path / "short.yaml"
    f.write_text(text)
    st = State(load_game(str(f)), 2, 0, dealer=0, hands=1)
    with pytest.raises(RuleError) as e:
        while not st.is_terminal():
            st.apply("pass")
    assert "went back to 'punt' 2 times" in str(e.value) and "short.yaml:" in str(e.value)


def test_a_target_named_by_a_number_is_refused(tmp_path):
    text = (CONCEPTS / "banking.yaml").read_text().replace("targets: {ace: A,", "targets: {1: A,")
    f = tmp_path / "num.yaml"
    f.write_text(text)
    with pytest.raises(RuleError) as e:
        load_game(str(f))
    assert "num.yaml:" in str(e.value) and "targets" in str(e.value)


# -- drawing against a dealer: hit or stand, a hole card, the dealer draws to 17 -------------
def full_pack(*top):
    from academie.dsl.cards import card

    names = [r + s for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    return [card(n) for n in [*top, *(n for n in names if n not in top)]]


def test_a_punter_hits_to_21_the_hole_card_unseen_till_the_dealer_draws_and_busts():
    import academie

    g = academie.load_game(str(CONCEPTS / "drawing.yaml"))
    # the punter's 10S 6H, the hole card 7D, the dealer's 9C face up, then 5S for the punter, 8H for the dealer
    st = g.new_state(players=2, seed=0, dealer=0, keep_events=True, deck=full_pack("10S", "6H", "7D", "9C", "5S", "8H"))
    st.apply("hand")
    st.apply(2)  # his one target staked: no pass asked
    assert st.engine.pvars["total"][1] == 16 and st.decision_kind() == "number"
    for seat in (0, 1):
        assert "7D" not in json.dumps(st.observation(seat))  # the hole card: nobody sees it
    assert "9C" in json.dumps(st.observation(1))
    st.apply(1)  # hit: 5S, 21
    # he is asked all the same: that he was not would tell the dealer his count
    assert st.current_player() == 1 and st.engine.pvars["total"][1] == 21
    st.apply(0)  # he stands
    assert st.is_terminal()
    assert [e["card"] for e in st.engine.events if e["type"] == "turnup"] == ["9C", "7D", "8H"]  # 16: he draws, 24
    assert [st.engine.bal[s]["chip"] for s in (0, 1)] == [-2, 2]


def test_the_dealer_stands_on_17_counting_an_ace_eleven_and_a_bust_punter_loses():
    import academie

    g = academie.load_game(str(CONCEPTS / "drawing.yaml"))
    # the punter's 10S 6H, the hole card 6D, the dealer's AC face up (soft 17: he stands), then KS
    st = g.new_state(players=2, seed=0, dealer=0, keep_events=True, deck=full_pack("10S", "6H", "6D", "AC", "KS"))
    st.apply("hand")
    st.apply(3)
    st.apply(1)  # hit: KS, 26, bust: he throws up his cards, face up
    assert st.is_terminal()
    assert {"10S", "6H", "KS"} <= set(json.dumps(st.observation(0)).replace('"', " ").split())
    assert [e["card"] for e in st.engine.events if e["type"] == "turnup"] == ["AC", "6D"]  # soft 17: no draw
    assert [st.engine.bal[s]["chip"] for s in (0, 1)] == [3, -3]


def test_two_punters_take_their_turns_one_after_the_other():
    import academie

    g = academie.load_game(str(CONCEPTS / "drawing.yaml"))
    # seat 1: 10S 2H; seat 2: 9D 9S; hole 10D, up 7C (17); seat 1 hits 3C, then stands
    st = g.new_state(players=3, seed=0, dealer=0, deck=full_pack("10S", "2H", "9D", "9S", "10D", "7C", "3C"))
    for _ in range(2):
        st.apply("hand")
        st.apply(1)
    assert st.current_player() == 1
    st.apply(1)  # hit: 3C, 15
    assert st.current_player() == 1
    st.apply(0)  # stand
    assert st.current_player() == 2
    st.apply(0)  # stand on 18
    assert st.is_terminal()
    assert [st.engine.bal[s]["chip"] for s in (0, 1, 2)] == [0, -1, 1]  # 15 < 17 loses, 18 > 17 wins


# -- options played with others (`with`) ------------------------------------------------
def test_an_option_played_with_others_lays_their_sets_first_then_its_own():
    from academie.dsl.loader import resolve

    here = Path(__file__).parent / "concepts" / "played_with.yaml"
    both = resolve(here, ["short_fines"])
    assert both.data == resolve(here, ["short", "fines"]).data  # the two options' rules, as one
    assert both.options == ["short_fines"]  # what was chosen, not what it brings
    assert [s.name for s in game("played_with", "short_fines").steps] == ["deal", "fine", "play", "bonus"]
    sprint = resolve(here, ["sprint"])
    assert sprint.data["game"]["until"] == "max_seats(score(seat)) >= 2"  # its own set, laid last
    assert "fine" in sprint.data["hand"]  # and what it is played with, through short_fines
    assert sprint.pos(("hand", "fine")).file.endswith("variant.yaml")  # each rule kept where it is written
    st = play(State(game("played_with", "sprint"), 3, 2), make_agents(["random"], 3, 2))
    assert max(st.pvars["score"]) >= 2
    assert resolve(here, ["sprint", "short"]).data == sprint.data  # a set already laid is laid once


# -- an option that amends an element (`amends: true`) ---------------------------------------
def test_an_amendment_adds_a_cited_rule_to_the_inherited_element_and_keeps_the_rest():
    from academie.dsl.loader import resolve

    here = Path(__file__).parent / "concepts" / "amends.yaml"
    plain, fined = resolve(here).data["hand"]["play"], resolve(here, ["renounce_fine"]).data["hand"]["play"]
    assert "cannot_follow" not in plain and fined["cannot_follow"][0]["pay"]["to"] == "kitty"
    assert {k: v for k, v in fined.items() if k != "cannot_follow"} == plain  # its leader, winner, citation kept
    assert "amends" not in fined

    def kitty_fines(*options):
        st = play(State(game("amends", *options), 3, 4), make_agents(["random"], 3, 4))
        return [e for e in st.events if e["type"] == "pay" and e["to"] == "kitty"]

    assert kitty_fines() == [] and kitty_fines("renounce_fine")


# -- an option that replaces keys of an element (`amends: true`, `replaces: [KEY, …]`) ------------
def test_an_amendment_replaces_the_keys_it_names_and_keeps_the_rest_with_its_citation():
    from academie.dsl.loader import resolve

    here = Path(__file__).parent / "concepts" / "replaces.yaml"
    plain, low = resolve(here), resolve(here, ["lowest"])
    a, b = plain.data["hand"]["play"], low.data["hand"]["play"]
    assert b["winner"]["key"][1] == "0 - rank(card)" and b["leader"] == "dealer + 1"
    assert a["leader"] == "dealer + 2" and "0 - rank(card)" not in a["winner"]["key"]
    kept = ("follow", "won_to", "on_trick", "kind")
    assert {k: b[k] for k in kept} == {k: a[k] for k in kept}  # the rest as beneath
    assert "amends" not in b and "replaces" not in b
    # the amendment's own editorial cites the change, after the element's own
    assert b["editorial"]["reason"].startswith(a["editorial"]["reason"])
    assert b["editorial"]["reason"].endswith("Amended (winner, leader): the player on the dealer's right leads")
    assert low.pos(("hand", "play", "winner")).file.endswith("replaces.yaml")  # placed where written

    ranks = [str(r) for r in plain.data["pack"]["ranks"]]

    def won_by_lowest(*options) -> list[bool]:
        """For each trick with two cards or more of the suit led: whether the lowest of them won."""
        out, plays = [], []
        for seed in range(4):
            st = play(State(game("replaces", *options), 3, seed), make_agents(["random"], 3, seed))
            for e in st.events:
                if e["type"] == "play":
                    plays.append(e)
                elif e["type"] == "trick":
                    led = [p for p in plays if p["card"][-1] == plays[0]["card"][-1]]
                    if len(led) > 1:
                        low = min(led, key=lambda p: ranks.index(p["card"][:-1]))
                        out.append(low["seat"] == e["winner"])
                    plays = []
        return out

    low, high = won_by_lowest("lowest"), won_by_lowest()
    assert len(low) > 5 and len(high) > 5 and all(low) and not any(high)


def test_a_replacement_cited_by_the_amendment_adds_its_quotes_after_the_elements():
    from academie.dsl.loader import resolve

    base, modern = resolve("cassino/cassino"), resolve("cassino/cassino", ["modern"])
    a, b = base.data["hand"]["play"], modern.data["hand"]["play"]
    assert b["cite"][: len(a["cite"])] == a["cite"] and b["editorial"] == a["editorial"]
    assert "the ace one or fourteen" in b["cite"][-1] and b["also"] and b["value"] != a["value"]
    n = len(a["cite"])
    assert modern.pos(("hand", "play", "cite", n)).line > base.pos(("hand", "play", "cite", n - 1)).line
    assert {k: v for k, v in b.items() if k not in ("value", "also", "cite")} == {
        k: v for k, v in a.items() if k not in ("value", "cite")
    }
    assert (
        resolve("polignac/boussac", ["red-sevens"]).data["pack"]["cite"]
        == resolve("polignac/boussac").data["pack"]["cite"]
    )
