"""The web room: what the table publishes, kept for the server thread, and the phones' seam.

The table thread calls ``begin``, ``publish``, ``reveal`` and ``qr_image``, and
drives ``phones`` (``seats``, ``ask``, ``poll``, ``done``, ``refused``) as it
drives the wired handsets. The server thread reads finished messages and hands
in phone answers. One lock guards both sides; the server is woken through
``listeners`` and never calls into the game.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from companion.games.base import Choice, Decision
from companion.table.phones import Offer, View
from companion.ui.canvas import Screen
from companion.ui.contract import GameUI
from companion.ui.i18n import Translate
from companion.web.pictures import picture
from companion.web.tokens import Tokens

SILENT = 20.0  # seconds a phone may be away (a locked screen) before its seat passes the box
HISTORY = 200  # reveals kept for the spectator page


def _json(message: dict[str, Any]) -> str:
    return json.dumps(message, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _screen_lines(screen: Screen) -> list[str]:
    return [screen.status, *screen.body, *([screen.big] if screen.big else [])]


def spectator_state(view: View, ui: GameUI, t: Translate) -> dict[str, Any]:
    """Everything the TV shows, made from the public view alone."""
    waiting = view["waiting"]
    prompt: list[str] = []
    if waiting is not None:
        options = tuple(waiting["options"] or ())
        d = Decision(waiting["kind"], tuple(waiting["seats"]), options, waiting["secret"])
        prompt = [*ui.role_of(d, view, t).splitlines(), *ui.prompt(d, view, t)]
    return {
        "type": "state",
        "game": view["game"],
        "title": ui.TITLE,
        "status": ui.status(view, t),
        "waiting": None if waiting is None else waiting["seats"],
        "prompt": prompt,
        "picture": picture(view),
        "final": [] if waiting is not None else [_screen_lines(s) for s in ui.final(view, t)],
    }


def private_lines(own: View, public: View, ui: GameUI, t: Translate) -> list[str]:
    """What PEEK shows the seat, and the rest of what only it knows (a hand, a plot)."""
    lines: list[str] = []
    with contextlib.suppress(KeyError, TypeError):  # before the deal: nothing to peek at
        lines += _screen_lines(ui.peek(own, t))[1:]
    said = {line.casefold() for line in lines}  # a fact PEEK's screen gives is not said twice
    for key, value in own.items():
        if key not in public and key != "seat":
            line = f"{key.replace('_', ' ')}: {_text(value, ui)}"
            if line.casefold() not in said:
                lines.append(line)
    return lines


def _text(value: Any, ui: GameUI) -> str:
    """A private fact as words; cards as the game's ui writes them."""
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return ui.cards_label(value) or "-"
        return ", ".join(_text(v, ui) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_text(v, ui)}" for k, v in value.items())
    return str(value)


@dataclass
class Ask:
    """An open question on the phones: seat -> (prompt lines, ((choice, label), ...))."""

    ballot: int
    offers: dict[int, Offer]
    answered: set[int] = field(default_factory=set)


class Phones:
    """Phones as handsets, for any option: the ``PhoneRoom`` of ``companion.table.phones``."""

    def __init__(self, room: WebRoom, clock: Callable[[], float]) -> None:
        self.room = room
        self.clock = clock
        self.connected: dict[int, int] = {}  # seat -> open websockets
        self.last_seen: dict[int, float] = {}
        self.ask_open: Ask | None = None
        self.ballot = 0
        self.votes: list[tuple[int, Choice]] = []
        self.refusals: dict[int, tuple[str, ...]] = {}

    # -- the table's side ---------------------------------------------------------
    def seats(self) -> set[int]:
        """Seats whose phone is connected, or was within ``SILENT`` seconds."""
        with self.room.lock:
            now = self.clock()
            live = {s for s, n in self.connected.items() if n > 0}
            recent = {s for s, t in self.last_seen.items() if now - t < SILENT}
            return (live | recent) & set(self.room.tokens.by_seat)

    def ask(self, offers: dict[int, Offer]) -> None:
        with self.room.lock:
            self.ballot += 1
            self.ask_open = Ask(self.ballot, dict(offers))
            self.votes = []
            self.refusals = {}
        self.room.changed()

    def poll(self) -> list[tuple[int, Choice]]:
        with self.room.lock:
            votes, self.votes = self.votes, []
            return votes

    def done(self) -> None:
        with self.room.lock:
            self.ask_open = None
            self.votes = []
        self.room.changed()

    def refused(self, seat: int, why: tuple[str, ...]) -> None:
        """The table refused the seat's answer: it may answer again, and reads why."""
        with self.room.lock:
            if self.ask_open is not None:
                self.ask_open.answered.discard(seat)
            self.refusals[seat] = tuple(why)
        self.room.changed()

    # -- the server's side ----------------------------------------------------------
    def joined(self, seat: int, delta: int) -> None:
        with self.room.lock:
            self.connected[seat] = self.connected.get(seat, 0) + delta
            self.last_seen[seat] = self.clock()

    def answer(self, seat: int, ballot: object, index: object) -> str | None:
        """Take a phone's answer for its own seat; the refusal's reason, or None if taken."""
        with self.room.lock:
            ask = self.ask_open
            if ask is None or ballot != ask.ballot or seat not in ask.offers:
                return "nothing is asked of this seat now"
            options = ask.offers[seat][1]
            if (
                not isinstance(index, int)
                or isinstance(index, bool)
                or not 0 <= index < len(options)
            ):
                return "no such option"
            if seat in ask.answered:
                return "already answered"
            ask.answered.add(seat)
            self.refusals.pop(seat, None)
            self.votes.append((seat, options[index][0]))
            return None

    def question(self, seat: int) -> dict[str, Any] | None:
        ask = self.ask_open
        if ask is None or seat not in ask.offers or seat in ask.answered:
            return None
        prompt, options = ask.offers[seat]
        return {"ballot": ask.ballot, "prompt": list(prompt), "options": [o[1] for o in options]}


class WebRoom:
    """What the spectator page and each phone are sent, made on the table's thread: the
    ``WebSide`` of ``companion.table.phones``."""

    def __init__(
        self,
        tokens: Tokens,
        clock: Callable[[], float],
        url_of: Callable[[str], str] = lambda token: f"/P/{token}",
    ) -> None:
        self.lock = threading.RLock()
        self.tokens = tokens
        self.url_of = url_of
        self.phones = Phones(self, clock)
        self.listeners: list[Callable[[], None]] = []
        self.spectator = _json({"type": "state", "game": None})
        self.history: list[list[str]] = []
        self.private: dict[int, list[str]] = {}
        self.status = ""
        self.version = 0
        self._view: View | None = None
        self._seats: frozenset[int] = frozenset()

    def changed(self) -> None:
        with self.lock:
            self.version += 1
        for wake in list(self.listeners):
            wake()

    # -- the table's side -----------------------------------------------------------
    def begin(self, key: str | None, resumed: bool) -> None:
        with self.lock:
            self.tokens.begin(key, resumed)
            self.history = []
            self._view = None
            self.phones.done()

    def publish(
        self,
        view: View | None,
        ui: GameUI,
        t: Translate,
        own_view: Callable[[int], View] | None,
    ) -> None:
        """The table's state after a step; messages are remade only when something changed."""
        seats = frozenset(self.tokens.by_seat)
        if view == self._view and seats == self._seats:
            return
        self._view, self._seats = view, seats
        message: dict[str, Any]
        if view is None:
            message = {"type": "state", "game": None}
            private: dict[int, list[str]] = {}
            status = ""
        else:
            message = spectator_state(view, ui, t)
            status = message["status"]
            private = {}
            if own_view is not None:
                for seat in seats:
                    if seat < view["players"]:
                        private[seat] = private_lines(own_view(seat), view, ui, t)
            if view["waiting"] is None and self.tokens.by_seat:
                self.tokens.end()  # the game is over: its tokens die with it
        with self.lock:
            message["history"] = self.history[-HISTORY:]
            self.spectator = _json(message)
            self.private = private
            self.status = status
        self.changed()

    def reveal(self, screens: Sequence[Screen]) -> None:
        """Results shown on the box (votes, cards, events): the TV shows them as they happen."""
        with self.lock:
            self.history += [_screen_lines(s) for s in screens]
            spectator = json.loads(self.spectator)
            spectator["history"] = self.history[-HISTORY:]
            spectator["reveal"] = [_screen_lines(s) for s in screens]
            self.spectator = _json(spectator)
        self.changed()

    def qr_image(self, seat: int) -> Image.Image:
        """A new token for ``seat`` (the old one dies) and the panel frame with its QR code."""
        from companion.web.qr import seat_frame

        with self.lock:
            token = self.tokens.issue(seat)
            url = self.url_of(token)
        self.changed()
        return seat_frame(url, seat)

    # -- the server's side ------------------------------------------------------------
    def phone_message(self, seat: int) -> str:
        with self.lock:
            return _json(
                {
                    "type": "phone",
                    "seat": seat + 1,
                    "status": self.status,
                    "private": self.private.get(seat, []),
                    "ask": self.phones.question(seat),
                    "refused": list(self.phones.refusals.get(seat, ())),
                }
            )
