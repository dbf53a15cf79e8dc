"""The trust boundary of rule files, and how input files are read.

A rule file is untrusted input. A corpus id names a file of the installed
corpus only, never one of the working directory; extends/imports of a user's
file reach the corpus and files under its own folder (and what --allow-path
allows), nothing else, and a refused file is never read, so none of its
bytes is ever printed. Deck, deal and rule files are read only if regular
files, bounded, a BOM dropped; errors are located on the right line."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from academie.dsl.errors import Pos, RuleError
from academie.dsl.loader import corpus_root, split_ref

HEAD = "# yaml-language-server: $schema=x\n"
TOKEN = "TOKEN-6f1c9e2a"
SHADOW = "SHADOW-TITLE-4411"
CLI = [sys.executable, "-c", "from academie.cli import main; main()"]


def _all(*outs) -> str:
    return "\n".join(o or "" for o in outs)


# -- corpus id or path ---------------------------------------------------------------------
def test_what_makes_an_argument_a_path():
    from academie.dsl.loader import is_path

    for p in ("x.yaml", "x.yml", "./x", "../x", "/x", "~/x", "dir/x.yaml"):
        assert is_path(p), p
    for cid in ("enfle/academie", "hearts/foster+sweepstakes", "x.yaml+opt"):
        assert not is_path(cid), cid
    assert split_ref("hearts/foster+sweepstakes") == ("hearts/foster", ["sweepstakes"])


@pytest.fixture
def shadowing(tmp_path, monkeypatch):
    """A working directory holding files named like corpus ids."""
    for cid in ("enfle/academie", "hearts/foster+sweepstakes"):
        f = tmp_path / cid
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(HEAD + f"title: {SHADOW}\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_working_directory_does_not_shadow_the_corpus(run, shadowing):
    code, out, err = run("list")
    assert code == 0 and SHADOW not in out and "L'Enflé" in out
    code, out, err = run("render", "enfle/academie")
    assert code == 0 and SHADOW not in _all(out, err) and "# L'Enflé" in out
    code, out, err = run("play", "enfle/academie", "-p", 4, "--json")
    assert code == 0 and json.loads(out)["title"] == "L'Enflé"
    code, out, err = run("play", "hearts/foster+sweepstakes", "-p", 4, "--json")
    assert code == 0, err
    assert json.loads(out)["options"] == ["sweepstakes"] and SHADOW not in out
    code, out, err = run("validate", "--playouts", 0, "enfle/academie")
    assert code == 0 and SHADOW not in _all(out, err)
    code, out, err = run("simulate", "enfle/academie", "-n", 2, "-w", 1, "--json")
    assert code == 0 and SHADOW not in _all(out, err)
    code, out, err = run("compare", "enfle/academie", "enfle/academie", "--json")
    assert code == 0 and SHADOW not in _all(out, err)
    # named as a path, the user's own file is read
    code, out, err = run("validate", "--playouts", 0, "./enfle/academie")
    assert code == 1 and "enfle/academie:2:1" in out and SHADOW in out, out


def test_a_corpus_id_never_leaves_the_corpus(run, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text(HEAD + f"title: {TOKEN}\n")
    rel = os.path.relpath(secret.with_suffix(""), corpus_root())
    cid = "enfle/../" + rel  # an id, climbing out of the corpus
    for args in (("validate", "--playouts", 0, cid), ("render", cid), ("play", cid, "-p", 4)):
        code, out, err = run(*args)
        assert code == 2, (args, code, out, err)
        assert TOKEN not in _all(out, err)
        assert "no rule file" in _all(out, err)


# -- extends and imports -------------------------------------------------------------------
@pytest.fixture
def outside(tmp_path):
    """A secret file outside the folder of the rule files that try to reach it."""
    secret = tmp_path / "secret.yaml"
    secret.write_text(f"title: {TOKEN}\nplayers: {{min: 2, max: 2}}\n# {TOKEN}\n")
    game = tmp_path / "game"
    game.mkdir()
    (game / "up.yaml").write_text(HEAD + "extends: ../secret.yaml\n")
    (game / "passwd.yaml").write_text(HEAD + "extends: ../../../../../../../../etc/passwd\n")
    (game / "abs.yaml").write_text(
        HEAD + "extends: enfle/academie\nimports:\n"
        f"  - {{from: {secret}, take: [title], editorial: {{reason: r, evidence: e}}}}\n"
    )
    (game / "link.yaml").symlink_to(secret)
    (game / "vialink.yaml").write_text(
        HEAD + "extends: enfle/academie\nimports:\n"
        "  - {from: link.yaml, take: [title], editorial: {reason: r, evidence: e}}\n"
    )
    return tmp_path


CASES = [("up.yaml", "2:10"), ("passwd.yaml", "2:10"), ("abs.yaml", "4:12"), ("vialink.yaml", "4:12")]


@pytest.mark.parametrize("name,where", CASES)
def test_extends_and_imports_stay_inside_the_boundary(run, outside, name, where):
    f = outside / "game" / name
    runs = [
        run("validate", "--playouts", 0, f),
        run("validate", "--playouts", 0, "--json", f),
        run("play", f, "-p", 4),
        run("play", f, "-p", 4, "--json"),
        run("render", f),
        run("render", "--format", "html", f),
        run("compare", f, "enfle/academie", "--json"),
        run("simulate", f, "-n", 1, "-w", 1, "--json"),
    ]
    for code, out, err in runs:
        text = _all(out, err)
        assert TOKEN not in text and "root:" not in text, text
        assert code in (1, 2), text
        assert "Traceback" not in text and "internal error" not in text, text
    code, out, err = runs[0]
    assert re.search(rf"{re.escape(name)}:{where}: error: .*(outside the folder|absolute path)", out), out
    diags = json.loads(runs[1][1])
    assert any(d["code"] == "boundary" and f"{d['line']}:{d['col']}" == where for d in diags), diags


def test_allow_path_lets_a_folder_in(run, outside):
    f = outside / "game" / "up.yaml"
    code, out, err = run("validate", "--playouts", 0, f)
    assert "outside the folder" in out
    code, out, err = run("validate", "--playouts", 0, "--allow-path", outside, f)
    assert "outside the folder" not in out and "boundary" not in out
    # the workers of simulate are given the allowed folders too
    base = Path(__file__).parent / "concepts" / "penalty.yaml"
    (outside / "shared").mkdir()
    (outside / "shared" / "base.yaml").write_text(base.read_text())
    (outside / "game" / "w.yaml").write_text(HEAD + "extends: ../shared/base.yaml\n")
    code, out, err = run("simulate", outside / "game" / "w.yaml", "-n", 4, "-w", 2, "--json")
    assert code == 2 and "outside the folder" in err
    code, out, err = run(
        "simulate", outside / "game" / "w.yaml", "-n", 4, "-w", 2, "--json", "--allow-path", outside / "shared"
    )
    assert code == 0 and json.loads(out)["games"] == 4, err
    # files under the rule file's own folder are reached without asking
    base = Path(__file__).parent / "concepts" / "penalty.yaml"
    (outside / "game" / "sub").mkdir()
    (outside / "game" / "sub" / "base.yaml").write_text(base.read_text())
    (outside / "game" / "v.yaml").write_text(HEAD + "extends: sub/base.yaml\ntitle: mine\n")
    code, out, err = run("play", outside / "game" / "v.yaml", "--json")
    assert code == 0 and json.loads(out)["title"] == "mine", err


def test_a_corpus_file_reaches_only_the_corpus(tmp_path):
    from academie.dsl.loader import check_reach

    me = corpus_root() / "enfle" / "academie.yaml"
    target = me.parent / os.path.relpath(tmp_path / "x.yaml", me.parent)
    with pytest.raises(RuleError, match="outside the corpus") as e:
        check_reach(os.path.relpath(tmp_path / "x.yaml", me.parent), target, str(me), None, Pos(str(me), 3, 10))
    assert e.value.diagnostics[0].pos == Pos(str(me), 3, 10)


# -- reading input files -------------------------------------------------------------------
def _cli(*args, cwd=None):
    """The CLI in a process of its own (a hang is a failure, not a stuck suite)."""

    def cap():  # memory bounded: reading a device without end fails instead of swapping
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run(
        CLI + [str(a) for a in args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        preexec_fn=cap if sys.platform != "win32" else None,
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_special_files_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    (tmp_path / "folder.yaml").mkdir()
    for args, status in (
        (("validate", "--playouts", 0, fifo), 1),
        (("play", fifo), 2),
        (("play", "enfle/academie", "-p", 4, "--deck", fifo), 2),
        (("play", "enfle/academie", "-p", 4, "--deal", fifo), 2),
        (("play", "enfle/academie", "-p", 4, "--deck", "/dev/zero"), 2),
        (("play", tmp_path / "folder.yaml"), 2),
    ):
        r = _cli(*args)
        assert r.returncode == status, (args, r.returncode, r.stderr)
        text = r.stdout + r.stderr
        # the file named alone (no line of it is at fault, so no :0:0)
        assert re.search(r"(\.yaml|/dev/zero): (error: )?cannot read .*(not a regular file|a folder)", text), (
            args,
            text,
        )
        assert "Traceback" not in text and "internal error" not in text


def test_bom_is_accepted(run, tmp_path):
    game = tmp_path / "bom.yaml"
    body = (Path(__file__).parent / "concepts" / "penalty.yaml").read_text(encoding="utf-8")
    game.write_bytes(b"\xef\xbb\xbf" + body.encode())
    code, out, err = run("validate", "--playouts", 0, game)
    assert code == 0, out
    assert "does not name its schema" not in out
    deck = tmp_path / "bom.deck"
    from academie.dsl.model import load_game

    pack = load_game("enfle/academie").pack(4)
    names = sorted((c.name for c in pack), key=lambda n: n != "2S")  # 2S first, right after the BOM
    deck.write_bytes(b"\xef\xbb\xbf" + " ".join(names).encode() + b"\n")
    code, out, err = run("play", "enfle/academie", "-p", 4, "--deck", deck, "--json")
    assert code == 0, err
    assert "is not a card" not in err


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["plain", "bom"])
def test_errors_on_line_two_are_located_there(run, tmp_path, bom):
    rule = tmp_path / "r.yaml"
    rule.write_bytes(bom + b"title: x\n\x07bad: 1\n")
    code, out, err = run("validate", "--playouts", 0, rule)
    assert re.search(r"r\.yaml:2:1: error: invalid YAML", out), out
    deal = tmp_path / "d.deal.yaml"
    deal.write_bytes(bom + b"hands: []\nx: \x07\n")
    code, out, err = run("play", "enfle/academie", "-p", 4, "--deal", deal)
    assert code == 2 and re.search(r"d\.deal\.yaml:2:4: invalid YAML", err), err
    deck = tmp_path / "d.deck"
    deck.write_bytes(bom + b"AS 2S\n3S \xff\n")
    code, out, err = run("play", "enfle/academie", "-p", 4, "--deck", deck)
    assert code == 2 and re.search(r"d\.deck:2:4: the file is not UTF-8 text", err), err


# -- the broken-file battery: tests/broken/path-* --------------------------------------------
BROKEN = Path(__file__).parent / "broken"
BATTERY = [
    ("path-extends-outside.yaml", "3:10", "is outside the folder of this rule file"),
    ("path-import-absolute.yaml", "5:11", "is an absolute path"),
    ("path-id-climbs.yaml", "3:10", "no rule file 'enfle/../../tests/broken/path-base-penalty'"),
]


@pytest.mark.parametrize("name,where,phrase", BATTERY, ids=[b[0] for b in BATTERY])
def test_broken_path_files(run, name, where, phrase):
    f = BROKEN / name
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").is_file() else ""
    code, out, err = run("validate", "--playouts", 0, f)
    assert code == 1 and re.search(rf"{re.escape(name)}:{where}: error: .*{re.escape(phrase)}", out), out
    for code, out, err in (run("play", f, "-p", 4), run("render", f)):
        assert code == 2 and f"{name}:{where}: " in err and phrase in err, err
    for text in (out, err):
        assert "root:" not in text and (not hostname or hostname not in text)


def test_a_source_id_never_names_a_file_outside_the_sources(tmp_path):
    from academie.dsl.loader import sources_root
    from academie.validate import source_meta

    secret = tmp_path / "secret.yaml"
    secret.write_text(f"title: {TOKEN}\n")
    sid = os.path.relpath(secret.with_suffix(""), sources_root())
    with pytest.raises(RuleError, match="unknown source") as e:
        source_meta(sid)
    assert TOKEN not in e.value.format()


def test_a_value_its_tag_cannot_hold_is_located(run, tmp_path):
    f = BROKEN / "path-bad-tagged-value.yaml"
    code, out, err = run("validate", "--playouts", 0, f)
    assert code == 1 and "path-bad-tagged-value.yaml:4:16: error: 'four' is not a valid !!int value" in out, out
    code, out, err = run("play", f)
    assert code == 2 and "internal error" not in err and ":4:16: " in err, err
    deal = tmp_path / "d.deal.yaml"
    deal.write_text("hands: []\nx: !!bool maybe\n")
    code, out, err = run("play", "enfle/academie", "-p", 4, "--deal", deal)
    assert code == 2 and "d.deal.yaml:2:4: 'maybe' is not a valid !!bool value" in err, err


def test_a_name_too_long_for_the_system_is_no_rule_file(run, tmp_path):
    """extends: a name longer than any file name (the standing test found it
    reaching the catch-all through the lookup beside the file)."""
    rule = tmp_path / "long.yaml"
    rule.write_text("# yaml-language-server: $schema=x\nextends: '" + "9" * 5000 + "'\n", encoding="utf-8")
    code, out, err = run("validate", "--playouts", "0", rule)
    assert code == 1, out + err
    assert "internal error" not in out + err
    assert re.search(r"long\.yaml:2:\d+: error: no rule file '9{20}", out), out


def test_messages_name_corpus_files_by_their_place_in_the_project(run, tmp_path, monkeypatch):
    # from any working directory, and whatever folder the package lies in (tests/test_wheel.py runs
    # the installed wheel): a corpus file is rules/..., a source sources/..., a name that is no file
    # alone (no :0:0)
    monkeypatch.chdir(tmp_path)
    root = str(corpus_root().resolve().parent)
    code, out, err = run("play", "whist/hoyle", "-p", 3)
    assert code == 2 and err.startswith("rules/whist/hoyle.yaml:13:3: whist/hoyle is for 4 to 4 players"), err
    code, out, err = run("play", "hearts")
    assert code == 2 and err.startswith("hearts: no rule file 'hearts'") and ":0:0" not in err, err
    code, out, err = run("validate", "--json", "emprunt/lacombe")
    assert {d["file"] for d in json.loads(out)} == {"rules/emprunt/lacombe.yaml"}
    code, out, err = run("coverage", "--all", "enfle-jeux-oublies")
    assert "  cited        sources/enfle-jeux-oublies.txt:5: " in out and "by rules/enfle/academie.yaml:14:8" in out
    mine = tmp_path / "my.yaml"
    mine.write_text('extends: enfle/academie\nplayers: {min: 4, max: 8, cite: {source: no-such, quote: "x"}}\n')
    code, out, err = run("cite", mine)
    assert code == 2 and err.startswith("sources: unknown source 'no-such'"), err
    for args in (("validate",), ("coverage", "--all"), ("play", "whist/hoyle", "-p", 3), ("cite", mine)):
        code, out, err = run(*args)
        assert root not in out + err, args
    assert str(Pos(str(corpus_root() / "hearts" / "foster.yaml"), 0, 0)) == "rules/hearts/foster.yaml"
    assert str(Pos("no/such/file.yaml", 3, 4)) == "no/such/file.yaml:3:4"
