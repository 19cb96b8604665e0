"""Phones as a way of answering: any choice a seat is asked, checked as a press.

The web room (``companion.web.room``) holds the phones and the spectator page;
the table reaches it only through this desk, and only through the two
protocols below. A decision whose seats include some with a phone is asked of
those phones at once, with the options the box would offer; the loop checks
each answer exactly as it checks a press. A refusal is told to that phone,
never drawn on the box (whose screen belongs to another seat). Seats without a
phone, or whose phone went silent, pass the box after.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from PIL import Image

from companion.games import Choice, Decision
from companion.games.base import same_choice
from companion.table.answers import Answerer, Port, Refusal
from companion.table.modes import Choose, Confirm, Cursor, Handoff, Mode, Peek, Phones
from companion.table.screens import waiting_screen
from companion.ui.canvas import Screen, wrap
from companion.ui.contract import GameUI
from companion.ui.i18n import Translate

View = dict[str, Any]
#: what a phone is asked: its prompt's lines, and each option with its label
Offer = tuple[tuple[str, ...], tuple[tuple[Choice, str], ...]]


class PhoneRoom(Protocol):
    """The phones, seen from the table (``companion.web.room.Phones``)."""

    def seats(self) -> set[int]: ...
    def ask(self, offers: dict[int, Offer]) -> None: ...
    def poll(self) -> list[tuple[int, Choice]]: ...
    def done(self) -> None: ...
    def refused(self, seat: int, why: tuple[str, ...]) -> None: ...


class WebSide(Protocol):
    """The spectator page and the phones' pages (``companion.web.room.WebRoom``)."""

    def begin(
        self, key: str | None, resumed: bool, earlier: Sequence[Sequence[Screen]] = ()
    ) -> None: ...
    def publish(
        self,
        view: View | None,
        ui: GameUI,
        t: Translate,
        own_view: Callable[[int], View] | None,
    ) -> None: ...
    def reveal(self, screens: Sequence[Screen]) -> None: ...
    def qr_image(self, seat: int) -> Image.Image: ...


class PhoneDesk(Answerer):
    """The table's counter for phones: ask them, take their answers, feed the web room."""

    def __init__(self, port: Port) -> None:
        self.port = port
        self.web: WebSide | None = None  # the web room, set by companion.web.server.serve
        self.phones: PhoneRoom | None = None  # its phones (None: the room only publishes)
        self.qr: Image.Image | None = None  # a seat's phone QR code on the panel, until a press

    # -- the answers -------------------------------------------------------------------
    def seats(self) -> set[int]:
        return set() if self.phones is None else self.phones.seats()

    def ask(self, d: Decision, free: tuple[int, ...]) -> Mode | None:
        """Ask every free seat that has a phone, at once, with the box's options."""
        port = self.port
        if self.phones is None or port.game is None or not set(free) & self.phones.seats():
            return None
        view = port.game.public_view()
        offers = {}
        for seat in sorted(set(free) & self.phones.seats()):
            own = dataclasses.replace(d, seats=(seat,))
            offers[seat] = (tuple(port.ui.prompt(own, view, port.t)), self.options(own, view))
        self.phones.ask(offers)
        return Phones(tuple(sorted(offers)))

    def options(self, d: Decision, view: View) -> tuple[tuple[Choice, str], ...]:
        t, ui = self.port.t, self.port.ui
        if d.kind == "peek":
            return (("seen", t("OK")),)
        buttons = ui.choice_buttons(d) if d.secret else None
        if buttons is not None:
            # The buttons' two, then any other answer the decision takes, which a phone has
            # room for: Glasnost's "no" to a question offering both leaders (S5).
            more = tuple(o for o in d.options if not any(same_choice(o, b) for b in buttons))
            return tuple((o, ui.option_label(o, t)) for o in (*buttons, *more))
        # The cursor's options in the cursor's order: the legal ones first.
        return tuple((o, ui.choice_label(d, view, o, t)) for o in self.port.offers(d))

    def poll(self) -> None:
        """Play the phones' answers; move on when the phones are done or a phone joined."""
        port, phones = self.port, self.phones
        if phones is None:
            return
        for seat, choice in phones.poll():
            d = port.decision()
            if not isinstance(port.mode, Phones) or d is None or seat not in d.seats:
                continue
            port.box.outputs.feedback()
            port.answer(seat, choice, self)  # a refusal comes back to ``refused``
        d = port.decision()
        if isinstance(port.mode, Phones) and (d is None or not set(d.seats) & phones.seats()):
            phones.done()
            port.move_on()  # a phone went silent: its seat passes the box
        elif isinstance(port.mode, Handoff) and d is not None and set(d.seats) & phones.seats():
            port.move_on()  # a phone joined while the box waited for its seat

    def refused(self, seat: int, why: Refusal) -> None:
        if self.phones is not None:
            self.phones.refused(seat, tuple(wrap(why)))

    def settle(self, before: Decision, after: Decision | None) -> bool:
        """While the phones are asked: True while more answers of the same ballot are due."""
        if not isinstance(self.port.mode, Phones) or self.phones is None:
            return False
        if after is not None and after.kind == before.kind and set(after.seats) < set(before.seats):
            return True
        self.phones.done()
        return False

    def done(self) -> None:
        if self.phones is not None and isinstance(self.port.mode, Phones):
            self.phones.done()  # the phones stop asking too

    def owns(self, mode: Mode) -> bool:
        return isinstance(mode, Phones)

    def screen(self, status: str) -> Screen:
        t, d = self.port.t, self.port.decision()
        assert d is not None
        return waiting_screen(t("Answer on your phones."), d, status, t("Others pass the box"), t)

    # -- the web room ------------------------------------------------------------------
    def show_qr(self) -> bool:
        """PEEK held + Up, by the seat holding the box: its phone's QR code (a new token)."""
        port = self.port
        held = isinstance(port.mode, Peek | Choose | Confirm | Cursor)
        d = port.decision()
        if self.web is None or not held or d is None or not port.box.inputs.is_down("peek"):
            return False
        self.qr = self.web.qr_image(d.seats[0])
        return True

    def begin(
        self, key: str | None, resumed: bool, earlier: Sequence[Sequence[Screen]] = ()
    ) -> None:
        """A game starts or resumes (``key``: which game it is in the journal, so phones
        rejoin the same game after a power cut; ``earlier``: its reveals so far, for the
        TV's history)."""
        if self.web is not None:
            self.web.begin(key, resumed=resumed, earlier=earlier)

    def reveal(self, shown: Sequence[Screen]) -> None:
        """Results shown on the box go to the TV as they happen."""
        if self.web is not None and shown:
            self.web.reveal(shown)

    def publish(self) -> None:
        """The web room gets the public view; a seat's own view only for that seat's phone."""
        port = self.port
        if self.web is None:
            return
        game = port.game
        if game is None:
            self.web.publish(None, port.ui, port.t, None)
        else:
            self.web.publish(game.public_view(), port.ui, port.t, game.view)
