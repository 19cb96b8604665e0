"""Load for ``companion bench --web``: phones and spectators on the loopback, and one flooder.

Run as a separate process (a phone is not in the box's process):
``python -m companion.web.load BASE_URL SECONDS FLOOD TOKEN...``. It connects one
phone per token and ``SPECTATORS`` spectator pages, prints ``ready``, then (if
FLOOD is 1) one client floods the server with messages, oversized frames,
reconnections and page requests. It stops by itself after SECONDS, or when its
standard input closes; every loop is bounded in count and time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time

import aiohttp

SPECTATORS = 50
MAX_FLOOD = 200_000  # messages and requests a flood sends at most


async def listen(session: aiohttp.ClientSession, url: str, stop: asyncio.Event) -> None:
    """Hold a websocket open and read (and drop) everything sent, as a page would."""
    with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
        async with session.ws_connect(url) as ws:
            while not stop.is_set():
                with contextlib.suppress(asyncio.TimeoutError):
                    msg = await asyncio.wait_for(ws.receive(), 0.5)
                    if msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                        return


async def flood(session: aiohttp.ClientSession, base: str, token: str, stop: asyncio.Event) -> int:
    """As fast as it can: answers, garbage, oversized frames, reconnections, page loads."""
    sent = 0
    while not stop.is_set() and sent < MAX_FLOOD:
        with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError, ConnectionError):
            async with session.get(base + "/") as page:
                await page.read()
            sent += 1
            async with session.ws_connect(f"{base}/ws/P/{token}") as ws:
                for i in range(50):
                    if ws.closed or stop.is_set():
                        break
                    body = "x" * 4096 if i % 10 == 9 else json.dumps({"ballot": i, "option": 0})
                    await ws.send_str(body)
                    sent += 1
        await asyncio.sleep(0)
    return sent


async def main(base: str, seconds: float, flooding: bool, tokens: list[str]) -> None:
    stop = asyncio.Event()
    deadline = time.monotonic() + seconds
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(listen(session, f"{base}/ws/P/{t}", stop)) for t in tokens]
        tasks += [
            asyncio.create_task(listen(session, f"{base}/ws", stop)) for _ in range(SPECTATORS)
        ]
        await asyncio.sleep(1.0)
        print("ready", flush=True)
        flooder = asyncio.create_task(flood(session, base, tokens[0], stop)) if flooding else None
        loop = asyncio.get_running_loop()
        stdin_closed = loop.run_in_executor(None, sys.stdin.read)
        while time.monotonic() < deadline and not stdin_closed.done():
            await asyncio.sleep(0.1)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        if flooder is not None:
            print(f"flood sent {await flooder}", flush=True)


if __name__ == "__main__":
    base, seconds, flooding, *tokens = sys.argv[1:]
    asyncio.run(main(base, float(seconds), flooding == "1", tokens))
