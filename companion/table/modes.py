"""The table's modes: what the box waits for, each carrying the data only it needs.

``Table.mode`` (``companion.table.loop``) is one of these; the table and its
answerers dispatch on its type, and anything that drives a table (the demo's
``Player``, a kiosk, the web side) reads it the same way, e.g.
``match table.mode: case Cursor(options=options, at=at): ...``.
A seat's prompt (``Choose``, ``Confirm``, ``Peek``, ``Cursor``) names the seat
it asks, which is always the seat that took the box at the last hand-over.
"""

from __future__ import annotations

from companion.games import Choice
from companion.table.setup import SetupForm
from companion.ui.canvas import Screen
from companion.valueclass import valueclass


@valueclass
class Setup:
    """The setup screens, before a game."""

    form: SetupForm


@valueclass(frozen=True)
class Handoff:
    """ "Box to seat N": the seat asked next takes the box (OK); nothing private shows."""

    seat: int


@valueclass(frozen=True)
class Choose:
    """A secret choice on the A and B buttons."""

    seat: int


@valueclass(frozen=True)
class Confirm:
    """A secret choice made, waiting for OK (or Back to choose again)."""

    seat: int
    pending: Choice


@valueclass
class Peek:
    """The start-of-game look: a private card, shown while PEEK is held; OK when read. An OK
    before PEEK was held (``looked``) asks once more (``asked``), the same for every seat."""

    seat: int
    looked: bool = False
    asked: bool = False


@valueclass
class Cursor:
    """An open choice: ``options`` legal ones first, the cursor ``at`` one of them."""

    seat: int
    options: tuple[Choice, ...]
    at: int = 0


@valueclass(frozen=True)
class Announce:
    """Reveals the table must read, each dismissed with OK."""

    screens: tuple[Screen, ...]


@valueclass(frozen=True)
class Handsets:
    """A secret ballot voted on the handsets; the box only counts."""

    seats: tuple[int, ...]
    ballot: int


@valueclass(frozen=True)
class Phones:
    """The seats with a phone answer there at once; the others pass the box after."""

    seats: tuple[int, ...]


@valueclass(frozen=True)
class Remote:
    """Every seat left answers on some other way of answering (``companion.table.answers``)
    that brings no mode of its own; the answerer that serves them draws it."""

    seats: tuple[int, ...]


@valueclass
class Countdown:
    """An open question (the Glasnost coup check): any seat may claim it on the box until
    the clock runs out; ``companion.table.countdown`` holds the clock and the claims.
    ``said``: why the last press was not taken."""

    said: str | None = None


@valueclass
class Claim:
    """A claim on the countdown: the claimant picks its seat (``at``) and answers on A/B
    (``pending``, for seat ``at``), then OK, as for a secret choice. ``said``: why the last
    press was not taken."""

    at: int = 0
    pending: Choice | None = None
    said: str | None = None


@valueclass
class Over:
    """The last screen's pages (the result); hold OK for a new game."""

    page: int = 0


@valueclass(frozen=True)
class Notice:
    """A refusal or a warning, page by page: OK turns a page, the last one goes ``back``,
    and does nothing else; another press is ``nudged``: the keys line says OK goes on."""

    pages: tuple[Screen, ...]
    back: Mode
    page: int = 0
    nudged: bool = False

    def turned(self) -> Mode:
        """The next page, or after the last what the notice covered."""
        if self.page + 1 < len(self.pages):
            return Notice(self.pages, self.back, self.page + 1)
        return self.back


@valueclass(frozen=True, unshown=("back",))
class Abandon:
    """ "Abandon this game?": OK abandons it, Back goes ``back``."""

    back: Mode


@valueclass(frozen=True, unshown=("back",))
class Admit:
    """ "A new phone asks for seat N": OK lets it in, Back refuses it; then ``back``. Shown
    only over a public screen (``companion.table.phones``), never over a seat's own."""

    request: int
    seat: int
    back: Mode


Mode = (
    Setup
    | Handoff
    | Choose
    | Confirm
    | Peek
    | Cursor
    | Announce
    | Handsets
    | Phones
    | Remote
    | Countdown
    | Claim
    | Over
    | Notice
    | Abandon
    | Admit
)
#: the modes that wait for a seat (the status LED breathes)
WAITING = (Handoff, Choose, Confirm, Peek, Cursor, Handsets, Phones, Remote, Countdown, Claim)
