"""The box's own buttons as a way of answering: the seat that takes the box answers on it.

It serves whichever seats every other answerer left (it is asked last), one at a
time: "Box to seat N" until that seat presses OK, then its prompt (a secret
choice on A/B then OK, a private card while PEEK is held, an open choice on a
cursor). A refusal is shown on the box's screen, which is that seat's. Back on
a prompt is the loop's undo, not this answerer's.
"""

from __future__ import annotations

from companion.games import Decision
from companion.table.answers import Answerer, Port, Refusal
from companion.table.cursor import cursor_step
from companion.table.modes import Choose, Confirm, Cursor, Handoff, Mode, Peek
from companion.table.screens import offers, prompt_screen
from companion.ui.canvas import Screen


class Buttons(Answerer):
    """The prompts of the box: the hand-over, then the seat's own choice."""

    def __init__(self, port: Port) -> None:
        self.port = port

    def ask(self, d: Decision, free: tuple[int, ...]) -> Mode | None:
        seat = free[0]  # the next seat that passes the box
        return self.prompt(d, seat) if seat == self.port.holder else Handoff(seat)

    def prompt(self, d: Decision, seat: int) -> Mode:
        """The prompt of ``seat``, which holds the box."""
        if d.kind == "peek":
            return Peek(seat)
        if d.secret and self.port.ui.choice_buttons(d) is not None:
            return Choose(seat)
        options = offers(self.port, d)
        return Cursor(seat, options, self.port.ui.cursor_start(d, options))

    def refused(self, seat: int, why: Refusal) -> None:
        self.port.warn(self.port.t("Not allowed"), [why])

    def owns(self, mode: Mode) -> bool:
        return isinstance(mode, Handoff | Choose | Confirm | Peek | Cursor)

    def press(self, button: str) -> None:
        port = self.port
        d = port.decision()
        assert d is not None
        match port.mode:
            case Handoff(seat) if button == "ok":
                port.holder = seat
                port.enter(self.prompt(d, seat))
            case Handoff(seat) if button in ("up", "down"):
                names, now = port.record.names.choices(seat), port.record.names.seats.get(seat, "")
                at = names.index(now) if now in names else 0  # a name typed on its phone: none
                port.record.names.name(seat, names[cursor_step(at, len(names), button)])
            case Choose(seat) | Confirm(seat) if button in ("choice_a", "choice_b"):
                # The last press before OK counts: a seat may correct itself. The screen
                # never shows which, so a correction looks like any other press.
                buttons = port.ui.choice_buttons(d)
                assert buttons is not None
                port.enter(Confirm(seat, buttons[button == "choice_b"]))
            case Choose() if button == "ok":
                # The same words for every seat and every pair of choices, told at once.
                port.warn(port.t("Not yet"), [port.t("Choose A or B first.")])
            case Confirm(seat, pending) if button == "ok":
                port.answer(seat, pending, self)
            case Confirm(seat) if button == "back":
                port.enter(Choose(seat))
            case Peek() as peek if button == "peek":
                peek.looked = True  # the card shows while it is held, as drawn
            case Peek(seat, looked=False, asked=False) if button == "ok" and port.ask_to_look:
                port.enter(Peek(seat, asked=True))  # "Not looked yet": OK again skips
            case Peek(seat) if button == "ok":
                port.answer(seat, "seen", self)
            case Cursor() as cursor if button in ("up", "down"):
                cursor.at = cursor_step(cursor.at, len(cursor.options), button)
            case Cursor(seat, options=options, at=at) if button == "ok":
                port.answer(seat, options[at], self)

    def screen(self, status: str) -> Screen:
        port = self.port
        d = port.decision()
        view = port.now().view
        assert view is not None and d is not None
        return prompt_screen(port, port.mode, d, view, status)
