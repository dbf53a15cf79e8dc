"""Everything printed is safe to print: control characters of a rule file
(terminal escapes, BEL, C1 controls, bidirectional overrides) never reach the
terminal, a written page or a JSON answer raw, and long lines are cut in
messages with the caret still under the right character."""

import json
import re
from pathlib import Path

import pytest

HEAD = "# yaml-language-server: $schema=x\n"
# retitles a terminal window, clears the screen, CSI in 8 bits, right-to-left override
EVIL = r"\e]0;pwned\a\e[2J\x9b31m\u202e"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def _clean(text: str, where: str):
    for c in RAW:
        assert c not in text, f"{c!r} reached {where}: {text[:400]!r}"


@pytest.fixture
def evil(tmp_path):
    """A variant of a corpus game whose title and a quote hold control characters."""
    f = tmp_path / "evil.yaml"
    f.write_text(
        HEAD + "extends: enfle/academie\nsource: enfle-jeux-oublies\n"
        f'title: "Evil {EVIL} game"\n'
        "players:\n  min: 4\n  max: 8\n"
        f'  cite: "L\'Enflé is played {EVIL} by four to eight players"\n',
        encoding="utf-8",
    )
    return f


def test_control_characters_never_reach_the_terminal_nor_files(run, evil, tmp_path):
    md, html, cmp_html = tmp_path / "out.md", tmp_path / "out.html", tmp_path / "cmp.html"
    runs = {
        "validate": run("validate", "--playouts", 1, evil),
        "validate --json": run("validate", "--playouts", 0, "--json", evil),
        "play": run("play", evil, "-p", 4),
        "play --json": run("play", evil, "-p", 4, "--json"),
        "simulate": run("simulate", evil, "-n", 2, "-w", 1),
        "simulate --json": run("simulate", evil, "-n", 2, "-w", 1, "--json"),
        "render": run("render", evil),
        "render html": run("render", "--format", "html", evil),
        "render -O": run("render", evil, "-O", md),
        "render html -O": run("render", "--format", "html", evil, "-O", html),
        "compare": run("compare", evil, "enfle/academie"),
        "compare --json": run("compare", evil, "enfle/academie", "--json"),
        "compare --html": run("compare", evil, "enfle/academie", "--html", cmp_html),
    }
    for what, (code, out, err) in runs.items():
        assert "Traceback" not in out + err and "internal error" not in out + err, (what, err)
        _clean(out, f"stdout of {what}")
        _clean(err, f"stderr of {what}")
    for f in (md, html, cmp_html):
        _clean(f.read_text(encoding="utf-8"), f.name)
    # shown as visible escapes
    code, out, err = runs["play"]
    assert code == 0 and r"Evil \x1b]0;pwned\x07\x1b[2J\x9b31m\u202e game" in out
    assert r"\x1b]0;pwned" in md.read_text(encoding="utf-8")
    # the quote is not in the source: the message quoting it is escaped too
    code, out, err = runs["validate"]
    assert code == 1 and r"\x1b]0;pwned" in out, out
    # JSON keeps the value: it decodes to the very title
    code, out, err = runs["play --json"]
    assert json.loads(out)["title"] == "Evil \x1b]0;pwned\x07\x1b[2J\x9b31m\u202e game"
    code, out, err = runs["validate --json"]
    assert any("\x1b]0;pwned" in d["message"] for d in json.loads(out)), out


def test_raw_lines_are_escaped_in_messages(run, tmp_path):
    f = tmp_path / "raw.yaml"
    f.write_bytes(HEAD.encode() + b"title: ok\nnote: \x1b]0;pwned\x07\n")
    code, out, err = run("validate", "--playouts", 0, f)
    assert code == 1
    _clean(out + err, "validate")
    assert re.search(r"raw\.yaml:3:7: error: invalid YAML", out), out
    assert r"note: \x1b]0;pwned\x07" in out
    code, out, err = run("play", f)
    assert code == 2
    _clean(out + err, "play")


def test_long_lines_are_cut_around_the_column(run, tmp_path):
    f = tmp_path / "long.yaml"
    pad = "y" * 5000
    f.write_text(HEAD + f"title: x\nplayers: {{min: 2, max: 4, editorial: {{reason: {pad}, evidence: e}}, bogus: 1}}\n")
    code, out, err = run("play", f)
    assert code == 2, err
    lines = err.splitlines()
    i = next(k for k, ln in enumerate(lines) if "unknown key 'bogus'" in ln)
    head, shown, caret = lines[i], lines[i + 1], lines[i + 2]
    assert re.match(r".*long\.yaml:3:\d+: ", head)
    assert len(shown) < 130 and "…" in shown, shown
    assert shown[caret.index("^") :].startswith("bogus"), (shown, caret)


def test_the_escaping_functions():
    from academie.dsl.text import safe, safe_json, window

    assert safe("a\x1b[2Jb\x07\tc\nd\x7f\x9b\u202e\u2066") == "a\\x1b[2Jb\\x07\tc\nd\\x7f\\x9b\\u202e\\u2066"
    assert safe("a\nb\tc", one_line=True) == "a\\nb\\tc"
    assert safe("L'Enflé ♠ — ok") == "L'Enflé ♠ — ok"
    assert json.loads(safe_json(json.dumps("\x9b\u202e\x7f", ensure_ascii=False))) == "\x9b\u202e\x7f"
    assert not any(c in safe_json(json.dumps("\x9b\u202e\x7f", ensure_ascii=False)) for c in "\x9b\u202e\x7f")
    shown, col = window("a" * 300 + "\x1bX" + "b" * 300, 302)
    assert shown[col - 1] == "X" and shown[col - 5 : col - 1] == "\\x1b" and len(shown) <= 101


# -- the broken-file battery: tests/broken/print-* -------------------------------------------
BROKEN = Path(__file__).parent / "broken"
BATTERY = [
    ("print-raw-escape.yaml", "4:10", "invalid YAML: the control character U+001B is not allowed"),
    ("print-escape-in-quote.yaml", "5:34", r"quote not found in source"),
]


@pytest.mark.parametrize("name,where,phrase", BATTERY, ids=[b[0] for b in BATTERY])
def test_broken_print_files(run, name, where, phrase):
    f = BROKEN / name
    code, out, err = run("validate", "--playouts", 0, f)
    assert code == 1 and re.search(rf"{re.escape(name)}:{where}: error: .*{re.escape(phrase)}", out), out
    _clean(out + err, "validate")
    for args in (("play", f, "-p", 4), ("render", f), ("render", "--format", "html", f)):
        code, out, err = run(*args)
        _clean(out + err, " ".join(map(str, args)))


def test_the_human_prompt_escapes_names_from_the_rule_file():
    import io
    from types import SimpleNamespace
    from academie.interpreter.agents import HumanAgent

    out = io.StringIO()
    st = SimpleNamespace(hand_no=1, dealer=0, trump=None, zones={}, hand=[[]])
    move = "declare \x1b]0;pwned\x07"  # a declaration named in the rule file
    got = HumanAgent(io.StringIO("1\n"), out).choose(st, 0, [move])
    assert got == move
    _clean(out.getvalue(), "the human prompt")
    assert r"[1] declare \x1b]0;pwned\x07" in out.getvalue()


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=1, max_value=420))
def test_escaped_text_and_windows_hold_no_control_character(text, col):
    from academie.dsl.text import safe, window

    for shown in (safe(text), safe(text, one_line=True), window(text, col)[0]):
        assert not any(
            ord(c) < 0x20
            and c not in "\n\t"
            or 0x7F <= ord(c) <= 0x9F
            or 0x202A <= ord(c) <= 0x202E
            or 0x2066 <= ord(c) <= 0x2069
            for c in shown
        ), shown
    line = text.replace("\n", " ")
    shown, at = window(line, col)
    assert len(shown) <= 101
    if col <= len(line):  # the caret is under the escape of the character at col
        assert shown[at - 1 :].startswith(safe(line[col - 1], one_line=True))


@pytest.mark.parametrize(
    "args",
    [
        ["play", "enfle/academie", "--json", "\x1b]0;t\x07"],  # an extra argument, quoted by click
        ["play", "enfle/academie", "-p", "\x1b[2J"],  # a value that is not a number
        ["simulate", "enfle/academie", "-n", "1", "--agents", "\x1b[2J"],
    ],
)
def test_usage_errors_quote_arguments_escaped(run, args):
    """A usage error quotes the argument it refuses (a file name from a
    downloaded archive may hold escapes): escaped like everything printed."""
    code, out, err = run(*args)
    assert code == 2, out + err
    assert "\x1b" not in out + err and "\x07" not in out + err, repr(out + err)
    assert "\\x1b" in out + err
