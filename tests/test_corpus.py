"""Worked hands for each game of the corpus, from stacked deals, with the
`first` agents (lowest card in canonical order; declining comes first) and,
where a declaration is needed, a scripted choice. Every expected line was
checked by hand against the rule's source."""

import pytest

from academie.dsl.loader import load_yaml
from academie.dsl.model import load_game
from academie.interpreter.agents import FirstAgent, play
from academie.interpreter.state import State

from conftest import DATA, moves


def deal_of(name):
    data, positions = load_yaml((DATA / name).read_text(), name)
    return {"data": data, "positions": positions}


def run(game_id, players, deal, options=(), script=None):
    """Play one hand from ``deal``; ``script`` maps seat -> the declaration it makes."""
    game = load_game(game_id, options)
    st = State(game, players, 0, dealer=0, deal=deal_of(deal), hands=1)
    first = FirstAgent()
    while not st.is_terminal():
        seat, legal = st.current_player(), st.legal_moves()
        if script and st.decision_kind() == "announce" and seat in script:
            st.apply(script[seat])
        else:
            st.apply(first.choose(st, seat, legal))
    st.check_invariants()
    return st


def pays(st, unit=None):
    return [
        (e["from"], e["to"], e["amount"])
        for e in st.events
        if e["type"] == "pay" and (unit is None or e["unit"] == unit)
    ]


# -- Schwellen ---------------------------------------------------------------
def test_schwellen_renounce_and_win():
    st = run("enfle/foster", 4, "schwellen4.yaml")
    assert (
        moves(st.events)
        == (
            "p1:JS p2:8S p3:7S p0:10S t1 "
            "p1:QS p2:AS p3:9S p0:KS t2 "  # the ace is high, as at Hearts
            "p2:9H p3:7H p0:JH p1:8H t0 "
            "p0:KH r1 p1:KH p2:QH p3:10H p0:AH t0 "  # seat 1 has no heart: takes KH, leads it
            "p0:10D p1:9D p2:7D r3 p3:7D p0:AD p1:QD p2:8D t0 "
            "p0:AC end:0"
        ).split()
    )
    renounce_take = [e for e in st.events if e["type"] == "take" and e["to"] == "hand"]
    assert [e["cards"] for e in renounce_take] == [["KH"], ["10D", "9D", "7D"]]
    # tricks are dead, not kept by their winner
    assert len(st.zones["dead"]) == 20
    assert pays(st)[-1] == ("pot", 0, 4)


def test_schwellen_deals_three_two_three(tmp_path):
    game = load_game("enfle/foster")
    pack = game.pack(4)
    assert len(pack) == 32 and {c.rank for c in pack} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    deck = list(reversed(pack))  # AC KC QC … 7S, top first
    st = State(game, 4, 0, dealer=0, deck=deck, hands=1)
    deal = next(e for e in st.events if e["type"] == "deal")
    names = [c.name for c in deck]
    expect = [[] for _ in range(4)]
    i = 0
    for size in (3, 2, 3):  # 3-2-3, from the eldest (seat 1)
        for seat in (1, 2, 3, 0):
            expect[seat] += names[i : i + size]
            i += size
    canon = {c.name: c.canon for c in pack}
    assert deal["hands"] == [sorted(h, key=canon.get) for h in expect]


@pytest.mark.parametrize("players,size", [(4, 32), (5, 40), (6, 48)])
def test_schwellen_adds_cards_to_give_eight_each(players, size):
    assert len(load_game("enfle/foster").pack(players)) == size == 8 * players


# -- Hearts ---------------------------------------------------------------------
@pytest.mark.parametrize("players,missing", [(3, {"2S"}), (4, set()), (5, {"2S", "2C"}), (6, {"2S", "2H", "2D", "2C"})])
def test_hearts_deuces_discarded(players, missing):
    pack = {c.name for c in load_game("hearts/foster").pack(players)}
    assert len(pack) == 52 - len(missing) and not (pack & missing)


def test_hearts_ace_is_low_in_cutting_and_high_in_play():
    g = load_game("hearts/foster")
    from academie.dsl.cards import card

    assert g.orders["cut"][card("AS")] < g.orders["cut"][card("2S")]
    assert g.orders["play"][card("AS")] > g.orders["play"][card("KS")]


def test_hearts_sweepstakes_pool_won_divided_or_kept_as_a_jack():
    # Hoyle 1913: no hearts alone wins the pool, two without hearts divide it; if everyone
    # took a heart, or one took them all, it stays and is added to the next (a Jack)
    from academie.interpreter.agents import make_agents

    g = load_game("hearts/foster", ["sweepstakes"])
    seen = set()
    for seed in range(60):
        st = play(State(g, 4, seed), make_agents(["random"], 4, seed))
        assert not st.unfinished
        pool = 0
        for e in st.events:
            if e["type"] == "hand_start":
                hearts, won = [0] * 4, {}
            elif e["type"] == "pay" and e["to"] == "pool":
                hearts[e["from"]] = e["amount"]
                pool += e["amount"]
            elif e["type"] == "pay" and e["from"] == "pool":
                won[e["to"]] = e["amount"]  # after the last hand: the end's division of a Jack
            elif e["type"] == "hand_end":
                zero = [s for s in range(4) if hearts[s] == 0]
                if zero and max(hearts) < sum(hearts):
                    assert sorted(won) == zero and set(won.values()) == {pool // len(zero)}
                    seen.add("won alone" if len(zero) == 1 else "divided")
                    if pool > sum(hearts):
                        seen.add("jack won")  # with what earlier hands left in it
                    pool -= sum(won.values())
                else:
                    assert not won
                    seen.add("jack" if pool > sum(hearts) else "kept")
        # a Jack left when the game ends is divided among all the players
        assert st.bal["pool"]["counter"] == 0
    assert {"won alone", "divided", "jack", "jack won"} <= seen


# -- Polignac and capot ----------------------------------------------------------
def test_polignac_capot_won():
    st = run("polignac/boussac", 4, "polignac4-capot-won.yaml", ("capot",), script={1: "capot"})
    assert [e for e in st.events if e["type"] == "declare"] == [{"type": "declare", "seat": 1, "declaration": "capot"}]
    assert st.won == [0, 8, 0, 0]
    # he loses nothing; each of the others pays five counters into the pool
    assert sorted(pays(st)) == [(0, "pool", 5), (2, "pool", 5), (3, "pool", 5)]


def test_polignac_capot_lost_pays_for_jacks():
    st = run("polignac/boussac", 4, "polignac4-capot-lost.yaml", ("capot",), script={1: "capot"})
    assert st.won == [0, 7, 1, 0]
    # each pays for the jacks he took: seat 1 took JS (Polignac, 2), JH and JD; seat 2 took JC
    assert sorted(pays(st)) == [(1, "pool", 4), (2, "pool", 1)]


def test_polignac_without_the_option_has_no_announcement():
    st = run("polignac/boussac", 4, "polignac4-capot-won.yaml")
    assert not [e for e in st.events if e["type"] == "declare"]
    # seat 1 took every trick, so every jack: one counter each and one extra for Polignac
    assert pays(st) == [(1, "pool", 5)]


def test_polignac_jacks_cost_one_and_polignac_two():
    st = run("polignac/boussac", 4, "polignac4-capot-lost.yaml")
    # without capot the same play happens; the same jacks are paid for
    assert sorted(pays(st)) == [(1, "pool", 4), (2, "pool", 1)]


# -- Emprunt ------------------------------------------------------------------------
def test_emprunt_borrow_and_talon_draw():
    st = run("emprunt/lacombe", 3, "emprunt3.yaml")
    ev = st.events
    # the first run: 4S led, then each player in turn plays the next spade
    plays = [(e["seat"], e["card"], e["from"]) for e in ev if e["type"] == "play"]
    assert plays[:4] == [(1, "4S", "hand"), (2, "5S", "hand"), (0, "6S", "borrow"), (1, "7S", "borrow")]
    # a borrow costs a jeton paid to the lender
    i = next(k for k, e in enumerate(ev) if e["type"] == "borrow")
    assert ev[i] == {"type": "borrow", "seat": 0, "from": 2, "card": "6S"}
    assert {k: v for k, v in ev[i + 1].items() if k != "rule"} == {
        "type": "pay",
        "from": 0,
        "to": 2,
        "amount": 1,
        "unit": "jeton",
    }
    assert ev[i + 1]["rule"] == ["hand", "play", "obtain", 1, "do", 0, "pay"]  # the borrowing rule
    # the run goes round the suit: after KS the spades are exhausted; seat 1,
    # who played KS, begins a new suit
    runs = [(e["seat"], e["suit"]) for e in ev if e["type"] == "run"]
    assert runs == [(1, "S"), (1, "H"), (1, "D"), (1, "C")]
    # 5H is in nobody's hand: drawn from the talon, a jeton to the pool
    j = next(k for k, e in enumerate(ev) if e["type"] == "draw")
    assert ev[j] == {"type": "draw", "seat": 1, "from": "talon", "card": "5H"}
    assert ev[j + 1] == {
        "type": "pay",
        "from": 1,
        "to": "pool",
        "amount": 1,
        "unit": "jeton",
        "rule": ["hand", "play", "obtain", 2, "do", 0, "pay"],  # the draw from the talon
    }
    # seat 1 sheds his hand: he sweeps the pool (3 antes + 2 draws) and gets a
    # jeton for each card left in each opponent's hand (two each)
    assert st.winner == 1
    assert pays(st)[-3:] == [("pool", 1, 5), (2, 1, 2), (0, 1, 2)]
    assert st.returns() == [-3, 6, -3]


def test_emprunt_three_player_deal_is_the_corrected_twelve():
    g = load_game("emprunt/lacombe")
    assert len(g.pack(3)) == 40
    ((step, per, batches, rest),) = g.deal_counts(3)
    assert (per, rest) == (12, 4) and per * 3 + rest == 40


# -- Francion --------------------------------------------------------------------------
def test_francion_welche_takes_a_trick_and_ace_of_trumps_beats_king():
    st = run("francion/terrail", 3, "francion3-welche-wins.yaml")
    tricks = [(e["cards"], e["winner"]) for e in st.events if e["type"] == "trick"]
    assert [e["trump"] for e in st.events if e["type"] == "turnup"] == ["S"]
    assert tricks[1] == (["KS", "AS", "JS"], 0)  # no Welche in the trick: the ace of trumps wins
    assert tricks[4] == (["AH", "9H", "7D"], 1)  # the Welche led takes the trick
    # the stake of 9 is paid out by ninths: one token per trick won
    payout = [p for p in pays(st, "token") if p[0] == "stake"]
    assert sorted(payout, key=lambda p: p[1]) == [("stake", 0, 1), ("stake", 1, 7), ("stake", 2, 1)]
    assert st.pvars["points"] == [0, 1, 0]


def test_francion_king_of_trumps_beats_welche_and_beast():
    st = run("francion/terrail", 3, "francion3-king-beats-welche.yaml")
    tricks = [(e["cards"], e["winner"]) for e in st.events if e["type"] == "trick"]
    assert tricks[6] == (["8C", "AH", "KC"], 2)  # clubs trumps: KC beats the Welche
    assert st.won == [7, 0, 2]
    token_pays = pays(st, "token")
    assert ("stake", 0, 7) in token_pays and ("stake", 2, 2) in token_pays
    # seat 1 took no trick: beasted, he stakes what was at stake (9) for the next hand
    assert token_pays[-1] == (1, "stake", 9)
    assert st.bal["stake"]["token"] == 9
    assert st.pvars["points"] == [1, 0, 0]


def test_francion_packs_by_player_count():
    g = load_game("francion/terrail")
    assert [len(g.pack(n)) for n in (3, 4, 5)] == [32, 40, 52]
    assert not any(c.rank in ("8", "9", "10") for c in g.pack(4))
