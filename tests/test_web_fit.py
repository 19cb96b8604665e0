"""Everything on the TV fits, at every size a table's TV has, and the pages pass axe-core.

A TV cannot scroll: at 1280x720, 1920x1080, 3840x2160, a 4:3 1024x768 and a 16:10
1280x800 (where a long end needs its columns), at each game's
start (Glasnost's twelve crisis cards on show, page by page), after a reveal and on the end
page, no panel clips or scrolls its content, none reaches past the screen, no text is under
2% of its height, no text of the picture reaches past its edge (every seat named, with
the longest names a seat may carry), and Kolkhoz's drawing uses at least 70% of it. Every
other game is played in French. While a game is on, the TV's foot tells how a seat gets its
phone, with the page's own address (not at the end, nor at 4:3, and giving way only where
the drawing's text would otherwise fall under 2%).
axe-core checks the TV and a phone at a vote, a reveal and the end of every game, and the
page a dead link gets.

CPU budget: one Chromium for the module, one table a game played once to its end; the
sizes are the same page resized, and the reveal's pages are turned by Playwright's clock
rather than waited for.
"""

import json

import pytest

from companion.games import GAMES as REGISTRY
from companion.games import game_class
from companion.table import Settings
from companion.ui.i18n import translator
from companion.web.pictures import picture
from companion.web.tv import page_words
from tests.browser import chromium, same_screenshot
from tests.conftest import alone, usual_table
from tests.test_web_words import LONG_NAMES, mid_game
from tests.webtables import Announce, direct, give_phones, play_out, web_table

#: every other game's table in French, the longer language (the line on phones wraps)
GAMES = [
    (name, usual_table(name), alone(name), ("en", "fr")[n % 2]) for n, name in enumerate(REGISTRY)
]
SIZES = {
    "720p": (1280, 720),
    "1080p": (1920, 1080),
    "4k": (3840, 2160),
    "4:3": (1024, 768),
    "16:10": (1280, 800),
}
PHONE = {"width": 390, "height": 844}
WAIT = 10_000  # ms a page may take to catch up (a bound, not a measure)
PAGE_MS = 7000  # spectator.js's PAGE_MS: how long a page of a long reveal stays

#: Every panel shown: does it scroll or clip its content, or reach past the screen; the
#: smallest text on screen as a share of the height (SVG text scaled as drawn); the picture's
#: drawn height as a share of the screen's.
FIT = """() => {
  const bad = [];
  const panels = [...document.querySelectorAll(
    'header, main, footer, #picture, #side > section, #reveal-body, #history, #final, #final-body')]
    .filter((e) => e.getClientRects().length && !e.closest('[hidden]'));
  for (const el of panels) {
    const name = el.id || el.tagName.toLowerCase();
    const r = el.getBoundingClientRect();
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) {
      const held = `${el.scrollWidth}x${el.scrollHeight}`;
      bad.push(`${name} holds ${held} in ${el.clientWidth}x${el.clientHeight}`);
    }
    if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) {
      bad.push(`${name} reaches past the screen: ${JSON.stringify(r)}`);
    }
  }
  const root = document.scrollingElement;
  if (root.scrollHeight > innerHeight + 1) bad.push(`the page is ${root.scrollHeight} high`);
  let smallest = Infinity;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !el.getClientRects().length) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) size *= el.getScreenCTM().d;
    smallest = Math.min(smallest, size / innerHeight);
  }
  const svg = document.querySelector('#picture svg');
  let drawn = 0;
  for (const line of svg ? svg.querySelectorAll('text') : []) {
    const b = line.getBBox(), box = svg.viewBox.baseVal;
    if (b.x < -1 || b.y < -1 || b.x + b.width > box.width + 1 || b.y + b.height > box.height + 1) {
      bad.push(`the picture's "${line.textContent}" reaches past its edge`);
    }
  }
  if (svg) {
    const box = svg.viewBox.baseVal;
    const r = svg.getBoundingClientRect();
    drawn = Math.min(r.height, r.width * box.height / box.width) / innerHeight;
  }
  const cards = [...document.querySelectorAll('#reveal:not([hidden]) .screen-title')]
    .map((e) => e.textContent);
  // The line on phones, and where it gave way to the drawing, the drawing's smallest text
  // with it shown.
  const hint = document.getElementById('hint');
  const shown = hint.getClientRects().length ? hint.textContent : null;
  let yielded = null;
  if (!hint.hidden && hint.classList.contains('yields')) {
    hint.classList.remove('yields');
    yielded = Math.min(...[...document.querySelectorAll('#picture svg text')].map(
      (e) => parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().d / innerHeight));
    hint.classList.add('yields');
  }
  return {bad, smallest, drawn, cards, hint: shown, yielded};
}"""


#: The texts of a picture drawn past its edge.
PAST_THE_EDGE = """() => {
  const svg = document.querySelector('svg'), box = svg.viewBox.baseVal;
  return [...svg.querySelectorAll('text')].filter((line) => {
    const b = line.getBBox();
    return b.x < -1 || b.y < -1 || b.x + b.width > box.width + 1 || b.y + b.height > box.height + 1;
  }).map((line) => line.textContent);
}"""


@pytest.fixture(scope="module")
def browser():
    with chromium() as shared:
        yield shared


def caught_up(page, room):
    """The TV shows the room's latest state (status, reveal and end)."""
    state = json.loads(room.spectator)
    reveal = str(state["reveal"]["id"]) if state.get("reveal") else None
    page.wait_for_function(
        """([status, reveal, over]) =>
            document.getElementById('status').textContent === status &&
            (reveal === null || document.body.dataset.reveal === reveal) &&
            document.getElementById('final').hidden === !over""",
        arg=[state["status"], reveal, bool(state.get("end"))],
        timeout=WAIT,
        polling=100,
    )


def hint_words(lang, base):
    """The TV's line on how a seat gets a phone, as the catalog words it in ``lang``, with
    the address the page was opened at (``base``, its scheme left out)."""
    where = base.split("://", 1)[1] + "/J"
    return page_words(translator(lang))["phone_hint"].replace("{where}", where)


def measured_at_every_size(page, game, moment, hint):
    """FIT at every size, each page of a paged reveal measured, the line on phones shown
    as ``hint`` (None: not shown); the card titles seen."""
    seen = set()
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        # The page has fitted itself to the new size (its resize handler has run: the new
        # size may reach the page a frame or more after the call returns, under load).
        page.wait_for_function(
            "(size) => document.body.dataset.fitted === size",
            arg=f"{width}x{height}",
            timeout=WAIT,
            polling=50,
        )
        pages = page.evaluate("document.body.dataset.revealPage || '1/1'")
        for _ in range(int(pages.split("/")[1])):
            fit = page.evaluate(FIT)
            where = (game, moment, name, page.evaluate("document.body.dataset.revealPage"))
            assert fit["bad"] == [], where
            assert fit["smallest"] >= 0.02, (where, fit["smallest"])
            if name == "4:3":  # no room for it on a 4:3 screen (style.css)
                assert fit["hint"] is None, where
            elif fit["yielded"] is None or hint is None:
                assert fit["hint"] == hint, where
            else:  # given way, only where the drawing needs its room (Glasnost's board under
                # a header of the longest names; test_web_pages sees it shown in every game)
                assert fit["hint"] is None and fit["yielded"] < 0.02, (where, fit["yielded"])
            if game == "kolkhoz" and (moment, name) != ("end", "4:3"):  # there: words only
                assert fit["drawn"] >= 0.70, (where, fit["drawn"])  # 85% at 16:9, 83% at 4:3
            seen |= set(fit["cards"])
            page.clock.run_for(PAGE_MS)
    return seen


def no_violations(page, where):
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    assert results.violations_count == 0, (where, results.generate_report())


@pytest.mark.parametrize(("game", "players", "options", "lang"), GAMES)
def test_every_tv_panel_fits_at_the_start_after_a_reveal_and_at_the_end(
    game, players, options, lang, browser, served
):
    table, room, player = web_table(Settings(game, players, lang, options))
    tokens = give_phones(room, [0])
    for seat in range(players):  # the longest names a seat may carry, on every seat
        assert room.phones.name(seat, LONG_NAMES[seat % len(LONG_NAMES)]) is None
    player.wait(0.5)
    base = served(room)
    tv = browser.new_page(viewport={"width": 1920, "height": 1080}, reduced_motion="reduce")
    tv.clock.install()  # measured as it stays: no card caught half turned over
    tv.goto(base + "/")
    caught_up(tv, room)
    hint = hint_words(lang, base)
    cards = measured_at_every_size(tv, game, "start", hint)
    if game == "glasnost":  # the crises laid out before the first turn: every one shown
        assert len(cards) == 12, sorted(cards)
    shown = len(room.history)

    def revealing(table):
        return isinstance(table.mode, Announce) and len(room.history) > shown

    def voting(table):
        ask = room.phones.ask_open
        return ask is not None and 0 in ask.offers and 0 not in ask.answered

    play_out(table, player, direct(room), until=revealing)
    player.wait(0.5)
    caught_up(tv, room)
    measured_at_every_size(tv, game, "reveal", hint)
    tv.set_viewport_size({"width": 1920, "height": 1080})
    no_violations(tv, (game, "reveal"))
    play_out(table, player, direct(room), until=voting)
    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"{base}/P/{tokens[0]}")
    phone.wait_for_function("() => document.body.dataset.ballot", timeout=WAIT)
    no_violations(tv, (game, "vote"))
    no_violations(phone, (game, "vote on the phone"))
    play_out(table, player, direct(room))
    player.wait(0.5)
    caught_up(tv, room)
    measured_at_every_size(tv, game, "end", None)  # the end's pages take the room
    tv.set_viewport_size({"width": 1920, "height": 1080})
    no_violations(tv, (game, "end"))
    phone.wait_for_function("() => document.body.dataset.link === 'ended'", timeout=WAIT)
    no_violations(phone, (game, "end on the phone"))
    tv.close()
    phone.close()


def test_a_dead_or_forged_link_gets_a_page_a_person_can_read(browser, served):
    table, room, player = web_table(Settings("gulag", 5, "fr"))
    tokens = give_phones(room, [0])
    player.wait(0.5)
    base = served(room)
    page = browser.new_page(viewport=PHONE)
    for link in [f"/P/{tokens[0][:-1]}", "/P/AAAAAAAAAAAAAAAAAAAAAAAA", f"/TV/{tokens[0]}"]:
        answer = page.goto(base + link)
        assert answer is not None and answer.status == 403
        assert page.evaluate("document.documentElement.lang") == "fr"
        text = page.locator("main").inner_text()
        assert "scannez" in text or "télévision" in text, text
        if link.startswith("/P/"):  # the other way back: a code from the box, typed at /J
            host = base.split("://", 1)[1]
            assert f"demandez-lui un code à taper sur {host}/J." in text, text
            assert "PEEK" not in text  # a phone has no PEEK: the box's keys are the TV's to tell
        assert tokens[0] not in page.content()
        no_violations(page, link)
    page.close()
    assert table.game is not None


@pytest.mark.parametrize("game", list(REGISTRY))
def test_each_picture_with_every_seat_named_matches_its_reference(game, browser):
    """Every seat of a full table named with the longest names (tags around a table, rows
    under bars, lines, the board's corners), drawn by Chromium and kept as a reference for
    a person to judge; no text of it reaches past its edge."""
    players = min(game_class(game).max_players, len(LONG_NAMES))
    drawn = picture(mid_game(game, players), str, dict(enumerate(LONG_NAMES[:players])))
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.set_content(f"<body style='margin:0'>{drawn}</body>")
    assert page.evaluate(PAST_THE_EDGE) == []
    same_screenshot(f"names-{game}", page.locator("svg").screenshot(animations="disabled"))
    page.close()
