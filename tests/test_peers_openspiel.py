"""The modern relatives of the vying and banking families, written as concept files, played against
another engine's own versions of them: OpenSpiel's ``kuhn_poker``, ``leduc_poker`` and ``blackjack``.

Each game is dealt the same on both sides (OpenSpiel's chance outcomes, in the order it asks for
them, are our stacked pack, top card first) and played by random legal moves, drawn on OpenSpiel's
side and mapped to ours: at every decision the seat to move and the legal moves, mapped, are the
same on both sides, and at the end every seat's return is. Where a concept file departs from the
peer's game it is laid over by a variant that plays the peer's rules (``drawing_blackjack.yaml``
over ``drawing.yaml``: one chip, not a stake of one to three, and the player may hit at 21)."""

import random
from pathlib import Path

import pytest

import academie

pyspiel = pytest.importorskip("pyspiel")

CONCEPTS = Path(__file__).parent / "concepts"
GAMES = 1000  # seeded games per peer: a second or two each


def _play(ours, n, peer, cards, names, ours_of, to_peer_seat, rng):
    """One game, dealt ``cards`` (OpenSpiel's chance outcomes, in order): random legal moves of the
    peer mapped to ours by ``ours_of(peer_state, action, our_legal_moves)``. Returns the number of
    decisions compared and both sides' returns (ours by peer seat)."""
    state = ours.new_state(players=n, seed=0, deck=[names[c] for c in cards])
    ps = peer.new_initial_state()
    deal = iter(cards)
    decisions = 0
    while True:
        while ps.is_chance_node():
            c = next(deal)
            assert c in [a for a, _ in ps.chance_outcomes()]
            ps.apply_action(c)
        # our decisions with one move only are not decisions of the peer's (the dealer's turn-ups)
        while (
            not state.is_terminal()
            and len(state.legal_actions()) == 1
            and (ps.is_terminal() or to_peer_seat(state.current_player()) != ps.current_player())
        ):
            state.apply_action(state.legal_actions()[0])
        if ps.is_terminal():
            break
        assert not state.is_terminal(), "our game ended before the peer's"
        seat = state.current_player()
        assert to_peer_seat(seat) == ps.current_player()
        moves = state.legal_moves()
        mapped = {a: ours_of(ps, a, moves) for a in ps.legal_actions()}
        assert sorted(mapped.values()) == sorted(moves), (ps.history(), moves, mapped)
        a = rng.choice(ps.legal_actions())
        ps.apply_action(a)
        state.apply(mapped[a])
        decisions += 1
    assert state.is_terminal(), "the peer's game ended before ours"
    ret = state.returns()
    mine = [0.0] * len(ps.returns())
    for s in range(n):
        p = to_peer_seat(s)
        if p is not None:
            mine[p] = ret[s]
    return decisions, mine, list(ps.returns())


def _agree(ours, n, peer, deal_size, names, ours_of, to_peer_seat=lambda s: s, pack=None):
    pack = pack if pack is not None else list(range(deal_size))
    decisions = 0
    for g in range(GAMES):
        rng = random.Random(f"peer/{g}")
        cards = rng.sample(pack, len(pack))
        d, mine, theirs = _play(ours, n, peer, cards, names, ours_of, to_peer_seat, rng)
        assert mine == theirs, (g, cards[:8], mine, theirs)
        decisions += d
    return decisions


def _kuhn_move(ps, a, moves):
    # Pass: check, or fold to a bet; Bet: bet, or call one
    facing = "call" in moves
    return ("fold" if facing else "check") if a == 0 else ("call" if facing else "bet")


def test_kuhn_poker_agrees_with_openspiel():
    ours = academie.load_game(str(CONCEPTS / "betting.yaml"))
    names = {0: "JS", 1: "QS", 2: "KS"}
    decisions = _agree(ours, 2, pyspiel.load_game("kuhn_poker"), 3, names, _kuhn_move)
    assert decisions > 2 * GAMES


def _leduc_move(ps, a, moves):
    # Fold; Call: check, or call a bet; Raise: bet, or raise one
    if a == 0:
        return "fold"
    if a == 1:
        return "call" if "call" in moves else "check"
    return "raise" if "raise" in moves else "bet"


def test_leduc_poker_agrees_with_openspiel():
    ours = academie.load_game(str(CONCEPTS / "betting_rounds.yaml"))
    names = {c: "JQK"[c // 2] + "SH"[c % 2] for c in range(6)}  # OpenSpiel's card c: rank c // 2
    decisions = _agree(ours, 2, pyspiel.load_game("leduc_poker"), 6, names, _leduc_move)
    assert decisions > 3 * GAMES


def _blackjack_move(ps, a, moves):
    return 1 if a == 0 else 0  # Hit: the number 1 (hit), Stand: 0 (stand)


def test_blackjack_agrees_with_openspiel():
    ours = academie.load_game(str(CONCEPTS / "drawing_blackjack.yaml"))
    # OpenSpiel's card c: suit "CDHS"[c // 13], rank "A23456789TJQK"[c % 13]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    names = {c: ranks[c % 13] + "CDHS"[c // 13] for c in range(52)}
    # the dealer is our seat 0 and no player of OpenSpiel's; the player is our seat 1, its 0
    decisions = _agree(
        ours, 2, pyspiel.load_game("blackjack"), 52, names, _blackjack_move, lambda s: s - 1 if s else None
    )
    assert decisions > GAMES
