"""The package as a user installs it: `python -m build` makes an sdist and, from
that sdist, a wheel; the wheel, installed into a fresh virtual environment,
holds the whole corpus and runs every command, and no message or output names
the place it is installed in (a corpus file is named by its place in the
project, rules/... or sources/...).

The wheel is built once per test session (or taken from ACADEMIE_DIST, a folder
holding the wheel and the sdist .ci/run built) and installed once (or taken
from ACADEMIE_WHEEL_ENV, a virtual environment .ci/run installed it into).
The commands run in a subprocess, from a temporary folder outside the
checkout, so that only the installed package can answer."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
INSTALL_MARK = "site-packages"


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    given = os.environ.get("ACADEMIE_DIST")
    if given:
        return Path(given)
    if importlib.util.find_spec("build") is None:
        pytest.skip("the wheel is not built: the 'build' package is not installed (pip install build)")
    out = tmp_path_factory.mktemp("dist")
    # without --sdist/--wheel, build makes the sdist and then the wheel from that sdist
    r = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


def _one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


@pytest.fixture(scope="session")
def wheel_bin(dist, tmp_path_factory) -> Path:
    """The bin folder of a fresh virtual environment the wheel is installed in."""
    given = os.environ.get("ACADEMIE_WHEEL_ENV")
    if given:
        return Path(given) / "bin"
    env = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, timeout=300)
    wheel = _one(dist, "academie-*.whl")
    r = subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return env / "bin"


@pytest.fixture(scope="session")
def outside(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("outside")


def _academie(wheel_bin: Path, cwd: Path, *args, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = f"{wheel_bin}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        [str(wheel_bin / "academie"), *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def _checkout_files(top: str, patterns: tuple[str, ...]) -> set[str]:
    return {p.relative_to(ROOT / top).as_posix() for pat in patterns for p in (ROOT / top).glob(pat) if p.is_file()}


# what the checkout's folders become in the wheel, and the files of each a user needs
PACKAGE_DATA = [
    ("rules", "academie/rules", ("**/*.yaml",)),
    ("sources", "academie/sources", ("*.txt", "*.yaml")),
    ("dsl", "academie/dsl", ("*.lark", "*.json", "*.py")),
    ("interpreter", "academie/interpreter", ("*.py",)),
    ("academie", "academie", ("**/*.py", "templates/*.j2", "py.typed", "serve/templates/*", "serve/static/*")),
]


def test_the_wheel_and_the_sdist_hold_the_whole_package(dist):
    wheel = set(zipfile.ZipFile(_one(dist, "academie-*.whl")).namelist())
    with tarfile.open(_one(dist, "academie-*.tar.gz")) as sdist:
        in_sdist = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"pyproject.toml", "README.md"} <= in_sdist
    for top, inside, patterns in PACKAGE_DATA:
        files = _checkout_files(top, patterns)
        assert files, top
        missing = sorted(f for f in files if f"{inside}/{f}" not in wheel)
        assert not missing, f"not in the wheel: {top}/{missing[:10]}"
        missing = sorted(f for f in files if f"{top}/{f}" not in in_sdist)
        assert not missing, f"not in the sdist: {top}/{missing[:10]}"
    meta = next(n for n in wheel if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(_one(dist, "academie-*.whl")).read(meta).decode()
    extras = {ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("Provides-Extra:")}
    assert {"openspiel", "pettingzoo", "serve", "dask", "test"} <= extras, extras
    assert all(e == e.lower() and "_" not in e for e in extras), extras  # as every pip normalises them


def test_the_readme_main_command_runs_from_the_wheel(wheel_bin, outside):
    r = subprocess.run(
        [str(wheel_bin / "python"), "-c", "import academie; print(academie.__file__)"],
        cwd=outside,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and Path(r.stdout.strip()).is_relative_to(wheel_bin.parent), r.stdout + r.stderr
    # the README's main command, as its set-up writes it
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    line = next(ln.strip() for ln in setup.splitlines() if ln.startswith("    academie play "))
    args = shlex.split(line.split("#", 1)[0])[1:]
    assert args == ["play", "enfle/academie", "--players", "5", "--seed", "3"]
    r = _academie(wheel_bin, outside, *args)
    assert r.returncode == 0, r.stderr
    assert "seat 4" in r.stdout and "Traceback" not in r.stderr


def _no_install_path(text: str, what) -> None:
    assert INSTALL_MARK not in text, f"{what} names the install path:\n" + "\n".join(
        ln for ln in text.splitlines() if INSTALL_MARK in ln
    )


def test_no_command_names_the_install_path(wheel_bin, outside):
    bad = outside / "bad.yaml"
    bad.write_text("extends: whist/hoyle\nplayers: {min: 4, max: 4}\nno_such_key: 1\n", encoding="utf-8")
    cites = outside / "cites.yaml"
    cites.write_text('extends: enfle/academie\nplayers: {min: 4, max: 8, cite: {source: no-such, quote: "x"}}\n')
    log = outside / "game.jsonl"
    site = outside / "site"
    runs = [
        (("list",), 0),
        (("play", "enfle/academie", "-p", 5, "-s", 3, "--log", log), 0),
        (("play", "whist/hoyle", "-p", 4, "-s", 1, "--json"), 0),
        (("simulate", "enfle/academie", "-p", 5, "-n", 5, "--workers", 1), 0),
        (("validate",), 0),
        (("validate", "--json"), 0),
        (("coverage",), 0),
        (("coverage", "--all", "enfle-jeux-oublies"), 0),
        (("coverage", "--json", "foster-hoyle"), 0),
        (("cite", "polignac/boussac"), 0),
        (("cite", "piquet/hoyle", "--format", "bibtex"), 0),
        (("cite", "hoc/encyclopedie", "--format", "csl-json"), 0),
        (("render", "polignac/boussac"), 0),
        (("compare", "polignac/boussac", "enfle/academie"), 0),
        (("replay", log, "enfle/academie"), 0),
        (("reconstruct", "emprunt/lacombe", "-n", 4, "--workers", 1), 0),
        (("site", site), 0),
        # errors: each names a corpus file by its place in the project, an id that is no file alone
        (("play", "hearts"), 2),
        (("play", "whist/hoyle", "-p", 3), 2),
        (("play", "enfle/academie", "-p", 5, "-o", "no-such-option"), 2),
        (("validate", bad), 1),
        (("play", bad, "-p", 4), 2),
        (("cite", "nosuch/game"), 2),
        (("cite", cites), 2),
        (("coverage", "no-such-source"), None),
    ]
    texts = {}
    for args, status in runs:
        r = _academie(wheel_bin, outside, *args)
        text = r.stdout + r.stderr
        assert "Traceback" not in text, (args, text[-2000:])
        if status is not None:
            assert r.returncode == status, (args, r.returncode, text[-2000:])
        _no_install_path(text, args)
        texts[args] = text
    assert "rules/whist/hoyle.yaml:13:3: whist/hoyle is for 4 to 4 players" in texts[("play", "whist/hoyle", "-p", 3)]
    assert "hearts: no rule file 'hearts'" in texts[("play", "hearts")] and ":0:0" not in texts[("play", "hearts")]
    option = texts[("play", "enfle/academie", "-p", 5, "-o", "no-such-option")]
    assert "rules/enfle/academie.yaml:1:1: unknown option 'no-such-option'" in option
    cov = texts[("coverage", "--all", "enfle-jeux-oublies")]
    assert "sources/enfle-jeux-oublies.txt:5: " in cov and "by rules/enfle/academie.yaml:" in cov
    files = {d["file"] for d in json.loads(_academie(wheel_bin, outside, "validate", "--json").stdout)}
    assert files and all(f.startswith("rules/") for f in files), files
    # the files written: the event log and the whole site
    _no_install_path(log.read_text(encoding="utf-8"), log)
    pages = [p for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".json", ".js", ".txt", ".md")]
    assert any(p.name == "index.html" for p in pages)
    from academie.site import page_name

    assert "cited by polignac/boussac.yaml:" in (site / page_name("source", "boussac-1896")).read_text(encoding="utf-8")
    for page in pages:
        _no_install_path(page.read_text(encoding="utf-8", errors="replace"), page)
