"""academie play: one game, narrated or summarised."""

from __future__ import annotations

import json
import os
import sys
from typing import AbstractSet

import click

from .. import narrate as narration
from ..asking import move_name, question
from ..narrate import counter_word, told, value_text
from ..dsl.cards import parse_card, pretty
from ..dsl.text import safe, safe_json
from ..interpreter.agents import AGENTS, play as play_out, typed_move
from ..interpreter.state import DEFAULT_MAX_PLAYS, Abandoned, State
from ..interpreter.visibility import NOTHING, Seen, sees
from ..api import follow_rule_of
from ..serve.explain import explain, path_text, refusal, refusal_lines
from ..words import duty
from ..outputs import atomic_write, check_targets
from .args import SEED, SEED_HELP, check_dealer
from .common import (
    check_deck,
    inputs_of,
    limit_flags,
    load,
    make_limits,
    option_flags,
    players_for,
    read_deal,
    read_deck,
    seat_agents,
    with_options,
)


def summary(st: State) -> dict:
    return {
        "game": st.g.id,
        "title": st.g.title,
        "players": st.n,
        "seed": st.seed,
        "options": st.g.options,
        "hands": st.hand_results,
        "plays": st.plays,
        "unfinished": st.unfinished,
        "standings": st.standings,
        "balances": {str(h): b for h, b in st.bal.items()},
    }


def narrate(
    ev: dict,
    n: int,
    hidden: AbstractSet[int] = frozenset(),
    draw_lowest: bool = True,
    you: AbstractSet[int] = frozenset(),
    style: bool = False,
) -> str | None:
    """One line (or a few) of the game's narrative (``academie/narrate.py``,
    the words the web page and the replay use too); the dealt hands and chosen
    cards of the ``hidden`` seats are shown only by their number of cards.
    ``draw_lowest``: whether the rules' draw for the first dealer goes to the
    lowest card (``dealer: {draw: {lowest: …}}``) or to the highest."""
    line = narration.narrate(ev, you=you, hidden=hidden, symbols=_utf(), draw_lowest=draw_lowest)
    return None if line is None else narration.terminal(line, style)


def rule_lines(doc, path, indent: str = "    ") -> list[str]:
    """The rule element ``path`` (an event's ``rule`` key, a follow rule) in
    short: its path in the rule file, then what its sources say, each as
    ``§ "quote" (source id)``, or its editorial reason; every word of the rule
    file escaped (``dsl/text.py`` ``safe``)."""
    said = explain(doc, path)
    if said is None:
        return []
    out = [f"{indent}§ {said['path']}"]
    out += [f'{indent}  "{c["quote"]}" ({c["source"] or "no source"})' for c in said["cites"]]
    out += [f"{indent}  editorial: {e['reason']}" for e in said["editorial"]]
    return [safe(line) for line in out]


def _utf() -> bool:
    return bool(sys.stdout.encoding and sys.stdout.encoding.lower().startswith("utf"))


def _p(name: str) -> str:
    c = parse_card(name)
    return pretty(c) if c and _utf() else name


class TerminalHuman:
    """A person at the terminal: before each move, the table (each seat's
    hand size, tricks, money and counters, the pools and counters, who played
    which card in the trick), the hand and the numbered moves, cards written
    the same way throughout. A move is its number or its name (``QS``,
    ``pass``); an entry that is no legal move is answered with why (a card
    refused by the follow rule: the duty that refuses it, in words, and the sources' words for it) and the
    moves again; ``why`` answers with the rule that limits the moves and the
    last rule that acted, each with its source's words. A choice of cards is
    picked card by card, each picked card marked and taken back by entering it
    again, and sent only once ``done`` confirms it. End of input (Ctrl-D)
    abandons the game (``Abandoned``)."""

    name = "human"

    def __init__(self, seats: int, inp=None, out=None):
        self.inp, self.out = inp or sys.stdin, out or sys.stdout
        self.n = seats
        self.trick: list[tuple[int, str]] = []  # (seat, card) of the trick in progress, from the events
        self.last_rule = None  # the rule key of the last event that named one
        self.hinted = False
        self.chosen: list[tuple[int, str]] = []  # (seat, card) chosen in the choice in progress
        self.seen: Seen | None = None  # what each seat saw this hand (the counters a seat may see)
        self.pending: tuple | None = None  # (the choice, the cards confirmed not yet handed to the engine)

    def see(self, ev: dict) -> None:
        """Follow the events: who played which card in the trick in progress."""
        t = ev["type"]
        if ev.get("rule") is not None:
            self.last_rule = ev["rule"]
        if t == "choose" and "card" in ev:  # the cards chosen, not yet gone where they go
            self.chosen.append((ev["seat"], ev["card"]))
        elif t in ("deliver", "hand_start"):
            self.chosen = []
        if t == "play":
            self.trick.append((ev["seat"], ev["card"]))
        elif t in ("trick", "hand_start") or (t == "take" and ev.get("to") in ("hand", "pack")):
            self.trick = []

    def _w(self, text: str) -> None:  # names come from the rule file: control characters escaped
        self.out.write(safe(text))

    def _seat(self, s: int, seat: int) -> str:
        return f"seat {s}" + (" (you)" if s == seat else "")

    def table(self, state: State, seat: int) -> None:
        w = self._w
        head = f"\n— your move, seat {seat}: hand {state.hand_no}, dealer seat {state.dealer}"
        w(head + (f", trumps {_suit(state.trump)}" if state.trump else "") + "\n")
        units = sorted({u for b in state.bal.values() for u in b})
        # the counters as this seat sees them: one worked out from cards it has not seen is "?"
        seen = self.seen
        vars_, pvars = state.view(seat, seen.known(state, seat)) if seen is not None else (state.vars, state.pvars)
        shown, labels = state.g.shown, state.g.labels

        def word(k: str) -> str:  # the game's word for a counter
            return counter_word(k, labels.get(k))

        for s in range(state.n):
            parts = [f"{len(state.hand[s])} card{'s' if len(state.hand[s]) != 1 else ''} in hand"]
            parts.append(f"{state.won[s]} trick{'s' if state.won[s] != 1 else ''}")
            parts += [_amount(state.bal[s].get(u, 0), u) for u in units if s in state.bal]
            parts += [f"{word(k)} {value_text(v[s])}" for k, v in pvars.items() if shown.get(k) != "hidden"]
            w(f"  {self._seat(s, seat):<14} " + ", ".join(parts) + "\n")
        pools = [
            f"the {h}: " + ", ".join(_amount(a, u) for u, a in b.items())
            for h, b in state.bal.items()
            if isinstance(h, str)
        ]
        counters = [f"{word(k)} {value_text(v)}" for k, v in vars_.items() if shown.get(k) != "hidden"]
        if pools or counters:
            w("  " + "; ".join(pools + counters) + "\n")
        if self.trick:
            w("  trick:        " + ", ".join(f"{self._seat(s, seat)} {_p(c)}" for s, c in self.trick) + "\n")
        elif state.zones.get("trick"):
            w(f"  trick:        {' '.join(_p(c.name) for c in state.zones['trick'])}\n")
        w(f"  your hand:    {' '.join(_p(c.name) for c in state.hand[seat])}\n")

    def moves(self, moves: list, asked: dict | None = None) -> None:
        if asked is not None:  # a question (not a card to play): asked in words, its answers in words
            self._w("  " + asked["text"] + "\n")
            words = asked["answers"]
            self._w(
                "  answers:      "
                + "  ".join(f"[{i + 1}] {words.get(move_name(m), _move(m))}" for i, m in enumerate(moves))
                + "\n"
            )
        else:
            self._w("  moves:        " + "  ".join(f"[{i + 1}] {_move(m)}" for i, m in enumerate(moves)) + "\n")
        if not self.hinted:  # once a game
            self._w("  (enter a move's number or name; why: the rules behind these moves)\n")
            self.hinted = True

    def rules(self, state: State, seat: int, asked: dict | None = None) -> str:
        """The answer to ``why``: the rule that asks the question (a choice), the rule that limits
        the moves now, the last rule that acted."""
        lines = []
        if asked is not None:
            lines.append("this question (" + asked["text"] + ") is asked by the rule:")
            lines += rule_lines(state.g.doc, asked["rule"], "  ")
        rule = follow_rule_of(state, seat)
        if rule is not None and rule["rule"] is not None:
            kind = "lead rule" if rule["tier"] is None else "follow rule"
            lines.append(f"these moves: the {kind}: {duty(rule)}")
            lines.append(f"    § {path_text(rule['rule'])}")
            for q in refusal(state.g.doc, {"move": "", "legal": [], **rule})["cites"]:
                lines.append(safe(f'      "{q["quote"]}" ({q["source"] or "no source"})'))
        if self.last_rule is not None:
            lines.append("the last rule that acted:")
            lines += rule_lines(state.g.doc, self.last_rule, "  ")
        return "\n  ".join(lines) if lines else "no rule limits these moves, and none has acted yet"

    def why(self, state: State, seat: int, t: str, moves: list) -> str:
        """Why the entry ``t`` is no legal move."""
        if t.isdigit():
            return f"{t} is not the number of a move: choose 1 to {len(moves)}"
        c = parse_card(t)
        if c is None:
            return f"'{t}' is neither the number of a move nor a card or declaration (write 1, or a card: QS, 10H)"
        if c not in state.hand[seat]:
            return f"{_p(c.name)} is not in your hand"
        rule = follow_rule_of(state, seat) or {"rule": None, "test": None, "tier": None}
        why = {"move": c.name, "legal": [m.name if hasattr(m, "suit") else str(m) for m in moves], **rule}
        return "\n".join(refusal_lines(state.g.doc, why, card=_p))

    def choose(self, state: State, seat: int, moves: list):
        asked = question(state, _utf(), seat, moves, [c for s, c in self.chosen if s == seat])
        if asked is not None and asked["kind"] == "choose":
            return self._choose_cards(state, seat, moves, asked)
        self.table(state, seat)
        self.moves(moves, asked)
        while True:
            self._w("  your move: ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self._w("\n")
                raise Abandoned(f"standard input ended before seat {seat} chose a move: the game is abandoned", seat)
            t = line.strip()
            m = typed_move(t, moves)
            if m is not None:
                return m
            if t.lower() == "why":
                self._w("  " + self.rules(state, seat, asked) + "\n")
                self.moves(moves, asked)
                continue
            m = next((m for m in moves if asked and asked["answers"].get(move_name(m), "").lower() == t.lower()), None)
            if m is not None:  # an answer given in its words: "order it up"
                return m
            self._w("  " + self.why(state, seat, t, moves) + "\n")
            self.moves(moves, asked)

    def _choose_cards(self, state: State, seat: int, moves: list, asked: dict):
        """A choice of cards: the cards picked one by one (an entry picks a card, the same card
        again takes it back), sent only once ``done`` confirms them, then handed to the engine
        one by one (and ``pass`` when the seat could have chosen more)."""
        key = (state.hand_no, seat, tuple(asked["rule"]))
        dropped = None
        if self.pending and self.pending[0] == key:
            queue = self.pending[1]
            if queue and queue[0] in moves:
                return queue.pop(0)
            self.pending = None
            if not queue:
                if "pass" in moves:
                    return "pass"
            else:  # a card picked that the choice no longer takes: asked again
                dropped = queue[0]
        self.pending = None
        self.table(state, seat)
        if dropped is not None:
            self._w(f"  {_move(dropped)} can no longer be chosen: pick again\n")
        staged: list = []
        cards = [m for m in moves if m != "pass"]
        lo, hi = asked["min"] - len(asked["chosen"]), asked["max"] - len(asked["chosen"])
        self._staged(asked, cards, staged)
        while True:
            self._w("  your move: ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self._w("\n")
                raise Abandoned(f"standard input ended before seat {seat} chose a move: the game is abandoned", seat)
            t = line.strip()
            low = t.lower()
            if low == "why":
                self._w("  " + self.rules(state, seat, asked) + "\n")
            elif low in ("done", "pass", "confirm", str(len(cards) + 1)) or low == asked["answers"].get("pass", "-"):
                if len(staged) < lo:
                    self._w(f"  choose at least {_cards(lo)} before done ({len(staged)} picked)\n")
                elif not staged and "pass" not in moves:
                    self._w("  pick a card first\n")
                else:
                    self.pending = (key, staged[1:])
                    return staged[0] if staged else "pass"
            else:
                m = typed_move(t, cards)
                if m is None and low.startswith("back "):
                    m = typed_move(t[5:].strip(), cards)
                if m is None:
                    self._w("  " + self.why(state, seat, t, moves) + "\n")
                elif m in staged:
                    staged.remove(m)
                    self._w(f"  {_move(m)} taken back\n")
                elif len(staged) >= hi:
                    self._w(f"  no more than {_cards(hi)} may be chosen: take one back first\n")
                else:
                    staged.append(m)
            self._staged(asked, cards, staged)

    def _staged(self, asked: dict, cards: list, staged: list) -> None:
        """The question, the cards with those picked marked, and how to take one back or confirm."""
        self._w("  " + asked["text"] + "\n")
        marks = [f"[{i + 1}] {_move(m)}" + (" (picked)" if m in staged else "") for i, m in enumerate(cards)]
        self._w("  cards:        " + "  ".join(marks) + f"  [{len(cards) + 1}] done\n")
        if staged:
            self._w(
                f"  picked:       {' '.join(_move(m) for m in staged)} ({len(staged)} of {asked['max']}): "
                "enter a picked card again to take it back, done to confirm\n"
            )
        else:
            self._w("  picked:       none yet: enter a card to pick it, done to confirm\n")


def _score_seen(ev: dict, game, st: State | None, humans: AbstractSet[int], seen: Seen | None) -> dict:
    """A ``score`` event as the humans at the terminal may see it (as the API's observation shows it):
    its value only for a cell one of them sees, and a declaration or a win told as the game says it."""
    if humans and seen is not None:
        how = game.shown.get(ev.get("counter"), "derived")
        if how == "own":
            mine = bool(humans & set(ev.get("seats") or [ev.get("seat")]))
        elif how == "public":
            mine = True
        else:
            atoms = getattr(ev, "atoms", NOTHING)
            mine = not atoms or any(sees(atoms, h, _known(seen, st, h)) for h in humans)
        if not mine:
            return {k: v for k, v in ev.items() if k not in ("amount", "total")}
    return told(ev, game)  # a declaration with what it declares, a win with the others' totals


def _known(seen: Seen, st: State | None, seat: int) -> set:
    """The cards ``seat`` has seen: ``Seen.known``, or before the state is made (the events of its
    first steps) those its events named."""
    if st is not None:
        return seen.known(st, seat)
    return {c for c in map(parse_card, seen.shown | seen.own[seat]) if c is not None}


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _amount(a: int, unit: str) -> str:
    return f"{a} {unit}" + ("" if a == 1 else "s")


def _move(m) -> str:
    return _p(m.name) if hasattr(m, "suit") else str(m)


def _suit(s: str) -> str:
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(s, s) if _utf() else s


@click.command()
@click.argument("rules")
@click.option(
    "--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest the rules allow)."
)
@click.option(
    "--seed",
    "-s",
    type=SEED,
    default="0",
    show_default=True,
    help="Seed for the shuffle, the draw and the random agents: " + SEED_HELP + ".",
)
@click.option(
    "--agents",
    "-a",
    metavar="A1,A2,…",
    help=f"Agents by seat ({', '.join(AGENTS)}, or a search player with its parameters after colons: "
    "ismcts:iterations=300, mc:iterations=100; docs/players.md); one name for all. Default: random.",
)
@click.option(
    "--dealer", type=click.IntRange(min=0), help="Seat of the first dealer (default: chosen as the rules say)."
)
@click.option(
    "--deck",
    type=click.Path(dir_okay=False),
    help="A stacked pack, top card first (AS 10H KD …): no shuffle, no cut, first hand only.",
)
@click.option(
    "--deal",
    "deal_file",
    type=click.Path(dir_okay=False),
    help="The first hand's deal (YAML/JSON): hands: [[…], …] and other zones by name.",
)
@option_flags
@click.option("--hands", type=click.IntRange(min=1), help="Stop after this many hands (default: as the rules say).")
@click.option(
    "--max-plays",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_PLAYS,
    show_default=True,
    help="Play limit: beyond it the game is reported unfinished.",
)
@click.option("--log", "log_file", type=click.Path(dir_okay=False), help="Write the event log here as JSON Lines.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary instead of the narrative.")
@click.option(
    "--why",
    is_flag=True,
    help="Under each event, the rule element that made it (a payment, a pick-up, the end of a hand): its path in "
    "the rule file and its source's words (source id and quote), once for the events in a row it caused.",
)
@limit_flags
def play(
    rules, players, seed, agents, dealer, deck, deal_file, options, hands, max_plays, log_file, as_json, why, **kw
):
    """Play one game of RULES (a corpus id such as enfle/academie, looked up
    only in the corpus, or a path: an argument that ends in .yaml or .yml or
    starts with ./, ../, / or ~; options may follow a plus:
    hearts/foster+sweepstakes).

    Seats are numbered 0 … n-1 in the direction of play; the seat after seat i
    is i+1. The game is narrated on standard output (or summarised with
    --json); --why shows under each event the rule that made it, in its
    source's words; --log writes every event as JSON Lines.

    A human player (--agents human,…) sees the table before each move and
    enters a move's number or name; why at the prompt shows the rule that
    limits the moves and the last rule that acted.
    """
    if deck and deal_file:
        raise click.UsageError("give --deck or --deal, not both")
    rules, options = with_options(rules, options)
    check_targets([("--log", log_file)], inputs=inputs_of(rules, ("--deck", deck), ("--deal", deal_file)))
    limits = make_limits(kw)
    game = load(rules, options, limits)
    n = players_for(game, players)
    check_dealer(dealer, n)
    seed_v = seed
    deck_cards = check_deck(read_deck(deck, limits), game.pack(n), deck, n) if deck else None
    deal = read_deal(deal_file, limits) if deal_file else None
    ags = seat_agents(agents, n, seed_v)
    names = (agents or "random").split(",")
    humans = {i for i, name in enumerate(names * n if len(names) == 1 else names) if name == "human"}
    people = [TerminalHuman(n) for _ in humans]
    seen = Seen(n) if people else None  # what each seat saw this hand: the counters it may see
    for person in people:
        person.seen = seen
    for seat, person in zip(sorted(humans), people):
        ags[seat] = person
    sink = None
    if not as_json or people:  # narrate as the game goes, so that a human sees the table
        if not as_json:
            click.echo(safe(f"{game.title} ({game.id}), {n} players, seed {seed}"))
        hidden = set(range(n)) - humans if humans else set()
        draw_lowest = bool((game.dealer_draw or {}).get("lowest", True))  # as the interpreter reads it
        style = sys.stdout.isatty() and not os.environ.get("NO_COLOR")

        witness = narration.Witness(humans) if humans else None  # cards no human saw, counted
        said: list = [None]  # the rule last shown by --why: once for the events in a row it caused
        box: list = [None]  # the state, once made: the values a declaration says

        def sink(ev):
            if seen is not None:
                seen(ev)
            for person in people:
                person.see(ev)
            if as_json:
                return
            told = witness.view(ev) if witness else ev
            if told.get("type") == "score":
                told = _score_seen(told, game, box[0], humans, seen)
            line = narrate(told, n, hidden, draw_lowest, humans, style)
            if line is not None:  # each word of the rule file escaped by narrate, before any style
                click.echo(line)
                rule = ev.get("rule")
                if why and rule is not None and rule != said[0]:
                    for ln in rule_lines(game.doc, rule):
                        click.echo(ln)
                said[0] = rule

    st = State(
        game,
        n,
        seed_v,
        dealer=dealer,
        deck=deck_cards,
        deal=deal,
        max_plays=max_plays,
        hands=hands,
        deal_file=deal_file,
        sink=sink,
        track=bool(people),  # what hidden cards each counter depends on, for the human's table
    )
    if seen is not None:
        st.knowing = lambda s: seen.known(st, s)
    if sink is not None:
        box[0] = st
    play_out(st, ags)
    if log_file:
        from ..serve.replay import game_record

        record = game_record(game, n, seed_v)
        with atomic_write(log_file) as f:
            f.write(safe_json(json.dumps(record, ensure_ascii=False)) + "\n")
            for ev in st.events:
                f.write(safe_json(json.dumps(ev, ensure_ascii=False)) + "\n")
    if as_json:
        click.echo(safe_json(json.dumps(summary(st), ensure_ascii=False)))
    if st.unfinished:
        click.echo("unfinished: the play limit was reached (raise it with --max-plays)", err=True)
