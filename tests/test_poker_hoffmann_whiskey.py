"""Note 39 as Hoffmann gives it (rules/poker/hoffmann.yaml's option higher-openers,
hoffmann-1909-poker), played on seeded deals."""

from academie.dsl.model import load_game
from academie.interpreter.state import State


def _opens(cards, least):
    """A pair of ``least`` or higher, or anything better by the scale, from the cards alone."""
    order = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    ranks = [c.rank for c in cards]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    places = sorted(order.index(r) for r in set(ranks))
    straight = len(places) == 5 and (places[4] - places[0] == 4 or places == [0, 1, 2, 3, 12])
    flush = len({c.suit for c in cards}) == 1
    pair = any(ranks.count(r) >= 2 and order.index(r) >= order.index(least) for r in set(ranks))
    return pair or counts[0] >= 3 or counts[:2] == [2, 2] or straight or flush


def test_note_39_queens_then_kings_then_aces_on_later_rounds_of_a_jack_pot():
    # "[39] Some players on a second round only allow the jack-pot to be opened by a pair of queens,
    # or better; on a third, only by a pair of kings, or better; and on a fourth, only by a pair of
    # aces, or better"
    g = load_game("poker/hoffmann", ("higher-openers",))
    asked = {}
    for seed in range(10):
        st = State(g, 6, seed, dealer=0, hands=6)
        for _ in range(5):
            st.apply("pass-out")  # no one goes in: the next deal is a jack-pot
        for hand, least in ((2, "J"), (3, "Q"), (4, "K"), (5, "A"), (6, "A")):
            assert st.hand_no == hand and st.vars["jack_pot"] == 1
            for _ in range(6):  # no one opens, holding the needful cards or not
                seat = st.current_player()
                may = "open" in st.legal_moves()
                assert may == _opens(st.hand[seat], least)
                asked[(least, may)] = asked.get((least, may), 0) + 1
                st.apply("pass")
        assert st.is_terminal()
    assert all(asked.get((x, y)) for x in "JQKA" for y in (True, False))


def test_note_39_is_not_the_plain_jack_pots():
    # without the note, jacks open every deal of a jack-pot
    g = load_game("poker/hoffmann", ("jack-pots",))
    st = State(g, 5, 1, dealer=0, hands=4)
    for _ in range(4):
        st.apply("pass-out")
    for _ in range(2):
        for _ in range(5):
            assert ("open" in st.legal_moves()) == _opens(st.hand[st.current_player()], "J")
            st.apply("pass")
