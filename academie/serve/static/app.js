// academie serve: the page's script. Every text from the server goes in with
// textContent (never as HTML): a rule file's words are shown, never run.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let games = [];
  let view = null;
  // the secret of this browser's seat (or of the whole table, hot seat): in the page's address
  // after "#t=", never sent as a referrer nor kept in a server's log
  let token = null;
  let revealed = null; // hot seat: the seat whose hand its owner has shown
  let poll = null; // the timer asking for the table while others (a search player, a person) play
  let staged = []; // a choice of cards: the cards picked, not yet sent (each may be taken back)
  let sending = false;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k.startsWith("data-")) e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.append(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return e;
  }

  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const suit = (s) => SUITS[s] || s;

  function suitClass(text) {
    return /[♥♦]/.test(text) ? "card red" : "card";
  }

  async function call(method, url, body) {
    const r = await fetch(url, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }

  // -- the set-up form ---------------------------------------------------------------
  function fillSetup() {
    const g = games[Number($("game").value)];
    if (!g) return;
    const opts = $("options");
    opts.replaceChildren(el("legend", {}, "Options"));
    if (!g.options.length) opts.append(el("span", { class: "small" }, "none"));
    for (const o of g.options) {
      const box = el("input", { type: "checkbox", value: o.name, name: "option" });
      opts.append(el("label", { class: "option", title: o.description }, box, " " + o.name));
    }
    const p = $("players");
    p.min = g.players[0];
    p.max = g.players[1];
    const n = Math.min(Math.max(Number(p.value) || g.players[0], g.players[0]), g.players[1]);
    p.value = n;
    fillSeats();
  }

  function fillSeats() {
    const g = games[Number($("game").value)];
    const n = Number($("players").value);
    const box = $("seats");
    const before = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren(el("legend", {}, "Who sits where"));
    for (let s = 0; s < n; s++) {
      const sel = el("select", { name: "seat", id: "seat-" + s });
      for (const a of ["human", "random", "first", "ismcts", "mc"]) {
        sel.append(el("option", { value: a }, a === "human" ? "you" : a === "ismcts" ? "ismcts (search)" : a === "mc" ? "mc (search)" : a));
      }
      sel.value = before[s] || (s === 0 ? "human" : "random");
      box.append(el("label", { class: "seat-choice" }, "seat " + s + " ", sel));
    }
    if (g && (n < g.players[0] || n > g.players[1])) {
      $("setup-error").textContent = g.id + " is for " + g.players[0] + " to " + g.players[1] + " players.";
    } else {
      $("setup-error").textContent = "";
    }
  }

  async function start(ev) {
    ev.preventDefault();
    $("setup-error").textContent = "";
    const body = {
      game: Number($("game").value),
      options: [...document.querySelectorAll("input[name=option]:checked")].map((b) => b.value),
      players: Number($("players").value),
      seats: [...document.querySelectorAll("#seats select")].map((s) => s.value),
      seed: $("seed").value,
      hotseat: $("hotseat").checked,
    };
    try {
      const v = await call("POST", "/api/new", body);
      token = v.id;
      revealed = null;
      history.replaceState(null, "", "#t=" + token);
      showLinks(v.links || []);
      show(v);
      $("setup-fold").open = false; // folded away once the game starts: the table first (a phone sees its hand)
    } catch (e) {
      $("setup-error").textContent = e.message;
    }
  }

  // each other human seat's link, to be sent to its player
  function showLinks(links) {
    const box = $("links");
    box.replaceChildren();
    box.hidden = !links.length;
    if (!links.length) return;
    box.append(el("p", {}, "Send each person their own link: it shows their hand alone and lets them play their seat."));
    for (const l of links) {
      const url = location.origin + location.pathname + "#t=" + l.token;
      box.append(el("p", { "data-seat": l.seat }, "seat " + l.seat + ": ", el("code", {}, url)));
    }
  }

  function show(v) {
    view = v;
    $("table").hidden = false;
    showMessage(null);
    render();
  }

  // -- the table --------------------------------------------------------------------------
  function mine(s) {
    return view.agents[s] === "human" && (view.hotseat || s === view.seat);
  }

  function seatName(s) {
    return mine(s) ? "seat " + s + " (you)" : "seat " + s;
  }

  function myTurn(v) {
    return !v.terminal && !v.thinking && v.current_player !== null && v.current_player === v.seat && v.agents[v.seat] === "human";
  }

  // while it is not this browser's turn, the table is asked for again until it is
  function schedule() {
    clearTimeout(poll);
    poll = null;
    if (!view || view.terminal || myTurn(view)) return;
    const asked = token;
    poll = setTimeout(async () => {
      try {
        const v = await call("GET", "/api/game/" + asked);
        if (asked !== token) return;
        const changed = JSON.stringify(v) !== JSON.stringify(view);
        view = v;
        if (changed) render();
        else schedule();
      } catch (e) {
        showMessage({ text: e.message, explained: null });
      }
    }, view.thinking ? 400 : 1500);
  }

  function cardsOf(plays, winner) {
    const box = el("div", { class: "plays" });
    for (const p of plays) {
      box.append(
        el("figure", { class: p.seat === winner ? "play winner" : "play" },
          el("span", { class: suitClass(p.text), "data-card": p.card }, p.text),
          el("figcaption", {}, seatName(p.seat)))
      );
    }
    return box;
  }

  function money(m) {
    return Object.entries(m).map(([u, a]) => a + " " + u + (a === 1 ? "" : "s")).join(", ");
  }

  function render() {
    const v = view;
    $("title").textContent = v.game.title + " (" + v.game.id + (v.game.options.length ? "+" + v.game.options.join("+") : "") + "), seed " + v.game.seed;
    const st = $("status");
    st.dataset.hand = v.hand_no;
    st.dataset.terminal = v.terminal ? "1" : "0";
    st.dataset.results = v.hand_results.length;
    let status = "Hand " + v.hand_no + ".";
    if (v.trump) status += " Trumps: " + suit(v.trump) + ".";
    if (v.led) status += " Led: " + suit(v.led) + ".";
    if (v.fault) {
      status = "The game ended on a fault in its rules: " + v.fault;
    } else if (v.terminal) {
      status = "Game over. " + v.standings.map((r) => r.rank + ". " + seatName(r.seat) + ": " + r.score).join("; ");
    } else if (v.current_player !== null) {
      status += mine(v.current_player) ? " Your turn (" + seatName(v.current_player) + ")." : " " + seatName(v.current_player) + " to play.";
    }
    st.textContent = status;
    const thinking = $("thinking");
    thinking.hidden = !(v.thinking && !v.terminal);
    thinking.textContent = thinking.hidden ? "" : seatName(v.current_player) + " (" + v.agents[v.current_player] + ") is thinking…";
    st.dataset.thinking = thinking.hidden ? "0" : "1";
    // hot seat: a hand is hidden until its owner shows it
    const hidden = v.hotseat && !v.terminal && revealed !== v.seat;
    $("reveal").hidden = !hidden;
    $("show-hand").textContent = "Show seat " + v.seat + "'s hand (others look away)";

    const seats = $("seats-view");
    seats.replaceChildren();
    for (const s of v.seats) {
      const lines = [el("strong", {}, seatName(s.seat) + (s.dealer ? " · dealer" : "")),
        el("div", { class: "size", "data-size": s.hand_size }, s.hand_size + " card" + (s.hand_size === 1 ? "" : "s") + " in hand"),
        el("div", {}, s.won + " trick" + (s.won === 1 ? "" : "s") + " won")];
      if (Object.keys(s.money).length) lines.push(el("div", {}, money(s.money)));
      for (const [k, x] of Object.entries(s.counters)) lines.push(el("div", {}, k + ": " + x));
      seats.append(el("div", { class: s.to_move ? "seat to-move" : "seat", id: "seat-view-" + s.seat }, ...lines));
    }

    $("trick").replaceChildren(v.trick.length ? cardsOf(v.trick, null) : el("span", { class: "small" }, "no card yet"));
    $("last-trick").replaceChildren(
      v.last_trick ? cardsOf(v.last_trick.plays, v.last_trick.winner) : el("span", { class: "small" }, "none yet")
    );
    const pub = $("public");
    pub.replaceChildren();
    for (const [h, b] of Object.entries(v.pools)) pub.append(el("div", {}, "the " + h + ": " + money(b)));
    for (const [z, info] of Object.entries(v.zones)) {
      pub.append(el("div", {}, z + ": " + (info.cards.length ? info.cards.join(" ") + (info.count > info.cards.length ? " + " + (info.count - info.cards.length) + " face down" : "") : info.count + " cards face down")));
    }
    for (const [k, x] of Object.entries(v.counters)) pub.append(el("div", {}, k + ": " + x));
    if (!pub.children.length) pub.append(el("span", { class: "small" }, "nothing"));

    const hand = $("hand");
    hand.replaceChildren();
    const turn = myTurn(v);
    hand.hidden = hidden;
    const q = v.question;
    const choosing = !!(q && q.kind === "choose" && turn);
    if (!choosing && !sending) staged = [];
    document.body.dataset.sending = sending ? "1" : "0"; // picked cards being sent: wait
    const chosen = new Set((q && q.chosen) || []);
    for (const c of v.hand) {
      const picked = chosen.has(c.card) || staged.includes(c.card);
      const title = staged.includes(c.card) ? c.text + ": picked (click to take it back)" : picked ? c.text + ": chosen" : c.legal ? (q ? "choose " : "play ") + c.text : c.text + ": not allowed now (click to see why)";
      const b = el("button", { type: "button", class: suitClass(c.text) + (c.legal ? " legal" : "") + (picked ? " chosen" : ""), "data-card": c.card, title }, c.text);
      b.disabled = !turn || sending;
      b.addEventListener("click", () => {
        if (choosing && staged.includes(c.card)) {
          staged = staged.filter((x) => x !== c.card); // taken back before it is confirmed
          render();
        } else if (choosing && c.legal) {
          if (chosen.size + staged.length < q.max) staged.push(c.card); // no more than the most allowed
          render();
        } else play(c.card);
      });
      hand.append(b);
    }
    const dec = $("declare");
    dec.replaceChildren();
    dec.hidden = hidden;
    const inHand = new Set(v.hand.map((c) => c.card));
    {
      // the question a choice asks, in words; then what is not a card of the hand: pass, a declaration, a number
      if (q) {
        const ask = el("div", { class: "question" }, q.text);
        if (q.rule) ask.append(" ", ruleDetails(q.rule)); // why: the rule that asks, in its source's words
        dec.append(ask);
      }
      if (choosing) {
        const n = chosen.size + staged.length;
        dec.append(el("div", { class: "picked" }, staged.length ? "Picked: " + staged.map((x) => v.hand.find((c) => c.card === x).text).join(" ") + " (click a card again to take it back)" : "Click the cards to pick them."));
        const ok = el("button", { type: "button", class: "move confirm", "data-move": "confirm" }, n ? "confirm " + n + " card" + (n === 1 ? "" : "s") : "confirm no card");
        ok.disabled = sending || n < q.min;
        ok.addEventListener("click", confirmCards);
        dec.append(ok);
      }
      for (const m of v.legal.filter((x) => !inHand.has(x.move) && !(choosing && x.move === "pass"))) {
        const b = el("button", { type: "button", class: "move", "data-move": m.move }, m.text);
        b.disabled = !turn;
        b.addEventListener("click", () => play(m.move));
        dec.append(b);
      }
    }
    const log = $("log");
    log.replaceChildren();
    log.hidden = hidden;
    for (const line of v.log) {
      const li = el("li", { class: "ev-" + line.type }, ...line.parts.map(part));
      if (line.rule) li.append(" ", ruleDetails(line.rule));
      if (line.details.length) li.append(el("ul", { class: "details" }, ...line.details.map((d) => el("li", {}, d))));
      log.append(li);
    }
    log.scrollTop = log.scrollHeight;
    schedule();
  }

  // a piece of an event's sentence (academie/narrate.py): a seat, a card or a suit in a span to style
  function part(p) {
    if (p.kind === "seat") return el("span", { class: "ev-seat" }, p.text);
    if (p.kind === "card" || p.kind === "suit") return el("span", { class: /[♥♦]/.test(p.text) ? "ev-card red" : "ev-card" }, p.text);
    return p.text;
  }

  function ruleDetails(rule) {
    const d = el("details", { class: "rule" }, el("summary", { title: rule.path }, "§"));
    d.append(explanation(rule));
    return d;
  }

  function explanation(rule) {
    const box = el("div", { class: "explanation" });
    for (const c of rule.cites) {
      box.append(el("blockquote", {}, c.quote), el("cite", {}, c.title || c.source || ""));
    }
    for (const e of rule.editorial) {
      box.append(el("p", { class: "editorial" }, "Editorial: " + e.reason + (e.evidence ? " (evidence: " + e.evidence + ")" : "")));
    }
    box.append(el("p", { class: "small" }, "rule element: " + rule.element));
    return box;
  }

  function showMessage(refused) {
    const m = $("message");
    if (!refused) {
      m.hidden = true;
      m.replaceChildren();
      return;
    }
    m.hidden = false;
    m.replaceChildren(el("p", {}, refused.text));
    if (refused.explained) m.append(explanation(refused.explained));
  }

  async function play(move) {
    try {
      clearTimeout(poll);
      const r = await call("POST", "/api/game/" + token + "/play", { move });
      view = r;
      showMessage(r.refused);
      render();
    } catch (e) {
      showMessage({ text: e.message, explained: null });
    }
  }

  async function confirmCards() {
    // the picked cards sent one by one, then pass when the seat may choose more
    sending = true;
    const seat = view.current_player;
    try {
      for (const card of staged.slice()) {
        await play(card);
        if (view.refused) return;
      }
      const q = view.question;
      if (q && q.kind === "choose" && view.current_player === seat && view.legal.some((m) => m.move === "pass")) await play("pass");
    } finally {
      sending = false;
      staged = [];
      render();
    }
  }

  async function init() {
    games = await call("GET", "/api/games");
    $("game").addEventListener("change", fillSetup);
    $("players").addEventListener("change", fillSeats);
    $("setup-form").addEventListener("submit", start);
    $("show-hand").addEventListener("click", () => {
      revealed = view.seat;
      render();
    });
    fillSetup();
    const m = /^#t=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (m) {
      token = m[1];
      show(await call("GET", "/api/game/" + token));
      $("setup-fold").open = false; // a game joined by its link: the table first
    }
  }

  init().catch((e) => {
    $("setup-error").textContent = e.message;
  });
})();
