"""The checkpoint of a measuring run (``compare --resume FILE``,
``reconstruct --resume FILE``): the games finished so far, so that a run cut
short goes on where it stopped and gives the report an uninterrupted run gives.

The file is JSON, rewritten whole and atomically (``academie.outputs``) each
time a chunk of games is finished: what it holds is always a state the run
was in. It names the run it belongs to (the runs' rule files, by a digest of
their resolved text, options, players, games, seed, agents and play limit);
a file of another run is refused, not mixed in. For each run it keeps the
totals of the chunks folded so far (games 0 … next-1, folded in index order,
as an uninterrupted run folds them) and the chunks finished beyond them.

The file is read as untrusted input: plain JSON (no pickle, no code run), of
a bounded size and depth, each value one of a few tagged kinds; anything else
is a ``CheckpointError`` that says what is wrong.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import fields
from fractions import Fraction
from typing import Any

from .measures_design import Design, Skill
from .measures_stats import Ratio, Sums
from .outputs import atomic_write

MAX_BYTES = 64 * 2**20  # a checkpoint holds totals, not games: far below this
MAX_DEPTH = 24
FORMAT = "academie-checkpoint/1"


class CheckpointError(Exception):
    """A checkpoint that cannot be used: unreadable, not a checkpoint, or of another run."""


def digest(data: Any) -> str:
    """A digest of a resolved rule document's data (what the games are played on)."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# -- values ---------------------------------------------------------------------------
_SLOTS = {"Sums": ("n", "_i", "_ii", "_f", "_ff"), "Ratio": Ratio.__slots__}


def encode(x: Any) -> Any:
    """A total as plain JSON: each value not a JSON scalar or list is a one-key object naming its kind."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return {"f": repr(x)}
    if isinstance(x, Fraction):
        return {"q": [x.numerator, x.denominator]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, tuple):
        return {"t": [encode(v) for v in x]}
    if isinstance(x, Counter):
        return {"c": [[encode(k), encode(v)] for k, v in x.items()]}
    if isinstance(x, dict):
        return {"d": [[encode(k), encode(v)] for k, v in x.items()]}
    if isinstance(x, (Sums, Ratio)):
        name = type(x).__name__
        return {name: {k: encode(getattr(x, k)) for k in _SLOTS[name]}}
    if isinstance(x, (Design, Skill)):
        return {type(x).__name__: {f.name: encode(getattr(x, f.name)) for f in fields(x)}}
    raise TypeError(f"a checkpoint cannot hold {type(x).__name__}")


def decode(x: Any, depth: int = 0) -> Any:
    """The value ``encode`` wrote; a ``CheckpointError`` for anything else."""
    if depth > MAX_DEPTH:
        raise CheckpointError("values nested too deep")
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, list):
        return [decode(v, depth + 1) for v in x]
    if not isinstance(x, dict) or len(x) != 1:
        raise CheckpointError(f"unexpected value {_short(x)}")
    ((tag, v),) = x.items()
    if tag == "f" and isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            raise CheckpointError(f"not a number: {_short(v)}") from None
    if tag == "q" and _ints(v, 2) and v[1] > 0:
        return Fraction(v[0], v[1])
    if tag == "t" and isinstance(v, list):
        return tuple(decode(e, depth + 1) for e in v)
    if tag in ("c", "d") and isinstance(v, list) and all(isinstance(p, list) and len(p) == 2 for p in v):
        pairs = [(decode(k, depth + 1), decode(e, depth + 1)) for k, e in v]
        try:
            return Counter(dict(pairs)) if tag == "c" else dict(pairs)
        except TypeError:
            raise CheckpointError("a key that is not a plain value") from None
    if tag in _SLOTS and isinstance(v, dict) and set(v) == set(_SLOTS[tag]):
        obj = Sums() if tag == "Sums" else Ratio()
        for k in _SLOTS[tag]:
            setattr(obj, k, decode(v[k], depth + 1))
        return obj
    if tag in ("Design", "Skill") and isinstance(v, dict):
        cls = Design if tag == "Design" else Skill
        names = {f.name for f in fields(cls)}
        if set(v) != names:
            raise CheckpointError(f"a {tag} with the wrong fields")
        try:
            return cls(**{k: decode(e, depth + 1) for k, e in v.items()})
        except (TypeError, ValueError) as e:
            raise CheckpointError(f"a {tag} that cannot be rebuilt: {e}") from None
    raise CheckpointError(f"unexpected value {_short(x)}")


def _ints(v, n: int) -> bool:
    return isinstance(v, list) and len(v) == n and all(type(e) is int for e in v)


def _short(x: Any) -> str:
    s = json.dumps(x, default=str)
    return s if len(s) <= 60 else s[:57] + "..."


# -- the file -------------------------------------------------------------------------
class Checkpoint:
    """The checkpoint at ``path`` of the run named by ``key`` (plain JSON data)."""

    def __init__(self, path: str, key: dict):
        self.path = path
        self.key = json.loads(json.dumps(key, default=str))  # as it reads back

    def load(self) -> dict | None:
        """The saved state: {"sizes": [chunk size by run], "runs": [{"next": games folded,
        "total": Design or Skill, "done": {start: (stop, part)}}]}; None when there is no file yet."""
        try:
            with open(self.path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise CheckpointError(f"cannot read it: {e.strerror or e}") from None
        if len(raw) > MAX_BYTES:
            raise CheckpointError(f"larger than {MAX_BYTES // 2**20} MB: not a checkpoint")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise CheckpointError(f"not JSON ({e})") from None
        except RecursionError:
            raise CheckpointError("values nested too deep") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CheckpointError(f'not a checkpoint (no "format": "{FORMAT}")')
        if data.get("run") != self.key:
            raise CheckpointError("the checkpoint of another run (other games, options, seed or agents)")
        runs, sizes = data.get("runs"), data.get("sizes")
        n = len(self.key["runs"])
        if not (isinstance(runs, list) and len(runs) == n and isinstance(sizes, list) and _ints(sizes, n)):
            raise CheckpointError("the runs or chunk sizes do not match its own description")
        if not all(s > 0 for s in sizes):
            raise CheckpointError("the runs or chunk sizes do not match its own description")
        out = []
        for i, r in enumerate(runs):
            if not isinstance(r, dict) or type(r.get("next")) is not int or not isinstance(r.get("done"), list):
                raise CheckpointError(f"run {i} is not a run's state")
            total = decode(r.get("total"))
            done = {}
            for item in r["done"]:
                if not (isinstance(item, list) and len(item) == 3 and _ints(item[:2], 2)):
                    raise CheckpointError(f"run {i}: a finished chunk is not [start, stop, totals]")
                done[item[0]] = (item[1], decode(item[2]))
            kind = Design if self.key["runs"][i]["kind"] == "design" else Skill
            games, size, nxt = self.key["runs"][i]["games"], sizes[i], r["next"]
            parts = [total] + [p for _, p in done.values()]
            if not all(isinstance(p, kind) for p in parts) or not (
                nxt == games or 0 <= nxt < games and nxt % size == 0
            ):
                raise CheckpointError(f"run {i}: totals of the wrong kind, or games out of range")
            if total.games != nxt or any(
                not (nxt < a < games and a % size == 0 and b == min(a + size, games) and p.games == b - a)
                for a, (b, p) in done.items()
            ):
                raise CheckpointError(f"run {i}: finished chunks that are not the run's chunks")
            try:
                for p in parts:  # the totals are whole: they report
                    p.report()
            except Exception as e:
                raise CheckpointError(f"run {i}: totals that do not add up ({type(e).__name__})") from None
            out.append({"next": r["next"], "total": total, "done": done})
        return {"sizes": sizes, "runs": out}

    def save(self, sizes: list[int], totals: list, nexts: list[int], done: list[dict]) -> None:
        """Write the state of the run, whole and atomically."""
        data = {
            "format": FORMAT,
            "run": self.key,
            "sizes": sizes,
            "runs": [
                {
                    "next": nexts[i],
                    "total": encode(totals[i]),
                    "done": [[a, b, encode(p)] for a, (b, p) in sorted(done[i].items())],
                }
                for i in range(len(totals))
            ],
        }
        with atomic_write(self.path) as f:
            f.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
