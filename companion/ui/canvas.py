"""The 128x64 canvas: one status bar, three lines of text, one line of key hints.

Terminus (SIL OFL, shipped with its licence in ``fonts/``) at 12 px gives 21
characters a line and real glyphs for French accents and Cyrillic.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
LINE = 12
COLUMNS = WIDTH // 6
BODY_LINES = 3


@cache
def font(bold: bool = False, size: int = LINE) -> ImageFont.FreeTypeFont:
    name = "terminus-bold.otb" if bold else "terminus-normal.otb"
    with resources.as_file(resources.files("companion.ui") / "fonts" / name) as path:
        return ImageFont.truetype(str(path), size)


BIG_SIZES = (24, 20, 16, 12)


def preload_fonts() -> None:
    """Load every face and size once at start, so no press pays for a font file."""
    font()
    for size in BIG_SIZES:
        font(bold=True, size=size)


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
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += textwrap.wrap(paragraph, width) or [""]
    return lines


def fit(lines: list[str] | tuple[str, ...], count: int = BODY_LINES) -> list[str]:
    """At most ``count`` lines, the last one marked when text was cut."""
    out = [line[:COLUMNS] for line in lines[:count]]
    if len(lines) > count and out:
        out[-1] = out[-1][: COLUMNS - 1] + "…"
    return out


def render(screen: Screen) -> Image.Image:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, LINE - 1), fill=1)
    draw.text((1, 0), screen.status[:COLUMNS], font=font(bold=True), fill=0)
    body = [line for entry in screen.body for line in wrap(entry)]
    if screen.big is not None:
        # One line of text, then the big word under it.
        if body:
            draw.text((0, LINE + 1), fit(body, 1)[0], font=font(), fill=1)
        big = next(
            f
            for f in (font(bold=True, size=size) for size in BIG_SIZES)
            if draw.textlength(screen.big, font=f) <= WIDTH or f.size == 12
        )
        width = draw.textlength(screen.big, font=big)
        draw.text(((WIDTH - width) / 2, 2 * LINE), screen.big, font=big, fill=1)
    else:
        for i, line in enumerate(fit(body)):
            draw.text((0, LINE + 1 + i * LINE), line, font=font(), fill=1)
    if screen.keys:
        draw.line((0, HEIGHT - LINE - 1, WIDTH - 1, HEIGHT - LINE - 1), fill=1)
        draw.text((0, HEIGHT - LINE), screen.keys[:COLUMNS], font=font(), fill=1)
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
