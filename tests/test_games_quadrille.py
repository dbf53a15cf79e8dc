"""Quadrille (rules/quadrille/hoyle.yaml): a worked hand from a stacked deal,
checked against the sources by hand — the leave asked, the trump named, the
king called and its holder the friend, the matadores (spadille, manille,
basto) and their privilege, the red trumps' order, the payment."""

from academie.dsl.compiler import sides_of
from academie.dsl.model import load_game
from academie.interpreter.agents import FirstAgent
from academie.interpreter.state import State

DEAL = {
    "hands": [
        ["QC", "4H", "5H", "6H", "7D", "6D", "5D", "4D", "3D", "2D"],  # seat 0 (the dealer)
        ["AS", "7H", "AH", "KH", "QH", "JH", "2H", "KS", "QS", "JS"],  # seat 1, elder hand: the ombre
        ["KC", "AC", "3H", "JC", "7C", "6C", "5C", "4C", "3C", "2C"],  # seat 2: basto, the king called
        ["2S", "3S", "4S", "5S", "6S", "7S", "KD", "QD", "JD", "AD"],  # seat 3
    ]
}


def names(moves):
    return sorted(m.name if hasattr(m, "name") else m for m in moves)


def test_a_worked_hand_of_quadrille():
    g = load_game("quadrille/hoyle")
    st = State(g, 4, 0, dealer=0, deal=DEAL, hands=1, keep_events=True)
    # the elder hand (the dealer's right) speaks first: he asks leave, the others pass
    assert st.current_player() == 1 and st.decision_kind() == "announce"
    st.apply("leave")
    for seat in (2, 3, 0):
        assert st.current_player() == seat
        st.apply("pass")
    # he names the trump, then calls a king: any, his own too (law 23)
    assert st.decision_kind() == "suit" and st.current_player() == 1
    st.apply("H")
    assert st.trump == "H"
    assert st.decision_kind() == "suit" and names(st.legal_moves()) == ["C", "D", "H", "S"]
    st.apply("C")
    assert st.vars["ombre"] == 1 and st.vars["partner"] == 2  # the holder of the king of clubs
    assert sides_of(st) == [0, 1, 1, 0]  # the ombre and his friend against the other two
    assert st.vars["mats"] == 1  # spadille and manille (7H) with the ombre, basto with his friend
    # a low trump led: a trump must be played, basto or another
    st.apply("2H")
    assert st.current_player() == 2 and names(st.legal_moves()) == ["3H", "AC"]
    st.apply("3H")
    assert names(st.legal_moves()) == names(DEAL["hands"][3])  # no trump: any card
    st.apply("2S")
    assert names(st.legal_moves()) == ["4H", "5H", "6H"]  # trumps must be followed
    st.apply("6H")
    trick = [e for e in st.events if e["type"] == "trick"][-1]
    assert trick["winner"] == 1  # in red trumps the deuce is above the six
    # a low trump led again: basto, now his only trump, need not be played (the privilege)
    st.apply("JH")
    assert names(st.legal_moves()) == names(["KC", "AC", "JC", "7C", "6C", "5C", "4C", "3C", "2C"])
    st.apply("2C")
    st.apply("3S")
    assert names(st.legal_moves()) == ["4H", "5H"]
    st.apply("5H")
    assert [e for e in st.events if e["type"] == "trick"][-1]["winner"] == 1
    # spadille led forces basto, the lower matadore
    st.apply("AS")
    assert names(st.legal_moves()) == ["AC"]
    st.apply("AC")
    st.apply("4S")
    assert names(st.legal_moves()) == ["4H"]
    st.apply("4H")
    assert [e for e in st.events if e["type"] == "trick"][-1]["winner"] == 1
    first = FirstAgent()
    while not st.is_terminal():
        st.apply(first.choose(st, st.current_player(), st.legal_moves()))
    won = [0] * 4
    for e in st.events:
        if e["type"] == "trick":
            won[e["winner"]] += 1
    made = won[1] + won[2]
    if made >= 6:  # one a-piece from each defender to each of the two, doubled for the vole, one more for the mats
        each = (2 if made == 10 else 1) + 1
        assert [st.bal[s]["counter"] for s in range(4)] == [40 - 2 * each, 40 + 2 * each, 40 + 2 * each, 40 - 2 * each]
    else:
        assert st.bal[1]["counter"] < 40


def is_matador(card, trump):
    if card in ("AS", "AC"):
        return True
    return card[-1] == trump and card[:-1] == ("7" if trump in "HD" else "2")


def test_random_hands_are_paid_as_computed_here():
    """Game, remise and codill, alone or with a friend, the vole, the matadores:
    each hand's payments worked out here from its events."""
    from academie.interpreter.agents import make_agents, play

    g = load_game("quadrille/hoyle")
    seen = set()
    for seed in range(20):
        st = play(State(g, 4, seed, keep_events=True), make_agents(["random"], 4, seed))
        hand: list = []
        for e in st.events:
            if e["type"] == "hand_start":
                hand = []
            hand.append(e)
            if e["type"] != "hand_end":
                continue
            deal = next(x for x in hand if x["type"] == "deal")["hands"]
            decl = {x["declaration"]: x["seat"] for x in hand if x["type"] == "declare"}
            alone = "alone" in decl
            forced = [x["value"] for x in hand if x["type"] == "number" and x["into"] == "forced"]
            ombre = decl.get("alone", decl.get("leave", next(s for s in range(4) if "AS" in deal[s])))
            if forced == [1]:  # forced sans prendre: who asked leave plays alone
                ombre = decl["leave"]
            spadille = not decl  # forced spadille: all passed
            trump = next(x["value"] for x in hand if x["type"] == "suit" and x.get("trump"))
            call = [x["value"] for x in hand if x["type"] == "suit" and x.get("into") == "king"]
            queen = [x["value"] for x in hand if x["type"] == "number" and x["into"] == "queen"] == [1]  # law 12
            called = ("Q" if queen else "K") + call[0] if call else None
            partner = ombre if alone else next(s for s in range(4) if called in deal[s])
            side = {ombre, partner}
            won = [0] * 4
            for x in hand:
                if x["type"] == "trick":
                    won[x["winner"]] += 1
            made = sum(won[s] for s in side)
            mats = sum(is_matador(c, trump) for s in side for c in deal[s])
            delta = [0] * 4
            if made >= 6:
                for s in side:
                    vole = made == 10 and not spadille  # law 16: forced spadille plays for no vole
                    # p. 282: one a-piece, a solo two; a vole with a friend two, a solo-vole six
                    solo = alone and s == ombre
                    amount = (6 if solo else 2) if vole else (2 if solo else 1)
                    amount += mats == 3
                    for d in set(range(4)) - side:
                        delta[d] -= amount
                        delta[s] += amount
                seen.add("vole" if made == 10 else "game")
            else:
                # law 33: beasted alone under three tricks, unless in forced spadille
                payers = [ombre] + ([partner] if partner != ombre and (won[ombre] >= 3 or spadille) else [])
                for s in payers:
                    amount = (2 if alone and s == ombre else 1) + (mats == 0)
                    for d in set(range(4)) - side:
                        delta[s] -= amount
                        delta[d] += amount
                seen.add("remise" if made == 5 else "codill")
            got = [0] * 4
            for x in hand:
                if x["type"] == "pay":
                    got[x["from"]] -= x["amount"]
                    got[x["to"]] += x["amount"]
            assert got == delta, (seed, e["hand"])
    assert {"game", "remise", "codill"} <= seen


def trumps_in_order(trump):
    """The cards that beat the king of a plain suit led, best first, as the file ranks them."""
    g = load_game("quadrille/hoyle")
    st = State(g, 4, 0, dealer=0, hands=1)
    tricks = next(s for s in g.steps if s.kind == "tricks")
    plain = "H" if trump == "D" else "D"
    st.trump, st.led = trump, plain
    cards = g.pack(4)

    def key(c):
        return tuple(e.fn(st, 0, c) for e in tricks.winner_key)

    top = next(c for c in cards if c.name == "K" + plain)
    return [c.name for c in sorted((c for c in cards if key(c) > key(top)), key=key, reverse=True)]


def test_chambers_eleven_trumps_in_black_twelve_in_red():
    """Chambers's count: "when the black suits are trumps, the number of trump cards is
    eleven, and twelve when [a] red suit is trumps" — spadille, manille, basto (and punto
    in red), then the rest of the suit in its order."""
    assert trumps_in_order("S") == ["AS", "2S", "AC", "KS", "QS", "JS", "7S", "6S", "5S", "4S", "3S"]
    assert trumps_in_order("C") == ["AS", "2C", "AC", "KC", "QC", "JC", "7C", "6C", "5C", "4C", "3C"]
    assert trumps_in_order("H") == ["AS", "7H", "AC", "AH", "KH", "QH", "JH", "2H", "3H", "4H", "5H", "6H"]
    assert trumps_in_order("D") == ["AS", "7D", "AC", "AD", "KD", "QD", "JD", "2D", "3D", "4D", "5D", "6D"]


SOLO = {
    "hands": [
        ["5H", "KS", "QS", "JS", "7S", "6S", "5S", "4S", "3S", "2S"],  # the dealer
        ["AS", "7H", "AC", "AH", "KH", "QH", "JH", "2H", "3H", "4H"],  # the elder hand: ten top trumps in hearts
        ["6H", "KC", "QC", "JC", "7C", "6C", "5C", "4C", "3C", "2C"],
        ["AD", "KD", "QD", "JD", "7D", "6D", "5D", "4D", "3D", "2D"],
    ]
}


def test_a_solo_vole_is_paid_six_from_each_and_seven_with_the_matadores():
    """p. 282: "11. A solo-vole, common suit : ... six from each antagonist: mats, seven"
    (not the solo's two doubled): alone, with the three matadores, all ten tricks."""
    st = State(load_game("quadrille/hoyle"), 4, 0, dealer=0, deal=SOLO, hands=1, keep_events=True)
    st.apply("alone")
    for _ in (2, 3, 0):
        st.apply("pass")
    st.apply("H")
    first = FirstAgent()
    while not st.is_terminal():
        st.apply(first.choose(st, st.current_player(), st.legal_moves()))
    assert sum(1 for e in st.events if e["type"] == "trick" and e["winner"] == 1) == 10
    assert [st.bal[s]["counter"] for s in range(4)] == [33, 61, 33, 33]


def test_only_a_younger_hand_forces_sans_prendre():
    """ "Do More is when any player, having asked leave, is required by a younger hand
    either to pass or play alone"; "27. Whoever has asked leave only cannot play sans
    prendre, unless forced": the elder hand offers sans prendre, the next asks leave after
    him; the asker is not forced, is offered no choice, and the elder plays alone."""
    st = State(load_game("quadrille/hoyle"), 4, 0, dealer=0, deal=SOLO, hands=1, keep_events=True)
    st.apply("alone")
    st.apply("leave")
    assert st.decision_kind() == "suit" and st.current_player() == 1
    st.apply("H")
    assert (st.vars["ombre"], st.vars["partner"]) == (1, 1)


FOUR_KINGS = {
    "hands": [
        ["QD", "AD", "JD", "7D", "6D", "5D", "4D", "3D", "2D", "2C"],  # the dealer
        ["KS", "KH", "KD", "KC", "AS", "7H", "AH", "QH", "JH", "2H"],  # the elder hand: the four kings
        ["QC", "AC", "3H", "4H", "JC", "7C", "6C", "5C", "4C", "3C"],  # the queen of clubs
        ["QS", "JS", "7S", "6S", "5S", "4S", "3S", "2S", "5H", "6H"],
    ]
}


def test_four_kings_dealt_call_a_queen_but_not_the_queen_of_trumps():
    """ "12. If you have four kings dealt, you are at liberty either to call a queen to one
    of your kings, except the queen of trumps; or to call one of your own kings.\""""
    for choice, suit, partner in ((1, "C", 2), (0, "C", 1)):
        st = State(load_game("quadrille/hoyle"), 4, 0, dealer=0, deal=FOUR_KINGS, hands=1, keep_events=True)
        st.apply("leave")
        for _ in (2, 3, 0):
            st.apply("pass")
        st.apply("H")
        assert st.current_player() == 1 and st.decision_kind() == "number"
        assert sorted(st.legal_moves()) == [0, 1]
        st.apply(choice)
        assert st.decision_kind() == "suit"
        assert names(st.legal_moves()) == (["C", "D", "S"] if choice else ["C", "D", "H", "S"])
        st.apply(suit)
        assert (st.vars["ombre"], st.vars["partner"]) == (1, partner)
