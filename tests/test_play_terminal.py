"""The human player at the terminal (``play --agents human,…``): the table
before each move (hand sizes, tricks, money, who played which card), cards
written the same way in the hand, the trick and the moves, an entry that is
no move answered with why and the moves again, and Ctrl-D not blamed on the
rule file."""

import re

from click.testing import CliRunner

from academie.cli import main

ARGS = ["play", "hearts/foster", "-p", "4", "--agents", "human,random,random,random", "-s", "3"]


def play(stdin: str):
    r = CliRunner().invoke(main, ARGS, input=stdin, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def first_prompt(out: str) -> str:
    return out[out.index("— your move") : out.index("your move: ")]


def test_the_table_before_a_move():
    code, out, _ = play("1\n")
    table = first_prompt(out)
    for s in range(4):  # every seat's hand size, tricks and money
        assert re.search(rf"seat {s}( \(you\))?\s+1[23] cards in hand, 0 tricks, 50 counters", table), table
    assert "the pool: 0 counters" in table
    assert re.search(r"trick: +seat 1 \S+, seat 2 \S+, seat 3 \S+", table), table  # who played which card


def test_cards_are_written_alike_in_the_hand_the_trick_and_the_moves():
    _, out, _ = play("1\n")
    table = first_prompt(out)
    hand = re.search(r"your hand: +(.*)", table).group(1).split()
    moves = re.findall(r"\[\d+\] (\S+)", table)
    trick = re.findall(r"seat \d (\S+?)(?:,|$)", re.search(r"trick: +(.*)", table).group(1))
    assert moves and set(moves) <= set(hand)
    symbols = re.compile(r"^(10|[2-9JQKA])[♠♥♦♣]$")
    assert all(symbols.match(c) for c in hand + moves + trick), (hand, moves, trick)


def test_a_bad_entry_says_why_and_shows_the_moves_again():
    code, out, err = play("zz\n9\nAS\n1\n")
    assert code == 2  # the input then ends: abandoned
    after = out[out.index("your move: ") :]
    assert "'zz' is neither the number of a move nor a card" in after
    assert "9 is not the number of a move: choose 1 to 3" in after
    # a card of the hand that the follow rule refuses: that rule in words, and the source's words for
    # the duty (not the exception, "Holding no card of suit led, player may discard …")
    assert "A♠ is refused: you must follow suit: play one of 2♣ 8♣ Q♣" in after
    assert (
        '§ "Eldest hand leads any card and each succeeding player in turn to the left must follow suit if possible."'
        in after
    )
    assert "Holding no card of suit led" not in after and "card.suit" not in after
    assert after.count("moves:") == 4  # listed again after each refusal


def test_end_of_input_abandons_without_blaming_the_rule_file():
    code, out, err = play("")
    assert code == 2
    assert "standard input ended before seat 0 chose a move" in err
    assert "rule" not in err and "internal error" not in err and ".yaml" not in err


def test_why_at_the_prompt_gives_the_rules_behind_the_moves():
    code, out, _ = play("why\n1\n")
    after = out[out.index("your move: ") :]
    assert "why: the rules behind these moves" in first_prompt(out) + after[:200]
    # the follow rule that limits the moves: its path and its sources' words, by source id
    assert "these moves: the follow rule: you must follow suit" in after
    assert "§ hand.play.follow.must.0" in after
    assert (
        '"Eldest hand leads any card and each succeeding player in turn to the left must follow suit if possible." (hoyle-1913)'
        in after
    )
    # the last rule that acted: the counters each player began with
    assert "the last rule that acted:" in after and "§ money.start.0.give" in after
    assert "seat 0 (you) plays 2♣" in after  # then the move is played


PIQUET = ["play", "piquet/hoyle", "--agents", "human,random", "-s", "1"]


def test_a_choice_of_cards_is_picked_marked_taken_back_and_confirmed():
    """The younger hand's discard at Piquet: how many and where, the cards picked marked, one taken
    back by entering it again, and nothing sent to the engine until done confirms."""
    r = CliRunner().invoke(main, PIQUET, input="1\n3\n1\ndone\n", catch_exceptions=False)
    out = r.stdout
    ask = out[out.index("— your move") :]
    assert "Choose up to 7 cards to go to your discards." in ask
    assert "[1] 7♠ (picked)" in ask and "picked:       7♠ J♠ (2 of 7)" in ask
    assert "7♠ taken back" in ask
    after = ask[ask.index("7♠ taken back") :]
    assert "[1] 7♠  [2] 9♠  [3] J♠ (picked)" in after
    # only the card left picked is chosen, once done is entered
    assert "seat 0 (you) chooses J♠" in out and "chooses 7♠" not in out
    assert "seat 0 (you) puts J♠ into his discards" in out


def test_a_choice_of_cards_holds_to_its_bounds_before_it_is_sent():
    # the elder hand (seat 1 deals first at seed 4) must lay out one card at least
    r = CliRunner().invoke(main, [*PIQUET[:-1], "4"], input="done\n1\n2\n3\n4\n5\n6\ndone\n", catch_exceptions=False)
    out = r.stdout
    assert "Choose 1 to 5 cards to go to your discards." in out, out[:1500]
    assert "choose at least 1 card before done (0 picked)" in out
    assert "no more than 5 cards may be chosen: take one back first" in out
    assert out.count("seat 0 (you) chooses") == 5
