"""Bounds where sizes are used (issue 24, items 3 and 5): a number to choose
as large as the language allows costs no memory per number, a rule file with
many options is validated in time linear in them, an ``extends`` chain has a
depth limit; each bound that is exceeded is a located error.

The cases that took minutes or gigabytes before run in a subprocess with a
memory cap and a timeout: both are guards, far above what each takes now."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import academie
from academie.dsl.errors import RuleError

HERE = Path(__file__).parent
CHOOSE = (HERE / "concepts" / "choose.yaml").read_text()
GUARD = 60  # seconds
MEMORY = 1 << 30  # bytes of address space a guarded run may use (it took 6.5 GB before)


def guarded(code: str, cwd: Path, timeout: float = GUARD) -> subprocess.CompletedProcess:
    """``code`` run in a fresh interpreter whose address space is capped."""
    prelude = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({MEMORY + (1 << 29)}, {MEMORY + (1 << 29)}))\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


def numbers_file(tmp_path: Path, low: int, high: int, name: str = "big.yaml") -> Path:
    """The concept game of a bid, the bid chosen from ``low`` to ``high`` (no hook)."""
    text = CHOOSE.replace("    max: count(hand(seat))\n", f"    min: {low}\n    max: {high}\n")
    text = re.sub(r"    allow: \"seat != dealer.*\n", "", text)
    assert f"max: {high}" in text
    p = tmp_path / name
    p.write_text(text)
    return p


# -- 1. numbers to choose: the action table is not listed ----------------------------------
@pytest.mark.parametrize("high", [30_000_000, 10**12, 10**15 - 1])
def test_a_large_max_loads_at_once_and_plays(tmp_path, high):
    """A max of 30,000,000 took 44 s and 6.5 GB to load (every number listed); 10^12 was a
    MemoryError. Now the numbers' action ids are worked out: load, play, ids both ways."""
    numbers_file(tmp_path, high - 5, high)
    code = f"""
import time, academie
t = time.time()
g = academie.load_game("./big.yaml")
assert time.time() - t < 10, time.time() - t
n = g.num_distinct_actions()
assert n > {high}, n
s = g.new_state(3, seed=1)
seen = []
while not s.is_terminal():
    acts = s.legal_actions()
    if s.decision_kind() == "number":
        assert [g.action_to_move(a) for a in acts] == list(range({high - 5}, {high + 1})), acts
        assert [g.move_to_action(m) for m in s.legal_moves()] == acts
        assert g.move_to_action(str({high})) == acts[-1]
        seen.append(acts[-1])
    s.apply_action(acts[-1])
assert seen, "no number was chosen"
assert g.action_to_move(g.move_to_action({high})) == {high}
print("ok", n)
"""
    r = guarded(code, tmp_path)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-2000:]


def test_ids_of_numbers_are_the_same_listed_or_worked_out(tmp_path):
    """The ids of a game whose numbers are worked out follow the same order as a listed one's:
    the cards, pass and declarations, the numbers 0 … max, then the suits."""
    numbers_file(tmp_path, 0, 100, "small.yaml")
    numbers_file(tmp_path, 0, 10**9, "large.yaml")
    code = """
import academie
small = academie.load_game("./small.yaml")
large = academie.load_game("./large.yaml")
assert small.num_distinct_actions() + 10**9 - 100 == large.num_distinct_actions()
for a in range(small.num_distinct_actions()):
    assert small.action_to_move(a) == large.action_to_move(a)
    assert large.move_to_action(large.action_to_move(a)) == a
for bad in (lambda: large.action_to_move(large.num_distinct_actions()),
            lambda: large.move_to_action(10**9 + 1), lambda: large.move_to_action(str(10**30))):
    try:
        bad()
    except academie.UnknownAction:
        pass
    else:
        raise AssertionError("no UnknownAction")
print("ok")
"""
    r = guarded(code, tmp_path)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-2000:]


def test_a_max_beyond_the_bound_is_a_located_error(tmp_path):
    """A max of more than 18 digits (allowed by --max-int-digits) is refused at its place."""
    p = numbers_file(tmp_path, 0, 10**21)
    r = subprocess.run(
        [sys.executable, "-m", "academie", "play", "./big.yaml", "--max-int-digits", "30"],
        capture_output=True,
        text=True,
        timeout=GUARD,
        cwd=tmp_path,
    )
    assert r.returncode == 2, r.stderr
    line = next(i for i, ln in enumerate(p.read_text().splitlines(), 1) if "max: 1000" in ln)
    assert f"big.yaml:{line}:10: a number to choose is at most 999,999,999,999,999,999" in r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr


@pytest.mark.parametrize("adapter", ["openspiel", "pettingzoo"])
def test_adapters_refuse_a_game_of_too_many_action_ids_at_its_max(tmp_path, adapter):
    """The adapters list every action id (a mask, a space): a located error, not 30 M entries."""
    mod = pytest.importorskip(f"academie.{adapter}")
    p = numbers_file(tmp_path, 29_999_990, 30_000_000)
    line = next(i for i, ln in enumerate(p.read_text().splitlines(), 1) if "max: 30000000" in ln)
    with pytest.raises(RuleError) as e:
        mod.register(str(p), 3) if adapter == "openspiel" else mod.env(str(p), 3)
    assert str(e.value).startswith(f"{p}:{line}:10: ")
    assert "more than 100,000" in str(e.value)


# -- 3. extends and imports: a depth limit, a limit on the files read ----------------------
def cli(args: list[str], cwd: Path, timeout: float = GUARD) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "academie", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


def no_crash(r: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr[-2000:]
    assert r.returncode in (1, 2), r.returncode


def chain(folder: Path, n: int) -> None:
    """``f0.yaml`` a game, each ``f{i}.yaml`` extending ``f{i-1}.yaml``."""
    (folder / "f0.yaml").write_text(CHOOSE)
    for i in range(1, n):
        (folder / f"f{i}.yaml").write_text(f"extends: ./f{i - 1}.yaml\ntitle: level {i}\n")


def test_a_chain_of_a_thousand_extends_is_a_located_error(tmp_path):
    """1,000 files each extending the next reached the catch-all (a RecursionError)."""
    chain(tmp_path, 1000)
    r = cli(["play", "./f999.yaml", "--hands", "1"], tmp_path)
    no_crash(r)
    assert r.returncode == 2
    assert "f968.yaml:1:10: extends and imports go more than 32 files deep here (the limit)" in r.stderr
    r = cli(["validate", "./f999.yaml", "--playouts", "0"], tmp_path)
    no_crash(r)
    assert "f968.yaml:1:10: error: extends and imports go more than 32 files deep" in r.stdout + r.stderr
    # the limit leaves room: 32 files (the corpus goes three deep) are one game
    assert academie.load_game(str(tmp_path / "f31.yaml")).title == "level 31"


def test_imports_that_fan_out_read_a_bounded_number_of_files(tmp_path):
    """Each file extending and importing the one before reads it twice: 30 such files read
    2^30 files before (a hang); now the files read are counted and bounded."""
    (tmp_path / "f0.yaml").write_text(CHOOSE)
    for i in range(30):
        prev = f"./g{i - 1}.yaml" if i else "./f0.yaml"
        (tmp_path / f"g{i}.yaml").write_text(
            f"extends: {prev}\nimports:\n  - from: {prev}\n    take: [title]\n    editorial: {{reason: x, evidence: y}}\n"
        )
    r = cli(["play", "./g29.yaml", "--hands", "1"], tmp_path, timeout=30)
    no_crash(r)
    assert re.search(r"g\d+\.yaml:3:11: extends and imports read more than 256 files for one rule file", r.stderr)


# -- 2. options: checked in time linear in their number, and at most 64 of them -------------
def options_file(folder: Path, n: int) -> Path:
    """The concept game with ``n`` options, each changing the title."""
    opts = "".join(
        f'  o{i}:\n    description: option {i}\n    editorial: {{reason: r, evidence: e}}\n    set: {{title: "v{i}"}}\n'
        for i in range(n)
    )
    p = folder / f"opts{n}.yaml"
    p.write_text(CHOOSE + "options:\n" + opts)
    return p


def test_options_are_compiled_a_number_of_times_linear_in_them(tmp_path, monkeypatch):
    """Each option alone, then each two together, was 2,080 compilations for 64 options (about
    N^3 in all: each reads the whole file); now at most 2 pairs per option, those that change
    the same keys first, and a warning says the others were not checked."""
    import academie.validate as v

    compiled = []
    real = v.compile_doc
    monkeypatch.setattr(v, "compile_doc", lambda doc: compiled.append(tuple(doc.options)) or real(doc))
    report = v.validate([str(options_file(tmp_path, 64))], playouts=0)
    assert len(compiled) <= 1 + 64 + 2 * 64, len(compiled)
    assert sum(len(o) == 2 for o in compiled) == 128
    warn = [d for d in report.diagnostics if d.severity == "warning" and d.code == "option"]
    assert len(warn) == 1 and "128 of the 2016 pairs" in warn[0].message, report.diagnostics
    assert not [d for d in report.diagnostics if d.severity == "error"]


def test_a_few_options_are_still_all_checked_in_pairs(tmp_path, monkeypatch):
    """Up to five options, every pair is compiled together, as before (the corpus's files)."""
    import academie.validate as v

    compiled = []
    real = v.compile_doc
    monkeypatch.setattr(v, "compile_doc", lambda doc: compiled.append(tuple(doc.options)) or real(doc))
    report = v.validate([str(options_file(tmp_path, 5))], playouts=0)
    assert sum(len(o) == 2 for o in compiled) == 10
    assert not [d for d in report.diagnostics if d.code == "option"]


def test_more_than_64_options_is_a_located_error(tmp_path):
    """120 options in a 16 kB file took minutes and gigabytes to validate."""
    p = options_file(tmp_path, 120)
    line = next(i for i, ln in enumerate(p.read_text().splitlines(), 1) if ln == "  o64:")
    r = cli(["validate", f"./{p.name}"], tmp_path, timeout=30)
    no_crash(r)
    assert f"{p.name}:{line}:3: error: 120 options, more than the limit of 64 for one rule file" in r.stdout
    r = cli(["play", f"./{p.name}"], tmp_path, timeout=30)
    no_crash(r)
    assert f"{p.name}:{line}:3: 120 options, more than the limit of 64" in r.stderr


# -- 5. pickle and records: a state is read back against its own rule file, or refused ---------
def _two_games(tmp_path: Path) -> tuple[Path, Path]:
    """Two folders, each with a ``game.yaml``: the bid game, and the same with another max."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "game.yaml").write_text(CHOOSE)
    (b / "game.yaml").write_text(CHOOSE.replace("    max: count(hand(seat))\n", "    max: 2\n"))
    return a, b


def _in(cwd: Path, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=GUARD, cwd=cwd)


def test_a_pickled_state_is_its_own_game_in_another_folder(tmp_path):
    """A state of a game loaded by a relative path was unpickled, from another working folder,
    as the game of the file of that name there: now the file it was loaded from, or refused."""
    a, b = _two_games(tmp_path)
    made = _in(
        a,
        "import pickle, academie\n"
        "s = academie.load_game('./game.yaml').new_state(3, seed=5)\n"
        "while s.decision_kind() != 'number': s.apply_action(s.legal_actions()[0])\n"
        "open('s.pickle', 'wb').write(pickle.dumps(s))\n"
        "print(s.legal_moves())\n",
    )
    assert made.returncode == 0, made.stderr
    read = _in(b, f"import pickle\ns = pickle.load(open({str(a / 's.pickle')!r}, 'rb'))\nprint(s.legal_moves())\n")
    assert read.returncode == 0, read.stderr
    assert read.stdout == made.stdout  # the same decision, not that of b/game.yaml (0 to 2)
    (a / "game.yaml").write_text(CHOOSE + "\n# changed\n")
    read = _in(b, f"import pickle\npickle.load(open({str(a / 's.pickle')!r}, 'rb'))\n")
    assert read.returncode == 1 and "academie.api.OtherGame: recorded with a rule file" in read.stderr


def test_a_state_record_is_plain_data_read_back_safely(tmp_path):
    """``to_record`` / ``state_from_record``: JSON, the same state; another game refused, a
    path never read from a record without its game, a bad record an ``ApiError``."""
    import json

    a, b = _two_games(tmp_path)
    g = academie.load_game(str(a / "game.yaml"))
    s = g.new_state(3, seed=5)
    for _ in range(20):
        s.apply_action(s.legal_actions()[-1])
    rec = json.loads(json.dumps(s.to_record()))
    back = academie.state_from_record(rec, g)
    assert back == s and back.legal_moves() == s.legal_moves()
    with pytest.raises(academie.ApiError, match="by its path: load it and pass the game"):
        academie.state_from_record(rec)
    with pytest.raises(academie.OtherGame):
        academie.state_from_record(rec, academie.load_game(str(b / "game.yaml")))
    corpus = academie.load_game("enfle/academie").new_state(4, seed=1)
    corpus.apply_action(corpus.legal_actions()[0])
    assert academie.state_from_record(json.loads(json.dumps(corpus.to_record()))) == corpus
    for bad in (
        [],
        {"game": rec["game"], "moves": ["ZZ"]},
        {"game": rec["game"], "moves": [True]},
        {"game": rec["game"], "players": 99},
        {"game": dict(rec["game"], options=["x"])},
        {"game": rec["game"], "moves": rec["moves"] + ["pass"] * 3},
    ):
        with pytest.raises(academie.ApiError):
            academie.state_from_record(bad, g)
