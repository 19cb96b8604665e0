"""While the box waits for its first press it loads and draws what the first game needs,
for nobody: the table, its screen and its randomness are untouched."""

import json
import subprocess
import sys

from companion.bench import COLD_START

AFTER_WARM_UP = """
from companion.warmup import warm_up
shown = box.board.glass().tobytes()
before = set(sys.modules)
for task in warm_up("fr"):
    task()
warmed = sorted(set(sys.modules) - before)
assert box.outputs.frames_shown == 1 and box.board.glass().tobytes() == shown
from companion.games import GAMES, new_game
from companion.ui import game_ui
for name in GAMES:
    game_ui(name).status(new_game(name, players=5 if name != "kolkhoz" else 4).public_view(), str)
print(json.dumps([warmed, sorted(set(sys.modules) - before - set(warmed))]))
"""


def test_the_warm_up_loads_every_game_and_leaves_the_table_alone():
    script = COLD_START + "\nimport json, sys\n" + AFTER_WARM_UP
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    warmed, later = json.loads(out.stdout.splitlines()[-1])
    assert {"companion.games.kolkhoz.rules", "companion.games.glasnost.screens", "hashlib"} <= set(
        warmed
    )
    assert [m for m in later if m.startswith("companion.")] == []  # nothing left to load


def test_a_warm_up_that_fails_never_stops_the_box(caplog):
    """The box plays on: the failed task is logged once and the warm-up ends there."""
    from companion.service import Service

    steps, done = [], []

    def fails():
        raise ValueError("no language None")

    def step():
        steps.append(1)
        if len(steps) == 5:
            service.stopping = True

    service = Service(step, period=0.0, idle=[fails, lambda: done.append(1)])
    service.run()
    assert len(steps) == 5 and done == []  # it kept stepping; nothing after the failure ran
    assert [r.getMessage() for r in caplog.records] == [
        "warming up failed; the box plays on without it"
    ]
