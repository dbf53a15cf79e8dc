"""One game read as it is played: the state calls back at each hand's start
and end (``State(on_hand=…)``), where the game's counters are cut into hands
and every seat's running score is read. ``Reader`` keeps running totals and
folds them into a ``Design`` at the game's end; ``game_measures`` gives the
same as a record per hand; ``measures_from_log`` is the old reading, by an
event sink, kept as the reference they are tested against."""

from __future__ import annotations

from itertools import repeat
from operator import add, itemgetter, sub

from .dsl.model import GameDef
from .interpreter.agents import make_agents, play
from .interpreter.state import DEFAULT_MAX_PLAYS, State
from .measures_design import HAND_COUNTERS, Design


def game_measures(
    game: GameDef,
    players: int,
    seed,
    agents=("random",),
    max_plays: int = DEFAULT_MAX_PLAYS,
    agent_list=None,
    keep_state: bool = False,
) -> dict:
    """Play one game; return its measures: per hand (the counters of
    ``State.stats`` within the hand, its dealer, its winner, every seat's
    running score at its end), and per game (the first dealer, the winners,
    the final scores, whether the play limit stopped it). ``agent_list``:
    agents already made (else ``agents`` are made by name for the seed);
    ``keep_state``: the finished State too, as "state".

    Read as the game is played: the state calls back at each hand's start and
    end (``State(on_hand=…)``), no event is built, and agents that draw
    uniformly are asked inside the rules' loops as in ``simulate`` (the same
    games, at the same speed). ``measures_from_log`` is the same measures
    read from the game's events."""
    hands: list[dict] = []
    first_dealer: list[int] = []
    start: list = [None, 0, 0, 0, 0, 0, 0, 0]  # the dealer, then the counters at the hand's start
    score = game.standings.fn if game.standings is not None else None
    seats, nones = range(players), (None,) * players

    def on_hand(st: State, end: bool) -> None:
        c = st.counts
        if not end:
            if not first_dealer:
                first_dealer.append(st.dealer)
            start[:] = _hand_start(st, c)
            return
        unfinished = st.unfinished  # set when the play limit stops the hand, before this call
        h = {
            "plays": st.plays - start[1],
            "tricks": c["tricks"] - start[2],
            "takes": c["takes"] - start[3],
            "borrows": c["borrows"] - start[4],
            "draws": c["draws"] - start[5],
            "lead_changes": c["lead_changes"] - start[6],
            "declarations": c["declarations"] - start[7],
            "dealer": start[0],
            "winner": None if unfinished else st.winner,
            "unfinished": unfinished,
        }
        if score is not None and not unfinished:
            h["scores"] = list(map(score, repeat(st, players), seats, nones))
        hands.append(h)

    ags = agent_list if agent_list is not None else make_agents(list(agents), players, seed)
    if any(getattr(a, "needs_api", False) for a in ags):  # players that search: asked between moves
        st = play(
            State(game, players, seed, max_plays=max_plays, keep_events=False, on_hand=on_hand, check="hand"), ags
        )
    else:
        st = State(
            game, players, seed, max_plays=max_plays, keep_events=False, on_hand=on_hand, check="hand", agents=ags
        )
    return _game_dict(st, players, hands, first_dealer, keep_state)


def _game_dict(st: State, n: int, hands: list, first_dealer: list, keep_state: bool) -> dict:
    top = [r["seat"] for r in st.standings if r["rank"] == 1]
    fd = first_dealer[0] if first_dealer else 0
    out = {
        "hands": hands,
        "first_dealer": fd,
        "winners": top,
        "returns": st.returns(),
        "plays": st.plays,
        "unfinished": st.unfinished,
        # winners as positions after the first dealer: 1 = eldest hand, n = the dealer
        "winner_positions": [((s - fd - 1) % n) + 1 for s in top],
    }
    if keep_state:
        out["state"] = st
    return out


def measures_from_log(
    game: GameDef,
    players: int,
    seed,
    agents=("random",),
    max_plays: int = DEFAULT_MAX_PLAYS,
    agent_list=None,
    keep_state: bool = False,
) -> dict:
    """``game_measures`` read from the game's events (``hand_start``,
    ``hand_end``) by an event sink, the agents asked by ``play`` between moves:
    the reference the measures read as the game is played are held to (a
    test), and what ``benchmarks/measures.py`` times them against."""
    hands: list[dict] = []
    cur: dict = {}
    first_dealer: list[int] = []
    st_ref: list[State] = []
    score = game.standings.fn if game.standings is not None else None

    def sink(ev):
        t = ev["type"]
        if t == "hand_start":
            if not first_dealer:
                first_dealer.append(ev["dealer"])
            cur.clear()
            cur.update(dealer=ev["dealer"], start=dict(st_ref[0].stats) if st_ref else {})
        elif t == "hand_end":
            st = st_ref[0] if st_ref else None
            stats = st.stats if st is not None else {}  # no decision yet: nothing counted
            start = cur.get("start", {})
            h = {k: stats.get(k, 0) - start.get(k, 0) for k in HAND_COUNTERS}
            h.update(dealer=cur.get("dealer"), winner=ev.get("winner"), unfinished=ev.get("reason") == "unfinished")
            if st is not None and score is not None and not h["unfinished"]:
                h["scores"] = [score(st, s, None) for s in range(players)]
            hands.append(h)

    # State runs the rules up to the first decision in its constructor: the sink
    # must find the state; stats start at zero, so an empty start is exact.
    st = State(game, players, seed, max_plays=max_plays, keep_events=False, sink=sink, check="hand")
    st_ref.append(st)
    play(st, agent_list if agent_list is not None else make_agents(list(agents), players, seed))
    return _game_dict(st, players, hands, first_dealer, keep_state)


class Reader:
    """The measures of one game after another, read as each is played (the
    state's call at each hand's start and end, ``State(on_hand=…)``) into
    running totals of the game, and folded into ``design`` at its end: what
    ``game_measures`` gives, without the hands' records (the same totals: a
    test holds them to the measures read from the log)."""

    def __init__(self, design: Design, game: GameDef):
        self.design, self.game = design, game
        n = self.n = design.players
        self.score = game.standings.fn if game.standings is not None else None
        self.seats, self.nones = range(n), (None,) * n
        self.plays_hist, self.tricks_hist = design.histograms["plays"], design.histograms["tricks"]
        self.start: tuple = ()
        self.zeros = [0] * len(HAND_COUNTERS)  # the totals of a game with no finished hand

    def play(self, seed, agents: list, max_plays: int, built_in: bool = False) -> State:
        """Play one game and fold it into the design; ``built_in``: the agents are all built in
        (none searches, none is asked between moves: not looked at again)."""
        self.ends: list[tuple] = []  # the finished hands, as ``on_hand`` keeps them
        g, n = self.game, self.n
        if not built_in and any(getattr(a, "needs_api", False) for a in agents):  # players that search
            st = play(
                State(g, n, seed, max_plays=max_plays, keep_events=False, on_hand=self.on_hand, check="hand"), agents
            )
        else:
            st = State(
                g, n, seed, max_plays=max_plays, keep_events=False, on_hand=self.on_hand, check="hand", agents=agents
            )
        ends = self.ends
        plays_hist, tricks_hist = self.plays_hist, self.tricks_hist
        eldest = dealer_won = decided = 0
        totals: list = []
        for (dealer, p0, c0), p1, c1, w, _ in ends:
            plays = p1 - p0
            counts = [plays, *map(sub, c1, c0)]
            plays_hist[plays] += 1
            tricks_hist[counts[1]] += 1
            totals = list(map(add, totals, counts)) if totals else counts
            if w is not None:
                decided += 1
                eldest += w == (dealer + 1) % n
                dealer_won += w == dealer
        if not totals:
            totals = self.zeros
        winners = [r["seat"] for r in st.standings if r["rank"] == 1]
        # the first hand's dealer (of a finished game: the first of its hands, all finished)
        fd = ends[0][0][0] if ends else 0
        hands = len(st.hand_results)  # one a hand's end, the one the play limit stopped too
        curve = None
        if hands > 1 and not st.unfinished:  # the final standings in place of the last hand's leaders
            final = frozenset(winners)
            curve = [_leaders(e[4]) for e in ends[:-1]] + [final] if self.score is not None else [final]
        self.design._fold(
            st.plays,
            hands,
            totals,
            len(ends),
            eldest,
            dealer_won,
            decided,
            st.unfinished,
            st.returns(),
            winners,
            [((s - fd - 1) % n) + 1 for s in winners],
            curve,
        )
        return st

    def on_hand(self, st: State, end: bool) -> None:
        """At a hand's start, the dealer and the counts it is reckoned from; at its end, unless the
        play limit stopped it (counted as a hand, not measured), what it is measured by, reckoned
        when the game is over: its start, the plays and counts at its end, its winner, and every
        seat's score (the scores the state read at its start and their change; else read here)."""
        if not end:
            self.start = (st.dealer, st.plays, _counts(st.counts))
            return
        if st.unfinished:
            return
        scores = None
        if self.score is not None:
            start, change = st.scores_at_hand, st.hand_results[-1]["scores"]
            if start is None or change is None:  # not both read by the state: read here
                start, change = None, list(map(self.score, repeat(st, self.n), self.seats, self.nones))
            scores = (start, change)
        self.ends.append((self.start, st.plays, _counts(st.counts), st.winner, scores))


# the counters of ``State.counts`` a hand is measured by, after its plays (HAND_COUNTERS' order)
_counts = itemgetter(*HAND_COUNTERS[1:])


def _leaders(end: tuple) -> frozenset:
    """The seats with the highest score at a hand's end, from what ``Reader.on_hand`` kept: the
    scores at its start and their change (whole numbers: their sum is the score at its end), or
    the scores at its end."""
    start, change = end
    sc = change if start is None else [a + d for a, d in zip(start, change)]
    best = max(sc)
    return frozenset([s for s, v in enumerate(sc) if v == best])


def _hand_start(st, c) -> tuple:
    """What a hand's measures are reckoned from: the dealer, and the state's running counts when it begins."""
    return (
        st.dealer,
        st.plays,
        c["tricks"],
        c["takes"],
        c["borrows"],
        c["draws"],
        c["lead_changes"],
        c["declarations"],
    )
