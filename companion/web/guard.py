"""Connections under bounds: deadlines, caps per address and in total, and quiet errors.

Any device on the table's Wi-Fi may open sockets and never finish a request,
or send garbage as fast as it can. Every connection is registered here when
it is made. One whose request is not being handled (its headers or body still
coming, or idle between requests) is "unfinished" and is closed ``deadline``
seconds after it became so. An address holds at most ``per_address``
connections, and all together at most ``total``, kept below the process's
open-file limit so that neither ``accept()`` nor the table's own files ever
run out. At either cap a new connection displaces the oldest unfinished one
(of its address, or of all): a real request still gets in, and whoever holds
sockets open without asking loses them first.

Bad requests are counted and said in the log at most once every ``REPORT``
seconds, as counts of error kinds: never a URL, so never a token, and never a
traceback a flood could fill the disk with.
"""

from __future__ import annotations

import logging
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

log = logging.getLogger("companion.web")

RESERVED_FILES = 128  # open files kept for the rest of the box: journal, fonts, ports, logs
BACKLOG = 32  # connections the kernel queues for accept(), and asyncio accepts at one turn
# of its loop. A connection reaches ``admit`` two turns after it was accepted and a displaced
# one's file is closed a turn later, so up to four turns' accepts are open uncounted:
IN_FLIGHT = 4 * BACKLOG  # kept spare under the file limit too
MAX_CONNECTIONS = 1024  # at most, whatever the file limit
PER_ADDRESS = 32  # a phone needs a page, its scripts and a websocket; a TV the same
DEADLINE = 5.0  # seconds an unfinished request (headers or body) may take
REPORT = 60.0  # seconds between two log lines about bad requests

#: Sent with every response, error pages included.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def connection_cap(reserved: int = RESERVED_FILES + IN_FLIGHT) -> int:
    """How many connections fit under this process's open-file limit, with ``reserved`` spare
    (the box's own files, and a burst of connections accepted before they are counted)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = MAX_CONNECTIONS + reserved
    return max(8, min(MAX_CONNECTIONS, soft - reserved))


@dataclass
class Entry:
    """One open connection: its peer, since when it is unfinished, and requests in hand."""

    address: str
    since: float
    busy: int = 0


class Connections:
    """Every open connection of one server, oldest first; runs on the server's loop only."""

    def __init__(
        self,
        total: int | None = None,
        per_address: int = PER_ADDRESS,
        deadline: float = DEADLINE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = connection_cap() if total is None else total
        self.per_address = per_address
        self.deadline = deadline
        self.clock = clock
        self.open: dict[Any, Entry] = {}
        self.by_address: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.closed = Counter[str]()  # why connections were closed since the last report
        self.reported_at = -REPORT

    def admit(self, handler: Any, address: str) -> bool:
        """Register a new connection, displacing the oldest unfinished one of its address (at
        that address's cap) or of all (at the total cap); False when it must be closed at once
        because everything it would displace is busy."""
        if self.by_address[address] >= self.per_address and not self.displace(address):
            return False
        if len(self.open) >= self.total and not self.displace(None):
            return False
        self.open[handler] = Entry(address, self.clock())
        self.by_address[address] += 1
        return True

    def displace(self, address: str | None) -> bool:
        """Close the oldest unfinished connection (of ``address``, or of anyone for None)."""
        for handler, entry in self.open.items():
            if not entry.busy and address in (None, entry.address):
                self.close(handler, "displaced, unfinished")
                return True
        self.closed["refused, every slot busy"] += 1
        return False

    def lost(self, handler: Any) -> None:
        entry = self.open.pop(handler, None)
        if entry is not None:
            self.by_address[entry.address] -= 1
            if not self.by_address[entry.address]:
                del self.by_address[entry.address]

    def close(self, handler: Any, why: str) -> None:
        self.lost(handler)
        self.closed[why] += 1
        handler.force_close()

    def busy(self, handler: Any) -> None:
        """A request's headers arrived and it is being handled (a websocket: while open)."""
        entry = self.open.get(handler)
        if entry is not None:
            entry.busy += 1

    def idle(self, handler: Any) -> None:
        """The request was answered: the connection is unfinished again, from now on."""
        entry = self.open.pop(handler, None)
        if entry is not None:
            entry.busy -= 1
            entry.since = self.clock()
            self.open[handler] = entry  # to the end: the oldest unfinished stay first

    def sweep(self) -> None:
        """Close what overran its deadline, and say what happened (at a bounded rate)."""
        now = self.clock()
        for handler, entry in list(self.open.items()):
            if not entry.busy and now - entry.since > self.deadline:
                self.close(handler, "past the deadline")
        if (self.errors or self.closed) and now - self.reported_at >= REPORT:
            self.reported_at = now
            said = [f"{n} {kind}" for kind, n in (self.errors + self.closed).most_common()]
            log.warning("web: in the last minute or so: %s", ", ".join(said))
            self.errors.clear()
            self.closed.clear()

    def error(self, kind: str) -> None:
        self.errors[f"bad requests ({kind})"] += 1


class GuardedHandler(RequestHandler):
    """aiohttp's connection handler, registered with ``Connections`` and quiet on errors."""

    def __init__(self, manager: web.Server, guard: Connections, **options: Any) -> None:
        super().__init__(manager, logger=SILENT, **options)
        self.guard = guard
        self.handling_error = False

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        if not self.guard.admit(self, str(peer[0]) if peer else "?"):
            self.force_close()

    def connection_lost(self, exc: BaseException | None) -> None:
        self.guard.lost(self)
        super().connection_lost(exc)

    def log_exception(self, *args: Any, **kw: Any) -> None:
        """Counted for the next report instead of a traceback (which may hold a URL)."""
        if not self.handling_error:
            self.guard.error(_kind(kw.get("exc_info")))

    def handle_error(
        self,
        request: Any,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """Counted; the page says the status only (never echoes the request), with the headers."""
        self.guard.error(_kind(exc))
        self.handling_error = True
        try:
            response = super().handle_error(
                request, status, exc, f"{status} {HTTPStatus(status).phrase}"
            )
        finally:
            self.handling_error = False
        response.headers.update(HEADERS)
        return response


def _kind(exc: Any) -> str:
    return type(exc).__name__ if isinstance(exc, BaseException) else "error"


#: aiohttp's own request logging goes nowhere: what it would say is counted instead.
SILENT = logging.getLogger("companion.web.requests")
SILENT.disabled = True
