"""Where the interpreter's time goes: cProfile of random games of a rule file.

python benchmarks/profile_interp.py                       # L'Enflé, 4 and 8 players
python benchmarks/profile_interp.py -p 8 -n 200 --top 30 --sort cumulative
python benchmarks/profile_interp.py --rules emprunt/lacombe -p 4
python benchmarks/profile_interp.py --rules hearts/foster+three-handed -p 3   # FILE+OPTION
python benchmarks/profile_interp.py --rules piquet/hoyle -p 2 --shares          # where a game's time goes

``--shares``: the share of the time (cumulative, from the same profile) spent playing the
cards (the short trick loop, sequence play; the legal cards within them), in the effects
steps, the pay steps, the shuffle and the deal, and the choices before the play.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats

import academie
from academie.interpreter.simulate import Tally, game_seed, play_one
from academie.interpreter.state import DEFAULT_MAX_PLAYS


_SHARES = {
    "card play": ("_step_tricks", "_tricks_drawn", "_step_sequence"),
    "  of it, the legal cards": ("_legal",),
    "effects steps": ("_step_effects",),
    "pay steps": ("_step_pay",),
    "shuffle and deal": ("_step_shuffle", "_step_deal"),
    "choices": ("_step_choose_number", "_step_choose_suit", "_step_choose_cards", "_step_announce"),
}


def shares(st: pstats.Stats) -> str:
    cum: dict[str, float] = {}
    for (_file, _line, name), (_cc, _nc, _tt, ct, _callers) in st.stats.items():  # type: ignore[attr-defined]
        cum[name] = cum.get(name, 0.0) + ct
    total = cum.get("play_one") or 1.0
    return "\n".join(f"  {k:26} {sum(cum.get(f, 0.0) for f in fs) / total:6.1%}" for k, fs in _SHARES.items())


def profile(rules: str, n: int, games: int, top: int, sort: str, with_shares: bool = False) -> str:
    game = academie.load_game(rules).gamedef  # a corpus id or path, options as FILE+OPTION
    tally = Tally(n)
    pr = cProfile.Profile()
    pr.enable()
    for i in range(games):
        tally.add(play_one(game, n, game_seed("profile", i), ["random"], DEFAULT_MAX_PLAYS))
    pr.disable()
    out = io.StringIO()
    st = pstats.Stats(pr, stream=out)
    st.strip_dirs().sort_stats(sort).print_stats(top)
    hands = tally.report()["hands"]
    head = f"== {rules}, {n} players, {games} games ({hands} hands)\n"
    if with_shares:
        return head + shares(st) + "\n"
    return head + out.getvalue()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="enfle/academie")
    ap.add_argument("-p", "--players", default="4,8", help="player counts, comma-separated (default 4,8)")
    ap.add_argument("-n", "--games", type=int, default=100)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--sort", default="tottime", help="pstats sort key: tottime (default), cumulative …")
    ap.add_argument("--shares", action="store_true", help="the share of the time in each part of a game")
    a = ap.parse_args(argv)
    for p in a.players.split(","):
        print(profile(a.rules, int(p), a.games, a.top, a.sort, a.shares))


if __name__ == "__main__":
    main()
