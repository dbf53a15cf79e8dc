"""The pieces dsl/make_schema.py writes the schema of rule files with: an expression, a rule
element (cited or editorial), an entry a variant may delete, a table by number of players."""

expr = {"$ref": "#/$defs/expr"}


def el(props, required=(), extra=None, amendable=True):
    """A rule element; ``amendable=False`` for one never laid over another (an import), which
    cannot stand on ``amends`` in place of its citation."""
    p: dict = {
        "cite": {"$ref": "#/$defs/cite"},
        "editorial": {"$ref": "#/$defs/editorial"},
        "note": {"type": "string", "description": "free text for readers; not a rule"},
    }
    if amendable:
        p["amends"] = {
            "const": True,
            "description": "adds cited elements to the inherited element, changing none but those named in replaces",
        }
        p["replaces"] = {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "minItems": 1,
            "uniqueItems": True,
            "description": "with amends: the keys of the inherited element this amendment gives anew (each cited)",
        }
    p.update(props)
    d = {
        "type": "object",
        "properties": p,
        "additionalProperties": False,
        "anyOf": [{"required": ["cite"]}, {"required": ["editorial"]}]
        + ([{"required": ["amends"]}] if amendable else []),
    }
    if required and amendable:  # what an element must say, unless it amends the one beneath (which says it)
        d["allOf"] = [{"if": {"not": {"required": ["amends"]}}, "then": {"required": list(required)}}]
    elif required:
        d["required"] = list(required)
    if amendable:
        d["dependentRequired"] = {"replaces": ["amends"]}
    if extra:
        d.update(extra)
    return d


def deletable(item):
    """A named entry a variant may delete by writing null."""
    return {"oneOf": [item, {"type": "null"}]}


def by_players(item):
    return {
        "oneOf": [
            item,
            {
                "type": "object",
                "patternProperties": {"^[0-9]+$": item},
                "additionalProperties": False,
                "minProperties": 1,
            },
        ]
    }
