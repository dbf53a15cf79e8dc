"""Every rule explained by its source: the events name the rule element that
acted (``rule``), the API says which follow rule refused a move, and each such
reference leads to the element's quotations or editorial note."""

import random
import re

import pytest

import academie
from academie.dsl.loader import corpus_ids
from academie.narrate import card_text
from academie.serve.explain import explain, explain_refusal, refusal

OPTIONS = {"hearts/foster": ["sweepstakes"], "polignac/boussac": ["capot"]}


def played(ref, players, seed):
    game = academie.load_game(ref)
    st = game.new_state(players=players, seed=seed, keep_events=True)
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    return game, st


@pytest.mark.parametrize("ref", corpus_ids())
def test_every_rule_an_event_names_is_cited_or_editorial(ref):
    game, st = played(ref, game_players := academie.load_game(ref).players[0], 5)
    assert game_players
    refs = [ev for ev in st.engine.events if "rule" in ev]
    # every payment names the rule that made it (a game that scores by counters may pay nothing)
    assert all("rule" in ev for ev in st.engine.events if ev["type"] == "pay")
    assert refs or not any(ev["type"] == "pay" for ev in st.engine.events)
    for ev in refs:
        got = explain(game.gamedef.doc, ev["rule"])
        assert got is not None and (got["cites"] or got["editorial"]), (ev, got)


def test_payments_and_the_end_of_a_hand_name_their_rule():
    game, st = played("enfle/academie", 4, 3)
    ev = st.engine.events
    antes = [e for e in ev if e["type"] == "pay" and e["to"] == "pot"]
    assert antes and all(e["rule"] == ["hand", "ante"] for e in antes)
    end = next(e for e in ev if e["type"] == "hand_end")
    assert end["rule"] == ["hand", "play", "end", 0]
    said = explain(game.gamedef.doc, end["rule"])
    assert said["cites"] and all(c["quote"] for c in said["cites"])
    renounce = next(e for e in ev if e["type"] == "renounce")
    assert renounce["rule"] == ["hand", "play", "cannot_follow"]
    assert "pick up all the cards played before him" in explain(game.gamedef.doc, renounce["rule"])["cites"][0]["quote"]


def test_no_rule_key_without_a_log():
    # the engine does not build events when none is kept: nothing to see, and the same game
    game = academie.load_game("enfle/academie")
    a = game.new_state(players=4, seed=9)
    b = game.new_state(players=4, seed=9, keep_events=True)
    while not a.is_terminal():
        a.apply_action(a.legal_actions()[0])
        b.apply_action(b.legal_actions()[0])
    assert a.returns() == b.returns() and a.history == b.history


def first_follow_decision(st):
    """Play the first legal move until a seat must follow and holds a card it may not play."""
    while not st.is_terminal():
        obs = st.observation(st.current_player(), earlier_hands=False)
        if obs["led"] is not None and set(obs["hand"]) - set(obs["legal"]):
            return obs
        st.apply_action(st.legal_actions()[0])
    raise AssertionError("no refused card in the whole game")


def test_a_refused_card_names_the_follow_rule_and_its_words():
    game = academie.load_game("hearts/foster")
    st = game.new_state(players=4, seed=1)
    obs = first_follow_decision(st)
    bad = sorted(set(obs["hand"]) - set(obs["legal"]))[0]
    why = st.why_illegal(bad)
    assert why["rule"] == ["hand", "play", "follow", "must", 0]
    assert why["test"] == "card.suit == led" and why["tier"] == 0
    assert why["legal"] == obs["legal"] and why["move"] == bad
    assert st.why_illegal(obs["legal"][0]) is None
    said = explain_refusal(game.gamedef.doc, why)
    assert said["text"] == f"{card_text(bad)} is refused: you must follow suit: play one of " + " ".join(
        card_text(c) for c in obs["legal"]
    )
    # the quotations of the duty to follow, not of the exception ("If a player has none of the suit led,
    # he may discard anything he pleases"), which the follow rule's own cite holds
    quotes = [c["quote"] for c in said["explained"]["cites"]]
    assert quotes and all("must follow suit" in q for q in quotes), quotes
    assert st.follow_rule() == {k: why[k] for k in ("rule", "test", "tier")}
    with pytest.raises(academie.UnknownAction):
        st.why_illegal("ZZ")


def test_no_follow_rule_at_the_lead_of_a_game_without_a_lead_rule():
    game = academie.load_game("enfle/academie")
    st = game.new_state(players=4, seed=1)
    assert st.observation(st.current_player())["led"] is None
    assert st.follow_rule() is None


def test_an_old_or_edited_rule_reference_explains_nothing():
    doc = academie.load_game("enfle/academie").gamedef.doc
    for bad in (None, "hand.play", [], [{"x": 1}], 3):
        assert explain(doc, bad) is None


def test_a_copy_says_the_same_why():
    game = academie.load_game("hearts/foster")
    st = game.new_state(players=4, seed=1, keep_events=True)
    obs = first_follow_decision(st)
    bad = sorted(set(obs["hand"]) - set(obs["legal"]))[0]
    copy = st.clone()
    assert copy.why_illegal(bad) == st.why_illegal(bad)
    rng = random.Random(2)
    while not st.is_terminal():  # and the same events, rule keys included, from there on
        a = rng.choice(st.legal_actions())
        st.apply_action(a)
        copy.apply_action(a)
    assert copy.engine.events == st.engine.events
    assert any("rule" in ev for ev in st.engine.events[-20:])


def _refused_cards(cid: str, tries: int = 6):
    """Some decisions of ``cid``'s game where a card of the hand is refused by the follow or lead rule:
    (state, the refused card), found by random play."""
    game = academie.load_game(cid)
    players = min(max(4, game.players[0]), game.players[1])
    found = []
    for seed in range(tries):
        st = game.new_state(players=players, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and len(found) < 3 * (seed + 1):
            p = st.current_player()
            if st.follow_rule() is not None:
                obs = st.observation(p, earlier_hands=False)
                bad = sorted(set(obs["hand"]) - set(obs["legal"]))
                if bad:
                    found.append((st.clone(), bad[0]))
                    break
            st.apply_action(rng.choice(st.legal_actions()))
    return found


# what no explanation of a refusal may hold: the rule's expression
CODE = re.compile(r"==|!=|<=|>=|\bcard\.|\b[a-z_]+\.(suit|rank|colour)\b|\b[a-z_]+\(|[()]")


@pytest.mark.parametrize("cid", corpus_ids())
def test_a_refused_card_is_explained_in_words_in_every_game(cid):
    """For every corpus game with a follow or lead rule: a refused card is explained by the duty that
    refuses it, in words, naming the legal cards, with the quotations of that duty; the same words for
    the terminal, the web page and the API's IllegalMove."""
    refused = _refused_cards(cid)
    game = academie.load_game(cid)
    rules = game.gamedef.doc.data.get("hand") or {}
    has_follow = any(isinstance(s, dict) and (s.get("follow") or {}).get("must") for s in rules.values())
    if not refused:
        assert not has_follow, f"{cid}: no refused card found in random play"
        pytest.skip(f"{cid}: no follow or lead rule refuses a card")
    for st, bad in refused:
        why = st.why_illegal(bad)
        said = refusal(game.gamedef.doc, why, card=str)
        text = said["text"]
        assert not CODE.search(text.split(": play one of")[0]), text
        assert text.startswith(f"{bad} is refused: you must") or "may lead only" in text, text
        assert text.endswith("play one of " + " ".join(why["legal"])), text
        assert said["cites"] and all(c["quote"] for c in said["cites"]), (cid, said)
        web = explain_refusal(game.gamedef.doc, why)
        assert web["text"] == refusal(game.gamedef.doc, why)["text"]
        with pytest.raises(academie.IllegalMove) as err:
            st.apply(bad)
        assert said["duty"] in str(err.value) and not CODE.search(str(err.value).split(" (legal:")[0])
