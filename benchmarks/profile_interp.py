"""Where the interpreter's time goes: cProfile of random games of a rule file.

python benchmarks/profile_interp.py                       # L'Enflé, 4 and 8 players
python benchmarks/profile_interp.py -p 8 -n 200 --top 30 --sort cumulative
python benchmarks/profile_interp.py --rules emprunt/lacombe -p 4
python benchmarks/profile_interp.py --rules hearts/foster+three-handed -p 3   # FILE+OPTION
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats

import academie
from academie.interpreter.simulate import Tally, game_seed, play_one
from academie.interpreter.state import DEFAULT_MAX_PLAYS


def profile(rules: str, n: int, games: int, top: int, sort: str) -> str:
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
    return f"== {rules}, {n} players, {games} games ({hands} hands)\n" + out.getvalue()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="enfle/academie")
    ap.add_argument("-p", "--players", default="4,8", help="player counts, comma-separated (default 4,8)")
    ap.add_argument("-n", "--games", type=int, default=100)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--sort", default="tottime", help="pstats sort key: tottime (default), cumulative …")
    a = ap.parse_args(argv)
    for p in a.players.split(","):
        print(profile(a.rules, int(p), a.games, a.top, a.sort))


if __name__ == "__main__":
    main()
