"""The web app of ``academie serve``: a Starlette application that plays any
rule file of the corpus (or given on the command line) in the browser.

Trust boundary (docs/security.md): the rule files it runs are the corpus's
and those the user named on the command line, loaded when the app is made;
a request names a game by its place in that list, never by a path, and no
part of a request reaches the file system. The page and its script and style
are read from the package once. What a request must be to reach the app (its
Host, Origin, Content-Type, size, nesting) is ``guard``'s. Tables live in
memory, at most ``MAX_GAMES`` (idle ones dropped after ``IDLE_SECONDS``, then
the least recently asked for); each human seat of a table has its own secret
(or one secret for the table, hot seat), and a request names a seat by it.
Search players think in worker processes, one search per table at a time and
``MAX_SEARCHES`` at once, while the page asks again (``search.py``). What a seat
sees of a table is ``view.py``'s.

JSON API (what ``static/app.js`` calls):

* ``GET /api/games``: the games, their options, players and agents;
* ``POST /api/new`` ``{game, options, players, seats, seed, hotseat}``: a new
  table, as the creator's seat sees it (its ``id`` is the creator's secret),
  with ``links``: the other human seats' secrets, one for each person;
* ``GET /api/game/SECRET``: the table as that secret's seat sees it (hot seat:
  the human to move), ``thinking`` while a search player is to move;
* ``POST /api/game/SECRET/play`` ``{move}``: that seat's move; a refused one
  comes back with the follow rule that refused it and its source's words.
"""

from __future__ import annotations

import random
import secrets
import sys
import threading
import time
import os
import traceback
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import anyio
import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .. import api
from ..dsl.errors import RuleError
from ..dsl.families import FAMILIES, family_heading, family_rank
from ..dsl.loader import Limits, corpus_ids, resolve
from ..dsl.model import load_game
from ..dsl.text import safe
from .explain import explain_refusal
from .guard import Guard, Hosts, Refused, parse_json, read_body
from .search import MAX_SEARCHES, SEARCH_ITERATIONS, SEARCH_SECONDS, SEARCHERS, Stopping, search, searches  # noqa: F401
from .view import Views, counters_shown  # noqa: F401  (counters_shown: its old place)

MAX_GAMES = 1000  # tables kept (some 60 KB each when new); the least recently asked for is dropped for a new one
IDLE_SECONDS = 30 * 60  # a table no one asked for within this is dropped
MAX_COMPILED = 16  # compiled games (a game and a set of options) kept, least recently used dropped
AGENTS = ("human", "random", "first", "ismcts", "mc")
WATCH_SECONDS = 20.0  # a search goes on while someone asked for its table within this (the page polls)


PLAY_LOCK = threading.RLock()


@dataclass
class Entry:
    """A game the app offers: a corpus id or a file the user named."""

    ref: str
    id: str
    title: str
    players: tuple[int, int]
    options: list[dict]
    variant_of: str | None = None
    family: str | None = None


@dataclass
class Table:
    """One game in play, and who may see and play which of its seats."""

    entry: Entry
    state: api.State
    agents: list[str]
    seed: int | str
    rng: random.Random
    hotseat: bool = False
    explained: dict = field(default_factory=dict)
    tokens: dict = field(default_factory=dict)  # secret -> the seat it plays (None: every human seat, hot seat)
    # one lock for every table's state: a compiled game is played by one thread at a time
    # (docs/api.md), and tables of the same game share it; the requests and a search's move take it
    lock: threading.RLock = field(default_factory=lambda: PLAY_LOCK)
    seen: float = field(default_factory=time.monotonic)  # when a request last named it
    thinking: bool = False  # a search player's move is being sought (at most one per table)
    fault: str | None = None  # a rule fault met in play ended the game: where and what
    dropped: bool = False
    gid: str = ""  # its key among the server's tables

    def searching_seat(self) -> int | None:
        """The seat of the search player to move, if one is (and the game goes on)."""
        if self.fault is not None or self.state.is_terminal():
            return None
        seat = self.state.current_player()
        return seat if seat is not None and self.agents[seat] in SEARCHERS else None


def _entry(ref: str, limits: Limits) -> Entry | None:
    doc = resolve(ref, (), limits)
    d = doc.data
    if d.get("abstract"):
        return None
    p = d.get("players") or {}
    opts = []
    for name, o in sorted((d.get("options") or {}).items()):
        o = o if isinstance(o, dict) else {}
        desc = o.get("description") or o.get("summary") or ""
        opts.append({"name": safe(str(name)), "description": safe(" ".join(str(desc).split()))})
    return Entry(
        ref=ref,
        id=safe(doc.id),
        title=safe(str(d.get("title") or doc.id)),
        players=(int(p.get("min", 1)), int(p.get("max", p.get("min", 1)))),
        options=opts,
        variant_of=ref.split("/")[0] if "/" in ref else None,
        family=d.get("family") if d.get("family") in FAMILIES else None,
    )


class Server(Views):
    """The games offered and the games in play."""

    def __init__(self, refs: list[str] | None = None, limits: Limits | None = None):
        self.limits = limits or Limits()
        refs = list(corpus_ids()) + [r for r in (refs or []) if r not in corpus_ids()]
        self.entries = [e for e in (_entry(r, self.limits) for r in refs) if e is not None]
        self.compiled: OrderedDict[tuple, api.Game] = OrderedDict()
        self.compiling = threading.Lock()  # one game compiled at a time
        self.tables: OrderedDict[str, Table] = OrderedDict()  # least recently asked for first
        self.tokens: dict[str, tuple[Table, int | None]] = {}
        tpl = resources.files("academie.serve")
        self.static = {
            "app.js": ((tpl / "static" / "app.js").read_text(encoding="utf-8"), "text/javascript"),
            "style.css": ((tpl / "static" / "style.css").read_text(encoding="utf-8"), "text/css"),
        }
        env = jinja2.Environment(
            loader=jinja2.PackageLoader("academie.serve", "templates"), autoescape=True, trim_blocks=True
        )
        self.page = env.get_template("play.html.j2").render(groups=self.groups())

    # -- the games offered --------------------------------------------------------
    def groups(self) -> list[dict]:
        """The games offered by family of play, in the order ``academie list`` gives them
        (a game naming no family last); each game keeps its key."""
        groups: dict[str | None, list[dict]] = {}
        ranked = sorted(enumerate(self.entries), key=lambda ie: family_rank(ie[1].family))
        for i, e in ranked:  # stable: the corpus order within a family
            groups.setdefault(e.family, []).append({"key": i, "id": e.id, "title": e.title})
        return [{"heading": family_heading(f), "games": gs} for f, gs in groups.items()]

    def games(self) -> list[dict]:
        return [
            {
                "key": i,
                "id": e.id,
                "title": e.title,
                "players": list(e.players),
                "options": e.options,
                "variant_of": e.variant_of,
                "family": e.family,
            }
            for i, e in enumerate(self.entries)
        ]

    # -- a new game ---------------------------------------------------------------------
    def check_new(self, body: dict) -> dict:
        """A new game's request, checked: its entry, options (a set, each the file's own), seats and seed."""
        key = body.get("game")
        if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < len(self.entries):
            raise BadRequest("no such game")
        e = self.entries[key]
        names = {o["name"] for o in e.options}
        options = body.get("options") or []
        if not isinstance(options, list) or not all(isinstance(o, str) and o in names for o in options):
            raise BadRequest(f"options are among: {', '.join(sorted(names)) or 'none'}")
        players = body.get("players", e.players[0])
        if isinstance(players, bool) or not isinstance(players, int) or not e.players[0] <= players <= e.players[1]:
            raise BadRequest(f"{e.id} is for {e.players[0]} to {e.players[1]} players")
        seats = body.get("seats") or ["human"] + ["random"] * (players - 1)
        if not isinstance(seats, list) or len(seats) != players or not all(a in AGENTS for a in seats):
            raise BadRequest(f"one agent per seat, among {', '.join(AGENTS)}")
        seed = body.get("seed", 0)
        if isinstance(seed, str) and seed.strip().lstrip("-").isdigit() and seed.strip().isascii():
            seed = int(seed)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > 200:
            raise BadRequest("a seed is a number or a short text")
        hotseat = body.get("hotseat", False)
        if not isinstance(hotseat, bool):
            raise BadRequest("hotseat is true or false")
        return {
            "entry": e,
            "options": tuple(sorted(set(options))),  # the set: order and repeats do not make another game
            "players": players,
            "seats": list(seats),
            "seed": seed,
            "hotseat": hotseat,
        }

    def compile(self, e: Entry, options: tuple[str, ...]) -> api.Game:
        """The game of ``e`` with ``options`` (a sorted set), compiled once and kept while used."""
        key = (e.ref, options)
        with self.compiling:
            game = self.compiled.get(key)
            if game is None:
                try:
                    game = api.Game(load_game(e.ref, options, self.limits), e.ref, options)
                except RuleError as err:  # options that conflict, a file changed since the start
                    raise BadRequest(safe(str(err.diagnostics[0].message if err.diagnostics else err))) from None
                self.compiled[key] = game
                while len(self.compiled) > MAX_COMPILED:
                    self.compiled.popitem(last=False)
            else:
                self.compiled.move_to_end(key)
            return game

    def new(self, req: dict, game: api.Game) -> tuple[Table, str, list[dict]]:
        """A new table of the checked request ``req``: the table, the creator's secret, and the
        links (seat, secret) of the other human seats, each to be given to its player."""
        try:
            state = game.new_state(players=req["players"], seed=req["seed"])
        except RuleError as err:
            raise BadRequest(safe(err.format(with_context=False))) from None
        seats = req["seats"]
        humans = [s for s, a in enumerate(seats) if a == "human"]
        hotseat = req["hotseat"] and len(humans) > 1
        t = Table(req["entry"], state, seats, req["seed"], random.Random(f"{req['seed']}:agents"), hotseat=hotseat)
        self._admit(t)
        if hotseat or not humans:  # one browser for every human seat, or none to play: one secret for the table
            mine = self._token(t, None)
            links = []
        else:
            mine = self._token(t, humans[0])
            links = [{"seat": s, "token": self._token(t, s)} for s in humans[1:]]
        with t.lock:
            self.advance(t)
        return t, mine, links

    def _token(self, t: Table, seat: int | None) -> str:
        token = secrets.token_urlsafe(18)
        t.tokens[token] = seat
        self.tokens[token] = (t, seat)
        return token

    def _admit(self, t: Table) -> None:
        """Room for one more table: those idle too long are dropped, then the least recently asked for."""
        now = time.monotonic()
        for gid in [g for g, x in self.tables.items() if now - x.seen > IDLE_SECONDS]:
            self._drop(gid)
        while len(self.tables) >= MAX_GAMES:
            self._drop(next(iter(self.tables)))
        t.gid = secrets.token_urlsafe(12)
        self.tables[t.gid] = t

    def _drop(self, gid: str) -> None:
        t = self.tables.pop(gid)
        t.dropped = True  # a search under way stops at its next move
        for token in t.tokens:
            self.tokens.pop(token, None)

    def lookup(self, token: str) -> tuple[Table, int | None]:
        """The table and seat of a secret; the table is asked for now (kept, its search goes on)."""
        got = self.tokens.get(token)
        if got is None:
            raise NotFound("no such game (it may have been dropped: start another)")
        t, seat = got
        t.seen = time.monotonic()
        self.tables.move_to_end(t.gid)
        return t, seat

    def advance(self, t: Table) -> None:
        """The seats of cheap players play until a human or a search player is to move, or the
        game ends; a search player's move is sought on a worker thread (``think``). A rule
        fault met on the way ends the game with its place in the rule file. Called with
        ``t.lock`` held."""
        st = t.state
        try:
            while t.fault is None and not st.is_terminal():
                seat = st.current_player()
                if seat is None:
                    return
                agent = t.agents[seat]
                if agent == "human":
                    return
                if agent in SEARCHERS:
                    if not t.thinking and not t.dropped:
                        t.thinking = True
                        try:
                            searches().submit(self.think, t)
                        except RuntimeError:  # the process is ending
                            t.thinking = False
                    return
                moves = st.legal_moves()
                st.apply(moves[0] if agent == "first" else t.rng.choice(moves))
        except RuleError as err:
            t.fault = safe(err.format(with_context=False))

    def think(self, t: Table) -> None:
        """On a worker thread: the move of the search player to move in ``t``, sought in a
        worker process within ``SEARCH_SECONDS``; then the cheap players, and the next
        search is queued behind the other tables' (``advance``). Nothing is sought once the
        table is dropped, or when no one asked for it within ``WATCH_SECONDS`` (the page
        went away: it goes on when the table is asked for again)."""
        try:
            with t.lock:
                seat = t.searching_seat()
                if seat is None or t.dropped or time.monotonic() - t.seen > WATCH_SECONDS:
                    t.thinking = False
                    return
                agent = t.agents[seat]
                seed = f"{t.seed}:{agent}:{seat}:{len(t.state.history)}"
                snapshot = t.state.clone()
            action = search(snapshot, agent, seed)
            with t.lock:
                t.thinking = False
                if not t.dropped:
                    t.state.apply_action(action)
                    self.advance(t)
        except Stopping:  # the server is stopping
            t.thinking = False
        except RuleError as err:  # met in the search's playouts, or when its move was made
            with t.lock:
                t.fault = safe(str(err.args[0] if err.args else err))
                t.thinking = False
        except Exception as err:  # a bug, or a worker that died: the table ends, the server goes on
            print(
                f"academie serve: internal error in a search: {type(err).__name__} (please report it)", file=sys.stderr
            )
            if os.environ.get("ACADEMIE_DEBUG"):
                traceback.print_exc()
            with t.lock:
                t.fault = "the game stopped on an internal error of academie (please report it)"
                t.thinking = False

    def resume(self, t: Table) -> None:
        """A search stopped because no one watched goes on now that someone asks."""
        with t.lock:
            if not t.thinking and t.searching_seat() is not None:
                self.advance(t)

    def play(self, t: Table, seat: int | None, move: Any) -> dict | None:
        """Make the move of the human at ``seat`` (None: any human, hot seat); a refusal (with
        its rule explained) if it is not legal."""
        with t.lock:
            st = t.state
            if t.fault is not None:
                raise BadRequest(f"the game ended on a fault in its rules: {t.fault}")
            if st.is_terminal():
                raise BadRequest("the game is over")
            if not isinstance(move, str) or len(move) > 40:
                raise BadRequest("a move is a card (QS, 10H) or a declaration's name")
            mover = st.current_player()
            if mover is None or t.agents[mover] != "human" or (seat is not None and mover != seat):
                raise BadRequest("it is not your turn")
            try:
                why = st.why_illegal(move)
            except api.UnknownAction as err:
                raise BadRequest(str(err)) from None
            if why is not None:
                return explain_refusal(st.game.gamedef.doc, why)
            try:
                st.apply(move)
            except RuleError as err:
                t.fault = safe(err.format(with_context=False))
                return None
            self.advance(t)
            return None


class BadRequest(ValueError):
    status = 400


class NotFound(BadRequest):
    status = 404


async def _body(request: Request) -> dict:
    """The request's JSON object, read within the bounds of ``guard`` (size, time, nesting)."""
    return parse_json(await read_body(request.receive, request.headers))


def create_app(refs: list[str] | None = None, limits: Limits | None = None, host: str = "127.0.0.1") -> Guard:
    """The app, offering the corpus and the rule files ``refs`` (already checked by the
    caller), answering requests addressed to ``host`` (the address it listens on; see
    ``guard.Hosts``)."""
    server = Server(refs, limits)

    async def index(request: Request) -> Response:
        return HTMLResponse(server.page)

    async def static(request: Request) -> Response:
        got = server.static.get(request.path_params["name"])
        if got is None:
            return JSONResponse({"error": "not found"}, status_code=404)
        return Response(got[0], media_type=got[1])

    async def games(request: Request) -> Response:
        return JSONResponse(server.games())

    async def new(request: Request) -> Response:
        try:
            req = server.check_new(await _body(request))
            game = await anyio.to_thread.run_sync(server.compile, req["entry"], req["options"])
            t, token, links = server.new(req, game)
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        return JSONResponse({**server.view(token, t, t.tokens[token]), "links": links})

    async def show(request: Request) -> Response:
        try:
            token = request.path_params["token"]
            t, seat = server.lookup(token)
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        server.resume(t)
        return JSONResponse(server.view(token, t, seat))

    async def play(request: Request) -> Response:
        try:
            token = request.path_params["token"]
            t, seat = server.lookup(token)
            body = await _body(request)
            refused = server.play(t, seat, body.get("move"))
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        return JSONResponse({**server.view(token, t, seat), "refused": refused})

    async def not_found(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": "not found"}, status_code=404)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": "method not allowed"}, status_code=405)

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        # a body refused before its end: the connection is closed rather than read to its end
        headers = {"Connection": "close"} if exc.status in (408, 413) else None
        return JSONResponse({"error": exc.message}, status_code=exc.status, headers=headers)

    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/games", games),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/game/{token}", show),
        Route("/api/game/{token}/play", play, methods=["POST"]),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_allowed, Refused: refused})
    app.state.server = server
    return Guard(app, Hosts(host))
