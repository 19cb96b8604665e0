"""Phones as handsets, on the table's side: any choice a seat is asked, checked as a press.

The web room (``companion.web``) holds the phones and the spectator page; the
table reaches it only through this desk. A decision whose seats include some
with a phone is asked of those phones at once, with the options the box would
offer; the table checks each answer exactly as it checks a press. A refusal is
told to that phone, never drawn on the box (whose screen belongs to another
seat). Seats without a phone, or whose phone went silent, pass the box after.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from companion.games import Choice, Decision
from companion.modes import Choose, Confirm, Cursor, Handoff, Notice, Peek, Phones

if TYPE_CHECKING:
    from companion.table import Table


class PhoneDesk:
    """The table's counter for phones: ask them, take their answers, feed the web room."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.web: Any = None  # the web room, set by companion.web.server.serve
        self.phones: Any = None  # its phones (None: the room only publishes)
        self.qr: Any = None  # a seat's phone QR code on the panel, until the next press

    def due(self, d: Decision) -> bool:
        """Some seat asked has a phone: those seats answer there."""
        return self.phones is not None and bool(set(d.seats) & self.phones.seats())

    def ask(self, d: Decision) -> None:
        """Ask every asked seat that has a phone, at once, with the box's options."""
        table = self.table
        assert table.game is not None
        view = table.game.public_view()
        offers = {}
        for seat in sorted(set(d.seats) & self.phones.seats()):
            own = dataclasses.replace(d, seats=(seat,))
            offers[seat] = (tuple(table.ui.prompt(own, view, table.t)), self.options(own, view))
        self.phones.ask(offers)
        table._enter(Phones(tuple(sorted(offers))))

    def options(self, d: Decision, view: dict[str, Any]) -> tuple[tuple[Choice, str], ...]:
        t, ui = self.table.t, self.table.ui
        if d.kind == "peek":
            return (("seen", t("OK")),)
        buttons = ui.choice_buttons(d) if d.secret else None
        if buttons is not None:
            return tuple((o, ui.option_label(o, t)) for o in buttons)
        # The cursor's options in the cursor's order: the legal ones first.
        return tuple((o, ui.choice_label(d, view, o, t)) for o in self.table._cursor_options(d))

    def poll(self) -> None:
        """Play the phones' answers; move on when the phones are done or a phone joined."""
        table, phones = self.table, self.phones
        if phones is None:
            return
        for seat, choice in phones.poll():
            d = table.game.decision if table.game is not None else None
            if not isinstance(table.mode, Phones) or d is None or seat not in d.seats:
                continue
            table.box.outputs.feedback()
            if not table._act(choice, seat=seat):
                mode = table.mode
                pages = mode.pages if isinstance(mode, Notice) else ()
                phones.refused(seat, pages[0].body if pages else ())
                if isinstance(mode, Notice):
                    table.mode = mode.back  # the phone says why; the box's screen is not the seat's
        d = table.game.decision if table.game is not None else None
        if isinstance(table.mode, Phones) and (d is None or not set(d.seats) & phones.seats()):
            phones.done()
            table._next_decision()  # a phone went silent: its seat passes the box
        elif isinstance(table.mode, Handoff) and d is not None and self.due(d):
            self.ask(d)  # a phone joined while the box waited for its seat

    def after_act(self, before: Decision, after: Decision | None) -> bool:
        """After a phone's answer: True while more phone answers of the same ballot are due."""
        if not isinstance(self.table.mode, Phones):
            return False
        if after is not None and after.kind == before.kind and set(after.seats) < set(before.seats):
            return True
        self.phones.done()
        return False

    def show_qr(self) -> bool:
        """PEEK held + Up, by the seat holding the box: its phone's QR code (a new token)."""
        table = self.table
        held = isinstance(table.mode, Peek | Choose | Confirm | Cursor)
        if self.web is None or not held or not table.box.inputs.is_down("peek"):
            return False
        assert table.game is not None and table.game.decision is not None
        self.qr = self.web.qr_image(table.game.decision.seats[0])
        return True

    def game_key(self) -> str | None:
        """Which game this is in the journal, so phones rejoin the same game after a power cut."""
        journal = self.table.journal
        return None if journal is None or journal.game_id is None else f"{journal.game_id}"

    def begin(self, resumed: bool) -> None:
        if self.web is not None:
            self.web.begin(self.game_key(), resumed=resumed)

    def publish(self) -> None:
        """The web room gets the public view; a seat's own view only for that seat's phone."""
        table = self.table
        if self.web is None:
            return
        game = table.game
        if game is None:
            self.web.publish(None, table.ui, table.t, None)
        else:
            self.web.publish(game.public_view(), table.ui, table.t, game.view)
