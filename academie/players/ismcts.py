"""Information-set Monte Carlo tree search (single-observer IS-MCTS with the
ISUCT rule of Cowling, Powley and Whitehouse, 2012).

Each iteration draws a world the seat to move cannot tell from the state
(``State.resample``: the unseen cards placed afresh, consistent with all it
has seen), then walks one tree shared by every world: a node is the sequence
of moves made since the root, and its children are the moves taken from it.
Moves are public (a card played face up, a declaration), so every world
that agrees with the root agrees along a path; only the moves legal in this
world are candidates, and each candidate's *availability* (how often it was
legal when its parent was visited) stands for the parent's visits in the
exploration term. At a node with an untried legal move, one is tried at
random and the rest of the hand (or game) is played at random, no new stake
named (``stakes``: docs/players.md); the score of each seat (its score by the
rules' standings, less the table's mean, scaled to [0, 1] by the least and
greatest seen in this search) is added to each node on the path for the seat
that moved into it. The move of the root
visited most is chosen (ties: the better mean, then canonical order).

With ``root="paired"`` the root is not chosen by UCT: each round draws one
world and searches every legal root move once in it, each on a copy of that
world with the same random generator seeded alike (one seed a round, for the
walk below the root and the playout: common random numbers, as ``mc``), so
that what the world already settles (a stake lying, the cards to come) falls
alike on every move compared, not drawn again for each; below the root the
tree is walked as above. Rounds are whole (the iterations, counted in moves
searched, are rounded up to a round); every move is then searched as often,
so the root's choice is the move with the best mean (ties: canonical order).

OpenSpiel's ``ISMCTSBot`` keys its nodes by the mover's information-state
string; moves here are public, so the move sequence names the same node for
the searching seat, at a fraction of the cost.
"""

from __future__ import annotations

import math
import random

from ..api import State
from . import Player, playout


class _Node:
    __slots__ = ("visits", "total", "avail", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0  # the sum of the scores of the seat that moved into this node
        self.avail = 0
        self.children: dict[int, _Node] = {}


class ISMCTS(Player):
    """IS-MCTS; ``iterations`` worlds per decision (or ``time`` seconds), UCT
    constant ``c`` over scores scaled to [0, 1]."""

    name = "ismcts"
    PARAMS = {
        "iterations": (int, 300, "iterations (worlds searched) per decision"),
        "time": (float, None, "seconds per decision at most (stops before the iterations if sooner)"),
        "c": (float, 0.7, "the exploration constant of UCT, for scores scaled to [0, 1]"),
        "horizon": (str, "hand", "play out to the end of the hand in progress ('hand') or of the game ('game')"),
        "stakes": (
            str,
            "lie",
            "in a playout, name no new stake ('lie': the stakes as they lie are settled) or stake at random ('random')",
        ),
        "root": (
            str,
            "ucb",
            "the root's moves chosen by UCT in a world each ('ucb') or each searched once in every world drawn, "
            "with the same random play (common random numbers), the best mean chosen ('paired')",
        ),
    }

    iterations: int
    time: float | None
    c: float
    horizon: str
    stakes: str
    root: str

    def search(self, state: State, legal: list[int]) -> int:
        if self.root == "paired":
            return self._paired(state, legal)
        seat = state.current_player()
        assert seat is not None
        rng = self.rng
        players = state.players
        horizon = self.horizon
        c = self.c
        root = _Node()
        lo, hi = math.inf, -math.inf
        hand = state.hand_no
        go = self._budget()
        i = 0
        while go(i):
            i += 1
            world = state.resample(seat, rng)
            path: list[tuple[_Node, int]] = []
            _descend(world, root, path, rng, hand, horizon, c, lo, hi)
            scores = playout(world, players, rng, horizon, self.stakes)
            lo = min(lo, *scores)
            hi = max(hi, *scores)
            _back_up(path, scores)
        kids = root.children

        def rank(a: int) -> tuple:
            ch = kids.get(a)
            return (ch.visits, ch.total / ch.visits) if ch is not None and ch.visits else (0, -math.inf)

        return max(legal, key=rank)

    def _paired(self, state: State, legal: list[int]) -> int:
        """``root="paired"``: every root move searched once in each world drawn, with one seed a round."""
        seat = state.current_player()
        assert seat is not None
        rng = self.rng
        players = state.players
        horizon = self.horizon
        stakes = self.stakes
        c = self.c
        root = _Node()
        kids = [root.children.setdefault(a, _Node()) for a in legal]
        lo, hi = math.inf, -math.inf
        hand = state.hand_no
        k = len(legal)
        go = self._budget()
        i = 0
        while go(i):
            i += k
            drawn = state.resample(seat, rng)
            seed = rng.getrandbits(64)
            for j in range(k):
                r = random.Random(seed)
                world = drawn.clone() if j < k - 1 else drawn
                first = kids[j]
                world.apply_action(legal[j])
                path: list[tuple[_Node, int]] = [(first, seat)]
                if first.visits:
                    _descend(world, first, path, r, hand, horizon, c, lo, hi)
                scores = playout(world, players, r, horizon, stakes)
                lo = min(lo, *scores)
                hi = max(hi, *scores)
                _back_up(path, scores)
        totals = [ch.total for ch in kids]  # every move searched as often: the best total is the best mean
        return legal[max(range(k), key=totals.__getitem__)]


def _descend(
    world: State,
    node: _Node,
    path: list[tuple[_Node, int]],
    rng: random.Random,
    hand: int,
    horizon: str,
    c: float,
    lo: float,
    hi: float,
) -> None:
    """Walk the tree from ``node`` in ``world`` to the end of the hand (or game), appending to ``path`` each
    node entered with the seat that moved into it: among tried moves the best by UCT (means scaled by the
    least ``lo`` and greatest ``hi`` score seen), or, at a node with an untried legal move, one tried at
    random and the walk ended there. Every legal move's availability is counted as the node is passed."""
    span = hi - lo if hi > lo else 1.0
    while not world.is_terminal() and (horizon == "game" or world.hand_no == hand):
        mover = world.current_player()
        assert mover is not None
        acts = world.legal_actions()
        children = node.children
        untried = []
        for a in acts:
            ch = children.get(a)
            if ch is None:
                untried.append(a)
            else:
                ch.avail += 1
        if untried:
            a = untried[int(rng.random() * len(untried))] if len(untried) > 1 else untried[0]
            ch = children[a] = _Node()
            ch.avail = 1
            world.apply_action(a)
            path.append((ch, mover))
            return
        best, best_v = acts[0], -math.inf
        for a in acts:
            ch = children[a]
            v = ((ch.total / ch.visits) - lo) / span + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if v > best_v:
                best, best_v = a, v
        node = children[best]
        world.apply_action(best)
        path.append((node, mover))


def _back_up(path: list[tuple[_Node, int]], scores: list[float]) -> None:
    """Each node on the path visited once more, with the score of the seat that moved into it."""
    for ch, mover in path:
        ch.visits += 1
        ch.total += scores[mover]
