"""Commands that draw no frame start without the box: no gpiozero, luma, Pillow or pyserial.

Loading the box stack is most of a start's cost (gpiozero's metadata scan alone is tens
of milliseconds), so ``companion --help`` or a simulation must not pay for it. Each
command runs in a fresh interpreter that then lists the modules it loaded.
"""

import json
import subprocess
import sys

import pytest

RUN_AND_LIST = """
import json, runpy, sys
sys.argv = ["companion", *json.loads(sys.argv[1])]
try:
    runpy.run_module("companion", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
print()
print(json.dumps(sorted(sys.modules)))
"""

BOX_STACK = ("gpiozero", "luma", "PIL", "serial", "companion.box")


def loaded_by(args: list[str]) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", RUN_AND_LIST, json.dumps(args)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout.splitlines()[-1])


def box_stack(modules: list[str]) -> list[str]:
    return [m for m in modules if m == "companion.box" or m.split(".")[0] in BOX_STACK[:4]]


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["run", "--help"],
        ["demo", "--help"],
        ["simulate", "gulag", "--games", "2"],
        ["simulate", "glasnost", "--games", "1", "--json"],
        ["stats", "--journal", "no-such-journal.db"],
        ["board", "glasnost", "--svg", "{tmp}/board.svg"],
        ["no-such-command"],
    ],
    ids=lambda args: " ".join(args),
)
def test_a_command_that_draws_no_frame_never_loads_the_box(args, tmp_path):
    modules = loaded_by([arg.replace("{tmp}", str(tmp_path)) for arg in args])
    assert "companion.cli" in modules  # the command did run
    assert box_stack(modules) == []
    assert not [m for m in modules if m.startswith("companion.box.")]


def test_the_hardware_check_loads_no_gpio_library():
    """``hardware`` reads the boards' headers from its own tables: the box stack stays out."""
    modules = loaded_by(["hardware"])
    assert "companion.hardware" in modules  # the command did run
    assert [m for m in modules if m.startswith("companion.box.")] == [
        "companion.box.diagram",
        "companion.box.drive",
        "companion.box.headers",
        "companion.box.pinout",
        "companion.box.plain_toml",
        "companion.box.wiring",
    ]
    assert not [m for m in modules if m.split(".")[0] in BOX_STACK[:4]]


def test_a_command_that_draws_loads_the_box():
    """The check above would see the box if a command loaded it (a demo does)."""
    modules = loaded_by(["demo", "gulag", "--board", "virtual", "--headless", "--players", "5"])
    assert "luma.oled.device" in modules and "gpiozero" in modules
