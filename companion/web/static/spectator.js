"use strict";
// The TV page: draws each public state the box sends; it never sends anything.
function lines(list, element) {
  element.replaceChildren(...list.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
}
function block(screens, element) {
  element.replaceChildren(...screens.map((screen) => {
    const p = document.createElement("p");
    p.textContent = screen.join(" · ");
    return p;
  }));
}
function draw(state) {
  document.getElementById("title").textContent = state.title || "Companion";
  document.getElementById("status").textContent = state.status || "Waiting for a game";
  const picture = document.getElementById("picture");
  if (state.picture) {
    const svg = new DOMParser().parseFromString(state.picture, "image/svg+xml").documentElement;
    picture.replaceChildren(document.importNode(svg, true));
  } else {
    picture.replaceChildren();
  }
  lines(state.prompt || [], document.getElementById("prompt"));
  const history = state.history || [];
  lines(history.map((s) => s.join(" · ")).reverse(), document.getElementById("history"));
  const reveal = document.getElementById("reveal");
  reveal.hidden = !state.reveal;
  block(state.reveal || [], document.getElementById("reveal-body"));
  const final = document.getElementById("final");
  final.hidden = !(state.final && state.final.length);
  block(state.final || [], document.getElementById("final-body"));
}
function connect() {
  const link = document.getElementById("link");
  // The box's own TV link (/TV/<token>) has its own feed, which always gets in.
  const feed = location.pathname.startsWith("/TV/") ? `/ws${location.pathname}` : "/ws";
  const ws = new WebSocket(`ws://${location.host}${feed}`);
  ws.onopen = () => { link.textContent = "live"; };
  ws.onmessage = (event) => { draw(JSON.parse(event.data)); document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1); };
  ws.onclose = () => { link.textContent = "reconnecting…"; setTimeout(connect, 2000); };
}
connect();
