"""The end of a game as one picture the table can save: the result and the board."""

from __future__ import annotations

import base64
from typing import Any
from xml.sax.saxutils import escape

WIDTH = 1000
LINE = 34  # px between lines


def summary_svg(title: str, status: str, end: dict[str, Any], picture: str) -> str:
    """A standalone SVG: the game's name, the winners, every page of the final screen, and
    the game's picture (its track) under them. Public facts only, as on the TV."""
    lines = [(title, 40, "bold"), (end["headline"], 32, "bold"), (status, 24, "normal")]
    for page in end["pages"]:
        lines += [(line, 24, "normal") for line in page]
    y, body = 20, []
    for text, size, weight in lines:
        y += LINE * size // 24
        body.append(
            f'<text x="30" y="{y}" font-size="{size}" font-weight="{weight}">{escape(text)}</text>'
        )
    image = base64.b64encode(picture.encode("utf-8")).decode("ascii")
    body.append(
        f'<image x="0" y="{y + 20}" width="{WIDTH}" height="{WIDTH * 2 // 3}" '
        f'href="data:image/svg+xml;base64,{image}"/>'
    )
    height = y + 40 + WIDTH * 2 // 3
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" font-family="sans-serif">'
        f'<rect width="{WIDTH}" height="{height}" fill="#f4efe4"/>{"".join(body)}</svg>'
    )
