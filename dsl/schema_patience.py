"""The schema of a ``kind: patience`` step (docs/language.md, "kind: patience"), for make_schema.py."""

# zones: NAME: {piles: N}
PILES = {
    "type": "integer",
    "minimum": 1,
    "maximum": 52,
    "description": "a family of piles: the shared zones NAME1 … NAMEN, read together as NAME",
}


def patience_kind(el, expr, step_common):
    """The step's properties: layout, kinds of move, the stock, the goal."""
    return el(
        {
            **step_common,
            "layout": {
                "type": "array",
                "items": el(
                    {
                        "to": {"type": "string"},
                        "from": {"type": "string"},
                        "cards": {
                            "oneOf": [
                                {"type": "integer", "minimum": 0, "maximum": 104},
                                {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 104}},
                            ],
                            "description": "cards laid on each pile (one number for all, or one per pile)",
                        },
                        "face_up": {"type": "integer", "minimum": 0, "maximum": 104},
                        "by": {"enum": ["row", "pile"]},
                    },
                    ["to", "cards"],
                ),
            },
            "moves": {
                "type": "array",
                "items": el(
                    {
                        "from": {"type": "string"},
                        "to": {"type": "string"},
                        "cards": {"enum": ["top", "face_up", "run", "any"]},
                        "build": {**expr, "description": "whether card may be laid on onto (the top card there)"},
                        "empty": {**expr, "description": "whether card may be laid on an empty pile (else never)"},
                        "run": {**expr, "description": "cards: run: whether card follows onto, the card under it"},
                        "most": {**expr, "description": "the most cards one move may carry"},
                        "least": {**expr, "description": "the fewest cards one move may carry"},
                        "every": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 104,
                            "description": "cards: any: only every N-th face-up card, from the lowest (1st, N+1th, …)",
                        },
                        "spaces": {"enum": ["all", "first"], "description": "first: to the first empty pile only"},
                        "whole": {"type": "boolean", "description": "false: a whole pile never goes to an empty one"},
                    },
                    ["from", "to"],
                ),
                "minItems": 1,
            },
            "draw": el(
                {
                    "from": {"type": "string"},
                    "to": {"type": "string"},
                    "count": {"type": "integer", "minimum": 1, "maximum": 52},
                    "redeals": {"type": "integer", "minimum": 0},
                    "when": {**expr, "description": "the stock may be drawn only when this holds"},
                },
                ["from", "to"],
            ),
            "goal": {"type": "string", "description": "won when every card is on these piles"},
            "give_up": {"type": "boolean"},
            "turn_up": {"type": "boolean"},
            "repeat": {"type": "boolean", "description": "a position may come back (needs limit:)"},
            "limit": el(
                {
                    "moves": {"type": "integer", "minimum": 1, "maximum": 100000},
                    "turns": {"type": "boolean", "description": "each card turned face up counts as a move"},
                },
                ["moves"],
            ),
            "turned": {"type": "string", "description": "a counter: one more for each card turned up when uncovered"},
        },
        ["moves"],
    )
