"""The demo on a TV: the bots' game at a table's pace, with the TV page served.

``companion demo GAME --web HOST:PORT`` is a booth's TV, and a way to see every
screen of a game on the TV: the web room watches the table as it does under
``companion run --web``, every wait of the demo's virtual clock is waited for
real (reveals left up to be read, the box passed from seat to seat), and the
end stays on the TV a while. No phone joins: the bots hold the box.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.demo import BotFactory, DemoRun, play

if TYPE_CHECKING:
    from companion.box import Box
    from companion.table import Settings, Table

LEAD = 10.0  # seconds from the TV's link printed to the first press: time to open it
HOLD = 60.0  # seconds the end stays on the TV before the demo ends

#: ``companion.web.start.serve``: (table, HOST:PORT, data folder, clock) -> the server
Serve = Callable[..., Any]


def tv_link(server: Any) -> str:
    """The box's own TV link (``/TV/<token>``: it always gets in, whatever the spectators)."""
    host = server.shown or server.address.host
    return f"http://{host}:{server.port}/TV/{server.tv_token}"


def play_on_tv(
    settings: Settings,
    seed: int,
    spec: str,
    serve: Serve,
    box: Box,
    bots: str | BotFactory = "smart",
    frames: Path | None = None,
    say: Callable[[str], None] = print,
    sleep: Callable[[float], None] = time.sleep,
) -> DemoRun:
    """Play the demo paced by ``sleep`` with the TV page served on ``spec``; ``say`` tells
    the link, and how long the end stays up."""
    servers: list[Any] = []

    def watch(table: Table) -> None:
        server = serve(table, spec, None, box.clock.now)
        servers.append(server)
        say(f"The TV page: {tv_link(server)} (the game begins in {LEAD:.0f} s)")
        sleep(LEAD)

    try:
        run = play(settings, seed, frames, bots, box=box, pace=sleep, watch=watch)
        say(f"The end stays on the TV for {HOLD:.0f} s (Ctrl-C ends it sooner).")
        sleep(HOLD)
    finally:
        for server in servers:
            server.stop()
    return run
