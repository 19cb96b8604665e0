"""``companion bench --web``: does a flood from one client slow the table down?

The same bot game's press-to-frame wall time is measured twice in one run,
each time with the web room attached, its server on the loopback, 7 phones
and 50 spectator pages connected (in another process, as real clients are):
once quiet, once while one client floods the server. The phones listen (each
gets its seat's view on every change) while the game is answered on the
buttons, so both runs press the same buttons.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.bench import press_to_frame
from companion.table import Table
from companion.web.room import WebRoom
from companion.web.server import WebServer
from companion.web.tokens import Tokens

PHONES = 7  # one on each seat of the bench's Gulag game for 7 (a seat has one phone)
LIMIT = 120.0  # seconds the load process runs at most


@contextmanager
def loaded(flood: bool, state: dict[str, Any]) -> Iterator[Any]:
    """An ``attach`` for ``press_to_frame`` that serves the table to the load process;
    ``state["load_said"]`` is what the load process reported."""

    def attach(table: Table) -> None:
        room = WebRoom(Tokens(None), table.box.clock.now)
        table.watch(room)  # phones listen only: they answer nothing
        tokens = [room.tokens.issue(seat) for seat in range(PHONES)]
        server = WebServer(room, "127.0.0.1", 0)
        server.start()
        state["server"] = server
        table.refresh()
        base = f"http://127.0.0.1:{server.port}"
        args = [base, str(LIMIT), "1" if flood else "0"]
        args += tokens
        load = subprocess.Popen(
            [sys.executable, "-m", "companion.web.load", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        state["load"] = load
        assert load.stdout is not None
        if load.stdout.readline().strip() != "ready":
            raise RuntimeError("the load process did not connect")

    try:
        yield attach
    finally:
        load = state.get("load")
        if load is not None:
            out, _ = load.communicate(input="", timeout=30)
            state["load_said"] = out.strip()
        if "server" in state:
            state["server"].stop()


def run() -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, flood in (("quiet", False), ("flood", True)):
        state: dict[str, Any] = {}
        with loaded(flood, state) as attach:
            results[name] = press_to_frame(attach=attach)["press_to_frame_ms"]
        results[name]["load"] = state.get("load_said", "")
    results["p99_ratio"] = results["flood"]["p99"] / results["quiet"]["p99"]
    return results


def report(results: dict[str, Any]) -> str:
    quiet, flood = results["quiet"], results["flood"]
    return "\n".join(
        [
            f"press to frame, {PHONES} phones and 50 spectators on the loopback:",
            f"  quiet: p50 {quiet['p50']:.2f} ms, p99 {quiet['p99']:.2f} ms",
            f"  flood: p50 {flood['p50']:.2f} ms, p99 {flood['p99']:.2f} ms ({flood['load']})",
            f"  p99 with the flood / without: {results['p99_ratio']:.2f} (budget 1.5)",
        ]
    )
