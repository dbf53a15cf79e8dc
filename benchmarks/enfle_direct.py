"""L'Enflé written by hand for speed: the yardstick the interpreter is measured against.

The same rules as ``rules/enfle/academie.yaml`` (4 to 8 players, 52 cards,
K Q J 10 … 2 A with the ace lowest; the deal table and batches by player count
with a stock; play goes to seat + 1 and the first leader is the dealer's next;
follow suit; a player who cannot follow picks up the cards already played to
the trick, the trick is over and he leads; otherwise the highest card of the
suit led wins the trick, which its winner keeps, and he leads; the hand ends
the moment a player's hand is empty and he wins it; each player starts with n
chips and antes one into a pot before each hand, which the hand's winner takes;
n hands, the deal passing to seat + 1; standings by chips), played by random
agents that choose uniformly among the legal moves. No rule file is read.

It is written the way one would write one game by hand: a card is an int
(``suit * 13 + strength``, strength 0 for the ace … 12 for the king); a hand
is four lists of strengths, one per suit, so the legal follows are simply the
list of the suit led. The random generator is seeded per game, but not as the
interpreter seeds it: the two give the same distributions, not the same games.

    python benchmarks/enfle_direct.py -p 6 -n 1000
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

DEAL = {4: (12, (3, 3, 3, 3)), 5: (10, (3, 3, 2, 2)), 6: (8, (3, 3, 2)), 7: (7, (3, 2, 2)), 8: (6, (3, 3))}
MAX_PLAYS = 50_000


class Unfinished(Exception):
    pass


def play_game(n: int, rng: random.Random, max_plays: int = MAX_PLAYS):
    """One game of ``n`` players. Returns (chips by seat, plays of each hand,
    unfinished, stats) where stats counts plays, tricks, takes and lead changes."""
    rnd = rng.random
    shuffle = rng.shuffle
    per, batches = DEAL[n]
    chips = [n] * n
    pot = 0
    plays_total = tricks = takes = lead_changes = 0
    hand_plays: list[int] = []
    pack = list(range(52))
    # the dealer: everyone draws, the lowest card (ace lowest) deals; ties draw again
    seats = list(range(n))
    while len(seats) > 1:
        shuffle(pack)
        vals = [pack[i] % 13 for i in range(len(seats))]
        low = min(vals)
        seats = [s for s, v in zip(seats, vals) if v == low]
    dealer = seats[0]
    unfinished = False
    for _ in range(n):
        # ante, shuffle, cut, deal
        for s in range(n):
            chips[s] -= 1
        pot += n
        shuffle(pack)
        at = rng.randint(1, 51)
        pack = pack[at:] + pack[:at]
        hands = [[[], [], [], []] for _ in range(n)]
        counts = [per] * n
        i = 0
        first = dealer + 1
        for size in batches:
            for k in range(n):
                h = hands[(first + k) % n]
                for c in pack[i : i + size]:
                    h[c // 13].append(c % 13)
                i += size
        # play
        leader = first % n
        plays = 0
        winner = -1
        try:
            while winner < 0:
                # the lead: any card of the hand
                h = hands[leader]
                r = int(rnd() * counts[leader])
                for suit in range(4):
                    lst = h[suit]
                    if r < len(lst):
                        break
                    r -= len(lst)
                led = suit
                best = lst.pop(r)
                trick = [best]
                best_seat = leader
                counts[leader] -= 1
                plays += 1
                if counts[leader] == 0:
                    winner = leader
                    break
                seat = leader
                for _k in range(n - 1):
                    seat = seat + 1 if seat + 1 < n else 0
                    lst = hands[seat][led]
                    if not lst:  # cannot follow: picks up the trick and leads
                        lst.extend(trick)
                        counts[seat] += len(trick)
                        takes += 1
                        lead_changes += seat != leader
                        leader = seat
                        break
                    k = len(lst)
                    c = lst.pop(int(rnd() * k)) if k > 1 else lst.pop()
                    trick.append(c)
                    counts[seat] -= 1
                    plays += 1
                    if c > best:
                        best, best_seat = c, seat
                    if counts[seat] == 0:
                        winner = seat
                        break
                else:  # everyone followed: the highest card wins
                    tricks += 1
                    lead_changes += best_seat != leader
                    leader = best_seat
                if plays_total + plays > max_plays:
                    raise Unfinished
        except Unfinished:
            unfinished = True
            plays_total += plays
            hand_plays.append(plays)
            break
        plays_total += plays
        hand_plays.append(plays)
        chips[winner] += pot
        pot = 0
        dealer = (dealer + 1) % n
        pack = list(range(52))
    stats = {"plays": plays_total, "tricks": tricks, "takes": takes, "lead_changes": lead_changes}
    return chips, hand_plays, unfinished, stats


def run_games(n: int, games: int, seed=0) -> dict:
    """``games`` games of ``n`` players; a report shaped like the interpreter's Tally."""
    wins = [0.0] * n
    hist: Counter = Counter()
    totals: Counter = Counter()
    unfinished = 0
    for g in range(games):
        chips, hp, unf, stats = play_game(n, random.Random(f"{seed}/{g}"))
        unfinished += unf
        if not unf:
            top = max(chips)
            winners = [s for s in range(n) if chips[s] == top]
            for s in winners:
                wins[s] += 1 / len(winners)
        hist.update(hp)
        totals.update(stats)
    hands = sum(hist.values())
    return {
        "games": games,
        "players": n,
        "wins_by_seat": wins,
        "unfinished": unfinished,
        "hands": hands,
        "hand_plays": {
            "mean": sum(k * v for k, v in hist.items()) / hands if hands else 0,
            "max": max(hist) if hist else 0,
        },
        "totals": dict(totals),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-p", "--players", type=int, default=4)
    ap.add_argument("-n", "--games", type=int, default=1000)
    ap.add_argument("-s", "--seed", default="0")
    a = ap.parse_args(argv)
    t = time.perf_counter()
    rep = run_games(a.players, a.games, a.seed)
    dt = time.perf_counter() - t
    print(rep)
    print(f"{rep['hands'] / dt:,.0f} hands/s")


if __name__ == "__main__":
    main()
