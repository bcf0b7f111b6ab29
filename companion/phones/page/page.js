// The phone page draws the table's snapshots as they come; every fact and word in them is the table's.
"use strict";
(function () {
  const events = new URL("events", document.baseURI).href;
  let words = {};
  let source = null;

  function text(id, value) { document.getElementById(id).textContent = value || ""; }

  function row(seat) {
    const tr = document.createElement("tr");
    if (seat.to_play) tr.className = "to-play";
    if (seat.winner) tr.className = "winner";
    for (const [value, kind] of [[seat.name, ""], [seat.hand, ""], [seat.won, ""], [seat.trophies, ""],
                                 [seat.score, "score"]]) {
      const td = document.createElement("td");
      td.textContent = value;
      if (kind) td.className = kind;
      tr.appendChild(td);
    }
    tr.firstChild.style.setProperty("--seat", seat.colour);
    return tr;
  }

  function entry(challenge) {
    const li = document.createElement("li");
    const title = document.createElement("b");
    const detail = document.createElement("span");
    title.textContent = challenge.title;
    detail.textContent = challenge.detail;
    li.append(title, detail);
    return li;
  }

  function draw(state) {
    words = state.words;
    document.documentElement.lang = state.lang;
    document.documentElement.dir = state.dir;
    document.title = state.title;
    text("title", state.title);
    document.getElementById("link").hidden = true;
    document.querySelector("main").hidden = false;
    text("turn", state.turn);
    text("hint", state.hint);
    text("stack-label", words.stack);
    text("stack", String(state.stack.count));
    text("claim", state.stack.claim);
    text("pile-label", words.draw_pile);
    text("pile", String(state.draw_pile.count));
    text("warning", state.draw_pile.warning);
    document.getElementById("pile-tile").className = "tile " + state.draw_pile.level;
    for (const key of ["name", "hand", "won", "trophies", "score"]) text("h-" + key, words[key]);
    document.querySelector("#seats tbody").replaceChildren(...state.seats.map(row));
    const end = document.getElementById("end");
    end.hidden = !state.end;
    end.textContent = state.end;
    text("log-label", words.challenges);
    const log = document.getElementById("log");
    log.replaceChildren(...state.challenges.map(entry).reverse());
    if (!state.challenges.length) {
      const none = document.createElement("li");
      none.textContent = words.no_challenge;
      log.replaceChildren(none);
    }
  }

  function lost() {
    const link = document.getElementById("link");
    link.textContent = words.reconnecting || "…";
    link.hidden = false;
  }

  function connect() {
    source = new EventSource(events);
    source.onmessage = (message) => draw(JSON.parse(message.data));
    source.onerror = () => {
      lost();
      if (source.readyState === EventSource.CLOSED) {  // refused, not only broken: try again later
        source.close();
        setTimeout(connect, 5000);
      }
    };
  }
  const now = JSON.parse(document.getElementById("now").textContent);
  if (now) draw(now);  // the table as the page was served: shown before the stream opens
  connect();
})();
