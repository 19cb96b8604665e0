"""The 128x64 canvas: one status bar, three lines of text, one line of key hints.

Terminus (SIL OFL, shipped with its licence in ``fonts/``) at 12 px gives 21
characters a line and real glyphs for French accents and Cyrillic; the card
suits are drawn from bitmaps of their own at that size (``SUIT_ROWS``), fuller
than the font's so that ♣ and ♦ tell apart at arm's length.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
LINE = 12
COLUMNS = WIDTH // 6
BODY_LINES = 3
#: the faces ship in the package, as files (``importlib.resources`` would load zipfile and
#: tempfile before the first frame, for packages imported from a zip, which the box never is)
FONTS = Path(__file__).resolve().parent / "fonts"


def font(bold: bool = False, size: int = LINE) -> ImageFont.FreeTypeFont:
    """The Terminus face; ``font(True, 24)`` and ``font(bold=True, size=24)`` are one load."""
    return _face(bool(bold), int(size))


@cache
def _face(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    """Keyed by position only (``functools.cache`` tells keyword calls apart)."""
    name = "terminus-bold.otb" if bold else "terminus-normal.otb"
    return ImageFont.truetype(str(FONTS / name), size)


BIG_SIZES = (24, 20, 16, 12)


def preload_fonts() -> None:
    """Load every face and size once at start, so no press pays for a font file."""
    font()
    font(bold=True)
    for size in BIG_SIZES:
        font(bold=True, size=size)


class Private(str):
    """A prompt line of the seat's own secrets (its hand): under the box's hood it shows as
    any line; a box without a hood (the terminal on a laptop) hides it until PEEK."""

    __slots__ = ()


@dataclass(frozen=True)
class Screen:
    """What the OLED shows: ``status`` on top, ``body`` lines, ``keys`` at the bottom.

    ``big`` replaces the body with one large word (a result, a card).
    """

    status: str
    body: tuple[str, ...] = ()
    keys: str = ""
    big: str | None = None
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The screen as JSON (the journal keeps a reveal's screens as the table saw them)."""
        return {"status": self.status, "body": list(self.body), "keys": self.keys, "big": self.big}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Screen:
        """The screen ``to_json`` gave; ValueError when ``data`` is not one."""
        status, body, keys, big = (data.get(k) for k in ("status", "body", "keys", "big"))
        if not (
            isinstance(status, str)
            and isinstance(body, list)
            and all(isinstance(line, str) for line in body)
            and isinstance(keys, str)
            and (big is None or isinstance(big, str))
        ):
            raise ValueError("not a screen")
        return cls(status, tuple(body), keys, big)


def wrap(text: str, width: int = COLUMNS) -> list[str]:
    return list(_wrapped(text, width))


LINES_KEPT = 1024  # lines kept by each cache below (a box runs all day: they are bounded)


@lru_cache(maxsize=LINES_KEPT)
def _wrapped(text: str, width: int) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += textwrap.wrap(paragraph, width) or [""]
    return tuple(lines)


def fit(lines: list[str] | tuple[str, ...], count: int = BODY_LINES) -> list[str]:
    """At most ``count`` lines, the last one marked when text was cut."""
    out = [line[:COLUMNS] for line in lines[:count]]
    if len(lines) > count and out:
        out[-1] = out[-1][: COLUMNS - 1] + "…"
    return out


#: the card suits as the panel draws them at the body's size, from the cell's top row: at
#: 12 px Terminus's own ♣ and ♦ (and ♥ and ♠) differ in a few pixels only; these differ in
#: at least a third of their lit pixels, every pair (tests/test_suit_glyphs.py), and sit on
#: the digits' rows ("10♠"); larger sizes keep the font's
SUIT_ROWS: dict[str, tuple[int, tuple[str, ...]]] = {
    "♣": (2, (".###.", ".###.", "#.#.#", "#####", "#.#.#", "..#..", "..#..", ".###.")),
    "♦": (3, ("..#..", ".###.", ".###.", "#####", ".###.", ".###.", "..#..")),
    "♥": (3, ("##.##", "#####", "#####", "#####", ".###.", ".###.", "..#..")),
    "♠": (2, ("..#..", ".###.", "#####", "#####", "#####", "##.##", "..#..", ".###.")),
}
_NO_SUITS = str.maketrans(dict.fromkeys(SUIT_ROWS, " "))  # a suit's cell, left for its bitmap


@cache
def suit_glyph(suit: str) -> Image.Image:
    """The cell (6 x 12) of ``suit`` as the canvas draws it, lit where its rows say."""
    top, rows = SUIT_ROWS[suit]
    cell = Image.new("1", (WIDTH // COLUMNS, LINE), 0)
    for y, row in enumerate(rows):
        for x, pixel in enumerate(row):
            if pixel == "#":
                cell.putpixel((x, top + y), 1)
    return cell


# Drawing text is most of the cost of a frame, and a game shows the same lines over and
# over: each line is drawn once into a mask and pasted from then on (a mask is a few
# hundred bytes).


@lru_cache(maxsize=LINES_KEPT)
def _line(text: str, bold: bool, size: int, x: float) -> tuple[Image.Image | None, int, int]:
    """``text`` as ``draw.text((x, 0), ...)`` lights it: the lit box as a mask, and where
    the mask's top left corner goes relative to ``(0, 0)`` (None when nothing is lit).

    Drawn on a strip as wide as the canvas with a margin above (for what a glyph draws
    above the line's top), so pasting the mask at a whole-pixel offset lights the very
    pixels ``draw.text`` would, and the canvas clips both the same way.
    """
    margin = size
    strip = Image.new("1", (WIDTH, 3 * size), 0)
    face = font(bold, size)
    if size == LINE and not SUIT_ROWS.keys().isdisjoint(text):
        for i, ch in enumerate(text):
            if ch in SUIT_ROWS:
                strip.paste(1, (round(x + face.getlength(text[:i])), margin), suit_glyph(ch))
        text = text.translate(_NO_SUITS)
    ImageDraw.Draw(strip).text((x, margin), text, font=face, fill=1)
    box = strip.getbbox()
    if box is None:
        return None, 0, 0
    return strip.crop(box), box[0], box[1] - margin


def _text(
    image: Image.Image,
    xy: tuple[float, int],
    text: str,
    fill: int,
    bold: bool = False,
    size: int = LINE,
) -> None:
    """``ImageDraw.Draw(image).text(xy, text, font=font(bold, size), fill=fill)``, cached."""
    mask, left, top = _line(text, bold, size, xy[0])
    if mask is not None:
        x, y = left, xy[1] + top
        image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


@lru_cache(maxsize=256)
def _big(word: str) -> tuple[int, float]:
    """The largest size at which ``word`` fits the width (the smallest when none does),
    and the left edge that centres it."""
    for size in BIG_SIZES:
        face = font(bold=True, size=size)
        if face.getlength(word) <= WIDTH or size == BIG_SIZES[-1]:
            return size, (WIDTH - face.getlength(word)) / 2
    raise AssertionError("BIG_SIZES is empty")


def render(screen: Screen) -> Image.Image:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, LINE - 1), fill=1)
    _text(image, (1, 0), screen.status[:COLUMNS], 0, bold=True)
    body = [line for entry in screen.body for line in _wrapped(entry, COLUMNS)]
    if screen.big is not None:
        # One line of text, then the big word under it.
        if body:
            _text(image, (0, LINE + 1), fit(body, 1)[0], 1)
        size, left = _big(screen.big)
        _text(image, (left, 2 * LINE), screen.big, 1, bold=True, size=size)
    else:
        for i, line in enumerate(fit(body)):
            _text(image, (0, LINE + 1 + i * LINE), line, 1)
    if screen.keys:
        draw.line((0, HEIGHT - LINE - 1, WIDTH - 1, HEIGHT - LINE - 1), fill=1)
        _text(image, (0, HEIGHT - LINE), screen.keys[:COLUMNS], 1)
    return image


def overflow(screen: Screen) -> list[str]:
    """The texts of ``screen`` that do not fit the canvas (the tests keep this empty)."""
    body = [line for entry in screen.body for line in wrap(entry)]
    too_long = [text for text in (screen.status, screen.keys) if len(text) > COLUMNS]
    if len(body) > (1 if screen.big is not None else BODY_LINES):
        too_long.append(" / ".join(body))
    if screen.big is not None and font(bold=True, size=12).getlength(screen.big) > WIDTH:
        too_long.append(screen.big)
    return too_long
