"""The JSON Schema of the card-play step kinds (``kind: tricks``, ``kind: sequence``; docs/language.md,
section 4), used by ``make_schema``."""


def play_kinds(el, expr, step_common) -> dict:
    """The two step kinds' schemas, built with make_schema's ``el`` (a rule element), ``expr`` and
    the keys every step has."""
    kinds: dict = {}
    follow = el({"must": {"type": "array", "items": expr}, "free": expr, "lead": expr})
    winner = el({"key": {"type": "array", "items": expr, "minItems": 1}}, ["key"])
    end_cond = el({"when": expr, "after": {"enum": ["play", "trick"]}, "winner": expr}, ["when"])
    kinds["tricks"] = el(
        {
            **step_common,
            "leader": expr,
            "follow": follow,
            "cannot_follow": {"$ref": "#/$defs/effects"},
            "winner": winner,
            "won_to": {"type": "string"},
            "lead_passes": {
                "type": "boolean",
                "description": "a leader with no card left: the next seat that has one leads",
            },
            "on_trick": {"$ref": "#/$defs/effects"},
            "on_play": {"$ref": "#/$defs/effects"},
            "end": {"type": "array", "items": end_cond},
        },
        ["leader", "winner"],
    )
    source_rule = el({"zone": {"type": "string"}, "do": {"$ref": "#/$defs/effects"}}, ["zone"])
    kinds["sequence"] = el(
        {
            **step_common,
            "leader": expr,
            "order": {"type": "string"},
            "wrap": {"type": "boolean"},
            "obtain": {"type": "array", "items": source_rule, "minItems": 1},
            "new_run": {"enum": ["last_player", "next_player"]},
            "by_rank": {
                "type": "boolean",
                "description": "the next card is any card of the next rank, whatever its suit; none left ends the run",
            },
            "stops": {
                **expr,
                "description": "a card test: cards that may be played for the card required, and end the run",
            },
            "unheld": {
                "enum": ["error", "pass"],
                "description": "a player who cannot play the card required passes (pass); all passing ends the run",
            },
            "on_play": {"$ref": "#/$defs/effects"},
            "end": {"type": "array", "items": end_cond},
        },
        ["obtain"],
    )
    return kinds
