"""Long work shows its progress on a terminal: ``simulate``, ``compare`` and
``reconstruct`` draw a bar with the time left on standard error when it is a
terminal, and nothing in a pipe or with ``--json``; what they print on
standard output is the same either way."""

import os
import pty
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).parents[1]


def _run(args: list[str], tty: bool) -> tuple[str, str]:
    """``academie ARGS``: its standard output (a pipe) and its standard error,
    a pseudo-terminal when ``tty`` (else a pipe)."""
    cmd = [sys.executable, "-m", "academie", *args]
    env = {**os.environ, "COLUMNS": "100"}
    if not tty:
        p = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=600)
        assert p.returncode == 0, p.stderr
        return p.stdout, p.stderr
    master, slave = pty.openpty()
    with tempfile.TemporaryFile() as out_file:  # a file, not a pipe: nothing waits on the reader
        p = subprocess.Popen(cmd, stdout=out_file, stderr=slave, cwd=ROOT, env=env)
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the other end closed: the command is over
                break
            if not chunk:
                break
            err += chunk
        assert p.wait(timeout=600) == 0, err
        os.close(master)
        out_file.seek(0)
        out = out_file.read()
    return out.decode("utf-8"), err.decode("utf-8", "replace")


COMPARE = ["compare", "enfle/academie", "enfle/foster", "--games", "40", "-w", "1"]
SECONDS = re.compile(rb'"seconds": [0-9.]+|in [0-9.]+ s\)'.decode())


def test_compare_json_is_the_same_on_a_terminal_and_shows_no_bar():
    on_tty, err_tty = _run([*COMPARE, "--json"], tty=True)
    in_pipe, err_pipe = _run([*COMPARE, "--json"], tty=False)
    # byte for byte, but for the wall time the JSON reports
    assert SECONDS.sub("", on_tty) == SECONDS.sub("", in_pipe)
    assert SECONDS.search(on_tty) and on_tty.encode() != b""
    assert err_tty == "" and err_pipe == ""  # --json: no bar


def test_compare_on_a_terminal_shows_a_bar_and_prints_the_same():
    on_tty, err_tty = _run(COMPARE, tty=True)
    in_pipe, err_pipe = _run(COMPARE, tty=False)
    assert SECONDS.sub("", on_tty) == SECONDS.sub("", in_pipe)
    assert err_pipe == ""  # nothing in a pipe
    assert "enfle/academie / enfle/foster" in err_tty and "100%" in err_tty and "[#" in err_tty, err_tty


def test_reconstruct_on_a_terminal_shows_a_bar():
    args = ["reconstruct", "emprunt/lacombe", "--games", "20", "-w", "1"]
    on_tty, err_tty = _run(args, tty=True)
    in_pipe, err_pipe = _run(args, tty=False)
    assert on_tty == in_pipe and err_pipe == ""
    assert "emprunt/lacombe" in err_tty and "100%" in err_tty, err_tty
