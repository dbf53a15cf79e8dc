"""``academie replay`` reads a log as untrusted input (issue 24, item 5): only a regular
file, bounded, cut into lines on "\\n" alone, each line that is no event an error at
``LOG:line``; and the log says which game it records, so that it is never replayed against
another rule file."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def logged(run, tmp_path, ref="enfle/academie", *extra) -> Path:
    log = tmp_path / "game.jsonl"
    code, _, err = run("play", ref, "-p", 4, "-s", 3, "--hands", 1, "--log", log, *extra)
    assert code == 0, err
    return log


def no_crash(code, err):
    assert code == 2, (code, err)
    assert "Traceback" not in err and "internal error" not in err, err


def test_the_log_records_its_game_first(run, tmp_path):
    """The first line names the rule file (a corpus id here), its options and a digest."""
    log = logged(run, tmp_path, "hearts/foster+howell")
    first = json.loads(log.read_text().split("\n", 1)[0])
    assert first["type"] == "game" and first["rules"] == "hearts/foster" and first["corpus"] is True
    assert first["options"] == ["howell"] and first["digest"].startswith("sha256:") and len(first["digest"]) == 71


def test_replay_alone_finds_a_corpus_game_from_the_record(run, tmp_path):
    log = logged(run, tmp_path)
    code, out, err = run("replay", log, "--no-step")
    assert code == 0, err
    assert out.startswith("L'Enflé (enfle/academie): replay of")
    assert '§ "Before each hand, each of the players puts one of his chips into a pot' in out


def test_replay_refuses_another_game(run, tmp_path):
    """RULES that are not the game of the log: a clear error at the log, exit 2."""
    log = logged(run, tmp_path)
    code, out, err = run("replay", log, "enfle/foster", "--no-step")
    no_crash(code, err)
    assert f"{log}:1:1: the log records a game of enfle/academie, not of enfle/foster: the rule files differ" in err
    # the same file changed by a byte since the game was played
    mine = tmp_path / "mine.yaml"
    mine.write_text((Path(__file__).parent.parent / "rules" / "enfle" / "academie.yaml").read_text())
    log2 = tmp_path / "mine.jsonl"
    code, _, err = run("play", mine, "-p", 4, "-s", 3, "--hands", 1, "--log", log2)
    assert code == 0, err
    assert run("replay", log2, mine, "--no-step")[0] == 0
    mine.write_text(mine.read_text() + "\n# changed\n")
    code, _, err = run("replay", log2, mine, "--no-step")
    no_crash(code, err)
    assert "the rule files differ" in err
    # a game played with options, replayed without them or with others
    log3 = logged(run, tmp_path, "hearts/foster+howell")
    assert run("replay", log3, "hearts/foster", "--no-step")[0] == 0  # the log's options taken
    code, _, err = run("replay", log3, "hearts/foster+sweepstakes", "--no-step")
    no_crash(code, err)
    assert "not of hearts/foster+sweepstakes (other options)" in err


def test_a_path_named_by_a_log_is_never_read(run, tmp_path):
    """A record may name a file by path: replay alone does not read it, even if it claims to
    be a corpus id."""
    log = logged(run, tmp_path)
    secret = tmp_path / "secret.yaml"
    secret.write_text("title: secret\n")
    for corpus in (False, True):
        lines = log.read_text().split("\n")
        rec = json.loads(lines[0])
        rec.update(rules=str(secret), corpus=corpus)
        log.write_text("\n".join([json.dumps(rec), *lines[1:]]))
        code, out, err = run("replay", log, "--no-step")
        assert code == 0 and "secret" not in out and "§" not in out
        assert "give it after the log to see its rules" in err


def test_an_older_log_is_still_read_with_a_warning(run, tmp_path):
    log = logged(run, tmp_path)
    log.write_text(log.read_text().split("\n", 1)[1])
    code, out, err = run("replay", log, "enfle/academie", "--no-step")
    assert code == 0 and "-- Hand 1, trick 1" in out
    assert "does not record its game (an older log)" in err


def test_a_name_holding_a_line_separator_reads_back(run, tmp_path):
    """U+2028 in a JSON string (a name, a seed) is no line break: str.splitlines cut the line."""
    log = logged(run, tmp_path, "enfle/academie", "-s", "a\u2028b")
    assert "\u2028" in log.read_text()  # the seed, in the record
    code, out, err = run("replay", log, "--no-step")
    assert code == 0, err
    text = log.read_text().replace('"unit": "chip"', '"unit": "chip\u2028s"')
    log.write_text(text)
    code, out, err = run("replay", log, "--no-step")
    assert code == 0, err
    assert "-- Hand 1, trick 1" in out


@pytest.mark.parametrize(
    "line,phrase",
    [
        ('{"type": "hand_start", "hand": "x", "dealer": 0}', '"hand" is a whole number, not "x"'),
        ('{"type": "play", "seat": "x", "card": "AS"}', '"seat" is a seat (a whole number) or null'),
        ('{"type": "pay", "rule": {"a": 1}}', '"rule" is a list of keys and indices'),
        ('{"type": "play", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "an event nested more than 16 levels deep"),
        ('{"type": "play", "x": ' + "[" * 20 + "]" * 20 + "}", "an event nested more than 16 levels deep"),
        ('{"type": "game", "rules": "enfle/academie"}', "the game record is the log's first line, once"),
    ],
)
def test_a_malformed_line_is_an_error_at_its_line(run, tmp_path, line, phrase):
    """Each reached the catch-all (a TypeError, a RecursionError) or was taken as an event."""
    log = logged(run, tmp_path)
    lines = log.read_text().split("\n")
    lines.insert(5, line)
    log.write_text("\n".join(lines))
    code, _, err = run("replay", log, "--no-step")
    no_crash(code, err)
    assert f"{log}:6:1: {phrase}" in err


def _guarded(args, cwd, timeout=30):
    return subprocess.run(
        [sys.executable, "-m", "academie", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="a device")
def test_a_device_is_refused_without_reading(tmp_path):
    """``replay /dev/zero`` read without end (memory grew until killed)."""
    r = _guarded(["replay", "/dev/zero"], tmp_path)
    assert r.returncode == 2 and "/dev/zero: cannot read the log: it is not a regular file" in r.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO")
def test_a_fifo_is_refused_without_waiting(tmp_path):
    """``replay FIFO`` waited for a writer forever."""
    os.mkfifo(tmp_path / "fifo")
    r = _guarded(["replay", "fifo"], tmp_path)
    assert r.returncode == 2 and "fifo: cannot read the log: it is not a regular file" in r.stderr
