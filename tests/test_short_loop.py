"""The short trick loop (agents that draw uniformly, asked inline, no event log)
plays the same games as the general loop: for every game of the corpus and every
option, the same seeds give the same hands, standings and counters either way."""
import pytest

from academie.dsl.loader import corpus_ids, resolve
from academie.dsl.model import load_game
from academie.interpreter.simulate import play_one
from academie.interpreter.state import State

PLAYABLE = [cid for cid in corpus_ids() if not resolve(cid).data.get("abstract")]


def _variants():
    for cid in PLAYABLE:
        yield cid, ()
        for opt in resolve(cid).data.get("options") or {}:
            yield cid, (opt,)


def _outcome(game, n, seed):
    st = play_one(game, n, seed, ["random"], 50_000)
    zones = {k: [c.name for c in v] for k, v in st.zones.items()}
    hands = [[c.name for c in h] for h in st.hand]
    return st.standings, st.hand_results, st.stats, st.bal, zones, hands, st.unfinished


@pytest.mark.parametrize("cid,opts", list(_variants()), ids=lambda v: "+".join(v) if isinstance(v, tuple) else v)
def test_short_loop_plays_the_same_games(cid, opts, monkeypatch):
    game = load_game(cid, list(opts))
    used = []
    real = State._tricks_drawn

    def counting(self, st, uniform):
        used.append(1)
        return real(self, st, uniform)
    monkeypatch.setattr(State, "_tricks_drawn", counting)
    for n in sorted({game.min_players, game.max_players}):
        for seed in range(6):
            monkeypatch.setattr(State, "_draw_inline", True)
            short = _outcome(game, n, f"short/{seed}")
            monkeypatch.setattr(State, "_draw_inline", False)
            general = _outcome(game, n, f"short/{seed}")
            assert short == general, f"{cid}{'+' + '+'.join(opts) if opts else ''}, {n} players, seed {seed}"
    tricks = [st for st in game.steps if st.kind == "tricks"]
    eligible = any(st.lead_test is None and st.key_pure and len(st.must) == 1
                   and st.must[0].shape == "card.suit == led" and st.free is None for st in tricks)
    assert bool(used) == eligible       # the short loop ran exactly where it applies
