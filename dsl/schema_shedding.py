"""The schema of the shedding and asking steps (``kind: shedding``, dsl/build_shedding.py;
``kind: asking``, dsl/build_asking.py), for make_schema.py."""

from __future__ import annotations

try:
    from .schema_meld import RESTOCK_KEYS
except ImportError:  # make_schema.py run as a script: the modules beside it
    from schema_meld import RESTOCK_KEYS  # type: ignore[no-redef]


def shedding_kinds(el, expr: dict, step_common: dict) -> dict:
    """The properties of a shedding step and of an asking step, made with make_schema's ``el``."""
    shedding = el(
        {
            **step_common,
            "first": {**expr, "description": "the first to play (default: the dealer's next)"},
            "stock": {"type": "string", "description": "the shared zone drawn from, face down"},
            "discards": {"type": "string", "description": "the shared zone played to, its top card face up (onto)"},
            "starter": {
                **expr,
                "description": "the stock's top card is turned onto the discards to start; a card failing "
                "this test (of card) is put back in the middle of the stock and the next turned",
            },
            "match": {
                **expr,
                "description": "whether card may be played on onto, the top of the discards (led: the suit called for)",
            },
            "wild": {**expr, "description": "a card playable on any; its player names the suit to follow"},
            "draws": {**expr, "description": "the most cards a player draws in a turn (default: no limit)"},
            "draw_freely": {
                "type": "boolean",
                "description": "a player may draw though he could play (default false: only when he cannot)",
            },
            "blocked": {
                **expr,
                "description": "passes in a row with the stock out that end the hand (default: the players)",
            },
            "skip": {**expr, "description": "a card (test of card) that makes the next player lose his turn"},
            "reverse": {**expr, "description": "a card (test of card) that turns the order of play round"},
            "penalty": el(
                {
                    "when": {**expr, "description": "a card (test of card) that makes the next player draw"},
                    "count": {**expr, "description": "how many cards he draws (default 2)"},
                    "stack": {
                        "type": "boolean",
                        "description": "he may play a like card instead, passing on the sum to the next",
                    },
                },
                ["when"],
            ),
            "on_play": {"$ref": "#/$defs/effects"},
            **RESTOCK_KEYS,
            "end": {
                "type": "array",
                "items": el({"when": expr, "after": {"enum": ["play"]}, "winner": expr}, ["when"]),
            },
        },
        ["stock", "discards", "match"],
    )
    asking = el(
        {
            **step_common,
            "first": {**expr, "description": "the first to ask (default: the dealer's next)"},
            "stock": {"type": "string", "description": "the shared zone drawn from, face down"},
            "books": {"type": "string", "description": "the per-seat zone each seat's books are laid down in"},
            "book": {**expr, "description": "how many cards of a rank make a book (default: the pack's suits)"},
            "empty_draw": {
                "type": "boolean",
                "description": "a seat with no card draws one on its turn while the stock lasts (default true)",
            },
            "ask_after_empty_draw": {
                "type": "boolean",
                "description": "and then asks (default true); else its turn is over",
            },
            "again_on_catch": {
                "type": "boolean",
                "description": "a seat that draws the rank it asked for shows it and asks again (default true)",
            },
            "out_ends": {
                "type": "boolean",
                "description": "a player whose last cards go into a book ends the hand, its winner (default false)",
            },
        },
        ["stock", "books"],
    )
    return {"shedding": shedding, "asking": asking}
