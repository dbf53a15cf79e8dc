"""The JSON Schema of a rule file's ``combinations:`` entries (docs/language.md, section 3),
used by ``make_schema``."""

intlist = {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}
num = {"type": "integer", "minimum": 1}
ranklist = {"type": "array", "items": {"$ref": "#/$defs/rank"}}
combination = {  # docs/language.md, section 3: combinations
    **{k: num for k in ("size", "min", "max")},
    **{"kind": {"enum": ["set", "pairs", "run", "flush", "sum", "high", "ranking", "melds"]}, "sizes": intlist},
    **{"suited": {"type": "boolean"}, "kickers": {"type": "boolean"}, "order": {"type": "string"}, "low": ranklist},
    **{"ranks": ranklist, "of": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
    "values": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 99}},
    **{"total": {**num, "maximum": 1000}, "cards": {**num, "maximum": 13}},
    "wild": {"type": "array", "items": {"type": "string"}, "minItems": 1},
}
