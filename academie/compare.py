"""``academie compare A B``: two games side by side.

In the rules: the statements of ``describe`` for each game (after ``extends``,
imports and options), matched by key and compared by value, aspect by aspect;
each difference with the citations or editorial notes of both sides;
identical aspects summarised. In play (``--games N``): the measures of
``measures`` for both, on the same seeds, with 95 % intervals, and a
plain-words line for each significant difference.

Options: ``A+NAME`` switches option NAME on for that side
(``polignac/boussac+capot``), as do ``--option-a NAME`` and ``--option-b NAME``;
``--option NAME`` switches it on for both.
"""

from __future__ import annotations

from .compare_play import (  # noqa: F401  (re-exported)
    GAME_MEASURES,
    HAND_MEASURES,
    HANDS_PHRASE,
    play_measures,
    report,
)
from .compare_rules import (  # noqa: F401  (re-exported)
    Side,
    common_players,
    label_of,
    load_side,
    missing_note,
    rank_moves,
    rules_diff,
    rules_json,
    step_pairs,
)
from .compare_text import (  # noqa: F401  (re-exported)
    _opt,
    balance_text,
    format_play,
    format_rules,
    luck_text,
    mean_text,
    pct_text,
    share_text,
)
from .dsl.loader import split_ref  # noqa: F401  (re-exported)
