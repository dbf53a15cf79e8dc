"""The size limits a rule file is read and compiled with: each is checked before the work it
bounds and reported at the place in the file that exceeds it (docs/security.md)."""

from __future__ import annotations

from dataclasses import dataclass

MAX_FILE_BYTES = 1_000_000  # a rule file larger than this is refused (raise with limits=)
MAX_DEPTH = 64  # nesting of mappings and lists
MAX_NODES = 20_000  # nodes after expanding aliases (alias bombs)
MAX_PLAYERS = 100  # players.max of a game
MAX_CARDS = 1_000  # cards of a pack, and any count of cards (a hand, a batch, a rest)
MAX_INT_DIGITS = 15  # digits of an integer, in YAML or in an expression
MAX_EXPR_LENGTH = 1_000  # characters of one expression
MAX_EXPR_DEPTH = 50  # nesting of one expression (brackets, calls, operators)
MAX_QUOTE_LENGTH = 2_000  # characters of one quoted passage
MAX_CHAIN = 32  # files deep an extends/imports chain may go (the corpus goes 3)
MAX_OPTIONS = 64  # options one rule file may declare (the corpus declares at most 5)
MAX_CHAIN_FILES = 256  # files an extends/imports tree may read in all, for one rule file


@dataclass(frozen=True)
class Limits:
    """The size limits a rule file is read and compiled with. Each is checked
    before the work it bounds, and reported at the place in the file that
    exceeds it; the command line raises them (--max-players, …)."""

    file_bytes: int = MAX_FILE_BYTES
    depth: int = MAX_DEPTH
    nodes: int = MAX_NODES
    players: int = MAX_PLAYERS
    cards: int = MAX_CARDS
    int_digits: int = MAX_INT_DIGITS
    expr_length: int = MAX_EXPR_LENGTH
    expr_depth: int = MAX_EXPR_DEPTH
    quote_length: int = MAX_QUOTE_LENGTH
    allow: tuple = ()  # folders (besides its own) a user's rule file may extend or import from
