"""The optional compiled modules (``python -m academie.build_native``, mypyc) play every game exactly
as the pure-Python modules do: every corpus file and option, as ``simulate`` plays them (the short
loops, random players) and through the API with the full event log, compiled in this process and
pure Python in another (the extension modules set aside by an import hook).

Skipped when no compiled module is present (the default install): build them first, then run
``pytest tests/test_native.py`` (README, "Compiled modules").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from academie import build_native

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(
    not build_native.compiled_files(),
    reason="no compiled module present: build them with `python -m academie.build_native` "
    "(pip install -e '.[native]': mypy and setuptools; a C compiler too), then run this test",
)

SEEDS = (1, 2, 3)

# run in both processes: the digest of every game, the compiled modules in use or not
_PLAY = r"""
import hashlib, json, sys
sys.path.insert(0, {tests!r})
import academie
from academie.interpreter.base import DEFAULT_MAX_PLAYS
from academie.interpreter.simulate import play_one
from test_event_hashes import _log_hash, _variants

def digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]

out = {{}}
for ref in _variants():
    cid, *opts = ref.split("+")
    game = academie.load_game(cid, opts)
    lo, hi = game.players
    for n in sorted({{lo, hi}}):
        out[f"api {{ref}}/{{n}}"] = _log_hash(ref, n, 1)
        for seed in {seeds!r}:
            st = play_one(game.gamedef, n, f"native/{{seed}}", ["random"], DEFAULT_MAX_PLAYS)
            out[f"simulate {{ref}}/{{n}}@{{seed}}"] = digest(
                [st.hand_results, st.standings, st.stats, st.unfinished, st.plays]
            )
compiled = sorted(m for m in {modules!r} if not sys.modules[m].__file__.endswith(".py"))
print(json.dumps({{"compiled": compiled, "games": out}}))
"""

# set before anything of the package is imported: each module is loaded from its .py
_PURE = r"""
import importlib.abc, importlib.util, os, sys

class _PureSource(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if not name.startswith("academie.") or path is None:
            return None
        leaf = name.rpartition(".")[2]
        for d in path:
            f = os.path.join(d, leaf + ".py")
            if os.path.isfile(f):
                return importlib.util.spec_from_file_location(name, f)
        return None

sys.meta_path.insert(0, _PureSource())
"""


def _games(pure: bool) -> dict:
    code = (_PURE if pure else "") + _PLAY.format(tests=str(ROOT / "tests"), seeds=SEEDS, modules=build_native.MODULES)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def test_compiled_modules_play_as_pure_python():
    compiled, pure = _games(pure=False), _games(pure=True)
    # each side ran what it was meant to: the compiled modules in one, none in the other
    assert compiled["compiled"] == sorted(
        m
        for m in build_native.MODULES
        if any(f.name.startswith(m.rpartition(".")[2] + ".") for f in build_native.compiled_files())
    )
    assert compiled["compiled"], "no compiled module was imported"
    assert pure["compiled"] == []
    assert len(compiled["games"]) > 100
    differ = sorted(k for k in compiled["games"] if compiled["games"][k] != pure["games"].get(k))
    assert not differ, f"{len(differ)} games differ, the first: {differ[:5]}"
    assert compiled["games"] == pure["games"]
