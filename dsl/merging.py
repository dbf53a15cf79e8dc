"""The loader's merging step: a rule file laid over what it ``extends`` and ``imports``, then
the options switched on laid over the result, each value keeping the place it was written."""

from __future__ import annotations

from typing import Any

from .document import Doc, Path_
from .errors import Pos, RuleError


def _is_element(v) -> bool:
    return isinstance(v, dict) and ("cite" in v or "editorial" in v)


def merge(base, bpos: dict, patch, ppos: dict, path: Path_ = (), pbase: Path_ = ()) -> tuple[Any, dict]:
    """Patch ``base`` with ``patch``: mappings merge key by key, except a rule
    element (a mapping with its own cite or editorial), which replaces the
    inherited one whole; lists and scalars replace; ``null`` deletes.
    ``pbase`` is where the patch sits in its own file (options: under set)."""
    out_pos = dict(bpos)
    value = _merge(base, patch, path, pbase, ppos, out_pos)
    return value, out_pos


def _drop(pos: dict, path: Path_):
    n = len(path)
    for k in [k for k in pos if k[:n] == path and len(k) > n]:
        del pos[k]


def _copy(pos: dict, ppos: dict, path: Path_, ppath: Path_):
    n = len(ppath)
    for k, v in ppos.items():
        if k[:n] == ppath:
            pos[path + k[n:]] = v


def _merge(b, p, path, ppath, ppos, pos):
    if isinstance(b, dict) and isinstance(p, dict) and not _is_element(p):
        out = dict(b)
        for k, v in p.items():
            if v is None:
                out.pop(k, None)
                _drop(pos, path + (k,))
                pos.pop(path + (k,), None)
            elif k in out:
                out[k] = _merge(out[k], v, path + (k,), ppath + (k,), ppos, pos)
                if (ppath + (k, "@key")) in ppos:
                    pos[path + (k, "@key")] = ppos[ppath + (k, "@key")]
            else:  # a null deletes; where there is nothing to delete it vanishes
                out[k] = strip_nulls(v, path + (k,))
                _copy(pos, ppos, path + (k,), ppath + (k,))
        if ppath in ppos:
            pos[path] = ppos[ppath]
        return out
    _drop(pos, path)
    _copy(pos, ppos, path, ppath)
    return p


def imported(other: Doc, name: str, part: str, at: Pos) -> tuple[dict, dict]:
    """What ``imports: [{from: NAME, take: [PART]}]`` takes: the part ``PART`` (a key, or keys
    joined by dots) of the resolved document ``other``, as a patch to lay over the importing
    document, with its positions. A part ``other`` has not is a located error at ``at``."""
    keys = tuple(part.split("."))
    node: Any = other.data
    for k in keys:
        node = node.get(k) if isinstance(node, dict) else None
    if node is None:
        have = other.data if len(keys) == 1 else {}
        raise RuleError(
            f"'{name}' has no '{part}' to import" + (f" (it has: {', '.join(have)})" if have else ""),
            at,
            code="reference",
        )
    sub_pos = {k: v for k, v in other.positions.items() if k[: len(keys)] == keys}
    patch = node
    for k in reversed(keys):
        patch = {k: patch}
    return patch, sub_pos


def strip_nulls(v, path: Path_ = ()):
    """A document without the null entries of its named mappings (a null deletes an
    inherited entry; with nothing to delete it means nothing). An option's ``set``
    (at ``options.NAME.set``) keeps its nulls: they delete what the option is laid
    over when it is switched on."""
    if len(path) == 3 and path[0] == "options" and path[2] == "set":
        return v
    if isinstance(v, dict):
        return {k: strip_nulls(x, path + (k,)) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [strip_nulls(x, path + (i,)) for i, x in enumerate(v)]
    return v


def place_steps(data: dict, positions: dict) -> None:
    """Honour ``before:``/``after:`` on steps of ``hand`` added by a variant."""
    hand = data.get("hand")
    if not isinstance(hand, dict):
        return
    names = list(hand)
    for name in list(names):
        step = hand[name]
        if not isinstance(step, dict):
            continue
        for rel in ("before", "after"):
            target = step.get(rel)
            if target is None:
                continue
            if target not in hand or target == name:
                raise RuleError(
                    f"step '{name}' is placed {rel} '{target}', which is not a step of this hand "
                    f"(steps: {', '.join(names)})",
                    positions.get(("hand", name, rel)),
                    code="reference",
                )
            names.remove(name)
            i = names.index(target)
            names.insert(i if rel == "before" else i + 1, name)
    data["hand"] = {n: hand[n] for n in names}


def with_required(doc: Doc, opts: dict, names: list[str]) -> list[str]:
    """The options ``names`` with those each requires (``requires:``), a required
    option before the one that requires it, so that the one laid over it last
    extends it; each once, in the order first met."""
    out: list[str] = []

    def add(n: str, path: tuple[str, ...]) -> None:
        if n in out:
            return
        for i, r in enumerate((opts.get(n) or {}).get("requires", []) or []):
            where = doc.pos(("options", n, "requires", i))
            if r not in opts:
                raise RuleError(
                    f"option '{n}' requires '{r}', which is not an option of {doc.id} (options: {', '.join(opts)})",
                    where,
                    code="option",
                )
            if r == n or r in path:
                raise RuleError(f"option '{n}' requires '{r}', which requires it in turn", where, code="option")
            add(r, path + (n,))
        out.append(n)

    for n in names:
        add(n, ())
    return out


def apply_options(doc: Doc, names: list[str]) -> None:
    opts = doc.data.get("options", {}) or {}
    on = [n for n, o in opts.items() if o.get("default")]
    for n in names:
        if n not in opts:
            from .suggest import suggest

            avail = ", ".join(opts) or "none"
            raise RuleError(
                f"unknown option '{n}' for {doc.id}" + suggest(n, set(opts)) + f" (options: {avail})",
                Pos(doc.file, 1, 1),
                code="option",
            )
        if n not in on:
            on.append(n)
    on = with_required(doc, opts, on)
    for n in on:
        for other in opts[n].get("conflicts", []):
            if other in on:
                raise RuleError(
                    f"options '{n}' and '{other}' cannot be used together",
                    doc.pos(("options", n, "conflicts")),
                    code="option",
                )
    for n in on:
        base = ("options", n, "set")
        sub = {k: v for k, v in doc.positions.items() if k[:3] == base}
        doc.data, doc.positions = merge(doc.data, doc.positions, opts[n]["set"], sub, (), base)
        doc.options.append(n)
