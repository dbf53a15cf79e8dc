"""Limits declared and enforced early (issue 10, item 4, and the Dask part of
item 5): every oversized input is a located error before the work it would
cost, the quote search answers whatever the quote, ``simulate`` keeps its
memory whatever ``-n`` and its processes within the cores, and a Dask
scheduler that cannot be reached is said plainly.

The cases that hung or ate memory before run in a subprocess with a timeout:
the timeout is a hang guard only, far above what each takes."""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

BROKEN = Path(__file__).parent / "broken"
HANG_GUARD = 60  # seconds; each case below answers in about one


def cli(*args, timeout=HANG_GUARD, prelude=""):
    """Run the command line in a fresh interpreter: (exit, stdout, stderr)."""
    code = prelude + "import sys\nfrom academie.cli import main\nmain(sys.argv[1:], prog_name='academie')\n"
    r = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, timeout=timeout, cwd=BROKEN
    )
    return r.returncode, r.stdout, r.stderr


def no_crash(err):
    assert "internal error" not in err and "Traceback" not in err, err


V = ("validate", "--playouts", "0")

# (command line before the file, file, exit status, "line:col", key phrase)
CASES = [
    (
        V,
        "limit-players.yaml",
        1,
        "6:8",
        "players: max 1000000000 is more than the limit of 100 players (raise it with --max-players)",
    ),
    (V, "limit-players-entry.yaml", 1, "7:", "an entry for 1000000000 players, more than the limit of 100"),
    (V, "limit-players-key.yaml", 1, "10:9", "an entry for a number of players of more than 15 digits"),
    (V, "limit-hand.yaml", 1, "7:11", "100000000 cards: a count of cards is between 0 and the limit of 1000"),
    (V, "limit-pack.yaml", 1, "5:3", "the pack would hold 1200 cards (4 suits × 300 ranks), more than the limit"),
    (V, "limit-order.yaml", 1, "6:12", "order 'play' lists 1500 ranks, more than the limit of 1000"),
    (V, "limit-integer.yaml", 1, "6:8", "this integer has more than 15 digits (raise the limit with --max-int-digits)"),
    (V, "limit-integer-expr.yaml", 1, "8:22", "this integer has more than 15 digits"),
    (
        V,
        "limit-sum.yaml",
        1,
        "13:13",
        "the expression is 6008 characters long, more than the limit of 1000 (raise it with --max-expr-length)",
    ),
    (V, "limit-parens.yaml", 1, "8:13", "the expression is 20010 characters long"),
    (
        V + ("--max-expr-length", "100000"),
        "limit-parens.yaml",
        1,
        "8:72",
        "the expression is nested more than 50 levels deep (raise the limit with --max-expr-depth)",
    ),
    (
        V + ("--max-expr-length", "100000"),
        "limit-minus.yaml",
        1,
        "8:",
        "the expression is nested more than 50 levels deep",
    ),
    (V, "limit-quote-long.yaml", 1, "8:10", "this quote is 2499 characters long, more than the limit of 2000"),
    (V, "limit-quote-search.yaml", 1, "9:10", "quote not found in source 'enfle-jeux-oublies'"),
    (
        ("play", "-p", "4"),
        "limit-counter.yaml",
        2,
        "12:19",
        "the counter 'x' would be a number of more than 18 digits: x * x + 2",
    ),
    (
        ("validate", "--playouts", "1"),
        "limit-counter.yaml",
        1,
        "12:19",
        "the counter 'x' would be a number of more than 18 digits",
    ),
]


@pytest.mark.parametrize("args,name,status,where,phrase", CASES, ids=[f"{c[1]}-{c[0][0]}-{len(c[0])}" for c in CASES])
def test_limit_is_a_located_error(args, name, status, where, phrase):
    code, out, err = cli(*args, name)
    text = out + err
    no_crash(err)
    assert code == status, text
    assert re.search(re.escape(f"{name}:{where}") + r"\d*:? ", text), text
    assert phrase in text, text


def test_a_limit_can_be_raised():
    """The 3000-term sum is refused by default, and with the limit raised it
    compiles and plays: a chain of operators is compiled without recursion."""
    code, out, err = cli("play", "-p", "4", "--json", "--max-expr-length", "10000", "limit-sum.yaml")
    no_crash(err)
    assert code == 0, err
    assert '"unfinished": false' in out


def test_no_limit_can_be_raised_beyond_what_is_safe(run):
    for option, value, top in (
        ("--max-expr-depth", 100000, 200),
        ("--max-int-digits", 5000, 4000),
        ("--max-players", 10**9, 10000),
        ("--max-cards", 10**9, 100000),
    ):
        code, out, err = run("validate", option, value, "enfle/academie")
        assert code == 2 and option in err and f"is not in the range 1<=x<={top}" in err, err


# -- the compiler --------------------------------------------------------------------
def test_long_chains_compile_and_evaluate_without_recursion():
    from academie.dsl.compiler import Scope, compile_expr
    from academie.dsl.errors import Pos
    from academie.dsl.loader import Limits

    lim = Limits(expr_length=10**6)
    terms = list(range(1, 3001))
    text = " - ".join(map(str, terms))
    assert compile_expr(text, Pos("f", 1, 1), Scope(), limits=lim)(None) == terms[0] - sum(terms[1:])
    text = " + ".join(f"{i} * {i % 7} - {i % 3}" for i in range(1, 1500))
    expected = sum(i * (i % 7) - (i % 3) for i in range(1, 1500))
    assert compile_expr(text, Pos("f", 1, 1), Scope(), limits=lim)(None) == expected
    assert (
        compile_expr(" and ".join(["true"] * 3000) + " and false", Pos("f", 1, 1), Scope(), limits=lim)(None) is False
    )
    assert compile_expr(" or ".join(["false"] * 3000) + " or true", Pos("f", 1, 1), Scope(), limits=lim)(None) is True


# -- the quote search --------------------------------------------------------------------
def test_closest_passage_of_a_long_quote_is_found_and_good():
    """A quote of 1900 characters not in its source: the hint still names the
    passage most like it (a quote with one word changed finds its passage)."""
    code = (
        "import random\n"
        "from pathlib import Path\n"
        "from academie.citations import Text\n"
        "from academie.dsl.loader import sources_root\n"
        "src = (sources_root() / 'enfle-jeux-oublies.txt').read_text(encoding='utf-8')\n"
        "t = Text(src)\n"
        "random.seed(3)\n"
        "words = src.split()\n"
        "q = ' '.join(random.choice(words) for _ in range(400))[:1900]\n"
        "assert t.closest(q) is not None\n"
        "q = 'whoever draws the lowest shuffles the cards, offers them to be cut to the player on his right'\n"
        "r, span = t.closest(q)\n"
        "passage = src[span.start:span.end]\n"
        "assert r > 0.9 and passage.startswith('whoever draws the lowest shuffles'), (r, passage)\n"
        "print('ok')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_GUARD)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


# -- simulate --------------------------------------------------------------------------
class _Stop(Exception):
    pass


def _peak_until_first_chunk(games):
    """Peak memory (traced) of a simulation of ``games`` games of 5, stopped
    as soon as its first chunk is played."""
    from academie.dsl.model import load_game
    from academie.interpreter.simulate import Job, simulate

    game = load_game("enfle/academie")
    job = Job("enfle/academie", (), 4, 0, ("random",), 20_000)

    def stop(_):
        raise _Stop

    tracemalloc.start()
    try:
        simulate(job, games, workers=1, chunk=5, game=game, on_progress=stop)
    except _Stop:
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def test_simulate_memory_does_not_depend_on_the_number_of_games():
    small = _peak_until_first_chunk(10)
    huge = _peak_until_first_chunk(10**7)
    assert huge < small + 1_000_000, (small, huge)


def test_simulate_games_and_chunk_have_a_maximum(run):
    code, out, err = run("simulate", "enfle/academie", "-n", 10**10)
    assert code == 2 and "--games" in err and "1000000000" in err
    code, out, err = run("simulate", "enfle/academie", "-n", 10, "--chunk", 10**6)
    assert code == 2 and "--chunk" in err
    code, out, err = run("simulate", "enfle/academie", "-n", 10, "--chunk", 0)
    assert code == 2 and "--chunk" in err


class _Inline:
    """A stand-in for ProcessPoolExecutor that plays in this process and
    records how many workers it was asked for."""

    asked: list = []

    def __init__(self, max_workers=None, **kw):
        _Inline.asked.append(max_workers)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def submit(self, fn, *args):
        from concurrent.futures import Future

        f = Future()
        f.set_result(fn(*args))
        return f


@pytest.fixture
def inline_pool(monkeypatch):
    import concurrent.futures

    _Inline.asked = []
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _Inline)
    return _Inline.asked


def test_workers_beyond_the_cores_are_refused_unless_forced(run, inline_pool):
    many = (os.cpu_count() or 1) + 1
    code, out, err = run("simulate", "enfle/academie", "-n", 2, "--workers", many)
    assert code == 2 and "--force-workers" in err, err
    assert inline_pool == []
    code, out, err = run("simulate", "enfle/academie", "-n", 2, "--workers", many, "--force-workers", "--json")
    assert code == 0, err
    assert all(w <= 2 for w in inline_pool), inline_pool  # never more workers than chunks of games


def test_never_more_workers_than_chunks(inline_pool):
    from academie.interpreter.simulate import Job, simulate

    job = Job("enfle/academie", (), 4, 0, ("random",), 20_000)
    tally = simulate(job, 2, workers=500)
    assert tally.games == 2
    assert inline_pool and max(inline_pool) <= 2, inline_pool


# -- Dask ---------------------------------------------------------------------------
distributed = pytest.importorskip("distributed")


def test_dask_scheduler_address_that_cannot_be_read(run):
    code, out, err = run("simulate", "enfle/academie", "-n", 2, "--backend", "dask", "--scheduler", "notanaddress")
    assert code == 2, err
    assert "cannot reach a Dask scheduler at notanaddress" in err
    no_crash(err)


@pytest.fixture
def silent_port():
    """A local port that accepts connections and never says a word."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    srv.settimeout(0.2)
    held, done = [], threading.Event()

    def accept():
        while not done.is_set():
            try:
                held.append(srv.accept()[0])
            except OSError:
                pass

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield srv.getsockname()[1]
    done.set()
    t.join()
    for c in held:
        c.close()
    srv.close()


def test_dask_scheduler_that_accepts_and_never_answers(silent_port):
    code, out, err = cli(
        "simulate",
        "enfle/academie",
        "-n",
        2,
        "--backend",
        "dask",
        "--scheduler",
        f"tcp://127.0.0.1:{silent_port}",
        prelude="import academie.interpreter.simulate as s\ns.CONNECT_TIMEOUT = 2\n",
    )
    assert code == 2, err
    assert f"no answer from a Dask scheduler at tcp://127.0.0.1:{silent_port} within 2 s" in err
    no_crash(err)


def test_dask_scheduler_port_closed():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    code, out, err = cli(
        "simulate",
        "enfle/academie",
        "-n",
        2,
        "--backend",
        "dask",
        "--scheduler",
        f"tcp://127.0.0.1:{port}",
        prelude="import academie.interpreter.simulate as s\ns.CONNECT_TIMEOUT = 2\n",
    )
    assert code == 2, err
    assert f"cannot reach a Dask scheduler at tcp://127.0.0.1:{port}" in err
    no_crash(err)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups")
def sigint_ignored(pid: int) -> bool:
    """Whether process ``pid`` ignores SIGINT now (Linux: its SigIgn mask).
    The command ignores it while the local cluster starts, so that the
    workers it spawns inherit that (a Ctrl-C pressed then is lost, as
    documented), and listens again once the cluster is up."""
    try:
        with open(f"/proc/{pid}/status") as f:
            mask = next(int(line.split()[1], 16) for line in f if line.startswith("SigIgn:"))
    except (OSError, StopIteration):
        return False
    return bool(mask & (1 << (signal.SIGINT - 1)))


def test_ctrl_c_under_dask_shows_no_worker_traceback():
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it)
    while a local Dask cluster plays: 'interrupted', status 130, and no
    traceback from the workers."""
    import psutil

    code = "import sys\nfrom academie.cli import main\nmain(sys.argv[1:], prog_name='academie')\n"
    p = subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "simulate",
            "enfle/academie",
            "-n",
            "1000000",
            "--backend",
            "dask",
            "--workers",
            "2",
            "--force-workers",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + HANG_GUARD  # wait for the workers to be up (hang guard)
        while time.monotonic() < deadline and p.poll() is None:
            kids = psutil.Process(p.pid).children(recursive=True)
            up = sum("spawn_main" in " ".join(k.cmdline()) for k in kids if k.is_running()) >= 2
            if up and not sigint_ignored(p.pid):  # the cluster has started: the command listens again
                break
            time.sleep(0.2)
        time.sleep(1)  # and plays
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=HANG_GUARD)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, err
    assert "interrupted" in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_a_quote_over_the_limit_is_not_searched_for():
    code, out, err = cli("validate", "--playouts", "0", "limit-quote-long.yaml")
    assert code == 1
    assert "more than the limit of 2000" in out and "quote not found" not in out, out
