"""``companion bench``: the performance budgets, measured on this machine.

- press to frame: from a button's pin edge to the frame handed to the OLED
  driver, over a whole bot game on the virtual board (the same code path as
  the Pi's, minus the bus);
- bytes per OLED update: the paged driver against luma's stock ssd1306, for
  the frames of that game, and what they cost on a 400 kHz I2C bus;
- cold start to first frame, and resident memory, in a fresh process;
- simulated games per second per core, for every game.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from luma.oled.device import ssd1306
from PIL import Image

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.box.panel import VirtualPanel
from companion.demo import GAP, TAP, Player
from companion.games import GAMES
from companion.modes import Announce, Handoff, Over
from companion.simulate import simulate
from companion.table import Settings, Table

I2C_HZ = 400_000
BITS_PER_BYTE = 9  # eight data bits and an acknowledge


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def press_to_frame(seed: int = 1, attach: Callable[[Table], None] | None = None) -> dict[str, Any]:
    """Wall time from pin edge to ``display()``, for every press that changed the screen;
    ``attach`` may wire more to the table first (the web room, for ``--web``)."""
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    latencies: list[float] = []
    frames: list[Image.Image] = []
    pressed_at: list[float] = []

    driver = box.board.oled
    display = driver.display

    def handed_to_driver(image: Image.Image) -> None:
        if pressed_at:
            latencies.append(time.perf_counter() - pressed_at.pop())
        frames.append(image.copy())
        display(image)

    driver.display = handed_to_driver
    table = Table(box, seed=seed)
    if attach is not None:
        attach(table)
    player = Player(box, table, clock)

    def press(button: str, hold: float = TAP) -> None:
        pressed_at[:] = [time.perf_counter()]
        box.virtual_board.drive(button, True)
        table.step()  # the loop's next turn
        pressed_at.clear()
        player.wait(hold)
        box.virtual_board.drive(button, False)
        player.wait(GAP)
        player.presses += 1

    player.press = press  # type: ignore[method-assign]
    table.step()
    player.setup(Settings("gulag", 7, "en"))
    game = table.game
    assert game is not None
    bots = make_bots(game, "smart", random.Random(seed))
    while not isinstance(table.mode, Over):
        if isinstance(table.mode, Handoff | Announce):
            player.press("ok")
            continue
        d = table.game.decision  # type: ignore[union-attr]
        assert d is not None
        player.answer(bots[d.seats[0]].choose(table.game.view(d.seats[0]), d))  # type: ignore[union-attr]
    panel = box.board.oled_interface
    paged = panel.sent / max(1, len(frames))
    box.close()
    stock_panel = VirtualPanel()
    stock = ssd1306(stock_panel)
    start = stock_panel.sent
    for frame in frames:
        stock.display(frame)
    full = (stock_panel.sent - start) / max(1, len(frames))
    return {
        "presses": player.presses,
        "frames": len(frames),
        "press_to_frame_ms": {
            "p50": 1000 * percentile(latencies, 50),
            "p99": 1000 * percentile(latencies, 99),
            "max": 1000 * max(latencies),
        },
        "oled_bytes_per_update": {"paged": paged, "luma_ssd1306": full},
        "oled_ms_per_update_at_400kHz": {
            "paged": 1000 * paged * BITS_PER_BYTE / I2C_HZ,
            "luma_ssd1306": 1000 * full * BITS_PER_BYTE / I2C_HZ,
        },
    }


COLD_START = """
import time, resource
start = time.perf_counter()
from companion.box import VirtualClock, open_box
from companion.table import Table
box = open_box("virtual", clock=VirtualClock())
table = Table(box)
table.step()
assert box.outputs.frames_shown == 1
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def cold_start() -> dict[str, float]:
    """A fresh interpreter to the first frame on the panel, and its peak memory."""
    began = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", COLD_START], capture_output=True, text=True, check=True
    )
    total = time.perf_counter() - began
    inside, rss_kib = out.stdout.split()
    return {
        "process_to_first_frame_s": total,
        "imports_to_first_frame_s": float(inside),
        "peak_rss_mib": int(rss_kib) / 1024,
    }


def games_per_second(games: int = 200) -> dict[str, float]:
    rates = {}
    for name in GAMES:
        stats = simulate(name, None, games, seed=1)
        rates[f"{name} ({stats['players']} players)"] = stats["games_per_second"]
    return rates


def run(games: int = 200) -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "table": press_to_frame(),
        "cold_start": cold_start(),
        "simulated_games_per_second": games_per_second(games),
        "bench_peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def report(results: dict[str, Any]) -> str:
    t = results["table"]
    lat = t["press_to_frame_ms"]
    size = t["oled_bytes_per_update"]
    ms = t["oled_ms_per_update_at_400kHz"]
    cold = results["cold_start"]
    lines = [
        f"press to frame ({t['presses']} presses, {t['frames']} frames): "
        f"p50 {lat['p50']:.2f} ms, p99 {lat['p99']:.2f} ms, max {lat['max']:.2f} ms",
        f"OLED bytes per update: paged {size['paged']:.0f} ({ms['paged']:.1f} ms at 400 kHz), "
        f"luma ssd1306 {size['luma_ssd1306']:.0f} ({ms['luma_ssd1306']:.1f} ms)",
        f"cold start to first frame: {cold['process_to_first_frame_s']:.2f} s "
        f"(imports and first frame {cold['imports_to_first_frame_s']:.2f} s), "
        f"peak memory {cold['peak_rss_mib']:.0f} MiB",
        "simulated games per second (one core):",
    ]
    lines += [f"  {k:<24} {v:8.0f}" for k, v in results["simulated_games_per_second"].items()]
    return "\n".join(lines)


def main(as_json: bool, games: int, web: bool = False) -> int:
    if web:
        from companion.web.bench import report as web_report
        from companion.web.bench import run as web_run

        results = web_run()
        print(json.dumps(results, indent=2) if as_json else web_report(results))
        return 0
    results = run(games)
    print(json.dumps(results, indent=2) if as_json else report(results))
    return 0
