"""QR codes on the 128x64 panel, and the address phones reach the box at.

The address comes from the network interface the server listens on (a name
like ``wlan0``, or the address it was bound to), never from a guess.
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct

import segno
from PIL import Image, ImageDraw

from companion.ui.canvas import HEIGHT, LINE, WIDTH, font

SIOCGIFADDR = 0x8915


def interface_address(name: str) -> str | None:
    """The IPv4 address of interface ``name`` (Linux), or None if it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def listen_address(host: str) -> tuple[str, str]:
    """(address to bind, address to put in the QR codes) for ``--web HOST``.

    HOST is an address (bound as given) or an interface name (bound to that
    interface's address). For 0.0.0.0 the QR codes carry the first interface
    that is up and not loopback.
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        found = interface_address(host)
        if found is None:
            raise ValueError(
                f"--web: {host!r} is neither an address nor an interface with one"
            ) from None
        return found, found
    if not ip.is_unspecified:
        return host, host
    for _, name in socket.if_nameindex():
        found = interface_address(name)
        if found is not None and not ipaddress.ip_address(found).is_loopback:
            return host, found
    return host, "127.0.0.1"


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR modules of ``text`` (no border), the smallest version at medium correction."""
    code = segno.make_qr(text, error="m", boost_error=False)
    return [[bool(m) for m in row] for row in code.matrix]


def seat_frame(url: str, seat: int) -> Image.Image:
    """The panel frame: the QR (dark modules on lit ground) left, the seat's words right."""
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
    for i, line in enumerate((f"Seat {seat + 1}", "phone:", "scan me", "any key")):
        draw.text((x, 2 + i * (LINE + 2)), line, font=font(bold=i == 0), fill=1)
    return image
