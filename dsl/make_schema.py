"""Generate dsl/schema.json, the JSON Schema of rule files.

The schema is written here in Python for brevity; run `python dsl/make_schema.py`
after a change (a test checks that schema.json is up to date).
"""

import importlib
import os
import runpy
import sys

if not __package__ and __name__ == "__main__":  # run as a script: as a module of this checkout's dsl/
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    runpy.run_module("dsl.make_schema", run_name="__main__")
    sys.exit(0)


def _part(name):  # a module of dsl/: a package member, or (run as a script) a file beside this one
    return importlib.import_module(f"{__package__}.{name}" if __package__ else name)


combination = _part("schema_combinations").combination
adding_properties = _part("schema_adding").adding_properties
vying_kinds = _part("schema_betting").vying_kinds
strings1 = {"type": "array", "items": {"type": "string"}, "minItems": 1}
_bank = _part("schema_parts")
TURN_FROM, banking_kinds, stake_effect, write_schema = (
    _bank.TURN_FROM,
    _bank.banking_kinds,
    _bank.stake_effect,
    _bank.write_schema,
)
capture_kind = _part("schema_capture").capture_kind
draw_meld_kind = _part("schema_meld").draw_meld_kind
shedding_kinds = _part("schema_shedding").shedding_kinds
_helpers = _part("schema_helpers")
by_players, deletable, el, expr = _helpers.by_players, _helpers.deletable, _helpers.el, _helpers.expr
PILES, patience_kind = _part("schema_patience").PILES, _part("schema_patience").patience_kind

intlist = {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}
step_common = {"kind": {"type": "string"}, "before": {"type": "string"}, "after": {"type": "string"}, "when": expr}
kinds = {}
kinds["pay"] = el(
    {
        **step_common,
        "from": expr,
        "to": expr,
        "amount": expr,
        "unit": {"type": "string"},
        "where": expr,
        "except": expr,
    },
    ["from", "to", "amount", "unit"],
)
kinds["shuffle"] = el({**step_common, "cut_by": expr, "min_cut": {"type": "integer", "minimum": 0}})
source_says = _part("schema_deal").source_says
kinds["deal"] = el(
    {
        **step_common,
        "source_says": source_says,
        "first": expr,
        "hand": {
            "description": "cards dealt to each seat: a number, a table by number of players, "
            "or an expression of seat, players, hand_no, dealer (in quotes)",
            "oneOf": [
                {"type": "string"},
                {"type": "integer", "minimum": 0},
                {
                    "type": "object",
                    "patternProperties": {"^[0-9]+$": {"type": "integer", "minimum": 0}},
                    "additionalProperties": False,
                    "minProperties": 1,
                },
            ],
        },
        "batches": by_players({"oneOf": [{"type": "integer", "minimum": 1}, intlist]}),
        "rest": {"type": "string"},
        "rest_count": by_players({"type": "integer", "minimum": 0}),
    },
    ["hand"],
)
turnup = {"to": {"type": "string"}, "sets_trump": {"type": "boolean"}, "rest": {"type": "string"}}
kinds["turnup"] = el({**step_common, **turnup, "from": TURN_FROM}, ["to"])
kinds["announce"] = el(
    {**step_common, "first": expr, "declarations": {"type": "array", "minItems": 1, "items": {"type": "string"}}},
    ["declarations"],
)
chooser = {
    "first": {
        **expr,
        "description": "the first seat to choose (default: the dealer's next); the others follow in play order",
    },
    "who": {**expr, "description": "which seats choose, a condition on seat (default: every seat)"},
    "min": {**expr, "description": "the least a seat may choose (default 0)"},
    "max": {**expr, "description": "the greatest a seat may choose"},
    "count": {**expr, "description": "exactly so many (instead of min and max)"},
    "into": {
        "type": "string",
        "description": "a per-seat counter that keeps each seat's choice (the number, or how many cards)",
    },
}
asks = {
    "label": {
        "type": "string",
        "minLength": 1,
        "maxLength": 80,
        "description": "what the step asks, in the game's words (order it up, propose, discard): the question "
        "a player is asked",
    },
}
number_values = {
    "values": {
        "type": "object",
        "propertyNames": {"pattern": "^[0-9]{1,18}$"},
        "additionalProperties": {"type": "string", "minLength": 1, "maxLength": 80},
        "description": "each number's words, as the player says them: {0: pass, 1: order it up}",
    },
}
kinds["choose_number"] = el(
    {
        **step_common,
        **chooser,
        **asks,
        **number_values,
        "allow": {**expr, "description": "the numbers allowed: a condition on value (and seat)"},
    },
    ["into"],
)
kinds["choose_suit"] = el(
    {
        **step_common,
        **asks,
        "first": chooser["first"],
        "who": chooser["who"],
        "suits": {
            "type": "array",
            "items": {"enum": ["S", "H", "D", "C"]},
            "minItems": 1,
            "description": "the suits offered (default: every suit of the pack)",
        },
        "allow": {**expr, "description": "the suits allowed: a condition on value (the suit) and seat"},
        "into": {
            "type": "string",
            "description": "a per-seat counter holding a suit (holds: suit) that keeps each seat's choice",
        },
        "sets_trump": {"type": "boolean", "description": "the suit chosen is the hand's trump (default true)"},
    }
)
kinds["choose_cards"] = el(
    {
        **step_common,
        **chooser,
        **asks,
        "from": {"type": "string", "description": "the zone the cards are chosen from (default: hand, the chooser's)"},
        "to": {
            "type": "string",
            "description": "where the chosen cards go, once every seat has chosen: a zone, or a seat's zone as an expression of seat (the chooser): hand(seat + 1)",
        },
        "cards": {**expr, "description": "which cards may be chosen, a card test"},
    },
    ["to"],
)
kinds["effects"] = el({**step_common, "do": {"$ref": "#/$defs/effects"}}, ["do"])
del kinds["effects"]["anyOf"]  # each effect inside cites for itself
kinds.update(banking_kinds(el, step_common, asks, chooser, expr))
follow = el({"must": {"type": "array", "items": expr}, "free": expr, "lead": expr})
winner = el({"key": {"type": "array", "items": expr, "minItems": 1}}, ["key"])
end_cond = el({"when": expr, "after": {"enum": ["play", "trick"]}, "winner": expr}, ["when"])
kinds["adding"] = el({**step_common, **adding_properties(expr, end_cond)})
kinds["show"] = el({**step_common, "zone": expr}, ["zone"])
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
        "declare": el(
            {
                "table": {"type": "string", "description": "the per-seat zone the melds lie on, face up, still played"},
                "when": {**expr, "description": "when the trick's winner may declare (seat bound: the winner)"},
                "max": {"type": "integer", "minimum": 1, "maximum": 10, "description": "melds after one trick"},
                "reuse": {
                    "enum": ["other_kind", "never"],
                    "description": "a card shown may serve again only in a meld of another kind, or never",
                },
                "melds": {
                    "type": "object",
                    "minProperties": 1,
                    "additionalProperties": el(
                        {
                            "combination": {"type": "string", "description": "a set, run or sum of combinations:"},
                            "cards": {**expr, "description": "which cards may make it (card bound)"},
                            "do": {"$ref": "#/$defs/effects"},
                        },
                        ["combination"],
                    ),
                },
            },
            ["table", "melds"],
        ),
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
kinds["capture"] = capture_kind(el, expr, step_common)
kinds.update(shedding_kinds(el, expr, step_common))
kinds["patience"] = patience_kind(el, expr, step_common)
kinds.update(vying_kinds(el, expr, step_common))
kinds["draw_meld"] = draw_meld_kind(el, expr, step_common)
step = {
    "type": "object",
    "required": ["kind"],
    "properties": {"kind": {"enum": sorted(kinds)}},
    "allOf": [
        {"if": {"properties": {"kind": {"const": k}}}, "then": {"$ref": f"#/$defs/step_{k}"}} for k in sorted(kinds)
    ],
}
effect_props = {
    "take": {
        "type": "object",
        "properties": {
            "from": {"type": "string"},
            "to": {"type": "string"},
            "cards": expr,
            "count": {**expr, "description": "how many cards, from the top of the zone (default: all)"},
        },
        "required": ["from", "to"],
        "additionalProperties": False,
    },
    "end_trick": {"type": "object", "properties": {"leader": expr}, "additionalProperties": False},
    "pay": {
        "type": "object",
        "properties": {
            "from": expr,
            "to": expr,
            "amount": expr,
            "unit": {"type": "string"},
            "where": expr,
            "except": expr,
        },
        "required": ["from", "to", "amount", "unit"],
        "additionalProperties": False,
    },
    "set": {"type": "object", "additionalProperties": expr, "minProperties": 1},
    "add": {"type": "object", "additionalProperties": expr, "minProperties": 1},
    "stake": stake_effect(expr),
    "when": expr,
    "at": expr,
}
effect = el(effect_props, extra={"minProperties": 2})
document = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string"},
        "summary": {"type": "string"},
        "family": {
            "enum": "trick stops vying banking adding fishing draw-and-meld patience shedding collecting".split(),
            "description": "the family of play the game belongs to (how `academie list` and the site group games)",
        },
        "source": {"type": "string", "description": "default source id for cites written as a bare quote"},
        "extends": {"type": "string"},
        "imports": {
            "type": "array",
            "items": el({"from": {"type": "string"}, "take": strings1}, ["from", "take"], amendable=False),
        },
        "abstract": {"type": "boolean"},
        "players": el(
            {"min": {"type": "integer", "minimum": 1}, "max": {"type": "integer", "minimum": 1}}, ["min", "max"]
        ),
        "pack": el(
            {
                "suits": {"type": "array", "items": {"enum": ["S", "H", "D", "C"]}, "minItems": 1},
                "ranks": {"type": "array", "items": {"$ref": "#/$defs/rank"}, "minItems": 1},
                "remove": {"type": "array", "items": el({"when": expr, "cards": expr}, ["when", "cards"])},
                "jokers": {
                    "description": "the joker JK, a card of no suit and no rank (a blank card), shuffled in: 0 or 1",
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 1,
                },
                "copies": {
                    "description": "copies of each card: a number (2: two packs) or the cards a test admits, count times",
                    "oneOf": [
                        {"type": "integer", "minimum": 1},
                        {
                            "type": "array",
                            "minItems": 1,
                            "items": el(
                                {"cards": expr, "count": {"type": "integer", "minimum": 1}}, ["cards", "count"]
                            ),
                        },
                    ],
                },
            },
            ["suits", "ranks"],
        ),
        "orders": {
            "type": "object",
            "additionalProperties": deletable(
                el({"ranks": {"type": "array", "items": {"$ref": "#/$defs/rank"}, "minItems": 1}}, ["ranks"])
            ),
        },
        "direction": el({"value": {"enum": ["clockwise", "counterclockwise"]}}, ["value"]),
        "zones": {
            "type": "object",
            "additionalProperties": deletable(
                el({"per_seat": {"type": "boolean"}, "money": {"type": "boolean"}, "piles": PILES})
            ),
        },
        "money": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "currencies": {
                    "type": "object",
                    "additionalProperties": deletable(
                        el(
                            {
                                "worth": {
                                    "type": "object",
                                    "additionalProperties": {"type": "integer", "minimum": 1},
                                    "maxProperties": 1,
                                }
                            }
                        )
                    ),
                },
                "start": {
                    "type": "array",
                    "items": el(
                        {
                            "give": {
                                "type": "object",
                                "properties": {"to": expr, "amount": expr, "unit": {"type": "string"}},
                                "required": ["to", "amount", "unit"],
                                "additionalProperties": False,
                            }
                        },
                        ["give"],
                    ),
                },
            },
        },
        "vars": {
            "type": "object",
            "additionalProperties": deletable(
                el(
                    {
                        "per_seat": {"type": "boolean"},
                        "per_team": {"type": "boolean"},
                        "holds": {"enum": ["number", "suit"]},
                        "initial": expr,
                        "reset": {"enum": ["game", "hand"]},
                        "label": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 60,
                            "description": "the game's word for the counter, as its players say it (point, "
                            "tricks, game): what the narration and the tables call it",
                        },
                        "say": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 200,
                            "description": "how the counter's value is told, in the game's words: a sentence with "
                            "places {name}, each a part of the value (parts:) or {value} itself: 'a point of "
                            "{cards} ({pips})'",
                        },
                        "parts": {
                            "type": "object",
                            "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                            "maxProperties": 12,
                            "additionalProperties": {
                                "oneOf": [
                                    expr,
                                    {
                                        "type": "object",
                                        "properties": {
                                            "of": expr,
                                            "words": {
                                                "type": "object",
                                                "propertyNames": {"pattern": "^-?[0-9]{1,18}$"},
                                                "maxProperties": 100,
                                                "additionalProperties": {
                                                    "type": "string",
                                                    "minLength": 1,
                                                    "maxLength": 60,
                                                },
                                            },
                                        },
                                        "required": ["of"],
                                        "additionalProperties": False,
                                    },
                                ]
                            },
                            "description": "the parts of the value that say: tells, each a number worked out of "
                            "value alone (cards: value / 100), or {of: EXPRESSION, words: {NUMBER: WORD}}, the "
                            "number said by its word (length: {of: value / 10, words: {5: quint}})",
                        },
                        "wins": {
                            "type": "object",
                            "properties": {
                                "one": {"type": "string", "minLength": 1, "maxLength": 40},
                                "of": {"type": "string", "minLength": 1, "maxLength": 40},
                            },
                            "required": ["one"],
                            "additionalProperties": False,
                            "description": "the counter counts what a seat or side wins: an addition to it is told "
                            "as a win, the thing won in the singular (one: game) and what it is won towards "
                            "(of: rubber): 'seats 1 and 3 win the game: 1 game to 0 in the rubber'",
                        },
                        "shown": {
                            "oneOf": [
                                {"enum": ["public", "own", "hidden", "derived", "declared"]},
                                {
                                    "type": "object",
                                    "properties": {
                                        "declared_with": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}
                                    },
                                    "required": ["declared_with"],
                                    "additionalProperties": False,
                                },
                            ],
                            "description": "which seats see the counter: every seat (public), each seat its own "
                            "cell (own), none (hidden, a working value), every seat once a cell scores (declared: "
                            "said aloud when it counts, kept while it is nothing), every seat once the same "
                            "seat's cell of another counter is declared ({declared_with: COUNTER}: what the "
                            "declaration says), or, the default, every seat that has seen the cards its value "
                            "was worked out from (derived)",
                        },
                    }
                )
            ),
        },
        "teams": el(
            {
                "of": {**expr, "description": "a seat's side, as an expression of seat and players (seat % 2)"},
                "each_hand": {
                    "type": "boolean",
                    "description": "the sides change from hand to hand: of: may read the hand (a called card's holder)",
                },
                "sides": {
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "array", "minItems": 1, "items": expr},
                    "description": "the seats of each side, as expressions of players ([[0, 2], [1, 3]])",
                },
            }
        ),
        "declarations": {
            "type": "object",
            "additionalProperties": deletable(el({"max": {"type": "integer", "minimum": 1}})),
        },
        "combinations": {"type": "object", "additionalProperties": deletable(el(combination, ["kind"]))},
        "dealer": el(
            {
                "draw": {
                    "type": "object",
                    "properties": {"lowest": {"type": "boolean"}, "order": {"type": "string"}},
                    "additionalProperties": False,
                },
                "seat": expr,
            }
        ),
        "hand": {"type": "object", "additionalProperties": {"oneOf": [{"$ref": "#/$defs/step"}, {"type": "null"}]}},
        "game": el(
            {
                "hands": expr,
                "until": expr,
                "next_dealer": expr,
                "hand_winner": expr,
                "end": {"$ref": "#/$defs/effects"},
                "standings": el({"score": expr}, ["score"]),
            }
        ),
        "options": {
            "type": "object",
            "additionalProperties": deletable(
                el(
                    {
                        "description": {"type": "string"},
                        "default": {"type": "boolean"},
                        "conflicts": {"type": "array", "items": {"type": "string"}},
                        "with": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
                        "set": {"$ref": "#/$defs/document"},
                    },
                    extra={"if": {"not": {"required": ["with"]}}, "then": {"required": ["set"]}},
                )
            ),
        },
    },
}
schema = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://academie.invalid/schema/rules.json",
    "title": "academie rule file",
    "description": "A card game, or one source's variant of it, as data. See docs/language.md.",
    "$ref": "#/$defs/document",
    "$defs": {
        "document": document,
        "expr": {
            "description": "an expression of the rule language (docs/language.md)",
            "type": ["string", "integer", "boolean"],
        },
        "rank": {
            "description": "a rank: 2-10, J, Q, K, A",
            "oneOf": [
                {"type": "integer", "minimum": 2, "maximum": 10},
                {"enum": ["J", "Q", "K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]},
            ],
        },
        "quote": {
            "type": "object",
            "properties": {
                "source": {"type": "string"},
                "quote": {"type": "string", "minLength": 1},
                "translation": {
                    "description": "an English translation of a quote in another language (the project's own)",
                    "type": "string",
                    "minLength": 1,
                },
                "translation_source": {
                    "description": "the source id of the published translation given, if it is not the project's own",
                    "type": "string",
                },
            },
            "required": ["source", "quote"],
            "additionalProperties": False,
        },
        "cite": {
            "description": "the source passage this element encodes: a quote of the file's default source, {source, quote}, or a list",
            "oneOf": [
                {"type": "string", "minLength": 1},
                {"$ref": "#/$defs/quote"},
                {
                    "type": "array",
                    "minItems": 1,
                    "items": {"oneOf": [{"type": "string", "minLength": 1}, {"$ref": "#/$defs/quote"}]},
                },
            ],
        },
        "editorial": {
            "description": "why this element is not (only) the source's, and on what evidence",
            "type": "object",
            "properties": {
                "reason": {"type": "string", "minLength": 1},
                "evidence": {"type": "string", "minLength": 1},
            },
            "required": ["reason", "evidence"],
            "additionalProperties": False,
        },
        "effects": {"type": "array", "items": effect},
        "step": step,
        **{f"step_{k}": v for k, v in kinds.items()},
    },
}


def main(path=None):
    write_schema(schema, path)


if __name__ == "__main__":
    main()
