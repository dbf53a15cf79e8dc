"""dsl/model.py: a resolved rule file compiled into a GameDef — the pack for each number of
players, the orders, the deal plans — and each check the model makes, with its message and the
place in the file it points to. All the problems of a file are reported together."""

from pathlib import Path

import pytest

from academie.dsl.cards import card
from academie.dsl.errors import RuleError
from academie.dsl.loader import resolve
from academie.dsl.model import compile_doc, deal_plan, load_game

BASE = (Path(__file__).parent / "concepts" / "trumps.yaml").read_text()
E = "editorial: {reason: r, evidence: e}"


def compile_text(tmp_path, text):
    p = tmp_path / "game.yaml"
    p.write_text(text)
    return compile_doc(resolve(p))


def line_of(text, needle, nth=0):
    """The 1-based line of the nth line of ``text`` holding ``needle``."""
    return [i for i, ln in enumerate(text.splitlines(), 1) if needle in ln][nth]


def problems(tmp_path, text):
    with pytest.raises(RuleError) as e:
        compile_text(tmp_path, text)
    return [(d.pos.line, d.message, d.code) for d in e.value.diagnostics]


# -- what a rule file compiles to ---------------------------------------------------------


def test_a_rule_file_compiles_to_its_game(tmp_path):
    g = compile_text(tmp_path, BASE)
    assert (g.min_players, g.max_players) == (2, 2)
    assert g.suits == ["S", "H", "D"] and g.ranks == ["9", "10", "J", "Q", "K", "A"]
    assert [st.name for st in g.steps] == ["deal", "turnup", "play"]
    assert [st.kind for st in g.steps] == ["deal", "turnup", "tricks"]
    assert g.steps[2].won_to == "tricks" and len(g.steps[2].winner_key) == 5
    assert "tricks" in g.seat_zones and {"turnup", "talon"} <= set(g.zones)
    assert g.direction == "clockwise"


def test_an_order_is_written_highest_first_and_ranks_every_suit(tmp_path):
    play = compile_text(tmp_path, BASE).orders["play"]
    assert play[card("AS")] > play[card("KS")] > play[card("9S")]
    assert play[card("AH")] == play[card("AS")] and play[card("AC")] == play[card("AS")]


def test_the_pack_for_a_number_of_players_applies_the_removals_that_hold(tmp_path):
    text = BASE.replace("players: {min: 2, max: 2,", "players: {min: 2, max: 3,").replace(
        "  ranks: [9, 10, J, Q, K, A]\n",
        "  ranks: [9, 10, J, Q, K, A]\n  remove:\n"
        f"    - {{when: players == 3, cards: card.rank == 9 and card.suit != S, {E}}}\n",
    )
    text = text.replace("hand: 4, batches: 1", "hand: {2: 4, 3: 3}, batches: 1")
    g = compile_text(tmp_path, text)
    assert len(g.pack(2)) == 18
    three = g.pack(3)
    assert len(three) == 16 and card("9S") in three and card("9H") not in three
    assert three == sorted(three, key=lambda c: c.canon)  # in the notation order
    g.pack(3).clear()
    assert len(g.pack(3)) == 16  # each call gives a fresh list


def test_a_deal_plan_gives_cards_per_hand_and_batches(tmp_path):
    text = BASE.replace("hand: 4, batches: 1", "hand: {2: 5}, batches: {2: [2, 3]}, rest: talon")
    deal = compile_text(tmp_path, text).steps[0]
    assert deal_plan(deal, 2) == (5, [2, 3], None)
    assert deal_plan(deal, 3) == (None, [], None)  # no entry for three players
    base = compile_text(tmp_path, BASE.replace("hand: 4, batches: 1", "hand: 5, batches: 2")).steps[0]
    assert deal_plan(base, 2) == (5, [2, 2, 1], None)  # batches of two, the last one short


def test_options_change_the_compiled_game():
    plain, capot = load_game("polignac/boussac"), load_game("polignac/boussac", ["capot"])
    assert capot.options == ["capot"] and plain.options == []
    assert not any(st.kind == "announce" for st in plain.steps)
    announce = next(st for st in capot.steps if st.kind == "announce")
    assert announce.declarations == list(capot.declarations)


def test_an_expression_is_compiled_with_the_place_it_was_written(tmp_path):
    g = compile_text(tmp_path, BASE)
    leader = g.steps[2].leader
    assert leader.text == "dealer + 1" and leader.kind == "seat"
    assert leader.pos.line == line_of(BASE, "leader: dealer + 1") and leader.pos.col == len("    leader: ") + 1


# -- the checks: message and place --------------------------------------------------------------


@pytest.mark.parametrize(
    "old,new,needle,message,code",
    [
        (
            "  talon: {editorial:",
            "  hand: {per_seat: true, editorial: {reason: r, evidence: e}}\n  talon: {editorial:",
            "  hand: {per_seat",
            "'hand' is built in: every game has it already",
            "model",
        ),
        ("[A, K, Q, J, 10, 9]", "[A, K, Q, J, 10, K]", "  play: {ranks:", "order 'play' lists K twice", "model"),
        (
            "players: {min: 2, max: 2,",
            "players: {min: 3, max: 2,",
            "players:",
            "players: min 3 is more than max 2",
            "model",
        ),
        (
            "  ranks: [9, 10, J, Q, K, A]\n",
            f"  ranks: [9, 10, J, Q, K, A]\n  remove: [{{when: dealer == 0, cards: card.rank == 9, {E}}}]\n",
            "remove:",
            "the pack is made before any game is played: a removal can only depend on the number of players and the "
            "card, not on dealer",
            "model",
        ),
        (
            "hand: 4, batches: 1",
            "hand: 10, batches: 1",
            "hand: 10",
            "for 2 players the deal needs 20 cards, the pack has 18",
            "arithmetic",
        ),
        (
            "hand: 4, batches: 1",
            "hand: 4, batches: {2: [1, 2]}",
            "hand: 4",
            "for 2 players the batches 1-2 deal 3 cards, but a hand is 4",
            "model",
        ),
        ("won_to: tricks", "won_to: pile", "won_to:", "'pile' is not a zone", "model"),
        ("leader: dealer + 1", "leader: card.suit == led", "leader:", "'card' is not defined here", "expression"),
        ("leader: dealer + 1", "leader: trump", "leader:", "'trump' gives a suit, but", "expression"),
        ("rest: talon,", "rest: tricks,", "kind: turnup", "'tricks' is not a shared zone", "model"),
    ],
)
def test_each_check_says_what_is_wrong_at_its_place(tmp_path, old, new, needle, message, code):
    assert BASE.count(old) == 1
    text = BASE.replace(old, new)
    found = problems(tmp_path, text)
    hits = [(line, m, c) for line, m, c in found if message in m]
    assert hits, found
    line, _, c = hits[0]
    assert c == code
    assert line == line_of(text, needle), (line, text.splitlines()[line - 1])


def test_a_declaration_with_max_above_one_is_refused_at_its_max(tmp_path):
    """The announce step lets each declaration be made once a hand, by one seat: a max of 2 would
    promise what no game would do, so it is refused where it is written."""
    text = BASE.replace("hand:\n", f"declarations:\n  slam: {{max: 2, {E}}}\nhand:\n", 1)
    (found,) = [p for p in problems(tmp_path, text) if "declaration" in p[1]]
    assert found == (
        line_of(text, "slam: {max: 2"),
        "declaration 'slam' has max: 2, but a declaration is made "
        "at most once a hand (by one seat): only max: 1 is supported",
        "declaration",
    )
    ok = compile_text(
        tmp_path, BASE.replace("hand:\n", f"declarations:\n  slam: {{max: 1, {E}}}\n  dare: {{{E}}}\nhand:\n", 1)
    )
    assert ok.declarations == {"slam": 1, "dare": 1}


def test_an_announce_step_names_only_declared_declarations(tmp_path):
    text = BASE.replace(
        "  play:\n    kind: tricks", f"  bid: {{kind: announce, declarations: [slma], {E}}}\n  play:\n    kind: tricks"
    )
    text = text.replace("hand:\n", f"declarations:\n  slam: {{{E}}}\nhand:\n", 1)
    assert (line_of(text, "kind: announce"), "'slma' is not declared under declarations:", "model") in problems(
        tmp_path, text
    )


def test_money_checks_name_the_currencies(tmp_path):
    text = BASE.replace("zones:\n", f"zones:\n  pot: {{money: true, {E}}}\n", 1)
    text = text.replace("hand:\n", f"money:\n  currencies:\n    chip: {{{E}}}\nhand:\n", 1)
    text = text.replace(
        "  play:\n    kind: tricks",
        f"  ante: {{kind: pay, from: each, to: pot, amount: -1, unit: chip, {E}}}\n"
        f"  tax: {{kind: pay, from: each, to: pot, amount: 1, unit: chips, {E}}}\n"
        "  play:\n    kind: tricks",
    )
    found = problems(tmp_path, text)
    assert (
        line_of(text, "ante: {kind: pay"),
        "an amount paid is not negative (-1): swap from: and to:",
        "model",
    ) in found
    assert (line_of(text, "tax: {kind: pay"), "unknown currency 'chips' (currencies: chip)", "model") in found


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    text = BASE.replace("won_to: tricks", "won_to: pile").replace("[A, K, Q, J, 10, 9]", "[A, K, Q, J, 10, K]")
    found = problems(tmp_path, text)
    assert len(found) >= 2
    assert any("'pile' is not a zone" in m for _, m, _ in found)
    assert any("order 'play' lists K twice" in m for _, m, _ in found)
