"""Seat names: public labels a table may give its seats, checked once for every way in.

A name is typed on a seat's phone or picked on the box from the names of
recent games; a seat without one is "seat 4". Names are public and never tied
to a secret: they only ever label a seat the table already names by number
(the hand-over, the TV's waiting line, a phone's header). They stay out of log
lines and the kiosk's statistics. At most ``LONGEST`` characters, each one the
OLED's Terminus font draws (Latin with its accents, Cyrillic), so
"Box to NAME (4)" fits the panel's 21 columns.
"""

from __future__ import annotations

import contextlib
import os
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from companion.ui.i18n import Translate

LONGEST = 10
KEPT_GAMES = 10  # the names of the last ten games, nothing older
PUNCTUATION = frozenset(" -'.")

Names = Mapping[int, str]


def drawable(ch: str) -> bool:
    """A character the panel's font has, and that a name may use."""
    code = ord(ch)
    if ch in PUNCTUATION or "0" <= ch <= "9":
        return True
    latin = code < 0x80 or 0xC0 <= code <= 0x17F  # ASCII, Latin-1 and Latin Extended-A
    cyrillic = 0x400 <= code <= 0x45F
    return unicodedata.category(ch).startswith("L") and (latin or cyrillic)


def checked(text: object, t: Translate) -> tuple[str | None, str | None]:
    """``(name, None)`` for a name a seat may carry ("" clears it), else ``(None, why)``:
    one line saying what is wrong."""
    if not isinstance(text, str):
        return None, t("A name is text.")
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if len(name) > LONGEST:
        return None, t("A name has at most {n} characters.").format(n=LONGEST)
    if not all(drawable(ch) for ch in name):
        return None, t("A name uses Latin or Cyrillic letters only.")
    return name, None


def label(seat: int, names: Names, t: Translate) -> str:
    """How a seat is called: "Anna (4)", or "seat 4" without a name."""
    name = names.get(seat)
    if name:
        return t("{name} ({n})").format(name=name, n=seat + 1)
    return t("seat {n}").format(n=seat + 1)


def seat_option(seat: int, t: Translate) -> str:
    """A seat (0-based) as a phone offers it: "Seat 3" (each game's ``tv``)."""
    return t("Seat {n}").format(n=seat + 1)


def named_option(option: object, text: str, names: Names, t: Translate) -> str:
    """A phone's answer that is a seat, "Seat 3", read "Anna (3)" when the seat has a name
    (the name labels the seat the game already offers by number)."""
    if type(option) is int and names.get(option) and text == seat_option(option, t):
        return label(option, names, t)
    return text


class Recent:
    """The names of the last ``KEPT_GAMES`` games, newest first, kept beside the journal
    (``path`` None: for this run only). The game on the table (``begin``) keeps its names
    in an entry of its own, which the picker leaves out (its list stays still while a seat
    steps through it)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.games: list[tuple[str, dict[int, str]]] = self._read()
        self.current = ""  # the key of the game on the table

    def begin(self, key: str) -> dict[int, str]:
        """Game ``key`` is on the table now; the names it had (a resumed game keeps them)."""
        self.current = key
        return next((dict(seats) for k, seats in self.games if k == key), {})

    def _read(self) -> list[tuple[str, dict[int, str]]]:
        if self.path is None:
            return []
        import json  # once a journal or a names file is read: not before the first frame

        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            games = [(str(k), {int(s): str(n) for s, n in seats.items()}) for k, seats in data]
        except (OSError, ValueError, TypeError, AttributeError):
            return []  # no file, or one that does not read: no recent names, nothing lost
        return games[:KEPT_GAMES]

    def names(self) -> list[str]:
        """Every recent name once, newest game first, for the box's picker."""
        seen: dict[str, None] = {}
        for key, seats in self.games:
            if key == self.current:
                continue
            for seat in sorted(seats):
                seen.setdefault(seats[seat], None)
        return list(seen)

    def keep(self, names: Names, key: str | None = None) -> None:
        """The names of the game on the table (or of game ``key``), now; the oldest games
        beyond ``KEPT_GAMES`` are dropped."""
        key = self.current if key is None else key
        import json  # once a journal or a names file is read: not before the first frame

        others = [(k, seats) for k, seats in self.games if k != key]
        self.games = ([(key, dict(names))] if names else []) + others
        self.games = self.games[:KEPT_GAMES]
        if self.path is not None:
            rows: Sequence[object] = [[k, {str(s): n for s, n in v.items()}] for k, v in self.games]
            tmp = self.path.with_name(self.path.name + ".tmp")
            try:  # a card that cannot write loses the names, never the game
                tmp.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
                os.replace(tmp, self.path)
            except OSError:
                with contextlib.suppress(OSError):
                    tmp.unlink()


class Naming:
    """The seats' names of the game on the table (``seats``), and the recent games' names
    the box offers at a hand-over, kept beside the journal. ``key`` says which game is on
    the table: another key (a new game, a resumed one) brings that game's names, if any."""

    def __init__(self, journal: Path | None = None, key: Callable[[], str] = str) -> None:
        self.recent = Recent(
            None if journal is None else journal.with_name(journal.name + ".names")
        )
        self.key = key
        self._seats: dict[int, str] = {}
        self._key: str | None = None

    @property
    def seats(self) -> dict[int, str]:
        """seat -> name, for the game on the table."""
        key = self.key()
        if key != self._key:
            self._key, self._seats = key, self.recent.begin(key)
        return self._seats

    def name(self, seat: int, name: str) -> None:
        """Seat ``seat`` is called ``name`` now ("": by its number again), kept with the game."""
        seats = self.seats
        if name:
            seats[seat] = name
        else:
            seats.pop(seat, None)
        self.recent.keep(seats)

    def choices(self, seat: int) -> list[str]:
        """What ▲▼ steps through at ``seat``'s hand-over: no name, then the recent names no
        other seat carries, newest game first."""
        taken = {name for other, name in self.seats.items() if other != seat}
        return ["", *(name for name in self.recent.names() if name not in taken)]
