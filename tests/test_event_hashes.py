"""The engine's behaviour is pinned: the full event log of seeded random games of every corpus
rule file and option hashes to the value recorded in ``tests/golden/event_hashes.json``.

A refactoring of the language front end or the engine (moving code between modules, public
methods in place of private fields, tables computed at compile time) must leave every game played
exactly as before. A change that is meant to alter play updates the file with
``pytest --update-golden tests/test_event_hashes.py`` and says why in its commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

import academie
from academie.dsl.loader import corpus_ids, resolve

GOLDEN = Path(__file__).parent / "golden" / "event_hashes.json"
SEEDS = (1, 2, 3)


def _variants() -> list[str]:
    out = []
    for cid in corpus_ids():
        data = resolve(cid).data
        if data.get("abstract"):
            continue
        out.append(cid)
        out.extend(f"{cid}+{opt}" for opt in data.get("options") or {})
    return out


def _log_hash(ref: str, players: int, seed: int) -> str:
    """The hash of the whole event log of one seeded game, moves chosen by a seeded generator."""
    cid, *opts = ref.split("+")
    game = academie.load_game(cid, opts)
    st = game.new_state(players, seed=seed, keep_events=True)
    rng = random.Random(f"{ref}:{players}:{seed}")
    plays = 0
    while not st.is_terminal() and plays < 3000:
        st.apply(rng.choice(st.legal_moves()))
        plays += 1
    events = st.engine.events
    assert events and st.is_terminal(), f"{ref} with {players} players, seed {seed}: no whole game"
    text = json.dumps(events, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _all() -> dict[str, str]:
    out = {}
    for ref in _variants():
        cid, *opts = ref.split("+")
        lo, hi = academie.load_game(cid, opts).players
        for n in sorted({lo, hi}):
            for seed in SEEDS:
                out[f"{ref}/{n}@{seed}"] = _log_hash(ref, n, seed)
    return out


def test_event_logs_unchanged(request):
    got = _all()
    if request.config.getoption("--update-golden") or not GOLDEN.exists():
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        pytest.skip("event hashes written")
    want = json.loads(GOLDEN.read_text())
    changed = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
    assert not changed, f"event logs changed for {changed}"
