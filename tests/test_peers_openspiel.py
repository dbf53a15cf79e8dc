"""The modern relatives of the vying and banking families, written as concept files, played against
another engine's own versions of them: OpenSpiel's ``kuhn_poker``, ``leduc_poker`` and ``blackjack``,
and of the patience family, OpenSpiel's Klondike (``solitaire``, ``klondike_openspiel.yaml``).

Each game is dealt the same on both sides (OpenSpiel's chance outcomes, in the order it asks for
them, are our stacked pack, top card first) and played by random legal moves, drawn on OpenSpiel's
side and mapped to ours: at every decision the seat to move and the legal moves, mapped, are the
same on both sides, and at the end every seat's return is. Where a concept file departs from the
peer's game it is laid over by a variant that plays the peer's rules (``drawing_blackjack.yaml``
over ``drawing.yaml``: one chip, not a stake of one to three, and the player may hit at 21)."""

import random
from os import environ
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


# -- Klondike: OpenSpiel's ``solitaire`` (open_spiel/games/solitaire/solitaire.cc) ---------------

KLONDIKE_GAMES = int(environ.get("ACADEMIE_PEER_GAMES", "8"))  # seeded deals, ~100 decisions each: 3 s
_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_OS_SUITS = "SHCD"  # OpenSpiel's suits 1 … 4; its card i (1 … 52): rank (i - 1) % 13, suit (i - 1) // 13
_OPPOSITE = {1: (2, 4), 2: (1, 3), 3: (2, 4), 4: (1, 3)}  # GetOppositeSuits


def _os_name(rank, suit):
    return _RANKS[rank - 1] + _OS_SUITS[suit - 1]


def _os_index(name):
    return _OS_SUITS.index(name[-1]) * 13 + _RANKS.index(name[:-1]) + 1


def _os_move(action):
    """OpenSpiel's move of ``action`` (Move::Move(Action)): (the target, the card moved); the target
    is a card's name, or "tableau" / "foundation" for an empty one."""
    a = action - 52
    if 1 <= a <= 132:
        tr, ts, r = (a - 1) // 3 % 11 + 2, (a - 1) // 33 + 1, (a - 1) % 3
        src = _os_name(tr + 1, ts) if r == 0 else _os_name(tr - 1, _OPPOSITE[ts][r - 1])
        return _os_name(tr, ts), src
    if 133 <= a <= 136:
        return "foundation", _os_name(1, a - 132)
    if 137 <= a <= 140:
        return "tableau", _os_name(13, a - 136)
    if 141 <= a <= 144:
        return _os_name(1, a - 140), _os_name(2, a - 140)
    ts, r = (a - 143) // 2, (a - 143) % 2
    return _os_name(13, ts), _os_name(12, _OPPOSITE[ts][r])


def _target(zones, z):
    return zones[z][-1].name if zones[z] else z.rstrip("1234567")


def _klondike_moves(state):
    """Our moves as OpenSpiel's: {(target, card moved): (the card, the pile it goes to)}."""
    zones = state.engine.zones
    out = {}
    for card in state.legal_moves():
        after = state.clone()
        after.apply(card)
        if after.decision_kind() == "place":
            dests = after.legal_moves()
        else:
            dests = [z for z, cs in after.engine.zones.items() if z != "pack" and any(c.name == str(card) for c in cs)]
        for z in dests:
            key = (_target(zones, z), str(card))
            assert key not in out, ("two of our moves are one of OpenSpiel's", key, out[key], z)
            out[key] = (card, z)
    return out


def _klondike_play(ours, peer, deck, rng):
    """One deal, our ``deck`` (top first): OpenSpiel's chance outcomes are the cards our layout turns
    face up (the columns' last cards, then the waste in order, then each card a move uncovers)."""
    state = ours.new_state(players=1, seed=0, deck=deck)
    ps = peer.new_initial_state()
    zones = state.engine.zones
    reveals = [zones[f"tableau{i}"][-1].name for i in range(1, 8)] + [c.name for c in zones["waste"]]
    decisions = 0
    while True:
        while ps.is_chance_node():
            ps.apply_action(_os_index(reveals.pop(0)))
        assert not reveals
        legal = ps.legal_actions()
        if ps.is_terminal() or legal == [0]:  # kEnd: no move is left
            break
        ours_of = _klondike_moves(state)
        theirs = {_os_move(a): a for a in legal}
        assert sorted(theirs) == sorted(ours_of), (ps.history(), sorted(theirs), sorted(ours_of))
        key = rng.choice(sorted(theirs))
        card, dst = ours_of[key]
        src = next(z for z, cs in zones.items() if card in cs)
        ps.apply_action(theirs[key])
        state.apply(card)
        if state.decision_kind() == "place":
            state.apply(dst)
        if src.startswith("tableau") and state.engine.pile_down[0].get(src, 0) == len(zones[src]) - 1:
            if ps.is_chance_node():  # the move uncovered a card: OpenSpiel reveals it by chance
                reveals.append(zones[src][-1].name)
        decisions += 1
    assert state.is_terminal(), "the peer's game ended before ours"
    return decisions, state.returns(), ps.returns()


def test_klondike_agrees_with_openspiel():
    """OpenSpiel's K+ Klondike (every third card of the waste playable, cards played back from the
    foundations, 150 actions at most, rewards for cards put up, uncovered and taken from the waste),
    written as ``klondike_openspiel.yaml``: the same moves at every decision, the same return.

    Two of OpenSpiel's ways are its code's, not a choice of its rules, and the file plays them:
    positions may come back (``repeat: true``), for the move applied is rebuilt from its action id
    with no location (solitaire.cc:1149, ``Move selected_move = Move(action)``; solitaire.h:109,
    ``location = LocationType::kMissing``), so that ``IsReversible`` answers false (its ``default:``,
    solitaire.cc:1467-1470), the positions seen are cleared after every move (:1157) and
    ``LegalActions`` never refuses one (:1190); and the waste's playable cards are its 1st, 4th,
    7th … (``if (i % 3 == 0)``, :738), not the 3rd, 6th … of a stock turned three at a time.
    ``ACADEMIE_PEER_GAMES=1000`` plays a thousand deals (about five minutes)."""
    ours = academie.load_game(str(CONCEPTS / "klondike_openspiel.yaml"))
    peer = pyspiel.load_game("solitaire")
    pack = [r + s for s in "SHDC" for r in _RANKS]
    decisions = 0
    for g in range(KLONDIKE_GAMES):
        rng = random.Random(f"klondike/{g}")
        d, mine, theirs = _klondike_play(ours, peer, rng.sample(pack, 52), rng)
        assert mine == theirs, (g, mine, theirs)
        decisions += d
    assert decisions > 50 * KLONDIKE_GAMES
