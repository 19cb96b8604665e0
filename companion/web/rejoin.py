"""Rejoining a seat: short codes shown on the box, and the confirmation of a new phone.

A code is 6 digits from ``secrets``, one live code per seat (a new one replaces
the seat's old one), lasting ``LIFE`` seconds of the room's clock and working
once. It lives in memory only: never in a file, the journal or a log line.
Guesses are capped for the whole room, not per address (a Wi-Fi's addresses
are many): at ``CAP`` wrong codes within ``WINDOW`` seconds every live code
dies and the count starts again, so each code the box shows meets at most
``CAP`` guesses (a 1 in 100,000 chance) and the next code the box shows works.

A phone that joins a seat whose phone is connected right now (a second phone
on the link, a replaced phone reloading it, a code used while a phone holds
the seat) waits: a ``Request``, answered by the phone that holds the seat or
by the box, whichever first. A request nobody answers lapses after
``PATIENCE`` seconds (the waiting phone says so, and may ask again by
reloading); a newer request for the same seat replaces it.
"""

from __future__ import annotations

import itertools
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from companion.ui.canvas import HEIGHT, LINE, WIDTH, font
from companion.ui.i18n import Translate
from companion.web.tokens import seat_with

DIGITS = 6
LIFE = 120.0  # seconds a code works
CAP = 10  # wrong codes in the whole room within WINDOW before every live code dies
WINDOW = 120.0
PATIENCE = 60.0  # seconds a request waits for an answer before it lapses
SAID = 60.0  # seconds the TV shows that a seat moved to a new phone (or refused one)

#: what became of a request; None while it waits
IN, REFUSED, LAPSED, SUPERSEDED, ENDED = "in", "refused", "lapsed", "superseded", "ended"
WRONG, CAPPED = "wrong", "capped"


class Codes:
    """The live codes: seat -> (code, the moment it dies)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.live: dict[int, tuple[str, float]] = {}
        self.misses: deque[float] = deque()

    def issue(self, seat: int) -> str:
        """A new code for ``seat`` (its old one dies), unlike any other live code."""
        taken = {code for s, (code, _) in self.live.items() if s != seat}
        code = f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"
        while code in taken:
            code = f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"
        self.live[seat] = (code, self.clock() + LIFE)
        return code

    def use(self, text: str) -> int | str:
        """The seat whose live code ``text`` is (the code dies), else ``WRONG`` or ``CAPPED``
        (the room's guesses reached the cap: every live code died). Every live code is
        compared in constant time, whole: a prefix or an extension is wrong."""
        now = self.clock()
        self.live = {seat: (code, dies) for seat, (code, dies) in self.live.items() if now < dies}
        found = seat_with(text, {seat: code for seat, (code, _) in self.live.items()})
        if found is not None:
            del self.live[found]
            return found
        while self.misses and now - self.misses[0] >= WINDOW:
            self.misses.popleft()
        self.misses.append(now)
        if len(self.misses) >= CAP:
            self.live.clear()
            self.misses.clear()
            return CAPPED
        return WRONG

    def clear(self) -> None:
        self.live.clear()


@dataclass
class Request:
    """A phone asking for a seat whose phone is connected: ``token`` is the link it would
    hold (``fresh``: one a code made, not live until let in)."""

    number: int
    seat: int
    token: str
    fresh: bool
    at: float
    verdict: str | None = None


class Requests:
    """Open requests, one a seat, and the fresh links codes made for seats held by a phone."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.numbers = itertools.count(1)
        self.open: dict[int, Request] = {}  # seat -> its waiting request
        self.fresh: dict[int, str] = {}  # seat -> a link a code made, waiting to be let in
        self.said: tuple[str, float] | None = None  # the TV's line about it, and when

    def ask(self, seat: int, token: str, fresh: bool) -> Request:
        """A new request for ``seat``; an older one for the seat is superseded."""
        older = self.open.pop(seat, None)
        if older is not None:
            older.verdict = SUPERSEDED
        request = Request(next(self.numbers), seat, token, fresh, self.clock())
        self.open[seat] = request
        return request

    def settle(self, number: int, let_in: bool, seat: int | None = None) -> Request | None:
        """Answer request ``number`` (only ``seat``'s, when a seat's phone answers); the
        request, or None if it is no longer open."""
        request = next((r for r in self.open.values() if r.number == number), None)
        if request is None or (seat is not None and request.seat != seat):
            return None
        del self.open[request.seat]
        request.verdict = IN if let_in else REFUSED
        if request.fresh and not let_in:
            self.fresh.pop(request.seat, None)
        return request

    def withdraw(self, request: Request) -> None:
        """The waiting phone left: its request goes."""
        if self.open.get(request.seat) is request:
            del self.open[request.seat]

    def lapse(self) -> bool:
        """Requests unanswered for ``PATIENCE`` lapse, the TV's line after ``SAID``: True if
        anything changed."""
        now = self.clock()
        old = [r for r in self.open.values() if now - r.at >= PATIENCE]
        for request in old:
            request.verdict = LAPSED
            del self.open[request.seat]
        if self.said is not None and now - self.said[1] >= SAID:
            self.said = None
            return True
        return bool(old)

    def fresh_seat(self, token: str) -> int | None:
        """The seat a code's fresh link is for; compared in constant time, whole."""
        return seat_with(token, self.fresh)

    def say(self, line: str) -> None:
        self.said = (line, self.clock())

    def clear(self) -> None:
        """A game began or ended: its requests and fresh links go with its tokens."""
        for request in self.open.values():
            request.verdict = ENDED
        self.open.clear()
        self.fresh.clear()
        self.said = None


def who(seat: int, names: dict[str, str]) -> str:
    """A seat as the room says it: "4", or "4 (Anna)" when it has a name (public)."""
    name = names.get(str(seat + 1))
    return f"{seat + 1} ({name})" if name else str(seat + 1)


def join_words(t: Translate) -> dict[str, str]:
    """The join page's words and the lines a code or a request gets, in the table's language."""
    return {
        "title": t("Join by code"),
        "label": t("The code your seat's box shows (6 digits):"),
        "join": t("Join"),
        "hint": t("The seat holding the box can show its code: it lasts 2 minutes, once."),
        WRONG: t("This code does not work: check it, or ask the box for a new one."),
        CAPPED: t("Too many wrong codes: every code is cancelled. Ask the box for a new one."),
    }


def waiting_words(t: Translate, seat: int) -> dict[str, str]:
    """What a phone waiting for a seat reads, for each way its request may end."""
    n = seat + 1
    return {
        "waiting": t("Waiting for seat {n}'s phone or the box to let this phone in.").format(n=n),
        REFUSED: t("Refused: seat {n} keeps its phone.").format(n=n),
        LAPSED: t("Nobody answered within a minute: reload this page to ask again."),
        SUPERSEDED: t("Another phone asked for this seat since: reload this page to ask again."),
    }


def holder_question(t: Translate, request: Request) -> dict[str, object]:
    """What the phone holding the seat is asked about ``request``."""
    return {
        "number": request.number,
        "text": t("Another phone asks for seat {n}: let it take your seat?").format(
            n=request.seat + 1
        ),
        "yes": t("Let it in"),
        "no": t("Keep this phone"),
    }


def tv_line(t: Translate, seat: int, names: dict[str, str], let_in: bool) -> str:
    """The TV's public line once a request is settled: a seat and a name, nothing else."""
    if let_in:
        return t("Seat {who} moved to a new phone.").format(who=who(seat, names))
    return t("A new phone for seat {who} was refused.").format(who=who(seat, names))


def code_frame(code: str, seat: int, where: str, t: Translate) -> Image.Image:
    """The panel frame of a seat's code: the seat, the code large, where to type it, and
    that it lasts 2 minutes, once."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.text((0, 0), t("Seat {n}: phone code").format(n=seat + 1), font=font(bold=True), fill=1)
    big = f"{code[:3]} {code[3:]}"
    size = 24
    width = draw.textlength(big, font=font(True, size))
    draw.text(((WIDTH - width) / 2, LINE + 1), big, font=font(True, size), fill=1)
    wide = int(draw.textlength(where, font=font())) + 1
    line = Image.new("1", (max(wide, WIDTH), LINE), 0)
    ImageDraw.Draw(line).text((0, 0), where, font=font(), fill=1)
    if wide > WIDTH:  # a long address (192.168.100.100:8080/J) is narrowed, never cut
        line = line.resize((WIDTH, LINE), Image.Resampling.NEAREST)
    image.paste(line.crop((0, 0, WIDTH, LINE)), (0, HEIGHT - 2 * LINE))
    draw.text((0, HEIGHT - LINE), t("2 min, once"), font=font(), fill=1)
    return image


def shown_address(url: str) -> str:
    """The join page's address as a phone's owner types it: no scheme, no port 80."""
    bare = url.split("://", 1)[-1]
    host, _, path = bare.partition("/")
    if host.endswith(":80"):
        host = host[:-3]
    return f"{host}/{path}"
