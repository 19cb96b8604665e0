"use strict";
// A seat's phone: its own card, kept hidden until held (as PEEK on the box), and the
// options the box would offer, one sent at a time. An answer is sent again until the box
// says it has it (a reply naming its ballot): only then does the page say "sent". At the
// end of the game the page shows the result; a dead link wipes what it showed. A phone
// asking for a seat another phone holds waits until that phone or the box lets it in;
// the phone holding the seat is asked (Let it in / Keep this phone).
const token = location.pathname.split("/").pop();
const SHOW_MS = 5000; // a held card hides itself this long after the press, as if released
const RESEND_MS = 1500; // an answer not yet taken is sent again (under the server's 5 a second)
let words = {};
let secret = []; // the card's lines: drawn only while held
let seat = null;
let chosen = null;
let ballot = null; // the ballot on show
let asked = null; // the latest state's question (null: nothing asked)
let pending = null; // {ballot, option}: sent, not yet heard taken
let sent = null; // the last ballot whose answer the box took
let socket = null;
let dead = false;
let hideTimer = null;
let resendTimer = null;

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

// The card drawn while held; a new message redraws it but never restarts the cap.
function reveal() {
  if (!secret.length || dead) { hide(); return; }
  lines(secret, $("secret"));
  $("secret").hidden = false;
  $("hold").textContent = words.release || "";
  $("hold").setAttribute("aria-pressed", "true");
  document.body.dataset.card = "shown";
}

function press() {
  if (!secret.length || dead) { return; }
  reveal();
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hide, SHOW_MS); // counted from the press
}

function holdable(button) {
  button.addEventListener("pointerdown", (e) => { e.preventDefault(); press(); });
  for (const name of ["pointerup", "pointerleave", "pointercancel", "blur"]) {
    button.addEventListener(name, hide);
  }
  button.addEventListener("keydown", (e) => {
    if ((e.key === " " || e.key === "Enter") && !e.repeat) { e.preventDefault(); press(); }
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
  $("no-card").textContent = words.nothing_private || "";
  if ($("secret").hidden) { $("hold").textContent = words.hold || ""; }
}

// The Send button and the waiting line say where the answer is: chosen, on its way, taken.
function sendState() {
  const send = $("send");
  const going = pending !== null && asked !== null && pending.ballot === asked.ballot;
  send.textContent = going ? words.sending || "…" : words.send || "";
  send.disabled = going || chosen === null || asked === null;
  const waiting = pending !== null ? words.sending : sent !== null && sent === ballot ? words.sent
    : words.nothing_asked;
  $("wait-text").textContent = waiting || "";
  document.body.dataset.answer = pending !== null ? "sending" : sent === ballot ? "taken" : "";
}

function transmit() {
  clearTimeout(resendTimer);
  if (pending === null || dead) { return; }
  if (socket && socket.readyState === WebSocket.OPEN) {
    // Padded, so the size of the frame on the Wi-Fi does not tell which option it carries.
    socket.send(JSON.stringify(pending).padEnd(96, " "));
  }
  resendTimer = setTimeout(transmit, RESEND_MS);
}

function replied(reply) {
  if (pending === null || reply.ballot !== pending.ballot) { return; } // an older send's echo
  pending = null;
  clearTimeout(resendTimer);
  if (reply.type === "taken") {
    sent = reply.ballot;
  } else if (asked !== null && asked.ballot === reply.ballot) {
    $("refused").hidden = false; // said beside the choice, which stays chosen
    $("refused").textContent = [words.refused, reply.why].join(" ");
  }
  sendState();
}

function options(ask) {
  const list = $("options");
  list.replaceChildren(...ask.options.map((label, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.className = index === chosen ? "chosen" : "";
    button.setAttribute("aria-pressed", String(index === chosen));
    button.onclick = () => {
      if (pending !== null) { return; } // on its way: the choice stays as sent
      chosen = index;
      for (const other of list.children) {
        other.className = "";
        other.setAttribute("aria-pressed", "false");
      }
      button.className = "chosen";
      button.setAttribute("aria-pressed", "true");
      sendState();
    };
    return button;
  }));
}

// Waiting for the seat's phone or the box to let this phone in: nothing of the seat shows.
function waiting(text) {
  for (const id of ["private", "ask", "wait", "naming", "request"]) { $(id).hidden = true; }
  $("sendbar").hidden = true;
  $("link").textContent = text;
  document.body.dataset.link = "waiting";
}

// Another phone asks for this seat: this phone's holder says whether it may take it.
function request(asks) {
  $("request").hidden = !asks;
  if (!asks) { return; }
  $("request-text").textContent = asks.text;
  $("let-in").textContent = asks.yes;
  $("keep").textContent = asks.no;
  const answer = (letIn) => () => {
    if (socket) { socket.send(JSON.stringify({ request: asks.number, let: letIn }).padEnd(96, " ")); }
  };
  $("let-in").onclick = answer(true);
  $("keep").onclick = answer(false);
}

function draw(state) {
  if (dead) { return; }
  if (state.type === "replaced") { died("replaced"); return; }
  if (state.type === "waiting") { waiting(state.text); return; }
  if (state.type === "no_seat") { died("no_seat", state.text); return; }
  if (state.type === "request") { return; } // the answer to a request was heard
  if (document.body.dataset.link === "waiting") { // let in: the seat's page from now on
    $("link").textContent = "";
    document.body.dataset.link = "live";
    for (const id of ["private", "wait", "naming"]) { $(id).hidden = false; }
  }
  request(state.request);
  if (state.type === "taken" || state.type === "refused") { replied(state); return; }
  if (state.type === "name") { $("name-why").textContent = state.why; return; } // "": taken
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
  if (!$("secret").hidden) { reveal(); }
  const refused = $("refused");
  refused.hidden = !state.refused.length;
  refused.textContent = [words.refused, ...state.refused].join(" ");
  $("ask").append(refused); // until a refused choice is drawn again, below the options
  const ask = state.ask;
  asked = ask;
  $("ask").hidden = !ask;
  $("wait").hidden = !!ask;
  $("sendbar").hidden = !ask;
  if (!ask) {
    document.body.dataset.ballot = "";
    sendState();
    return;
  }
  if (ask.ballot !== ballot) { chosen = null; }
  if (pending !== null && pending.ballot !== ask.ballot) { // that ballot closed: a new question
    pending = null;
    clearTimeout(resendTimer);
  }
  document.body.dataset.ballot = String(ask.ballot);
  ballot = ask.ballot;
  lines(ask.prompt, $("question"));
  options(ask);
  sendState();
  const chosenButton = chosen === null ? null : $("options").children[chosen];
  if (!refused.hidden && chosenButton) {
    // Told beside the choice it refuses, which stays chosen and in sight.
    chosenButton.after(refused);
    chosenButton.scrollIntoView({ block: "center" });
  }
}

// The link died: nothing private stays. At the end of the game (the usual way a link dies)
// the page shows the result, then that the game is over; a link that died otherwise (shown
// again on the box, or another phone took the seat) says so.
function died(why = "dead", text = "") {
  dead = true;
  secret = [];
  pending = null;
  clearTimeout(resendTimer);
  hide();
  for (const id of ["private", "ask", "wait", "naming", "request"]) { $(id).hidden = true; }
  $("sendbar").hidden = true;
  $("question").replaceChildren();
  $("options").replaceChildren();
  document.body.dataset.link = why;
  if (why === "replaced") { // said in the header: another phone has the seat
    $("link").textContent = words.replaced || "";
    return;
  }
  if (why === "no_seat") { // refused, lapsed or asked again since: one line, no retry
    $("link").textContent = "";
    $("dead").hidden = false;
    $("dead").textContent = text;
    return;
  }
  $("link").textContent = "";
  const ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onmessage = (event) => ended(JSON.parse(event.data));
  ws.onerror = () => ended({});
}

function ended(state) {
  words = { ...words, ...(state.words || {}), lang: state.lang || words.lang };
  texts();
  const end = state.end;
  if (!end) { // no game ended: this link is simply no longer valid
    $("end").hidden = true;
    $("dead").hidden = false;
    // the other way back to the seat: a code from the box, typed where this page came from
    $("dead").textContent = (words.dead || "").replace("{where}", `${location.host}/J`);
    return;
  }
  document.body.dataset.link = "ended";
  $("dead").hidden = true;
  $("status").textContent = state.status || "";
  $("end").hidden = false;
  $("mine").textContent = seat === null ? "" : end.winners.includes(seat - 1) ? words.you_won : words.you_lost;
  $("headline").textContent = end.headline;
  $("ended").textContent = words.ended || "";
  $("end-body").replaceChildren(...end.pages.map((page) => {
    const list = document.createElement("ul");
    lines(page, list);
    return list;
  }));
  $("save").textContent = words.save;
  $("save").href = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(end.summary)}`;
}

$("send").onclick = () => {
  if (chosen !== null && asked !== null && pending === null) {
    pending = { ballot: asked.ballot, option: chosen };
    sendState();
    transmit();
  }
};

// A seat's name, typed here: the box checks it and says why in one line if it refuses.
$("naming").onsubmit = (event) => {
  event.preventDefault();
  if (socket) { socket.send(JSON.stringify({ name: $("name").value }).padEnd(96, " ")); }
};

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws/P/${token}`);
  socket.onopen = () => {
    $("link").textContent = "";
    document.body.dataset.link = "live";
    transmit(); // an answer still on its way goes again at once
  };
  socket.onmessage = (event) => draw(JSON.parse(event.data));
  socket.onclose = (event) => {
    secret = [];
    hide();
    if (dead) { return; }
    if (event.code === 4403) { died(); return; }
    if (event.code === 4409) { died("replaced"); return; }
    if (event.code === 4410) { died("no_seat", $("dead").textContent); return; }
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
