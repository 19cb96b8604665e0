"""The one seam for answers: what every way of answering does, and what the loop offers it.

The box's own buttons, a wired pad, a phone, the open countdown and any future
remote are the same thing to the loop (``companion.table.loop``): an
``Answerer`` serves some seats, is asked the decision (``ask``), answers with
a choice through the loop's ``Port`` (``answer``, checked exactly as a press),
and is told of a refusal (``refused``): a refusal goes back to whoever sent the
answer. The loop asks its answerers in order, each taking the seats still free,
and never knows which kind it talks to (boardgame.io's moves from any client).

Modelled on mopidy's backends: ``Answerer`` spells out the contract, and every
method MAY be overridden; the defaults serve no seat and do nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image

from companion.box import Box
from companion.games import Choice, Decision, Game
from companion.table.modes import Mode
from companion.table.names import Naming
from companion.table.watchers import Step
from companion.ui.canvas import Screen
from companion.ui.contract import GameUI
from companion.ui.i18n import Translate

#: why a choice was refused, in the table's language (the rule it breaks)
Refusal = str


class Pen(Protocol):
    """The part of the journal's pen (``companion.table.record.Record``) a screen reads."""

    @property
    def names(self) -> Naming: ...


class Port(Protocol):
    """The loop's public side: all an answerer may read or call."""

    box: Box
    game: Game | None
    ui: GameUI
    t: Translate
    mode: Mode
    #: the seat that took the box at the last hand-over (None: nobody holds it)
    holder: int | None

    #: the journal's pen, which keeps the seats' names (``record.names``: public, never logged)
    @property
    def record(self) -> Pen: ...

    #: an OK on the start-of-game look without PEEK held asks once more (not in attract games)
    ask_to_look: bool

    #: a picture on the panel until the next press, which does nothing else (a QR code)
    shown: Image.Image | None

    def now(self) -> Step:
        """This step: the game's public view, worked out once after it (None: no game)."""
        ...

    def decision(self) -> Decision | None:
        """What the game waits for now (None when it is over or not begun)."""
        ...

    def answer(self, seat: int, choice: Choice, by: Answerer) -> Refusal | None:
        """Play ``choice`` for ``seat``, sent by ``by``; the refusal (also told to ``by``),
        or None when the game took it and the loop moved on (which may ask ``by`` the
        next decision before this returns)."""
        ...

    def enter(self, mode: Mode) -> None:
        """Show ``mode`` (the one transition: presses meant for the last screen drop)."""
        ...

    def release(self) -> None:
        """Nobody holds the box now: the next prompt needs a hand-over, nothing before it
        can be undone."""
        ...

    def move_on(self) -> None:
        """Ask the current decision anew (a device came or went: the seats moved)."""
        ...

    def remote_seats(self) -> set[int]:
        """Every seat some answerer away from the box serves now."""
        ...

    def warn(self, title: str, lines: Sequence[str]) -> None:
        """Show each line at once on the box, over whatever it shows (a device refused)."""
        ...


class Answerer(Protocol):
    """One way of answering. Every method MAY be implemented; the defaults do nothing."""

    def seats(self) -> set[int]:
        """The seats it can serve now (a device bound and answering)."""
        return set()

    def pending(self) -> set[int]:
        """The seats it has been asked for and that have not answered yet."""
        return set()

    def ask(self, d: Decision, free: tuple[int, ...]) -> Mode | None:
        """Take the seats of ``free`` (``d``'s seats no answerer before it took) that it
        serves, and ask them. A mode returned is what the box shows meanwhile, and the
        later answerers wait; None lets them take the seats it left."""
        return None

    def poll(self) -> None:
        """Called on every step of the loop: send the answers that came in."""
        return None

    def refused(self, seat: int, why: Refusal) -> None:
        """The loop refused this answerer's answer for ``seat``: ``why``, to show it."""
        return None

    def settle(self, before: Decision, after: Decision | None) -> bool:
        """An answer (anyone's) moved the game from ``before`` to ``after``: close the
        question if it is over; True while more answers of it are due here."""
        return False

    def done(self) -> None:
        """Stop asking: the game is abandoned or another begins."""
        return None

    def owns(self, mode: Mode) -> bool:
        """The box shows one of this answerer's own modes: it takes the presses and draws."""
        return False

    def press(self, button: str) -> None:
        """A short press on one of its own modes."""
        return None

    def chord(self, button: str) -> bool:
        """A short press on any screen, before the screen's owner hears it: True if it was
        this answerer's (the phones' QR code: PEEK held + Up), and nothing else happens."""
        return False

    def screen(self, status: str) -> Screen:
        """The screen of its own mode, under ``status``."""
        raise NotImplementedError(f"{type(self).__name__} owns no mode")
