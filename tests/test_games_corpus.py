"""The historical games added to the corpus (Whist, Piquet, Écarté, Hoc): worked
hands from stacked deals, checked by hand against the sources, and random
games checked against the rules computed here independently; and the
language's sum_cards/max_cards, proven on tests/concepts/cardsums.yaml."""

import random
from collections import Counter
from pathlib import Path

import pytest

from academie.dsl.model import load_game
from academie.interpreter.agents import FirstAgent, make_agents, play
from academie.interpreter.state import State

CONCEPTS = Path(__file__).parent / "concepts"
ORDER = ["7", "8", "9", "10", "J", "Q", "K", "A"]  # a thirty-two card pack, lowest first


def hands_of(events):
    """The events of each finished hand, from its hand_start to its hand_end."""
    hand: list = []
    for e in events:
        if e["type"] == "hand_start":
            hand = [e]
            continue
        hand.append(e)
        if e["type"] == "hand_end":
            yield hand


def names(cards):
    return [c.name if hasattr(c, "name") else c for c in cards]


def measure(cards):
    """The point, the sequences and the sets of a hand, computed here."""
    by: dict[str, set[int]] = {}
    for c in cards:
        by.setdefault(c[-1], set()).add(ORDER.index(c[:-1]) + 1)

    def pips(i):
        return 11 if i == 8 else min(10, i + 6)

    point = max(100 * len(v) + sum(pips(i) for i in v) for v in by.values())
    runs = []
    for v in by.values():
        i = 1
        while i <= 8:
            if i in v:
                j = i
                while j + 1 in v:
                    j += 1
                runs.append((j - i + 1, j))
                i = j + 1
            else:
                i += 1
    longest = max(length for length, _ in runs)
    ranks = Counter(ORDER.index(c[:-1]) + 1 for c in cards)
    return {
        "point": point,
        "run": longest,
        "runs": sum(1 for n, _ in runs if n >= 3),
        "below_ace": next((n for n in range(8) if ORDER[7 - n] + "S" not in cards), 8),
        "sq": max([10 * n + top for n, top in runs if n >= 3], default=0),
        "seqlen": sum(n for n, _ in runs if n >= 3),
        "seqbig": sum(1 for n, _ in runs if n >= 5),
        "set": max(ranks.values()),
        "st": max([10 * k + i for i, k in ranks.items() if i >= 4 and k >= 3], default=0),
        "setv": sum(14 if k == 4 else 3 for i, k in ranks.items() if i >= 4 and k >= 3),
    }


# -- sum_cards / max_cards ---------------------------------------------------------
def test_sum_cards_and_max_cards_measure_a_hand():
    g = load_game(str(CONCEPTS / "cardsums.yaml"))
    deal = {
        "hands": [
            ["AS", "KS", "QS", "9S", "8S", "7S", "AH", "AD"],  # six spades (11+10+10+9+8+7), runs of 3 and 3
            ["JS", "10S", "KH", "QH", "JH", "10H", "9H", "KD"],  # five hearts in a run of five
        ]
    }
    st = State(g, 2, 0, dealer=0, deal=deal, hands=1)
    assert st.decision_kind() == "play"
    assert st.pvars["pips"] == [655, 549]
    assert st.pvars["longest"] == [3, 5]
    assert st.pvars["longest_run"] == [3, 5]  # run(): the same runs, measured down from each card
    assert st.pvars["runs"] == [2, 1]  # A-K-Q and 9-8-7 of spades; the five hearts
    assert st.pvars["below_ace"] == [3, 0]  # down from the ace of spades; 0 where it is not held
    assert st.pvars["set"] == [3, 2]  # three aces; two kings at most
    assert st.pvars["score"] == [1, 5]  # a truth value added up counts the hearts
    for s in (0, 1):
        m = measure(deal["hands"][s])
        assert [st.pvars["pips"][s], st.pvars["longest"][s], st.pvars["set"][s]] == [m["point"], m["run"], m["set"]]
        assert [st.pvars["longest_run"][s], st.pvars["runs"][s], st.pvars["below_ace"][s]] == [
            m["run"],
            m["runs"],
            m["below_ace"],
        ]


def test_max_cards_of_an_empty_zone_is_zero():
    g = load_game(str(CONCEPTS / "cardsums.yaml"))
    st = play(State(g, 2, 3, keep_events=True), make_agents(["random"], 2, 3))
    assert st.hand == [[], []]
    assert st.pvars["left"] == [1, 1]  # the greatest of nothing is 0, not an error


@pytest.mark.parametrize("seed", range(12))
def test_random_hands_measured_as_computed_here(seed):
    g = load_game(str(CONCEPTS / "cardsums.yaml"))
    st = State(g, 4, seed)
    for s in range(4):
        m = measure(names(st.hand[s]))
        assert [st.pvars["pips"][s], st.pvars["longest"][s], st.pvars["set"][s]] == [m["point"], m["run"], m["set"]]
        assert [st.pvars["longest_run"][s], st.pvars["runs"][s], st.pvars["below_ace"][s]] == [
            m["run"],
            m["runs"],
            m["below_ace"],
        ]


# -- Piquet ------------------------------------------------------------------------
PIQUET_DEAL = {
    "hands": [
        # the younger hand (the dealer): six hearts from the queen, three queens, knaves and tens
        ["QH", "JH", "10H", "9H", "8H", "7H", "QD", "QC", "JD", "JC", "10D", "10C"],
        # the elder hand: a sixieme major in spades, three aces and two kings
        ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "AD", "AC", "KH", "KD", "7C"],
    ],
    "stock": ["KC", "8S", "7S", "9D", "8D", "7D", "9C", "8C"],
}


def piquet_hand(script):
    g = load_game("piquet/hoyle")
    st = State(g, 2, 0, dealer=0, deal=PIQUET_DEAL, hands=1)
    first = FirstAgent()
    while not st.is_terminal():
        if st.decision_kind() == "play":
            break
        st.apply(script.pop(0) if script else first.choose(st, st.current_player(), st.legal_moves()))
    return st


def test_piquet_elder_discards_one_and_reckons_a_repique():
    # the elder throws out 7C and takes in KC (four kings now); the younger keeps his cards
    st = piquet_hand(["7C", "pass", "pass"])
    assert sorted(names(st.hand[1]), key=lambda c: (c[-1], ORDER.index(c[:-1]))) == sorted(
        ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH", "AD", "KD", "AC", "KC"],
        key=lambda c: (c[-1], ORDER.index(c[:-1])),
    )
    assert names(st.zones["stock"])[0] == "8S"
    pv = st.pvars
    # the point: six cards each; 60 pips in spades against 54 in hearts: the elder's, six
    assert pv["pt"] == [654, 660] and pv["pointv"] == [0, 6]
    # the sequence: two sixiemes, the elder's from the ace is higher: sixteen
    assert pv["sq"] == [66, 68] and pv["seqv"] == [0, 16]
    # the sets: four aces and four kings beat three queens: 14 + 14, the trios count for nothing
    assert pv["st"][1] > pv["st"][0] and pv["setv"] == [0, 28]
    # thirty reached in hand before the younger counts one: a repique, ninety for thirty
    assert st.vars["repiqued"] == 1 and pv["tally"] == [0, 50 + 60]


@pytest.mark.parametrize("seed", range(6))
def test_piquet_play_counts_and_the_cards(seed):
    """One for each card led of a ten or above (Hoyle's Games, Improved: "counting one for
    each, except it be a nine or an inferior card"), one for a trick won by the second
    player, two for the last trick, ten for the cards, forty for the capot."""
    st = State(load_game("piquet/hoyle"), 2, seed, hands=1, keep_events=True)
    first = FirstAgent()
    while st.decision_kind() != "play":
        st.apply(first.choose(st, st.current_player(), st.legal_moves()))
    in_hand = st.pvars["tally"][:]
    while not st.is_terminal():
        st.apply(first.choose(st, st.current_player(), st.legal_moves()))
    st.check_invariants()
    tricks = [e for e in st.events if e["type"] == "trick"]
    plays = [e for e in st.events if e["type"] == "play"]
    assert len(tricks) == 12 and max(st.pvars["score"]) < 101  # a hand played out
    counted = [0, 0]
    for k, t in enumerate(tricks):
        leader, led = plays[2 * k]["seat"], plays[2 * k]["card"]
        lead = 1 if led[:-1] in ("10", "J", "Q", "K", "A") else 0
        counted[leader] += lead
        if t["winner"] != leader:
            counted[t["winner"]] += 1
        if k == 11:  # the last trick counts two
            counted[t["winner"]] += 2 - lead if t["winner"] == leader else 1
    won = Counter(t["winner"] for t in tricks)
    for s in (0, 1):
        counted[s] += 40 if won[s] == 12 else 10 if won[s] > 6 else 0
    elder = 1 - st.dealer
    pique = [30 if st.vars["piqued"] and s == elder else 0 for s in (0, 1)]
    assert st.pvars["score"] == [in_hand[s] + counted[s] + pique[s] for s in (0, 1)]


@pytest.mark.parametrize("seed", range(15))
def test_piquet_reckoning_as_computed_here(seed):
    g = load_game("piquet/hoyle")
    st = State(g, 2, seed, keep_events=True)
    rng = random.Random(seed)
    while st.decision_kind() != "play":
        st.apply(rng.choice(st.legal_moves()))
    held = [measure(names(st.hand[s])) for s in (0, 1)]
    for s in (0, 1):
        o = 1 - s
        for k in ("sq", "seqlen", "seqbig", "st"):
            assert st.pvars[k][s] == held[s][k], (k, names(st.hand[s]))
        assert st.pvars["pt"][s] == held[s]["point"]
        assert st.pvars["pointv"][s] == (held[s]["point"] // 100 if held[s]["point"] > held[o]["point"] else 0)
        best_seq = held[s]["seqlen"] + 10 * held[s]["seqbig"]
        assert st.pvars["seqv"][s] == (best_seq if held[s]["sq"] > held[o]["sq"] else 0)
        assert st.pvars["setv"][s] == (held[s]["setv"] if held[s]["st"] > held[o]["st"] else 0)
    # the elder took in as many as he laid out (one to five), the younger as many as he did
    deliver = {e["seat"]: len(e["cards"]) for e in st.events if e["type"] == "deliver"}
    assert 1 <= deliver[1 - st.dealer] <= 5
    assert all(len(h) == 12 for h in st.hand)


@pytest.mark.parametrize("seed", range(4))
def test_piquet_games_end_at_101(seed):
    g = load_game("piquet/hoyle")
    st = play(State(g, 2, seed, keep_events=True), make_agents(["random"], 2, seed))
    st.check_invariants()
    assert not st.unfinished and max(st.pvars["score"]) >= 101


# -- Whist ---------------------------------------------------------------------------
@pytest.mark.parametrize("options,game_at", [((), 10), (("short",), 5)])
@pytest.mark.parametrize("seed", range(8))
def test_whist_rubber_of_three_games(options, game_at, seed):
    g = load_game("whist/hoyle", options)
    st = play(State(g, 4, seed, keep_events=True), make_agents(["random"], 4, seed))
    st.check_invariants()
    games = st.pvars["games"]
    assert games[0] == games[2] and games[1] == games[3]  # partners share their games
    assert max(games) == 2 and min(games) <= 1
    # replay the scores from the events: tricks above six, then honours, unless the side stood at
    # nine (four) when the deal began or a side went out by its tricks
    score, won_games = [0, 0], [0, 0]
    for hand in hands_of(st.events):
        dealer = hand[0]["dealer"]
        deal = next(x for x in hand if x["type"] == "deal")["hands"]
        turn = next(x for x in hand if x["type"] == "turnup")
        held = [list(h) for h in deal]
        held[dealer].append(turn["card"])
        tricks = Counter(x["winner"] % 2 for x in hand if x["type"] == "trick")
        honours = Counter(
            s % 2 for s in range(4) for c in held[s] if c[-1] == turn["trump"] and c[:-1] in ("A", "K", "Q", "J")
        )
        standing = list(score)
        for side in (0, 1):
            score[side] += max(0, tricks[side] - 6)
        for side in (0, 1):
            if honours[side] >= 3 and standing[side] < game_at - 1 and max(score) < game_at:
                score[side] += 4 if honours[side] == 4 else 2
        if max(score) >= game_at:
            assert min(score) < game_at  # one game a deal
            for side in (0, 1):
                won_games[side] += score[side] >= game_at
            score = [0, 0]
    assert won_games == [games[0], games[1]]


# -- Écarté --------------------------------------------------------------------------
ECARTE_DEAL = {
    "hands": [["7S", "8S", "9D", "10C", "KH"], ["QS", "8H", "7D", "JC", "AC"]],
    "turnup": ["KS"],
    "stock": ["QH", "JH", "AS", "10S", "9S", "AH", "10H", "9H", "7H", "KD", "QD", "JD", "AD", "10D", "8D", "KC", "QC"]
    + ["9C", "8C", "7C", "JS"],
}


def test_ecarte_king_turned_proposal_accepted_and_discards_drawn_back():
    g = load_game("ecarte/hoyle")
    st = State(g, 2, 0, dealer=0, deal=ECARTE_DEAL, hands=1)
    assert st.trump == "S" and st.pvars["points"] == [1, 0]  # the king turned up: one to the dealer
    assert st.current_player() == 1 and st.decision_kind() == "number"
    st.apply(1)  # the elder proposes
    assert st.current_player() == 0
    st.apply(1)  # the dealer accepts
    for card in ("8H", "7D"):  # the elder throws out two
        st.apply(card)
    st.apply("pass")
    st.apply("10C")  # the dealer one
    st.apply("pass")
    # drawn back from the top of the talon, the elder first
    assert sorted(names(st.hand[1])) == sorted(["QS", "JC", "AC", "QH", "JH"])
    assert sorted(names(st.hand[0])) == sorted(["7S", "8S", "9D", "KH", "AS"])
    assert names(st.zones["discards"]) == ["8H", "7D", "10C"]
    # the elder leads the queen of trumps: the dealer holds no higher spade, so may play any spade
    st.apply("QS")
    assert sorted(names(st.legal_moves())) == ["7S", "8S", "AS"]
    st.apply("AS")
    # the elder leads the knave of hearts: the dealer holds the king of hearts and must win with it
    st.apply("JH")
    assert names(st.legal_moves()) == ["KH"]


def test_ecarte_refused_proposal_means_no_discard():
    g = load_game("ecarte/hoyle")
    st = State(g, 2, 0, dealer=0, deal=ECARTE_DEAL, hands=1, keep_events=True)
    st.apply(1)
    st.apply(0)  # the dealer refuses
    assert st.decision_kind() == "play"
    assert not any(e["type"] == "deliver" for e in st.events)


# -- Hoc -----------------------------------------------------------------------------
HOC_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def hoc_measure(cards):
    by: dict[str, set[int]] = {}
    for c in cards:
        by.setdefault(c[-1], set()).add(HOC_ORDER.index(c[:-1]) + 1)
    point = max(1000 * len(v) + sum(min(10, i) for i in v) for v in by.values())
    runs = []
    for v in by.values():
        for top in v:
            if top + 1 in v:
                continue
            n = 1
            while top - n in v:
                n += 1
            runs.append((n, top))
    good = [(n, top) for n, top in runs if n >= 3]
    ranks = Counter(HOC_ORDER.index(c[:-1]) + 1 for c in cards)
    return {
        "pt": point,
        "sq": max([100 * n + top for n, top in good], default=0),
        "nseq": len(good),
        "tr": max([100 * k + i for i, k in ranks.items() if k >= 3], default=0),
    }


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(8))
def test_hoc_the_three_stakes_go_to_the_best_point_sequence_and_tricon(players, seed):
    g = load_game("hoc/encyclopedie")
    st = State(g, players, seed, keep_events=True)
    assert st.decision_kind() == "play"  # the chances are reckoned before the first card
    held = [hoc_measure(names(st.hand[s])) for s in range(players)]
    for s in range(players):
        assert {k: st.pvars[k][s] for k in ("pt", "sq", "nseq", "tr")} == held[s]
    order = [(st.dealer + 1 + k) % players for k in range(players)]

    def best(key):
        top = max(held[s][key] for s in order)
        return next(s for s in order if held[s][key] == top), top

    pays = [(e["from"], e["to"], e["amount"]) for e in st.events if e["type"] == "pay"]
    assert ("point", best("pt")[0], players) in pays
    who, sq = best("sq")
    if sq:
        assert ("sequence", who, players) in pays
        others = [s for s in range(players) if s != who]
        assert all((s, who, held[who]["nseq"]) in pays for s in others)  # a jeton a sequence from each
    else:
        assert not any(p[0] == "sequence" for p in pays)  # the stake stays for the next hand
    who, tr = best("tr")
    assert (("tricon", who, players) in pays) == (tr > 0)
    play(st, make_agents(["random"], players, seed))
    st.check_invariants()
    assert (
        sum(st.bal[s]["jeton"] for s in range(players))
        + sum(st.bal[z]["jeton"] for z in ("point", "sequence", "tricon"))
        == 100 * players
    )


# -- Euchre --------------------------------------------------------------------------
EUCHRE_DEAL = {
    # hearts turned: the knave of hearts is the right bower, the knave of diamonds the left
    "hands": [["JD", "AS", "7C", "8C", "9S"], ["JH", "AH", "10D", "KD", "QS"]],
    "turnup": ["9H"],
    "stock": ["7S", "8S", "10S", "JS", "KS", "7H", "8H", "10H", "QH", "KH", "7D", "8D", "9D", "QD", "AD"]
    + ["9C", "10C", "JC", "QC", "KC", "AC"],
}


def test_euchre_ordered_up_the_dealer_takes_the_turn_up_and_the_bowers_rank_first():
    g = load_game("euchre/cassell")
    st = State(g, 2, 0, dealer=0, deal=EUCHRE_DEAL, hands=1, keep_events=True)
    assert st.trump == "H" and st.current_player() == 1 and st.decision_kind() == "number"
    st.apply(1)  # the elder orders it up
    assert sorted(names(st.hand[0])) == sorted(["JD", "AS", "7C", "8C", "9S", "9H"])  # the turn-up is the dealer's
    assert st.decision_kind() == "choose" and st.current_player() == 0
    st.apply("7C")  # and he puts one out
    assert names(st.zones["discards"]) == ["7C"]
    st.apply("AH")  # a trump led: the dealer must follow with a trump, the left bower among them
    assert sorted(names(st.legal_moves())) == ["9H", "JD"]
    st.apply("JD")  # the left bower beats the ace of trumps
    assert [e for e in st.events if e["type"] == "trick"][-1]["winner"] == 0
    st.apply("9H")  # the right bower beats the nine
    assert names(st.legal_moves()) == ["JH"]
    st.apply("JH")
    assert [e for e in st.events if e["type"] == "trick"][-1]["winner"] == 1
    # a diamond led: the left bower is a trump, not a diamond; the dealer holds no diamond now
    st.apply("10D")
    assert sorted(names(st.legal_moves())) == ["8C", "9S", "AS"]


@pytest.mark.parametrize("seed", range(10))
def test_euchre_the_maker_scores_or_is_euchred(seed):
    g = load_game("euchre/cassell")
    st = play(State(g, 2, seed, keep_events=True), make_agents(["random"], 2, seed))
    st.check_invariants()
    points = [0, 0]
    for hand in hands_of(st.events):
        dealer = hand[0]["dealer"]
        numbers = [x for x in hand if x["type"] == "number"]
        maker = next((x["seat"] for x in numbers if x["value"] == 1), None)
        won = Counter(x["winner"] for x in hand if x["type"] == "trick")
        if maker is None:
            assert not won  # both passed: the hand is not played
            continue
        assert [x["seat"] for x in numbers][0] == 1 - dealer
        if won[maker] >= 3:
            points[maker] += 2 if won[maker] == 5 else 1
        else:
            points[1 - maker] += 2
    assert st.pvars["points"] == points and max(points) >= 5


# -- Reversis ------------------------------------------------------------------------
def card_points(cards, quinola=False):
    value = {"A": 4, "K": 3, "Q": 2, "J": 1}
    total = sum(value.get(c[:-1], 0) for c in cards)
    if quinola:
        total += ("AD" in cards) + 3 * ("JH" in cards)
    return total


@pytest.mark.parametrize("seed", range(6))
def test_reversis_put_out_take_in_exchange_across_and_the_party(seed):
    g = load_game("reversis/hoyle")
    st = play(State(g, 4, seed, keep_events=True), make_agents(["random"], 4, seed))
    st.check_invariants()
    for hand in hands_of(st.events):
        dealer = hand[0]["dealer"]
        deal = next(x for x in hand if x["type"] == "deal")["hands"]
        assert [len(h) for h in deal] == [12 if s == dealer else 11 for s in range(4)]
        assert not any(c.startswith("10") for h in deal for c in h)
        put_out = [x for x in hand if x["type"] == "deliver" and x["to"] == "party"]
        across = [x for x in hand if x["type"] == "deliver" and x["to"] == "hand"]
        assert len(put_out) == 4 and all(len(x["cards"]) == 1 for x in put_out)
        assert sorted((x["seat"], x["to_seat"]) for x in across) == [(s, (s + 2) % 4) for s in range(4)]
        taken = {x["seat"] for x in hand if x["type"] == "take" and x.get("to") == "hand"}
        assert taken <= {s for s in range(4) if s != dealer}  # the dealer does not take in
        # each seat's cards at the first lead are the cards it plays; who renounced holding the suit
        held = {s: [x["card"] for x in hand if x["type"] == "play" and x["seat"] == s] for s in range(4)}
        left = {s: list(held[s]) for s in range(4)}
        renounced, led, tricks = set(), None, {s: [] for s in range(4)}
        won: Counter = Counter()
        plays = [x for x in hand if x["type"] in ("play", "trick")]
        for x in plays:
            if x["type"] == "trick":
                tricks[x["winner"]] += x["cards"]
                won[x["winner"]] += 1
                led = None
                continue
            s, c = x["seat"], x["card"]
            led = led or c[-1]
            left[s].remove(c)
            if c[-1] != led and any(k[-1] == led for k in left[s]):
                renounced.add(s)
        esp = {
            s
            for s in range(4)
            if sum(c[0] == "A" for c in held[s]) >= 2 and sum(c[0] == "A" or c in ("JH", "QH") for c in held[s]) >= 4
        }
        assert renounced <= esp  # only the espagnolette renounces holding the suit
        pts = [card_points(tricks[s]) for s in range(4)]
        party = [c for x in hand if x["type"] in ("deliver", "take") and x.get("to") == "party" for c in x["cards"]]
        assert sum(pts) + card_points(party) == 40
        winners = [x["winner"] for x in plays if x["type"] == "trick"]
        party_pays = [
            x
            for x in hand
            if x["type"] == "pay" and x["rule"][:4] in (["hand", "settle", "do", 0], ["hand", "settle", "do", 1])
        ]
        if len(set(winners[:9])) == 1:  # the reversis undertaken: no party
            assert party_pays == []
            continue
        played = esp & renounced

        def key(s):
            # the espagnolette played and won first; then fewest points, fewest tricks, he who dealt last
            first = 0 if s in played and won[s] == 0 else 2 if s in played else 1
            return (first, pts[s], won[s], (dealer - s) % 4)

        winner = min(range(4), key=key)
        value = 4 + card_points(party, quinola=True)
        assert {x["to"] for x in party_pays} == {winner}
        if any(s in played and won[s] > 0 for s in range(4)):  # the espagnolette failed: he pays all
            assert [(x["from"], x["amount"]) for x in party_pays] == [(next(s for s in played if won[s]), 4 * value)]
        else:
            assert sorted((x["from"], x["amount"]) for x in party_pays) == sorted(
                (s, value * (2 if (s - winner) % 4 == 2 else 1)) for s in range(4) if s != winner
            )


def test_ecarte_second_discard_by_agreement():
    g = load_game("ecarte/hoyle", ("second-discard",))
    st = State(g, 2, 0, dealer=0, deal=ECARTE_DEAL, hands=1, keep_events=True)
    for move in (1, 1, "8H", "pass", "pass"):  # propose, accept, the elder throws 8H, the dealer nothing
        st.apply(move)
    assert "QH" in names(st.hand[1]) and st.decision_kind() == "number" and st.current_player() == 1
    for move in (1, 1, "QS", "pass", "7S", "pass"):  # a second proposal, accepted: QS and 7S out
        st.apply(move)
    assert sorted(names(st.hand[1])) == sorted(["7D", "JC", "AC", "QH", "JH"])
    assert sorted(names(st.hand[0])) == sorted(["8S", "9D", "10C", "KH", "AS"])
    assert st.decision_kind() == "play"
    # without the option, the hand is played after one exchange
    st = State(load_game("ecarte/hoyle"), 2, 0, dealer=0, deal=ECARTE_DEAL, hands=1)
    for move in (1, 1, "8H", "pass", "pass"):
        st.apply(move)
    assert st.decision_kind() == "play"
