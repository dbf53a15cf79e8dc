"""Whist written by hand for speed: the yardstick of partnership trick games.

The same rules as ``rules/whist/hoyle.yaml`` (four players, seats 0 and 2
partners against 1 and 3; 52 cards, the ace high; the first dealer is the
lowest of a card cut by each, the ace lowest, ties cutting again; shuffle,
cut, thirteen each dealt one at a time from the dealer's left, the last card
turned up for trumps and the dealer's; the honours, the ace, king, queen and
knave of trumps, counted per side; a side standing at eight when the deal
begins that holds three or four honours calls them, scores two or four, and
the hand is not played (the hand is that side's); else the dealer's left leads
to the first trick, each follows suit if able, any card otherwise, the highest
trump or else the highest card of the suit led wins and its winner leads; each
trick above six a point to the side; then three honours two points, four
honours four, to a side that stood below eight when the deal began, unless a
side has reached ten by its tricks; a side at ten wins a game, and both sides
begin the next at love; the rubber is the best of three games, the deal
passing to the left; standings by games won; with ``short``: five points a
game, no call, honours not counted to a side standing at four; the option
``club-eight`` is not written here), played by random agents that choose as
the interpreter's random agent does (each card uniform among the legal ones).
No rule file is read.

It is written the way one would write one game by hand: a card is an int
(``suit * 13 + rank``, rank 0 for the two … 12 for the ace), a hand is four
lists of ranks, one per suit, so the legal follows are simply the list of the
suit led. The random generator is seeded per game, but not as the interpreter
seeds it: the two give the same distributions, not the same games.
``tests/test_direct_yardsticks.py`` plays the interpreter's deals with the
interpreter's cards here and checks, hand by hand, the tricks, the honours,
the honours called, the points, the games and the hand's winner, and the
rubber's standings.

    python benchmarks/whist_direct.py -n 1000
"""

from __future__ import annotations

import argparse
import random
import time

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def card_name(c: int) -> str:
    return RANKS[c % 13] + SUITS[c // 13]


def card_of(name: str) -> int:
    return SUITS.index(name[-1]) * 13 + RANKS.index(name[:-1])


def honours_of(hands: list[list[int]], trump: int) -> list[int]:
    """The honours of trumps (the knave and above) each seat holds."""
    return [sum(1 for c in h if c // 13 == trump and c % 13 >= 9) for h in hands]


def call(honours: list[int], score: list[int], short: bool = False) -> list[int]:
    """The honours called before the play, by side: two or four points to a
    side standing at eight with three or four honours (never at Short Whist).
    The points are added to ``score``."""
    called = [0, 0]
    if not short:
        for s in (0, 1):
            k = honours[s] + honours[s + 2]
            if score[s] == 8 and k >= 3:
                called[s] = 4 if k == 4 else 2
                score[s] += called[s]
    return called


def play_hand(rnd, hands: list[list[int]], trump: int, dealer: int, script=None, trace=None) -> list[int]:
    """Thirteen tricks from the deal (``hands``: each seat's thirteen cards,
    the turned-up card in the dealer's). Returns the tricks won by seat.
    ``script``: an iterator of the cards played, instead of random choices (a
    card that is not legal is an error). ``trace``: a list the random choices
    are added to, as a script gives them."""
    held = []
    for h in hands:
        suits: list[list[int]] = [[], [], [], []]
        for c in h:
            suits[c // 13].append(c % 13)
        held.append(suits)
    counts = [13, 13, 13, 13]
    won = [0, 0, 0, 0]
    leader = (dealer + 1) % 4
    for _ in range(13):
        h = held[leader]
        if script is None:
            r = int(rnd() * counts[leader])
            for led in range(4):
                lst = h[led]
                if r < len(lst):
                    break
                r -= len(lst)
            best = lst.pop(r)
            if trace is not None:
                trace.append(led * 13 + best)
        else:
            c = next(script)
            led, best = c // 13, c % 13
            h[led].remove(best)
        counts[leader] -= 1
        trumped = led == trump
        winner = leader
        for k in (1, 2, 3):
            seat = (leader + k) % 4
            h = held[seat]
            lst = h[led]
            if script is None:
                if lst:  # follow suit
                    r = lst.pop(int(rnd() * len(lst))) if len(lst) > 1 else lst.pop()
                    s = led
                else:  # any card
                    r = int(rnd() * counts[seat])
                    for s in range(4):
                        if r < len(h[s]):
                            break
                        r -= len(h[s])
                    r = h[s].pop(r)
                if trace is not None:
                    trace.append(s * 13 + r)
            else:
                c = next(script)
                s, r = c // 13, c % 13
                if lst and s != led:
                    raise ValueError(f"{card_name(c)} does not follow suit")
                h[s].remove(r)
            counts[seat] -= 1
            if s == trump:
                if not trumped or r > best:
                    trumped, best, winner = True, r, seat
            elif s == led and not trumped and r > best:
                best, winner = r, seat
        won[winner] += 1
        leader = winner
    return won


def score_hand(
    won, honours, called: list[int], score: list[int], games: list[int], dealer: int, short: bool = False
) -> int:
    """Score a hand's tricks and honours into ``score`` and ``games`` (by
    side), the honours ``called`` before the play already in ``score``;
    returns the hand's winner (the first seat from the dealer's left of the
    side that called, else of the side with the odd trick)."""
    game = 5 if short else 10
    standing = [score[0] - called[0], score[1] - called[1]]
    tricks = [won[0] + won[2], won[1] + won[3]]
    for s in (0, 1):
        if tricks[s] > 6:
            score[s] += tricks[s] - 6
    for s in (0, 1):
        k = honours[s] + honours[s + 2]
        if k >= 3 and standing[s] < game - (1 if short else 2) and max(score) < game:
            score[s] += 4 if k == 4 else 2
    if max(score) >= game:
        for s in (0, 1):
            if score[s] >= game:
                games[s] += 1
        score[0] = score[1] = 0
    side = (0 if called[0] else 1) if any(called) else 0 if tricks[0] > 6 else 1
    first = (dealer + 1) % 4
    return first if first % 2 == side else (first + 1) % 4


def play_game(rng: random.Random, short: bool = False, log: list | None = None):
    """One rubber. Returns (games by seat, hands played, cards played). ``log``: a list
    each hand's (winner, score, games) is added to."""
    rnd = rng.random
    pack = list(range(52))
    # the first dealer: each cuts a card, the lowest (the ace lowest) deals; ties cut again
    seats = [0, 1, 2, 3]
    while len(seats) > 1:
        cut = [(c % 13 + 1) % 13 for c in rng.sample(pack, len(seats))]
        least = min(cut)
        seats = [s for s, v in zip(seats, cut) if v == least]
    dealer = seats[0]
    score, games = [0, 0], [0, 0]
    hands = plays = 0
    while max(games) < 2:
        rng.shuffle(pack)
        at = rng.randint(1, 51)  # cut by the dealer's right
        deck = pack[at:] + pack[:at]
        dealt: list[list[int]] = [deck[(3 - dealer + s) % 4 :: 4] for s in range(4)]  # from the left, one at a time
        trump = deck[51] // 13  # the last card, the dealer's, turned up
        honours = honours_of(dealt, trump)
        called = call(honours, score, short)
        won = [0, 0, 0, 0] if any(called) else play_hand(rnd, dealt, trump, dealer)
        w = score_hand(won, honours, called, score, games, dealer, short)
        hands += 1
        plays += 0 if any(called) else 52
        if log is not None:
            log.append((w, score[:], games[:]))
        dealer = (dealer + 1) % 4
    return [games[0], games[1], games[0], games[1]], hands, plays


def run_games(games: int, seed="0", short: bool = False) -> dict:
    """``games`` rubbers; a report shaped like the interpreter's Tally."""
    wins = [0.0] * 4
    hands = plays = 0
    for g in range(games):
        result, h, p = play_game(random.Random(f"{seed}/{g}"), short)
        hands += h
        plays += p
        side = 0 if result[0] > result[1] else 1
        wins[side] += 0.5
        wins[side + 2] += 0.5
    return {
        "games": games,
        "players": 4,
        "wins_by_seat": wins,
        "unfinished": 0,
        "hands": hands,
        "hand_plays": {"mean": plays / hands if hands else 0, "max": 52},
        "totals": {"plays": plays, "tricks": plays // 4},
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--games", type=int, default=1000)
    ap.add_argument("-s", "--seed", default="0")
    ap.add_argument("--short", action="store_true", help="Short Whist, five points a game")
    a = ap.parse_args(argv)
    t = time.process_time()
    rep = run_games(a.games, a.seed, a.short)
    dt = time.process_time() - t
    print(rep)
    print(
        f"{a.games / dt:,.0f} rubbers/s, {rep['hands'] / dt:,.0f} hands/s, {rep['totals']['plays'] / dt:,.0f} plays/s"
    )


if __name__ == "__main__":
    main()
