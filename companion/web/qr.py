"""QR codes on the 128x64 panel (the address in them: ``companion.web.address``)."""

from __future__ import annotations

import segno
from PIL import Image, ImageDraw

from companion.ui.canvas import HEIGHT, LINE, WIDTH, font
from companion.ui.i18n import Translate


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR modules of ``text`` (no border), the smallest version at medium correction."""
    code = segno.make_qr(text, error="m", boost_error=False)
    return [[bool(m) for m in row] for row in code.matrix]


def seat_frame(url: str, seat: int, t: Translate) -> Image.Image:
    """The panel frame: the QR (dark modules on lit ground) left, the seat's words right,
    in the table's language (any key puts the frame away)."""
    matrix = qr_matrix(url)
    size = len(matrix)
    scale = max(1, (HEIGHT - 4) // size)
    side = size * scale
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    margin = (HEIGHT - side) // 2
    draw.rectangle((0, 0, side + 2 * margin - 1, HEIGHT - 1), fill=1)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                left, top = margin + x * scale, margin + y * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=0)
    x = side + 2 * margin + 3
    words = (t("Seat {n}").format(n=seat + 1), t("phone:"), t("scan me"), t("any key"))
    for i, line in enumerate(words):
        draw.text((x, 2 + i * (LINE + 2)), line, font=font(bold=i == 0), fill=1)
    return image
