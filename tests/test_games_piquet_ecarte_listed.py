"""Piquet and Écarté checked against the rules their sources list
(docs/listings/piquet.md, docs/listings/ecarte.md): the repique counted to the
player who made it, the worked examples of Hoyle's Piquet (the hundred and
seventy of one deal, the younger's twenty-nine that cannot pique), the
Britannica's count of every card led (option), and Écarté's proposer bound to
throw out a card. Stacked deals."""

import textwrap

from academie.dsl.model import load_game
from academie.interpreter.state import State


def names(cards):
    return [c.name if hasattr(c, "name") else c for c in cards]


def extended(tmp_path, parent, body, options=()):
    path = tmp_path / "extended.yaml"
    path.write_text(textwrap.dedent(f"title: extended\nextends: {parent}\n") + textwrap.dedent(body))
    return load_game(str(path), list(options))


# -- Piquet --------------------------------------------------------------------------------
def piquet(g, younger, elder, stock, lay_out, take_in=()):
    """Dealer seat 0 (the younger hand), elder seat 1; the elder lays out ``lay_out``, the
    younger ``take_in`` (none: he keeps his cards); the state at the elder's first lead."""
    st = State(g, 2, 0, dealer=0, deal={"hands": [younger, elder], "stock": stock}, hands=1, keep_events=True)
    for c in lay_out:
        st.apply(c)
    st.apply("pass")
    for c in take_in:
        st.apply(c)
    st.apply("pass")
    return st


SUITS = "SHDC"


def of(ranks, suits=SUITS):
    return [r + s for s in suits for r in ranks]


def test_piquet_the_repique_is_the_player_s_who_reached_thirty_first():
    """'Repique is when one of the players counts thirty points in hand before his
    adversary has or can count one' (Cassell), in the order of reckoning: 'the point, then the
    huitiemes, ... the tierces, the four aces, kings, queens' (Hoyle). The elder counts his point
    (5) and two quints (30): thirty-five before the younger's quatorzes (forty-two) come to be
    counted. The repique is the elder's: ninety-five; the younger counts his forty-two, and the hand is played."""
    younger = of("AKQ")  # four aces, kings, queens: three quatorzes, a tierce major in each suit
    elder = of(["J", "10", "9", "8", "7"], "SH") + ["JD", "7C"]
    stock = ["10D", "9D", "8D", "7D", "JC", "10C", "9C", "8C"]
    st = piquet(load_game("piquet/hoyle"), younger, elder, stock, ["7C"])
    pv = st.pvars
    assert pv["pointv"] == [0, 5] and pv["seqv"] == [0, 30] and pv["setv"] == [42, 0]
    assert st.vars["repiqued"] == 1
    assert pv["tally"] == [42, 35 + 60]
    assert st.decision_kind() == "play" and st.current_player() == 1
