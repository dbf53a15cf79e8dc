"""Parts of the schema kept apart from make_schema.py: the banking steps (``stake``, ``repeat``),
the ``stake`` effect and the turn-up's ``from`` (dsl/build_banking.py builds them), and the writing
of schema.json."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

TURN_FROM = {
    "type": "string",
    "description": "the shared zone the card is turned up from (default: the pack, or the rest of the deal)",
}


def banking_kinds(el, step_common: dict, asks: dict, chooser: dict, expr: dict) -> dict:
    """The step kinds ``stake`` and ``repeat``, built with make_schema's ``el``."""
    return {
        "stake": el(
            {
                **step_common,
                **asks,
                "first": chooser["first"],
                "who": chooser["who"],
                "targets": {
                    "type": "object",
                    "minProperties": 1,
                    "maxProperties": 64,
                    "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_-]{0,39}$"},
                    "additionalProperties": {"type": ["string", "integer"]},
                    "description": "the targets a seat may stake on: each a move name -> the rank of the pack it "
                    "stands for (a card of that rank turning up settles it), or outcome for an outcome named only",
                },
                "max": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "the most one stake may be"},
                "withdraw": {
                    **expr,
                    "description": "whether the seat may lower or take down a stake now (a condition on seat; "
                    "default true)",
                },
            },
            ["targets", "max"],
        ),
        "repeat": el(
            {
                **step_common,
                "back_to": {"type": "string", "description": "the earlier step of the hand play goes back to"},
                "until": {**expr, "description": "play goes on past this step once this holds"},
                "max": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "the most times play goes back in a hand (more is a located error)",
                },
            },
            ["back_to", "until", "max"],
        ),
    }


def stake_effect(expr: dict) -> dict:
    """The ``stake`` effect: ``{card, to}``."""
    return {
        "type": "object",
        "properties": {
            "card": {**expr, "description": "the target: a card's rank; left out, every target"},
            "to": {**expr, "description": "the seat's stake on it from now on (0 takes it down)"},
        },
        "required": ["to"],
        "additionalProperties": False,
    }


def write_schema(schema: dict, path: str | Path | None = None) -> None:
    """Write ``schema`` to ``path`` (default: dsl/schema.json) whole, then rename it over the old one."""
    target = Path(path) if path else Path(__file__).with_name("schema.json")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(schema, indent=1) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
