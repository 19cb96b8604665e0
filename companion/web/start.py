"""The web side's start: everything the table loop needs opened first, then the server.

The order at start is the box's first frame (drawn by the table), then the
fonts, catalogs, game modules and QR encoder warmed here, then the server.
Once the network can be reached, nothing it does (exhausting the open-file
limit, say) can make a press fail for a file the loop would open lazily.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import SettingsError
from companion.games import GAMES, game_class
from companion.table.phones import PhoneDesk
from companion.ui import game_ui
from companion.ui.canvas import preload_fonts
from companion.ui.i18n import LANGUAGES, translator
from companion.web.address import WebAddress
from companion.web.qr import seat_frame
from companion.web.rejoin import code_frame
from companion.web.room import WebRoom
from companion.web.server import JOIN, WebServer
from companion.web.tokens import Tokens, tv_token, write_private

if TYPE_CHECKING:
    from companion.table import Table


def warm() -> None:
    """Open once what the table loop would otherwise open on first use."""
    preload_fonts()
    for name in GAMES:
        game_class(name)
        game_ui(name)
    for lang in LANGUAGES:
        translator(lang)
    # segno's tables, the QR frame's fonts
    seat_frame("HTTP://0.0.0.0:0/P/" + "A" * 24, 0, translator("en"))
    code_frame("000000", 0, "0.0.0.0:0/J", translator("en"))  # the code frame's large face


def serve(table: Table, spec: str, data: Path | None, clock: Callable[[], float]) -> WebServer:
    """Attach a web room to ``table`` and start the server on ``spec`` (HOST:PORT).

    ``data`` is the folder of the journal: phone tokens and the TV link live
    there (none when the box keeps nothing). SettingsError for a ``spec``
    that cannot be, or an address that cannot be bound.
    """
    address = WebAddress.parse(spec)
    warm()
    server: WebServer
    room = WebRoom(
        Tokens(data / "phones.json" if data else None),
        clock,
        lambda token: server.url(f"/P/{token}"),
        lambda: server.url(JOIN),
    )
    server = WebServer(
        room, address.host, address.port, tv_token(data / "tv-token" if data else None)
    )
    if data is not None:
        server.on_listening.append(lambda s: _write_tv_link(s, data / "tv-link.txt"))
    table.watch(room)
    table.join(PhoneDesk(table, room.phones))
    try:
        server.start()
    except OSError as exc:
        raise SettingsError(
            f"--web: cannot listen on {address.host}:{address.port}: {exc.strerror}"
        ) from None
    return server


def _write_tv_link(server: WebServer, path: Path) -> None:
    """The TV's own link, for whoever sets the box up (kept 0600, never logged)."""
    write_private(path, f"http://{server.shown}:{server.port}/TV/{server.tv_token}\n")
