"""The silent failures of issue 13: each is now a located error or works.
Every test here fails on the code before the fix."""

import textwrap

import pytest

from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State

E = "editorial: {reason: r, evidence: e}"

BASE = f"""\
title: a toy
players: {{min: 2, max: 4, {E}}}
pack: {{suits: [S, H, D, C], ranks: [7, 8, 9, 10, J, Q, K, A], {E}}}
orders: {{play: {{ranks: [A, K, Q, J, 10, 9, 8, 7], {E}}}}}
zones:
  tricks: {{per_seat: true, {E}}}
  stock: {{{E}}}
  up: {{{E}}}
vars:
  bonus: {{per_seat: true, {E}}}
"""

PLAY = f"""\
  play:
    kind: tricks
    leader: dealer + 1
    {E}
    follow: {{must: [card.suit == led], {E}}}
    winner: {{key: [card.suit == led, rank(card)], {E}}}
    won_to: tricks
"""


def write(tmp_path, hand: str, extra: str = "", name: str = "toy.yaml"):
    p = tmp_path / name
    p.write_text(BASE + "hand:\n" + textwrap.indent(textwrap.dedent(hand), "  ") + PLAY + extra)
    return p


def errors(path, *options):
    with pytest.raises(RuleError) as e:
        load_game(str(path), options)
    return e.value.diagnostics


def playout(g, n, seed):
    st = State(g, n, seed, keep_events=True)
    play(st, make_agents(["random"], n, seed))
    return st


# -- STEP: null inside an option's set ------------------------------------------
def test_a_null_in_an_options_set_deletes_the_step(tmp_path):
    p = write(
        tmp_path,
        f"""\
          deal: {{kind: deal, hand: 4, {E}}}
          extra: {{kind: effects, do: [{{add: {{bonus: 1}}, at: dealer, {E}}}], {E}}}
        """,
        f"options:\n  plain:\n    description: no extra\n    {E}\n    set:\n      hand:\n        extra: null\n",
    )
    assert [s.name for s in load_game(str(p)).steps] == ["deal", "extra", "play"]
    assert [s.name for s in load_game(str(p), ["plain"]).steps] == ["deal", "play"]


def test_the_corpus_option_that_deletes_a_step_deletes_it():
    assert "fewest" in [s.name for s in load_game("hearts/foster").steps]
    assert "fewest" not in [s.name for s in load_game("hearts/foster", ["howell"]).steps]


# -- a turn-up into a zone that is not empty ------------------------------------------
def test_a_second_turn_up_into_the_same_zone_turns_up_a_card(tmp_path):
    p = write(
        tmp_path,
        f"""\
          deal: {{kind: deal, hand: 4, rest: stock, {E}}}
          first: {{kind: turnup, to: up, {E}}}
          second: {{kind: turnup, to: up, {E}}}
        """,
    )
    st = State(load_game(str(p)), 2, 5, keep_events=True)
    ups = [e for e in st.events if e["type"] == "turnup"]
    assert len(st.zones["up"]) == 2  # before: the second turn-up did nothing
    assert [e["card"] for e in ups] == [c.name for c in st.zones["up"]]
    assert st.trump == st.zones["up"][-1].suit
    assert len(st.zones["stock"]) == 32 - 8 - 2


def test_a_turn_up_from_the_zone_it_goes_to_is_a_located_error(tmp_path):
    p = write(
        tmp_path,
        f"""\
          deal: {{kind: deal, hand: 5, rest: stock, {E}}}
          up: {{kind: turnup, to: stock, {E}}}
        """,
    )
    with pytest.raises(RuleError) as e:
        State(load_game(str(p)), 2, 5)
    d = e.value.diagnostics[0]
    assert "turn-up is taken from stock itself" in d.message
    assert d.pos.line == p.read_text().splitlines().index(f"  up: {{kind: turnup, to: stock, {E}}}") + 1


# -- the deal-size check and when: ------------------------------------------------------
def test_deals_guarded_by_when_are_alternatives_not_a_sum(tmp_path):
    p = write(
        tmp_path,
        f"""\
          shuffle: {{kind: shuffle, {E}}}
          big: {{kind: deal, hand: 8, rest_count: {{4: 0}}, when: hand_no == 1, {E}}}
          small: {{kind: deal, hand: 6, rest: stock, rest_count: {{4: 8}}, when: hand_no > 1, {E}}}
        """,
        f"game: {{hands: 2, {E}}}\n",
    )
    g = load_game(str(p))  # before: "4 hands of 6 and 8 left over make 32 cards, but the pack has 32"
    st = playout(g, 4, 1)
    deals = [e for e in st.events if e["type"] == "deal"]
    assert [len(d["hands"][0]) for d in deals] == [8, 6]


def test_a_deal_that_cannot_be_is_told_at_its_own_step(tmp_path):
    p = write(
        tmp_path,
        f"""\
          shuffle: {{kind: shuffle, {E}}}
          deal: {{kind: deal, hand: 4, rest: stock, rest_count: {{4: 16}}, {E}}}
          again: {{kind: deal, hand: 2, rest_count: {{4: 10}}, {E}}}
        """,
    )
    ds = [d for d in errors(p) if d.code == "arithmetic"]
    lines = p.read_text().splitlines()
    assert ds and all(lines[d.pos.line - 1].startswith("  again:") for d in ds)  # before: at the shuffle
    assert "for 4 players: 16 cards dealt by the steps before, 4 hands of 2 and 10 left over make 34 cards" in (
        ds[0].message
    )


def test_a_when_of_the_players_decides_which_deal_is_counted(tmp_path):
    p = write(
        tmp_path,
        f"""\
          few: {{kind: deal, hand: 8, when: players <= 3, {E}}}
          many: {{kind: deal, hand: 7, when: players == 4, {E}}}
        """,
    )
    g = load_game(str(p))  # 3 × 8 and 4 × 7 both fit 32 cards
    assert len(State(g, 4, 1).hand[0]) == 7
    assert len(State(g, 3, 1).hand[0]) == 8


# -- an effect's when: guards its at: -----------------------------------------------------
def test_when_is_tested_before_at_names_a_seat(tmp_path):
    p = write(
        tmp_path,
        f"""\
          shuffle: {{kind: shuffle, {E}}}
          deal: {{kind: deal, hand: 4, rest: stock, {E}}}
          ace:
            kind: effects
            do: [{{add: {{bonus: 1}}, at: holder(AS), when: holder(AS) != none, {E}}}]
            {E}
        """,
    )
    g = load_game(str(p))
    held = 0
    for seed in range(12):  # the ace of spades is often in the stock: holder(AS) is none
        st = playout(g, 2, seed)
        held += sum(st.pvars["bonus"])
    assert 0 < held < 12


# -- take to (and from) the pack ----------------------------------------------------------
def test_take_to_the_pack_works(tmp_path):
    p = write(
        tmp_path,
        f"""\
          deal: {{kind: deal, hand: 4, rest: stock, {E}}}
          back: {{kind: effects, do: [{{take: {{from: stock, to: pack}}, {E}}}], {E}}}
        """,
    )
    st = State(load_game(str(p)), 2, 1)
    assert len(st.zones["pack"]) == 24 and not st.zones["stock"]


# -- a deal size written as an expression ---------------------------------------------------
def test_a_deal_size_may_be_an_expression(tmp_path):
    p = write(tmp_path, f"  deal: {{kind: deal, hand: 16 / players, {E}}}\n")
    g = load_game(str(p))  # before: a raw jsonschema message
    assert [len(h) for h in State(g, 4, 1).hand] == [4, 4, 4, 4]
    assert [len(h) for h in State(g, 2, 1).hand] == [8, 8]


def test_a_wrong_deal_size_expression_is_located(tmp_path):
    p = write(tmp_path, f"  deal: {{kind: deal, hand: cards / players, {E}}}\n")
    (d,) = errors(p)
    assert "unknown name 'cards'" in d.message
    assert p.read_text().splitlines()[d.pos.line - 1][d.pos.col - 1 :].startswith("cards / players")


# -- an error of a file with options is told once -------------------------------------------
def test_an_error_of_a_file_with_options_is_told_once(tmp_path, run):
    opts = "".join(f"  o{i}:\n    description: o\n    {E}\n    set:\n      vars: {{v{i}: {{{E}}}}}\n" for i in range(3))
    p = write(tmp_path, f"  deal: {{kind: deal, hand: 4, first: nobody, {E}}}\n", "options:\n" + opts)
    code, out, err = run("validate", p)
    assert code == 1
    text = out + err
    assert text.count("unknown name 'nobody'") == 1  # before: once more for each option and pair
