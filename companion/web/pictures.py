"""The TV's picture of a game, drawn as SVG from the public view alone, and its pieces.

Each game draws its own (``picture`` in its folder's ``tv``), from the pieces
here. Drawn to be read across a room: the TV page fits a picture to at least a
thousand pixels at 1920x1080, so no text is smaller than ``SMALLEST`` units (2%
of 1080 is 21.6 px); every word goes through the box's catalog (``t``).

A seat drawn by its number carries its name where the table gave it one (``names``:
seat, 0-based, -> name; public, at most ten characters, escaped like every text):
a tag beside the seat's disc, or "Anna (4)" where a line names the seat.
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
TABLE_CENTRE = (500, 400)  # of ``oval_table``
DISC = 44  # a seat's disc around the table, its radius

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


def named(seat: int, names: Names, t: Translate) -> str:
    """A seat as a line of the picture starts with it: "Anna (4)", or "Seat 4"."""
    return label(seat, names, t) if names.get(seat) else seat_option(seat, t)


Box = tuple[float, float, float, float]  # left, top, right, bottom


def name_tag(x: float, y: float, name: str, size: int = SMALLEST) -> list[str]:
    """A seat's name on a white tag centred on (x, y), over whatever lies under it."""
    left, top, right, bottom = tag_box(x, y, name, size)
    return [
        f'<rect x="{left:.0f}" y="{top:.0f}" width="{right - left:.0f}" '
        f'height="{bottom - top:.0f}" rx="8" fill="#fff" stroke="#111" stroke-width="1.5"/>',
        text(x, y + size * 0.35, name, size, fill="#111", text_anchor="middle"),
    ]


def tag_box(x: float, y: float, name: str, size: int = SMALLEST) -> Box:
    half_w, half_h = width_of(name, size) / 2 + 8, (size + 10) / 2
    return x - half_w, y - half_h, x + half_w, y + half_h


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def tags_around_table(players: int, names: Names, avoid: tuple[Box, ...] = ()) -> list[str]:
    """The named seats' tags beside their discs (``around_the_table``), on the table's side
    (the outer side holds a role, and the picture's edge is near): each moved from its
    disc's centre toward the table's just far enough to clear the disc, and further while
    it would cover a tag already placed or a box to ``avoid`` (the words on the table)."""
    placed: list[Box] = list(avoid)
    body: list[str] = []
    cx, cy = TABLE_CENTRE
    for seat, name in sorted(names.items()):
        x, y = around_the_table(players, seat)
        norm = math.hypot(cx - x, cy - y) or 1.0
        ux, uy = (cx - x) / norm, (cy - y) / norm
        _, _, right, bottom = tag_box(0, 0, name)
        gap = -6  # the tag overlaps the disc's rim: it reads as the seat's own
        reach = min(
            (DISC + right + gap) / abs(ux) if ux else math.inf,
            (DISC + bottom + gap) / abs(uy) if uy else math.inf,
        )
        for _ in range(24):  # at most 192 units further: the table is wider than that
            box = tag_box(x + ux * reach, y + uy * reach, name)
            if not any(_overlap(box, other) for other in placed):
                break
            reach += 8
        placed.append(box)
        body += name_tag(x + ux * reach, y + uy * reach, name)
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
