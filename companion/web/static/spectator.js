"use strict";
// The TV page: draws each public state the box sends; it never sends anything.
// A reveal is an event: its cards turn over one by one, and it stays up at least as
// long as the box shows it (the state keeps it until the first move after the box's OK).
const CARD_MS = 700;
let words = {};
let onShow = null; // the number of the reveal event on the TV

function lines(list, element) {
  element.replaceChildren(...list.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
}

// Each screen of a reveal is a card turning over, one after another; in a listed line
// ("Cards: Work, Strike, Work") each item is a card of its own, turned in turn.
function cards(screens) {
  let turned = 0;
  const turn = (element) => {
    element.classList.add("card-turn");
    element.style.animationDelay = `${turned * CARD_MS}ms`;
    turned += 1;
    return element;
  };
  return screens.map(([title, ...body]) => {
    const card = document.createElement("div");
    card.className = "screen";
    const head = document.createElement("p");
    head.className = "screen-title";
    head.textContent = title;
    card.append(head);
    const listed = body.map((line) => /^([^:]+): (.+, .+)$/.exec(line));
    if (!listed.some((m) => m)) {
      const text = document.createElement("p");
      text.textContent = body.join(" ");
      card.append(text);
      return turn(card);
    }
    body.forEach((line, i) => {
      const text = document.createElement("p");
      if (listed[i]) {
        text.textContent = `${listed[i][1]}: `;
        for (const item of listed[i][2].split(", ")) {
          const chip = document.createElement("span");
          chip.className = "chip";
          chip.textContent = item;
          text.append(turn(chip));
        }
      } else {
        text.textContent = line;
      }
      card.append(text);
    });
    return card;
  });
}

function showReveal(event) {
  const section = document.getElementById("reveal");
  if (!event) { section.hidden = true; return; }
  if (onShow !== event.id) { // a new event: its cards turn over once
    const groups = cards(event.screens);
    document.getElementById("reveal-body").replaceChildren(...groups);
    document.getElementById("reveal-body").classList.toggle("many", groups.length > 3);
    onShow = event.id;
  }
  section.hidden = false;
  document.body.dataset.reveal = String(event.id);
}

function draw(state) {
  words = state.words || words;
  document.documentElement.lang = state.lang || "en";
  document.title = state.title || "Companion";
  document.getElementById("title").textContent = state.title || "Companion";
  document.getElementById("status").textContent = state.status || words.no_game || "";
  document.getElementById("turn-head").textContent = words.now || "";
  document.getElementById("reveal-head").textContent = words.revealed || "";
  document.getElementById("history-head").textContent = words.history || "";
  document.getElementById("final-head").textContent = words.over || "";
  const picture = document.getElementById("picture");
  picture.setAttribute("aria-label", `${words.picture || ""}: ${state.status || ""}`);
  if (state.picture) {
    const svg = new DOMParser().parseFromString(state.picture, "image/svg+xml").documentElement;
    svg.setAttribute("aria-hidden", "true");
    picture.replaceChildren(document.importNode(svg, true));
  } else {
    picture.replaceChildren();
  }
  lines(state.prompt || [], document.getElementById("prompt"));
  // Who is at the table, as text (never markup): "1 Anna · 2 (away) · 4 Boris: to play".
  const room = (state.room || []).map((s) => [
    `${s.seat}${s.name ? " " + s.name : ""}`,
    s.link === "away" ? ` (${words.away || "away"})` : "",
    s.turn ? `: ${words.to_play || "to play"}` : "",
  ].join(""));
  const names = document.getElementById("names");
  names.textContent = room.join(" · ");
  names.dataset.away = (state.room || []).filter((s) => s.link === "away").map((s) => s.seat).join(" ");
  const events = state.events || [];
  lines(events.map((e) => e.screens.map((s) => s.join(" · ")).join(" — ")).reverse(),
    document.getElementById("history"));
  showReveal(state.reveal || null);
  const end = state.end;
  const final = document.getElementById("final");
  final.hidden = !end;
  document.body.classList.toggle("over", !!end);
  if (end) {
    document.getElementById("headline").textContent = end.headline;
    document.getElementById("final-body").replaceChildren(...end.pages.map((page) => {
      const list = document.createElement("ul");
      lines(page, list);
      return list;
    }));
    const save = document.getElementById("save");
    save.textContent = words.save;
    save.href = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(end.summary)}`;
  }
}

function connect() {
  const link = document.getElementById("link");
  // The box's own TV link (/TV/<token>) has its own feed, which always gets in.
  const feed = location.pathname.startsWith("/TV/") ? `/ws${location.pathname}` : "/ws";
  const ws = new WebSocket(`ws://${location.host}${feed}`);
  ws.onopen = () => { link.textContent = words.live || ""; };
  ws.onmessage = (event) => {
    draw(JSON.parse(event.data));
    link.textContent = words.live || "";
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  };
  ws.onclose = () => { link.textContent = words.reconnecting || "…"; setTimeout(connect, 2000); };
}
connect();
