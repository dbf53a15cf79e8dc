"""Command-line argument types and checks shared by the commands: every
argument a user gives is checked here, by click, before any work is done,
and a bad one is a usage error (exit status 2), never an internal error."""

from __future__ import annotations

import re

import click

SEED_MAX_CHARS = 200
_ASCII_INT = re.compile(r"-?[0-9]+")

SEED_HELP = (
    "an integer written in ASCII digits (an optional minus first) is an integer seed; anything else "
    "(at most 200 characters, no control characters) is a string seed: -s 3 and -s ٣ are different seeds"
)


class SeedType(click.ParamType):
    """A seed: an ASCII integer (``-?[0-9]+``) is an integer seed, any other
    text a string seed. Digits of other scripts (``٣``, ``²``) are not
    numbers here: ``٣`` is the string seed ``'٣'``, never the integer 3."""

    name = "seed"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        s = str(value)
        if len(s) > SEED_MAX_CHARS:
            self.fail(f"a seed has at most {SEED_MAX_CHARS} characters, not {len(s)}", param, ctx)
        if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in s):
            self.fail("a seed holds no control characters", param, ctx)
        if _ASCII_INT.fullmatch(s):
            return int(s)
        return s


SEED = SeedType()


def check_agents(spec: str | None, n: int, param_hint: str = "--agents", agents=None) -> list[str]:
    """The agent names of ``--agents`` for ``n`` seats, checked: each a known
    agent, one name for all seats or one per seat."""
    from ..interpreter.agents import check_spec, known_agents
    from .. import players  # noqa: F401  (registers the players that search, by name)

    known = agents or known_agents()
    names = (spec or "random").split(",")
    for a in names:
        try:
            if a.split(":")[0].strip() not in known:
                raise ValueError(f"unknown agent '{a}' (agents: {', '.join(known)})")
            check_spec(a)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint=param_hint) from None
    if len(names) not in (1, n):
        raise click.BadParameter(
            f"{len(names)} agents for {n} players: give one, or one per seat", param_hint=param_hint
        )
    return names


def check_dealer(dealer: int | None, n: int) -> None:
    """``--dealer`` names one of the ``n`` seats 0 … n-1."""
    if dealer is not None and not (0 <= dealer < n):
        raise click.BadParameter(
            f"{dealer} is not a seat: for {n} players the seats are 0 to {n - 1}", param_hint="--dealer"
        )
