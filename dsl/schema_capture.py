"""The schema of a capture step (``kind: capture``, dsl/build_capture.py), for make_schema.py."""

from __future__ import annotations


def capture_kind(el, expr: dict, step_common: dict) -> dict:
    """The properties of a capture step, made with make_schema's ``el``."""
    return el(
        {
            **step_common,
            "leader": {**expr, "description": "the first to play (default: the dealer's next)"},
            "layout": {
                "type": "string",
                "description": "the shared zone cards are played to and taken from (default table)",
            },
            "won_to": {"type": "string", "description": "the per-seat zone the cards taken go to"},
            "value": {
                **expr,
                "description": "a card's value in sums, a number of card; 0: taken only by a card of its rank",
            },
            "also": {
                **expr,
                "description": "another value a card played may take by, a number of card (0: none)",
            },
            "several": {"type": "boolean", "description": "one card may take several sets at once (default true)"},
            "builds": {
                "type": "boolean",
                "description": "a card may be played onto table cards to make (or raise) a build its player owns",
            },
            "must_take": {"type": "boolean", "description": "a card that can take may not be trailed (default false)"},
            "rank_first": {
                "type": "boolean",
                "description": "a table card of the played card's rank is taken before any set adding up to its value",
            },
            "refill": el(
                {
                    "from": {"type": "string", "description": "the zone new hands are dealt from"},
                    "hand": {"type": "integer", "minimum": 1, "description": "the cards each seat is dealt"},
                    "turn_up": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "the cards turned face up from it to the layout when the step begins",
                    },
                },
                ["from", "hand"],
            ),
            "rest": {
                "enum": ["last", "stay"],
                "description": "the cards left on the layout at the end go to the last to take (last) or stay",
            },
            "on_capture": {"$ref": "#/$defs/effects"},
        },
        ["won_to", "value"],
    )
