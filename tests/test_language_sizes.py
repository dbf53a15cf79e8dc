"""Deals and card moves whose size is an expression (issue 13, item 3): a
shrinking deal, a hand size by seat, the dealer's last card turned up into
his own hand, and "move N cards" (take with count:), each one step. Proven
on tests/concepts/sizes.yaml and small files written here."""

import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from academie.dsl.errors import RuleError
from academie.dsl.model import load_game
from academie.interpreter.agents import make_agents, play
from academie.interpreter.state import State

CONCEPT = str(Path(__file__).parent / "concepts" / "sizes.yaml")
E = "editorial: {reason: r, evidence: e}"


def game_of(players, seed):
    g = load_game(CONCEPT)
    return play(State(g, players, seed, keep_events=True), make_agents(["random"], players, seed))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_shrinking_deal_in_one_step_with_the_dealers_turn_up(players):
    st = game_of(players, 7)
    assert st.hand_no == 7 and not st.unfinished
    hand_starts = [i for i, e in enumerate(st.events) if e["type"] == "hand_start"]
    for h, i in enumerate(hand_starts, start=1):
        dealer = st.events[i]["dealer"]
        deal = next(e for e in st.events[i:] if e["type"] == "deal")
        up = next(e for e in st.events[i:] if e["type"] == "turnup")
        sizes = [len(x) for x in deal["hands"]]
        assert sizes == [7 - h if s == dealer else 8 - h for s in range(players)]
        plays = [e for e in st.events[i:] if e["type"] == "play"][: (8 - h) * players]
        assert up["card"] in {e["card"] for e in plays if e["seat"] == dealer}  # the turn-up is the dealer's
        assert up["trump"] == up["card"][-1]
        # the dealer's turn-up is the card dealt after the others': the first of the stock
        assert up["card"] == deal["stock"][0]
        take = next(e for e in st.events[i:] if e["type"] == "take" and e["to"] == "widow")
        assert take["cards"] == deal["stock"][1 : 1 + players - 2]  # N cards from the top


GAME = f"""\
title: sizes
players: {{min: 4, max: 4, {E}}}
pack: {{suits: [S, H, D, C], ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], {E}}}
orders: {{play: {{ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2], {E}}}}}
zones: {{tricks: {{per_seat: true, {E}}}, stock: {{{E}}}}}
hand:
"""


def load(tmp_path, hand):
    p = tmp_path / "g.yaml"
    p.write_text(GAME + textwrap.indent(textwrap.dedent(hand), "  "))
    return p, load_game(str(p))


def test_hand_sizes_by_seat_with_batches(tmp_path):
    _, g = load(
        tmp_path,
        f'deal: {{kind: deal, hand: "if seat == dealer then 3 else 5", batches: [2, 2, 1], rest: stock, {E}}}\n',
    )
    st = State(g, 4, 0, dealer=0, deck=[c for c in g.pack(4)], keep_events=True)
    hands = [sorted(c.name for c in h) for h in st.hand]
    assert [len(h) for h in hands] == [3, 5, 5, 5]
    # round one: two cards to each from seat 1, round two likewise, round three one card
    # to each seat that still lacks one: the dealer is full after the second card of round two
    pack = [c.name for c in g.pack(4)]
    assert hands[1] == sorted(pack[0:2] + pack[8:10] + pack[15:16])
    assert hands[0] == sorted(pack[6:8] + pack[14:15])
    assert len(st.zones["stock"]) == 52 - 18


def test_a_deal_that_does_not_fit_the_pack_is_a_located_error(tmp_path):
    p = tmp_path / "g.yaml"
    p.write_text(GAME + f'  deal: {{kind: deal, hand: "if seat == 0 then 20 else 12", {E}}}\n')
    with pytest.raises(RuleError) as e:
        load_game(str(p))
    (d,) = e.value.diagnostics
    assert d.message == "for 4 players the deal needs 56 cards, the pack has 52"
    assert d.pos.line == 7


def test_a_deal_size_read_in_play_that_does_not_fit_is_a_located_error(tmp_path):
    p, g = load(tmp_path, f"deal: {{kind: deal, hand: 10 + hand_no * 4, {E}}}\n")
    with pytest.raises(RuleError) as e:
        State(g, 4, 0)
    assert "the deal needs 56 cards for 4 players but 52 are left" in str(e.value)


def test_take_count_moves_n_cards_and_too_many_is_a_located_error(tmp_path):
    p, g = load(
        tmp_path,
        f"""\
        deal: {{kind: deal, hand: 5, rest: stock, {E}}}
        draw:
          kind: effects
          do: [{{take: {{from: stock, to: hand, count: "seat - dealer"}}, at: each, {E}}}]
          {E}
        """,
    )
    st = State(g, 4, 0, dealer=3, keep_events=True)
    assert [len(h) for h in st.hand] == [6, 7, 8, 5]  # each seat its distance from the dealer
    assert len(st.zones["stock"]) == 52 - 20 - 6
    p2 = tmp_path / "h.yaml"
    p2.write_text(p.read_text().replace('count: "seat - dealer"', "count: 40"))
    with pytest.raises(RuleError) as e:
        State(load_game(str(p2)), 4, 0)
    (d,) = e.value.diagnostics
    assert d.message == "count: 40 is 40 cards, but stock holds only 32"
    assert p2.read_text().splitlines()[d.pos.line - 1][d.pos.col - 1 :].startswith("40}")


def test_take_count_takes_from_the_cards_that_pass_the_test(tmp_path):
    _, g = load(
        tmp_path,
        f"""\
        deal: {{kind: deal, hand: 1, rest: stock, {E}}}
        draw:
          kind: effects
          do: [{{take: {{from: stock, to: hand, cards: card.suit == H, count: 2}}, at: 0, {E}}}]
          {E}
        """,
    )
    st = State(g, 4, 0, dealer=3, deck=list(g.pack(4)))
    hearts = [c.name for c in g.pack(4) if c.suit == "H"][:2]
    assert [c.name for c in st.hand[0]] == ["2S"] + hearts


def test_a_huge_deal_size_is_told_before_any_plan_is_made(tmp_path):
    p, g = load(tmp_path, f"deal: {{kind: deal, hand: hand_no * 100000000000000, {E}}}\n")
    with pytest.raises(RuleError) as e:
        State(g, 4, 0)
    assert "the deal needs 400000000000000 cards for 4 players but 52 are left" in str(e.value)


@settings(max_examples=60, deadline=None)
@given(
    sizes=hs.lists(hs.integers(0, 13), min_size=4, max_size=4).filter(lambda x: sum(x) <= 52),
    batches=hs.one_of(hs.none(), hs.integers(1, 5), hs.lists(hs.integers(1, 6), min_size=1, max_size=8)),
)
def test_a_deal_by_seat_gives_each_seat_its_size_from_the_top_of_the_pack(tmp_path_factory, sizes, batches):
    tmp = tmp_path_factory.mktemp("d")
    size = f"[{', '.join(map(str, sizes))}]"
    hand = " else ".join(f"if seat == {i} then {v}" for i, v in enumerate(sizes[:-1])) + f" else {sizes[-1]}"
    b = "" if batches is None else f"batches: {batches}, "
    p = tmp / "g.yaml"
    p.write_text(GAME + f'  deal: {{kind: deal, hand: "{hand}", {b}rest: stock, {E}}}\n')
    g = load_game(str(p))
    pack = list(g.pack(4))
    try:
        st = State(g, 4, 0, dealer=3, deck=pack)
    except RuleError as e:  # batches that do not reach the sizes: said so, at the step
        assert isinstance(batches, list) and sum(batches) < max(sizes), (size, batches)
        assert "deal fewer cards than the hands" in str(e)
        return
    assert [len(h) for h in st.hand] == sizes
    dealt = sorted(c.canon for h in st.hand for c in h)
    assert dealt == sorted(c.canon for c in pack[: sum(sizes)])  # the top of the pack, each card once
    assert [c.name for c in st.zones["stock"]] == [c.name for c in pack[sum(sizes) :]]


@pytest.mark.parametrize("players", [3, 5])
def test_the_short_loop_and_the_general_loop_play_the_same_shrinking_deals(players, monkeypatch):
    from academie.interpreter.short_loop import short_loop_fits
    from academie.interpreter.simulate import play_one

    g = load_game(CONCEPT)
    assert any(short_loop_fits(st) for st in g.steps if st.kind == "tricks")
    for seed in range(4):
        out = []
        for short in (True, False):
            monkeypatch.setattr(State, "_draw_inline", short)
            st = play_one(g, players, f"sizes/{seed}", ["random"], 50_000)
            out.append((st.standings, st.hand_results, st.stats, {k: [c.name for c in v] for k, v in st.zones.items()}))
        assert out[0] == out[1]
