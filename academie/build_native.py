"""Compile the interpreter's hot modules with mypyc, in place (optional).

    pip install -e ".[native]"         # mypy (mypyc comes with it) and setuptools; a C compiler too
    python -m academie.build_native    # builds the modules of MODULES beside their .py files
    python -m academie.build_native --remove    # back to pure Python

The compiled modules are extension modules (``tricks.cpython-311-….so``) written beside the
modules they are built from, in the installed package or in an editable checkout alike; Python
imports an extension module before the ``.py`` of the same name, and the ``.py`` when there is
none. Nothing else changes: the same code plays the same games (``tests/test_native.py`` plays
the corpus both ways when compiled modules are present). The default install builds nothing.
The compiled modules are tied to the Python version and to the source they were built from:
after a change to one of these modules, build again (or remove them).

The parts of ``State`` are compiled as ordinary Python classes with their methods in C (their
metaclass, ``interpreter/base.py``, says so). Not compiled, and why: ``interpreter/state.py``
(mypyc does not compile property setters in such classes), ``interpreter/declare.py`` and
``interpreter/checks.py`` (mypyc fails on their closures inside methods).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import os
import shutil
import sys
import tempfile
from pathlib import Path

# the modules where the time of play goes (benchmarks/profile_interp.py), that mypyc compiles
MODULES = (
    "academie.interpreter.tricks",
    "academie.interpreter.short_loop",
    "academie.interpreter.procedure",
    "academie.interpreter.steps",
    "academie.interpreter.effects",
    "academie.interpreter.choices",
    "academie.interpreter.sequence",
    "academie.dsl.functions.combinations",
    "academie.dsl.combinations",
    "academie.dsl.hand_bits",
)


def _package_dir(name: str) -> Path:
    return Path(importlib.import_module(name).__path__[0]).resolve()


def _source(module: str) -> Path:
    pkg, _, leaf = module.rpartition(".")
    return _package_dir(pkg) / f"{leaf}.py"


def compiled_files() -> list[Path]:
    """The compiled modules present beside the modules of MODULES (and their runtime libraries)."""
    out = []
    for module in MODULES:
        src = _source(module)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            for stem in (src.stem, f"{src.stem}__mypyc"):
                f = src.with_name(stem + suffix)
                if f.exists():
                    out.append(f)
    return out


def remove() -> list[Path]:
    files = compiled_files()
    for f in files:
        f.unlink()
    return files


def build(work: Path, verbose: bool = False) -> list[Path]:
    """Compile MODULES in ``work`` (a scratch folder) and copy the extension modules beside their
    sources. The package is seen there as installed (``academie/interpreter``, ``academie/dsl``:
    the names the modules are imported by), whatever the layout of the checkout."""
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as e:
        raise SystemExit(
            f"academie.build_native: {e.name} is needed (pip install mypy setuptools, or the native extra)"
        ) from None
    src = work / "src" / "academie"
    src.mkdir(parents=True)
    for entry in _package_dir("academie").iterdir():
        if entry.name not in ("interpreter", "dsl"):
            (src / entry.name).symlink_to(entry)
    (src / "interpreter").symlink_to(_package_dir("academie.interpreter"))
    (src / "dsl").symlink_to(_package_dir("academie.dsl"))
    paths = [str(Path(*m.split(".")).with_suffix(".py")) for m in MODULES]
    here = os.getcwd()
    os.chdir(work / "src")
    try:
        # separate=True: one library per module, and no assumption that the classes compiled are
        # the only subclasses of each other (the parts are mixed into State, not compiled)
        exts = mypycify(
            ["--ignore-missing-imports", "--disable-error-code=annotation-unchecked", *paths],
            opt_level="3",
            separate=True,
            target_dir=str(work / "c"),
            verbose=verbose,
        )
        dist = Distribution({"name": "academie-native", "ext_modules": exts})
        dist.script_args = ["build_ext", "--build-lib", str(work / "lib"), "--build-temp", str(work / "tmp")]
        if not verbose:
            dist.script_args.insert(0, "--quiet")
        dist.parse_command_line()
        dist.run_commands()
    finally:
        os.chdir(here)
    out = []
    for module in MODULES:
        dest = _source(module).parent
        built = work / "lib" / Path(*module.split(".")[:-1])
        leaf = module.rpartition(".")[2]
        for f in sorted(built.glob(f"{leaf}.*")) + sorted(built.glob(f"{leaf}__mypyc.*")):
            target = dest / f.name
            tmp = target.with_name(target.name + ".part")
            shutil.copyfile(f, tmp)
            os.replace(tmp, target)
            out.append(target)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m academie.build_native", description=__doc__.split("\n")[0])
    ap.add_argument("--remove", action="store_true", help="remove the compiled modules: pure Python again")
    ap.add_argument("--verbose", action="store_true", help="show mypyc's and the compiler's output")
    args = ap.parse_args(argv)
    removed = remove()
    if args.remove:
        print(f"removed {len(removed)} compiled file(s)")
        return 0
    with tempfile.TemporaryDirectory(prefix="academie-native-") as tmp:
        built = build(Path(tmp), args.verbose)
    for f in built:
        print(f)
    print(
        f"{len(built)} compiled file(s) for {len(MODULES)} modules (python -m academie.build_native --remove: pure Python)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
