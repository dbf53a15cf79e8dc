"""The JSON Schema of a deal step's ``source_says`` (what the source states about the deal),
used by ``make_schema``."""

source_statement = {
    "type": "object",
    "description": "one statement of the source about the deal: for so many players, so many cards each and so many left over",
    "properties": {
        "players": {"type": "integer", "minimum": 1},
        "hand": {"type": "integer", "minimum": 0},
        "rest": {"type": "integer", "minimum": 0},
        "pack": {
            "type": "integer",
            "minimum": 1,
            "description": "the pack as the source counts it (default: the rule file's pack for that many players)",
        },
        "cite": {"$ref": "#/$defs/cite"},
        "note": {"type": "string"},
    },
    "required": ["players", "hand", "cite"],
    "additionalProperties": False,
}
source_says = {
    "description": "what the source states about this deal, kept even where it is impossible; validate checks its arithmetic against the pack (an editorial element on the step says what the rules do instead)",
    "oneOf": [source_statement, {"type": "array", "minItems": 1, "items": source_statement}],
}
