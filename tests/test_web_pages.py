"""The TV and phone pages as a room and a hand use them, in real Chromium.

For every game in English and French: the TV at 1920x1080 and 3840x2160 and a phone at
390x844 are compared with reference screenshots (``tests/reference/web-page-*.png``, the
TV's scaled down to 960x540), checked with axe-core (the copy bundled with
axe-playwright-python), and measured: the TV's content fills the screen's height and no
text on it is under 2% of that height; the pages carry the table's ``lang`` and no
English left where the catalog has French; the TV's line on phones is the catalog's, in the
table's language, at the page's own address, and shown whole.

CPU budget: one Chromium for the whole module (a module fixture), one table played to its
first reveal per game and language. Measured here (13 tests, run serially on the loaded
2-core machine): 39 s of CPU (user + sys, Chromium included), 3.7 min of wall time, 4 s of
which the reveal test waits on purpose. Keep it under a minute of CPU.
"""

import io
import json
import re
import time

import pytest
from PIL import Image

from companion.games import GAMES as REGISTRY
from companion.store import Journal
from companion.table import Settings
from companion.ui.i18n import translator
from companion.web.tv import seats_words
from tests.browser import chromium, masks, same_screenshot
from tests.conftest import alone, usual_table
from tests.test_i18n import catalog_messages
from tests.test_web_fit import hint_words
from tests.webtables import (
    Announce,
    Over,
    direct,
    give_phones,
    play_out,
    web_table,
)  # modes, wherever they live

GAMES = [(name, usual_table(name), alone(name)) for name in REGISTRY]
TV_SIZES = {"1080p": (1920, 1080), "4k": (3840, 2160)}
PHONE = {"width": 390, "height": 844}
WAIT = 10_000  # ms a page may take to catch up (a bound, not a measure)

#: the lowest and highest edges of what the TV shows, and the smallest text on screen as a
#: share of the viewport's height (SVG text scaled as drawn)
MEASURE = """() => {
  const shown = [...document.querySelectorAll(
    'header, #picture svg, #side > section:not([hidden]), #final:not([hidden])')]
    .filter((e) => e.getClientRects().length && !e.closest('[hidden]'));
  const top = Math.min(...shown.map((e) => e.getBoundingClientRect().top));
  const bottom = Math.max(...shown.map((e) => e.getBoundingClientRect().bottom));
  let smallest = Infinity;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !el.getClientRects().length) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) size *= el.getScreenCTM().d;
    smallest = Math.min(smallest, size);
  }
  return {cover: (bottom - top) / innerHeight, smallest: smallest / innerHeight};
}"""

#: Whether the element is shown whole: on the screen, its content unclipped, the page unscrolled.
WHOLE = """(selector) => {
  const e = document.querySelector(selector), r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1 &&
    e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1 &&
    document.scrollingElement.scrollHeight <= innerHeight + 1;
}"""

TEXTS = """() => {
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (walker.currentNode.textContent.trim() && !el.closest('[hidden]')) {
      out.push(walker.currentNode.textContent.trim());
    }
  }
  return out;
}"""


def english_left(texts):
    """Texts on a French page that are an English catalog message whose French differs."""
    messages = [m for m in catalog_messages() if m.string and m.string != m.id]
    words = [m.id for m in messages if re.search("[A-Za-z]", re.sub(r"{\w*}", "", m.id))]
    patterns = [re.compile(re.sub(r"\\{\w*\\}", ".+", re.escape(w))) for w in words]
    return [text for text in texts if any(p.fullmatch(text) for p in patterns)]


@pytest.fixture(scope="module")
def browser():
    with chromium() as shared:
        yield shared


def at_first_reveal(settings, seats=(0,), **kwargs):
    """A table with phones for ``seats``, played until the box shows a reveal."""
    table, room, player = web_table(settings, **kwargs)
    give_phones(room, seats)
    player.wait(0.5)

    def revealing(table):
        return isinstance(table.mode, Announce) and room.history

    play_out(table, player, direct(room), until=revealing)
    player.wait(0.5)
    return table, room, player


def caught_up(page, room):
    state = json.loads(room.spectator)
    page.wait_for_function(
        "s => document.getElementById('status').textContent === s",
        arg=state["status"],
        timeout=WAIT,
    )


def shot(page, size=None):
    png = page.screenshot(animations="disabled", **masks(page))
    if size is None:
        return png
    small = Image.open(io.BytesIO(png)).convert("RGB").resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    return out.getvalue()


def no_violations(page):
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_the_tv_fills_the_room_and_the_phone_fits_a_hand(
    game, players, options, lang, browser, served
):
    table, room, _player = at_first_reveal(Settings(game, players, lang, options))
    base = served(room)
    token = room.tokens.by_seat[0]
    for name, (width, height) in TV_SIZES.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(base + "/")
        caught_up(page, room)
        page.wait_for_function("() => !document.getElementById('reveal').hidden", timeout=WAIT)
        assert page.evaluate("document.documentElement.lang") == lang
        measured = page.evaluate(MEASURE)
        assert measured["cover"] >= 0.85, (name, measured)
        assert measured["smallest"] >= 0.02, (name, measured)
        if lang == "fr":
            assert english_left(page.evaluate(TEXTS)) == []
        # how a seat gets a phone, in the table's language at the page's own address, fitted
        hint = page.locator("#hint").inner_text()
        assert hint == hint_words(lang, base) and (lang == "en") == (hint == hint_words("en", base))
        assert page.evaluate(WHOLE, "#hint"), name
        same_screenshot(f"page-{game}-{lang}-tv-{name}", shot(page, (960, 540)))
        if name == "1080p":
            no_violations(page)
        page.close()
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{base}/P/{token}")
    page.wait_for_function("() => document.body.dataset.link === 'live'", timeout=WAIT)
    assert page.evaluate("document.documentElement.lang") == lang
    if private_facts(table):  # a game with a card to read: the card held
        page.wait_for_function("() => !document.getElementById('hold').hidden", timeout=WAIT)
        page.locator("#hold").dispatch_event("pointerdown")
        assert page.locator("#secret").is_visible()
    else:  # nothing to read: nothing to hold
        assert page.locator("#hold").is_hidden()
    png = shot(page)  # (a card held hides itself after a few seconds)
    if lang == "fr":
        assert english_left(page.evaluate(TEXTS)) == []
    no_violations(page)
    same_screenshot(f"page-{game}-{lang}-phone", png)
    page.close()


def private_facts(table, seat=0):
    from companion.web.hand import private_card

    game = table.game
    return private_card(game.view(seat), game.public_view(), table.ui, table.t)


def test_a_private_card_shows_only_while_held_and_never_after_the_link_died(browser, served):
    table, room, player = web_table(Settings("politburo", 7))
    tokens = give_phones(room, [0])
    player.wait(0.5)
    base = served(room)
    facts = private_facts(table)
    assert facts and table.game.view(0)["member"] in " ".join(facts)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{base}/P/{tokens[0]}")
    page.wait_for_function("() => !document.getElementById('hold').hidden", timeout=WAIT)

    def showing():
        text = page.locator("body").inner_text()
        return any(fact in text for fact in facts)

    assert not showing()  # loaded during the game: nothing private until held
    hold = page.locator("#hold")
    hold.dispatch_event("pointerdown")
    assert showing()
    hold.dispatch_event("pointerup")
    assert not showing()  # the hold ended
    hold.dispatch_event("pointerdown")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert not showing()  # the page was hidden (a locked screen, another app)
    hold.dispatch_event("pointerdown")
    page.evaluate("window.dispatchEvent(new Event('blur'))")
    assert not showing()  # the page lost focus
    hold.dispatch_event("pointerdown")
    page.wait_for_function("() => document.body.dataset.card === 'hidden'", timeout=WAIT)
    assert not showing()  # a few seconds passed with the card still held
    # The game ends: the link dies, the page says so and shows the result, nothing private.
    play_out(table, player, direct(room))
    player.wait(0.5)
    page.wait_for_function("() => document.body.dataset.link === 'ended'", timeout=WAIT)
    page.wait_for_function("() => !document.getElementById('end').hidden", timeout=WAIT)
    hold.dispatch_event("pointerdown")
    assert not showing()
    text = page.locator("body").inner_text()
    assert "scan your seat's code" not in text and not page.locator("#dead").is_visible()  # calm
    assert "This game is over." in text
    assert page.locator("#status").inner_text() == json.loads(room.spectator)["status"]
    mine = "You won." if 0 in table.game.result.winners else "You did not win."
    assert page.locator("#mine").inner_text() == mine
    assert page.locator("#save").get_attribute("href").startswith("data:image/svg+xml")


def test_a_link_shown_again_on_the_box_dies_at_once_on_the_old_phone(browser, served):
    _table, room, player = web_table(Settings("gulag", 7))
    tokens = give_phones(room, [0])
    player.wait(0.5)
    base = served(room)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{base}/P/{tokens[0]}")
    page.wait_for_function("() => document.body.dataset.link === 'live'", timeout=WAIT)
    room.qr_image(0)  # the seat's QR code shown again: a new link, the old one dies
    page.wait_for_function("() => document.body.dataset.link === 'dead'", timeout=WAIT)
    # The page asks the room whether a game ended before it says the link died: awaited.
    page.locator("#dead").wait_for(state="visible", timeout=WAIT)
    said = page.locator("#dead").inner_text()  # both ways back: the QR code, or a code at /J
    assert said.startswith("This link no longer works: scan your seat's code on the box again")
    assert said.endswith(f"a code to type at {base.split('://', 1)[1]}/J."), said
    assert "PEEK" not in said  # a phone has no PEEK: the TV tells the box's keys
    assert page.locator("#secret li").count() == 0
    assert not page.locator("#hold").is_visible()


def test_a_refusal_is_told_beside_the_choice_which_stays_chosen(browser, served):
    table, room, player = web_table(Settings("gulag", 10))
    tokens = give_phones(room, range(10))
    player.wait(0.5)

    def picking(table):
        return table.game.decision.kind == "pick_worker" and room.phones.ask_open

    play_out(table, player, direct(room), until=picking)
    commissar = table.game.decision.seats[0]
    base = served(room)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{base}/P/{tokens[commissar]}")
    page.wait_for_function("() => document.body.dataset.ballot", timeout=WAIT)
    send = page.locator("#send")
    box = send.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]  # Send on screen
    own = page.locator("#options button").filter(has_text=re.compile(f"^Seat {commissar + 1}$"))
    own.click()  # G3: the commissar never selects themself
    send.click()
    deadline = time.monotonic() + WAIT / 1000
    while commissar not in room.phones.refusals:  # the box takes the answer, and refuses it
        assert time.monotonic() < deadline, "the answer never arrived"
        time.sleep(0.05)
        player.wait(0.1)
    refused = page.locator("#refused")
    refused.wait_for(state="visible", timeout=WAIT)
    assert "G3" in refused.inner_text()
    assert own.get_attribute("aria-pressed") == "true"  # the choice is kept
    chosen, below = own.bounding_box(), refused.bounding_box()
    assert chosen and below  # right under the refused choice, both on screen
    assert 0 <= below["y"] - (chosen["y"] + chosen["height"]) < chosen["height"]
    assert chosen["y"] >= 0 and below["y"] + below["height"] <= PHONE["height"]


def test_a_reveal_stays_on_the_tv_while_the_box_shows_it_and_survives_a_restart(
    browser, served, tmp_path
):
    journal = Journal(tmp_path / "journal.sqlite")
    tokens_path = tmp_path / "phones.json"
    settings = Settings("gulag", 5)
    table, room, player = at_first_reveal(settings, journal=journal, tokens_path=tokens_path)
    base = served(room)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(base + "/")
    page.wait_for_function("() => !document.getElementById('reveal').hidden", timeout=WAIT)
    event = page.evaluate("document.body.dataset.reveal")
    started = time.monotonic()
    while time.monotonic() - started < 4:  # the box shows it: so does the TV
        player.wait(0.5)  # the box's clock runs; nobody presses OK
        assert isinstance(table.mode, Announce)
        assert page.locator("#reveal").is_visible()
        assert page.evaluate("document.body.dataset.reveal") == event
        time.sleep(0.5)
    shown = len(room.history)
    # the box moves on (OK, then a first move after it): only then does the TV let it go
    player.press("ok")
    assert json.loads(room.spectator)["reveal"]["id"] == int(event)

    def let_go(table):
        return json.loads(room.spectator)["reveal"] is None

    play_out(table, player, direct(room), until=let_go)
    assert len(room.history) == shown  # gone before any new reveal came
    play_out(table, player, direct(room), until=lambda t: len(room.history) > shown)
    history = room.history
    journal.close()
    # a power cut: the same game resumes, and the TV's history is whole
    journal = Journal(tmp_path / "journal.sqlite")
    _again, room2, _ = web_table(None, tokens_path=tokens_path, journal=journal)
    assert room2.history == history and len(history) >= 2
    journal.close()


def test_the_tv_ends_with_the_winners_the_roles_and_a_summary(browser, served):
    table, room, player = web_table(Settings("gulag", 7, "fr"))
    give_phones(room, [])
    play_out(table, player, direct(room))
    player.wait(0.5)
    assert isinstance(table.mode, Over)
    base = served(room)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(base + "/")
    page.locator("#final").wait_for(state="visible", timeout=WAIT)
    winners = sorted(table.game.result.winners)
    headline = page.locator("#headline").inner_text()
    assert all(str(seat + 1) in headline for seat in winners)
    text = page.locator("#final").inner_text()
    roles = table.game.public_view()["roles"]
    red = [i for i, r in enumerate(roles) if r == "red"]
    fr = translator("fr")
    assert fr("Red: {seats}.").format(seats=seats_words(red, fr)) in text  # the roles, told
    box = fr("Red: {seats}").format(seats=" ".join(str(i + 1) for i in red))
    assert box not in text  # in a sentence, not the box's list of numbers
    summary = json.loads(room.spectator)["end"]["summary"]
    assert summary.startswith("<svg") and headline in summary
    measured = page.evaluate(MEASURE)
    assert measured["cover"] >= 0.85 and measured["smallest"] >= 0.02, measured
    no_violations(page)


def test_a_held_card_hides_five_seconds_after_the_press_while_messages_keep_arriving(
    browser, served
):
    table, room, player = web_table(Settings("politburo", 7))
    tokens = give_phones(room, [0])
    player.wait(0.5)
    base = served(room)
    page = browser.new_page(viewport=PHONE)
    page.clock.install()
    page.goto(f"{base}/P/{tokens[0]}")
    page.wait_for_function("() => !document.getElementById('hold').hidden", timeout=WAIT)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # the page's time, held still
    page.locator("#hold").dispatch_event("pointerdown")
    for n in range(4):  # a message a second while the card is held (each redraws the page)
        page.clock.run_for(1000)
        room.phones.refused(0, (f"message {n}",))
        page.wait_for_function(
            "n => document.getElementById('refused').textContent.includes(n)",
            arg=f"message {n}",
            timeout=WAIT,
        )
        assert page.evaluate("document.body.dataset.card") == "shown"
    page.clock.run_for(1100)  # 5.1 s after the press
    assert page.evaluate("document.body.dataset.card") == "hidden"
    assert table.game is not None


def test_an_answer_lost_on_the_way_is_sent_again_and_sent_is_said_only_once_taken(browser, served):
    _table, room, player = web_table(Settings("gulag", 5))
    tokens = give_phones(room, [0])
    player.wait(0.5)
    assert 0 in room.phones.ask_open.offers
    base = served(room)
    page = browser.new_page(viewport=PHONE)
    lost = []

    def wifi(ws):
        server = ws.connect_to_server()

        def to_the_box(message):
            if not lost and '"ballot"' in str(message):
                lost.append(message)  # the first answer never reaches the box
                return
            server.send(message)

        ws.on_message(to_the_box)

    page.route_web_socket(re.compile("/ws/P/"), wifi)
    page.clock.install()
    page.goto(f"{base}/P/{tokens[0]}")
    page.wait_for_function("() => document.body.dataset.ballot", timeout=WAIT)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.locator("#options button").first.click()
    page.locator("#send").click()
    assert lost and 0 not in room.phones.ask_open.answered
    assert page.evaluate("document.body.dataset.answer") == "sending"
    assert page.locator("#send").inner_text() == "Sending…" and page.locator("#send").is_disabled()
    page.clock.run_for(1600)  # sent again, taken, and only now said so
    page.wait_for_function("() => document.body.dataset.answer === 'taken'", timeout=WAIT)
    assert 0 in room.phones.ask_open.answered
    assert room.phones.poll() == [(0, "seen")]  # played once
    page.wait_for_function("() => !document.getElementById('wait').hidden", timeout=WAIT)
    assert page.locator("#wait-text").inner_text() == "Sent: waiting for the others."
