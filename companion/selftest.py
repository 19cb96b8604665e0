"""``companion selftest``: check a freshly wired box, part by part.

It lights the bar one LED at a time, pulses both status LEDs, beeps, fills
the screen, and then asks for each button in turn by name, so a wrong wire
shows at once ("press PEEK" and nothing happens). On the virtual board it
presses the buttons itself, which checks the whole input path.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from companion.box import Box
from companion.box.pinout import BUTTONS
from companion.ui.canvas import Screen, render

STEP = 0.1
TIMEOUT = 20.0


def run(box: Box, wait: Callable[[float], None], say: Callable[[str], None]) -> list[str]:
    """Run every check; returns the problems found (empty when the box is good)."""
    out = box.outputs
    problems = []
    out.show(Image.new("1", (128, 64), 1))
    wait(0.5)
    for lit in range(11):
        out.set_bar(lit)
        wait(STEP)
    out.set_bar(0)
    for led in ("status_a", "status_b"):
        out.set_led(led, 1.0)
        wait(0.3)
        out.set_led(led, 0.0)
    out.set_buzzer(True)
    wait(0.2)
    out.set_buzzer(False)
    say("outputs: bar, status LEDs, buzzer and screen driven")
    for button in BUTTONS:
        out.show(render(Screen("Self test", (f"Press {button.upper()}",), "one button at a time")))
        box.inputs.clear()
        if box.virtual:
            box.virtual_board.drive(button, True)
            wait(STEP)
            box.virtual_board.drive(button, False)
        waited = 0.0
        got = None
        while waited < TIMEOUT and got is None:
            press = box.inputs.take()
            if press is not None and press.kind == "press":
                got = press.button
            else:
                wait(STEP)
                waited += STEP
        if got == button:
            say(f"button {button}: ok")
        else:
            problem = f"button {button}: " + (f"got {got} instead" if got else "no press")
            problems.append(problem)
            say(problem)
    result = "all good" if not problems else f"{len(problems)} problem(s)"
    out.show(render(Screen("Self test", (result,), "")))
    say(result)
    return problems
