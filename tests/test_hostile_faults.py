"""No input reaches the catch-all ("internal error", exit 3): every argument
is checked by the command line, every run-time fault of a rule file is a
located rule error, and model checks that used to pass silently are errors."""
import io
import json
import re
from pathlib import Path

import pytest

from academie.dsl.errors import RuleError
from academie.dsl.loader import find_rules
from academie.interpreter.agents import HumanAgent

BROKEN = Path(__file__).parent / "broken"


def _clean(code, out, err):
    text = out + err
    assert "internal error" not in text, text
    assert "Traceback" not in text, text
    return text


# -- arguments ---------------------------------------------------------------------
@pytest.mark.parametrize("args,phrase", [
    (("play", "enfle/academie", "--max-plays", "-1"), "--max-plays"),
    (("play", "enfle/academie", "--max-plays", "0"), "--max-plays"),
    (("play", "enfle/academie", "--hands", "-1"), "--hands"),
    (("play", "enfle/academie", "--hands", "0"), "--hands"),
    (("play", "enfle/academie", "-p", "0"), "--players"),
    (("play", "enfle/academie", "-p", "-4"), "--players"),
    (("play", "enfle/academie", "-p", "4", "--dealer", "4"), "4 is not a seat: for 4 players the seats are 0 to 3"),
    (("play", "enfle/academie", "-p", "4", "--dealer", "-1"), "--dealer"),
    (("simulate", "enfle/academie", "-n", "1", "--max-plays", "-1"), "--max-plays"),
    (("simulate", "enfle/academie", "-n", "1", "-p", "0"), "--players"),
    (("compare", "enfle/academie", "enfle/foster", "-n", "1", "-p", "0"), "--players"),
    (("compare", "enfle/academie", "enfle/foster", "-n", "1", "--agents", "nope"), "unknown agent 'nope'"),
    (("compare", "enfle/academie", "enfle/foster", "--agents", "nope"), "unknown agent 'nope'"),
    (("compare", "enfle/academie", "enfle/foster", "-n", "1", "--agents", "random,first"),
     "2 agents for 4 players: give one, or one per seat"),
    (("play", "enfle/academie", "--seed", "a\x1b]0;title\x07"), "no control characters"),
    (("play", "enfle/academie", "--seed", "7" * 300), "at most 200 characters"),
])
def test_bad_arguments_are_usage_errors(run, args, phrase):
    code, out, err = run(*args)
    text = _clean(code, out, err)
    assert code == 2, text
    assert phrase in text, text


@pytest.mark.parametrize("cmd", [
    ("play", "enfle/academie", "--json"),
    ("simulate", "enfle/academie", "-n", "2", "-w", "1", "--json"),
    ("compare", "enfle/academie", "enfle/foster", "-n", "1", "--json"),
])
def test_non_ascii_digits_are_a_string_seed(run, cmd):
    """-s ² crashed (str.isdigit) and -s ٣ played as seed 3: both are string seeds."""
    code, out, err = run(*cmd, "--seed", "²")
    _clean(code, out, err)
    assert code == 0, out + err
    code, out3, err = run(*cmd, "--seed", "٣")
    assert code == 0, out3 + err
    if cmd[0] == "play":
        assert json.loads(out3)["seed"] == "٣"
        code, ascii3, _ = run(*cmd, "--seed", "3")
        assert json.loads(ascii3)["seed"] == 3
        assert json.loads(ascii3)["hands"] != json.loads(out3)["hands"]


def test_seed_is_documented(run):
    code, out, err = run("play", "--help")
    assert "ASCII digits" in re.sub(r"\s+", " ", out)


def test_dealer_in_range_is_taken(run):
    code, out, err = run("play", "enfle/academie", "-p", "4", "--dealer", "3", "--hands", "1", "--json")
    assert code == 0, out + err


# -- a person at the terminal --------------------------------------------------------
@pytest.mark.parametrize("agents", ["human", "human,random,random,random", "random,human,random,random"])
def test_end_of_input_for_a_human_player(run, agents):
    """Ctrl-D or < /dev/null: a clear message, exit status 2; not an internal
    error, and not blamed on the rule file."""
    code, out, err = run("play", "enfle/academie", "-p", "4", "--agents", agents)
    text = _clean(code, out, err)
    assert code == 2, text
    assert "standard input ended" in err, text
    assert "academie.yaml" not in err and "cannot be applied" not in err, text


def test_ctrl_c_for_a_human_player(run, monkeypatch):
    class Interrupting(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt
    orig = HumanAgent.__init__

    def init(self, inp=None, out=None):
        orig(self, Interrupting(), out)
    monkeypatch.setattr(HumanAgent, "__init__", init)
    code, out, err = run("play", "enfle/academie", "-p", "4", "--agents", "random,human,random,random")
    text = _clean(code, out, err)
    assert code == 130, text
    assert "interrupted" in err
