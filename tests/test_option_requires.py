"""An option that extends another (``requires:``, docs/language.md section 7): switched on, the
options it requires are switched on too and laid over first, whatever order they are named in;
their conflicts are its own. Made for Hoffmann's note 39 (the option higher-openers of
rules/poker/hoffmann.yaml, which extends jack-pots); proven on tests/concepts/requires.yaml."""

from pathlib import Path

import pytest

from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.state import State

CONCEPT = str(Path(__file__).parent / "concepts" / "requires.yaml")


def played(*options):
    st = State(load_game(CONCEPT, options), 2, 0, dealer=0, deal={"hands": [["9S"], ["AS"]]}, hands=1)
    st.apply("check")
    st.apply("check")
    assert st.is_terminal()
    return st


def test_an_option_switches_on_the_option_it_requires_and_extends_it():
    plain = played()
    assert plain.bal[1]["chip"] == 1  # the ante only
    assert played("bonus").bal[1]["chip"] == 2
    doubled = played("doubled")  # bonus's counter is there, its step paying two
    assert doubled.bal[1]["chip"] == 3 and doubled.bal[0]["chip"] == -3
    assert [e["amount"] for e in doubled.events if e["type"] == "pay"] == [1, 1, 2, 2, 6]


def test_the_required_option_is_laid_over_first_whatever_the_order_named():
    for options in (("doubled", "bonus"), ("bonus", "doubled")):
        st = played(*options)
        assert st.bal[1]["chip"] == 3


def test_a_conflict_of_the_required_option_is_the_requiring_options_own():
    with pytest.raises(RuleError, match="cannot be used together"):
        load_game(CONCEPT, ("doubled", "quiet"))


def test_the_hoffmann_note_39_option_brings_its_jack_pots():
    g = load_game("poker/hoffmann", ("higher-openers",))
    assert "open_jack_pot" in [st.name for st in g.steps]
    with pytest.raises(RuleError, match="cannot be used together"):
        load_game("poker/hoffmann", ("higher-openers", "straight"))


@pytest.mark.parametrize(
    "requires, message",
    [("[nothing]", "requires 'nothing', which is not an option"), ("[doubled]", "which requires it in turn")],
)
def test_a_required_option_that_is_none_or_a_cycle_is_a_located_error(tmp_path, requires, message):
    text = (
        Path(CONCEPT)
        .read_text()
        .replace(
            "    description: each puts in one chip more",
            f"    requires: {requires}\n    description: each puts in one chip more",
        )
    )
    path = tmp_path / "requires.yaml"
    path.write_text(text)
    with pytest.raises(RuleError, match=message):
        load_game(str(path), ("bonus",))
