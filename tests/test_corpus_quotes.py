"""Every quote of the corpus is found in its source, and changing any one
word of any quote makes it not found; the source's impossible numbers are
reported against the source."""

import re

import pytest

from academie.citations import find_quote
from academie.dsl.loader import corpus_ids, resolve, sources_root


def all_quotes():
    for cid in corpus_ids():
        doc = resolve(cid)
        for path, src, quote in doc.cites():
            yield pytest.param(src, quote, id=f"{cid}:{'/'.join(map(str, path))}")


@pytest.mark.parametrize("src,quote", list(all_quotes()))
def test_quote_found_and_one_changed_word_is_not(src, quote):
    text = (sources_root() / f"{src}.txt").read_text(encoding="utf-8")
    assert find_quote(text, quote) is not None
    words = re.findall(r"\w{2,}", quote)
    if not words:
        pytest.skip("a quote of punctuation only")
    word = max(words, key=len)
    changed = re.sub(rf"\b{re.escape(word)}\b", word[::-1] + "x", quote, count=1)
    assert find_quote(text, changed) is None


def test_emprunt_three_player_deal_is_reported_against_its_source(run):
    code, out, err = run("validate", "--playouts", 0, "emprunt/lacombe")
    assert code == 0
    assert re.search(
        r"lacombe\.yaml:\d+:\d+: warning: the source's arithmetic is impossible: "
        r"3 players × 21 cards \+ 4 left over = 67 cards, but the pack has 40",
        out,
    ), out
    assert "corrected by the editorial element at" in out
