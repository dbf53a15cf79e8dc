"""The schema of a draw-and-meld step (``kind: draw_meld``, dsl/build_meld.py), for make_schema.py."""

from __future__ import annotations


RESTOCK_KEYS: dict = {
    "restock": {
        "enum": ["none", "turn", "shuffle"],
        "description": "when the stock is out and a card is to be drawn: the discard pile but its top card "
        "becomes the stock, turned over as it lies (turn) or shuffled, unseen (shuffle); default none",
    },
    "restocks": {
        "type": "integer",
        "minimum": 1,
        "maximum": 1000,
        "description": "the most restocks in a hand (default 1); then the stock stays out",
    },
    "restock_keep": {
        "type": "integer",
        "minimum": 0,
        "maximum": 1,
        "description": "the pile's top cards left on it at a restock (default 1; 0: the whole pile)",
    },
}


def draw_meld_kind(el, expr: dict, step_common: dict) -> dict:
    """The properties of a draw-and-meld step, made with make_schema's ``el``."""
    return el(
        {
            **step_common,
            "first": expr,
            "stock": {"type": "string", "description": "the shared zone drawn from, face down"},
            "discards": {"type": "string", "description": "the shared zone discarded to, its top face up"},
            "table": {"type": "string", "description": "the per-seat zone of the cards a seat has laid out"},
            "melds": {
                "type": "string",
                "description": "a combination of kind melds: what a seat's table lays out into",
            },
            "drawn": {
                "enum": ["hand", "faced"],
                "description": "a card drawn goes into the hand (hand), or is turned up and laid out at once or passed (faced)",
            },
            "discard": {"type": "boolean", "description": "a turn ends with a discard while the hand holds a card"},
            "knock": {**expr, "description": "a condition (seat bound): the player may end the hand after his discard"},
            "lay": {
                "enum": ["turn", "knock"],
                "description": "melds laid out in the turn (turn), or laid down only after a knock, each apart (knock)",
            },
            "deadwood": {
                **expr,
                "description": "a number (seat bound): what his hand counts left out of its best melds",
            },
            "knock_at_most": {
                **expr,
                "description": "a number (seat bound): the knock, in place of a discard, when a discard leaves deadwood at most this",
            },
            "counts": {**expr, "description": "a number (seat bound): what his hand counts as it lies"},
            "lay_off": {
                "enum": ["none", "others", "all"],
                "description": "after a knock: whose melds the others lay cards off on (others': not their own)",
            },
            "lay_off_when": {**expr, "description": "a condition (seat bound): the seat lays off only when it holds"},
            "lay_off_melds": {
                "type": "string",
                "description": "a combination of kind melds: what a meld laid off on makes",
            },
            "knocked": {"type": "string", "description": "a per-seat counter set to 1 for the seat who knocks"},
            "first_offer": {
                "type": "boolean",
                "description": "the pile's top offered to each in turn before the first draw",
            },
            "stock_least": {
                "type": "integer",
                "minimum": 0,
                "description": "a turn begun with this many stock cards: knock with the pile's top, or the hand ends",
            },
            "returns_end": {
                "type": "integer",
                "minimum": 0,
                "description": "the hand ends, no one winning, after so many turns in a row discard the card taken",
            },
            "takes_end": {
                "type": "integer",
                "minimum": 0,
                "description": "the hand ends, no one winning, at this take of the discard pile after the first turn",
            },
            "lay_off_in_turn": {
                "enum": ["none", "own", "all"],
                "description": "in his turn a player lays melds apart and lays cards off on melds on the "
                "table: his own (own) or any seat's (all); default none",
            },
            "discard_taken": {
                "enum": ["allowed", "forbidden"],
                "description": "the card taken from the discard pile may not be discarded in the same turn (forbidden)",
            },
            **RESTOCK_KEYS,
            "end": {
                "type": "array",
                "items": el({"when": expr, "after": {"enum": ["turn"]}, "winner": expr}, ["when"]),
            },
        },
        ["stock", "discards", "table", "melds"],
    )
