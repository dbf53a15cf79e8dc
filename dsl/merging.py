"""The loader's merging step: a rule file laid over what it ``extends`` and ``imports``, then
the options switched on laid over the result, each value keeping the place it was written."""

from __future__ import annotations

from typing import Any

from .document import Doc, Path_, walk
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


_OWN = ("amends", "replaces", "cite", "editorial", "note")  # what an amendment says of itself


def _amending(b, p, path, ppath, ppos) -> bool:
    """Whether ``p`` amends the element ``b``: ``amends: true`` adds rule elements (or lists of
    them), each cited, to the element it is laid over, and changes nothing it has but the keys it
    names in ``replaces``, each given anew and cited (by itself, a rule element, or by the
    amendment's own ``cite``/``editorial``, added to the element's). Refused, at the key, where
    there is no element beneath, where it would change a key it does not name, where it names a
    key the element has not, and where a replacement is uncited."""
    if not (isinstance(p, dict) and "amends" in p) or _in_option_set(path):
        return False
    at = ppos.get(ppath + ("amends", "@key")) or ppos.get(ppath)
    where = ".".join(map(str, path)) or "the document"
    if not _is_element(b):
        raise RuleError(f"{where} amends an element, but there is none beneath it to amend", at, code="reference")
    if all(k in _OWN or k == "kind" for k in p) and not p.get("replaces"):
        raise RuleError(
            f"{where} amends the element beneath but adds nothing and replaces nothing: give the keys it adds "
            "(each cited) or names in replaces, or leave the amendment out",
            at,
            code="reference",
        )
    replaces = p.get("replaces") or []
    own = "cite" in p or "editorial" in p  # the amendment's own citation: for what it replaces
    for i, k in enumerate(replaces):
        kat = ppos.get(ppath + ("replaces", i)) or at
        if k in ("cite", "editorial") or (k == "kind" and k in b):
            raise RuleError(
                f"{where} replaces '{k}', which an amendment does not replace: "
                + (
                    "it keeps the kind of the element it amends (to change the kind, write the element whole)"
                    if k == "kind"
                    else "its own cite and editorial are added to the element's (to change the element's "
                    "citation, write the element whole)"
                ),
                kat,
                code="reference",
            )
        if k not in b:
            raise RuleError(
                f"{where} replaces '{k}', which the element beneath has not"
                + (f" (it has: {', '.join(x for x in b if x not in ('cite', 'editorial', 'note'))})" if b else ""),
                kat,
                code="reference",
            )
        if k not in p:
            raise RuleError(f"{where} replaces '{k}' but gives no '{k}' (write its new value)", kat, code="reference")
        if not own and not _cited(p[k]):
            raise RuleError(
                f"{where} replaces '{k}' uncited: cite the source's sentence for the change in the amendment "
                "(its own cite or editorial, added to the element's), or give a rule element with its own",
                kat,
                code="reference",
            )
    plain = [k for k, v in p.items() if k not in _OWN and k != "kind" and k not in b and not _cited(v)]
    for k, v in p.items():
        kat = ppos.get(ppath + (k, "@key")) or at
        if k in ("cite", "editorial") and not replaces and not plain:
            raise RuleError(
                f"{where} amends the element beneath, which keeps its citation: cite what it adds, "
                "or name in replaces the keys it changes (its citation is then theirs)",
                kat,
                code="reference",
            )
        if k in _OWN or k in replaces:
            continue
        if k in b and not (k == "kind" and v == b[k]):  # a step's amendment names its kind
            raise RuleError(
                f"{where} amends the element beneath, which has '{k}' already: an amendment adds, it changes "
                "only what it names in replaces (replaces: [" + k + "], with the change cited)",
                kat,
                code="reference",
            )
        if k != "kind" and not own and not _cited(v):
            raise RuleError(
                f"{where}.{k} is added by an amendment, so it must be a rule element (or a list of them) "
                "with its own cite or editorial, or be cited by the amendment's own",
                kat,
                code="reference",
            )
    return True


def _cited(v) -> bool:
    """A rule element, or a non-empty list of them."""
    items = v if isinstance(v, list) else [v]
    return bool(items) and all(_is_element(x) for x in items)


def _cite_list(v) -> list:
    return [] if v is None else list(v) if isinstance(v, list) else [v]


def _joined(a: str, b: str, label: str = "") -> str:
    a = a.strip()
    return f"{a}{' ' if a.endswith(('.', ';', ':', ')')) else '; '}{label}{b.strip()}"


def _add_citation(out: dict, p: dict, path, ppath, ppos, pos) -> None:
    """An amendment that replaces keys brings its citation: its quotes follow the element's, and
    its editorial follows the element's (reasons and evidence joined), each quote keeping the
    place it was written."""
    if "cite" in p:
        mine, theirs = _cite_list(out.get("cite")), _cite_list(p["cite"])
        moved = {}
        for j in range(len(mine)):  # the element's own quotes, as a list
            src = path + ("cite",) + ((j,) if isinstance(out.get("cite"), list) else ())
            moved.update({path + ("cite", j) + k[len(src) :]: v for k, v in pos.items() if k[: len(src)] == src})
        for j in range(len(theirs)):
            src = ppath + ("cite",) + ((j,) if isinstance(p["cite"], list) else ())
            dst = path + ("cite", len(mine) + j)
            moved.update({dst + k[len(src) :]: v for k, v in ppos.items() if k[: len(src)] == src})
        at = pos.get(path + ("cite",))
        _drop(pos, path + ("cite",))
        pos.update(moved)
        pos[path + ("cite",)] = at or ppos.get(ppath + ("cite",))
        out["cite"] = mine + theirs
    if "editorial" in p:
        e, f = out.get("editorial"), p["editorial"]
        if isinstance(e, dict) and isinstance(f, dict):
            # the amendment's part labelled with the keys it changes: the element's reason may speak
            # of the value replaced ("this reading is the default"), the amendment's of the new one
            rep = p.get("replaces") or []
            label = f"Amended ({', '.join(map(str, rep))}): " if rep else "Amended: "
            out["editorial"] = {k: _joined(str(e.get(k, "")), str(f.get(k, "")), label) for k in ("reason", "evidence")}
        else:
            out["editorial"] = f
            _drop(pos, path + ("editorial",))
            _copy(pos, ppos, path + ("editorial",), ppath + ("editorial",))


def _in_option_set(path: Path_) -> bool:
    """Under an option's ``set``: data laid over the game only when the option is switched on."""
    return len(path) >= 3 and path[0] == "options" and path[2] == "set"


def _unamended(v, ppath, ppos, path, why: str = "") -> None:
    """Refuse an ``amends`` where there is nothing beneath: in a new entry, and in what is laid
    whole over the entry beneath (a key an amendment replaces, an element written whole with its
    own citation, a list), which is not merged with it."""
    for sub, node in walk(v):
        if isinstance(node, dict) and "amends" in node and not _in_option_set(path + sub):
            where = ".".join(map(str, path + sub))
            at = ppos.get(ppath + sub + ("amends", "@key")) or ppos.get(ppath + sub)
            raise RuleError(
                f"{where} amends an element, but there is none beneath it to amend" + (f" ({why})" if why else ""),
                at,
                code="reference",
            )


def _merge(b, p, path, ppath, ppos, pos):
    amend = _amending(b, p, path, ppath, ppos)
    if isinstance(b, dict) and isinstance(p, dict) and (amend or not _is_element(p)):
        out = dict(b)
        replaces = p.get("replaces") or [] if amend else []
        for k, v in p.items():
            if amend and k in ("amends", "replaces", "cite", "editorial"):
                continue
            if k in replaces:  # replaced whole, not merged (no null: the schema takes none for an element's keys)
                _unamended(
                    v,
                    ppath + (k,),
                    ppos,
                    path + (k,),
                    f"{'.'.join(map(str, path)) or 'the document'} replaces '{k}' whole",
                )
                out.pop(k, None)
                _drop(pos, path + (k,))
                pos.pop(path + (k,), None)
                if v is not None:
                    out[k] = strip_nulls(v, path + (k,))
                    _copy(pos, ppos, path + (k,), ppath + (k,))
                continue
            if v is None:
                out.pop(k, None)
                _drop(pos, path + (k,))
                pos.pop(path + (k,), None)
            elif k in out:
                out[k] = _merge(out[k], v, path + (k,), ppath + (k,), ppos, pos)
                if (ppath + (k, "@key")) in ppos:
                    pos[path + (k, "@key")] = ppos[ppath + (k, "@key")]
            else:  # a null deletes; where there is nothing to delete it vanishes
                _unamended(v, ppath + (k,), ppos, path + (k,))
                out[k] = strip_nulls(v, path + (k,))
                _copy(pos, ppos, path + (k,), ppath + (k,))
        if amend and ("cite" in p or "editorial" in p):
            _add_citation(out, p, path, ppath, ppos, pos)
        if ppath in ppos:
            pos[path] = ppos[ppath]
        return out
    if isinstance(b, dict) and _is_element(p):
        why = f"{'.'.join(map(str, path))} is written whole, with its own citation, over the one beneath"
    else:
        why = f"{'.'.join(map(str, path))} is laid whole over the one beneath, not merged with it"
    _unamended(p, ppath, ppos, path, why)
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


def check_option_with(doc: Doc) -> None:
    """Refuse, at the name, an option's ``with`` that names no option of the file, or that goes
    round (an option played with itself, directly or through others): found whether the option
    is switched on or not."""
    opts = doc.data.get("options") or {}
    for n, opt in opts.items():
        for i, w in enumerate((opt or {}).get("with") or []):
            if w not in opts:
                from .suggest import suggest

                raise RuleError(
                    f"option '{n}' is played with '{w}', which is not an option of this file"
                    + suggest(str(w), set(opts))
                    + f" (options: {', '.join(opts)})",
                    doc.pos(("options", n, "with", i)),
                    code="reference",
                )
    for n in opts:
        _with_order(opts, n, (), doc)


def _with_order(opts: dict, n: str, chain: tuple, doc: Doc) -> list[str]:
    """The options whose ``set`` is laid for ``n``, in order: those it is played with (each
    with its own, first), then ``n`` itself; each once."""
    out: list[str] = []
    for i, w in enumerate((opts.get(n) or {}).get("with") or []):
        if w in chain + (n,):
            raise RuleError(
                f"option '{n}' is played with '{w}', which goes round: "
                + " -> ".join((*chain, n, w))
                + " (an option cannot be played with itself)",
                doc.pos(("options", n, "with", i)),
                code="cycle",
            )
        out += [x for x in _with_order(opts, w, chain + (n,), doc) if x not in out]
    return out + [n]


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
    for n in on:
        for other in opts[n].get("conflicts", []):
            if other in on:
                raise RuleError(
                    f"options '{n}' and '{other}' cannot be used together",
                    doc.pos(("options", n, "conflicts")),
                    code="option",
                )
    laid: list[str] = []  # an option played with others lays their sets first; each set is laid once
    for n in on:
        for m in _with_order(opts, n, (), doc):
            if m in laid:
                continue
            laid.append(m)
            base = ("options", m, "set")
            sub = {k: v for k, v in doc.positions.items() if k[:3] == base}
            doc.data, doc.positions = merge(doc.data, doc.positions, opts[m].get("set") or {}, sub, (), base)
        doc.options.append(n)
