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


def play_out(st, younger_plays=None):
    """The elder leads his cards in order; the younger plays the first legal card."""
    while st.decision_kind() == "play":
        st.apply(st.legal_moves()[0])
    return st


def test_hoyles_hundred_and_seventy_in_one_deal(tmp_path):
    """Hoyle's greatest stroke (p. 186, its opening lost): '[…] aces, fourteen for the four
    kings and fourteen for the four queens, then sixty for the repique, thirteen he gains in
    playing the cards ; and he has forty for the capot, which make together one hundred and
    seventy'. The elder holds the four aces, kings and queens (dealt eleven, he lays out the
    knave of clubs and takes in the queen): the point (three) and four tierces major (twelve),
    fourteen aces (the lost twenty-nine), kings and queens: seventy-one in hand, sixty for the
    repique, twelve cards led and the last trick thirteen, forty for the capot. The game is set
    above the count so that the deal is counted whole, as the example counts it."""
    g = extended(
        tmp_path,
        "piquet/hoyle",
        """\
        vars:
          game_points: {initial: 1000, editorial: {reason: a game long enough to count the deal whole, evidence: a test}}
        """,
    )
    elder = [c for c in of("AKQ") if c != "QC"] + ["JC"]
    younger = ["JS"] + [c for c in of("987") if c != "7S"]  # a knave: no carte blanche
    stock = ["QC", "10S", "7S", "10H", "JH", "10D", "JD", "10C"]
    st = piquet(g, younger, elder, stock, ["JC"])
    pv = st.pvars
    assert sorted(names(st.hand[1])) == sorted(of("AKQ"))
    assert [pv["pointv"][1], pv["seqv"][1], pv["setv"][1]] == [3, 12, 42]
    assert pv["tally"] == [0, 3 + 12 + 42 + 60]
    play_out(st)
    assert st.won == [0, 12]
    assert st.pvars["score"] == [0, 170]


def test_hoyle_the_younger_with_twenty_nine_in_hand_cannot_pique():
    """'To pique the adversary, you must be elder hand ; for if youngest, your adversary counts
    one for the first card he plays; and then you having counted only twenty-nine in hand, even
    if you take the first trick, it will not authorize you to count sixty, but only thirty.' The
    younger counts the point (five), a quint major (fifteen) and three aces, kings and queens
    (nine): twenty-nine; the elder, nothing in hand, leads the knave of hearts (one); the younger
    takes it with the ace: thirty, not sixty."""
    younger = ["AS", "KS", "QS", "JS", "10S", "AH", "KH", "AD", "QD", "KC", "QC", "7D"]
    elder = ["9S", "8S", "7S", "JH", "10H", "9H", "8H", "7H", "JC", "10C", "9C", "8C"]
    stock = ["7C", "QH", "AC", "KD", "JD", "10D", "9D", "8D"]
    st = piquet(load_game("piquet/hoyle"), younger, elder, stock, ["7S"])
    assert st.pvars["tally"] == [29, 0] and st.vars["repiqued"] == 0
    st.apply("JH")
    assert st.pvars["tally"] == [29, 1]
    st.apply("AH")
    assert st.pvars["tally"] == [30, 1] and st.vars["piqued"] == 0


def test_piquet_every_card_led_counts_in_the_britannica_option():
    """'During the play of the hands the leader counts one for each card led, whether it wins
    the trick or not. If the leader wins the trick, his adversary reckons nothing that trick ;
    but if the second player wins the trick he also counts one' (Encyclopaedia Britannica, the
    option every-lead); Hoyle, the file's own count: 'counting one for each, except it be a nine
    or an inferior card'. The elder leads the nine of spades and the younger takes it."""
    younger = ["AS", "KS", "QS", "JS", "10S", "AH", "KH", "AD", "QD", "KC", "QC", "7D"]
    elder = ["9S", "8S", "7S", "JH", "10H", "9H", "8H", "7H", "JC", "10C", "9C", "8C"]
    stock = ["7C", "QH", "AC", "KD", "JD", "10D", "9D", "8D"]
    for options, led in (((), 0), (("every-lead",), 1)):
        st = piquet(load_game("piquet/hoyle", list(options)), younger, elder, stock, ["7S"])
        st.apply("9S")
        assert st.pvars["tally"] == [29, led]
        st.apply("AS")
        assert st.pvars["tally"] == [30, led]


# -- Écarté --------------------------------------------------------------------------------
def ecarte(g, dealer_hand, elder_hand, turnup, stock):
    deal = {"hands": [dealer_hand, elder_hand], "turnup": [turnup], "stock": stock}
    return State(g, 2, 0, dealer=0, deal=deal, hands=1, keep_events=True)


ECARTE_DEALER = ["QS", "JS", "AS", "7H", "8H"]
ECARTE_ELDER = ["KH", "QH", "JH", "8D", "9D"]
ECARTE_STOCK = ["10D", "JD", "QD", "KD", "AD", "9S", "8S", "10S", "KS", "9H", "10H", "AH"]
ECARTE_STOCK += ["7D", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]


def test_ecarte_the_proposer_throws_out_one_card_at_least():
    """'Ecarter ; to Descard. The throwing out of one or more useless cards for the purpose of
    replacing them by others from the talon' and 'Proposition. Is an offer of discarding'
    (Hoyle); 'he may propose--that is, change any or all of them for others from the stock'
    (Enquire Within): the non-dealer who proposed, his proposal accepted, throws out one card or
    more; the dealer 'may' change any or all of his, or none."""
    for options in ((), ("second-discard",)):
        st = ecarte(load_game("ecarte/hoyle", list(options)), ECARTE_DEALER, ECARTE_ELDER, "7S", ECARTE_STOCK)
        st.apply(1)  # the elder proposes
        st.apply(1)  # the dealer accepts
        assert st.current_player() == 1 and "pass" not in st.legal_moves()
        st.apply("8D")
        assert "pass" in st.legal_moves()
        st.apply("pass")
        assert st.current_player() == 0 and "pass" in st.legal_moves()  # the dealer may keep his
        st.apply("pass")
        assert sorted(names(st.hand[1])) == sorted(["KH", "QH", "JH", "9D", "10D"])
        if options:  # a second proposal, accepted: again one card at least
            st.apply(1)
            st.apply(1)
            assert st.current_player() == 1 and "pass" not in st.legal_moves()
