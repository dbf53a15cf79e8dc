"""The ``academie`` command line."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from .args import SEED, SEED_HELP, check_agents, check_dealer
from .dsl.cards import parse_card, pretty
from .dsl.errors import Pos, RuleError, remember_text
from .dsl.loader import Limits, corpus_ids, load_yaml, resolve, split_ref
from .dsl.model import GameDef, load_game
from .dsl.text import safe, safe_json, split_lines
from .paths import allowed_paths, allow_path_option
from .interpreter.agents import AGENTS, make_agents, play as play_out
from .interpreter.simulate import MAX_CHUNK, MAX_GAMES
from .interpreter.state import DEFAULT_MAX_PLAYS, Abandoned, InvariantError, State
from .outputs import AtomicFile, STATUS, atomic_write, check_targets, failed_stream, silence_stdout

EXIT_USAGE = 2


class _Group(click.Group):
    """Turns user errors into located messages and exit status 2, never a traceback."""

    def main(self, *args, **kwargs):
        try:
            return super().main(*args, **kwargs)
        except SystemExit as e:        # what is still buffered for standard output is written now
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            status = _flush_stdout(code)
            if status != code:
                raise SystemExit(status) from None
            raise

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except click.ClickException as e:
            raise _escaped(e) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.ClickException as e:   # a usage error may quote an argument: shown escaped
            raise _escaped(e) from None
        except RuleError as e:
            click.echo(e.format(), err=True)
            ctx.exit(EXIT_USAGE)
        except Abandoned as e:              # a person's input ended (Ctrl-D, < /dev/null)
            click.echo(f"academie: {e}", err=True)
            ctx.exit(EXIT_USAGE)
        except InvariantError as e:
            click.echo(safe(f"academie: internal invariant broken: {e} (please report this with the command line)"),
                       err=True)
            ctx.exit(3)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except Exception as e:  # pragma: no cover - a bug; show it plainly, not as a traceback
            stream = failed_stream(e)
            if stream:      # a closed pipe or a full disk: not a bug, not the rule file's
                _output_failed(ctx, e, stream)
            if os.environ.get("ACADEMIE_DEBUG"):
                raise
            click.echo(safe(f"academie: internal error: {type(e).__name__}: {e}\n"
                            "(set ACADEMIE_DEBUG=1 to see the traceback, and please report it)"), err=True)
            ctx.exit(3)


def _escaped(e: click.ClickException) -> click.ClickException:
    """A usage error whose message quotes an argument (a file name, a value)
    with its control characters escaped, as everything else printed is."""
    e.message = safe(e.message)
    return e


def _output_failed(ctx, e: OSError, stream: str):
    """Standard output (or error) failed. A closed pipe (output piped into
    head, less …): stop quietly with the status the command had decided, else
    141 as if killed by SIGPIPE. Anything else (a full disk): a message and
    exit status 2."""
    silence_stdout(stream)
    if isinstance(e, BrokenPipeError):
        ctx.exit(ctx.meta.get(STATUS, 141))
    if stream == "stdout":
        click.echo(f"academie: cannot write standard output: {e.strerror or e}", err=True)
    ctx.exit(EXIT_USAGE)


def _flush_stdout(status: int) -> int:
    """Flush standard output at the end of a command; the exit status, changed
    if standard output cannot be written (a full disk: 2, with a message; a
    closed pipe: the command's own status, quietly)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return status
    except OSError as e:
        silence_stdout()
        click.echo(f"academie: cannot write standard output: {e.strerror or e}", err=True)
        return status if status not in (0, 1) else EXIT_USAGE
    except (AttributeError, ValueError):   # no standard output, or closed
        pass
    return status


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="academie")
def main():
    """academie: historical card-game rules as cited, executable data.

    Every game, and every source's variant of it, is a rule file (YAML) whose
    elements cite their sources. The same interpreter plays any of them.

    \b
    Start with:
      academie list                          the games of the corpus
      academie play enfle/academie -p 5      a game of L'Enflé, random players
      academie simulate enfle/academie -n 1000
    """


# -- helpers -----------------------------------------------------------------------
def _options(f):
    f = click.option("--option", "-o", "options", multiple=True, metavar="NAME",
                     help="Switch on a named option of the rule file (repeatable).")(f)
    return f


def _limits(f):
    """Resource limits of the loader, which a user can raise."""
    d = Limits()
    f = click.option("--max-quote-length", type=click.IntRange(min=1), default=d.quote_length, show_default=True,
                     help="Refuse a quoted passage longer than this many characters.")(f)
    f = click.option("--max-expr-depth", type=click.IntRange(min=1, max=200), default=d.expr_depth,
                     show_default=True, help="Refuse an expression nested deeper than this (at most 200).")(f)
    f = click.option("--max-expr-length", type=click.IntRange(min=1), default=d.expr_length, show_default=True,
                     help="Refuse an expression longer than this many characters.")(f)
    f = click.option("--max-int-digits", type=click.IntRange(min=1, max=4000), default=d.int_digits,
                     show_default=True, help="Refuse an integer of more digits than this (at most 4000).")(f)
    f = click.option("--max-cards", type=click.IntRange(min=1, max=100_000), default=d.cards, show_default=True,
                     help="Refuse a pack, hand or deal of more cards than this (at most 100000).")(f)
    f = click.option("--max-players", type=click.IntRange(min=1, max=10_000), default=d.players, show_default=True,
                     help="Refuse a game for more players than this (at most 10000).")(f)
    f = allow_path_option(f)
    f = click.option("--max-nodes", type=click.IntRange(min=1), default=d.nodes, show_default=True,
                     help="Refuse a document of more nodes than this (after aliases).")(f)
    f = click.option("--max-depth", type=click.IntRange(min=1), default=d.depth, show_default=True,
                     help="Refuse a document nested deeper than this.")(f)
    f = click.option("--max-file-size", type=click.IntRange(min=1), default=d.file_bytes, show_default=True,
                     help="Refuse a rule or deal file larger than this many bytes.")(f)
    return f


def _make_limits(kw: dict) -> Limits:
    return Limits(file_bytes=kw.pop("max_file_size"), depth=kw.pop("max_depth"), nodes=kw.pop("max_nodes"),
                  players=kw.pop("max_players"), cards=kw.pop("max_cards"), int_digits=kw.pop("max_int_digits"),
                  expr_length=kw.pop("max_expr_length"), expr_depth=kw.pop("max_expr_depth"),
                  quote_length=kw.pop("max_quote_length"), allow=allowed_paths(kw.pop("allow_path", ())))


def _with_options(rules: str, options) -> tuple[str, tuple]:
    """RULES may name options after a plus, as ``compare`` takes them:
    ``hearts/foster+sweepstakes`` is ``hearts/foster -o sweepstakes``."""
    base, named = split_ref(rules)
    return base, tuple(named) + tuple(o for o in options if o not in named)


def _load(rules: str, options, limits: Limits | None = None) -> GameDef:
    return load_game(rules, tuple(options), limits)


def _players(game: GameDef, players: int | None) -> int:
    if players is None:
        return game.min_players
    if not (game.min_players <= players <= game.max_players):
        raise RuleError(f"{game.id} is for {game.min_players} to {game.max_players} players, not {players}",
                        game.doc.pos(("players",)), code="players")
    return players


def _read_deck(path: str, limits: Limits | None = None):
    """The cards of a deck file, each with the place it is written."""
    text = _read_text(path, limits, "deck file")
    cards = []
    for ln, line in enumerate(split_lines(text), 1):
        line = line.split("#", 1)[0]   # comments
        col = 0
        for tok in line.replace(",", " ").split(" "):
            if tok:
                c = parse_card(tok)
                if c is None:
                    raise RuleError(f"'{tok}' is not a card (write rank + suit: AS, 10H, KD, 7C)",
                                    Pos(path, ln, col + 1), code="deck")
                cards.append((c, Pos(path, ln, col + 1)))
            col += len(tok) + 1
    if not cards:
        raise RuleError("the deck file holds no cards", Pos(path, 1, 1), code="deck")
    return cards


def _check_deck(cards, pack, path: str, n: int):
    """A stacked deck holds each card of the pack exactly once."""
    in_pack, seen = set(pack), {}
    for c, pos in cards:
        if c not in in_pack:
            raise RuleError(f"{c} is not in this game's pack for {n} players", pos, code="deck")
        if c in seen:
            raise RuleError(f"{c} is in the deck twice (first at line {seen[c].line}, column {seen[c].col})",
                            pos, code="deck")
        seen[c] = pos
    missing = [c.name for c in pack if c not in seen]
    if missing:
        end = cards[-1][1] if cards else Pos(path, 1, 1)
        raise RuleError(f"the deck lacks {len(missing)} card(s) of the pack for {n} players: "
                        f"{', '.join(missing)}", end, code="deck")
    return [c for c, _ in cards]


def _read_text(path: str, limits: Limits | None = None, what: str = "file") -> str:
    """A deck or deal file's text: a regular file only, its size bounded, a BOM dropped."""
    from .dsl.loader import read_input
    raw = read_input(path, (limits or Limits()).file_bytes, what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise RuleError("not UTF-8 text", Pos(path, line, col), code="encoding") from None
    text = text.removeprefix("\ufeff")
    remember_text(path, text)
    return text


def _agents(spec: str | None, n: int, seed):
    return make_agents(check_agents(spec, n), n, seed)


def _summary(st: State) -> dict:
    return {"game": st.g.id, "title": st.g.title, "players": st.n, "seed": st.seed,
            "options": st.g.options, "hands": st.hand_results, "plays": st.plays,
            "unfinished": st.unfinished, "standings": st.standings,
            "balances": {str(h): b for h, b in st.bal.items()}}


def _narrate(ev: dict, n: int, hidden: set = frozenset()) -> str | None:
    """One line (or a few) of the game's narrative; the dealt hands of the
    ``hidden`` seats are shown only by their number of cards."""
    t = ev["type"]
    if t == "dealer":
        return f"Seat {ev['seat']} draws the lowest card and deals first."
    if t == "hand_start":
        return f"\n== Hand {ev['hand']} (dealer: seat {ev['dealer']})"
    if t == "deal":
        lines = ["Deal:"] + [f"  seat {i}: " + (f"{len(h)} cards" if i in hidden else ' '.join(_p(c) for c in h))
                             for i, h in enumerate(ev["hands"])]
        lines += [f"  {k}: " + (f"{len(v)} cards" if hidden else ' '.join(_p(c) for c in v))
                  for k, v in ev.items() if k not in ("type", "hands")]
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
    if t == "trick":
        return f"  -> seat {ev['winner']} wins the trick"
    if t == "borrow":
        return f"  seat {ev['seat']} borrows {_p(ev['card'])} from seat {ev['from']}"
    if t == "draw":
        return f"  seat {ev['seat']} draws {_p(ev['card'])} from the {ev['from']}"
    if t == "pay":
        return f"  {_h(ev['from'])} pays {ev['amount']} {ev['unit']}{'s' if ev['amount'] != 1 else ''} to {_h(ev['to'])}"
    if t == "hand_end":
        if ev.get("reason") == "unfinished":
            return "Hand unfinished: the play limit was reached."
        w = ev["winner"]
        return f"Hand {ev['hand']} ends after {ev.get('plays', 0)} plays" + (f": seat {w} wins." if w is not None else ".")
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


# -- commands ----------------------------------------------------------------------
@main.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def list_cmd(as_json):
    """List the games and variants of the corpus, with players and sources."""
    rows = []
    for cid in corpus_ids():
        doc = resolve(cid)
        d = doc.data
        srcs = doc.sources()
        p = d.get("players") or {}
        rows.append({"id": cid, "title": d.get("title", cid), "players": [p.get("min"), p.get("max")],
                     "sources": srcs, "options": sorted((d.get("options") or {})),
                     "extends": _extends(cid), "abstract": bool(d.get("abstract"))})
    if as_json:
        click.echo(safe_json(json.dumps(rows, indent=1, ensure_ascii=False)))
        return
    for r in rows:
        pl = "fragment" if r["abstract"] else f"{r['players'][0]}-{r['players'][1]} players"
        click.echo(safe(f"{r['id']:<22} {r['title']:<28} {pl:<13} sources: {', '.join(r['sources'])}", True))
        if r["extends"]:
            click.echo(safe(f"{'':<22}   a variant of {r['extends']}", True))
        if r["options"]:
            click.echo(safe(f"{'':<22}   options: {', '.join(r['options'])}", True))


def _extends(cid):
    from .dsl.loader import find_rules, load_file
    path, _ = find_rules(cid)
    data, _ = load_file(path)
    return data.get("extends")


@main.command()
@click.argument("rules")
@click.option("--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest the rules allow).")
@click.option("--seed", "-s", type=SEED, default="0", show_default=True,
              help="Seed for the shuffle, the draw and the random agents: " + SEED_HELP + ".")
@click.option("--agents", "-a", metavar="A1,A2,…", help=f"Agents by seat ({', '.join(AGENTS)}); one name for all. Default: random.")
@click.option("--dealer", type=click.IntRange(min=0), help="Seat of the first dealer (default: chosen as the rules say).")
@click.option("--deck", type=click.Path(dir_okay=False), help="A stacked pack, top card first (AS 10H KD …): no shuffle, no cut, first hand only.")
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False), help="The first hand's deal (YAML/JSON): hands: [[…], …] and other zones by name.")
@_options
@click.option("--hands", type=click.IntRange(min=1), help="Stop after this many hands (default: as the rules say).")
@click.option("--max-plays", type=click.IntRange(min=1), default=DEFAULT_MAX_PLAYS, show_default=True, help="Play limit: beyond it the game is reported unfinished.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False), help="Write the event log here as JSON Lines.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary instead of the narrative.")
@_limits
def play(rules, players, seed, agents, dealer, deck, deal_file, options, hands, max_plays, log_file, as_json,
         **kw):
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
    rules, options = _with_options(rules, options)
    check_targets([("--log", log_file)], inputs=_inputs(rules, ("--deck", deck), ("--deal", deal_file)))
    limits = _make_limits(kw)
    game = _load(rules, options, limits)
    n = _players(game, players)
    check_dealer(dealer, n)
    seed_v = seed
    deck_cards = _check_deck(_read_deck(deck, limits), game.pack(n), deck, n) if deck else None
    deal = _read_deal(deal_file, limits) if deal_file else None
    ags = _agents(agents, n, seed_v)
    names = (agents or "random").split(",")
    humans = {i for i, name in enumerate(names * n if len(names) == 1 else names) if name == "human"}
    sink = None
    if not as_json:                     # narrate as the game goes, so that a human sees the table
        click.echo(safe(f"{game.title} ({game.id}), {n} players, seed {seed}"))
        hidden = set(range(n)) - humans if humans else set()

        def sink(ev):
            line = _narrate(ev, n, hidden)
            if line is not None:
                click.echo(safe(line))
    st = State(game, n, seed_v, dealer=dealer, deck=deck_cards, deal=deal, max_plays=max_plays, hands=hands,
               deal_file=deal_file, sink=sink)
    play_out(st, ags)
    if log_file:
        with atomic_write(log_file) as f:
            for ev in st.events:
                f.write(safe_json(json.dumps(ev, ensure_ascii=False)) + "\n")
    if as_json:
        click.echo(safe_json(json.dumps(_summary(st), ensure_ascii=False)))
    if st.unfinished:
        click.echo("unfinished: the play limit was reached (raise it with --max-plays)", err=True)


def _inputs(rules: str, *others) -> list:
    """The files a command reads (for check_targets: no output may replace one)."""
    from .dsl.loader import is_path
    return [("RULES", rules)] * (is_path(rules) and os.path.isfile(rules)) + [o for o in others if o[1]]


def _read_deal(path: str, limits: Limits | None = None):
    text = _read_text(path, limits, "deal file")
    data, positions = load_yaml(text, path, limits)
    return {"data": data, "positions": positions}


@main.command()
@click.argument("rules")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
              help=f"Number of games (at most {MAX_GAMES}; memory does not grow with it).")
@click.option("--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest allowed).")
@click.option("--seed", "-s", type=SEED, default="0", show_default=True,
              help="Base seed; game i uses seed SEED/i. " + SEED_HELP[0].upper() + SEED_HELP[1:] + ".")
@click.option("--agents", "-a", metavar="A1,A2,…", help="Agents by seat (first, random). Default: random.")
@_options
@click.option("--max-plays", type=click.IntRange(min=1), default=DEFAULT_MAX_PLAYS, show_default=True,
              help="Play limit per game.")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes (default: all cores; "
              "at most the number of cores, and never more than there are chunks of games); 1 plays in this process.")
@click.option("--force-workers", is_flag=True, help="Allow more --workers than this machine has cores.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: worker processes on this machine; dask: a Dask cluster (pip install 'academie[dask]').")
@click.option("--scheduler", metavar="ADDRESS", help="With --backend dask: the scheduler to use (tcp://host:8786); "
              "default: a local cluster of --workers processes.")
@click.option("--chunk", type=click.IntRange(1, MAX_CHUNK), help=f"Games per task sent to a worker, at most "
              f"{MAX_CHUNK} (default: chosen from --games and --workers).")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), help="Write one row per game here (CSV).")
@click.option("--jsonl", "jsonl_file", type=click.Path(dir_okay=False), help="Write one row per game here (JSON Lines).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@_limits
def simulate(rules, games, players, seed, agents, options, max_plays, workers, force_workers, backend, scheduler,
             chunk, csv_file, jsonl_file, as_json, **kw):
    """Play many games of RULES (a corpus id or a path, as in play; options
    may follow a plus) and report wins by seat, hand lengths and how often the play limit was hit.

    Game i is played with seed SEED/i, so the report is the same whatever
    --workers, --chunk or --backend. --csv / --jsonl write per game: its
    index, seed, winning seats, hands, plays, whether it was unfinished and
    the final scores, in game order.
    """
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores and not force_workers and not scheduler:
        raise click.BadParameter(f"{workers} workers, but this machine has {cores} cores "
                                 "(add --force-workers to start them all the same)", param_hint="--workers")
    if scheduler and backend != "dask":
        raise click.BadParameter("--scheduler is for --backend dask", param_hint="--scheduler")
    if backend == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise click.UsageError("--backend dask needs Dask: pip install 'academie[dask]'") from None
    rules, options = _with_options(rules, options)
    check_targets([("--csv", csv_file), ("--jsonl", jsonl_file)], inputs=_inputs(rules))
    limits = _make_limits(kw)
    game = _load(rules, options, limits)
    n = _players(game, players)
    if agents and "human" in agents.split(","):
        raise click.BadParameter("simulate plays without a human", param_hint="--agents")
    names = (agents or "random").split(",")
    _agents(agents, n, 0)                           # same checks as play
    from .interpreter.simulate import BackendError, Job, simulate as run
    from .dsl.loader import is_path
    ref = str(Path(rules).expanduser().absolute()) if is_path(rules) else rules   # workers may start elsewhere
    writers = []
    job = Job(ref, tuple(options), n, seed, tuple(names), max_plays, rows=bool(csv_file or jsonl_file),
              limits=limits)

    def on_rows(rows):
        for w in writers:
            w.write(rows)
    try:
        for f, kind in ((csv_file, "csv"), (jsonl_file, "jsonl")):
            if f:
                writers.append(_RowWriter(f, kind, n))
        if sys.stderr.isatty() and not as_json:
            with click.progressbar(length=games, label=safe(game.id, True), file=click.get_text_stream("stderr")) as bar:
                tally = run(job, games, workers=workers, backend=backend, scheduler=scheduler, chunk=chunk,
                            game=game, on_progress=bar.update, on_rows=on_rows)
        else:
            tally = run(job, games, workers=workers, backend=backend, scheduler=scheduler, chunk=chunk,
                        game=game, on_rows=on_rows)
        for w in writers:
            w.close()
    except BaseException as e:
        for w in writers:
            w.abort()
        if isinstance(e, BackendError):
            raise _BackendFailure(str(e)) from None
        raise
    report = tally.report()
    if as_json:
        click.echo(safe_json(json.dumps(report, ensure_ascii=False)))
        return
    click.echo(safe(f"{game.title} ({game.id}), {n} players, {games} games, seed {seed}"))
    click.echo("  wins by seat (first place, ties shared): "
               + "  ".join(f"{s}: {w:.1f}" for s, w in enumerate(report["wins_by_seat"])))
    h = report["hand_plays"]
    click.echo(f"  plays per hand: median {h['median']}, mean {h['mean']:.1f}, max {h['max']} ({report['hands']} hands)")
    click.echo(f"  unfinished games (play limit {max_plays}): {report['unfinished']}")


@main.command()
@click.argument("rules", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as a JSON list.")
@click.option("--playouts", type=click.IntRange(min=0), default=3, show_default=True,
              help="Random games per number of players and option (0: none).")
@click.option("--max-plays", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="Play limit of each random game: beyond it the game is reported unfinished (a warning).")
@_limits
@click.pass_context
def validate(ctx, rules, as_json, playouts, max_plays, **kw):
    """Check rule files: structure, expressions, references, options,
    citations against the sources, the arithmetic of the deal (the rules'
    and the sources'), and a few random games.

    RULES are corpus ids (enfle/academie), looked up only in the corpus, or
    paths (an argument that ends in .yaml or .yml, or starts with ./, ../, /
    or ~); none: the whole corpus.
    Exit status: 0 no errors (warnings allowed), 1 errors, 2 misuse.
    """
    from .dsl.loader import find_rules, missing_hint
    from .validate import validate as run_validate
    refs = list(rules) or corpus_ids()
    for r in refs:
        try:
            find_rules(r)
        except FileNotFoundError:
            raise click.BadParameter(safe(f"no rule file '{r}': not a file, nor a corpus id"
                                          + (missing_hint(r) or f" (corpus: {', '.join(corpus_ids())})"), True),
                                     param_hint="RULES") from None
    report = run_validate(refs, playouts=playouts, limits=_make_limits(kw), max_plays=max_plays)
    ctx.meta[STATUS] = 1 if report.errors else 0     # kept if the report is cut by a closed pipe
    if as_json:
        click.echo(safe_json(json.dumps([d.as_json() for d in report.diagnostics], indent=1, ensure_ascii=False)))
    else:
        for d in report.diagnostics:
            click.echo(d.format(severity=True))
        click.echo(f"{len(report.files)} file(s) checked: {report.errors} error(s), "
                   f"{report.warnings} warning(s)", err=True)
    ctx.exit(1 if report.errors else 0)


@main.command()
@click.argument("sources", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--all", "every", is_flag=True, help="List every sentence with the rule elements citing it, "
              "not only the uncovered ones.")
def coverage(sources, as_json, every):
    """Which sentences of each source text the rule files cite.

    SOURCES are source ids (see sources/*.yaml); none: every source. A
    sentence is covered when a quote overlaps it; sentences matching a
    not_rules: prefix of the source's metadata, and headings, do not count.
    """
    from .dsl.loader import source_ids
    from .coverage import coverage as run_coverage, format_text
    known = source_ids()
    for s in sources:
        if s not in known:
            raise click.BadParameter(f"no source '{s}' (sources: {', '.join(sorted(known))})",
                                     param_hint="SOURCES")
    reports = run_coverage(list(sources) or None)
    if as_json:
        click.echo(safe_json(json.dumps(reports, indent=1, ensure_ascii=False)))
    else:
        click.echo(safe(format_text(reports, every)))


class _BackendFailure(click.ClickException):
    """The simulation backend cannot be used: a plain message, exit status 2."""
    exit_code = EXIT_USAGE


class _RowWriter:
    """Per-game rows, written as they come to a fresh temporary file beside
    FILE, renamed to FILE at the end (academie.outputs.AtomicFile)."""

    def __init__(self, path: str, kind: str, players: int):
        self.path, self.kind = path, kind
        self.f = AtomicFile(path, newline="")
        if kind == "csv":
            import csv
            self.csv = csv.writer(self.f)
            self.csv.writerow(["game", "seed", "winners", "hands", "plays", "unfinished"]
                              + [f"score_{s}" for s in range(players)])

    def write(self, rows):
        for r in rows:
            if self.kind == "csv":
                self.csv.writerow([r["game"], r["seed"], " ".join(map(str, r["winners"])), r["hands"], r["plays"],
                                   int(r["unfinished"])] + list(r["scores"]))
            else:
                self.f.write(safe_json(json.dumps(r, ensure_ascii=False)) + "\n")

    def close(self):
        self.f.commit()

    def abort(self):
        self.f.discard()




# -- reading the rules back: render, compare, site (tools/readers.py) -----------------
from .readers import compare as _compare_cmd, render as _render_cmd, site as _site_cmd  # noqa: E402

main.add_command(_render_cmd)
main.add_command(_compare_cmd)
main.add_command(_site_cmd)
