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
- the real start: ``companion run --board virtual --headless`` through the CLI, as the
  service starts it, on an empty journal, to the setup form on the panel (``REAL_START``);
- simulated games per CPU-second on one core, for every game at its smallest and
  largest table, and Glasnost at 8.
"""

from __future__ import annotations

import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.box.inputs import HOLD_TIME
from companion.box.oled import DRIVERS
from companion.box.panel import VirtualPanel
from companion.box.pinout import Button
from companion.demo import GAP, TAP, Player
from companion.games import FIRST, GAMES, game_class, game_record
from companion.simulate import simulate
from companion.speed import OPTIONS as SPEED_OPTIONS
from companion.table import Settings, Table
from companion.table.modes import Announce, Handoff, Over
from companion.warmup import warm_up

PRESS_PLAYERS = 7  # the press-to-frame game: the registry's first game at a common table

I2C_HZ = 400_000
BITS_PER_BYTE = 9  # eight data bits and an acknowledge


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def press_to_frame(
    seed: int = 1, attach: Callable[[Table], None] | None = None, games: int = 3
) -> dict[str, Any]:
    """Wall and thread CPU time from pin edge to ``display()``, for every press that changed
    the screen over ``games`` games in a row on one box (the first game apart from the later
    ones: a box's first presses of the evening must not be the slow ones), and the bytes
    each driver sends for the first game's frames; ``attach`` may wire more to the table
    first (the web room, for ``--web``)."""
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    latencies: list[list[float]] = []
    cpu: list[list[float]] = []
    frames: list[Image.Image] = []
    pressed_at: list[tuple[float, float]] = []

    driver = box.board.oled
    display = driver.display

    def handed_to_driver(image: Image.Image) -> None:
        if pressed_at:
            wall, thread = pressed_at.pop()
            latencies[-1].append(time.perf_counter() - wall)
            cpu[-1].append(time.thread_time() - thread)
        if len(cpu) <= 1:
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
    table.step()  # the first frame
    for task in warm_up():  # what the loop does while the box waits for a first press
        task()
    presses = []
    for number in range(games):
        latencies.append([])
        cpu.append([])
        if number:
            player.press("ok", hold=HOLD_TIME + GAP)  # a new game, from the last screen
        before = player.presses
        player.setup(Settings(FIRST, PRESS_PLAYERS, "en"))
        game = table.game
        assert game is not None
        bots = make_bots(game, "smart", random.Random(seed + number))
        while not isinstance(table.mode, Over):
            if isinstance(table.mode, Handoff | Announce):
                player.press("ok")
                continue
            d = table.game.decision  # type: ignore[union-attr]
            assert d is not None
            player.answer(bots[d.seats[0]].choose(table.game.view(d.seats[0]), d))  # type: ignore[union-attr]
        presses.append(player.presses - before)
    box.close()
    later_wall = [x for game in latencies[1:] for x in game]
    later_cpu = [x for game in cpu[1:] for x in game]
    return {
        "game": f"{FIRST}, {PRESS_PLAYERS} players",
        "games": games,
        "presses": presses[0],
        "frames": len(frames),
        "press_to_frame_ms": milliseconds(latencies[0]),
        "press_to_frame_cpu_ms": milliseconds(cpu[0]),
        "later_games_press_to_frame_ms": milliseconds(later_wall) if later_wall else None,
        "later_games_press_to_frame_cpu_ms": milliseconds(later_cpu) if later_cpu else None,
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
from companion.box.inputs import HOLD_TIME
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


REAL_START = """
import os, sys
from importlib.machinery import PathFinder

LIST = sys.argv[1:] == ["--modules"]


class FirstFrame:
    \"\"\"Ends the process once the first frame is on the panel (and lists the modules loaded,
    with --modules): the start is over. A finder, so that it works on any tree.\"\"\"

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "companion.box.outputs":
            return None
        spec = PathFinder.find_spec(name, path)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            show = module.Outputs.show

            def shown(self, image):
                done = show(self, image)
                if self.frames_shown:
                    if LIST:
                        import json

                        print(json.dumps(sorted(sys.modules)), flush=True)
                    os._exit(0)
                return done

            module.Outputs.show = shown

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, FirstFrame)
sys.argv = ["companion", "run", "--board", "virtual", "--headless"]
from companion.cli import main

sys.exit(main())
"""


#: The cold-start budget (a fresh interpreter to the first frame): 0.6 of what the box took
#: before it was trimmed (commit efe9288), measured side by side on the development machine
#: (``bench/compare.py OTHER_TREE --cold-start``): 0.50 CPU-s and 846 M instructions then.
COLD_START_BUDGET = {"cpu_s": 0.30, "instructions": 508e6}
#: The real start's budget: 0.6 of efe9288's on the same path (``REAL_START``), both trees
#: compiled, with this venv's interpreter (``bench/compare.py OTHER_TREE --cold-start``):
#: 604 M instructions then.
REAL_START_BUDGET = 362e6


def _run_child(args: list[str], env: dict[str, str] | None = None) -> tuple[str, str, float]:
    """Run ``args``; its stdout, stderr and CPU time (user and system, its own)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, capture_output=True, text=True, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return out.stdout, out.stderr, cpu


def cold_start(env: dict[str, str] | None = None) -> dict[str, float]:
    """A fresh interpreter to the first frame on the panel: its wall and CPU time, and its
    peak memory. ``env`` may point ``PYTHONPATH`` at another tree (bench/compare.py)."""
    began = time.perf_counter()
    stdout, _, cpu = _run_child([sys.executable, "-c", COLD_START], env)
    total = time.perf_counter() - began
    inside, rss_kib = stdout.split()
    return {
        "process_to_first_frame_s": total,
        "imports_to_first_frame_s": float(inside),
        "cpu_s": cpu,
        "peak_rss_mib": int(rss_kib) / 1024,
    }


def cold_start_instructions(
    env: dict[str, str] | None = None, script: str = COLD_START
) -> float | None:
    """Instructions a fresh interpreter runs to the first frame, counted by valgrind's
    callgrind (load-independent, where CPU time is not); None without valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    callgrind = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    _, stderr, _ = _run_child([*callgrind, sys.executable, "-c", script], env)
    counted = re.search(r"Collected : (\d+)", stderr)
    return float(counted.group(1)) if counted else None


def real_start_instructions(env: dict[str, str] | None = None) -> float | None:
    """``REAL_START``'s instructions, in a fresh data folder (an empty journal)."""
    with tempfile.TemporaryDirectory(prefix="companion-start-") as data:
        return cold_start_instructions({**(env or os.environ), "COMPANION_DATA": data}, REAL_START)


def import_profile(env: dict[str, str] | None = None, top: int = 8) -> list[tuple[str, float]]:
    """The slowest imports on the way to the first frame (``-X importtime``): each module
    imported at the top level, with what it imported, in milliseconds."""
    _, stderr, _ = _run_child([sys.executable, "-X", "importtime", "-c", COLD_START], env)
    rows = []
    for line in stderr.splitlines():
        fields = line.removeprefix("import time:").split("|")
        if len(fields) != 3 or not fields[1].strip().isdigit():
            continue
        name = fields[2]
        if not name.startswith(" ") or name.startswith("  "):
            continue  # a module some other module imported: counted in that one
        rows.append((name.strip(), int(fields[1]) / 1000))
    return sorted(rows, key=lambda row: -row[1])[:top]


def table_sizes(name: str) -> list[int]:
    """The player counts the bench plays ``name`` at: its smallest and largest tables, and
    those its record adds (where a board is fullest at a common table, say)."""
    cls = game_class(name)
    sizes = {cls.min_players, cls.max_players} | set(game_record(name).bench_players)
    return sorted(sizes)


#: options the rates are measured with: those of ``bench/compare.py``, so that the rates stay
#: comparable with those measured before a default changed
BENCH_OPTIONS: dict[str, dict[str, Any]] = SPEED_OPTIONS


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
        "cold_start": {
            **cold_start(),
            "instructions": cold_start_instructions(),
            "budget": COLD_START_BUDGET,
            "imports_ms": import_profile(),
        },
        "real_start": {"instructions": real_start_instructions(), "budget": REAL_START_BUDGET},
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
        f"press to frame ({t['game']}, first of {t['games']} games: {t['presses']} presses, "
        f"{t['frames']} frames):",
        spread("wall", wall),
        spread("thread CPU", cpu),
    ]
    later = t["later_games_press_to_frame_cpu_ms"]
    if later is not None:
        lines += [
            "  the later games:",
            spread("wall", t["later_games_press_to_frame_ms"]),
            spread("thread CPU", later),
            f"  first game's CPU p99 / the later games': {cpu['p99'] / later['p99']:.2f}"
            " (budget 1.5)",
        ]
    lines.append("OLED bytes per update on those frames (ms at 400 kHz; share of luma's):")
    for controller, kinds in t["oled_bytes_per_update"].items():
        luma = kinds["luma"]
        lines.append(
            f"  {controller:<8} "
            + ", ".join(
                f"{kind} {size:.0f} ({bus_ms(size):.1f} ms; {size / luma:.2f})"
                for kind, size in kinds.items()
            )
        )
    budget = cold["budget"]
    counted = cold["instructions"]
    instructions = "not counted (no valgrind)" if counted is None else f"{counted / 1e6:.0f} M"
    counted = results["real_start"]["instructions"]
    real = "not counted (no valgrind)" if counted is None else f"{counted / 1e6:.0f} M instructions"
    lines += [
        f"cold start to first frame: {cold['process_to_first_frame_s']:.2f} s "
        f"(imports and first frame {cold['imports_to_first_frame_s']:.2f} s), "
        f"peak memory {cold['peak_rss_mib']:.0f} MiB",
        f"  CPU {cold['cpu_s']:.2f} s (budget {budget['cpu_s']:.2f}), instructions "
        f"{instructions} (budget {budget['instructions'] / 1e6:.0f} M)",
        f"real start (companion run, through the CLI, to the setup form): {real}"
        f" (budget {results['real_start']['budget'] / 1e6:.0f} M)",
        "  slowest imports (ms, with what they import): "
        + ", ".join(f"{name} {ms:.0f}" for name, ms in cold["imports_ms"]),
        "simulated games per CPU-second (one core), by players:",
    ]
    lines += [f"  {k:<14} {v:8.0f}" for k, v in results["simulated_games_per_second"].items()]
    return "\n".join(lines)
