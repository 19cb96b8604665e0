"""The TV's picture of a game, drawn as SVG from the public view alone, and its pieces.

Each game draws its own (``picture`` in its folder's ``tv``), from the pieces
here. Drawn to be read across a room: the TV page fits a picture to at least a
thousand pixels at 1920x1080, so no text is smaller than ``SMALLEST`` units (2%
of 1080 is 21.6 px); every word goes through the box's catalog (``t``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from companion.games import game_record
from companion.ui.i18n import Translate

SMALLEST = 24  # font size, in the picture's own units


def picture(view: dict[str, Any], t: Translate = str) -> str:
    """The picture of the view's game (``picture`` in its folder's ``tv``)."""
    draw: Callable[[dict[str, Any], Translate], str] = game_record(view["game"]).load("tv").picture
    return draw(view, t)


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


def text(x: float, y: float, text: str, size: int = SMALLEST, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    size = max(size, SMALLEST)
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
