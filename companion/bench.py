"""``companion bench``: the performance budgets, measured on this machine.

- press to frame: from a button's pin edge to the frame handed to the OLED
  driver, over a whole bot game on the virtual board (the same code path as
  the Pi's, minus the bus), in wall time and in the CPU time of the thread
  that handles the press (on a loaded machine wall time mostly measures the
  other processes);
- bytes per OLED update: luma's stock driver, the paged driver and the window
  driver, on the very frames of that game, for both controllers (SSD1306 and
  SH1106), and what they cost on a 400 kHz I2C bus;
- cold start to first frame, and its peak memory, in a fresh interpreter that
  reads its own high-water mark (``VmHWM``: a child's ``ru_maxrss`` can carry its
  parent's peak, so a bench holding 200 MiB would report it);
- simulated games per CPU-second on one core, for every game at its smallest and
  largest table, and Glasnost at 8.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.box.oled import DRIVERS
from companion.box.panel import VirtualPanel
from companion.box.pinout import Button
from companion.demo import GAP, TAP, Player
from companion.games import GAMES, game_class
from companion.simulate import simulate
from companion.table import Settings, Table
from companion.table.modes import Announce, Handoff, Over

I2C_HZ = 400_000
BITS_PER_BYTE = 9  # eight data bits and an acknowledge


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def press_to_frame(seed: int = 1, attach: Callable[[Table], None] | None = None) -> dict[str, Any]:
    """Wall and thread CPU time from pin edge to ``display()``, for every press that changed
    the screen, and the bytes each driver sends for the game's frames; ``attach`` may wire
    more to the table first (the web room, for ``--web``)."""
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    latencies: list[float] = []
    cpu: list[float] = []
    frames: list[Image.Image] = []
    pressed_at: list[tuple[float, float]] = []

    driver = box.board.oled
    display = driver.display

    def handed_to_driver(image: Image.Image) -> None:
        if pressed_at:
            wall, thread = pressed_at.pop()
            latencies.append(time.perf_counter() - wall)
            cpu.append(time.thread_time() - thread)
        frames.append(image.copy())
        display(image)

    driver.display = handed_to_driver
    table = Table(box, seed=seed)
    if attach is not None:
        attach(table)
    player = Player(box, table, clock)

    def press(button: Button, hold: float = TAP) -> None:
        pressed_at[:] = [(time.perf_counter(), time.thread_time())]
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
    box.close()
    return {
        "game": "gulag, 7 players",
        "presses": player.presses,
        "frames": len(frames),
        "press_to_frame_ms": milliseconds(latencies),
        "press_to_frame_cpu_ms": milliseconds(cpu),
        "oled_bytes_per_update": bytes_per_update(frames),
    }


def milliseconds(seconds: list[float]) -> dict[str, float]:
    return {
        "p50": 1000 * percentile(seconds, 50),
        "p99": 1000 * percentile(seconds, 99),
        "max": 1000 * max(seconds),
    }


def bytes_per_update(frames: list[Image.Image]) -> dict[str, dict[str, float]]:
    """Per controller and driver kind: bytes sent per frame of ``frames``, from a panel
    that each driver has just initialised (and cleared) itself."""
    sent: dict[str, dict[str, float]] = {}
    for controller, kinds in DRIVERS.items():
        sent[controller] = {}
        for kind, driver in kinds.items():
            panel = VirtualPanel(controller)
            device = driver(panel)
            start = panel.sent
            for frame in frames:
                device.display(frame)
            sent[controller][kind] = (panel.sent - start) / max(1, len(frames))
    return sent


def bus_ms(size: float) -> float:
    """Milliseconds to send ``size`` bytes on a 400 kHz I2C bus."""
    return 1000 * size * BITS_PER_BYTE / I2C_HZ


COLD_START = """
import time
start = time.perf_counter()
from companion.box import VirtualClock, open_box
from companion.table import Table
box = open_box("virtual", clock=VirtualClock())
table = Table(box)
table.step()
assert box.outputs.frames_shown == 1
elapsed = time.perf_counter() - start
try:  # this process's own peak (its address space's, which exec made new)
    with open("/proc/self/status") as status:
        hwm = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
except (OSError, StopIteration):  # no /proc: ru_maxrss, which may carry the parent's peak
    import resource
    hwm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(elapsed, hwm)
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


def table_sizes(name: str) -> list[int]:
    """The player counts the bench plays ``name`` at: its smallest and largest tables (and 8
    for Glasnost, where the board is fullest at a common table)."""
    cls = game_class(name)
    sizes = {cls.min_players, cls.max_players} | ({8} if name == "glasnost" else set())
    return sorted(sizes)


#: options the rates are measured with: Kolkhoz as the box deals it, its bots' full game
#: (the rates stay comparable with those measured before "cards" became its default)
BENCH_OPTIONS: dict[str, dict[str, Any]] = {"kolkhoz": {"deal": "box"}}


def games_per_second(games: int = 200) -> dict[str, float]:
    """Bot games per CPU-second of this process (one core), by game and player count."""
    rates = {}
    for name in GAMES:
        for players in table_sizes(name):
            began = time.process_time()
            simulate(name, players, games, seed=1, **BENCH_OPTIONS.get(name, {}))
            rates[f"{name} {players}p"] = games / max(1e-9, time.process_time() - began)
    return rates


def run(games: int = 200) -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "table": press_to_frame(),
        "cold_start": cold_start(),
        "simulated_games_per_second": games_per_second(games),
        "bench_peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def spread(name: str, ms: dict[str, float]) -> str:
    return f"  {name:<11} p50 {ms['p50']:.2f} ms, p99 {ms['p99']:.2f} ms, max {ms['max']:.2f} ms"


def report(results: dict[str, Any]) -> str:
    t = results["table"]
    wall, cpu = t["press_to_frame_ms"], t["press_to_frame_cpu_ms"]
    cold = results["cold_start"]
    lines = [
        f"press to frame ({t['game']}: {t['presses']} presses, {t['frames']} frames):",
        spread("wall", wall),
        spread("thread CPU", cpu),
        "OLED bytes per update on those frames (ms at 400 kHz; share of luma's):",
    ]
    for controller, kinds in t["oled_bytes_per_update"].items():
        luma = kinds["luma"]
        lines.append(
            f"  {controller:<8} "
            + ", ".join(
                f"{kind} {size:.0f} ({bus_ms(size):.1f} ms; {size / luma:.2f})"
                for kind, size in kinds.items()
            )
        )
    lines += [
        f"cold start to first frame: {cold['process_to_first_frame_s']:.2f} s "
        f"(imports and first frame {cold['imports_to_first_frame_s']:.2f} s), "
        f"peak memory {cold['peak_rss_mib']:.0f} MiB",
        "simulated games per CPU-second (one core), by players:",
    ]
    lines += [f"  {k:<14} {v:8.0f}" for k, v in results["simulated_games_per_second"].items()]
    return "\n".join(lines)
