"""What a seat sees never depends on the cards it has not seen, counters included.

For every corpus game and option: seeded random games on a stacked deck; at decisions of the first
hand, for each seat, the cards the seat has not seen (neither in its hand nor ever shown to it:
every card its own view names is one it has seen) are exchanged among their places in the deck,
and the same moves played again (a move of a card the seat never saw is made with the card put in
its place; an exchange in which a move is refused is skipped). The seat's observation and
information-state string are the same in both games: a counter worked out from another seat's
hand (Quadrille's partner, Whist's honours, Piquet's point) is not shown before the cards it was
worked out from are.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import academie
from academie.api import ApiError
from academie.dsl.cards import parse_card
from academie.dsl.loader import corpus_ids, resolve
from academie.interpreter.worlds import place


def _variants():
    for cid in corpus_ids():
        if resolve(cid).data.get("abstract"):
            continue
        yield cid
        for opt in resolve(cid).data.get("options") or {}:
            yield f"{cid}+{opt}"


def _names(v, out: set) -> set:
    """Every card named anywhere in ``v`` (an observation)."""
    if isinstance(v, str):
        if parse_card(v) is not None:
            out.add(v)
    elif isinstance(v, dict):
        for k, x in v.items():
            _names(k, out)
            _names(x, out)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _names(x, out)
    return out


def _replay(game, n: int, deck: list, moves: list, sigma: dict):
    """The game on ``deck`` with ``moves`` made again (cards renamed by ``sigma``), or None if one is refused."""
    st = game.new_state(players=n, seed=0, dealer=0, deck=deck)
    for m in moves:
        try:
            st.apply(sigma.get(m, m))
        except ApiError:
            return None
    return st


def _view(state, seat: int) -> tuple:
    """What ``seat`` sees, but the counters the rule file shows to all (``shown: public``: the
    rules make them public, as a count a player says aloud)."""
    obs = state.observation(seat)
    public = {k for k, v in state.game.gamedef.shown.items() if v == "public"}
    if not public:
        return json.dumps(obs, sort_keys=True), state.information_state_string(seat)
    for key in ("vars", "pvars"):
        obs[key] = {k: v for k, v in obs[key].items() if k not in public}
    return json.dumps(obs, sort_keys=True), None


def assert_names_only_seen(state, public: dict[str, str]) -> None:
    """What each seat is shown names only the cards it holds or held (dealt it, taken by it) and
    the cards shown face up to all: those of the events of the types in ``public`` (the event's
    key that names them, one card or a list). For the shedding and asking peers' games."""
    e = state.engine
    shown_to_all: set = set()
    own: list[set] = [set() for _ in range(e.n)]
    for ev in e.events:
        key = public.get(ev["type"])
        if key is not None:
            v = ev[key]
            shown_to_all.update(v if isinstance(v, list) else [v])
        elif ev["type"] == "deal":
            for s, h in enumerate(ev["hands"]):
                own[s].update(h)
        elif ev["type"] == "take":
            own[ev["seat"]].update(ev["cards"])
    names = {c.name for c in e.pack_cards}
    for seat in range(e.n):
        shown = _names(state.observation(seat), set()) & names
        assert shown <= shown_to_all | own[seat], (seat, shown - shown_to_all - own[seat])


def counterfactuals(ref: str, n: int, seed: int, points: int = 4, draws: int = 2):
    """(real state, counterfactual state, seat) at decisions of the first hand of a seeded game."""
    game = academie.load_game(ref)
    # a file named by its path draws the same wherever the tree is checked out
    key = Path(ref).name if ".yaml" in ref else ref
    rng = random.Random(f"{key}:{n}:{seed}")
    probe = game.new_state(players=n, seed=seed)
    deck = list(probe.engine.pack_cards)
    rng.shuffle(deck)
    state = game.new_state(players=n, seed=0, dealer=0, deck=deck)
    moves: list = []
    # the decisions of the first hand, then a few of them picked
    first: list[int] = []
    walk = state.clone()
    while not walk.is_terminal() and walk.hand_no == 1 and len(first) < 400:
        first.append(len(moves))
        m = rng.choice(walk.legal_moves())
        moves.append(m)
        walk.apply(m)
    if walk.is_terminal():  # a game of one hand: its end too
        first.append(len(moves))
    picks = sorted(rng.sample(first, min(points, len(first))))
    for k in picks:
        real = _replay(game, n, deck, moves[:k], {})
        assert real is not None
        for seat in range(n):
            known = _names(real.observation(seat), set())
            _, groups, barred, _, _ = real._unseen(seat)  # the places of the unseen cards; the voids shown
            unseen = {c.name for _, cs in groups for c in cs}
            if game.gamedef.copies:
                # copy by copy: a copy whose twin the seat saw is unseen too; the exchange made here is
                # of names (a move names the card), among the names none of whose copies it saw
                assert unseen >= {c.name for c in deck} - known
                once: set = set()
                groups = [
                    (g, [c for c in cs if c.name not in known and not (c.name in once or once.add(c.name))])
                    for g, cs in groups
                ]
            else:
                assert unseen == {c.name for c in deck} - known
            for _ in range(draws):
                sigma = place(groups, barred, rng)
                if sigma is None:
                    continue
                other = [sigma.get(c, c) for c in deck]
                cf = _replay(game, n, other, moves[:k], sigma)
                if cf is None or cf.hand_no != real.hand_no:
                    continue
                yield real, cf, seat, k


def _public_course(state, seat: int) -> list:
    return state.observation(seat)["events"]


@pytest.mark.parametrize("ref", list(_variants()))
def test_a_seat_sees_nothing_of_the_cards_it_has_not_seen(ref):
    game = academie.load_game(ref)
    lo, hi = game.players
    tried = 0
    for n in sorted({lo, hi}):
        for seed in range(2):
            for real, cf, seat, k in counterfactuals(ref, n, seed):
                if _public_course(real, seat) != _public_course(cf, seat):
                    continue  # the rules showed something of the cards (a payment for a hand's point)
                tried += 1
                a, b = _view(real, seat), _view(cf, seat)
                if a != b:
                    x, y = json.loads(a[0]), json.loads(b[0])
                    diff = {key: (x[key], y.get(key)) for key in x if x[key] != y.get(key)}
                    pytest.fail(f"{ref}, {n} players, seed {seed}, after {k} moves, seat {seat} sees: {diff}")
    assert tried


def _first_play(ref: str, n: int, seed: int, prefer: str | None = None):
    """A game at the first card of its first hand (``prefer``: the declaration taken when offered)."""
    state = academie.load_game(ref).new_state(players=n, seed=seed)
    rng = random.Random(seed)
    while state.decision_kind() != "play":
        moves = state.legal_moves()
        state.apply(prefer if prefer in moves else rng.choice(moves))
    return state


def test_the_partner_called_is_seen_by_its_holder_and_by_the_others_once_the_king_is_played():
    state = _first_play("quadrille/hoyle", 4, 2, prefer="leave")
    e = state.engine
    ombre, partner, suit = e.vars["ombre"], e.vars["partner"], e.pvars["king"][e.vars["ombre"]]
    assert partner != ombre
    king = next(c for c in e.hand[partner] if c.rank == "K" and c.suit == suit)
    assert state.observation(partner)["vars"]["partner"] == partner
    for seat in range(4):
        if seat != partner:
            assert state.observation(seat)["vars"]["partner"] == "?"
            assert '"partner":"?"' in state.information_state_string(seat)
    rng = random.Random(0)
    while king in state.engine.hand[partner]:
        moves = state.legal_moves()
        state.apply(king if king in moves else rng.choice(moves))
    for seat in range(4):
        assert state.observation(seat)["vars"]["partner"] == partner


def test_whist_honours_each_seat_its_own_then_all_once_the_honours_are_seen():
    state = _first_play("whist/hoyle", 4, 5)
    honours = state.engine.pvars["honours"]
    for seat in range(4):
        row = state.observation(seat)["pvars"]["honours"]
        assert row[seat] == honours[seat]
        assert all(v == "?" for s, v in enumerate(row) if s != seat)
    trump = state.engine.trump
    tops = {f"{r}{trump}" for r in "AKQJ"}
    rng = random.Random(1)
    checked = 0
    while state.hand_no == 1:
        obs = state.observation(0)
        if tops <= _names(obs, set()):  # seat 0 has seen every honour: it knows how they lie
            assert obs["pvars"]["honours"] == honours
            checked += 1
        else:
            assert "?" in obs["pvars"]["honours"]
        state.apply(rng.choice(state.legal_moves()))
    assert checked


def test_piquet_point_declared_when_good_kept_when_not():
    """The point that is good is declared (shown: declared): its holder's point and count, seen by
    both; the adversary keeps his own, not good, to himself."""
    state = academie.load_game("piquet/hoyle").new_state(players=2, seed=4)
    rng = random.Random(4)
    while state.decision_kind() != "play":
        state.apply(rng.choice(state.legal_moves()))
    pt, pointv = state.engine.pvars["pt"], state.engine.pvars["pointv"]
    good = next(s for s in (0, 1) if pointv[s])  # seed 4: one point is good
    for seat in (0, 1):
        pv = state.observation(seat)["pvars"]
        assert pv["pt"][seat] == pt[seat]  # his own, always
        assert pv["pt"][good] == pt[good] and pv["pointv"][good] == pointv[good]  # declared: both see it
        if seat == good:
            assert pv["pt"][1 - seat] == "?" and pv["pointv"][1 - seat] == "?"  # not good: not declared
        # each seat's count in hand is set against the other's, but the rule file has it said aloud
        # (shown: public, "says 'twenty-nine, sixty'"): both see both
        assert state.observation(seat)["pvars"]["tally"] == state.engine.pvars["tally"]


def test_a_score_kept_from_hand_to_hand_is_seen_once_the_hand_is_over():
    state = academie.load_game("whist/hoyle").new_state(players=4, seed=3)
    rng = random.Random(3)
    while state.hand_no == 1:
        state.apply(rng.choice(state.legal_moves()))
    for seat in range(4):
        pv = state.observation(seat)["pvars"]
        # the score made of the honours of the hand that ended: seen by all (every card was played)
        assert pv["score"] == state.engine.pvars["score"]
        # the new hand's honours: each seat its own
        assert [s for s, v in enumerate(pv["honours"]) if v != "?"] == [seat]


def test_a_world_drawn_for_a_seat_holds_another_seats_hidden_counter_to_its_own_cards():
    """resample: worlds agree on what the seat sees only (the honours of the others are the world's)."""
    state = _first_play("whist/hoyle", 4, 5)
    truth = state.engine.pvars["honours"]
    seen = set()
    for draw in range(30):
        world = state.resample(0, draw)
        assert world.observation(0)["pvars"]["honours"][0] == truth[0]
        assert world.information_state_string(0) == state.information_state_string(0)
        seen.add(tuple(world.engine.pvars["honours"][1:]))
    assert len(seen) > 1  # the others' honours are not held to the true ones


SHOWN = str(Path(__file__).parent / "concepts" / "shown.yaml")


def test_a_rule_file_says_which_seats_see_a_counter():
    """shown: public (every seat), own (each its own cell), hidden (none); derived, the default, from the cards."""
    state = academie.load_game(SHOWN).new_state(players=2, seed=1)
    truth = state.engine.pvars
    for seat in (0, 1):
        other = 1 - seat
        pv = state.observation(seat)["pvars"]
        assert pv["said"] == truth["said"]  # public
        assert pv["mine"][seat] == truth["mine"][seat] and pv["mine"][other] == "?"  # own
        assert pv["work"] == ["?", "?"]  # hidden
        assert pv["hearts"][seat] == truth["hearts"][seat] and pv["hearts"][other] == "?"  # derived
        assert pv["tricks_count"] == truth["tricks_count"]  # derived from nothing hidden: public
        assert pv["told"] == truth["told"]  # read from a public counter: public
        assert pv["kept"][seat] == truth["kept"][seat] and pv["kept"][other] == "?"  # read from an own one
        assert state.observation(seat)["vars"]["flagged"] == "?"  # set or not by a step run by a hand's aces
    rng = random.Random(0)
    while not state.is_terminal():
        last = state.observation(0)["pvars"]
        state.apply(rng.choice(state.legal_moves()))
    assert last["hearts"] == truth["hearts"]  # every card seen by the last card: derived, seen by all
    assert last["mine"][1] == "?" and last["work"] == ["?", "?"]
    assert state.observation(0)["vars"]["flagged"] == state.engine.vars["flagged"]


def test_validate_warns_of_a_counter_shown_to_all_that_is_read_from_a_hand():
    from academie.validate import validate

    report = validate([SHOWN], playouts=0)
    warned = [d for d in report.diagnostics if d.code == "shown"]
    assert len(warned) == 1 and "'said' is shown: public" in warned[0].message
    assert warned[0].severity == "warning" and warned[0].pos.line == 19
