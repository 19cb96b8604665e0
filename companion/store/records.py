"""What the journal keeps and hands back: typed rows, queued writes and what it has to say.

Plain data only: a step comes back as it was written (its text, its checksum, the
reveal on show, the reason it was set aside), never judged here. Whether it can be
resumed is decided on the table's side (``companion.table.resume``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# games.finished
PLAYING = 0
FINISHED = 1
SET_ASIDE = 2
ABANDONED = 3  # given up at the table (the abandon gesture, a kiosk's walked-away game)
KNOWN_ENDS = (PLAYING, FINISHED, SET_ASIDE, ABANDONED)

# What the screen says (the table translates it; the log gets the details).
FILE_DAMAGED = "Journal damaged: kept aside, a new one started."
FILE_SALVAGED = "Journal damaged: kept aside, the game carried on."
NEWER_JOURNAL = "Journal from a newer version: not saving."
ROLLED_BACK = "After a crash, resumed at an earlier step."
UNSAVED = "Not saving: the game goes on unsaved."
STEP_SKIPPED = "Damaged step skipped: resumed at step {step}."
NEWER_STEP = "Newer-version step skipped: resumed at step {step}."
STEP_STOPPED = "The box stopped at step {bad}: resumed at step {step}."
GAME_ASIDE = "Saved game unreadable: kept aside."
NEWER_GAME = "Saved game from a newer version: kept aside."
GAME_STOPPED = "The saved game stopped the box twice: kept aside."
SAVING_AGAIN = "The journal can be written again: saving."
SCREEN_LINES = (
    FILE_DAMAGED,
    FILE_SALVAGED,
    NEWER_JOURNAL,
    ROLLED_BACK,
    UNSAVED,
    STEP_SKIPPED,
    NEWER_STEP,
    STEP_STOPPED,
    GAME_ASIDE,
    NEWER_GAME,
    GAME_STOPPED,
    SAVING_AGAIN,
)


def checksum(text: str) -> str:
    """The checksum kept beside a record's text (BLAKE2b, 128 bits, hex)."""
    import hashlib  # with OpenSSL: loaded by the first step written or read, after the first frame

    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def decode(raw: bytes | None) -> Any:
    """A JSON column read as bytes; ValueError says what is wrong with it."""
    if raw is None:
        raise ValueError("missing")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg} at {exc.pos}") from None


def screens(raw: bytes | None) -> list[dict[str, Any]] | None:
    """A reveal kept as JSON: a list of screens (None: nothing on show)."""
    if raw is None:
        return None
    shown = decode(raw)
    if not isinstance(shown, list) or not all(isinstance(s, dict) for s in shown):
        raise ValueError("the reveal on show is not a list of screens")
    return shown or None


@dataclass(frozen=True)
class News:
    """Something the box must say once: ``screen`` (short, translated by the table, then
    filled with ``args``), ``log``."""

    screen: str
    log: str
    args: dict[str, Any] = field(default_factory=dict)

    def said(self, t: Callable[[str], str]) -> str:
        """The screen's line in the language of ``t``."""
        return t(self.screen).format(**self.args)


@dataclass(frozen=True)
class SavedStep:
    """One row of ``steps`` as it was written."""

    n: int
    record: bytes | None  # the record's JSON text (bytes: a damaged one may not be UTF-8)
    checksum: str | None  # None in journals older than checksums
    shown: bytes | None  # the reveal's screens still on show, as JSON
    bad: str | None  # why it was set aside at an earlier start, if it was

    def text(self) -> str:
        """The record's text; ValueError if it is not text."""
        if self.record is None:
            raise ValueError("missing")
        try:
            return self.record.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("not UTF-8") from None

    def intact(self) -> bool:
        """Whether the text is what was written (a row without a checksum cannot tell)."""
        try:
            return self.checksum is None or checksum(self.text()) == self.checksum
        except ValueError:
            return False


@dataclass(frozen=True)
class Unfinished:
    """The newest game not over, as the journal holds it: its settings' JSON, its kept steps
    (newest first) and the steps the starts since its last quiet moment resumed (the last
    one last: a start that never reached a quiet moment stopped the box)."""

    game_id: int | None  # None: read from a damaged file, not yet in the new one
    name: str
    settings: bytes | None
    steps: tuple[SavedStep, ...]
    failed_starts: tuple[int, ...] = ()


@dataclass(frozen=True)
class Odd:
    """A game whose ``finished`` holds a value this version does not know."""

    game_id: int
    name: str
    finished: Any


# -- writes waiting for a writable journal -----------------------------------------------
@dataclass(frozen=True)
class Begin:
    """A new game: every older unfinished one is over for good."""

    game: str
    settings: str  # JSON


@dataclass(frozen=True)
class Step:
    """A completed step, the reveal on show after it, and every reveal since the last
    step written (only the newest state of an unsaved stretch is kept, every reveal is)."""

    record: str  # JSON
    shown: str | None  # JSON
    reveals: tuple[tuple[dict[str, Any], ...], ...] = ()


@dataclass(frozen=True)
class Shown:
    """The reveal screens still on show after the newest step (None: the reveal is over)."""

    shown: str | None


@dataclass(frozen=True)
class Finish:
    """The game ended (``FINISHED``) or was given up (``ABANDONED``)."""

    how: int


Write = Begin | Step | Shown | Finish
