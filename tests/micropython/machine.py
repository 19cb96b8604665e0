"""A stand-in for MicroPython's ``machine`` module, so the firmware's main() runs off a board.

Input pins read the file ``pins`` in the working directory (lines ``14=0``:
pin 14 pulled low, a button held); an output pin N appends ``1`` or ``0`` to
the file ``outN``, so the test sees which pin the firmware drives, and to the
file ``led`` (a pad has one output: its LED).
"""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2

    def __init__(self, number, mode=IN, pull=None):
        self.number = number
        self.mode = mode

    def value(self, level=None):
        if level is not None:
            for name in (f"out{self.number}", "led"):
                with open(name, "a") as out:
                    out.write("1" if level else "0")
            return None
        try:
            with open("pins") as pins:
                for line in pins.read().split():
                    number, _, state = line.partition("=")
                    if int(number) == self.number:
                        return int(state)
        except OSError:
            pass
        return 1  # pulled up: not pressed
