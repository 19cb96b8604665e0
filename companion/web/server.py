"""The aiohttp server, in its own thread with its own asyncio loop beside the table loop.

Endpoints: ``/`` the spectator page and ``/ws`` its live feed (public only);
``/P/<token>`` a seat's phone page and ``/ws/P/<token>`` its feed and answers.
Every token is checked in constant time; a wrong, stale or other seat's token
gets 403 and changes nothing. Requests and messages are small and rate-bounded,
websocket Origins must be this server, and the server binds only where asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import time
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from companion.web.room import WebRoom

log = logging.getLogger("companion.web")

MAX_REQUEST = 1024  # bytes: no endpoint takes a body
MAX_MESSAGE = 256  # bytes: a phone's answer is a ballot and an index
MAX_SPECTATORS = 200
MAX_PHONES_PER_SEAT = 2
RATE = 5.0  # messages a second a phone may send, with a burst of BURST
BURST = 10.0
REQUESTS = 20.0  # HTTP requests (websocket handshakes included) a second from one address,
REQUEST_BURST = 100.0  # with this burst: a booth's phones and TVs may share one address
MAX_ADDRESSES = 1024  # request buckets kept at once
STATIC = {"spectator.js", "phone.js", "style.css"}
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


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
    """Wakes every connected client when the room changed (called from any thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.version = 0
        self.event = asyncio.Event()

    def wake(self) -> None:
        self.loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        self.version += 1
        self.event.set()
        self.event.clear()

    async def changes(self, seen: int) -> int:
        while self.version == seen:
            await self.event.wait()
        return self.version


FEED = web.AppKey("feed", Feed)


def limits() -> Any:
    """A middleware refusing an address that asks too often (429), then adding the headers."""
    buckets: dict[str, Bucket] = {}

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        address = request.remote or "?"
        bucket = buckets.get(address)
        if bucket is None:
            if len(buckets) >= MAX_ADDRESSES:
                buckets.clear()
            bucket = buckets[address] = Bucket(REQUESTS, REQUEST_BURST)
        if not bucket.take():
            raise web.HTTPTooManyRequests(text="too many requests")
        response = await handler(request)
        if not response.prepared:
            response.headers.update(HEADERS)
        return response

    return middleware


class Redacted(logging.Filter):
    """Takes phone tokens out of every log record of the web server (an access log included)."""

    TOKEN = re.compile(r"(/P/)[^\s\"?]+")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/P/" in message:
            record.msg, record.args = self.TOKEN.sub(r"\1…", message), ()
        for key, value in list(vars(record).items()):
            if isinstance(value, str) and "/P/" in value and key != "msg":
                setattr(record, key, self.TOKEN.sub(r"\1…", value))
        return True


REDACTED = Redacted()
for _name in ("aiohttp.access", "aiohttp.server", "aiohttp.web", "aiohttp.websocket"):
    logging.getLogger(_name).addFilter(REDACTED)


def _same_origin(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    return origin is None or origin == f"{request.scheme}://{request.host}"


def make_app(room: WebRoom) -> web.Application:
    app = web.Application(client_max_size=MAX_REQUEST, middlewares=[limits()])
    clients: dict[str, set[web.WebSocketResponse]] = {"spectators": set()}
    phones_of: dict[int, int] = {}

    def feed() -> Feed:
        return app[FEED]

    async def on_startup(app: web.Application) -> None:
        app[FEED] = Feed(asyncio.get_running_loop())
        room.listeners.append(app[FEED].wake)

    async def on_shutdown(app: web.Application) -> None:
        room.listeners.remove(app[FEED].wake)
        for ws in list(clients["spectators"]):
            await ws.close()

    async def page(request: web.Request, name: str) -> web.Response:
        return web.Response(body=_asset(name), content_type="text/html", charset="utf-8")

    async def spectator_page(request: web.Request) -> web.Response:
        return await page(request, "spectator.html")

    async def static(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return web.Response(body=_asset(name), content_type=kind, charset="utf-8")

    def seat_of(request: web.Request) -> int:
        seat = room.tokens.seat_of(request.match_info["token"])
        if seat is None:
            raise web.HTTPForbidden(text="This phone link is not (or no longer) valid.")
        return seat

    async def phone_page(request: web.Request) -> web.Response:
        seat_of(request)
        return await page(request, "phone.html")

    async def open_ws(request: web.Request) -> web.WebSocketResponse:
        if not _same_origin(request):
            raise web.HTTPForbidden(text="cross-origin websocket refused")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=10.0)
        await ws.prepare(request)
        return ws

    async def send_changes(ws: web.WebSocketResponse, message: Any) -> None:
        """Send the latest message whenever it changes; a slow client only misses old ones."""
        last, seen = None, -1
        while not ws.closed:
            seen = await feed().changes(seen)
            current = message()
            if current is None:
                await ws.close(code=4403, message=b"token no longer valid")
                return
            if current != last:
                await ws.send_str(current)
                last = current

    async def spectator_ws(request: web.Request) -> web.WebSocketResponse:
        if len(clients["spectators"]) >= MAX_SPECTATORS:
            raise web.HTTPServiceUnavailable(text="too many spectators")
        ws = await open_ws(request)
        clients["spectators"].add(ws)
        sender = asyncio.create_task(send_changes(ws, lambda: room.spectator))
        try:
            async for _ in ws:
                await ws.close(code=1008, message=b"the spectator page only listens")
        finally:
            clients["spectators"].discard(ws)
            sender.cancel()
        return ws

    async def phone_ws(request: web.Request) -> web.WebSocketResponse:
        token = request.match_info["token"]
        seat = seat_of(request)
        if phones_of.get(seat, 0) >= MAX_PHONES_PER_SEAT:
            raise web.HTTPServiceUnavailable(text="this seat has enough phones")
        ws = await open_ws(request)
        phones_of[seat] = phones_of.get(seat, 0) + 1
        room.phones.joined(seat, +1)

        def message() -> str | None:
            return room.phone_message(seat) if room.tokens.seat_of(token) == seat else None

        sender = asyncio.create_task(send_changes(ws, message))
        bucket = Bucket()
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT or not bucket.take():
                    await ws.close(code=1008, message=b"refused: too fast or not text")
                    break
                if room.tokens.seat_of(token) != seat:
                    await ws.close(code=4403, message=b"token no longer valid")
                    break
                why = _answer(room, seat, msg.data)
                if why is not None:
                    await ws.send_str(json.dumps({"type": "refused", "why": why}))
                else:
                    feed()._wake()
        finally:
            phones_of[seat] -= 1
            room.phones.joined(seat, -1)
            sender.cancel()
        return ws

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.router.add_get("/", spectator_page)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/ws", spectator_ws)
    app.router.add_get("/P/{token}", phone_page)
    app.router.add_get("/ws/P/{token}", phone_ws)
    return app


def _answer(room: WebRoom, seat: int, data: str) -> str | None:
    """A phone's answer ``{"ballot": n, "option": i}``; the reason it is refused, or None."""
    try:
        message = json.loads(data)
    except ValueError:
        return "not JSON"
    if not isinstance(message, dict) or set(message) != {"ballot", "option"}:
        return "expected {ballot, option}"
    return room.phones.answer(seat, message["ballot"], message["option"])


class WebServer:
    """Runs ``make_app(room)`` on HOST:PORT in a daemon thread; ``stop`` ends it."""

    def __init__(self, room: WebRoom, host: str, port: int) -> None:
        self.room = room
        self.host = host
        self.port = port
        self.loop = asyncio.new_event_loop()
        self.runner: web.AppRunner | None = None
        self.thread = threading.Thread(target=self.loop.run_forever, name="web", daemon=True)

    def start(self) -> None:
        self.thread.start()
        future = asyncio.run_coroutine_threadsafe(self._start(), self.loop)
        future.result(timeout=10)
        log.info("web server on %s:%d", self.host, self.port)

    async def _start(self) -> None:
        self.runner = web.AppRunner(make_app(self.room), access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port, reuse_address=True)
        await site.start()
        if self.port == 0:
            server = site._server
            assert server is not None
            self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    def stop(self) -> None:
        if self.runner is not None:
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


def serve(table: Any, spec: str, tokens_path: Any, clock: Any) -> WebServer:
    """Attach a web room to ``table`` and start the server on ``spec`` (HOST:PORT)."""
    from companion.web.qr import listen_address
    from companion.web.tokens import Tokens

    host, sep, port_text = spec.rpartition(":")
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(
            f"--web takes HOST:PORT (an address or an interface, a port), not {spec!r}"
        )
    bind, shown = listen_address(host)
    port = int(port_text)
    room = WebRoom(Tokens(tokens_path), clock, lambda token: f"HTTP://{shown}:{port}/P/{token}")
    table.desk.web = room
    table.desk.phones = room.phones
    server = WebServer(room, bind, port)
    try:
        server.start()
    except OSError as exc:
        raise ValueError(f"--web: cannot listen on {bind}:{port}: {exc.strerror}") from None
    return server
