"""Hoc written by hand for speed: the yardstick of runs by rank, whatever the suit.

The same rules as ``rules/hoc/encyclopedie.yaml`` (two or three players, 52
cards, the ace lowest and the king highest; the first dealer is the lowest of a
card drawn by each, ties drawing again; a hundred jetons each; at each hand
each antes a jeton to each of three stakes, the point, the sequence and the
tricon; shuffle, cut, fifteen each to two or twelve each to three dealt one at
a time from the dealer's next, the rest aside; the point is the longest suit
then its pips (court cards ten, the ace one), the sequence three cards or more
of a suit in order (the longest, then the highest), the tricon three or four of
a rank (four beat three, then the higher rank); each stake goes to the best,
equal ones to the first from the dealer's next; the best sequence also draws
from each other player a jeton for every sequence its holder has; the sequence
and the tricon stay for the next hand when nobody holds one, and their winner
then draws a jeton more from each; the dealer's next begins a run with any
card of his hand, and each in turn plays a card of the next rank, of any suit,
or passes if he holds none; the king, the queen of spades and the jack of
diamonds (the hocs) may be played at any turn for the card required, end the
run and are worth a jeton from each other player; a run ends at the king, at a
hoc, or when every player in turn has passed, and the last to play begins the
next; the first out wins the hand; as many hands as players, the deal passing;
standings by jetons), played by random agents that choose as the interpreter's
random agent does (a card to begin a run uniform among the cards in hand; a
card to follow uniform among the cards of the next rank and the hocs held, a
single one played without a choice). No rule file is read.

It is written the way one would write one game by hand: a card is an int
(``suit * 13 + rank``, rank 0 for the ace … 12 for the king); a hand in play
is thirteen lists, one per rank, of the cards held of it, with its hocs apart;
the stakes are reckoned per suit from sorted ranks. The random generator is
seeded per game, but not as the interpreter seeds it: the two give the same
distributions, not the same games. ``tests/test_direct_yardsticks.py`` plays
the interpreter's deals with the interpreter's choices here and checks each
seat's point, sequence and tricon, the winner, the plays and every seat's
jetons, and replays this file's own random choices in the interpreter.

    python benchmarks/hoc_direct.py -p 2 -n 2000
"""

from __future__ import annotations

import argparse
import random
import time

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PIPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # the point: court cards ten, the ace one
KING = 12
HOCS = frozenset([s * 13 + KING for s in range(4)] + [0 * 13 + 11, 2 * 13 + 10])  # the kings, QS, JD
DEAL = {2: 15, 3: 12}  # players -> cards a hand
START = 100  # jetons each at the start


def card_name(c: int) -> str:
    return RANKS[c % 13] + SUITS[c // 13]


def card_of(name: str) -> int:
    return SUITS.index(name[-1]) * 13 + RANKS.index(name[:-1])


def reckon(cards: list[int]) -> tuple[int, int, int, int]:
    """A hand's (point, best sequence, sequences, best tricon): the point a thousand a card
    of the best suit and its pips; the best sequence a hundred a card and its top card's
    rank (1 for the ace … 13 for the king); the best tricon a hundred a card and its rank
    (0 for none, as for the sequence)."""
    held: list[list[int]] = [[], [], [], []]
    per_rank = [0] * 13
    for c in sorted(cards):
        r = c % 13
        held[c // 13].append(r)
        per_rank[r] += 1
    point = best_seq = nseq = 0
    for ranks in held:
        k = len(ranks)
        if not k:
            continue
        p = 1000 * k
        for r in ranks:
            p += PIPS[r]
        if p > point:
            point = p
        run = 1
        for i in range(1, k + 1):
            if i < k and ranks[i] == ranks[i - 1] + 1:
                run += 1
                continue
            if run >= 3:
                v = 100 * run + ranks[i - 1] + 1
                if v > best_seq:
                    best_seq = v
                nseq += 1
            run = 1
    tricon = 0
    for r in range(13):
        k = per_rank[r]
        if k >= 3 and 100 * k + r + 1 > tricon:
            tricon = 100 * k + r + 1
    return point, best_seq, nseq, tricon


def _top(values: list[int], order: list[int]) -> int:
    """The seat of the greatest value, equal ones to the first in ``order``."""
    best = order[0]
    for s in order:
        if values[s] > values[best]:
            best = s
    return best


def settle(n: int, dealer: int, hands: list[list[int]], money: list[int], pots: list[int], out: dict | None = None):
    """The ante and the three stakes of a hand dealt ``hands``: ``money`` (each seat's
    jetons) and ``pots`` (the point, the sequence, the tricon) changed in place."""
    for s in range(n):
        money[s] -= 3
    pots[0] += n
    pots[1] += n
    pots[2] += n
    m = [reckon(h) for h in hands]
    order = [(dealer + 1 + i) % n for i in range(n)]
    pt = [x[0] for x in m]
    sq = [x[1] for x in m]
    tr = [x[3] for x in m]
    w = _top(pt, order)  # the point is always won
    money[w] += pots[0]
    pots[0] = 0
    if max(sq) > 0:
        w = _top(sq, order)
        extra = 1 if pots[1] > n else 0  # a stake left over from the last hand: a jeton more from each
        each = m[w][2] + extra
        for s in range(n):
            if s != w:
                money[s] -= each
                money[w] += each
        money[w] += pots[1]
        pots[1] = 0
    if max(tr) > 0:
        w = _top(tr, order)
        if pots[2] > n:
            for s in range(n):
                if s != w:
                    money[s] -= 1
                    money[w] += 1
        money[w] += pots[2]
        pots[2] = 0
    if out is not None:
        out.update(pt=pt, sq=sq, nseq=[x[2] for x in m], tr=tr)


def play_hand(rnd, n: int, hands: list[list[int]], dealer: int, money: list[int], script=None, trace=None):
    """The play of one hand from the deal (``hands``: each seat's cards), ``money`` changed
    in place by the hocs. Returns (the winner, plays). ``script``: an iterator of the cards
    chosen (to begin a run, or among several that may follow), instead of random choices (a
    card that may not be played is an error). ``trace``: a list the random choices are
    added to, as a script gives them."""
    held = []  # each seat's cards by rank
    hocs = []  # each seat's hocs
    counts = []
    for h in hands:
        by: list[list[int]] = [[] for _ in range(13)]
        for c in h:
            by[c % 13].append(c)
        held.append(by)
        hocs.append([c for c in h if c in HOCS])
        counts.append(len(h))
    played = [0] * 13  # cards played of each rank
    plays = 0
    seat = (dealer + 1) % n
    while True:
        # a new run: any card of the player's hand
        by = held[seat]
        if script is None:
            i = int(rnd() * counts[seat])
            for r in range(13):
                if i < len(by[r]):
                    break
                i -= len(by[r])
            c = by[r].pop(i)
            if trace is not None:
                trace.append(c)
        else:
            c = next(script)
            r = c % 13
            if c not in by[r]:
                raise ValueError(f"{card_name(c)} is not in seat {seat}'s hand")
            by[r].remove(c)
        while True:  # c, of rank r, is played by seat
            plays += 1
            counts[seat] -= 1
            played[r] += 1
            if c in HOCS:
                hocs[seat].remove(c)
                for s in range(n):
                    if s != seat:
                        money[s] -= 1
                money[seat] += n - 1
                if not counts[seat]:
                    return seat, plays
                break  # a hoc ends the run: its player begins the next
            if not counts[seat]:
                return seat, plays
            j = r + 1
            if played[j] == 4:  # none of the next rank left (a king ends the run as a hoc)
                break
            last = seat
            for k in range(1, n + 1):  # each in turn, the last player too, plays or passes
                o = (last + k) % n
                options = held[o][j]
                if hocs[o]:
                    options = options + [h for h in hocs[o] if h % 13 != j]
                if options:
                    break
            else:  # every player has passed: the last to play begins the next run
                break
            seat = o
            if len(options) == 1:
                c = options[0]
            elif script is None:
                c = options[int(rnd() * len(options))]
                if trace is not None:
                    trace.append(c)
            else:
                c = next(script)
                if c not in options:
                    raise ValueError(f"{card_name(c)} may not be played by seat {seat}")
            r = c % 13
            held[seat][r].remove(c)


def play_game(n: int, rng: random.Random, log: list | None = None):
    """One game of ``n`` players (as many hands as players, the deal passing): (jetons by
    seat, plays, the first dealer). ``log``: a list each hand's (winner, plays) is added to."""
    per = DEAL[n]
    pack = list(range(52))
    seats = list(range(n))
    while len(seats) > 1:  # each draws a card, the lowest deals; equal ones draw again
        drawn = [c % 13 for c in rng.sample(pack, len(seats))]
        least = min(drawn)
        seats = [s for s, r in zip(seats, drawn) if r == least]
    dealer = first = seats[0]
    money = [START] * n
    pots = [0, 0, 0]
    plays = 0
    for _ in range(n):
        rng.shuffle(pack)
        at = rng.randint(1, 51)  # cut at the dealer's left
        cut = pack[at:] + pack[:at]
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(per * n):  # one at a time from the dealer's next
            hands[(dealer + 1 + i) % n].append(cut[i])
        settle(n, dealer, hands, money, pots)
        w, p = play_hand(rng.random, n, hands, dealer, money)
        plays += p
        if log is not None:
            log.append((w, p))
        dealer = (dealer + 1) % n
    return money, plays, first


def run_games(n: int, games: int, seed="0") -> dict:
    """``games`` games of ``n`` players; a report shaped like the interpreter's Tally."""
    wins = [0.0] * n
    plays = 0
    for g in range(games):
        money, p, _ = play_game(n, random.Random(f"{seed}/{g}"))
        plays += p
        top = max(money)
        tied = [s for s in range(n) if money[s] == top]
        for s in tied:
            wins[s] += 1 / len(tied)
    return {
        "games": games,
        "players": n,
        "wins_by_seat": wins,
        "unfinished": 0,
        "hands": games * n,
        "hand_plays": {"mean": plays / (games * n) if games else 0},
        "totals": {"plays": plays},
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-p", "--players", type=int, default=2, choices=sorted(DEAL))
    ap.add_argument("-n", "--games", type=int, default=2000)
    ap.add_argument("-s", "--seed", default="0")
    a = ap.parse_args(argv)
    t = time.process_time()
    rep = run_games(a.players, a.games, a.seed)
    dt = time.process_time() - t
    print(rep)
    print(f"{a.games / dt:,.0f} games/s, {rep['totals']['plays'] / dt:,.0f} plays/s")


if __name__ == "__main__":
    main()
