import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from academie.cli import main

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data():
    return DATA


@pytest.fixture
def run():
    """Run the CLI in-process: returns (exit code, stdout, stderr). No input
    of the test suite may reach the catch-all (docs/security.md): every run
    is checked for it, except where a test means to reach it."""

    def _run(*args, internal_ok: bool = False):
        r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        if not internal_ok:
            assert r.exit_code != 3 and "internal error" not in r.stderr, (
                f"academie {' '.join(map(str, args))} reached the catch-all:\n{r.stderr[-2000:]}"
            )
        return r.exit_code, r.stdout, r.stderr

    return _run


def read_log(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def moves(log):
    """The play of a log as compact strings: 'p1:2S', 'r2' (renounce), 't3' (trick won), 'end:1'."""
    out = []
    for e in log:
        t = e["type"]
        if t == "play":
            out.append(f"p{e['seat']}:{e['card']}")
        elif t == "renounce":
            out.append(f"r{e['seat']}")
        elif t == "trick":
            out.append(f"t{e['winner']}")
        elif t == "hand_end":
            out.append(f"end:{e['winner']}")
    return out


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite the golden files (tests/golden/) from the current output.",
    )


@pytest.fixture
def update_golden(request):
    """True when the golden files are to be rewritten: pytest --update-golden,
    or ACADEMIE_UPDATE_GOLDEN=1 in the environment."""
    import os

    return bool(request.config.getoption("--update-golden") or os.environ.get("ACADEMIE_UPDATE_GOLDEN"))
