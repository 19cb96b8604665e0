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
    // "Cards: Yes, No, No": a list, its items turned over one by one. A sentence (it ends
    // with a full stop: "Hungary 1956: at board seats 1, 12 and 17.") is shown whole.
    const listed = body.map((line) => /^([^:]+): ([^.]+, [^.]+)$/.exec(line));
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

// A TV cannot scroll: what does not fit is paged or shortened, never cut.
const PAGE_MS = 7000; // a page of a long reveal stays this long: time to read it aloud
let pages = []; // the reveal's cards, page by page
let onPage = 0;
let pageTimer = null;

function overflows(element) {
  return element.scrollHeight > element.clientHeight + 1;
}

// Whether every page of ``size`` cards fits whole (a later page's cards may be taller).
function everyPageFits(body, groups, size) {
  for (let i = 0; i < groups.length; i += size) {
    body.replaceChildren(...groups.slice(i, i + size));
    if (overflows(body)) { return false; }
  }
  return true;
}

// The reveal's cards in pages of as many as fit whole (all of them when they do); the
// pages take turns on the TV, each for PAGE_MS.
let paged = []; // the reveal's cards, all of them: paged again when the room changes size
function paginate(groups) {
  paged = groups;
  const body = document.getElementById("reveal-body");
  const note = document.getElementById("reveal-page");
  body.classList.toggle("many", groups.length > 3);
  note.hidden = true;
  body.classList.remove("tight");
  let size = groups.length;
  while (size > 1 && !everyPageFits(body, groups, size)) {
    size -= 1;
    note.hidden = false;
    note.textContent = (words.page || "{n} of {of}").replace("{n}", "9").replace("{of}", "9");
  }
  // A card alone too tall for the room (a small 4:3 screen): its text at the least size.
  if (size === 1 && !everyPageFits(body, groups, 1)) { body.classList.add("tight"); }
  pages = [];
  for (let i = 0; i < groups.length; i += size) { pages.push(groups.slice(i, i + size)); }
  onPage = -1;
  turnPage();
}

function turnPage() {
  clearTimeout(pageTimer);
  if (!pages.length) { return; }
  onPage = (onPage + 1) % pages.length;
  const body = document.getElementById("reveal-body");
  body.replaceChildren(...pages[onPage]);
  const note = document.getElementById("reveal-page");
  note.hidden = pages.length < 2;
  note.textContent = (words.page || "{n} of {of}")
    .replace("{n}", String(onPage + 1)).replace("{of}", String(pages.length));
  document.body.dataset.revealPage = `${onPage + 1}/${pages.length}`;
  if (pages.length > 1) { pageTimer = setTimeout(turnPage, PAGE_MS); }
}

function showReveal(event) {
  const section = document.getElementById("reveal");
  if (!event) {
    section.hidden = true;
    clearTimeout(pageTimer);
    pages = [];
    onShow = null;
    delete document.body.dataset.revealPage;
    return;
  }
  section.hidden = false;
  if (onShow !== event.id) { // a new event: its cards turn over once
    onShow = event.id;
    paginate(cards(event.screens));
  }
  document.body.dataset.reveal = String(event.id);
}

// The newest entries whole, as many as fit, and how many came before them (measured in
// one layout: a TV draws every state, and a long game's history is long).
let shownHistory = [];
function history(entries) {
  shownHistory = entries;
  const list = document.getElementById("history");
  const items = entries.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  });
  list.replaceChildren(...items);
  const past = document.getElementById("past");
  if (!overflows(past)) { return; }
  const note = document.createElement("li");
  note.className = "earlier";
  note.textContent = (words.earlier || "{n}").replace("{n}", String(items.length));
  list.append(note);
  const padding = parseFloat(getComputedStyle(past).paddingBottom);
  const limit = past.getBoundingClientRect().bottom - padding - note.getBoundingClientRect().height;
  let shown = 0;
  while (shown < items.length && items[shown].getBoundingClientRect().bottom <= limit) { shown += 1; }
  note.textContent = (words.earlier || "{n}").replace("{n}", String(items.length - shown));
  list.replaceChildren(...items.slice(0, shown), note);
}

// The end's pages in as many columns, and at the smallest size, as they need to fit.
const FINAL_FITS = [
  [], ["cols-2"], ["cols-2", "small"], ["cols-3", "small"], ["cols-3", "smaller"],
  ["cols-4", "smaller"],
];
// Where no fit will do beside the picture, the end in words takes the whole screen (the
// summary saved from it still holds the picture), as on a 4:3 screen.
function fitFinal() {
  const final = document.getElementById("final");
  for (const wide of [false, true]) {
    document.body.classList.toggle("wide-end", wide);
    for (const fit of FINAL_FITS) {
      final.classList.remove("cols-2", "cols-3", "cols-4", "small", "smaller");
      final.classList.add(...fit);
      if (!overflows(final)) { return; }
    }
  }
}

// How a seat gets a phone, told to the room while a game is on: a band of a line or two
// under everything, whose height the panels above give up (the reveal pages, the history
// keeps fewer entries, a drawing as tall as its room draws a little smaller). Not at the end (nobody needs a phone then: the end's pages take the
// room) nor before a game. The address is the one this page was opened at: the phones
// reach the same box there (in an element of its own: the tests' screenshots mask it, as
// their port changes). Set as text, never markup.
function showHint(state) {
  const hint = document.getElementById("hint");
  hint.hidden = !state.game || !!state.end || !words.phone_hint;
  const where = document.createElement("span");
  where.id = "hint-where";
  where.textContent = `${location.host}/J`;
  const [before, ...after] = (words.phone_hint || "").split("{where}");
  hint.replaceChildren(before, ...(after.length ? [where, after.join("{where}")] : []));
  fitHint();
}

// The band never takes room the drawing needs: where, with it shown, the drawing's smallest
// text would fall under 2 % of the height (Glasnost's board under a header of long names),
// it gives way; on a 4:3 screen it is not shown at all (style.css). The README tells it too.
function fitHint() {
  const hint = document.getElementById("hint");
  hint.classList.remove("yields");
  if (hint.hidden) { return; }
  let smallest = Infinity;
  for (const text of document.querySelectorAll("#picture svg text")) {
    const drawn = text.getClientRects().length ? text.getScreenCTM() : null;
    if (drawn) { smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * drawn.d); }
  }
  hint.classList.toggle("yields", smallest < 0.02 * innerHeight);
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
    s.asks ? ` (${words.asks || "new phone asks"})` : "",
    s.turn ? `: ${words.to_play || "to play"}` : "",
  ].join(""));
  const names = document.getElementById("names");
  // A seat moved to a new phone, or refused one: said after the room, in public words.
  names.textContent = [room.join(" · "), state.rejoin || ""].filter((x) => x).join(" — ");
  names.dataset.away = (state.room || []).filter((s) => s.link === "away").map((s) => s.seat).join(" ");
  showHint(state);
  showReveal(state.reveal || null);
  const events = state.events || [];
  history(events.map((e) => e.screens.map((s) => s.join(" · ")).join(" — ")).reverse());
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
    fitFinal();
  }
  // What was drawn after the reveal was paged (a longer room line, a prompt) may have taken
  // its room: a page that no longer fits is paged again.
  if (pages.length && overflows(document.getElementById("reveal-body"))) { paginate(paged); }
  fitted();
}

// The size the page was last fitted to (a test waits for it after resizing the window).
function fitted() { document.body.dataset.fitted = `${innerWidth}x${innerHeight}`; }

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
window.addEventListener("resize", () => {
  fitHint(); // first: the room it leaves is the side panels'
  if (pages.length) { paginate(pages.flat()); }
  history(shownHistory);
  if (!document.getElementById("final").hidden) { fitFinal(); }
  // What was drawn since may have taken room from the reveal: a page that no longer fits
  // is paged again.
  if (pages.length && overflows(document.getElementById("reveal-body"))) { paginate(paged); }
  fitted();
});
connect();
