"""Hoc (rules/hoc/encyclopedie.yaml) played as its sources describe it: the six
hocs (the four kings, the queen of spades, the jack of diamonds) are "assûrées à
celui qui les joue", may be played "pour telles cartes que bon lui semble" and are
worth "un jetton à celui qui la jette"; the runs go by rank "sans tenir compte de
la couleur"; a card lying out stops the run (the Académie's "les six quand tous les
sept sont joués"); nothing is borrowed or drawn (that is Emprunt's play)."""

import pytest

from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PACK = [r + s for s in "SHDC" for r in RANKS]
HOCS = {"KS", "KH", "KD", "KC", "QS", "JD"}


def names(cards):
    return [c.name if hasattr(c, "name") else c for c in cards]


def deal3(h0, h1, h2):
    """A stacked deal for three players (twelve each), the rest lying out."""
    hands = [h.split() for h in (h0, h1, h2)]
    assert all(len(h) == 12 for h in hands)
    held = [c for h in hands for c in h]
    assert len(set(held)) == 36
    return {"hands": hands, "talon": [c for c in PACK if c not in held]}


def hoc(deal):
    # dealer 2: seat 0 is the first in cards and begins the first run
    return State(load_game("hoc/encyclopedie"), 3, 0, dealer=2, deal=deal, hands=1)


def play_pays(st):
    return [(e["from"], e["to"], e["amount"]) for e in st.events if e["type"] == "pay" and "on_play" in e["rule"]]


def test_a_hoc_may_be_played_for_any_card_and_draws_a_jeton_from_each_other_player():
    st = hoc(
        deal3(
            "5H 2C 3C 4C 8D 9D 10D 2S 3S 4S 8S 9S",
            "6D QS 2D 3D 4D AS AC AD AH 10C 10S 10H",
            "6C 7H 7D 2H 3H 4H 5C 5D 5S 8C 9C JC",
        )
    )
    assert st.current_player() == 0
    st.apply("5H")
    assert st.current_player() == 1
    assert sorted(names(st.legal_moves())) == ["6D", "QS"]  # the six, or the queen of spades for it
    before = [st.bal[s]["jeton"] for s in range(3)]
    st.apply("QS")
    assert play_pays(st) == [(0, 1, 1), (2, 1, 1)]  # "vaut un jetton à celui qui la jette"
    assert [st.bal[s]["jeton"] - before[s] for s in range(3)] == [-1, 2, -1]
    # the hoc ends the run: its player begins the next with any card of his hand
    assert st.current_player() == 1
    assert sorted(names(st.legal_moves())) == sorted("6D 2D 3D 4D AS AC AD AH 10C 10S 10H".split())


def test_a_king_ends_the_run_and_pays_its_player():
    st = hoc(
        deal3(
            "KH 2C 3C 4C 8D 9D 10D 2S 3S 4S 8S 9S",
            "6D 5H 2D 3D 4D AS AC AD AH 10C 10S 10H",
            "6C 7H 7D 2H 3H 4H 5C 5D 5S 8C 9C JC",
        )
    )
    st.apply("KH")
    assert play_pays(st) == [(1, 0, 1), (2, 0, 1)]
    assert st.current_player() == 0  # nothing is above the king: he begins again
    assert len(st.legal_moves()) == 11


def test_nothing_is_borrowed_a_player_without_the_rank_passes_and_any_suit_follows():
    st = hoc(
        deal3(
            "5H 8D 9D 2C 3C 4C 2S 3S 4S 8S 9S 10D",
            "2D 3D 4D AS AC AD AH 10C 10S 10H 8H 9H",  # no six and no hoc
            "6C 6D 7H 7D 2H 3H 4H 5C 5D 5S 8C 9C",
        )
    )
    st.apply("5H")
    # seat 1 holds no six: he passes (Emprunt would have him borrow it); seat 2 plays one,
    # of either suit ("peut ne pas tenir compte de la couleur des cartes")
    assert st.current_player() == 2
    assert sorted(names(st.legal_moves())) == ["6C", "6D"]
    assert len(st.hand[1]) == 12 and len(st.hand[2]) == 12
    assert not any(e["type"] in ("borrow", "draw") for e in st.events)
    st.apply("6C")
    assert st.current_player() == 2  # seat 0 and seat 1 hold no seven: the sevens are seat 2's
    assert sorted(names(st.legal_moves())) == ["7D", "7H"]


def test_the_sixes_are_hoc_when_the_sevens_lie_out():
    # the Académie (1878): "toutes les cartes au-dessus desquelles il ne s'en trouve point
    # d'autres, comme les six quand tous les sept sont joués, sont Hoc". Here every seven
    # lies out of play: after a six nobody can follow, and its player begins again.
    st = hoc(
        deal3(
            "6H 2C 3C 4C 2S 3S 4S 8S 9S 10D 8D 9D",
            "2D 3D 4D AS AC AD AH 10C 10S 10H 8H 9H",
            "6C 6D 2H 3H 4H 5C 5D 5S 8C 9C 5H 6S",
        )
    )
    st.apply("6H")
    assert st.current_player() == 0
    assert sorted(names(st.legal_moves())) == sorted("2C 3C 4C 2S 3S 4S 8S 9S 10D 8D 9D".split())
    assert [e["card"] for e in st.events if e["type"] == "play"] == ["6H"]
    assert play_pays(st) == []  # an incidental hoc is not one of the six: it is worth nothing


def _check_runs(events, players):
    """Every card played begins a run, follows the last by one rank (any suit), or is a
    hoc; a run begins only after a hoc, a king, or a rank nobody could play."""
    hands: list[set[str]] = []
    last = None
    rank = {r: i for i, r in enumerate(RANKS)}
    new_run = True
    for e in events:
        t = e["type"]
        if t == "deal":
            hands = [set(h) for h in e["hands"]]
            last, new_run = None, True
        elif t == "run":
            if last is not None:
                nxt = rank[last[:-1]] + 1
                held = any(c[:-1] == RANKS[nxt] for h in hands for c in h) if nxt < 13 else False
                assert last in HOCS or not held, f"a run began after {last} while the next rank was held"
            new_run = True
        elif t == "play":
            c = e["card"]
            assert e["from"] == "hand"
            assert c in hands[e["seat"]]
            if not new_run:
                assert c in HOCS or rank[c[:-1]] == rank[last[:-1]] + 1, (last, c)
            hands[e["seat"]].discard(c)
            last, new_run = c, False
        assert t not in ("borrow", "draw")


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(6))
def test_random_games_follow_the_runs_and_keep_every_jeton(players, seed):
    st = State(load_game("hoc/encyclopedie"), players, seed, keep_events=True)
    play(st, make_agents(["random"], players, seed))
    st.check_invariants()
    _check_runs(st.events, players)
    assert (
        sum(st.bal[s]["jeton"] for s in range(players))
        + sum(st.bal[z]["jeton"] for z in ("point", "sequence", "tricon"))
        == 100 * players
    )
    hoc_pays = [e for e in st.events if e["type"] == "pay" and "on_play" in e["rule"]]
    hocs_played = [e for e in st.events if e["type"] == "play" and e["card"] in HOCS]
    assert len(hoc_pays) == len(hocs_played) * (players - 1)


@pytest.mark.parametrize("players,each,aside", [(2, 15, 22), (3, 12, 16)])
def test_fifteen_cards_each_for_two_twelve_for_three(players, each, aside):
    # "dans le premier cas, on donne quinze cartes à chacun ; & dans le second, douze"
    st = State(load_game("hoc/encyclopedie"), players, 0, hands=1, keep_events=True)
    deal = next(e for e in st.events if e["type"] == "deal")
    assert [len(h) for h in deal["hands"]] == [each] * players
    assert len(deal["talon"]) == aside


def test_the_best_sequence_draws_a_jeton_from_each_player_for_each_sequence_its_holder_has():
    # "celui qui gagne de la séquence, tire un jetton de chaque joueur pour chaque séquence
    # simple qu'il a en main. La premiere qui vaut, fait valoir à celui qui l'a toutes les
    # moindres": seat 0's four hearts beat seat 1's three diamonds, and his three clubs,
    # lesser than seat 1's, count with them: two jetons from each other player.
    st = hoc(
        deal3(
            "5H 6H 7H 8H 2C 3C 4C 2S 9S JS AD 8D",
            "9D 10D JD AS AC AH 10C 10S 10H 3H 5S 6S",
            "6C 6D 2H 4H 9H 5C 5D 8C 9C 7S 3D 4D",
        )
    )
    won = [(e["from"], e["to"], e["amount"]) for e in st.events if e["type"] == "pay" and "sequence_won" in e["rule"]]
    assert won == [(1, 0, 2), (2, 0, 2), ("sequence", 0, 3)]
