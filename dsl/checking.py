"""The loader's checking step: a rule file's data against the JSON Schema (schema.json, made by
make_schema.py), each violation reported at its node in words a rule writer reads, and the
options' ``set`` refused where it holds what no option can apply."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from .errors import UNKNOWN, Diagnostic, Pos, RuleError


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator():
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


def check_schema(data: Any, positions: dict, file: str, root: str = "document") -> None:
    """Raise a RuleError listing every schema violation, each at its node."""
    if not isinstance(data, dict):
        what = "a list" if isinstance(data, list) else f"a single value ({data!r:.40})"
        raise RuleError(
            f"a rule file must be a mapping of sections (title:, players:, …), not {what}",
            positions.get((), Pos(file, 1, 1)),
            code="structure",
        )
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    diags, seen = [], set()
    for err in (leaf for e in errors for leaf in _leaves(e)):
        path = tuple(err.absolute_path)
        msg = _message(err)
        key = (path, msg)
        if key in seen:
            continue
        seen.add(key)
        pos = positions.get(path + ("@key",)) if err.validator == "additionalProperties" else None
        if err.validator == "additionalProperties":
            extra = _extra_key(err)
            if extra is not None:
                pos = positions.get(path + (extra, "@key"))
        pos = pos or _nearest(positions, path, file)
        if any(isinstance(k, str) and (")" in k or "(" in k) for k in path) or (
            err.validator == "additionalProperties" and _extra_key(err) and ")" in str(_extra_key(err))
        ):
            msg += " (inside a YAML list [...] or mapping {...} a comma ends the item: put the expression in quotes)"
        diags.append(Diagnostic(pos, msg, code="schema"))
    if diags:
        raise RuleError(diags)


def _leaves(err) -> list:
    """The errors worth reporting under a oneOf/anyOf failure: if all branches
    but one fail on the type of the value itself, that branch was meant, and
    each of its errors is reported; else the most relevant one."""
    if err.validator in ("oneOf", "anyOf") and err.context and not _is_cite_choice(err):
        branches: dict = {}
        for c in err.context:
            branches.setdefault(c.relative_schema_path[0], []).append(c)
        meant = [
            b
            for b in branches.values()
            if not any(c.validator in ("type", "const", "enum") and not c.relative_path for c in b)
        ]
        if len(meant) == 1:
            return [leaf for c in meant[0] for leaf in _leaves(c)]
    return [_best(err)]


def _is_cite_choice(err) -> bool:
    return err.validator == "anyOf" and any(
        isinstance(s, dict) and s.get("required") in (["cite"], ["editorial"]) for s in err.validator_value
    )


def _best(err):
    """For oneOf/anyOf failures, the sub-error that speaks of the branch the
    user meant: skip branches of another type, then take the deepest error."""
    if err.validator not in ("oneOf", "anyOf") or not err.context:
        return err
    if err.validator == "anyOf" and all(isinstance(s, dict) and "required" in s for s in err.validator_value):
        return err  # "needs a cite or an editorial": said plainly by _message
    candidates = [e for e in err.context if not (e.validator == "type" and len(e.relative_path) == 0)]
    if not candidates:
        return err
    best = max(candidates, key=lambda e: (len(e.absolute_path), e.validator != "anyOf"))
    return _best(best)


def _extra_key(err):
    if isinstance(err.instance, dict) and isinstance(err.schema, dict):
        allowed = set(err.schema.get("properties", {}))
        extras = [k for k in err.instance if k not in allowed]
        return extras[0] if extras else None
    return None


def _message(err) -> str:
    where = "/".join(str(p) for p in err.absolute_path) or "the document"
    if err.validator == "additionalProperties":
        extra = _extra_key(err)
        allowed = sorted(err.schema.get("properties", {}))
        return f"unknown key '{extra}' in {where} (allowed: {', '.join(allowed)})"
    if err.validator == "anyOf" and any(s.get("required") in (["cite"], ["editorial"]) for s in err.validator_value):
        return (
            f"{where} is a rule element: it needs a 'cite' (source and quote) or an 'editorial' (reason and evidence)"
        )
    if err.validator == "required":
        return f"{where}: {err.message}"
    if err.validator == "type":
        return f"{where}: {err.instance!r:.60} is not of type {err.validator_value}"
    if err.validator == "enum" and tuple(err.absolute_path) == ("family",):
        from .suggest import suggest

        return (
            f"family: {err.instance!r:.60} is not a family of play; the families are "
            + ", ".join(map(str, err.validator_value))
            + (suggest(err.instance, map(str, err.validator_value)) if isinstance(err.instance, str) else "")
        )
    return f"{where}: {err.message}"


def _nearest(positions, path, file):
    path = tuple(path)
    while path:
        if path in positions:
            return positions[path]
        path = path[:-1]
    return positions.get((), Pos(file, 1, 1))


# Keys an option's ``set`` cannot apply: read from the file before any option is laid over it.
_NOT_IN_OPTION_SET = {
    "extends": "the file's parent is read before any option is laid over it: write the rules the option "
    "changes under set:, or make the variant a file of its own that extends this one",
    "imports": "imports are read before any option is laid over the file: write the rules the option "
    "changes under set:",
    "options": "the options are chosen before any is laid over the game: declare this one beside the "
    "others, under options:",
    "family": "a game is of one family of play whatever its options (it is listed under it): write family: "
    "at the top of the file",
    "source": "a bare quote's source is the one named at the top of the file that writes it: "
    "cite {source: ID, quote: …} instead",
}


def check_option_sets(data: dict, positions: dict) -> None:
    """Refuse, at its key, what an option's ``set`` holds but cannot apply
    (``extends``, ``imports``, ``options``, ``source``, ``family``): it would be ignored in silence."""
    diags = []
    for name, opt in (data.get("options") or {}).items():
        for key in (opt or {}).get("set") or {}:
            reason = _NOT_IN_OPTION_SET.get(key)
            if reason is not None:
                at = positions.get(("options", name, "set", key, "@key")) or positions.get((), UNKNOWN)
                diags.append(Diagnostic(at, f"option '{name}': its set: cannot hold '{key}' ({reason})", code="option"))
    if diags:
        raise RuleError(diags)
