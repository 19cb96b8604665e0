"""The screens the table draws: a seat's prompt, the waits, notices and the last pages.

Each is read from the public view and, on a seat's own prompt, that seat's own
view only (``Port.game.view(seat)``); nothing here changes the table.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.games import Choice, Decision
from companion.games.base import same_choice
from companion.table.answers import Port
from companion.table.cursor import cursor_line
from companion.table.modes import Choose, Confirm, Cursor, Handoff, Mode, Peek
from companion.ui.canvas import BODY_LINES, Private, Screen, wrap
from companion.ui.i18n import Translate


def notice_pages(title: str, text: str, t: Translate) -> list[Screen]:
    """A warning, whole: as many pages as its lines need."""
    lines = wrap(text)
    chunks = [lines[i : i + BODY_LINES] for i in range(0, len(lines), BODY_LINES)]
    return [
        Screen(title, tuple(chunk), t("OK") if i == len(chunks) - 1 else t("OK: more"))
        for i, chunk in enumerate(chunks)
    ]


# Why Back finds nothing to undo: the last thing undo may not cross.
HANDED_OVER, RESUMED, SECRET, REVEALED, FINAL = "hand-over", "resumed", "secret", "reveal", "final"


def no_undo(stop: str, t: Translate) -> str:
    """The refusal of a Back with nothing to undo, naming what stops it."""
    return {
        HANDED_OVER: t("Nothing to undo: undo stops where the box changed hands."),
        RESUMED: t("Nothing to undo: undo stops at the power cut."),
        SECRET: t("Nothing to undo: a secret choice is final."),
        REVEALED: t("Nothing to undo: a reveal is final."),
        FINAL: t("Nothing to undo: this step cannot be taken back."),
    }[stop]


def abandon_screen(status: str, over: bool, t: Translate) -> Screen:
    """Hold Back: abandon the game, or (over, its last reveals on screen) see the result:
    the result is never skipped, a new game is a hold of OK from there."""
    if over:
        question = (t("The game is over."), t("OK: see the result"), t("Back: carry on"))
    else:
        question = (t("Abandon this game?"), t("OK: abandon it"), t("Back: carry on"))
    return Screen(status, question, t("OK  Back"))


def unhooded(shown: Screen, t: Translate) -> Screen:
    """Without a hood (a laptop's terminal), a seat's private lines wait for PEEK."""
    if not any(isinstance(line, Private) for line in shown.body):
        return shown
    hidden = t("Hidden: p shows it")
    body = tuple(hidden if isinstance(line, Private) else line for line in shown.body)
    return dataclasses.replace(shown, body=body)


def waiting_screen(answer_there: str, d: Decision, status: str, keys: str, t: Translate) -> Screen:
    """Seats answering away from the box: where, and which are still to answer."""
    seats = " ".join(str(s + 1) for s in d.seats)
    return Screen(status, (answer_there, t("Waiting for seat {seats}").format(seats=seats)), keys)


def handoff_screen(port: Port, seat: int, d: Decision, view: dict[str, Any], status: str) -> Screen:
    """ "Box to Anna (4)": the seat asked next takes the box; ▲▼ gives it a recent name."""
    t, ui = port.t, port.ui
    name = port.record.names.seats.get(seat)
    if name:
        to = t("Box to {name} ({n})").format(name=name, n=seat + 1)
    else:
        to = t("Box to seat {n}.").format(n=seat + 1)
    lines = (to, ui.role_of(d, view, t), *ui.tracker(view, t))  # a track the status lacks
    if port.record.names.recent.names():
        return Screen(status, lines, t("OK  ▲▼: name"))
    return Screen(status, lines, t("Seat {n}: press OK").format(n=seat + 1))


def prompt_screen(port: Port, mode: Mode, d: Decision, view: dict[str, Any], status: str) -> Screen:
    """A seat's prompt on the box (a claim on the countdown draws one too): ``view`` is the
    public view; the seat that took the box sees its own, and its PEEK card while held."""
    t, ui, game = port.t, port.ui, port.game
    assert game is not None
    peeking = port.box.inputs.is_down("peek")
    seat = mode.seat if isinstance(mode, Choose | Confirm | Cursor) else None
    if seat is not None and seat == port.holder and peeking:
        return ui.peek(game.view(seat), t)  # the holder's own; a claimant names a seat
    match mode:
        case Handoff(seat):
            return handoff_screen(port, seat, d, view, status)
        case Peek(seat, asked=asked):
            if peeking:
                return ui.peek(game.view(seat), t)
            if asked:  # the same words for every seat: nothing here depends on the card
                return Screen(
                    status,
                    tuple(wrap(t("Not looked yet: hold PEEK, or OK to skip"))),
                    t("PEEK  OK: skip"),
                )
            return Screen(status, tuple(ui.prompt(d, view, t)), t("Hold PEEK, then OK"))
        case Choose():
            buttons = ui.choice_buttons(d)
            assert buttons is not None
            a, b = (ui.option_label(x, t) for x in buttons)
            keys = t("A: {a}  B: {b}").format(a=a, b=b)
            return Screen(status, tuple(ui.prompt(d, view, t)), keys)
        case Confirm(seat):
            lines = (
                t("Seat {n}: chosen.").format(n=seat + 1),
                t("OK: play it face down"),
                t("Back: choose again"),
            )
            return Screen(status, lines, t("OK  Back"))
        case Cursor(seat, options=options, at=at):
            option = options[at]
            own = game.view(seat)  # the seat that took the box may see its own
            prompt = list(ui.prompt(d, own, t))
            about = ui.option_detail(d, own, option, t)
            if about is not None:
                prompt = [prompt[0], about]  # the prompt's first line names the seat
            label = ui.choice_label(d, own, option, t)
            return Screen(status, (*prompt, cursor_line(label)), t("▲▼ choose  OK  Back"))
    raise AssertionError(f"no prompt screen for {mode}")


def offers(port: Port, d: Decision) -> tuple[Choice, ...]:
    """The choices the box's cursor offers for ``d``: the ui's candidates, the legal ones
    first, so the cursor starts on one and a refused one (there to hear why) is never the
    default."""
    assert port.game is not None
    items = port.ui.candidates(d, port.game.view(d.seats[0]))  # the seat's own view
    legal = [x for x in items if any(same_choice(x, o) for o in d.options)]
    return (*legal, *(x for x in items if x not in legal))
