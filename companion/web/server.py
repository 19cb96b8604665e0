"""The aiohttp server, in its own thread with its own asyncio loop beside the table loop.

Endpoints: ``/`` the spectator page and ``/ws`` its live feed (public only);
``/TV/<token>`` and ``/ws/TV/<token>`` the same for the box's own TV, which
always gets in; ``/P/<token>`` a seat's phone page and ``/ws/P/<token>`` its
feed and answers; ``/J`` the page where a seat's code (``rejoin``) is typed,
the one page that takes a body (a POSTed form, at most ``MAX_REQUEST`` bytes).
A phone joining a seat whose phone is connected waits until that phone or the
box lets it in. Every token is checked in constant time; a wrong, stale or
other seat's token gets 403 and changes nothing. The ``Host`` must be the
address the connection came in on (no DNS rebinding), websocket Origins must
be this server, requests and messages are small and rate-bounded, every
response carries the security headers, private messages are padded
(``padding``), and connections are bounded (``guard``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from importlib import resources
from typing import Any
from xml.sax.saxutils import escape

from aiohttp import WSMsgType, hdrs, web

from companion.ui.i18n import translator
from companion.web.address import WebAddress, is_address
from companion.web.guard import BACKLOG, HEADERS, Connections, GuardedHandler
from companion.web.padding import padded
from companion.web.rejoin import ENDED, IN, Request, join_words, shown_address, waiting_words
from companion.web.room import WebRoom

log = logging.getLogger("companion.web")

MAX_REQUEST = 1024  # bytes: only the join page's form has a body
MAX_MESSAGE = 256  # bytes: a phone's answer is a ballot and an index
MAX_SPECTATORS = 200  # spectator feeds in all, the TV link's aside
SPECTATORS_PER_ADDRESS = 4  # a device may watch on a few tabs, never take everyone's slots
TV_SLOTS = 2  # the TV link's feeds: a TV reloading displaces its own older feed
RATE = 5.0  # messages a second a phone may send, with a burst of BURST
BURST = 10.0
REQUESTS = 20.0  # HTTP requests (websocket handshakes included) a second from one address,
REQUEST_BURST = 100.0  # with this burst: a booth's phones and TVs may share one address
MAX_ADDRESSES = 1024  # request buckets kept at once
REPLACED = 4409  # close code: another phone took this seat
NO_SEAT = 4410  # close code: this phone's request for a seat was refused, lapsed or replaced
JOIN = "/J"  # where a code is typed (``/j`` too: a phone's keyboard starts in lower case)
STATIC = ("spectator.js", "phone.js", "style.css")
PAGES = ("spectator.html", "phone.html")


#: The head of the pages the server writes itself: the phone page's style, no referrer.
HEAD = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="stylesheet" href="/static/style.css">
</head>
"""

#: The page a dead, stale or forged link gets (403): styled as the others, in the table's
#: language, and saying what to do; it names no token and no seat.
GONE = (
    HEAD
    + """<body class="phone gone">
<header><h1>Companion</h1></header>
<main><p class="dead">{text}</p></main>
</body>
</html>
"""
)


#: The join page: one field for the code, and one line when a code was refused.
JOIN_PAGE = (
    HEAD
    + """<body class="phone join">
<header><h1>{title}</h1></header>
<main>
{said}<form method="post" action="/J">
<label for="code">{label}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8"
 required autofocus>
<button type="submit">{join}</button>
</form>
<p class="hint">{hint}</p>
</main>
</body>
</html>
"""
)


def join_page(lang: str, words: dict[str, str], why: str | None = None) -> str:
    """The join page in the table's language, with ``why`` a code was refused (one line)."""
    said = "" if why is None else f'<p class="refused" role="alert">{escape(words[why])}</p>\n'
    fields = {k: escape(words[k]) for k in ("title", "label", "join", "hint")}
    return JOIN_PAGE.format(lang=escape(lang), said=said, **fields)


def gone(lang: str, text: str, host: str = "") -> web.HTTPForbidden:
    """The refusal of a link that does not (or no longer) work, as a page a person can read;
    ``{where}`` in ``text`` is the join page at ``host``, the address the phone reached."""
    text = text.replace("{where}", shown_address(f"{host}{JOIN}"))
    page = GONE.format(
        lang=escape(lang), title=escape(text.split(":")[0].strip()), text=escape(text)
    )
    return web.HTTPForbidden(text=page, content_type="text/html")


def _asset(name: str) -> bytes:
    return resources.files("companion.web").joinpath("static", name).read_bytes()


def now() -> float:
    """The buckets' clock (a test holds it still)."""
    return time.monotonic()


class Bucket:
    """A token bucket: ``rate`` a second, ``burst`` at once."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.at = now()

    def take(self) -> bool:
        moment = now()
        self.level = min(self.burst, self.level + (moment - self.at) * self.rate)
        self.at = moment
        if self.level < 1:
            return False
        self.level -= 1
        return True


class Feed:
    """Wakes every connected client when the room changed (``wake`` from any thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.version = 0
        self.event = asyncio.Event()

    def wake(self) -> None:
        self.loop.call_soon_threadsafe(self.bump)

    def bump(self) -> None:
        """Wake the clients now (on the server's loop)."""
        self.version += 1
        self.event.set()
        self.event.clear()

    async def changes(self, seen: int) -> int:
        while self.version == seen:
            await self.event.wait()
        return self.version


class Redacted(logging.Filter):
    """Takes phone and TV tokens, and anything that may carry a seat's code, out of every
    log record of the web server."""

    # a token in a path, and anything that may carry a seat's code: a query or a form field
    # named code, a path under /J, a run of digits after /J
    TOKEN = re.compile(r"(/(?:P|TV|J)/|[?&]code=|\bcode=|/J\?)[^\s\"?&]+", re.IGNORECASE)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.TOKEN.search(message):
            record.msg, record.args = self.TOKEN.sub(r"\1…", message), ()
        for key, value in list(vars(record).items()):
            if isinstance(value, str) and key != "msg" and self.TOKEN.search(value):
                setattr(record, key, self.TOKEN.sub(r"\1…", value))
        return True


REDACTED = Redacted()
for _name in ("aiohttp.access", "aiohttp.server", "aiohttp.web", "aiohttp.websocket"):
    logging.getLogger(_name).addFilter(REDACTED)


def host_allowed(host: str | None, local: tuple[str, int] | None) -> bool:
    """Whether ``Host: host`` names the address and port the connection came in on.

    A page served under another name (a DNS rebinding attack) gets nothing;
    ``localhost`` is accepted on the loopback.
    """
    if not host or local is None:
        return False
    name, port_text = host, ""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        if rest and not rest.startswith(":"):
            return False
        port_text = rest[1:]
    elif host.count(":") == 1:
        name, _, port_text = host.partition(":")
    if port_text and not port_text.isdigit():
        return False
    if (int(port_text) if port_text else 80) != local[1]:
        return False
    here = ipaddress.ip_address(local[0].split("%")[0])
    if isinstance(here, ipaddress.IPv6Address) and here.ipv4_mapped is not None:
        here = here.ipv4_mapped
    if name.lower() == "localhost":
        return here.is_loopback
    try:
        return ipaddress.ip_address(name) == here
    except ValueError:
        return False


def _local(request: web.Request) -> tuple[str, int] | None:
    sock = request.transport.get_extra_info("sockname") if request.transport else None
    return (str(sock[0]), int(sock[1])) if sock else None


class Rates:
    """A request bucket per address (kept for ``MAX_ADDRESSES`` addresses at most)."""

    def __init__(self) -> None:
        self.buckets: dict[str, Bucket] = {}

    def allow(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self.buckets.clear()
            bucket = self.buckets[address] = Bucket(REQUESTS, REQUEST_BURST)
        return bucket.take()


async def _checked(
    request: web.Request, handler: Any, rates: Rates, guard: Connections | None
) -> web.StreamResponse:
    """Host, no body, the rate; the guard holds the connection as busy while it is handled."""
    if not host_allowed(request.headers.get(hdrs.HOST), _local(request)):
        raise web.HTTPMisdirectedRequest(text="this box does not answer to that name")
    form = request.method == "POST" and request.path in (JOIN, JOIN.lower())
    if request.body_exists and not form:  # refused at once, the connection closed: nothing waits
        refused = web.HTTPBadRequest(text="no page here takes a body")
        refused.force_close()
        raise refused
    if not rates.allow(request.remote or "?"):
        raise web.HTTPTooManyRequests(text="too many requests")
    if guard is None:
        return await handler(request)
    guard.busy(request.protocol)
    try:
        return await handler(request)
    finally:
        guard.idle(request.protocol)


def limits(guard: Connections | None) -> Any:
    """The middleware: the checks of ``_checked``, then the security headers on every answer."""
    rates = Rates()

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response = await _checked(request, handler, rates, guard)
        except web.HTTPException as exc:
            exc.headers.update(HEADERS)
            raise
        if not response.prepared:
            response.headers.update(HEADERS)
        return response

    return middleware


def _answer(room: WebRoom, seat: int, data: str) -> dict[str, Any]:
    """A phone's answer ``{"ballot": n, "option": i}`` handed to the room; the reply that
    names its ballot: ``taken``, or ``refused`` and why."""
    why: str | None
    try:
        message = json.loads(data)
    except ValueError:
        message, why = None, "not JSON"
    if isinstance(message, dict) and set(message) == {"name"}:  # a seat's name, typed
        return {"type": "name", "why": room.phones.name(seat, message["name"]) or ""}
    if isinstance(message, dict) and set(message) == {"request", "let"}:  # a new phone asks
        why = room.phones.admit_from(seat, message["request"], message["let"])
        return {"type": "request", "why": why or ""}
    else:
        if not isinstance(message, dict) or set(message) != {"ballot", "option"}:
            why = "expected {ballot, option}"
        else:
            why = room.phones.answer(seat, message["ballot"], message["option"])
    ballot = message.get("ballot") if isinstance(message, dict) else None
    named = ballot if type(ballot) is int else None
    if why is None:
        return {"type": "taken", "ballot": named}
    return {"type": "refused", "ballot": named, "why": why}


class Site:
    """The endpoints of one room and what they share: feeds, spectator slots, one phone a seat."""

    def __init__(self, room: WebRoom, tv_token: str | None = None) -> None:
        self.room = room
        self.tv_token = tv_token
        self.assets = {name: _asset(name) for name in (*PAGES, *STATIC)}  # read once, at start
        self.feed: Feed | None = None
        self.spectators: dict[str, list[web.WebSocketResponse]] = {}  # address -> its feeds
        self.tv: list[web.WebSocketResponse] = []  # the TV link's feeds, oldest first
        self.phones: dict[int, web.WebSocketResponse] = {}  # seat -> its one phone

    # -- start and stop -------------------------------------------------------------------
    async def on_startup(self, app: web.Application) -> None:
        self.feed = Feed(asyncio.get_running_loop())
        self.room.listeners.append(self.feed.wake)

    async def on_shutdown(self, app: web.Application) -> None:
        if self.feed is not None:
            self.room.listeners.remove(self.feed.wake)
        feeds = [ws for group in self.spectators.values() for ws in group]
        for ws in [*feeds, *self.tv, *self.phones.values()]:
            await ws.close()

    # -- pages ----------------------------------------------------------------------------
    def page(self, name: str) -> web.Response:
        return web.Response(body=self.assets[name], content_type="text/html", charset="utf-8")

    async def spectator_page(self, request: web.Request) -> web.Response:
        return self.page("spectator.html")

    async def tv_page(self, request: web.Request) -> web.Response:
        self.tv_checked(request)
        return self.page("spectator.html")

    async def phone_page(self, request: web.Request) -> web.Response:
        self.seat_of(request)
        return self.page("phone.html")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return web.Response(body=self.assets[name], content_type=kind, charset="utf-8")

    def seat_of(self, request: web.Request) -> int:
        """The seat of the link's token: a live one, or the link a code made for a seat
        whose phone is connected (it joins once let in)."""
        token = request.match_info["token"].upper()
        with self.room.lock:
            seat = self.room.tokens.seat_of(token)
            if seat is None:
                seat = self.room.requests.fresh_seat(token)
        if seat is None:
            raise gone(self.room.lang, self.room.words["dead"], request.host)
        return seat

    # -- joining by code ----------------------------------------------------------------
    def join_answer(self, why: str | None = None) -> web.Response:
        words = join_words(translator(self.room.lang))
        return web.Response(
            text=join_page(self.room.lang, words, why),
            content_type="text/html",
            status=200 if why is None else 403,
        )

    async def join_form(self, request: web.Request) -> web.Response:
        return self.join_answer()

    async def join_code(self, request: web.Request) -> web.Response:
        """A code typed: a good one sends the phone to its seat's new link (303); a wrong,
        used or expired one, or one past the room's cap, gets one line and changes nothing."""
        # Another site's form is refused (it would only spend the room's guesses). Pages sent
        # with no-referrer post "Origin: null": the browser's Sec-Fetch-Site says where from.
        origin = request.headers.get(hdrs.ORIGIN, "null").lower()
        site = request.headers.get("Sec-Fetch-Site", "same-origin")
        ours = origin in ("null", f"{request.scheme}://{request.host}".lower())
        if not ours or site not in ("same-origin", "none"):
            raise web.HTTPForbidden(text="cross-origin form refused")
        try:
            typed = (await request.post()).get("code")
        except ValueError:
            typed = None
        code = "".join(typed.split()) if isinstance(typed, str) else ""  # "123 456" as shown
        found, token = self.room.seat_by_code(code)
        if token is None:
            return self.join_answer(str(found))
        raise web.HTTPSeeOther(f"/P/{token}")

    def tv_checked(self, request: web.Request) -> None:
        given = request.match_info["token"].upper().encode("ascii", "replace")
        if self.tv_token is None or not hmac.compare_digest(given, self.tv_token.encode()):
            raise gone(self.room.lang, self.room.words["tv_dead"])

    # -- feeds ----------------------------------------------------------------------------
    async def open_ws(
        self, request: web.Request, group: list[web.WebSocketResponse] | None = None
    ) -> web.WebSocketResponse:
        """The websocket, counted in ``group`` before the handshake's first wait (so that
        handshakes at once cannot all pass a cap), and uncompressed (``padding``)."""
        origin = request.headers.get(hdrs.ORIGIN)
        if origin is not None and origin.lower() != f"{request.scheme}://{request.host}".lower():
            raise web.HTTPForbidden(text="cross-origin websocket refused")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=10.0, compress=False)
        ws.headers.update(HEADERS)
        if group is not None:
            group.append(ws)
        try:
            await ws.prepare(request)
        except BaseException:
            if group is not None:
                group.remove(ws)
            raise
        return ws

    async def send_changes(
        self, ws: web.WebSocketResponse, message: Callable[[], str | None], private: bool
    ) -> None:
        """Send the latest message whenever it changes; a slow client only misses old ones."""
        assert self.feed is not None
        last, seen = None, -1
        while not ws.closed:
            seen = await self.feed.changes(seen)
            current = message()
            if current is None:
                await ws.close(code=4403, message=b"token no longer valid")
                return
            if current != last:
                await ws.send_str(padded(current) if private else current)
                last = current

    async def watch(
        self, request: web.Request, group: list[web.WebSocketResponse]
    ) -> web.WebSocketResponse:
        """A public feed (spectator or TV) kept in ``group`` while it is open."""
        ws = await self.open_ws(request, group)
        sender = asyncio.create_task(self.send_changes(ws, lambda: self.room.spectator, False))
        try:
            async for _ in ws:
                await ws.close(code=1008, message=b"the spectator page only listens")
        finally:
            if ws in group:
                group.remove(ws)
            sender.cancel()
        return ws

    async def spectator_ws(self, request: web.Request) -> web.WebSocketResponse:
        address = request.remote or "?"
        mine = self.spectators.get(address, [])
        total = sum(len(group) for group in self.spectators.values())
        if len(mine) >= SPECTATORS_PER_ADDRESS or total >= MAX_SPECTATORS:
            raise web.HTTPServiceUnavailable(text="too many spectators")
        self.spectators[address] = mine
        try:
            return await self.watch(request, mine)
        finally:
            if not mine:
                self.spectators.pop(address, None)

    async def tv_ws(self, request: web.Request) -> web.WebSocketResponse:
        self.tv_checked(request)
        while len(self.tv) >= TV_SLOTS:  # the TV reloaded: its older feed makes room
            await self.tv.pop(0).close(code=1001, message=b"the TV opened a newer feed")
        return await self.watch(request, self.tv)

    async def replace_phone(self, seat: int) -> None:
        """A second phone on a seat replaces the first, which is told and wipes its page."""
        old = self.phones.pop(seat, None)
        if old is not None and not old.closed:
            with contextlib.suppress(ConnectionError):
                await old.send_str(padded(json.dumps({"type": "replaced"})))
            await old.close(code=REPLACED, message=b"another phone took this seat")

    def holds(self, seat: int) -> bool:
        """Whether a phone holds ``seat`` now (connected)."""
        ws = self.phones.get(seat)
        return ws is not None and not ws.closed

    async def phone_ws(self, request: web.Request) -> web.WebSocketResponse:
        token = request.match_info["token"].upper()
        seat = self.seat_of(request)
        ws = await self.open_ws(request)
        if self.holds(seat) and not await self.wait_for_seat(ws, seat, token):
            return ws
        # The phone it replaces hears so first, before a code's link kills the old one
        await self.replace_phone(seat)
        if not self.room.take_seat(seat, token):  # the link died meanwhile
            await ws.close(code=4403, message=b"token no longer valid")
            return ws
        self.phones[seat] = ws
        self.room.phones.joined(seat, +1)

        def message() -> str | None:
            live = self.room.tokens.seat_of(token) == seat
            return self.room.phone_message(seat) if live else None

        sender = asyncio.create_task(self.send_changes(ws, message, True))
        try:
            await self.take_answers(ws, token, seat)
        finally:
            if self.phones.get(seat) is ws:
                del self.phones[seat]
            self.room.phones.joined(seat, -1)
            sender.cancel()
            if self.feed is not None:
                self.feed.bump()  # a phone waiting for this seat hears it is free
        return ws

    async def wait_for_seat(self, ws: web.WebSocketResponse, seat: int, token: str) -> bool:
        """A phone asking for a seat another phone holds: it waits until that phone or the
        box lets it in (True), or refuses it, or the request lapses or a newer one replaces
        it (it is told in one line, and its connection ends). If the holding phone leaves
        meanwhile, nobody holds the seat: it joins as any link would."""
        assert self.feed is not None
        with self.room.lock:
            fresh = self.room.tokens.seat_of(token) != seat
        asked = self.room.ask_for_seat(seat, token, fresh)
        said = waiting_words(translator(self.room.lang), seat)
        listening = asyncio.create_task(self.only_listens(ws))
        seen, left = -1, False
        try:
            await ws.send_str(padded(json.dumps({"type": "waiting", "text": said["waiting"]})))
            while asked.verdict is None and self.holds(seat) and not left:
                change = asyncio.create_task(self.feed.changes(seen))
                await asyncio.wait({change, listening}, return_when=asyncio.FIRST_COMPLETED)
                seen = change.result() if change.done() else seen
                change.cancel()
                left = listening.done()
        finally:
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listening
            if asked.verdict is None:
                self.room.withdraw(asked)
        return await self.admitted(ws, asked, said, left)

    async def admitted(
        self, ws: web.WebSocketResponse, asked: Request, said: dict[str, str], left: bool
    ) -> bool:
        """What a request's end means for its phone: in, or told why not and closed."""
        if left or ws.closed:
            return False
        if asked.verdict in (None, IN):
            return True
        if asked.verdict == ENDED:  # the game ended or another began: its links died
            await ws.close(code=4403, message=b"token no longer valid")
            return False
        with contextlib.suppress(ConnectionError):
            text = said[asked.verdict]
            await ws.send_str(padded(json.dumps({"type": "no_seat", "text": text})))
        await ws.close(code=NO_SEAT, message=b"no seat for this phone")
        return False

    async def only_listens(self, ws: web.WebSocketResponse) -> None:
        """A waiting phone sends nothing: this returns when it leaves (or sends anyway)."""
        async for _ in ws:
            await ws.close(code=1008, message=b"a waiting phone only listens")

    async def take_answers(self, ws: web.WebSocketResponse, token: str, seat: int) -> None:
        bucket = Bucket()
        async for msg in ws:
            if msg.type != WSMsgType.TEXT or not bucket.take():
                await ws.close(code=1008, message=b"refused: too fast or not text")
                return
            if self.room.tokens.seat_of(token) != seat:
                await ws.close(code=4403, message=b"token no longer valid")
                return
            # The reply first (padded as every private frame), so the phone hears that its
            # answer was taken before the state that no longer asks it.
            reply = _answer(self.room, seat, msg.data)
            await ws.send_str(padded(json.dumps(reply)))
            if reply["type"] == "taken" and self.feed is not None:
                self.feed.bump()


def make_app(
    room: WebRoom, guard: Connections | None = None, tv_token: str | None = None
) -> web.Application:
    site = Site(room, tv_token)
    app = web.Application(client_max_size=MAX_REQUEST, middlewares=[limits(guard)])
    app.on_startup.append(site.on_startup)
    app.on_shutdown.append(site.on_shutdown)
    app.router.add_get("/", site.spectator_page)
    app.router.add_get("/static/{name}", site.static)
    app.router.add_get("/ws", site.spectator_ws)
    app.router.add_get("/TV/{token}", site.tv_page)
    app.router.add_get("/ws/TV/{token}", site.tv_ws)
    app.router.add_get("/P/{token}", site.phone_page)
    app.router.add_get("/ws/P/{token}", site.phone_ws)
    for path in (JOIN, JOIN.lower()):
        app.router.add_get(path, site.join_form)
        app.router.add_post(path, site.join_code)
    return app


class WebServer:
    """Runs ``make_app(room)`` in a daemon thread, on HOST:PORT or, for an interface that has
    no address yet, as soon as it has one; ``stop`` ends it."""

    def __init__(
        self,
        room: WebRoom,
        host: str,
        port: int,
        tv_token: str | None = None,
        guard: Connections | None = None,
    ) -> None:
        self.room = room
        self.address = WebAddress(host, port, interface=not is_address(host))
        self.port = port
        self.shown: str | None = None  # the address in the QR codes, once listening
        self.tv_token = tv_token
        self.guard = guard or Connections()
        self.listening = threading.Event()
        self.on_listening: list[Callable[[WebServer], None]] = []
        self.loop = asyncio.new_event_loop()
        self.runner: web.AppRunner | None = None
        self.server: asyncio.Server | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.thread = threading.Thread(target=self.loop.run_forever, name="web", daemon=True)

    def url(self, path: str) -> str:
        """``path`` on this server as phones reach it (upper case: QR alphanumeric mode)."""
        return f"HTTP://{self.shown or self.address.host}:{self.port}{path}"

    def start(self) -> None:
        """Listen now if the address is there (OSError if it cannot be bound), else wait."""
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(timeout=10)

    async def _start(self) -> None:
        app = make_app(self.room, self.guard, self.tv_token)
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self.runner.setup()
        self.tasks.append(asyncio.create_task(self._sweep()))
        where = self.address.current()
        if where is not None:
            await self._listen(*where)
        else:
            log.info("web: waiting for %s to get an address", self.address.host)
            self.tasks.append(asyncio.create_task(self._wait_for_address()))

    async def _listen(self, bind: str, shown: str) -> None:
        assert self.runner is not None and self.runner.server is not None
        manager, loop = self.runner.server, asyncio.get_running_loop()
        options: dict[str, Any] = {
            "loop": loop,
            "keepalive_timeout": self.guard.deadline,
            "lingering_time": 0,  # no page takes a body: one is never read to its end
            "access_log": None,
        }
        self.server = await loop.create_server(
            lambda: GuardedHandler(manager, self.guard, **options),
            bind,
            self.port,
            reuse_address=True,
            backlog=BACKLOG,
        )
        self.port = self.server.sockets[0].getsockname()[1]
        self.shown = shown
        log.info("web server on %s:%d", bind, self.port)
        self.listening.set()
        for hook in self.on_listening:
            hook(self)

    async def _wait_for_address(self, every: float = 1.0) -> None:
        said = False
        while True:
            await asyncio.sleep(every)
            where = self.address.current()
            if where is None:
                continue
            try:
                await self._listen(*where)
                return
            except OSError as exc:
                if not said:  # said once; tried again every few seconds, quietly
                    log.warning("web: cannot listen on %s:%d yet: %s", where[0], self.port, exc)
                said, every = True, 5.0

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.guard.deadline / 4)
            self.guard.sweep()

    async def _stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        if self.server is not None:
            self.server.close()
        if self.runner is not None:
            await self.runner.cleanup()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()
