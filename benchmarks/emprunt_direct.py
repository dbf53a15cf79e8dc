"""Emprunt written by hand for speed: the yardstick of the stops family (runs of a suit).

The same rules as ``rules/emprunt/lacombe.yaml`` (three to six players; 52
cards, the aces and twos taken out for four or fewer, the threes too for
three; the sequence order A 2 3 … K, the ace lowest; the first dealer is the
lowest of a card drawn by each, ties drawing again; shuffle, cut, the cards
dealt one at a time from the dealer's next, 12 each to three, 10 to four or
five, 8 to six, the rest to the talon; each antes a jeton to the pool; the
dealer's next leads any card of his hand, and each in turn after him plays the
next card of its suit, going round the suit past the king to its lowest card
until the whole suit is played; the card is taken from his hand, else borrowed
from the player who holds it for a jeton to him, else drawn from the talon for
a jeton to the pool; the player of a suit's last card begins a new run with
any card of his hand; the first whose hand is empty after a card is played,
the player first, then the lender, wins the hand, sweeps the pool and takes
from each other player a jeton a card left in his hand; one hand a game;
standings by jetons), played by random agents that choose as the
interpreter's random agent does (a card to begin a run uniform among the
cards in hand; no other choice is ever a player's). No rule file is read.

It is written the way one would write one game by hand: a card is an int
(``suit * 13 + rank``, rank 0 for the ace … 12 for the king), each card's
place (a seat, or ``TALON``) is one list indexed by the card, and the next
card of a run is worked out from the last one's rank. The random generator is
seeded per game, but not as the interpreter seeds it: the two give the same
distributions, not the same games. ``tests/test_direct_yardsticks.py`` plays
the interpreter's deals with the interpreter's choices here and checks the
winner, the plays, borrows and draws and each seat's jetons.

    python benchmarks/emprunt_direct.py -p 4 -n 2000
"""

from __future__ import annotations

import argparse
import random
import time

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TALON = -1
# players -> (the lowest rank in the pack, cards a hand)
DEAL = {3: (3, 12), 4: (2, 10), 5: (0, 10), 6: (0, 8)}


def card_name(c: int) -> str:
    return RANKS[c % 13] + SUITS[c // 13]


def card_of(name: str) -> int:
    return SUITS.index(name[-1]) * 13 + RANKS.index(name[:-1])


def pack_of(n: int) -> list[int]:
    low = DEAL[n][0]
    return [s * 13 + r for s in range(4) for r in range(low, 13)]


def play_hand(rnd, n: int, hands: list[list[int]], talon: list[int], dealer: int, script=None, trace=None):
    """One hand from the deal (``hands``: each seat's cards, ``talon``).
    Returns (the winner, each seat's jetons won or lost, plays, borrows,
    draws). ``script``: an iterator of the cards that begin the runs, instead
    of random choices (a card not in the player's hand is an error).
    ``trace``: a list the random choices are added to, as a script gives them."""
    low = DEAL[n][0]
    where = [TALON] * 52
    for s in range(n):
        for c in hands[s]:
            where[c] = s
    money = [-1] * n  # the ante
    pool = n
    plays = borrows = draws = 0
    seat = (dealer + 1) % n
    winner = -1
    while winner < 0:
        # a new run: any card of the player's hand
        h = hands[seat]
        if script is None:
            c = h.pop(int(rnd() * len(h)))
            if trace is not None:
                trace.append(c)
        else:
            c = next(script)
            if where[c] != seat:
                raise ValueError(f"{card_name(c)} is not in seat {seat}'s hand")
            h.remove(c)
        start = c
        plays += 1
        if not h:
            winner = seat
            break
        while True:
            r = c % 13 + 1
            c = c + 1 if r < 13 else c - 12 + low  # past the king, the suit's lowest card
            if c == start:  # the whole suit played: its last card's player begins the next run
                break
            seat = (seat + 1) % n
            holder = where[c]
            if holder == seat:
                hands[seat].remove(c)
            elif holder == TALON:
                talon.remove(c)
                money[seat] -= 1
                pool += 1
                draws += 1
            else:
                hands[holder].remove(c)
                money[seat] -= 1
                money[holder] += 1
                borrows += 1
            plays += 1
            if not hands[seat]:
                winner = seat
                break
            if holder != seat and holder != TALON and not hands[holder]:
                winner = holder
                break
    money[winner] += pool
    for s in range(n):
        if s != winner:
            k = len(hands[s])
            money[s] -= k
            money[winner] += k
    return winner, money, plays, borrows, draws


def play_game(n: int, rng: random.Random):
    """One game (one hand) of ``n`` players: (the winner, jetons by seat, plays, borrows, draws)."""
    low, per = DEAL[n]
    # the first dealer: each draws a card, the lowest in the sequence deals; ties draw again
    pack = pack_of(n)
    seats = list(range(n))
    while len(seats) > 1:
        drawn = [c % 13 for c in rng.sample(pack, len(seats))]
        least = min(drawn)
        seats = [s for s, r in zip(seats, drawn) if r == least]
    dealer = seats[0]
    rng.shuffle(pack)
    at = rng.randint(1, len(pack) - 1)  # cut by the dealer's previous
    pack = pack[at:] + pack[:at]
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(per * n):  # one at a time from the dealer's next
        hands[(dealer + 1 + i) % n].append(pack[i])
    return play_hand(rng.random, n, hands, pack[per * n :], dealer)


def run_games(n: int, games: int, seed="0") -> dict:
    """``games`` games of ``n`` players; a report shaped like the interpreter's Tally."""
    wins = [0] * n
    plays = borrows = draws = 0
    for g in range(games):
        w, _, p, b, d = play_game(n, random.Random(f"{seed}/{g}"))
        wins[w] += 1
        plays += p
        borrows += b
        draws += d
    return {
        "games": games,
        "players": n,
        "wins_by_seat": wins,
        "unfinished": 0,
        "hands": games,
        "hand_plays": {"mean": plays / games if games else 0},
        "totals": {"plays": plays, "borrows": borrows, "draws": draws},
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-p", "--players", type=int, default=4, choices=sorted(DEAL))
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
