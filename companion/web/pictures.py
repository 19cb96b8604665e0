"""The TV's picture of a game, drawn as SVG from the public view alone, and its pieces.

Each game draws its own (``picture`` in its folder's ``tv``), from the pieces
here. Drawn to be read across a room: the TV page fits a picture to at least a
thousand pixels at 1920x1080, so no text is smaller than ``SMALLEST`` units (2%
of 1080 is 21.6 px); every word goes through the box's catalog (``t``).

A seat drawn by its number carries its name where the table gave it one (``names``:
seat, 0-based, -> name; public, at most ten characters, escaped like every text):
a tag on the seat's disc, or "Anna (4)" where a line names the seat.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any
from xml.sax.saxutils import escape

from companion.games import game_record
from companion.table.names import label
from companion.ui.i18n import Translate
from companion.web.tv import seat_option

SMALLEST = 24  # font size, in the picture's own units
#: generous widths of letters of a sans-serif font, in font sizes: narrow, wide, capital,
#: and any other
NARROW, WIDE = set("iljtfrI.,:;'!|() "), set("MWmwŒÆœæШЩЖЮФЫ\u041cшщжюфым")
EM = {"narrow": 0.34, "wide": 1.0, "capital": 0.76, "other": 0.6}

#: seat (0-based) -> its name, for the seats that have one
Names = Mapping[int, str]


def picture(view: dict[str, Any], t: Translate = str, names: Names | None = None) -> str:
    """The picture of the view's game (``picture`` in its folder's ``tv``), its seats named."""
    draw: Callable[..., str] = game_record(view["game"]).load("tv").picture
    return draw(view, t, names or {})


def width_of(words: str, size: int) -> float:
    """About how wide ``words`` are drawn at ``size`` (no wider: ``EM`` is generous)."""
    return size * sum(EM[_letter_class(ch)] for ch in words)


def _letter_class(ch: str) -> str:
    if ch in NARROW:
        return "narrow"
    if ch in WIDE:
        return "wide"
    return "capital" if ch.isupper() else "other"


def wrapped(words: str, width: float, size: int = SMALLEST) -> list[str]:
    """``words`` cut at spaces into lines no wider than ``width`` (a word alone wider than
    it keeps a line of its own)."""
    lines: list[str] = []
    for word in words.split(" "):
        if lines and width_of(f"{lines[-1]} {word}", size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def named(seat: int, names: Names, t: Translate) -> str:
    """A seat as a line of the picture starts with it: "Anna (4)", or "Seat 4"."""
    return label(seat, names, t) if names.get(seat) else seat_option(seat, t)


def name_tag(x: float, y: float, name: str, size: int = SMALLEST) -> list[str]:
    """A seat's name on a white tag centred on (x, y), over whatever lies under it."""
    width, height = width_of(name, size) + 16, size + 8
    return [
        f'<rect x="{x - width / 2:.0f}" y="{y - height / 2:.0f}" width="{width:.0f}" '
        f'height="{height}" rx="8" fill="#fff" stroke="#111" stroke-width="1.5"/>',
        text(x, y + size * 0.35, name, size, fill="#111", text_anchor="middle"),
    ]


def tags_on_discs(players: int, names: Names) -> list[str]:
    """The named seats' tags across the lower half of their discs around the table, under
    the number: on the seat itself, so none is taken for a neighbour's, and clear of the
    role written above or below the disc."""
    body: list[str] = []
    for seat, name in sorted(names.items()):
        x, y = around_the_table(players, seat)
        body += name_tag(x, y + 33, name)
    return body


def svg(width: int, height: int, body: list[str]) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            'font-family="sans-serif" role="img">',
            f'<rect width="{width}" height="{height}" fill="#f4efe4"/>',
            *body,
            "</svg>",
        ]
    )


def text(
    x: float, y: float, text: str, size: int = SMALLEST, width: float = math.inf, **attrs: str
) -> str:
    """A line of text; one that may be wider than ``width`` (a name made it long) is drawn
    smaller, down to ``SMALLEST``, until it fits."""
    size = max(size, SMALLEST)
    if width_of(text, size) > width:
        size = max(int(size * width / width_of(text, size)), SMALLEST)
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}"{extra}>{escape(text)}</text>'


def bar(
    x: float, y: float, width: float, value: float, total: float, colour: str, height: int = 30
) -> list[str]:
    share = 0 if total <= 0 else max(0.0, min(1.0, value / total))
    return [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{width:.0f}" height="{height}" fill="#fff" '
        'stroke="#333"/>',
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{width * share:.0f}" height="{height}" '
        f'fill="{colour}"/>',
    ]


def around_the_table(players: int, seat: int) -> tuple[float, float]:
    """Seat ``seat`` on an oval table, seat 1 (the box's) at the bottom, clockwise."""
    angle = math.pi / 2 + 2 * math.pi * seat / players
    return 500 + 390 * math.cos(angle), 400 + 175 * math.sin(angle)


def oval_table(players: int) -> str:
    return '<ellipse cx="500" cy="400" rx="300" ry="110" fill="#8d6e63" stroke="#4e342e"/>'
