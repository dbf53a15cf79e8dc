"""The web app of ``academie serve``: a Starlette application that plays any
rule file of the corpus (or given on the command line) in the browser.

Trust boundary (docs/security.md): the rule files it runs are the corpus's
and those the user named on the command line, loaded when the app is made;
a request names a game by its place in that list, never by a path, and no
part of a request reaches the file system. The page and its script and style
are read from the package once. Games live in memory, at most ``MAX_GAMES``
at a time (the oldest is dropped), each under an unguessable id.

JSON API (what ``static/app.js`` calls):

* ``GET /api/games``: the games, their options, players and agents;
* ``POST /api/new`` ``{game, options, players, seats, seed}``: a new game;
* ``GET /api/game/ID``: the table as the human to move (or the first) sees it;
* ``POST /api/game/ID/play`` ``{move}``: a move; a refused one comes back with
  the follow rule that refused it and its source's words.
"""

from __future__ import annotations

import random
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .. import api
from ..dsl.errors import RuleError
from ..dsl.loader import Limits, corpus_ids, resolve
from ..dsl.model import load_game
from ..dsl.text import safe
from ..narrate import card_text, narrate
from .events import plays_of
from .explain import explain, explain_refusal

MAX_GAMES = 64
AGENTS = ("human", "random", "first", "ismcts", "mc")
SEARCH_ITERATIONS = 200  # a search player's budget per move: a fraction of a second on the corpus games
MAX_BODY = 64 * 1024


@dataclass
class Entry:
    """A game the app offers: a corpus id or a file the user named."""

    ref: str
    id: str
    title: str
    players: tuple[int, int]
    options: list[dict]
    variant_of: str | None = None


@dataclass
class Table:
    """One game in play."""

    entry: Entry
    state: api.State
    agents: list[str]
    seed: int | str
    rng: random.Random
    explained: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)  # seat -> its search player, made when first asked


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
    )


class Server:
    """The games offered and the games in play."""

    def __init__(self, refs: list[str] | None = None, limits: Limits | None = None):
        self.limits = limits or Limits()
        refs = list(corpus_ids()) + [r for r in (refs or []) if r not in corpus_ids()]
        self.entries = [e for e in (_entry(r, self.limits) for r in refs) if e is not None]
        self.compiled: dict[tuple, api.Game] = {}
        self.tables: OrderedDict[str, Table] = OrderedDict()
        tpl = resources.files("academie.serve")
        self.static = {
            "app.js": ((tpl / "static" / "app.js").read_text(encoding="utf-8"), "text/javascript"),
            "style.css": ((tpl / "static" / "style.css").read_text(encoding="utf-8"), "text/css"),
        }
        env = jinja2.Environment(
            loader=jinja2.PackageLoader("academie.serve", "templates"), autoescape=True, trim_blocks=True
        )
        self.page = env.get_template("play.html.j2").render(
            games=[{"key": i, "id": e.id, "title": e.title} for i, e in enumerate(self.entries)]
        )

    # -- the games offered --------------------------------------------------------
    def games(self) -> list[dict]:
        return [
            {
                "key": i,
                "id": e.id,
                "title": e.title,
                "players": list(e.players),
                "options": e.options,
                "variant_of": e.variant_of,
            }
            for i, e in enumerate(self.entries)
        ]

    # -- a new game ---------------------------------------------------------------------
    def new(self, body: dict) -> Table:
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
        key2 = (e.ref, tuple(sorted(options)))
        game = self.compiled.get(key2)
        if game is None:
            try:
                game = api.Game(load_game(e.ref, key2[1], self.limits), e.ref, key2[1])
            except RuleError as err:  # options that conflict, a file changed since the start
                raise BadRequest(safe(str(err.diagnostics[0].message if err.diagnostics else err))) from None
            self.compiled[key2] = game
        state = game.new_state(players=players, seed=seed)
        table = Table(e, state, list(seats), seed, random.Random(f"{seed}:agents"))
        gid = secrets.token_urlsafe(12)
        self.tables[gid] = table
        while len(self.tables) > MAX_GAMES:
            self.tables.popitem(last=False)
        self.advance(table)
        return table

    def advance(self, t: Table) -> None:
        """The other seats play until a human is to move, or the game ends."""
        st = t.state
        while not st.is_terminal():
            seat = st.current_player()
            if seat is None:
                return
            agent = t.agents[seat]
            if agent == "human":
                return
            if agent in ("ismcts", "mc"):
                player = t.players.get(seat)
                if player is None:
                    from .. import players

                    player = t.players[seat] = players.agent(
                        agent, iterations=SEARCH_ITERATIONS, seed=f"{t.seed}:{agent}:{seat}"
                    )
                st.apply_action(player.choose(st))
                continue
            moves = st.legal_moves()
            st.apply(moves[0] if agent == "first" else t.rng.choice(moves))

    def play(self, t: Table, move: Any) -> dict | None:
        """Make the human's move; a refusal (with its rule explained) if it is not legal."""
        st = t.state
        if st.is_terminal():
            raise BadRequest("the game is over")
        if not isinstance(move, str) or len(move) > 40:
            raise BadRequest("a move is a card (QS, 10H) or a declaration's name")
        mover = st.current_player()
        if mover is None or t.agents[mover] != "human":
            raise BadRequest("it is not your turn")
        try:
            why = st.why_illegal(move)
        except api.UnknownAction as err:
            raise BadRequest(str(err)) from None
        if why is not None:
            return explain_refusal(st.game.gamedef.doc, why)
        st.apply(move)
        self.advance(t)
        return None

    # -- what the page shows --------------------------------------------------------
    def _explain(self, t: Table, path: Any) -> dict | None:
        k = repr(path)
        if k not in t.explained:
            t.explained[k] = explain(t.state.game.gamedef.doc, path)
        return t.explained[k]

    def view(self, gid: str, t: Table) -> dict:
        st = t.state
        humans = [s for s, a in enumerate(t.agents) if a == "human"]
        mover = st.current_player()
        seat = mover if mover is not None and t.agents[mover] == "human" else (humans[0] if humans else 0)
        obs = st.observation(seat)
        hands = obs["earlier_hands"] + [obs["events"]]
        log = []
        you = {s for s, a in enumerate(t.agents) if a == "human"}
        lowest = bool((st.game.gamedef.dealer_draw or {}).get("lowest", True))  # as the interpreter reads it
        for hand in hands[-3:]:
            for ev in hand:
                line = narrate(ev, you=you, draw_lowest=lowest)
                if line is not None:
                    rule = self._explain(t, ev["rule"]) if "rule" in ev else None
                    log.append({**line.as_dict(), "rule": rule})
        current, last = plays_of(obs["events"])
        units = sorted({u for b in obs["balances"].values() for u in b})
        seats = []
        for s in range(st.players):
            bal = obs["balances"].get(str(s), {})
            seats.append(
                {
                    "seat": s,
                    "agent": t.agents[s],
                    "hand_size": obs["hand_sizes"][s],
                    "won": obs["won"][s],
                    "money": {u: bal.get(u, 0) for u in units},
                    "counters": {k: v[s] for k, v in obs["pvars"].items() if isinstance(v, list)},
                    "to_move": s == mover,
                    "dealer": s == obs["dealer"],
                }
            )
        pools = {h: b for h, b in obs["balances"].items() if not h.isdigit()}
        zones = {
            z: {"count": v["count"], "cards": [card_text(c) for c in v["cards"]]}
            for z, v in obs["zones"].items()
            if z not in ("pack", "trick") and v["count"]
        }
        legal = obs["legal"] if t.agents[seat] == "human" else []
        return {
            "id": gid,
            "game": {"id": t.entry.id, "title": t.entry.title, "options": list(st.game.options), "seed": t.seed},
            "players": st.players,
            "seat": seat,
            "agents": t.agents,
            "hand": [{"card": c, "text": card_text(c), "legal": c in legal} for c in obs["hand"]],
            "legal": [{"move": m, "text": card_text(m)} for m in legal],
            "decision": obs["decision"],
            "current_player": mover,
            "hand_no": obs["hand_no"],
            "led": obs["led"],
            "trump": obs["trump"],
            "trick": current,
            "last_trick": last,
            "seats": seats,
            "pools": pools,
            "zones": zones,
            "counters": {k: v for k, v in obs["vars"].items()},
            "standings": obs["standings"],
            "hand_results": obs["hand_results"],
            "terminal": obs["terminal"],
            "log": log[-200:],
        }


class BadRequest(ValueError):
    pass


async def _body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest("request too large")
    import json

    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        raise BadRequest("the request is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request is a JSON object")
    return body


def create_app(refs: list[str] | None = None, limits: Limits | None = None) -> Starlette:
    """The app, offering the corpus and the rule files ``refs`` (already checked by the caller)."""
    server = Server(refs, limits)

    async def index(request: Request) -> Response:
        return HTMLResponse(server.page)

    async def static(request: Request) -> Response:
        got = server.static.get(request.path_params["name"])
        if got is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(got[0], media_type=got[1])

    async def games(request: Request) -> Response:
        return JSONResponse(server.games())

    async def new(request: Request) -> Response:
        try:
            body = await _body(request)
            t = server.new(body)
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        gid = next(k for k, v in server.tables.items() if v is t)
        return JSONResponse(server.view(gid, t))

    def _table(request: Request) -> tuple[str, Table]:
        gid = request.path_params["gid"]
        t = server.tables.get(gid)
        if t is None:
            raise BadRequest("no such game (it may have been dropped: start another)")
        return gid, t

    async def show(request: Request) -> Response:
        try:
            gid, t = _table(request)
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=404)
        return JSONResponse(server.view(gid, t))

    async def play(request: Request) -> Response:
        try:
            gid, t = _table(request)
            body = await _body(request)
            refused = server.play(t, body.get("move"))
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse({**server.view(gid, t), "refused": refused})

    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/games", games),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/game/{gid}", show),
        Route("/api/game/{gid}/play", play, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.state.server = server
    return app
