"""``companion demo GAME --web``: the bots' game at a table's pace, on a served TV page."""

import asyncio
import json

import aiohttp

from companion.box import VirtualClock, open_box
from companion.demo import GAP, READ, TAP
from companion.demo_tv import HOLD, LEAD, play_on_tv
from companion.table import Settings
from companion.web.start import serve
from tests.test_web_limits import free_port


def tv_state(link: str) -> dict:
    """The state the served TV page is sent first, read through its own feed."""

    async def read() -> dict:
        feed = link.replace("/TV/", "/ws/TV/")
        async with aiohttp.ClientSession() as session, session.ws_connect(feed) as ws:
            message = await ws.receive(timeout=10)
            return json.loads(message.data)

    return asyncio.run(read())


def test_the_demo_on_a_tv_shows_each_reveal_while_it_is_read_and_holds_the_end():
    box = open_box("virtual", clock=VirtualClock())
    said: list[str] = []
    waited: list[float] = []
    seen: dict[str, dict] = {}

    def link() -> str:
        return said[0].split()[3]

    def sleep(seconds: float) -> None:  # the demo's real waits, and a look at the TV
        waited.append(seconds)
        if seconds == READ and "reveal" not in seen:
            seen["reveal"] = tv_state(link())
        elif seconds == HOLD:
            seen["end"] = tv_state(link())

    try:
        run = play_on_tv(
            Settings("vote", 5),
            4,
            f"127.0.0.1:{free_port()}",
            serve,
            box,
            say=said.append,
            sleep=sleep,
        )
    finally:
        box.close()
    assert said[0].startswith("The TV page: http://127.0.0.1:") and "/TV/" in said[0]
    assert waited[0] == LEAD and waited[-1] == HOLD
    # At a table's pace: every press waited for real, and each reveal left up to be read.
    reveals = waited.count(READ)
    assert reveals >= 1
    assert sum(waited[1:-1]) >= run.presses * (TAP + GAP) + reveals * READ - 1e-6
    reveal, end = seen["reveal"], seen["end"]
    assert reveal["game"] == "vote" and reveal["reveal"] is not None  # the reveal on the TV
    assert reveal["end"] is None
    assert end["game"] == "vote" and end["end"] is not None  # the result, while the end holds


def test_a_wrong_web_address_for_the_demo_is_one_line_before_anything_plays(capsys):
    from companion.cli import main

    assert main(["demo", "vote", "--headless", "--web", "8080"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "companion: --web takes HOST:PORT (an address or an interface, then a port), not '8080'"
    ]
