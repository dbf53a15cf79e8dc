"""The README's set-up works as written on a fresh Debian or Ubuntu, where
the system Python is externally managed: a virtual environment comes before
any pip install, and contributors install the checkout in editable mode."""

import re
from pathlib import Path

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}.*?$(.*?)^## ", README, re.S | re.M)
    assert m, f"no section '{title}'"
    return m.group(1)


def commands(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.startswith("    ") and ln.strip()]


def test_set_up_makes_a_venv_before_installing():
    cmds = commands(section("Set-up"))
    venv = next(i for i, c in enumerate(cmds) if "python3 -m venv .venv" in c and ". .venv/bin/activate" in c)
    pip = next(i for i, c in enumerate(cmds) if c.startswith("pip install"))
    assert venv < pip
    assert any("apt-get install" in c and "python3-venv" in c for c in cmds[:venv])  # ensurepip is packaged apart
    assert any(c.startswith("academie serve") for c in cmds) and "[serve]" in " ".join(cmds)


def test_contributors_install_the_checkout_editable_and_run_the_checks():
    cmds = commands(section("For contributors"))
    joined = "\n".join(cmds)
    assert "python3 -m venv .venv" in joined and "pip install -e '.[test]'" in joined
    for check in ("pytest", "ruff check .", "ruff format --check .", "mypy"):
        assert check in joined
    assert "chromium" in joined


def test_the_screenshots_are_there():
    for name in ("play.png", "replay.png", "compare.png"):
        assert f"(docs/screenshots/{name})" in README
        assert (Path(__file__).parent.parent / "docs" / "screenshots" / name).stat().st_size > 10_000


def test_the_apt_get_lines_run_as_root_without_sudo(tmp_path):
    # a root container has no sudo: each line that installs system packages must run there as written
    # (apt-get itself is replaced by an echo, and PATH holds no sudo)
    import subprocess

    lines = [c for c in commands(section("Set-up")) + commands(section("For contributors")) if "apt-get" in c]
    assert len(lines) >= 2
    for line in lines:
        line = line.split("  #", 1)[0]
        r = subprocess.run(
            ["/bin/bash", "-c", line.replace("apt-get", "echo apt-get")],
            env={"PATH": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert r.returncode == 0 and r.stdout.startswith("apt-get "), (line, r.stdout, r.stderr)
