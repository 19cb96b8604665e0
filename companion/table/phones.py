"""Phones as a way of answering: any choice a seat is asked, checked as a press.

The web room (``companion.web.room``) joins its phones to the table with
``Table.join(PhoneDesk(table, phones))``; this desk reaches them only through
the ``PhoneRoom`` protocol below, and knows nothing of the TV (a watcher of
its own, ``companion.table.watchers``). A decision whose seats include some
with a phone is asked of those phones at once, with the options the box would
offer; the loop checks each answer exactly as it checks a press. A refusal is
told to that phone, never drawn on the box (whose screen belongs to another
seat). Seats without a phone, or whose phone went silent, pass the box after.

The seat holding the box, at its own prompt, holds PEEK and presses Up for its
phone's QR code or Down for a short code to type on another phone. A new phone
asking for a seat another phone holds is confirmed by that phone or by the box
(``Admit``), which asks only over a public screen (``PUBLIC``): never over a
seat's own prompt, a notice or "Abandon?", where it waits for the next one.
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

from PIL import Image

from companion.games import Choice, Decision, game_record
from companion.games.base import same_choice
from companion.table.answers import Answerer, Port, Refusal
from companion.table.modes import (
    Admit,
    Announce,
    Choose,
    Confirm,
    Cursor,
    Handoff,
    Handsets,
    Mode,
    Over,
    Peek,
    Phones,
    Remote,
)
from companion.table.names import named_option
from companion.table.screens import offers, waiting_screen
from companion.table.watchers import View
from companion.ui.canvas import Screen, wrap
from companion.ui.i18n import Translate

#: what a phone is asked: its prompt's lines, and each option with its label
Offer = tuple[tuple[str, ...], tuple[tuple[Choice, str], ...]]

__all__ = ["Offer", "PhoneDesk", "PhoneRoom", "View"]

#: the screens the whole table may read, over which the box may ask to let a new phone in
PUBLIC = (Handoff, Phones, Handsets, Remote, Announce, Over)


class PhoneRoom(Protocol):
    """The phones, seen from the table (``companion.web.room.Phones``)."""

    def seats(self) -> set[int]: ...
    def ask(self, offers: dict[int, Offer]) -> None: ...
    def poll(self) -> list[tuple[int, Choice]]: ...
    def done(self) -> None: ...
    def refused(self, seat: int, why: tuple[str, ...]) -> None: ...
    def typed(self) -> list[tuple[int, str]]:
        """Names typed on the phones since the last call, already checked."""
        ...

    def link(self, seat: int) -> Image.Image:
        """A new link for ``seat``'s phone (the old one dies), as a panel frame."""
        ...

    def code(self, seat: int) -> Image.Image:
        """A new short code for ``seat`` (its old one dies), as a panel frame."""
        ...

    def asking(self) -> list[tuple[int, int]]:
        """New phones waiting to be let into a seat: (request, seat), oldest first."""
        ...

    def admit(self, number: int, let_in: bool) -> None:
        """The box's answer to a request (one answered meanwhile is left as it is)."""
        ...


class PhoneDesk(Answerer):
    """The table's counter for phones: ask them, take their answers, show a seat's link."""

    def __init__(self, port: Port, phones: PhoneRoom) -> None:
        self.port = port
        self.phones = phones

    # -- the answers -------------------------------------------------------------------
    def seats(self) -> set[int]:
        return self.phones.seats()

    def ask(self, d: Decision, free: tuple[int, ...]) -> Mode | None:
        """Ask every free seat that has a phone, at once, with the box's options."""
        port = self.port
        view = port.now().view
        if view is None or not set(free) & self.phones.seats():
            return None
        offers = {}
        for seat in sorted(set(free) & self.phones.seats()):
            own = dataclasses.replace(d, seats=(seat,))
            offers[seat] = (self.question(own, view), self.options(own, view))
        self.phones.ask(offers)
        return Phones(tuple(sorted(offers)))

    def question(self, d: Decision, view: View) -> tuple[str, ...]:
        """What a phone asks its seat: the game's sentence for a phone (its folder's
        ``tv.ask_words``), else the box's prompt (a peek's the room words for a phone)."""
        t = self.port.t
        said = getattr(game_record(view["game"]).load("tv"), "ask_words", None)
        words = said(d, view, t) if said is not None else None
        if words:
            return tuple(words)
        return tuple(self.port.ui.prompt(d, view, t))

    def options(self, d: Decision, view: View) -> tuple[tuple[Choice, str], ...]:
        """Each option with its label on a phone: the game's (``tv.option_words``) where it
        has one, else the box's."""
        t = self.port.t
        if d.kind == "peek":
            return (("seen", t("OK")),)
        boxed = self._box_options(d, view)
        said = getattr(game_record(view["game"]).load("tv"), "option_words", None)
        names = self.port.record.names.seats
        return tuple(
            (o, named_option(o, (said(d, view, o, t) if said else None) or label, names, t))
            for o, label in boxed
        )

    def _box_options(self, d: Decision, view: View) -> tuple[tuple[Choice, str], ...]:
        """The options as the box labels them."""
        t, ui = self.port.t, self.port.ui
        buttons = ui.choice_buttons(d) if d.secret else None
        if buttons is not None:
            # The buttons' two, then any other answer the decision takes, which a phone has
            # room for: Glasnost's "no" to a question offering both leaders (S5).
            more = tuple(o for o in d.options if not any(same_choice(o, b) for b in buttons))
            return tuple((o, ui.option_label(o, t)) for o in (*buttons, *more))
        # The cursor's options in the cursor's order: the legal ones first.
        return tuple((o, ui.choice_label(d, view, o, t)) for o in offers(self.port, d))

    def under(self) -> Mode:
        """The screen the box shows, or the one its question about a new phone covers."""
        mode = self.port.mode
        return mode.back if isinstance(mode, Admit) else mode

    def poll(self) -> None:
        """Play the phones' answers; move on when the phones are done or a phone joined."""
        port, phones = self.port, self.phones
        for seat, name in phones.typed():
            port.record.names.name(seat, name)
        for seat, choice in phones.poll():
            d = port.decision()
            if not isinstance(self.under(), Phones) or d is None or seat not in d.seats:
                continue
            port.box.outputs.feedback()
            port.answer(seat, choice, self)  # a refusal comes back to ``refused``
        d = port.decision()
        mode = self.under()
        if isinstance(mode, Phones) and (d is None or not set(d.seats) & phones.seats()):
            phones.done()
            port.move_on()  # a phone went silent: its seat passes the box
        elif isinstance(mode, Handoff) and d is not None and set(d.seats) & phones.seats():
            port.move_on()  # a phone joined while the box waited for its seat
        self.confirm()

    def confirm(self) -> None:
        """A new phone asks for a seat: the box asks too, over a public screen only; once
        the seat's phone answered first (or the request lapsed) its question goes."""
        port = self.port
        asking = self.phones.asking()
        mode = port.mode
        if isinstance(mode, Admit):
            if all(number != mode.request for number, _ in asking):
                port.enter(mode.back)
        elif asking and isinstance(mode, PUBLIC) and port.game is not None:
            number, seat = asking[0]
            port.enter(Admit(number, seat, mode))

    def refused(self, seat: int, why: Refusal) -> None:
        self.phones.refused(seat, tuple(wrap(why)))

    def settle(self, before: Decision, after: Decision | None) -> bool:
        """While the phones are asked: True while more answers of the same ballot are due."""
        if not isinstance(self.under(), Phones):
            return False
        if after is not None and after.kind == before.kind and set(after.seats) < set(before.seats):
            return True
        self.phones.done()
        return False

    def done(self) -> None:
        if isinstance(self.under(), Phones):
            self.phones.done()  # the phones stop asking too

    def owns(self, mode: Mode) -> bool:
        return isinstance(mode, Phones | Admit)

    def press(self, button: str) -> None:
        """On the question about a new phone: OK lets it in, Back refuses it; the screen it
        covered comes back. Any other press is not taken."""
        mode = self.port.mode
        if isinstance(mode, Admit) and button in ("ok", "back"):
            self.phones.admit(mode.request, button == "ok")
            self.port.enter(mode.back)

    def screen(self, status: str) -> Screen:
        t, mode = self.port.t, self.port.mode
        if isinstance(mode, Admit):
            return admit_screen(mode.seat, self.port.record.names.seats.get(mode.seat), t)
        d = self.port.decision()
        assert d is not None
        return waiting_screen(t("Answer on your phones."), d, status, t("Others pass the box"), t)

    def chord(self, button: str) -> bool:
        """PEEK held by the seat holding the box, at its own prompt: Up shows its phone's
        QR code (a new link), Down a short code to type on a phone (``companion.web.rejoin``)."""
        port, mode = self.port, self.port.mode
        chord = button in ("up", "down") and port.box.inputs.is_down("peek")
        if not chord or not isinstance(mode, Peek | Choose | Confirm | Cursor):
            return False
        seat = mode.seat  # the seat the prompt asks: the one that took the box
        port.shown = self.phones.link(seat) if button == "up" else self.phones.code(seat)
        return True


def admit_screen(seat: int, name: str | None, t: Translate) -> Screen:
    """ "A new phone asks for seat 4 (Anna). OK: let it in. Back: refuse." in 21 columns."""
    who = f"{seat + 1} ({name})" if name else str(seat + 1)
    asks = wrap(t("asks for seat {who}.").format(who=who))[:2]
    return Screen(t("A new phone"), (*asks, t("OK: let it in")), t("Back: refuse"))
