"""The box's parts, built from the pinout: gpiozero devices and luma's OLED driver.

On a Pi they use gpiozero's default pin factory and the I2C bus; off a Pi the
virtual board puts the very same devices on gpiozero's mock pins (PWM-capable)
and the OLED driver on an interface that talks to no bus. Everything above
the pins is the same code either way.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero import PWMLED, Button, Buzzer, LEDBarGraph
from PIL import Image

from companion.box.oled import open_oled
from companion.box.panel import VirtualPanel
from companion.box.pinout import BUTTONS, Pinout

BOARDS = ("auto", "pi", "virtual")


def on_a_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


class Board:
    """Buttons, the LED bar, two status LEDs, the buzzer and the OLED."""

    def __init__(self, pinout: Pinout, factory: Any, oled_interface: Any, kind: str) -> None:
        self.kind = kind
        self.pinout = pinout
        self.factory = factory
        self.buttons = {
            name: Button(pinout.buttons[name], pull_up=True, pin_factory=factory)
            for name in BUTTONS
        }
        self.bar = LEDBarGraph(*pinout.bar, pin_factory=factory)
        self.status_a = PWMLED(pinout.status_a, pin_factory=factory)
        self.status_b = PWMLED(pinout.status_b, pin_factory=factory)
        self.buzzer = Buzzer(pinout.buzzer, pin_factory=factory)
        self.oled_interface = oled_interface
        self.oled = open_oled(pinout.oled, oled_interface)

    def connect(self, edge: Callable[[str, bool], None]) -> None:
        """Send every raw button edge to ``edge(button, closed)``."""
        for name, button in self.buttons.items():
            button.when_pressed = lambda name=name: edge(name, True)
            button.when_released = lambda name=name: edge(name, False)

    def drive(self, button: str, closed: bool) -> None:
        """Close or open a button's contact on the virtual board (what a finger does)."""
        if self.kind != "virtual":
            raise RuntimeError("only the virtual board's buttons can be pressed by software")
        pin = self.factory.pin(self.pinout.buttons[button])
        # Buttons pull up: a closed contact pulls the pin to ground.
        if closed:
            pin.drive_low()
        else:
            pin.drive_high()

    def glass(self) -> Image.Image:
        """What the virtual panel lights, decoded from the bytes the driver sent."""
        if self.kind != "virtual":
            raise RuntimeError("only the virtual panel can be read back")
        return self.oled_interface.image()

    def close(self) -> None:
        for device in (*self.buttons.values(), self.bar, self.status_a, self.status_b):
            device.close()
        self.buzzer.close()
        if self.kind == "virtual":
            self.factory.close()


def open_board(kind: str, pinout: Pinout) -> Board:
    """The board of ``kind`` ("pi", "virtual", or "auto": a Pi when run on one)."""
    if kind not in BOARDS:
        raise ValueError(f"no board {kind!r} (boards: {', '.join(BOARDS)})")
    if kind == "auto":
        kind = "pi" if on_a_pi() else "virtual"
    if kind == "virtual":
        from gpiozero.pins.mock import MockFactory

        from companion.box.mockpins import BoundedMockPin

        panel = VirtualPanel(pinout.oled.driver)
        return Board(pinout, MockFactory(pin_class=BoundedMockPin), panel, kind)
    from luma.core.interface.serial import i2c

    interface = i2c(port=pinout.oled.bus, address=pinout.oled.address)
    return Board(pinout, None, interface, kind)
