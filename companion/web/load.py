"""Load on the loopback, from a separate process (a phone is not in the box's process).

``python -m companion.web.load BASE_URL SECONDS FLOOD TOKEN...`` (``companion bench
--web``) connects one phone per token and ``SPECTATORS`` spectator pages, each
from its own loopback address (as devices on the Wi-Fi are), prints ``ready``,
then (if FLOOD is 1) one client floods the server with messages, oversized
frames, reconnections and page requests.

``python -m companion.web.load hold HOST PORT COUNT ADDRESSES SECONDS`` keeps
COUNT connections open, spread over ADDRESSES loopback addresses, each sending
a request's first line and never the rest (slowloris) and opened again a
quarter second after the server closes it; it prints ``ready``, and when done one JSON
line: how many it closed and how long the slowest took, and how old the
oldest still open was.

Each stops by itself after SECONDS, or when its standard input closes; every
loop is bounded in count and time, and only loopback addresses are used.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import sys
import time

import aiohttp

SPECTATORS = 50
MAX_FLOOD = 200_000  # messages and requests a flood sends at most
MAX_HOLD = 5_000  # connections ``hold`` opens at most


def loopback(i: int) -> str:
    """The ``i``-th loopback address from 127.0.1.1 on (any 127/8 address is this machine)."""
    return str(ipaddress.ip_address("127.0.1.1") + i)


def session_from(address: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(address, 0)))


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
    sessions = [session_from(loopback(i)) for i in range(len(tokens) + SPECTATORS + 1)]
    try:
        tasks = [
            asyncio.create_task(listen(session, f"{base}/ws/P/{t}", stop))
            for session, t in zip(sessions, tokens, strict=False)
        ]
        tasks += [
            asyncio.create_task(listen(session, f"{base}/ws", stop))
            for session in sessions[len(tokens) : -1]
        ]
        await asyncio.sleep(1.0)
        print("ready", flush=True)
        flooder = None
        if flooding:
            flooder = asyncio.create_task(flood(sessions[-1], base, tokens[0], stop))
        await until(deadline)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        if flooder is not None:
            print(f"flood sent {await flooder}", flush=True)
    finally:
        for session in sessions:
            await session.close()


async def until(deadline: float) -> None:
    """Return at ``deadline``, or sooner when standard input closes."""
    stdin_closed = asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    while time.monotonic() < deadline and not stdin_closed.done():
        await asyncio.sleep(0.1)


async def hold_one(host: str, port: int, source: str, stop: asyncio.Event) -> list[float]:
    """Keep one unfinished request open until ``stop``: each time the server closes it, open
    it again. The seconds each one lived; the last, still open at ``stop``, counts as negative.
    """
    lived: list[float] = []
    while not stop.is_set() and len(lived) < MAX_HOLD:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        except OSError:
            lived.append(0.0)  # refused: closed at once
            await asyncio.sleep(0.1)
            continue
        opened = time.monotonic()  # from the connection made, as the server's deadline runs
        with contextlib.suppress(OSError):
            writer.write(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\n".encode())
            read = asyncio.ensure_future(reader.read(4096))
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait({read, stopped}, return_when=asyncio.FIRST_COMPLETED)
            read.cancel()
            stopped.cancel()
        age = time.monotonic() - opened
        lived.append(-age if stop.is_set() else age)
        writer.close()
        await asyncio.sleep(0.25)  # then open it again (a pause keeps the probe's own CPU low)
    return lived


async def hold(host: str, port: int, count: int, addresses: int, seconds: float) -> None:
    stop = asyncio.Event()
    deadline = time.monotonic() + seconds
    tasks = []
    for i in range(min(count, MAX_HOLD)):
        tasks.append(asyncio.create_task(hold_one(host, port, loopback(i % addresses), stop)))
        if i % 50 == 49:
            await asyncio.sleep(0.01)  # a burst, not one instant: the kernel's backlog is finite
    print("ready", flush=True)
    await until(deadline)
    stop.set()
    lived = [t for times in await asyncio.gather(*tasks) for t in times]
    closed = [t for t in lived if t >= 0]
    still_open = [-t for t in lived if t < 0]
    print(
        json.dumps(
            {
                "held": len(tasks),
                "closed": len(closed),
                "slowest": max(closed, default=0.0),
                "still_open": len(still_open),
                "oldest_open": max(still_open, default=0.0),
            }
        )
    )


if __name__ == "__main__":
    if sys.argv[1] == "hold":
        host, port, count, addresses, seconds = sys.argv[2:]
        asyncio.run(hold(host, int(port), int(count), int(addresses), float(seconds)))
    else:
        base, seconds, flooding, *tokens = sys.argv[1:]
        asyncio.run(main(base, float(seconds), flooding == "1", tokens))
