"""The fixed-length numeric encoding of what one seat sees (``State.observation(seat)``), shared
by the PettingZoo adapter (its observation vector) and the OpenSpiel adapter (its observation and
information-state tensors). numpy alone; built on the public API."""

from __future__ import annotations

from typing import Any

import numpy as np

from .api import Game

__all__ = ["ObservationEncoder", "SUITS"]

SUITS = ("S", "H", "D", "C")
MAX_ACTIONS = 100_000  # action ids a game may have here (each has its place in the vectors)


def _num(v: Any) -> float:
    """A number shown to the seat, or 0 for what it is not shown ("?")."""
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0


class ObservationEncoder:
    """The fixed-length numeric encoding of `State.observation(seat)` for one game and table size.

    With C the number of card ids (actions `0 … C-1`), D the number of other action ids (`pass`
    and the declarations), P the players and Z the shared zones the game has at its start,
    the vector holds, in order (seats are relative: index 0 is the observing seat, then the next
    seats in seat order):

    - `hand` (C): the number of copies of each card in the seat's own hand (1 or 0 with one pack;
      up to the pack's copies of a card, ``pack: copies:``);
    - `trick` (C): the same for each card face up in the zone `trick`;
    - `seen` (C): the same for each card this seat sees face up this hand in any shared or per-seat
      zone (the trick, a turn-up, tricks taken, its own taken cards, …), other than its own hand;
    - `declared` (D): 1 for each of `pass`/declarations made this hand (the declarer is not kept);
    - `led`, `trump` (4 each): one-hot of the suit led and of the trump suit (S H D C), or all 0;
    - `current`, `dealer`, `leader`, `winner` (P each): one-hot of that seat, or all 0;
    - `hand_sizes`, `won` (P each): cards in each hand, tricks won this hand;
    - `balances` (P × K): each seat's holding in each of the K currencies the seats hold at the
      start (`balances`, currencies sorted by name; seat-major: the observing seat's K first);
    - `zone_counts` (Z): the number of cards in each shared zone, zones sorted by name;
    - `hand_no`, `tricks_played`, `terminal` (3).

    Every entry is 0/1 but the counts (bounded by the pack's size), `hand_no` and the balances
    (unbounded).
    """

    def __init__(self, game: Game, players: int, user: str = "the PettingZoo adapter") -> None:
        self.game = game
        self.players = players
        game.check_actions(MAX_ACTIONS, user)  # every id has its place in the vectors
        n = game.num_distinct_actions()
        card_ids: dict[str, int] = {}
        other_ids: dict[str, int] = {}
        for a in range(n):
            move = game.action_to_move(a)
            name = game.action_to_string(a)
            if isinstance(move, str):
                other_ids[name] = a
            else:
                card_ids[name] = a
        self.card_ids = card_ids
        self.other_ids = {name: i for i, name in enumerate(other_ids)}
        self.num_actions = n
        start = game.new_state(players=players, seed=0).observation(0, earlier_hands=False)
        self.zones = sorted(start["zones"])
        self.currencies = sorted({cur for seat in range(players) for cur in start["balances"].get(str(seat), {})})
        c, d, p = len(card_ids), len(other_ids), players
        gd = game.gamedef
        k = max(gd.pack_counts(players).values(), default=1) if gd.copies else 1  # copies of a card
        c_all = len(gd.pack(players)) if gd.copies else c
        blocks: list[tuple[str, int, float, float]] = [
            ("hand", c, 0, k),
            ("trick", c, 0, k),
            ("seen", c, 0, k),
            ("declared", d, 0, 1),
            ("led", 4, 0, 1),
            ("trump", 4, 0, 1),
            ("current", p, 0, 1),
            ("dealer", p, 0, 1),
            ("leader", p, 0, 1),
            ("winner", p, 0, 1),
            ("hand_sizes", p, 0, c_all),
            ("won", p, 0, c_all),
            ("balances", p * len(self.currencies), -np.inf, np.inf),
            ("zone_counts", len(self.zones), 0, c_all),
            ("hand_no", 1, 0, np.inf),
            ("tricks_played", 1, 0, c_all),
            ("terminal", 1, 0, 1),
        ]
        self.layout: dict[str, slice] = {}
        low: list[float] = []
        high: list[float] = []
        for name, size, lo, hi in blocks:
            self.layout[name] = slice(len(low), len(low) + size)
            low += [lo] * size
            high += [hi] * size
        self.size = len(low)
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)

    def _cards(self, vec: np.ndarray, block: str, names: list[str]) -> None:
        base = self.layout[block].start
        for name in names:
            if name in self.card_ids:
                vec[base + self.card_ids[name]] += 1  # a count: copies of a card (two packs) count each

    def _seat(self, vec: np.ndarray, block: str, seat: Any, me: int) -> None:
        if isinstance(seat, int) and 0 <= seat < self.players:
            vec[self.layout[block].start + (seat - me) % self.players] = 1

    def _per_seat(self, vec: np.ndarray, block: str, values: list[float], me: int) -> None:
        base = self.layout[block].start
        for seat, value in enumerate(values[: self.players]):
            vec[base + (seat - me) % self.players] = _num(value)

    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        me: int = obs["seat"]
        vec = np.zeros(self.size, dtype=np.float32)
        self._cards(vec, "hand", obs["hand"])
        zones: dict[str, Any] = obs["zones"]
        self._cards(vec, "trick", zones.get("trick", {}).get("cards", []))
        seen: list[str] = []
        for zone in zones.values():
            seen += zone["cards"]
        for per_seat in obs["seat_zones"].values():
            for zone in per_seat:
                seen += zone["cards"]
        own: dict[str, int] = {}
        for name in obs["hand"]:
            own[name] = own.get(name, 0) + 1
        others = []
        for name in seen:  # every copy seen, less as many as the seat holds
            if own.get(name):
                own[name] -= 1
            else:
                others.append(name)
        self._cards(vec, "seen", others)
        base = self.layout["declared"].start
        for name in obs["declared"]:
            if name in self.other_ids:
                vec[base + self.other_ids[name]] = 1
        for block in ("led", "trump"):
            suit = obs.get(block)
            if suit in SUITS:
                vec[self.layout[block].start + SUITS.index(suit)] = 1
        for block, key in (
            ("current", "current_player"),
            ("dealer", "dealer"),
            ("leader", "leader"),
            ("winner", "winner"),
        ):
            self._seat(vec, block, obs.get(key), me)
        self._per_seat(vec, "hand_sizes", obs["hand_sizes"], me)
        self._per_seat(vec, "won", obs.get("won") or [], me)
        balances: dict[str, dict[str, float]] = obs["balances"]
        base, k = self.layout["balances"].start, len(self.currencies)
        for seat in range(self.players):
            held = balances.get(str(seat), {})
            for j, cur in enumerate(self.currencies):
                vec[base + ((seat - me) % self.players) * k + j] = _num(held.get(cur, 0))
        base = self.layout["zone_counts"].start
        for i, zone_name in enumerate(self.zones):
            vec[base + i] = _num(zones.get(zone_name, {}).get("count", 0))
        vec[self.layout["hand_no"].start] = _num(obs.get("hand_no") or 0)
        vec[self.layout["tricks_played"].start] = _num(obs.get("tricks_played") or 0)
        vec[self.layout["terminal"].start] = 1 if obs["terminal"] else 0
        return np.clip(vec, self.low, self.high)
