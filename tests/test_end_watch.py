"""End tests after each card that read only counters (Piquet's ``score(seat) + tally(seat) >=
game_points``) are not tested again in the short loop after a card whose effects changed none of
the counters they read: the effects after a card, generated as one function, say whether one
may have changed (``effects.build_watcher``), and the games are the same as the general loop's
(``tests/test_short_loop.py``)."""

from academie.dsl.model import load_game
from academie.interpreter.simulate import play_one
from academie.interpreter.state import State


def _watching(monkeypatch):
    """Count the end scans and the cards after which the watched effects ran, checking that a
    card said to change nothing watched changed no counter."""
    seen = {"scans": 0, "cards": 0, "quiet": 0}
    real_scan, real_watch = State._end_scan, State._on_play_watched

    def scan(self, st, end_play):
        f = real_scan(self, st, end_play)
        if f is None:
            return None

        def counted(state, mover):
            seen["scans"] += 1
            return f(state, mover)

        return counted

    def watch(self, st, end_play):
        run = real_watch(self, st, end_play)
        if run is None:
            return None
        names = {n for r in end_play for n in r.when.names} - {"seat"}

        def checked(state, seat):
            before = {k: list(state.pvars[k]) if k in state.pvars else state.vars[k] for k in names}
            changed = run(state, seat)
            after = {k: list(state.pvars[k]) if k in state.pvars else state.vars[k] for k in names}
            seen["cards"] += 1
            if not changed:
                seen["quiet"] += 1
                assert before == after
            return changed

        return checked

    monkeypatch.setattr(State, "_end_scan", scan)
    monkeypatch.setattr(State, "_on_play_watched", watch)
    return seen


def test_piquet_end_test_not_tested_after_a_card_that_changed_no_counter(monkeypatch):
    seen = _watching(monkeypatch)
    game = load_game("piquet/hoyle")
    for seed in range(20):
        play_one(game, 2, f"watch/{seed}", ["random"], 50_000)
    assert seen["cards"] > 1000
    assert 0 < seen["quiet"] < seen["cards"]
    # the end test runs after the cards that may have changed a score or a tally, and after the
    # first card of each trick (the effects after a trick may have): about half the cards, not all
    assert seen["scans"] < 0.7 * seen["cards"]


def test_a_watch_only_where_every_effect_after_a_card_sets_counters():
    from academie.interpreter.effects import build_watcher

    game = load_game("piquet/hoyle")
    play = next(st for st in game.steps if st.kind == "tricks")
    assert build_watcher(play.on_play, frozenset({"tally"})) is not None
    take = next(st for st in game.steps if st.name == "elder_draw")
    assert build_watcher(take.effects, frozenset({"tally"})) is None
