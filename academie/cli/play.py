"""academie play: one game, narrated or summarised."""

from __future__ import annotations

import json
import sys
from typing import AbstractSet

import click

from ..dsl.cards import parse_card, pretty
from ..dsl.text import safe, safe_json
from ..interpreter.agents import AGENTS, play as play_out
from ..interpreter.state import DEFAULT_MAX_PLAYS, State
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


def narrate(ev: dict, n: int, hidden: AbstractSet[int] = frozenset(), draw_lowest: bool = True) -> str | None:
    """One line (or a few) of the game's narrative; the dealt hands of the
    ``hidden`` seats are shown only by their number of cards. ``draw_lowest``:
    whether the rules' draw for the first dealer goes to the lowest card
    (``dealer: {draw: {lowest: …}}``) or to the highest."""
    t = ev["type"]
    if t == "dealer":
        return f"Seat {ev['seat']} draws the {'lowest' if draw_lowest else 'highest'} card and deals first."
    if t == "hand_start":
        return f"\n== Hand {ev['hand']} (dealer: seat {ev['dealer']})"
    if t == "deal":
        lines = ["Deal:"] + [
            f"  seat {i}: " + (f"{len(h)} cards" if i in hidden else " ".join(_p(c) for c in h))
            for i, h in enumerate(ev["hands"])
        ]
        lines += [
            f"  {k}: " + (f"{len(v)} cards" if hidden else " ".join(_p(c) for c in v))
            for k, v in ev.items()
            if k not in ("type", "hands")
        ]
        return "\n".join(lines)
    if t == "turnup":
        return f"Turn-up: {_p(ev['card'])}" + (f" (trumps: {ev['trump']})" if ev.get("trump") else "")
    if t == "declare":
        return f"Seat {ev['seat']} announces {ev['declaration']}."
    if t == "play":
        src = ev.get("from")
        extra = f" ({'borrowed' if src == 'borrow' else 'from the ' + src})" if src and src != "hand" else ""
        return f"  seat {ev['seat']} plays {_p(ev['card'])}{extra}"
    if t == "run":
        return f"  seat {ev['seat']} begins a run in {ev['suit']}"
    if t == "renounce":
        return f"  seat {ev['seat']} cannot follow {ev['led']}"
    if t == "take":
        return f"  seat {ev['seat']} takes {' '.join(_p(c) for c in ev['cards'])} into {ev['to']}"
    if t == "number":
        return f"  seat {ev['seat']} chooses {ev['value']} ({ev['into']})"
    if t == "choose":
        return f"  seat {ev['seat']} chooses " + ("a card" if ev["seat"] in hidden else _p(ev["card"]))
    if t == "deliver":
        dest = f"seat {ev['to_seat']}'s {ev['to']}" if ev.get("to_seat") is not None else f"the {ev['to']}"
        shown = ev["seat"] not in hidden or (ev.get("to_seat") is not None and ev["to_seat"] not in hidden)
        cards = " ".join(_p(c) for c in ev["cards"]) if shown else f"{len(ev['cards'])} cards"
        return f"  seat {ev['seat']} gives {cards or 'no card'} to {dest}"
    if t == "trick":
        return f"  -> seat {ev['winner']} wins the trick"
    if t == "borrow":
        return f"  seat {ev['seat']} borrows {_p(ev['card'])} from seat {ev['from']}"
    if t == "draw":
        return f"  seat {ev['seat']} draws {_p(ev['card'])} from the {ev['from']}"
    if t == "pay":
        return (
            f"  {_h(ev['from'])} pays {ev['amount']} {ev['unit']}{'s' if ev['amount'] != 1 else ''} to {_h(ev['to'])}"
        )
    if t == "hand_end":
        if ev.get("reason") == "unfinished":
            return "Hand unfinished: the play limit was reached."
        w = ev["winner"]
        return f"Hand {ev['hand']} ends after {ev.get('plays', 0)} plays" + (
            f": seat {w} wins." if w is not None else "."
        )
    if t == "game_end":
        lines = ["\n== Game over" + (" (UNFINISHED: play limit reached)" if ev["unfinished"] else "")]
        lines += [f"  {r['rank']}. seat {r['seat']}: {r['score']}" for r in ev["standings"]]
        return "\n".join(lines)
    return None


def _p(name: str) -> str:
    c = parse_card(name)
    return pretty(c) if c and sys.stdout.encoding and sys.stdout.encoding.lower().startswith("utf") else name


def _h(h) -> str:
    return f"seat {h}" if isinstance(h, int) else f"the {h}"


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
    help=f"Agents by seat ({', '.join(AGENTS)}); one name for all. Default: random.",
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
@limit_flags
def play(rules, players, seed, agents, dealer, deck, deal_file, options, hands, max_plays, log_file, as_json, **kw):
    """Play one game of RULES (a corpus id such as enfle/academie, looked up
    only in the corpus, or a path: an argument that ends in .yaml or .yml or
    starts with ./, ../, / or ~; options may follow a plus:
    hearts/foster+sweepstakes).

    Seats are numbered 0 … n-1 in the direction of play; the seat after seat i
    is i+1. The game is narrated on standard output (or summarised with
    --json); --log writes every event as JSON Lines.
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
    sink = None
    if not as_json:  # narrate as the game goes, so that a human sees the table
        click.echo(safe(f"{game.title} ({game.id}), {n} players, seed {seed}"))
        hidden = set(range(n)) - humans if humans else set()
        draw_lowest = bool((game.dealer_draw or {}).get("lowest", True))  # as the interpreter reads it

        def sink(ev):
            line = narrate(ev, n, hidden, draw_lowest)
            if line is not None:
                click.echo(safe(line))

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
    )
    play_out(st, ags)
    if log_file:
        with atomic_write(log_file) as f:
            for ev in st.events:
                f.write(safe_json(json.dumps(ev, ensure_ascii=False)) + "\n")
    if as_json:
        click.echo(safe_json(json.dumps(summary(st), ensure_ascii=False)))
    if st.unfinished:
        click.echo("unfinished: the play limit was reached (raise it with --max-plays)", err=True)
