"""Building a rule file's ``combinations:`` section (``build``): each named pattern checked and
made a ``Combination`` (``combinations.py``) against the file's orders, once when it is loaded."""

from __future__ import annotations

from typing import Callable

from .cards import RANKS
from .combinations import KINDS, MAX_TOTAL, MAX_VALUE, Combination


def _whole(v):
    """A number the schema took as an integer (``4.0`` is one to JSON Schema) as an ``int``; the
    compiled module (``academie.build_native``) takes no float where an int is declared."""
    return int(v) if isinstance(v, float) and v.is_integer() else v


def natural_strength() -> dict[str, int]:
    """The notation order of ranks (2 lowest, ace highest), for a file without orders."""
    return {r: i + 1 for i, r in enumerate(RANKS)}


def build(
    specs: dict, orders: dict[str, dict], err: Callable[[tuple, str], None], limits_cards: int
) -> dict[str, Combination]:
    """The file's ``combinations:`` (``specs``, name -> mapping, checked by the schema) built
    against its orders (name -> {Card: strength}); ``err(path, message)`` reports a mistake
    at its place (the path under ``combinations``)."""
    out: dict[str, Combination] = {}
    for name, d in specs.items():
        if not isinstance(d, dict):
            continue
        kind = d.get("kind")
        if kind not in KINDS:
            err((name, "kind"), f"combination '{name}' has no kind among {', '.join(KINDS)}")
            continue
        order = d.get("order")
        if order is not None:
            if order not in orders:
                err((name, "order"), f"no order named '{order}' (orders: {', '.join(orders) or 'none'})")
                continue
            table = orders[order]
        elif len(orders) == 1:
            table = next(iter(orders.values()))
        elif "play" in orders:
            table = orders["play"]
        elif orders:
            err((name,), f"combination '{name}' needs the name of an order: order: ORDER")
            continue
        else:
            table = None
        strength = {x.rank: v for x, v in table.items()} if table is not None else natural_strength()
        size = _whole(d.get("size"))
        least = int(d.get("min") or size or (3 if kind == "run" else 1))
        most = _whole(d.get("max", size))
        if most is not None and least > most:
            err((name,), f"combination '{name}': min {least} is more than max {most}")
        if least > limits_cards:
            err((name, "min"), f"combination '{name}': min {least} is more than the limit of {limits_cards} cards")
        values = None
        if d.get("values") is not None:
            values = {}
            for r, v in d["values"].items():
                r, v = str(r), _whole(v)
                if r not in RANKS:
                    err((name, "values", r), f"'{r}' is not a rank")
                elif not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_VALUE:
                    err((name, "values", r), f"the value of a card is a number from 0 to {MAX_VALUE}")
                else:
                    values[r] = v
        total = _whole(d.get("total", 0))
        if kind == "sum":
            if values is None:
                err((name,), f"combination '{name}' is a sum: say the value of each rank (values:)")
            if not isinstance(total, int) or not 1 <= total <= MAX_TOTAL:
                err((name, "total"), f"a sum's total is a number from 1 to {MAX_TOTAL}")
                total = 1
        low = frozenset(str(r) for r in d.get("low", []) or [])
        for r in low:
            if r not in strength:
                err((name, "low"), f"'{r}' is not a rank of the order")
        ranks = d.get("ranks")
        cards = _whole(d.get("cards", 5))
        if kind == "ranking" and not 1 <= cards <= 13:
            err((name, "cards"), "a ranking compares hands of 1 to 13 cards")
            cards = 5
        out[name] = Combination(
            name=name,
            kind=kind,
            least=least,
            most=most,
            sizes=tuple(_whole(x) for x in d.get("sizes", []) or []),
            suited=d.get("suited", True),
            strength=strength,
            low=low,
            ranks=frozenset(str(r) for r in ranks) if ranks is not None else None,
            values=values,
            total=total,
            cards=cards,
            kickers=d.get("kickers", True),
        )
    for name, d in specs.items():  # a ranking's categories: combinations named before or after it
        c = out.get(name)
        if c is None or c.kind not in ("ranking", "melds"):
            continue
        parts = []
        for i, p in enumerate(d.get("of", []) or []):
            q = out.get(str(p))
            if c.kind == "melds" and q is not None and q.kind not in ("set", "run"):
                err((name, "of", i), f"'{p}' is no set or run: melds are laid out of sets and runs")
            elif q is None or q.kind in ("ranking", "melds"):
                err((name, "of", i), f"'{p}' is no combination of this file (a ranking ranks sets, runs, flushes …)")
            else:
                parts.append(q)
            if q is not None and q.strength != c.strength:
                err((name, "of", i), f"'{p}' ranks the cards by another order than the ranking '{name}'")
        if not parts:
            err((name, "of"), f"the ranking '{name}' names its categories, highest first (of: [...])")
        c.of = tuple(parts)
    return out
