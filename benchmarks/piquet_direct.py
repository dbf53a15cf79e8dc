"""Piquet written by hand for speed: a second yardstick for the interpreter.

The same rules as ``rules/piquet/hoyle.yaml`` (two players, 32 cards, 7 8 9 10
J Q K A with the ace highest; the first dealer is the lower of two cards drawn,
ties drawing again; shuffle, cut, twelve each dealt two at a time from the
elder hand, eight to the talon; carte blanche, ten, for a hand dealt without a
king, queen or knave; the elder lays out one to five cards and takes as many
from the top of the talon, then the younger lays out up to what is left and
takes as many; the point, the sequence and the sets, each counted only by the
holder of the better (equal: neither): the point one a card of the longest
suit (its pips breaking a tie), every sequence of three or more its cards and
ten more from five cards, each quatorze of tens or higher fourteen and each
trio three; thirty in hand before the adversary counts one makes a repique,
sixty more; twelve tricks led by the elder, follow suit if able, any card
otherwise, the higher card of the suit led wins; one for each card led of a ten
or above, one for a trick won by the second player, two for the last trick;
thirty by the elder in hand and play before the younger counts one makes a
pique, thirty more, once a hand and never after a repique; more than six tricks
ten, all twelve forty (the capot); the game is won by the first to reach 101 in
the order of reckoning (carte blanche, the point, the sequences, the sets, the
repique, the play, the cards), nothing counted after it and the hand not played
on; the deal passes and hands go on until a score reaches 101; standings by
score), played by
random agents that choose as the interpreter's random agent does. No rule file
is read.

A discard is chosen as the interpreter offers it: one card at a time,
uniformly among the cards still in hand and, once the least number is laid
out, ``pass`` (so the elder stops after his j-th card with chance 1/(13 - j),
j = 1 … 4, and the younger after j cards with chance 1/(13 - j) until the talon
is spent). The cards led and played are uniform among the legal ones.

It is written the way one would write one game by hand: a card is an int
(``suit * 8 + rank``, rank 0 for the seven … 7 for the ace); a hand in play is
four lists of ranks, one per suit, sorted; the declarations are worked out per
suit from those lists (the point from the longest suit's pips, the sequences as
runs of consecutive ranks, the sets from a count per rank), not by the rule
file's expressions. The random generator is seeded per game, but not as the
interpreter seeds it: the two give the same distributions, not the same games.
``tests/test_direct_yardsticks.py`` checks the reckoning and the play's counts
card for card against the interpreter: on stacked deals (a repique that wins the
game in hand, a pique, carte blanche), on random deals with the same choices, and with the
choices this file's random player makes replayed in the interpreter.

The distributions, from ``python benchmarks/piquet_direct.py --compare 2000``
(2,000 games each, seeds ``0/i``; the interpreter stepped move by move, each
move uniform among its legal moves; the last column is the difference in
standard errors of the difference):

    measure                             interpreter  hand-written  difference / s.e.
    hands a game                               5.25          5.17               2.25
    winner's final score                     104.14        104.53              -1.98
    loser's final score                       66.98         65.73               1.73
    first elder's wins %                      51.95         51.35               0.38
    elder's count in hand (a hand)             6.49          6.65              -1.61
    younger's count in hand (a hand)           6.62          6.70              -0.68
    hands with a repique %                     0.50          0.65              -1.45
    hands with a pique %                       0.48          0.46               0.13
    elder's points (a hand)                   16.45         16.70              -1.53
    younger's points (a hand)                 16.17         16.22              -0.27

Plays a hand: at most 24 in both (the discards are not plays for the
interpreter either; a hand stops where the game is won). One difference of the
ten is past two standard errors (hands a game, 2.25), as ten measures of one
distribution now and then give; with 10,000 games each (``--compare 10000
--seed x``) every difference but one was within two (the younger's count in
hand, 6.57 and 6.67, -2.09, the largest before this count too; hands a game
5.19 and 5.19, the first elder's wins 50.6 % and 50.7 %, the elder's points a
hand 16.73 and 16.63, a pique in 0.43 % and 0.41 % of hands).

    python benchmarks/piquet_direct.py -n 1000
    python benchmarks/piquet_direct.py --compare 2000
"""

from __future__ import annotations

import argparse
import random
import time

SUITS = "SHDC"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
PIPS = (7, 8, 9, 10, 10, 10, 10, 11)  # the point: the ace eleven, the court cards ten
PASS = -1  # a scripted ``pass``: stop laying out
GAME = 101


def card_name(c: int) -> str:
    return RANKS[c & 7] + SUITS[c >> 3]


def card_of(name: str) -> int:
    """The int of a card named as the interpreter names it (``10H``, ``AS``), or PASS for ``pass``."""
    if name == "pass":
        return PASS
    return SUITS.index(name[-1]) * 8 + RANKS.index(name[:-1])


def measure(held: list[list[int]]) -> tuple[int, int, int, int, int, int]:
    """A hand's declarations, from its four suits of sorted ranks: (point,
    best sequence, cards in sequences of three or more, sequences of five or
    more, best set, the sets' value). The point is 100 a card of the best suit
    and its pips; the best sequence 10 a card and its top card's rank (1 for
    the seven … 8 for the ace); the best set 10 a card and its rank."""
    point = best_seq = seq_cards = seq_big = 0
    per_rank = [0] * 8
    for ranks in held:
        k = len(ranks)
        if not k:
            continue
        p = 100 * k
        for r in ranks:
            p += PIPS[r]
            per_rank[r] += 1
        if p > point:
            point = p
        run = 1
        for i in range(1, k + 1):
            if i < k and ranks[i] == ranks[i - 1] + 1:
                run += 1
                continue
            if run >= 3:
                v = 10 * run + ranks[i - 1] + 1
                if v > best_seq:
                    best_seq = v
                seq_cards += run
                if run >= 5:
                    seq_big += 1
            run = 1
    best_set = sets = 0
    for r in range(3, 8):  # tens and higher
        k = per_rank[r]
        if k >= 3:
            v = 10 * k + r + 1
            if v > best_set:
                best_set = v
            sets += 14 if k == 4 else 3
    return point, best_seq, seq_cards, seq_big, best_set, sets


def _discard(rnd, hand: list[int], least: int, most: int, script, trace) -> int:
    """Lay out cards of ``hand`` as the random agent does (a card at a time,
    ``pass`` offered once ``least`` are out); how many."""
    k = 0
    while k < most:
        if script is not None:
            c = next(script)
            if c == PASS:
                if k < least:
                    raise ValueError("pass before the least number of cards is laid out")
                break
            hand.remove(c)
        else:
            left = len(hand)
            i = int(rnd() * (left + 1 if k >= least else left))
            if i == left:
                if trace is not None:
                    trace.append(PASS)
                break
            c = hand.pop(i)
            if trace is not None:
                trace.append(c)
        k += 1
    return k


def play_hand(
    rnd,
    hands: list[list[int]],
    stock: list[int],
    dealer: int,
    script=None,
    out: dict | None = None,
    trace: list | None = None,
    score: tuple[int, int] = (0, 0),
):
    """One hand from the deal (``hands``: each seat's twelve cards, ``stock``:
    the talon, top first), ``score`` standing before it. Returns each seat's
    count for the hand, stopped where a score reaches 101. ``script``:
    an iterator of the cards laid out (PASS to stop), then the cards played,
    instead of random choices (a scripted card that is not legal is an error).
    ``out``: a dict filled with the reckoning. ``trace``: a list the random
    choices are added to, as a script gives them."""
    elder = 1 - dealer
    # carte blanche: no king, queen or knave dealt
    blanche = [0 if any(4 <= (c & 7) <= 6 for c in h) else 10 for h in hands]
    # the elder lays out one to five and takes as many; the younger up to what is left
    he = hands[elder]
    k = _discard(rnd, he, 1, 5, script, trace)
    he += stock[:k]
    stock = stock[k:]
    hy = hands[dealer]
    k = _discard(rnd, hy, 0, len(stock), script, trace)
    hy += stock[:k]
    # the declarations, per suit from sorted ranks
    held = []
    for h in hands:
        suits: list[list[int]] = [[], [], [], []]
        for c in sorted(h):
            suits[c >> 3].append(c & 7)
        held.append(suits)
    m = [measure(held[0]), measure(held[1])]
    pointv, seqv, setv = [0, 0], [0, 0], [0, 0]
    for s in (0, 1):
        o = 1 - s
        if m[s][0] > m[o][0]:
            pointv[s] = m[s][0] // 100
        if m[s][1] > m[o][1]:
            seqv[s] = m[s][2] + 10 * m[s][3]
        if m[s][4] > m[o][4]:
            setv[s] = m[s][5]
    base = score

    def on(tally):  # the game not yet won: a count may still be made
        return base[0] + tally[0] < GAME and base[1] + tally[1] < GAME

    # counted in order, carte blanche, the point, the sequences, the sets, the elder first
    tally = blanche[:]
    for part in (pointv, seqv, setv):
        for s in (elder, dealer):
            if on(tally):
                tally[s] += part[s]
    # repique: thirty in hand, counted in order (blanche, point, sequence, sets), before the other counts one
    # (the repique is his who reached thirty, though the other count more after him)
    repique = False
    for s in (elder, dealer):
        o = 1 - s
        a, b = blanche[s] + pointv[s], blanche[o] + pointv[o]
        full, other = a + seqv[s] + setv[s], b + seqv[o] + setv[o]
        if (a >= 30 and b == 0) or (a + seqv[s] >= 30 and b + seqv[o] == 0) or (full >= 30 and other == 0):
            repique = True
            if on(tally):
                tally[s] += 60
    if out is not None:
        out.update(
            blanche=blanche,
            pt=[m[0][0], m[1][0]],
            sq=[m[0][1], m[1][1]],
            seqlen=[m[0][2], m[1][2]],
            seqbig=[m[0][3], m[1][3]],
            st=[m[0][4], m[1][4]],
            pointv=pointv,
            seqv=seqv,
            setv=setv,
            repiqued=int(repique),
            in_hand=tally[:],
        )
    # twelve tricks, the elder leading to the first
    counts = [12, 12]
    won = [0, 0]
    pique = 0
    leader = elder
    for trick in range(12 if on(tally) else 0):
        h = held[leader]
        if script is None:
            r = int(rnd() * counts[leader])
            for led in range(4):
                lst = h[led]
                if r < len(lst):
                    break
                r -= len(lst)
            first = lst.pop(r)
            if trace is not None:
                trace.append(led * 8 + first)
        else:
            c = next(script)
            led, first = c >> 3, c & 7
            h[led].remove(first)
        counts[leader] -= 1
        led_count = 1 if first >= 3 else 0  # a ten or above
        if on(tally):
            tally[leader] += led_count  # a card led
        if not pique and not repique and tally[elder] >= 30 and tally[dealer] == 0 and on(tally):
            pique = 1
            tally[elder] += 30
        if not on(tally):
            break  # the game is won at the card led
        other = 1 - leader
        h = held[other]
        lst = h[led]
        if script is None:
            if lst:  # follow suit
                k = len(lst)
                r = lst.pop(int(rnd() * k)) if k > 1 else lst.pop()
                winner = other if r > first else leader
                if trace is not None:
                    trace.append(led * 8 + r)
            else:  # any card
                r = int(rnd() * counts[other])
                for s in range(4):
                    if r < len(h[s]):
                        break
                    r -= len(h[s])
                r = h[s].pop(r)
                winner = leader
                if trace is not None:
                    trace.append(s * 8 + r)
        else:
            c = next(script)
            if lst and c >> 3 != led:
                raise ValueError(f"{card_name(c)} does not follow suit")
            h[c >> 3].remove(c & 7)
            winner = other if c >> 3 == led and c & 7 > first else leader
        counts[other] -= 1
        won[winner] += 1
        if winner != leader and on(tally):
            tally[winner] += 1  # a trick won by the second player
        if trick == 11 and on(tally):
            tally[winner] += 2 - led_count if winner == leader else 1  # two for the last trick
        if not pique and not repique and tally[elder] >= 30 and tally[dealer] == 0 and on(tally):
            pique = 1
            tally[elder] += 30
        leader = winner
        if not on(tally):
            break
    for s in (elder, dealer):
        if won[s] == 12 and on(tally):
            tally[s] += 40  # the capot
        elif 6 < won[s] < 12 and on(tally):
            tally[s] += 10  # the cards
    if out is not None:
        out.update(piqued=2 * pique, won=won, tally=tally[:])
    return tally


def play_game(rng: random.Random, log: list | None = None):
    """One game. Returns (scores by seat, hands played, the first dealer).
    ``log``: a list each hand's figures are added to, as ``HAND_FIGURES``."""
    rnd = rng.random
    # the first dealer: each draws a card, the lower deals; equal ranks draw again
    while True:
        a, b = rng.sample(range(32), 2)
        if a & 7 != b & 7:
            dealer = 0 if a & 7 < b & 7 else 1
            break
    first_dealer = dealer
    score = [0, 0]
    hands = 0
    out = {} if log is not None else None
    while score[0] < GAME and score[1] < GAME:
        pack = list(range(32))
        rng.shuffle(pack)
        at = rng.randint(1, 31)  # the elder cuts
        pack = pack[at:] + pack[:at]
        elder = 1 - dealer
        dealt: list[list[int]] = [[], []]
        for i in range(0, 24, 4):  # two at a time, the elder first
            dealt[elder] += pack[i : i + 2]
            dealt[dealer] += pack[i + 2 : i + 4]
        tally = play_hand(rnd, dealt, pack[24:], dealer, out=out, score=(score[0], score[1]))
        score[0] += tally[0]
        score[1] += tally[1]
        hands += 1
        if out is not None and log is not None:
            ih = out["in_hand"]
            log.append((ih[elder], ih[dealer], out["repiqued"], out["piqued"] > 0, tally[elder], tally[dealer]))
        dealer = elder
    return score, hands, first_dealer


# what ``play_game`` logs of a hand, and the interpreter's games too (``interpreter_games``)
HAND_FIGURES = (
    "elder's count in hand",
    "younger's count in hand",
    "repique",
    "pique",
    "elder's points",
    "younger's points",
)


def run_games(games: int, seed="0") -> dict:
    """``games`` games; a report shaped like the interpreter's Tally."""
    wins = [0.0, 0.0]
    hands = 0
    for g in range(games):
        score, h, _ = play_game(random.Random(f"{seed}/{g}"))
        hands += h
        top = max(score)
        for s in (0, 1):
            if score[s] == top:
                wins[s] += 1 / (2 if score[0] == score[1] else 1)
    return {
        "games": games,
        "players": 2,
        "wins_by_seat": wins,
        "unfinished": 0,
        "hands": hands,
        "hand_plays": {"mean": 24.0 if hands else 0, "max": 24},
        "totals": {"plays": 24 * hands, "tricks": 12 * hands},
    }


def _game_figures(score: list[int], hands: int, first_dealer: int) -> tuple:
    """A game's figures: hands, the winner's and the loser's score, the first elder's share of the win."""
    elder = 1 - first_dealer
    won = 1.0 if score[elder] > score[first_dealer] else 0.5 if score[0] == score[1] else 0.0
    return hands, max(score), min(score), won


def direct_figures(games: int, seed="0") -> tuple[list, list]:
    """(each game's figures, each hand's figures) of ``games`` hand-written games."""
    per_game, per_hand = [], []
    for g in range(games):
        score, hands, first_dealer = play_game(random.Random(f"{seed}/{g}"), per_hand)
        per_game.append(_game_figures(score, hands, first_dealer))
    return per_game, per_hand


def interpreter_figures(games: int, seed="0") -> tuple[list, list]:
    """The same figures of the rule file's games, played move by move, each move
    uniform among the legal ones: the count in hand read at each hand's first
    card, the pique at the cards after it, the points from the scores between
    hands."""
    from academie.dsl.model import load_game
    from academie.interpreter.state import State

    g = load_game("piquet/hoyle")
    per_game, per_hand = [], []
    for i in range(games):
        rng = random.Random(f"{seed}/{i}")
        st = State(g, 2, f"{seed}/{i}")
        first_dealer = st.dealer
        hand: list = []
        seen, dealer, before = 0, st.dealer, [0, 0]
        while True:
            over = st.is_terminal()
            if hand and over and st.vars["piqued"]:  # a pique that wins the game ends it at once
                hand[3] = True
            if over or st.hand_no != seen:  # the last hand's points
                if seen:
                    if not hand:  # the game won in hand, before a card was played
                        tally = st.pvars["tally"]
                        hand = [tally[1 - dealer], tally[dealer], st.vars["repiqued"], False]
                    score = st.pvars["score"]
                    e, d = 1 - dealer, dealer
                    per_hand.append((*hand, score[e] - before[e], score[d] - before[d]))
                if over:
                    break
                before, dealer, seen, hand = st.pvars["score"][:], st.dealer, st.hand_no, []
            if not hand and st.decision_kind() == "play":
                tally = st.pvars["tally"]
                hand = [tally[1 - dealer], tally[dealer], st.vars["repiqued"], False]
            if hand and st.vars["piqued"]:  # seen at the next card (one made at the last trick is missed)
                hand[3] = True
            st.apply(rng.choice(st.legal_moves()))
        per_game.append(_game_figures(st.returns(), st.hand_no, first_dealer))
    return per_game, per_hand


def _mean_se(xs: list) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, (var / n) ** 0.5


def compare(games: int, seed="0") -> list[tuple[str, float, float, float]]:
    """The figures of the docstring's table: (measure, interpreter, hand-written,
    the difference in standard errors)."""
    gi, hi = interpreter_figures(games, seed)
    gd, hd = direct_figures(games, seed)
    rows = []
    labels = [
        ("hands a game", 1),
        ("winner's final score", 1),
        ("loser's final score", 1),
        ("first elder's wins %", 100),
    ]
    for k, (label, scale) in enumerate(labels):
        (mi, si), (md, sd) = _mean_se([r[k] for r in gi]), _mean_se([r[k] for r in gd])
        rows.append((label, scale * mi, scale * md, (mi - md) / ((si**2 + sd**2) ** 0.5 or 1)))
    for k, label in enumerate(HAND_FIGURES):
        scale = 100 if label in ("repique", "pique") else 1
        (mi, si), (md, sd) = _mean_se([float(r[k]) for r in hi]), _mean_se([float(r[k]) for r in hd])
        label = f"hands with a {label} %" if scale == 100 else f"{label} (a hand)"
        rows.append((label, scale * mi, scale * md, (mi - md) / ((si**2 + sd**2) ** 0.5 or 1)))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--games", type=int, default=1000)
    ap.add_argument("-s", "--seed", default="0")
    ap.add_argument(
        "--compare", type=int, metavar="GAMES", help="play this many games with each and compare the distributions"
    )
    a = ap.parse_args(argv)
    if a.compare:
        print(f"{'measure':<34} {'interpreter':>12} {'hand-written':>13} {'difference / s.e.':>18}")
        for label, i, d, z in compare(a.compare, a.seed):
            print(f"{label:<34} {i:>12.2f} {d:>13.2f} {z:>18.2f}")
        return
    t = time.process_time()
    rep = run_games(a.games, a.seed)
    dt = time.process_time() - t
    print(rep)
    print(f"{rep['hands'] / dt:,.0f} hands/s, {rep['totals']['plays'] / dt:,.0f} plays/s")


if __name__ == "__main__":
    main()
