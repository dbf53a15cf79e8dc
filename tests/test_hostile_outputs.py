"""Outputs are written atomically, checked before the work, and exit statuses
stay true through a pipe or onto a full disk (docs/security.md)."""

import errno
import fcntl
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

BROKEN = Path(__file__).parent / "broken"
CLI = [sys.executable, "-c", "from academie.cli import main; main(prog_name='academie')"]


def listing(folder: Path) -> dict:
    """Every entry of a folder, with its content (or kind)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink():
            out[str(p.relative_to(folder))] = "-> " + os.readlink(p)
        elif p.is_file():
            out[str(p.relative_to(folder))] = p.read_bytes()
        else:
            out[str(p.relative_to(folder))] = "dir" if p.is_dir() else stat.filemode(p.lstat().st_mode)
    return out


# -- checked before the work -------------------------------------------------------
def test_log_into_a_missing_folder_fails_before_the_game(run, tmp_path):
    code, out, err = run("play", "enfle/academie", "-p", "5", "--log", tmp_path / "nodir" / "x.jsonl")
    assert code == 2
    assert "nodir" in err and "no folder" in err
    assert out == ""  # not a line of the game: it was not played
    assert "internal error" not in err
    assert listing(tmp_path) == {}


def test_compare_html_into_a_missing_folder_fails_before_the_games(run, tmp_path):
    code, out, err = run(
        "compare", "enfle/academie", "enfle/foster", "-n", "3", "--html", tmp_path / "nodir" / "c.html"
    )
    assert code == 2
    assert "no folder" in err and "--html" in err
    assert out == ""
    assert listing(tmp_path) == {}


def test_render_into_a_missing_folder_fails(run, tmp_path):
    code, out, err = run("render", "enfle/academie", "-O", tmp_path / "nodir" / "r.md")
    assert code == 2 and "no folder" in err and out == ""


def test_site_under_a_missing_folder_fails_and_creates_nothing(run, tmp_path):
    code, out, err = run("site", tmp_path / "nodir" / "site")
    assert code == 2 and "no folder" in err
    assert listing(tmp_path) == {}


def test_csv_and_jsonl_naming_the_same_file_are_refused_up_front(run, tmp_path):
    (tmp_path / "sub").mkdir()
    target = tmp_path / "rows"
    target.write_text("old rows\n")
    os.link(target, tmp_path / "hard")
    os.symlink(tmp_path / "sub", tmp_path / "sublink")
    for other in (target, tmp_path / "sub" / ".." / "rows", tmp_path / "hard", tmp_path / "sublink" / ".." / "rows"):
        code, out, err = run("simulate", "enfle/academie", "-n", "3", "-w", "1", "--csv", target, "--jsonl", other)
        assert code == 2, (other, err)
        assert "same file" in err and "--jsonl" in err
        assert out == ""
        assert target.read_text() == "old rows\n"
    code, out, err = run(
        "simulate",
        "enfle/academie",
        "-n",
        "3",
        "-w",
        "1",
        "--csv",
        tmp_path / "new",
        "--jsonl",
        tmp_path / "sub" / ".." / "new",
    )
    assert code == 2 and "same file" in err
    assert not (tmp_path / "new").exists()


def test_a_second_output_that_cannot_be_written_leaves_nothing_of_the_first(run, tmp_path):
    code, out, err = run(
        "simulate",
        "enfle/academie",
        "-n",
        "3",
        "-w",
        "1",
        "--csv",
        tmp_path / "ok.csv",
        "--jsonl",
        tmp_path / "nodir" / "x.jsonl",
    )
    assert code == 2 and "no folder" in err
    assert listing(tmp_path) == {}


def test_an_output_may_not_replace_the_rule_file_it_reads(run, tmp_path):
    rules = tmp_path / "mine.yaml"
    rules.write_text((BROKEN.parent.parent / "rules" / "enfle" / "foster.yaml").read_text())
    before = rules.read_bytes()
    code, out, err = run("render", rules, "-O", rules)
    assert code == 2 and "same file as the input" in err
    assert rules.read_bytes() == before


# -- symlinks and special files -------------------------------------------------------
def test_log_onto_a_symlink_is_refused_and_the_link_kept(run, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("keep me\n")
    link = tmp_path / "log.jsonl"
    link.symlink_to(real)
    code, out, err = run("play", "enfle/academie", "-p", "5", "--log", link)
    assert code == 2
    assert "symbolic link" in err and "--log" in err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "keep me\n"
    assert set(listing(tmp_path)) == {"real.txt", "log.jsonl"}


def test_render_onto_a_symlink_is_refused(run, tmp_path):
    link = tmp_path / "out.md"
    link.symlink_to(tmp_path / "elsewhere.md")  # dangling: would be created through the link
    code, out, err = run("render", "enfle/academie", "-O", link)
    assert code == 2 and "symbolic link" in err
    assert listing(tmp_path) == {"out.md": "-> " + str(tmp_path / "elsewhere.md")}


def test_a_fifo_as_output_is_refused_and_kept(run, tmp_path):
    fifo = tmp_path / "rows.csv"
    os.mkfifo(fifo)
    code, out, err = run("simulate", "enfle/academie", "-n", "2", "-w", "1", "--csv", fifo)
    assert code == 2 and "FIFO" in err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert set(listing(tmp_path)) == {"rows.csv"}


# -- temporary files: fresh names, nothing left behind ---------------------------------------
def test_an_existing_part_file_is_never_touched(run, tmp_path):
    log, rows = tmp_path / "game.jsonl", tmp_path / "rows.csv"
    for p in (log, rows):
        Path(str(p) + ".part").write_text("somebody's file\n")
    assert run("play", "enfle/academie", "-p", "5", "--log", log)[0] == 0
    assert run("simulate", "enfle/academie", "-n", "3", "-w", "1", "--csv", rows)[0] == 0
    for p in (log, rows):
        assert Path(str(p) + ".part").read_text() == "somebody's file\n"
    assert log.read_text().startswith("{") and rows.read_text().startswith("game,")
    assert set(listing(tmp_path)) == {"game.jsonl", "game.jsonl.part", "rows.csv", "rows.csv.part"}


def test_a_failed_site_build_leaves_the_old_site_as_it_was(run, tmp_path, monkeypatch):
    import academie.site
    from academie.dsl.errors import Pos, RuleError

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("old index")
    (site / "rules-enfle--academie.html").write_text("old page")
    (site / "notes.txt").write_text("the user's")

    def fail(*a, **k):
        raise RuleError("a rule file broke the build", Pos("x.yaml", 1, 1))

    monkeypatch.setattr(academie.site, "_source_body", fail)
    code, out, err = run("site", site)
    assert code == 2 and "broke the build" in err
    assert listing(tmp_path) == {
        "site": "dir",
        "site/index.html": b"old index",
        "site/rules-enfle--academie.html": b"old page",
        "site/notes.txt": b"the user's",
    }
    monkeypatch.undo()
    code, out, err = run("site", site)
    assert code == 0
    assert (site / "notes.txt").read_text() == "the user's"
    assert (site / "index.html").read_text() != "old index"
    assert not [p for p in site.iterdir() if p.name.startswith(".")]


# -- a full disk: the old file is kept, nothing left behind ---------------------------------
def _small_disk(limit):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return set_limit


@pytest.mark.parametrize(
    "args, target",
    [
        (["play", "enfle/academie", "-p", "5", "--log"], "game.jsonl"),
        (["simulate", "enfle/academie", "-n", "200", "-w", "1", "--jsonl"], "rows.jsonl"),
        (["simulate", "enfle/academie", "-n", "200", "-w", "1", "--csv"], "rows.csv"),
        (["render", "enfle/academie", "-O"], "rules.md"),
        (["compare", "enfle/academie", "enfle/foster", "--html"], "c.html"),
    ],
)
def test_a_full_disk_keeps_the_old_file_and_leaves_nothing(tmp_path, args, target):
    """A file-size limit (RLIMIT_FSIZE) makes writes beyond 4 KiB fail, as a full disk does."""
    (tmp_path / target).write_text("the old, complete file\n")
    r = subprocess.run(
        CLI + args + [target], cwd=tmp_path, capture_output=True, text=True, timeout=120, preexec_fn=_small_disk(4096)
    )
    assert r.returncode == 2, r.stderr
    assert f"cannot write '{target}'" in r.stderr and "internal error" not in r.stderr
    assert "Traceback" not in r.stderr
    assert (tmp_path / target).read_text() == "the old, complete file\n"
    assert listing(tmp_path) == {target: b"the old, complete file\n"}


# -- the atomic writer itself --------------------------------------------------------------
def test_atomic_write_keeps_the_old_file_on_any_failure(tmp_path, monkeypatch):
    from academie.outputs import OutputError, atomic_write

    target = tmp_path / "t.txt"
    target.write_text("old")
    target.chmod(0o640)
    for exc in (RuntimeError("bug"), KeyboardInterrupt()):
        with pytest.raises(type(exc)):
            with atomic_write(str(target)) as f:
                f.write("half of the new")
                raise exc
        assert listing(tmp_path) == {"t.txt": b"old"}

    f = atomic_write(str(target))
    real = f._f

    class Full:
        def write(self, s):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name):
            return getattr(real, name)

    f._f = Full()
    with pytest.raises(OutputError, match="No space left on device"):
        with f:
            f.write("x" * 100)
    real.close()
    assert listing(tmp_path) == {"t.txt": b"old"}
    with atomic_write(str(target)) as f:
        f.write("new")
    assert listing(tmp_path) == {"t.txt": b"new"}
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the old file's permissions kept


# -- exit statuses through a pipe, and onto a full disk ----------------------------------------
def _cut_after_one_line(args, cwd=None):
    """Run the CLI into a small pipe, read one line, close the pipe; (status, line, stderr)."""
    r, w = os.pipe()
    fcntl.fcntl(r, fcntl.F_SETPIPE_SZ, 4096)  # the writer blocks soon, so it meets the closed pipe
    p = subprocess.Popen(CLI + args, stdout=w, stderr=subprocess.PIPE, cwd=cwd)
    os.close(w)
    with os.fdopen(r, "rb") as reader:
        line = reader.readline()
    try:
        _, err = p.communicate(timeout=120)
    finally:
        p.kill()
    return p.returncode, line.decode(), err.decode()


def test_validate_keeps_its_failure_status_through_head(tmp_path):
    for i in range(300):
        (tmp_path / f"b{i:03}.yaml").write_text((BROKEN / "scalar.yaml").read_text())
    files = sorted(str(p) for p in tmp_path.iterdir())
    status, line, err = _cut_after_one_line(["validate", "--playouts", "0"] + files)
    assert "error" in line
    assert status == 1, err
    assert "Traceback" not in err and "internal error" not in err


def test_a_closed_pipe_is_not_blamed_on_the_rule_file():
    status, line, err = _cut_after_one_line(["play", "enfle/academie", "-p", "8", "--hands", "10"])
    assert line.startswith("L'Enfl")
    assert status == 141
    assert err == ""  # no rule error, no traceback, no catch-all


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [["list"], ["play", "enfle/academie", "-p", "5"], ["validate", "--playouts", "0", str(BROKEN / "scalar.yaml")]],
)
def test_standard_output_on_a_full_disk(args):
    with open("/dev/full", "w") as full:
        r = subprocess.run(CLI + args, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 2
    assert "cannot write standard output: No space left on device" in r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr


def test_a_closed_standard_error_keeps_the_status_and_shows_no_traceback():
    r, w = os.pipe()
    os.close(r)  # nobody reads: every write to it fails (EPIPE)
    p = subprocess.run(
        CLI + ["validate", "--playouts", "0", str(BROKEN / "scalar.yaml")],
        stdout=subprocess.PIPE,
        stderr=w,
        timeout=120,
    )
    os.close(w)
    assert b"a rule file must be a mapping" in p.stdout
    assert p.returncode == 1
