"use strict";
// A seat's phone: its own card, kept hidden until held (as PEEK on the box), and the
// options the box would offer, one sent at a time. A dead link wipes what it showed.
const token = location.pathname.split("/").pop();
const SHOW_MS = 5000; // a held card hides itself after this, as if released
let words = {};
let secret = []; // the card's lines: drawn only while held
let seat = null;
let chosen = null;
let ballot = null;
let sent = null; // the ballot whose answer went: "waiting for the others" until the next
let socket = null;
let dead = false;
let hideTimer = null;

const $ = (id) => document.getElementById(id);

function lines(list, element) {
  element.replaceChildren(...list.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
}

function hide() {
  clearTimeout(hideTimer);
  $("secret").replaceChildren();
  $("secret").hidden = true;
  $("hold").textContent = words.hold || "";
  $("hold").setAttribute("aria-pressed", "false");
  document.body.dataset.card = "hidden";
}

function show() {
  if (!secret.length || dead) { return; }
  lines(secret, $("secret"));
  $("secret").hidden = false;
  $("hold").textContent = words.release || "";
  $("hold").setAttribute("aria-pressed", "true");
  document.body.dataset.card = "shown";
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hide, SHOW_MS);
}

function holdable(button) {
  button.addEventListener("pointerdown", (e) => { e.preventDefault(); show(); });
  for (const name of ["pointerup", "pointerleave", "pointercancel", "blur"]) {
    button.addEventListener(name, hide);
  }
  button.addEventListener("keydown", (e) => {
    if ((e.key === " " || e.key === "Enter") && !e.repeat) { e.preventDefault(); show(); }
  });
  button.addEventListener("keyup", hide);
  button.addEventListener("contextmenu", (e) => e.preventDefault());
  document.addEventListener("visibilitychange", hide);
  window.addEventListener("blur", hide);
  window.addEventListener("pagehide", hide);
}

function texts() {
  document.documentElement.lang = words.lang || document.documentElement.lang;
  $("private-head").textContent = words.private || "";
  $("ask-head").textContent = words.choice || "";
  $("send").textContent = words.send || "";
  $("wait-text").textContent = words.nothing_asked || "";
  $("end-head").textContent = words.over || "";
  $("no-card").textContent = words.nothing_private || "";
  if ($("secret").hidden) { $("hold").textContent = words.hold || ""; }
}

function draw(state) {
  if (dead) { return; }
  if (state.type === "replaced") { died("replaced"); return; }
  if (state.type === "refused") {
    $("refused").hidden = false;
    $("refused").textContent = state.why;
    return;
  }
  words = { ...state.words, lang: state.lang };
  seat = state.seat;
  texts();
  const named = (state.names || {})[state.seat];
  const name = named ? `${named} (${state.seat})` : (words.seat || "{n}").replace("{n}", state.seat);
  $("name-label").textContent = words.your_name || "";
  $("name-send").textContent = words.name_it || "";
  $("seat").textContent = name;
  document.title = name;
  $("status").textContent = state.status;
  secret = state.private;
  $("hold").hidden = !secret.length;
  $("no-card").hidden = !!secret.length;
  if (!$("secret").hidden) { show(); }
  const refused = $("refused");
  refused.hidden = !state.refused.length;
  refused.textContent = [words.refused, ...state.refused].join(" ");
  $("ask").append(refused); // until a refused choice is drawn again, below the options
  const ask = state.ask;
  $("ask").hidden = !ask;
  $("wait").hidden = !!ask;
  $("sendbar").hidden = !ask;
  const send = $("send");
  // Sent and waiting (or refused and asked again): the choice stays until another ballot.
  if (!ask) {
    send.disabled = true;
    document.body.dataset.ballot = "";
    $("wait-text").textContent = sent !== null && sent === ballot ? words.sent : words.nothing_asked;
    return;
  }
  if (ask.ballot !== ballot) { chosen = null; }
  document.body.dataset.ballot = String(ask.ballot);
  ballot = ask.ballot;
  lines(ask.prompt, $("question"));
  const options = $("options");
  options.replaceChildren(...ask.options.map((label, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.className = index === chosen ? "chosen" : "";
    button.setAttribute("aria-pressed", String(index === chosen));
    button.onclick = () => {
      chosen = index;
      for (const other of options.children) {
        other.className = "";
        other.setAttribute("aria-pressed", "false");
      }
      button.className = "chosen";
      button.setAttribute("aria-pressed", "true");
      send.disabled = false;
    };
    return button;
  }));
  send.disabled = chosen === null;
  if (!refused.hidden && chosen !== null && options.children[chosen]) {
    // Told beside the choice it refuses, which stays chosen and in sight.
    options.children[chosen].after(refused);
    options.children[chosen].scrollIntoView({ block: "center" });
  }
}

// The game is over or the link was replaced: nothing private stays, the seat is told
// to scan the box again, and the public end of the game is shown if there is one.
function died(why = "dead") {
  dead = true;
  secret = [];
  hide();
  for (const id of ["private", "ask", "wait", "naming"]) { $(id).hidden = true; }
  $("sendbar").hidden = true;
  $("question").replaceChildren();
  $("options").replaceChildren();
  $("dead").hidden = false;
  $("dead").textContent = words[why] || "This link no longer works: scan your seat's code on the box again.";
  $("dead").hidden = why === "replaced"; // said in the header instead, as it is not dead
  $("link").textContent = why === "replaced" ? $("dead").textContent : "";
  document.body.dataset.link = why;
  if (why === "replaced") { return; } // another phone has the seat: this one shows nothing more
  const ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onmessage = (event) => ended(JSON.parse(event.data));
}

function ended(state) {
  words = { ...(state.words || words), lang: state.lang };
  texts();
  $("dead").textContent = words.dead;
  if (!state.end) { $("end").hidden = true; return; }
  const end = state.end;
  $("end").hidden = false;
  $("mine").textContent = seat === null ? "" : end.winners.includes(seat - 1) ? words.you_won : words.you_lost;
  $("headline").textContent = end.headline;
  $("end-body").replaceChildren(...end.pages.map((page) => {
    const list = document.createElement("ul");
    lines(page, list);
    return list;
  }));
  $("save").textContent = words.save;
  $("save").href = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(end.summary)}`;
}

$("send").onclick = () => {
  if (socket && chosen !== null && ballot !== null) {
    // Padded, so the size of the frame on the Wi-Fi does not tell which option it carries.
    socket.send(JSON.stringify({ ballot: ballot, option: chosen }).padEnd(96, " "));
    $("send").disabled = true;
    sent = ballot;
  }
};

// A seat's name, typed here: the box checks it and says why in one line if it refuses.
$("naming").onsubmit = (event) => {
  event.preventDefault();
  if (socket) { socket.send(JSON.stringify({ name: $("name").value }).padEnd(96, " ")); }
};

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws/P/${token}`);
  socket.onopen = () => { $("link").textContent = ""; document.body.dataset.link = "live"; };
  socket.onmessage = (event) => draw(JSON.parse(event.data));
  socket.onclose = (event) => {
    secret = [];
    hide();
    if (event.code === 4403) { died(); return; }
    if (event.code === 4409) { died("replaced"); return; }
    $("link").textContent = words.reconnecting || "…";
    document.body.dataset.link = "away";
    // Refused before it opened, or dropped: ask the page itself whether the link lives.
    fetch(location.pathname, { method: "HEAD", cache: "no-store" })
      .then((r) => { if (r.status === 403) { died(); } else { setTimeout(connect, 2000); } })
      .catch(() => setTimeout(connect, 2000));
  };
}
holdable($("hold"));
hide();
connect();
