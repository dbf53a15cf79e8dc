"""Piquet, Quadrille, Euchre and two-handed Hearts as their sources give them
(issue 22): Piquet won by the first to reach 101 in the order of reckoning, and
Cassell's pique ("says 'twenty-nine, sixty'") in its own numbers; Quadrille's
law 33 ("is to be beasted alone, unless in forced spadille"); Euchre's trump
turned down and another suit made by the non-dealer when both pass; Foster's
Two-Handed Hearts drawn from a stock and settled by the difference."""

import textwrap

from academie.dsl.model import load_game
from academie.interpreter.agents import FirstAgent
from academie.interpreter.state import State


def play_first(st):
    first = FirstAgent()
    while not st.is_terminal():
        st.apply(first.choose(st, st.current_player(), st.legal_moves()))
    return st


def tricks_won(st, n):
    won = [0] * n
    for e in st.events:
        if e["type"] == "trick":
            won[e["winner"]] += 1
    return won


# -- Piquet ---------------------------------------------------------------------------
# Cassell's pique: the elder hand (seat 1) holds a quint to an ace (a quint-major) and
# three aces; the younger counts nothing in hand. The elder lays out the nine of clubs
# and takes in the seven.
ELDER = ["AS", "KS", "QS", "JS", "10S", "AH", "AD", "7H", "8H", "7D", "8D", "9C"]
YOUNGER = ["9S", "8S", "7S", "KH", "QH", "JH", "KD", "QD", "JD", "KC", "QC", "JC"]
STOCK = ["7C", "AC", "10C", "8C", "10H", "9H", "10D", "9D"]
PIQUE_DEAL = {"hands": [YOUNGER, ELDER], "stock": STOCK}


def piquet_to_the_play(g, hands=1):
    st = State(g, 2, 0, dealer=0, deal=PIQUE_DEAL, hands=hands, keep_events=True)
    assert st.current_player() == 1
    st.apply("9C")  # the elder lays out one card
    st.apply("pass")
    assert st.current_player() == 0
    st.apply("pass")  # the younger keeps his cards
    return st


def test_cassells_pique_in_its_own_numbers():
    """'his quint-major and the two additional aces must also count one each, making in
    all thirty, upon which the player ... says "twenty-nine, sixty."'"""
    st = piquet_to_the_play(load_game("piquet/hoyle"))
    # "counts twenty" (point 5 and quint 15) "that makes him twenty-three" (three aces)
    assert st.pvars["tally"] == [0, 23]
    said = []
    for card in ["AS", "KS", "QS", "JS", "10S", "AH", "AD"]:
        assert st.current_player() == 1
        st.apply(card)
        said.append(st.pvars["tally"][1])
        st.apply(st.legal_moves()[0])  # the younger plays to it and loses the trick
    assert said == [24, 25, 26, 27, 28, 29, 60]  # "twenty-nine, sixty"
    assert st.pvars["tally"][0] == 0


def standing(tmp_path, both, options=()):
    path = tmp_path / "standing.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            title: standing
            extends: piquet/hoyle
            vars:
              score: {{per_seat: true, initial: "{both}", editorial: {{reason: a score standing before the deal, evidence: a test}}}}
            """
        )
    )
    return load_game(str(path), list(options))


def test_piquet_is_won_by_the_first_to_reach_101_in_the_order_of_reckoning(tmp_path):
    """Both at 80, the elder hand reaches 100 with his point and quint and 103 with his
    three aces: the game is his there, before a card is played (not the larger total at
    the end of a hand played out, with its pique and capot)."""
    g = standing(tmp_path, 80)
    st = piquet_to_the_play(g, hands=None)
    assert st.is_terminal()
    assert not [e for e in st.events if e["type"] in ("play", "trick")]
    assert [st.pvars["score"][0], st.pvars["score"][1]] == [80, 103]


def test_piquet_stops_in_the_play_at_101(tmp_path):
    """Both at 75, the elder hand has 98 in hand, and the third card he leads makes 101: the
    hand stops there, nine cards each unplayed, the cards and the capot not counted."""
    g = standing(tmp_path, 75)
    st = piquet_to_the_play(g, hands=None)
    for card in ["AS", "KS", "QS"]:
        assert not st.is_terminal()
        st.apply(card)
        if not st.is_terminal():
            st.apply(st.legal_moves()[0])
    assert st.is_terminal()
    assert st.pvars["score"][1] == 101
    assert len(st.hand[1]) == 9


def test_piquet_to_a_hundred_as_chambers_says(tmp_path):
    """'The player who first scores 100 wins the game' (Chambers's Encyclopædia, the
    option hundred): both at 77, the elder's three aces make his 100 and the game, before
    a card is played; at 101 (Cassell, Hoyle) the play goes on, and his first lead wins."""
    st = piquet_to_the_play(standing(tmp_path, 77, ["hundred"]), hands=None)
    assert st.is_terminal() and st.pvars["score"] == [77, 100]
    st = piquet_to_the_play(standing(tmp_path, 77), hands=None)
    assert not st.is_terminal()
    st.apply("AS")
    assert st.is_terminal() and st.pvars["score"] == [77, 101]


# -- Quadrille ------------------------------------------------------------------------
FORCED = {
    "hands": [
        ["7H", "AH", "KH", "QH", "JH", "2H", "3H", "KS", "QS", "JS"],  # the dealer: a defender
        ["AC", "4H", "5H", "6H", "KD", "QD", "JD", "AD", "2D", "3D"],  # the elder hand: a defender
        ["AS", "4D", "5D", "6D", "7D", "2S", "3S", "4S", "5S", "6S"],  # spadille, forced
        ["KC", "QC", "JC", "7C", "6C", "5C", "4C", "3C", "2C", "7S"],  # the king of clubs
    ]
}


def test_quadrille_law_33_forced_spadille_is_not_beasted_alone():
    """'33. He who calls and does not make three tricks, is to be beasted alone, unless
    in forced spadille': all pass, spadille plays, calls the king of clubs, makes one
    trick and loses; his friend pays with him."""
    st = State(load_game("quadrille/hoyle"), 4, 0, dealer=0, deal=FORCED, hands=1, keep_events=True)
    for seat in (1, 2, 3, 0):
        assert st.current_player() == seat
        st.apply("pass")
    assert st.current_player() == 2
    st.apply("H")
    st.apply("C")
    assert (st.vars["ombre"], st.vars["partner"]) == (2, 3)
    play_first(st)
    assert tricks_won(st, 4) == [8, 1, 1, 0]
    assert [st.bal[s]["counter"] for s in range(4)] == [42, 42, 38, 38]
    # the same cards, but spadille asks leave: making one trick, he pays alone
    st = State(load_game("quadrille/hoyle"), 4, 0, dealer=0, deal=FORCED, hands=1, keep_events=True)
    st.apply("pass")
    st.apply("leave")
    st.apply("pass")
    st.apply("pass")
    st.apply("H")
    st.apply("C")
    play_first(st)
    assert tricks_won(st, 4)[2] < 3
    assert [st.bal[s]["counter"] for s in range(4)] == [41, 41, 38, 40]


def test_quadrille_forced_sans_prendre():
    """'Forced sans prendre is, when, having asked leave, one of the other players offers
    to play sans prendre; in which case you are obliged either to play sans prendre, or to
    pass.' The elder hand asks leave, the next offers sans prendre: the elder chooses."""
    for choice, ombre in ((1, 1), (0, 2)):
        st = State(load_game("quadrille/hoyle"), 4, 0, dealer=0, deal=FORCED, hands=1, keep_events=True)
        st.apply("leave")
        st.apply("alone")  # both declarations made: the others are not asked
        assert st.current_player() == 1 and st.decision_kind() == "number"
        assert sorted(st.legal_moves()) == [0, 1]
        st.apply(choice)
        assert st.current_player() == ombre and st.decision_kind() == "suit"
        st.apply("H")
        assert st.decision_kind() == "play"  # alone: no king is called
        assert (st.vars["ombre"], st.vars["partner"]) == (ombre, ombre)


# -- Euchre ---------------------------------------------------------------------------
EUCHRE = {
    "hands": [["7S", "8S", "9S", "7D", "8D"], ["JH", "JD", "AH", "KH", "QH"]],
    "turnup": ["10S"],
    "stock": ["QS", "KS", "AS", "10C", "JC", "QC", "KC", "AC", "7H", "8H", "9H"]
    + ["10H", "9D", "10D", "JS", "7C", "8C", "9C", "QD", "KD", "AD"],
}


def test_euchre_both_pass_and_the_non_dealer_makes_another_suit():
    """'if both players pass, the dealer places the trump card face upwards underneath
    the pack ... The non-dealer has then the privilege of naming the suit which shall be
    trumps, which must be another than that previously turned up.'"""
    st = State(load_game("euchre/cassell"), 2, 0, dealer=0, deal=EUCHRE, hands=1, keep_events=True)
    assert st.trump == "S"
    st.apply(0)  # the non-dealer passes
    st.apply(0)  # the dealer does not take it up
    assert st.current_player() == 1
    st.apply(1)  # he will make a trump
    assert st.decision_kind() == "suit"
    assert sorted(str(m) for m in st.legal_moves()) == ["C", "D", "H"]  # not the suit turned down
    st.apply("H")
    assert st.trump == "H"
    play_first(st)
    assert tricks_won(st, 2) == [0, 5]
    assert st.pvars["points"] == [0, 2]  # all five tricks: two points


def test_euchre_a_made_trump_not_won_is_euchred():
    """The maker of a new trump is held to three tricks: the weak hand makes diamonds
    against both bowers and is euchred, 'his opponent scores two points'."""
    deal = dict(EUCHRE, hands=[EUCHRE["hands"][1], EUCHRE["hands"][0]])
    st = State(load_game("euchre/cassell"), 2, 0, dealer=0, deal=deal, hands=1, keep_events=True)
    st.apply(0)
    st.apply(0)
    st.apply(1)
    st.apply("D")
    play_first(st)
    assert tricks_won(st, 2) == [4, 1]
    assert st.pvars["points"] == [2, 0]


EUCHRE_PACK = [r + s for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
OTHER_COLOUR = {"S": "HD", "C": "HD", "H": "SC", "D": "SC"}


def euchre_trick(trump, lead, follow):
    """Seat 1 orders up a turned card of ``trump`` and leads ``lead``; the dealer follows with
    ``follow``: who wins the trick. The other cards held are small cards of the other colour."""
    turnup = next(c for c in ("7", "8", "9", "Q") if c + trump not in (lead, follow)) + trump
    small = [r + s for s in OTHER_COLOUR[trump] for r in ("7", "8", "9", "10")]
    hands = [[follow] + small[:4], [lead] + small[4:]]
    stock = [c for c in EUCHRE_PACK if c not in {lead, follow, turnup} | set(small)]
    st = State(load_game("euchre/cassell"), 2, 0, dealer=0, deal={"hands": hands, "turnup": [turnup], "stock": stock})
    st.apply(1)  # the non-dealer orders it up
    st.apply(small[0])  # the dealer puts out a small card
    st.apply(lead)
    st.apply(follow)
    assert st.trump == trump
    return [e for e in st.events if e["type"] == "trick"][-1]["winner"]


def test_euchre_the_sources_orders_of_the_trumps():
    """Cassell: 'Supposing spades to be trumps, then the cards rank in the following order:—Knave
    of spades, knave of clubs, ace, king, queen of spades, &c. If clubs were trumps then the knave
    of that suit would be highest card, and knave of spades the next.' Enquire Within: 'when
    hearts are trumps, the cards rank thus:- Knave of hearts, knave of diamonds, ace, king, queen,
    ten, nine, eight, and seven of hearts. When diamonds are trumps, the knave is right bower, and
    the knave of hearts left bower'. Each card beats the next, led or following."""
    orders = {
        "S": ["JS", "JC", "AS", "KS", "QS"],
        "C": ["JC", "JS", "AC"],
        "H": ["JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H"],
        "D": ["JD", "JH", "AD"],
    }
    for trump, order in orders.items():
        for high, low in zip(order, order[1:]):
            assert euchre_trick(trump, high, low) == 1, (trump, high, low)  # the leader's higher card
            assert euchre_trick(trump, low, high) == 0, (trump, low, high)  # the dealer's higher card


# -- Two-handed Hearts ----------------------------------------------------------------
def test_two_handed_hearts_draws_from_the_stock_and_settles_the_difference():
    """Foster's Two-Handed Hearts: thirteen each, twenty-six in the stock; the winner of
    each trick draws first, his adversary next, until the pack is exhausted; the thirteen
    left are played; 'the greater number to pay the lesser the difference'."""
    g = load_game("hearts/foster", ["two-handed"])
    st = State(g, 2, 3, hands=1, keep_events=True)
    assert [len(st.hand[s]) for s in range(2)] == [13, 13]
    assert len(st.zones["stock"]) == 26
    while not st.is_terminal():
        before = len(st.events)
        stock = list(st.zones["stock"])
        st.apply(st.legal_moves()[0])
        new = st.events[before:]
        if stock and any(e["type"] == "trick" for e in new):
            # the winner draws the top card, his adversary the next: thirteen each again
            winner = next(e["winner"] for e in new if e["type"] == "trick")
            drawn = [(e["seat"], e["cards"]) for e in new if e["type"] == "take" and e["to"] == "hand"]
            assert drawn == [(winner, [str(stock[0])]), (1 - winner, [str(stock[1])])]
            assert [len(st.hand[s]) for s in range(2)] == [13, 13]
    tricks = [e for e in st.events if e["type"] == "trick"]
    assert len(tricks) == 26  # 13 played and drawn for, 13 played out
    assert len(st.zones["stock"]) == 0
    hearts = [sum(1 for c in st.pzones["tricks"][s] if c.suit == "H") for s in range(2)]
    assert sum(hearts) == 13
    diff = abs(hearts[0] - hearts[1])
    more, fewer = (0, 1) if hearts[0] > hearts[1] else (1, 0)
    assert st.bal[more]["counter"] == 50 - diff and st.bal[fewer]["counter"] == 50 + diff


def test_two_handed_hearts_the_first_six_free():
    """Foster's other way: 'for the first six hearts taken by the loser to count
    nothing, but all above six to be paid for'."""
    for seed in range(3):
        st = play_first(State(load_game("hearts/foster", ["two-handed-six"]), 2, seed, hands=1, keep_events=True))
        hearts = [sum(1 for c in st.pzones["tricks"][s] if c.suit == "H") for s in range(2)]
        loser = 0 if hearts[0] > hearts[1] else 1
        paid = max(hearts) - 6
        assert st.bal[loser]["counter"] == 50 - paid and st.bal[1 - loser]["counter"] == 50 + paid


def test_hearts_at_seven_the_dealer_takes_no_cards():
    """'If seven players assemble, it is usual to make up a table in which the dealer
    takes no cards.' (Foster 1914, the option seven): the six others are dealt eight each
    (the deuces out, as at six), and the dealer neither pays nor is paid on his deal."""
    st = State(load_game("hearts/foster", ["seven"]), 7, 1, dealer=3, hands=1, keep_events=True)
    assert [len(st.hand[s]) for s in range(7)] == [8, 8, 8, 0, 8, 8, 8]
    play_first(st)
    assert sum(1 for e in st.events if e["type"] == "play") == 48
    assert st.bal[3]["counter"] == 50
    assert not [e for e in st.events if e["type"] == "pay" and 3 in (e["from"], e["to"])]
