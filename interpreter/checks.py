"""The input checks of a game given from outside the rules: a stacked deck
and a deal file, checked against the pack and the rules' deal before play.
"""

from __future__ import annotations

from typing import Any

from ..dsl.cards import Card, parse_card
from ..dsl.errors import Pos, RuleError
from .base import StateParts


class InputChecks(StateParts):
    """``State``'s checks of ``deck=`` and ``deal=``."""

    def _check_deck(self, deck: list[Card]) -> list[Card]:
        bad = [c for c in deck if c not in self._pack_set]
        if bad:
            raise RuleError(
                f"the stacked deck holds {', '.join(map(str, bad))}, not in this game's pack for {self.n} players",
                Pos("--deck", 1, 1),
                code="deck",
            )
        counts = self.g.pack_counts(self.n)
        held: dict[Card, int] = {}
        for c in deck:
            held[c] = held.get(c, 0) + 1
        dup = sorted(c.name for c, k in held.items() if k > counts.get(c, 0))
        if dup:
            raise RuleError(
                f"the stacked deck holds {', '.join(dup)} "
                + ("more than once" if len(counts) == len(self.pack_cards) else "more times than the pack has copies"),
                Pos("--deck", 1, 1),
                code="deck",
            )
        missing = [c.name for c, k in counts.items() for _ in range(k - held.get(c, 0))]
        if missing:
            raise RuleError(
                f"the stacked deck lacks {len(missing)} card(s) of the pack: {', '.join(missing)}",
                Pos("--deck", 1, 1),
                code="deck",
            )
        return list(deck)

    def _check_deal(self, deal: dict, file: str) -> dict:
        """Check a given deal: ``deal`` is the data, or {"data":, "positions":}
        from ``load_yaml`` so that errors point at the card's line and column."""
        positions = {}
        if isinstance(deal, dict) and "data" in deal and "positions" in deal:
            deal, positions = deal["data"], deal["positions"]

        def at(*path):
            path = tuple(path)
            while path and path not in positions:
                path = path[:-1]
            return positions.get(path, Pos(file, 1, 1))

        where = at()
        if not isinstance(deal, dict) or "hands" not in deal:
            raise RuleError(
                "a deal file is a mapping with hands: [[cards of seat 0], [cards of seat 1], …]", where, code="deal"
            )
        hands = deal["hands"]
        if not isinstance(hands, list) or len(hands) != self.n:
            raise RuleError(
                f"the deal gives {len(hands) if isinstance(hands, list) else 'no list of'} hands for {self.n} players",
                at("hands"),
                code="deal",
            )
        counts = self.g.deal_counts(self.n)
        per = counts[0][1] if counts else None
        rest_zone = counts[0][0].rest if counts else None
        out: dict[str, Any] = {"hands": []}
        seen: dict[Card, str] = {}
        dealt: dict[Card, int] = {}
        copies = self.g.pack_counts(self.n)

        def cards_of(items, label, path):
            if isinstance(items, str):
                items = items.replace(",", " ").split()
            if not isinstance(items, list):
                raise RuleError(f"{label}: expected a list of cards", at(*path), code="deal")
            got = []
            for j, x in enumerate(items):
                c = parse_card(str(x))
                if c is None:
                    raise RuleError(
                        f"{label}: '{x}' is not a card (write rank + suit: AS, 10H, KD)", at(*path, j), code="deal"
                    )
                if c not in self._pack_set:
                    raise RuleError(
                        f"{label}: {c} is not in this game's pack for {self.n} players", at(*path, j), code="deal"
                    )
                if c in seen:
                    dealt[c] += 1
                    if dealt[c] > copies.get(c, 1):
                        twice = "twice" if copies.get(c, 1) == 1 else f"{dealt[c]} times, of {copies[c]} copies"
                        raise RuleError(f"{label}: {c} is dealt {twice} (also in {seen[c]})", at(*path, j), code="deal")
                else:
                    dealt[c] = 1
                seen[c] = label
                got.append(c)
            return got

        for i, h in enumerate(hands):
            cs = cards_of(h, f"hand of seat {i}", ("hands", i))
            if per is not None and len(cs) != per:
                raise RuleError(
                    f"hand of seat {i} has {len(cs)} cards; the rules deal {per} to each of {self.n}",
                    at("hands", i),
                    code="deal",
                )
            out["hands"].append(cs)
        # besides the hands, only the zones the rules deal to before play (the rest
        # of a deal, a turn-up) may be given: a card in a zone of play (the trick, a
        # pile of won tricks) before anyone has played is no deal
        dealt_to = []
        for st in self.g.steps:
            zs = (st.rest,) if st.kind == "deal" else (st.to, st.rest) if st.kind == "turnup" else ()
            dealt_to += [z for z in zs if z and z not in dealt_to]
        for k, v in deal.items():
            if k == "hands":
                continue
            if k not in self.zones or k == "pack":
                raise RuleError(
                    f"the deal names '{k}', which is not a shared zone of this game "
                    f"(a deal gives the hands" + (f" and {', '.join(dealt_to)})" if dealt_to else " only)"),
                    positions.get((k, "@key"), where),
                    code="deal",
                )
            if k not in dealt_to:
                raise RuleError(
                    f"the deal puts cards in '{k}', a zone the rules do not deal to: a deal gives "
                    f"the hands" + (f" and {', '.join(dealt_to)}" if dealt_to else " only"),
                    positions.get((k, "@key"), where),
                    code="deal",
                )
            out[k] = cards_of(v, f"zone {k}", (k,))
        left = [c for c in self.pack_cards if c not in seen]
        if left:
            rest_count = counts[0][3] if counts else 0
            if rest_zone is not None and rest_zone not in out:
                out[rest_zone] = left  # the rest goes where the rules deal it
            elif rest_zone is None and rest_count != 0:
                out["pack"] = left  # undealt cards stay in the pack
            else:
                raise RuleError(
                    f"the deal leaves out {len(left)} card(s) of the pack: {', '.join(c.name for c in left)}",
                    where,
                    code="deal",
                )
        return out
