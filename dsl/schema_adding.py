"""The JSON Schema of the adding step's properties (``kind: adding``, docs/language.md, section 4),
used by ``make_schema``."""


def adding_properties(expr: dict, end_cond: dict) -> dict:
    """The properties of an adding step besides those of every step."""
    return {
        "first": expr,
        "cards": {**expr, "description": "a card test: the cards of his hand a player may add to the table"},
        "on_play": {"$ref": "#/$defs/effects"},
        "on_stop": {"$ref": "#/$defs/effects"},
        "stop": {"enum": ["again", "end"], "description": "when none can add: a new count, or the play ends"},
        "set_aside": {"type": "string"},
        "return_to": {"type": "string"},
        "end": {"type": "array", "items": end_cond},
    }
