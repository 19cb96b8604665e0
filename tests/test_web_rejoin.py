"""Rejoining a seat: a short code from the box, and a new phone let in only once confirmed.

The codes' own rules run on a clock of the test's; the rest runs a real server on the
loopback (127.0.1.x addresses stand for separate phones) beside a virtual table.
"""

import asyncio
import json
import logging
import threading
import time

import aiohttp

from companion.table import Settings
from companion.table.modes import (
    Admit,
    Announce,
    Choose,
    Confirm,
    Cursor,
    Handoff,
    Over,
    Peek,
    Phones,
)
from companion.ui.i18n import translator
from companion.web import rejoin
from companion.web.rejoin import CAP, CAPPED, LIFE, PATIENCE, WRONG, Codes
from companion.web.server import NO_SEAT, REPLACED
from tests.browser import chromium
from tests.test_web_limits import get, raw, serving, session_from
from tests.webtables import play_out, web_table


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_code_works_once_and_only_whole():
    codes = Codes(Clock())
    code = codes.issue(3)
    assert len(code) == 6 and code.isdigit()
    for near in (code[:-1], code + "0", "0" + code, code[1:], f"{code} ", code + code, ""):
        assert codes.use(near) == WRONG, near
    assert codes.use(code) == 3
    assert codes.use(code) == WRONG  # used: it works once


def test_a_new_code_for_a_seat_kills_its_old_one():
    codes = Codes(Clock())
    old = codes.issue(2)
    new = codes.issue(2)
    assert codes.use(old) == WRONG or old == new
    assert codes.use(new) == 2


def test_a_code_lives_two_minutes_of_the_rooms_clock():
    clock = Clock()
    codes = Codes(clock)
    code = codes.issue(0)
    clock.now += LIFE - 0.1
    later = codes.issue(1)
    assert codes.use(code) == 0  # still alive just before its two minutes
    code = codes.issue(0)
    clock.now += LIFE
    assert codes.use(code) == WRONG  # expired
    assert codes.use(later) == WRONG  # two minutes after it was shown, to the tenth


def test_the_rooms_cap_on_wrong_codes_kills_every_live_code():
    clock = Clock()
    codes = Codes(clock)
    live = {seat: codes.issue(seat) for seat in range(3)}
    wrong = next(f"{n:06d}" for n in range(10**6) if f"{n:06d}" not in live.values())
    for _ in range(CAP - 1):
        assert codes.use(wrong) == WRONG
    assert codes.use(wrong) == CAPPED
    assert all(codes.use(code) == WRONG for code in live.values())  # every live code died
    fresh = codes.issue(1)
    assert codes.use(fresh) == 1  # the box's next code works
    # Wrong codes spread out over more than the window never reach the cap
    codes = Codes(clock)
    code = codes.issue(0)
    for _ in range(3 * CAP):
        clock.now += rejoin.WINDOW / (CAP - 2)  # at most CAP - 1 in any window
        code = codes.issue(0)
        assert codes.use(wrong) == WRONG
    assert codes.use(code) == 0


def test_the_box_shows_where_to_type_the_code_as_a_person_types_it():
    assert rejoin.shown_address("HTTP://10.42.0.1:8080/J") == "10.42.0.1:8080/J"
    assert rejoin.shown_address("HTTP://10.42.0.1:80/J") == "10.42.0.1/J"
    frame = rejoin.code_frame("042917", 3, "192.168.100.100:8080/J", translator("fr"))
    assert frame.size == (128, 64)
    address = frame.crop((0, 64 - 24, 128, 64 - 12))
    assert address.getbbox() is not None and address.getbbox()[2] >= 126  # narrowed, not cut


# -- through the server ------------------------------------------------------------------


def post_code(port, code, source="127.0.0.1", path="/J"):
    """A form POST of ``code``: (status, Location or None, body)."""
    body = f"code={code}".encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    answer = raw(port, head.encode() + body, source)
    top, _, text = answer.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers.get("Location"), text.decode("utf-8", "replace")


def box_code(table, player, room, seat):
    """The seat holding the box asks for its code: PEEK held, Down pressed."""
    assert table.decision().seats[0] == seat
    board = table.box.virtual_board
    board.drive("peek", True)
    player.wait(0.05)
    player.press("down")
    board.drive("peek", False)
    player.wait(0.05)
    assert table.shown is not None  # the code's frame is on the panel
    return room.codes.live[seat][0]


def at_prompt(table, player):
    """The box handed over: the seat asked holds it, at its own prompt."""
    while isinstance(table.mode, Handoff | Announce):
        player.press("ok")
    assert isinstance(table.mode, Peek | Choose | Cursor), table.mode


def test_a_code_from_the_box_gives_the_seat_a_new_link_once(caplog):
    caplog.set_level(logging.DEBUG)
    table, room, player = web_table(Settings("politburo", 7))
    at_prompt(table, player)
    seat = table.decision().seats[0]
    old = room.tokens.issue(seat)
    code = box_code(table, player, room, seat)
    with serving(room) as server:
        assert get(server.port, "/J")[0] == 200
        status, where, _ = post_code(server.port, code[:3] + " " + code[3:])  # as shown
        assert status == 303 and where.startswith("/P/")
        token = where.rsplit("/", 1)[1]
        assert room.tokens.seat_of(token) == seat and room.tokens.seat_of(old) is None
        assert get(server.port, where)[0] == 200
        status, where, page = post_code(server.port, code)  # a second time
        assert status == 403 and where is None
        assert "This code does not work" in page and token not in page
        assert room.tokens.seat_of(token) == seat  # nothing else changed
        # Prefix and extension, and noise: one line each, nothing joins
        for near in (code[:5], code + "1", "", "x" * 300):
            assert post_code(server.port, near)[0] == 403
        logging.getLogger("aiohttp.server").info("GET /J?code=%s", code)
        logging.getLogger("aiohttp.access").info("GET /J/%s", code)
        raw(server.port, f"GET /J/{code}{'x' * 9000} HTTP/1.1\r\n\r\n".encode())
    assert code not in caplog.text and token not in caplog.text


def test_the_cap_counts_wrong_codes_from_every_address_together():
    table, room, player = web_table(Settings("politburo", 7))
    at_prompt(table, player)
    seat = table.decision().seats[0]
    code = box_code(table, player, room, seat)
    wrong = "000000" if code != "000000" else "000001"
    with serving(room) as server:
        said = [post_code(server.port, wrong, source=f"127.0.1.{i + 1}") for i in range(CAP)]
        assert [s[0] for s in said] == [403] * CAP
        assert all("does not work" in s[2] for s in said[:-1])
        words = rejoin.join_words(translator("en"))
        assert words[CAPPED] in said[-1][2] and "does not work" not in said[-1][2]
        status, _, page = post_code(server.port, code, source="127.0.1.99")
        assert status == 403 and "does not work" in page  # the live code died
        code = box_code(table, player, room, seat)
        assert post_code(server.port, code, source="127.0.1.99")[0] == 303  # a new one works


def test_a_post_anywhere_else_and_a_cross_origin_form_are_refused():
    table, room, player = web_table(Settings("politburo", 7))
    at_prompt(table, player)
    code = box_code(table, player, room, table.decision().seats[0])
    with serving(room) as server:
        body = f"code={code}".encode()
        head = (
            f"POST /J HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: http://evil.example\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n"
        )
        assert raw(server.port, head.encode() + body).startswith(b"HTTP/1.1 403")
        head = head.replace("Origin: http://evil.example", "Sec-Fetch-Site: cross-site")
        assert raw(server.port, head.encode() + body).startswith(b"HTTP/1.1 403")
        status, _, _ = post_code(server.port, code, path="/")
        assert status in (400, 405)
        assert get(server.port, "/J", host="evil.example")[0] == 421
        forged = head.replace(f"127.0.0.1:{server.port}", "evil.example").replace(
            "Sec-Fetch-Site: cross-site\r\n", ""
        )
        assert raw(server.port, forged.encode() + body).startswith(b"HTTP/1.1 421")
    assert room.codes.live  # the code was never tried


# -- confirmations -------------------------------------------------------------------------


async def receive_json(ws, timeout=5):
    msg = await ws.receive(timeout=timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, (msg.type, msg.data)
    return json.loads(msg.data)


async def until(ws, kind, timeout=5):
    """The next message of type ``kind`` (phone states on the way are skipped)."""
    while True:
        message = await receive_json(ws, timeout)
        if message["type"] == kind:
            return message


async def asked(ws):
    """The next phone state that asks this phone about a new phone."""
    while True:
        message = await until(ws, "phone")
        if message["request"] is not None:
            return message["request"]


async def cleared(ws):
    """The next phone state that asks this phone nothing about a new phone."""
    while True:
        message = await until(ws, "phone")
        if message["request"] is None:
            return message


async def step(player, seconds=0.2):
    """The table steps in the test's thread while the server's loop runs its own."""
    player.wait(seconds)
    await asyncio.sleep(0.05)


def phones_scenario(settings, scenario):
    """``scenario`` against a served room; the room's messages are made on the table's
    thread only (the server's side never calls into the game)."""
    table, room, player = web_table(settings)
    seat = table.decision().seats[0]
    token = room.tokens.issue(seat)
    publish, threads = room.publish, set()

    def watched(*args):
        threads.add(threading.current_thread())
        publish(*args)

    room.publish = watched
    with serving(room) as server:
        base = f"http://127.0.0.1:{server.port}"
        asyncio.run(scenario(table, room, player, base, seat, token))
    assert threads <= {threading.current_thread()}
    return table, room


def test_a_second_phone_on_a_held_seat_waits_until_the_holding_phone_lets_it_in():
    async def scenario(table, room, player, base, seat, token):
        async with session_from(1) as one, session_from(2) as two:
            first = await one.ws_connect(f"{base}/ws/P/{token}")
            await until(first, "phone")
            second = await two.ws_connect(f"{base}/ws/P/{token}")
            waiting = await receive_json(second)
            assert waiting["type"] == "waiting" and f"seat {seat + 1}" in waiting["text"]
            request = await asked(first)
            assert "Another phone asks" in request["text"]
            await step(player)  # the TV hears it from the table's thread, on its next turn
            tv = json.loads(room.spectator)
            assert [s["asks"] for s in tv["room"]] == [s == seat for s in range(7)]
            assert room.phones.connected[seat] == 1  # the waiting phone holds nothing
            assert isinstance(table.mode, Admit)  # the box asks too, over the phones' vote
            await first.send_str(json.dumps({"request": request["number"], "let": True}))
            assert await until(first, "replaced") == {"type": "replaced"}
            closing = await first.receive(timeout=5)
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == REPLACED
            state = await until(second, "phone")
            assert state["seat"] == seat + 1 and state["request"] is None
            await step(player)
            tv = json.loads(room.spectator)
            assert not any(s["asks"] for s in tv["room"])
            assert tv["rejoin"] == f"Seat {seat + 1} moved to a new phone."
            assert token not in room.spectator
            await step(player)
            assert not isinstance(table.mode, Admit)  # the box's question went away
            await step(player, rejoin.SAID)
            assert json.loads(room.spectator)["rejoin"] is None  # said for a minute
            await second.close()

    phones_scenario(Settings("politburo", 7), scenario)


def test_the_holding_phone_refuses_and_the_new_phone_is_told_and_closed():
    async def scenario(table, room, player, base, seat, token):
        async with session_from(1) as one, session_from(2) as two:
            first = await one.ws_connect(f"{base}/ws/P/{token}")
            await until(first, "phone")
            second = await two.ws_connect(f"{base}/ws/P/{token}")
            await until(second, "waiting")
            request = await asked(first)
            # An answer for a request of another number, or not a boolean: refused, nothing moves
            other = {"request": request["number"] + 1, "let": True}
            for wrong in (other, {"request": "1", "let": 1}):
                await first.send_str(json.dumps(wrong))
                assert (await until(first, "request"))["why"]
            await first.send_str(json.dumps({"request": request["number"], "let": False}))
            refused = await until(second, "no_seat")
            assert refused["text"] == f"Refused: seat {seat + 1} keeps its phone."
            closing = await second.receive(timeout=5)
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == NO_SEAT
            assert (await cleared(first))["seat"] == seat + 1  # it keeps the seat
            await step(player)
            assert json.loads(room.spectator)["rejoin"] == (
                f"A new phone for seat {seat + 1} was refused."
            )
            await first.close()

    phones_scenario(Settings("politburo", 7), scenario)


def test_the_box_asks_at_a_public_screen_and_its_ok_lets_the_phone_in():
    async def scenario(table, room, player, base, seat, token):
        async with session_from(1) as one, session_from(2) as two:
            first = await one.ws_connect(f"{base}/ws/P/{token}")
            await until(first, "phone")
            second = await two.ws_connect(f"{base}/ws/P/{token}")
            await until(second, "waiting")
            await asked(first)
            await step(player)
            assert isinstance(table.mode, Admit) and table.mode.seat == seat
            covered = table.mode.back
            assert isinstance(covered, Phones)  # the seat's phone is asked: a public screen
            assert "asks for seat" in " ".join(table.screen().body)
            await step(player, 1)  # past the guard against a press meant for the last screen
            player.press("ok")
            assert table.mode == covered  # the screen it covered
            assert await until(first, "replaced") == {"type": "replaced"}
            assert (await until(second, "phone"))["seat"] == seat + 1
            # The replaced phone reloads its link: it waits too, and the box refuses it
            again = await one.ws_connect(f"{base}/ws/P/{token}")
            await until(again, "waiting")
            await step(player)
            assert isinstance(table.mode, Admit)
            await step(player, 1)
            player.press("back")
            assert table.mode == covered
            assert (await until(again, "no_seat"))["text"].startswith("Refused")
            assert (await cleared(second))["seat"] == seat + 1
            await second.close()

    phones_scenario(Settings("politburo", 7), scenario)


def test_a_code_used_while_a_phone_holds_the_seat_waits_and_the_old_link_dies_once_in():
    async def scenario(table, room, player, base, seat, token):
        at_prompt(table, player)  # the seat's phone was away: the box asked it
        code = box_code(table, player, room, seat)
        async with session_from(1) as one, session_from(2) as two:
            first = await one.ws_connect(f"{base}/ws/P/{token}")  # and now it is back
            await until(first, "phone")
            form = aiohttp.FormData({"code": code})
            async with two.post(f"{base}/J", data=form, allow_redirects=False) as answer:
                assert answer.status == 303
                fresh = answer.headers["Location"].rsplit("/", 1)[1]
            assert room.tokens.seat_of(token) == seat  # nothing changes before it is let in
            assert room.tokens.seat_of(fresh) is None
            second = await two.ws_connect(f"{base}/ws/P/{fresh}")
            await until(second, "waiting")
            await step(player)
            assert not isinstance(table.mode, Admit)  # never over the seat's own prompt
            request = await asked(first)
            await first.send_str(json.dumps({"request": request["number"], "let": True}))
            await until(first, "replaced")
            assert (await until(second, "phone"))["seat"] == seat + 1
            assert room.tokens.seat_of(fresh) == seat and room.tokens.seat_of(token) is None
            await second.close()

    phones_scenario(Settings("politburo", 7), scenario)


def test_a_request_nobody_answers_lapses_after_a_minute_with_one_line():
    async def scenario(table, room, player, base, seat, token):
        async with session_from(1) as one, session_from(2) as two:
            first = await one.ws_connect(f"{base}/ws/P/{token}")
            await until(first, "phone")
            second = await two.ws_connect(f"{base}/ws/P/{token}")
            await until(second, "waiting")
            await step(player, PATIENCE - 1)
            assert room.requests.open  # not yet
            await step(player, 1)
            said = await until(second, "no_seat")
            assert said["text"].startswith("Nobody answered within a minute")
            assert not room.requests.open
            await step(player)
            assert not isinstance(table.mode, Admit)
            await first.close()

    phones_scenario(Settings("politburo", 7), scenario)


def test_phones_asking_in_a_burst_and_leaving_leave_the_box_as_it_was():
    """Twenty phones open a held seat's link at once, from twenty addresses, and go: the box
    keeps playing, its question gone with them, and the seat keeps its phone."""

    async def scenario(table, room, player, base, seat, token):
        async with session_from(1) as one:
            first = await one.ws_connect(f"{base}/ws/P/{token}")
            await until(first, "phone")
            sessions = [session_from(10 + i) for i in range(20)]
            others = await asyncio.gather(*(s.ws_connect(f"{base}/ws/P/{token}") for s in sessions))
            await step(player)
            for ws in others:
                await ws.close()
            for session in sessions:
                await session.close()
            for _ in range(100):
                await step(player, 0.05)
                if not room.requests.open and not isinstance(table.mode, Admit):
                    break
            assert not room.requests.open and not isinstance(table.mode, Admit)
            assert room.phones.connected[seat] == 1
            assert (await cleared(first))["seat"] == seat + 1
            await first.close()

    phones_scenario(Settings("politburo", 7), scenario)


def test_a_phone_waiting_when_another_game_begins_hears_its_link_died():
    async def scenario(table, room, player, base, seat, token):
        async with session_from(1) as one, session_from(2) as two:
            first = await one.ws_connect(f"{base}/ws/P/{token}")
            await until(first, "phone")
            second = await two.ws_connect(f"{base}/ws/P/{token}")
            await until(second, "waiting")
            table.abandon()
            table.start(Settings("politburo", 7))
            await step(player)
            while (msg := await second.receive(timeout=5)).type == aiohttp.WSMsgType.TEXT:
                assert json.loads(msg.data)["type"] != "no_seat"
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4403
            assert not room.requests.open

    phones_scenario(Settings("politburo", 7), scenario)


def test_a_link_joins_at_once_when_no_phone_holds_the_seat():
    async def scenario(table, room, player, base, seat, token):
        async with session_from(1) as one, session_from(2) as two:
            first = await one.ws_connect(f"{base}/ws/P/{token}")
            await until(first, "phone")
            await first.close()
            await asyncio.sleep(0.1)
            second = await two.ws_connect(f"{base}/ws/P/{token}")
            assert (await receive_json(second))["type"] == "phone"
            await second.close()

    phones_scenario(Settings("politburo", 7), scenario)


# -- the box's question: only over a public screen ------------------------------------------

PRIVATE = (Peek, Choose, Confirm, Cursor)


def test_the_box_never_asks_over_a_seats_own_screen_only_at_a_public_one():
    """A game on the box's buttons with a new phone asking for a seat all along: at every
    private screen (Peek, Choose, Confirm, Cursor) the box keeps it; at the next public one
    it asks, and Back refuses."""
    table, room, player = web_table(Settings("gulag", 5))
    seen, asked_over = set(), set()

    def check(table):
        mode = table.mode
        if isinstance(mode, Choose) and Confirm not in seen:
            player.press("choice_a")
            mode = table.mode
        if isinstance(mode, PRIVATE):
            room.ask_for_seat(mode.seat, "X" * 24, fresh=True)
            player.wait(0.5)
            assert table.mode is mode or type(table.mode) is type(mode), table.mode
            assert not isinstance(table.mode, Admit)
            seen.add(type(mode))
            if isinstance(mode, Confirm):
                player.press("back")  # choose again: the bot's choice follows
        elif room.requests.open:
            player.wait(0.5)
            assert isinstance(table.mode, Admit), table.mode
            asked_over.add(type(table.mode.back))
            player.press("back")
            assert not room.requests.open and not isinstance(table.mode, Admit)
        return len(seen) == len(PRIVATE) and len(asked_over) >= 2

    play_out(table, player, answer_phone=None, until=check)
    assert seen == set(PRIVATE)
    assert asked_over <= {Handoff, Announce, Over}, asked_over


# -- in Chromium -----------------------------------------------------------------------------

PHONE = {"width": 390, "height": 844}
WAIT = 10_000  # ms a page may take to catch up (a bound, not a measure)


def no_violations(page):
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_a_phone_rejoins_by_code_once_the_seats_phone_lets_it_in_in_chromium(served):
    """Phone A holds seat 1; phone B types the seat's code on /J and waits; A lets it in and
    wipes its page; phone C opens B's link and waits; B keeps its seat, and C is told."""
    table, room, player = web_table(Settings("politburo", 7))
    seat = table.decision().seats[0]
    token = room.tokens.issue(seat)
    base = served(room)

    def tv_says(text):
        """The TV's room line says ``text`` (the table's loop turning meanwhile, as a box's
        does: the TV hears of phones from its thread)."""
        for _ in range(WAIT // 50):
            player.wait(0.05)
            if text in tv.locator("#names").inner_text():
                return
            time.sleep(0.05)
        raise AssertionError(f"the TV never said {text!r}")

    with chromium() as browser:
        a = browser.new_page(viewport=PHONE)
        a.goto(f"{base}/P/{token}")
        a.wait_for_function("() => document.body.dataset.link === 'live'", timeout=WAIT)
        room.phones.code(seat)  # shown on the box (PEEK held + Down: tested above)
        code = room.codes.live[seat][0]
        b = browser.new_page(viewport=PHONE)  # a context of its own: another phone
        b.goto(f"{base}/J")
        assert b.locator("#code").get_attribute("inputmode") == "numeric"
        no_violations(b)
        b.fill("#code", f"{code[:3]} {code[3:]}")
        b.click("button[type=submit]")
        b.wait_for_function("() => document.body.dataset.link === 'waiting'", timeout=WAIT)
        assert "Waiting for seat 1's phone or the box" in b.locator("#link").inner_text()
        assert b.locator("#private").is_hidden() and b.locator("#naming").is_hidden()
        a.wait_for_selector("#request:not([hidden])", timeout=WAIT)
        assert "Another phone asks for seat 1" in a.locator("#request-text").inner_text()
        no_violations(a)
        tv = browser.new_page(viewport={"width": 1280, "height": 720})
        tv.goto(f"{base}/")
        tv_says("1 (new phone asks)")
        a.click("#let-in")
        a.wait_for_function("() => document.body.dataset.link === 'replaced'", timeout=WAIT)
        tv_says("Seat 1 moved to a new phone.")
        assert "new phone asks" not in tv.locator("#names").inner_text()
        assert code not in tv.content() and token not in tv.content()
        b.wait_for_function("() => document.body.dataset.link === 'live'", timeout=WAIT)
        assert b.locator("#seat").inner_text() == "Seat 1" and b.locator("#private").is_visible()
        assert "/P/" in b.url and token not in b.url and room.tokens.seat_of(token) is None
        # A third phone on B's link waits; B keeps its seat
        c = browser.new_page(viewport=PHONE)  # a context of its own: another phone
        c.goto(b.url)
        c.wait_for_function("() => document.body.dataset.link === 'waiting'", timeout=WAIT)
        b.wait_for_selector("#request:not([hidden])", timeout=WAIT)
        b.click("#keep")
        c.wait_for_function("() => document.body.dataset.link === 'no_seat'", timeout=WAIT)
        assert c.locator("#dead").inner_text() == "Refused: seat 1 keeps its phone."
        no_violations(c)
        b.wait_for_selector("#request", state="hidden", timeout=WAIT)
        assert b.evaluate("document.body.dataset.link") == "live"


def test_the_join_page_speaks_the_tables_language_and_refuses_in_one_line(served):
    _table, room, _player = web_table(Settings("politburo", 7, "fr"))
    base = served(room)
    with chromium() as browser:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{base}/J")
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.locator("h1").inner_text() == "Rejoindre par code"
        no_violations(page)
        page.fill("#code", "12345")
        page.click("button[type=submit]")
        page.wait_for_selector(".refused", timeout=WAIT)
        assert page.locator(".refused").count() == 1
        assert page.locator(".refused").inner_text().startswith("Ce code ne fonctionne pas")
        no_violations(page)
