"use strict";
// A seat's phone: its own view, and the options the box would offer, one sent at a time.
const token = location.pathname.split("/").pop();
let chosen = null;
let ballot = null;
let socket = null;
let replaced = false;
function lines(list, element) {
  element.replaceChildren(...list.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
}
function wipe() {
  // Another phone took this seat: nothing this seat may know stays on this one.
  for (const id of ["secret", "question", "options"]) { document.getElementById(id).replaceChildren(); }
  for (const id of ["private", "ask", "wait", "refused"]) { document.getElementById(id).hidden = true; }
  document.getElementById("status").textContent = "";
  document.getElementById("link").textContent = "Another phone took this seat: this one shows nothing more.";
  ballot = null; chosen = null; replaced = true;
}
function draw(state) {
  if (replaced || state.type === "replaced") { wipe(); return; }
  if (state.type === "refused") {
    const refused = document.getElementById("refused");
    refused.hidden = false;
    refused.textContent = state.why;
    return;
  }
  document.getElementById("seat").textContent = `Seat ${state.seat}`;
  document.getElementById("status").textContent = state.status;
  lines(state.private, document.getElementById("secret"));
  const refused = document.getElementById("refused");
  refused.hidden = !state.refused.length;
  refused.textContent = state.refused.join(" ");
  const ask = state.ask;
  document.getElementById("ask").hidden = !ask;
  document.getElementById("wait").hidden = !!ask;
  const send = document.getElementById("send");
  if (!ask) { ballot = null; chosen = null; send.disabled = true; document.body.dataset.ballot = ""; return; }
  if (ask.ballot !== ballot) { chosen = null; }
  document.body.dataset.ballot = String(ask.ballot);
  ballot = ask.ballot;
  lines(ask.prompt, document.getElementById("question"));
  const options = document.getElementById("options");
  options.replaceChildren(...ask.options.map((label, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.className = index === chosen ? "chosen" : "";
    button.onclick = () => {
      chosen = index;
      for (const other of options.children) { other.className = ""; }
      button.className = "chosen";
      send.disabled = false;
    };
    return button;
  }));
  send.disabled = chosen === null;
}
document.getElementById("send").onclick = () => {
  if (socket && chosen !== null && ballot !== null) {
    // Padded, so the size of the frame on the Wi-Fi does not tell which option it carries.
    socket.send(JSON.stringify({ ballot: ballot, option: chosen }).padEnd(96, " "));
    document.getElementById("send").disabled = true;
  }
};
function connect() {
  const link = document.getElementById("link");
  socket = new WebSocket(`ws://${location.host}/ws/P/${token}`);
  socket.onopen = () => { link.textContent = "connected"; };
  socket.onmessage = (event) => draw(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === 4409) { wipe(); return; }
    if (event.code === 4403) { link.textContent = "This link is no longer valid: scan the box again."; return; }
    link.textContent = "reconnecting…";
    setTimeout(connect, 2000);
  };
}
connect();
