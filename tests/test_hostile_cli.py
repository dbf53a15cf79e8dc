"""The standing test of hostile input (docs/security.md): random argument lists
and random mutations of corpus files thrown at the command line. Whatever the
input, the answer is a result or a clear error: never the catch-all
("internal error", exit 3), never a traceback, never a file written outside the
run's own folder, and always an answer within a time bound."""

from __future__ import annotations

import os
import re
import signal
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from academie.cli import main
from academie.dsl.loader import corpus_root

TIME_BOUND = 30  # seconds for one command: far above any answer the inputs below deserve

# -- watching what a command writes ----------------------------------------------------------------
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_watch: dict = {"on": False, "root": None, "outside": []}


def _audit(event, args):
    if not _watch["on"]:
        return
    paths = ()
    if event == "open":
        path, mode, flags = args
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS
        )
        if writing and isinstance(path, (str, bytes, os.PathLike)):
            paths = (path,)
    elif event in (
        "os.rename",
        "os.remove",
        "os.mkdir",
        "os.symlink",
        "os.truncate",
        "os.rmdir",
        "os.link",
        "os.chmod",
        "shutil.rmtree",
        "shutil.move",
        "shutil.copyfile",
    ):
        paths = tuple(a for a in args[:2] if isinstance(a, (str, bytes, os.PathLike)))
    for p in paths:
        p = os.fsdecode(p)
        if p in (os.devnull,):
            continue
        full = os.path.realpath(p)
        if full != _watch["root"] and not full.startswith(_watch["root"] + os.sep):
            _watch["outside"].append((event, full))


sys.addaudithook(_audit)


class Hang(BaseException):
    pass


@contextmanager
def _bounded(seconds: int):
    def on_alarm(signum, frame):
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _run_hostile(args: list[str], folder: Path):
    """Run the CLI in ``folder`` and check the answer; returns (exit, output)."""
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(folder)
    _watch.update(on=True, root=os.path.realpath(folder), outside=[])
    try:
        with _bounded(TIME_BOUND):
            r = runner.invoke(main, args, catch_exceptions=True)
    except Hang as e:
        raise AssertionError(f"academie {' '.join(args)}: {e}") from None
    finally:
        _watch["on"] = False
        os.chdir(cwd)
    text = r.stdout + r.stderr
    shown = f"academie {' '.join(args)}\n{text[-2000:]}"
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise AssertionError(f"{shown}\nraised {type(r.exception).__name__}: {r.exception}") from r.exception
    assert r.exit_code != 3, shown
    assert "internal error" not in text, shown
    assert "Traceback" not in text, shown
    assert not _watch["outside"], f"{shown}\nwrote outside its folder: {_watch['outside']}"
    assert "\x1b" not in text and "\x07" not in text, shown
    return r.exit_code, text


@pytest.fixture(autouse=True)
def _env(monkeypatch, tmp_path_factory):
    cache = tmp_path_factory.mktemp("mpl")
    monkeypatch.setenv("MPLCONFIGDIR", str(cache))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("ACADEMIE_DEBUG", raising=False)


# -- random argument lists -------------------------------------------------------------------------
RULES = [
    "enfle/academie",
    "hearts/foster+sweepstakes",
    "polignac/boussac",
    "francion/terrail",
    "emprunt/lacombe",
    "nowhere/game",
    "../../etc/passwd",
    "/etc/passwd",
    "enfle/../enfle/academie",
    "enfle/academie+nope",
    "x.yaml",
    "./",
    "",
    "-",
    "enfle",
]
VALUES = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "-1",
    "5",
    "8",
    "99999999999999999999",
    "²",
    "٣",
    "x",
    "",
    " ",
    "1e3",
    "human",
    "random,random",
    "first",
    "nope",
    "random,x",
    "\x1b]0;t\x07",
    "out.txt",
    "nodir/out.txt",
    "/dev/full",
    "/dev/zero",
    ".",
    "a" * 300,
]
OPTIONS = [
    "-p",
    "--players",
    "-s",
    "--seed",
    "--agents",
    "--dealer",
    "--hands",
    "--max-plays",
    "-o",
    "--log",
    "--json",
    "-n",
    "--games",
    "--workers",
    "--chunk",
    "--csv",
    "--jsonl",
    "--playouts",
    "--format",
    "-O",
    "--html",
    "--deck",
    "--deal",
    "--all",
    "--max-depth",
    "--max-nodes",
    "--max-file-size",
    "--help",
    "--backend",
    "--option-a",
]
COMMANDS = ["play", "simulate", "validate", "render", "compare", "coverage", "list", "site", "nope"]


@st.composite
def arg_lists(draw):
    cmd = draw(st.sampled_from(COMMANDS))
    args = [cmd]
    if cmd in ("play", "simulate", "validate", "render"):
        args.append(draw(st.sampled_from(RULES)))
    elif cmd == "compare":
        args += [draw(st.sampled_from(RULES)), draw(st.sampled_from(RULES))]
    elif cmd == "coverage":
        args.append(draw(st.sampled_from(["enfle-jeux-oublies", "nope", ""])))
    elif cmd == "site":
        args.append(draw(st.sampled_from(["out", "nodir/out", "/dev/full", "."])))
    for _ in range(draw(st.integers(0, 4))):
        args.append(draw(st.sampled_from(OPTIONS)))
        if draw(st.booleans()):
            args.append(draw(st.sampled_from(VALUES)))
    # keep the work each command is given small: the point is the answer, not a long run
    if cmd in ("simulate", "compare") and not {"-n", "--games"} & set(args):
        args += ["-n", "2"]
    for i, a in enumerate(args[:-1]):
        if a in ("-n", "--games", "--playouts") and re.fullmatch(r"[0-9]{1,9}", args[i + 1]) and int(args[i + 1]) > 3:
            args[i + 1] = "3"
    return args


@settings(
    max_examples=int(os.environ.get("ACADEMIE_HOSTILE_EXAMPLES", 150)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(args=arg_lists())
def test_random_argument_lists_get_an_answer(args, tmp_path_factory):
    folder = tmp_path_factory.mktemp("run")
    _run_hostile(args, folder)


# -- random mutations of corpus files --------------------------------------------------------------
HOSTILE = [
    0,
    -1,
    -5,
    10**40,
    1_000_000_000,
    "9" * 5000,
    "1/0",
    "seat % 0",
    "card < 3",
    "card.suit + 1",
    "(" * 500 + "1" + ")" * 500,
    " + ".join(["1"] * 3000),
    "../../../../etc/passwd",
    "/etc/passwd",
    "\x1b]0;pwned\x07\x1b[2J",
    "\u202eevil",
    None,
    [],
    {},
    True,
    "x" * 2000,
    "led",
    "trump",
    "count(hand(seat)) / 0",
    "players - players",
    "S",
    "AS",
    "each",
    "pot",
]


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path


def _set(node, path, value):
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


CORPUS = sorted(str(p.relative_to(corpus_root())) for p in corpus_root().rglob("*.yaml"))


@settings(
    max_examples=int(os.environ.get("ACADEMIE_HOSTILE_EXAMPLES", 150)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.sampled_from(CORPUS),
    st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(HOSTILE)), min_size=1, max_size=3),
    st.sampled_from(
        [
            ["validate", "--playouts", "1", "--max-plays", "2000"],
            ["play", "--max-plays", "2000", "--json"],
            ["render"],
            ["render", "--format", "html"],
            ["simulate", "-n", "2", "--workers", "1", "--max-plays", "2000"],
        ]
    ),
)
def test_mutated_corpus_files_get_an_answer(tmp_path_factory, name, changes, command):
    folder = tmp_path_factory.mktemp("mut")
    data = yaml.safe_load((corpus_root() / name).read_text(encoding="utf-8"))
    leaves = [p for p in _leaves(data) if p]
    for i, value in changes:
        _set(data, leaves[i % len(leaves)], value)
    rule = folder / "mutant.yaml"
    rule.write_text("# yaml-language-server: $schema=x\n" + yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    code, text = _run_hostile([command[0], "./mutant.yaml", *command[1:]], folder)
    if code == 2 and "mutant.yaml" in text:
        # a rule error is located in the file that has it
        assert re.search(r"mutant\.yaml:\d+:\d+: ", text) or "mutant.yaml:0:0" not in text, text


def test_the_watch_sees_a_write_outside_the_folder(tmp_path):
    """The standing test can fail: a write outside the run's folder is seen."""
    inside, outside = tmp_path / "in", tmp_path / "elsewhere.txt"
    inside.mkdir()
    _watch.update(on=True, root=os.path.realpath(inside), outside=[])
    try:
        outside.write_text("x")
        (inside / "ok.txt").write_text("x")
    finally:
        _watch["on"] = False
    assert [p for _, p in _watch["outside"]] == [os.path.realpath(outside)]


def test_the_time_bound_ends_a_hang():
    with pytest.raises(Hang):
        with _bounded(1):
            while True:
                pass
