"""What the page of ``academie serve`` shows of a table (``Views``, the part of ``app.Server``
that answers with a table as a seat sees it): the hand, the legal moves, the seats, the
counters in the game's words, the events in words with the rule that acted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..asking import question
from ..narrate import card_text, counter_word, narrate, value_text
from .events import plays_of
from .explain import explain

if TYPE_CHECKING:
    from .app import Table


class Views:
    # -- what the page shows --------------------------------------------------------
    def _explain(self, t: Table, path: Any) -> dict | None:
        k = repr(path)
        if k not in t.explained:
            t.explained[k] = explain(t.state.game.gamedef.doc, path)
        return t.explained[k]

    def view(self, token: str, t: Table, mine: int | None) -> dict:
        """The table as the seat of ``token`` sees it (``mine``; None: the human to move, hot seat)."""
        with t.lock:
            try:
                v = self._view(token, t, mine)
            except Exception:
                if t.fault is None:
                    raise
                v = self._ended(token, t, mine)  # the fault left the table in no state to be shown
            v["thinking"] = t.thinking or t.searching_seat() is not None
            v["hotseat"] = t.hotseat
            v["fault"] = t.fault
            if t.fault is not None:
                v["terminal"] = True
                v["legal"] = []
                v["hand"] = [{**c, "legal": False} for c in v["hand"]]
            return v

    def _ended(self, token: str, t: Table, mine: int | None) -> dict:
        n = len(t.agents)
        return {
            "id": token,
            "game": {"id": t.entry.id, "title": t.entry.title, "options": list(t.state.game.options), "seed": t.seed},
            "players": n,
            "seat": mine if mine is not None else 0,
            "agents": t.agents,
            "hand": [],
            "legal": [],
            "decision": None,
            "current_player": None,
            "hand_no": 0,
            "led": None,
            "trump": None,
            "trick": [],
            "last_trick": None,
            "seats": [],
            "pools": {},
            "zones": {},
            "counters": {},
            "standings": [],
            "hand_results": [],
            "terminal": True,
            "log": [],
        }

    def _view(self, gid: str, t: Table, mine: int | None) -> dict:
        st = t.state
        humans = [s for s, a in enumerate(t.agents) if a == "human"]
        mover = st.current_player()
        if mine is not None:
            seat = mine
        else:  # hot seat (or no human seat): the human to move, else the first human
            seat = mover if mover is not None and t.agents[mover] == "human" else (humans[0] if humans else 0)
        obs = st.observation(seat)
        hands = obs["earlier_hands"] + [obs["events"]]
        log = []
        you = {seat} if mine is not None else set(humans)
        lowest = bool((st.game.gamedef.dealer_draw or {}).get("lowest", True))  # as the interpreter reads it
        for hand in hands[-3:]:
            for ev in hand:
                line = narrate(ev, you=you, draw_lowest=lowest)
                if line is not None:
                    rule = self._explain(t, ev["rule"]) if "rule" in ev else None
                    log.append({**line.as_dict(), "rule": rule})
        current, last = plays_of(obs["events"])
        units = sorted({u for b in obs["balances"].values() for u in b})
        seats = []
        for s in range(st.players):
            bal = obs["balances"].get(str(s), {})
            seats.append(
                {
                    "seat": s,
                    "agent": t.agents[s],
                    "hand_size": obs["hand_sizes"][s],
                    "won": obs["won"][s],
                    "money": {u: bal.get(u, 0) for u in units},
                    "counters": counters_shown(obs["pvars"], st.game.gamedef, s),
                    "to_move": s == mover,
                    "dealer": s == obs["dealer"],
                }
            )
        pools = {h: b for h, b in obs["balances"].items() if not h.isdigit()}
        zones = {
            z: {"count": v["count"], "cards": [card_text(c) for c in v["cards"]]}
            for z, v in obs["zones"].items()
            if z not in ("pack", "trick") and v["count"]
        }
        legal = obs["legal"] if t.agents[seat] == "human" and seat == mover else []
        asked = question(st.engine) if legal else None  # a choice asked in words (not a card to play)
        return {
            "id": gid,
            "game": {"id": t.entry.id, "title": t.entry.title, "options": list(st.game.options), "seed": t.seed},
            "players": st.players,
            "seat": seat,
            "agents": t.agents,
            "hand": [{"card": c, "text": card_text(c), "legal": c in legal} for c in obs["hand"]],
            "legal": [{"move": m, "text": (asked or {}).get("answers", {}).get(m) or card_text(m)} for m in legal],
            "question": asked and {**asked, "rule": self._explain(t, asked["rule"])},  # why: the rule that asks
            "decision": obs["decision"],
            "current_player": mover,
            "hand_no": obs["hand_no"],
            "led": obs["led"],
            "trump": obs["trump"],
            "trick": current,
            "last_trick": last,
            "seats": seats,
            "pools": pools,
            "zones": zones,
            "counters": counters_shown(obs["vars"], st.game.gamedef, None),
            "standings": obs["standings"],
            "hand_results": obs["hand_results"],
            "terminal": obs["terminal"],
            "log": log[-200:],
        }


def counters_shown(values: dict, g: Any, seat: int | None) -> dict:
    """The counters a table shows, in the game's words (``label:``), their values in words: no
    working value (``shown: hidden``), no name of the rule file's expressions, no ``None``."""
    out = {}
    for k, v in values.items():
        if g.shown.get(k) == "hidden":
            continue
        if seat is not None:
            if not isinstance(v, list):
                continue
            v = v[seat]
        out[counter_word(k, g.labels.get(k))] = value_text(v)
    return out
