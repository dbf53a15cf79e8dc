"""The JSON Schema of the vying steps (``kind: betting``, ``kind: showdown``; docs/language.md,
section 4), used by ``make_schema``."""

from .betting import MOVES


def vying_kinds(el, expr, step_common) -> dict:
    """The two step kinds' schemas, built with make_schema's ``el`` (a rule element), ``expr`` and
    the keys every step has."""
    kinds: dict = {}
    amount_range = {
        "oneOf": [
            expr,
            {
                "type": "object",
                "properties": {
                    "min": {**expr, "description": "the least amount (default 1)"},
                    "max": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "the greatest amount"},
                },
                "required": ["max"],
                "additionalProperties": False,
            },
        ]
    }
    vying_common = {
        "first": {**expr, "description": "the seat that acts (or shows) first (default: the dealer's next)"},
        "unit": {"type": "string", "description": "the currency staked"},
        "stake": {"type": "string", "description": "a per-seat counter: each seat's stake, to be matched"},
        "out": {"type": "string", "description": "a per-seat counter: 1 once the seat has thrown up its hand"},
        "total": {
            "type": "string",
            "description": "a per-seat counter: all the seat has put into the pot this hand (side pots are cut by it)",
        },
    }
    kinds["betting"] = el(
        {
            **step_common,
            **vying_common,
            "to": {"type": "string", "description": "the money zone the stakes go into (the pot)"},
            "bet": {**amount_range, "description": "the opening bet: an amount (seat bound), or {min, max} chosen"},
            "raise": {
                **amount_range,
                "description": "what a raise goes over the highest stake: an amount, or {min, max}",
            },
            "cap": {**expr, "description": "the most bets and raises in the round (the opening bet counts)"},
            "raised": {
                "type": "string",
                "description": "a counter of the game set to what each bet or raise went over (a least raise may read it)",
            },
            "stack": {
                **expr,
                "description": "what the seat may still stake (seat bound, e.g. balance(seat, chip)): table stakes",
            },
            "check": {
                "type": "boolean",
                "description": "a seat may check while nothing is to be matched (default true)",
            },
            "lapse_on_raise": {
                "type": "boolean",
                "description": "a seat that checked may come in again to a bet, but is out (it may only fold) once"
                " the stake was raised over a bet since its check (default false)",
            },
            "straddle": {
                "type": "object",
                "properties": {
                    "first": {**expr, "description": "the first seat offered a straddle"},
                    "max": {
                        **expr,
                        "description": "the most a straddle doubles the highest stake to (seat bound): the limit",
                    },
                },
                "required": ["first", "max"],
                "additionalProperties": False,
                "description": "straddles before the round: from first, each seat in turn may double the highest"
                " stake (up to max); one that declines ends them, each seat straddling once at most; the last"
                " straddler speaks last",
            },
            "open": {
                "type": "object",
                "properties": {
                    "when": {
                        **expr,
                        "description": "a condition (seat bound): the seat may open the round (make its first bet)",
                    },
                    "show": {
                        "enum": ["hand"],
                        "description": "hand: an opener left alone at the end of the round shows his hand",
                    },
                },
                "required": ["when"],
                "additionalProperties": False,
                "description": "who may open the round",
            },
            "words": {
                "type": "object",
                "properties": {m: {"type": "string"} for m in MOVES},
                "additionalProperties": False,
                "description": "the game's word for each move (the move's name)",
            },
        },
        ["to", "unit", "stake", "out"],
    )
    kinds["showdown"] = el(
        {
            **step_common,
            **vying_common,
            "from": {"type": "string", "description": "the money zone paid out (the pot)"},
            "key": {
                "type": "array",
                "items": expr,
                "minItems": 1,
                "description": "what ranks a seat's hand (seat bound), greatest first",
            },
            "ties": {
                "enum": ["split", "first"],
                "description": "equal hands share the pot (split) or the first from first: takes it",
            },
        },
        ["from", "unit", "out", "key"],
    )
    return kinds
