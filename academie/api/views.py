"""What a seat may know of a state: the hand's public record (each event as every seat sees
it, and in full for those who saw it), ``observation`` and ``information_state_string``."""

from __future__ import annotations

import json
from typing import Any

from ..interpreter.copies import face_down, hidden_zones
from ..interpreter.visibility import FACE_UP
from .actions import _name, _plain, _shown
from .errors import InvalidSeat
from .parts import Entry as _Entry
from .parts import Parts

# the cards these events show face up; a take shows its cards when all of them were seen
_FACE_UP = FACE_UP


class Views(Parts):
    """``State``'s record of the hand and what each seat sees of it."""

    def _on_event(self, ev: dict) -> None:
        """Each event of the engine, as it happens: the hand's public record."""
        t = ev["type"]
        if t == "hand_start":
            if self._ev:
                self._earl.append(self._ev)
                self._ev = []
            self._seen_.clear()
            self._mark = (len(self._moves) + self._applying, len(self._earl))
        events = self._ev
        key = _FACE_UP.get(t)
        if key is not None:
            v = ev[key]
            if isinstance(v, list):
                self._seen_.update(v)
            else:
                self._seen_.add(v)
            events.append((ev, None, None))
        elif t == "take":
            seen = self._seen_
            filtered = ev.pop("filtered", False)  # (a copy the engine made: its log has no such key)
            if all(c in seen for c in ev["cards"]) and (
                not self.game.gamedef.copies or "from" not in ev or _seen_where(ev, self.game.gamedef)
            ):
                events.append((ev, None, None))
            else:  # cards no one saw: their number for all, the cards for the taker
                public = {k: v for k, v in ev.items() if k != "cards"}
                public["count"] = len(ev["cards"])
                if filtered:  # the first cards of the zone that pass a test, not its top ones
                    public["filtered"] = True
                events.append((public, ev["seat"], ev))
        elif t == "deal":
            public = {"type": "deal", "hand_sizes": [len(h) for h in ev["hands"]]}
            public.update({k: len(v) for k, v in ev.items() if k not in ("type", "hands")})
            events.append((public, -1, ev))  # -1: each seat sees its own hand
        elif t == "look":  # the cards of a zone not his own a seat chooses from: how many for all, which for him
            public = {k: v for k, v in ev.items() if k != "cards"}
            public["count"] = len(ev["cards"])
            events.append((public, ev["seat"], ev))
        elif t == "choose":  # a card chosen in secret: that a card was chosen, for all; which, for him
            events.append(({"type": "choose", "seat": ev["seat"]}, ev["seat"], ev))
        elif t == "deliver":  # chosen cards passed on: their number for all, the cards for both seats
            public = {k: v for k, v in ev.items() if k != "cards"}
            public["count"] = len(ev["cards"])
            both = (ev["seat"],) if ev.get("to_seat") is None else (ev["seat"], ev["to_seat"])
            events.append((public, both, ev))
        elif t == "draw_for_dealer":
            self._seen_.update(ev["cards"].values())
            events.append((ev, None, None))
        elif t == "restock":  # the cards named for all; shuffled face down, where each lies no one knows
            if ev.get("shuffled"):
                self._seen_.difference_update(ev["cards"])
            events.append((ev, None, None))
        elif t == "score":  # a counter changed: its value for the seats that may see the cell, that it changed for all
            seers = self._seers(ev)
            if seers is None:  # a declaration told with what it declares, a win with the others' (narrate.told)
                events.append((self._declared(ev), None, None))
            else:
                public = {k: v for k, v in ev.items() if k not in ("amount", "total")}
                events.append((public, seers, self._declared(ev)))
        else:
            events.append((ev, None, None))

    def _declared(self, ev: dict) -> dict:
        from ..narrate import told

        return told(ev, self.game.gamedef)

    def _seers(self, ev: dict) -> tuple | None:
        """The seats that may see the counter cell a ``score`` event is about, as ``view`` shows it
        now (interpreter/visibility.py), or None when every seat may."""
        from ..interpreter.visibility import NOTHING, sees

        name, seat = ev["counter"], ev.get("seat")
        atoms = getattr(ev, "atoms", NOTHING)  # the cell's, as the engine had them (interpreter/effects.py)
        how = self.game.gamedef.shown.get(name, "derived")
        if how == "public":
            return None
        if how == "hidden":
            return ()
        if how == "own":
            return tuple(ev.get("seats") or ([seat] if seat is not None else range(self.players)))
        if not atoms:
            return None
        return tuple(s for s in range(self.players) if sees(atoms, s, self._knows(s)))

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidSeat(f"seat {_shown(seat)}: seats are 0 to {self.players - 1}")

    def observation(self, seat: int, earlier_hands: bool = True) -> dict:
        """What ``seat`` may know, as plain data (see docs/api.md): its own
        hand, every hand's size, the cards shown face up in each other zone
        and its size, money, counters, declarations, scores, and the public
        events of the hand in progress. Never a card of another seat's hand
        that was not shown."""
        self._check_seat(seat)
        e = self.engine
        seen = self._seen
        events = _view(self._events, seat)
        if e.g.copies:  # copies of a card: a name seen face up does not say which copy lies where
            down = face_down(e)
            zones = {
                z: {"count": len(cs), "cards": [c.name for c in cs[down.get(z, 0) :] if c.name in seen]}
                for z, cs in e.zones.items()
            }
        else:
            zones = {
                z: {"count": len(cs), "cards": [c.name for c in cs if c.name in seen]} for z, cs in e.zones.items()
            }
        # copies of a card: a seat's zone that cards went into unseen shows the others its number
        # of cards only (a name seen elsewhere does not say that this copy was seen)
        unseen_into = _unseen_into(self._events) if e.g.copies else ()
        seat_zones = {
            z: [
                {
                    "count": len(cs),
                    "cards": [c.name for c in cs if s == seat or (c.name in seen and z not in unseen_into)],
                }
                for s, cs in enumerate(per)
            ]
            for z, per in e.pzones.items()
            if z != "hand"
        }
        mover = e.current_player()
        vs, pvs = e.view(seat, self._knows(seat))  # a counter worked out from cards it has not seen: "?"
        obs = {
            "game": self.game.id,
            "options": list(self.game.options),
            "players": self.players,
            "seat": seat,
            "hand": [c.name for c in e.hand[seat]],
            "hand_sizes": [len(h) for h in e.hand],
            "zones": zones,
            "seat_zones": seat_zones,
            "current_player": mover,
            "decision": e.decision_kind(),
            "legal": [_name(m) for m in e.legal_moves()] if mover == seat else [],
            "hand_no": e.hand_no,
            "dealer": e.dealer,
            "winner": e.winner,
            "leader": e.leader,
            "led": e.led,
            "trump": e.trump,
            "tricks_played": e.tricks_played,
            "won": list(e.won),
            "declared": _plain(e.declared),
            "vars": _plain(vs),
            "pvars": _plain(pvs),
            "balances": _plain(e.bal),
            "hand_results": [dict(r) for r in e.hand_results],
            "standings": [dict(r) for r in e.standings],
            "terminal": e.is_terminal(),
            "events": events,
        }
        if earlier_hands:
            obs["earlier_hands"] = [[dict(ev) for ev in hand] for hand in self._earlier_view(seat)[1]]
        return obs

    def _knows(self, seat: int) -> set:
        """The cards ``seat`` has seen in the hand in progress: its own (dealt, drawn, passed, in its
        zones now), every card shown face up, the cards of the events it saw in full."""
        e = self.__dict__.get("_e")  # None while the engine is being built (its events come first)
        names = set(self._seen)
        for public, owner, full in self._events:
            if full is None or owner is None:
                continue
            if owner == -1:
                names.update(full["hands"][seat])
            elif owner == seat or (isinstance(owner, tuple) and seat in owner):
                names.update(x for x in full.get("cards", ()) if isinstance(x, str))
        by_name = self.game._by_name
        known = {by_name[x.lower()] for x in names if x.lower() in by_name}
        if e is not None:
            for per in e.pzones.values():
                known.update(per[seat])
        return known

    def _cells_seen(self, seat: int | None, known: set | None) -> tuple | None:
        """The counter cells ``seat`` sees now (``visibility.visible_cells``), kept while no move is made."""
        from ..interpreter.visibility import visible_cells

        if seat is None:
            return None
        key = (seat, len(self._moves))
        got = getattr(self, "_cells_cache", None)
        if got is None or got[0] != key:
            e = self._e
            cells = visible_cells(e.vars, e.pvars, e.counter_atoms, self.game.gamedef.shown, seat, known)
            got = self._cells_cache = (key, cells)
        return got[1]

    def _sees_all_counters(self, seat: int) -> bool:
        """Whether ``seat`` sees every counter cell (none worked out from cards it has not seen)."""
        e = self._e
        vs, pvs = e.view(seat, self._knows(seat))
        return vs == e.vars and pvs == e.pvars

    def _earlier_view(self, seat: int) -> tuple[int, list, str]:
        """The earlier hands' events as ``seat`` saw them, and as JSON: kept, since they never change."""
        got = self._earlier_views.get(seat)
        if got is None or got[0] != len(self._earlier):
            views = (got[1] if got else []) + [_view(h, seat) for h in self._earlier[len(got[1]) if got else 0 :]]
            got = self._earlier_views[seat] = (len(self._earlier), views, _dumps(views))
        return got

    def information_state_string(self, seat: int) -> str:
        """``observation(seat)`` as a deterministic string (JSON, keys sorted)."""
        obs = self.observation(seat, earlier_hands=False)
        obs["earlier_hands"] = _SLOT  # the earlier hands' JSON is kept, not made again
        return _dumps(obs).replace(_dumps(_SLOT), self._earlier_view(seat)[2], 1)


_SLOT = "\x00earlier hands\x00"  # no event holds a NUL: the place of a JSON kept aside


def _view(entries: list[_Entry], seat: int) -> list[dict]:
    """Events as ``seat`` sees them (a deal: its own hand; a take of unseen cards: the taker)."""
    out = []
    for public, owner, full in entries:
        if owner is None:
            out.append(dict(public))
        elif owner == -1:
            out.append({**public, "hand": list(full["hands"][seat])})  # type: ignore[index]
        elif isinstance(owner, tuple):
            out.append(dict(full if seat in owner else public))  # type: ignore[arg-type]
        else:
            out.append(dict(full if owner == seat else public))  # type: ignore[arg-type]
    return out


def _seen_where(ev: dict, g: Any) -> bool:
    """Whether the cards of a ``take`` (in a game with copies, ``from`` naming the zone they left)
    were face up to every seat where they lay: not the pack, a deal's rest or a patience's stock
    (``copies.hidden_zones``), not a hand, nor a zone the event could not name ("?")."""
    src = ev["from"]
    return src != "?" and src != "hand" and src not in hidden_zones(g)


def _unseen_into(entries: list[_Entry]) -> set:
    """The zones that cards went into in the hand in progress that not every seat saw (a take, a
    card chosen or passed on, told to the others by number only)."""
    out = set()
    for public, owner, full in entries:
        if owner is not None and owner != -1 and full is not None and isinstance(full.get("to"), str):
            out.add(full["to"])
    return out


def _dumps(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
