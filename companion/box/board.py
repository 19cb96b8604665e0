"""The box's parts, built from the pinout: gpiozero devices and luma's OLED driver.

On a Pi they use the lgpio pin factory (``companion.box.gpio``) and the I2C bus; off a Pi the
``VirtualBoard`` puts the very same devices on gpiozero's mock pins
(PWM-capable) and the OLED driver on an interface that talks to no bus.
Everything above the pins is the same code either way. Only the virtual
board has the powers of a test or a terminal, pressing a button by software
and reading the panel back, as gpiozero keeps those on its mock pins.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial
from operator import call
from pathlib import Path
from typing import Any

from PIL import Image

from companion.box.gpio import (
    PWMLED,
    Buzzer,
    DigitalInputDevice,
    GPIOZeroError,
    GPIOZeroWarning,
    LedBar,
    import_without_metadata,
    pi_pin_factory,
)
from companion.box.oled import open_oled
from companion.box.panel import VirtualPanel
from companion.box.pinout import BUTTONS, Pinout
from companion.box.pinout import Button as ButtonName
from companion.box_kinds import BOARDS
from companion.errors import HardwareError

VIRTUAL_HINT = "or run off the box with --board virtual"


def on_a_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


class Board:
    """Buttons, the LED bar, two status LEDs, the buzzer and the OLED, on the Pi's pins and bus."""

    kind = "pi"

    def __init__(self, pinout: Pinout, factory: Any = None) -> None:
        self.pinout = pinout
        self.factory = factory
        try:
            # gpiozero warns once per pin library it tries: the one error below says it all.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", GPIOZeroWarning)
                self._open_pins(factory)
        except GPIOZeroError as exc:
            raise HardwareError(
                f"no GPIO access ({exc}): run on a Raspberry Pi as a user of the gpio group, "
                + VIRTUAL_HINT
            ) from None
        try:
            self.oled_interface = self._oled_interface()
            self.oled = open_oled(pinout.oled, self.oled_interface)
        except HardwareError:
            self.close()
            raise
        except OSError as exc:
            self.close()
            raise HardwareError(
                f"no OLED answers at {pinout.oled.address:#x} on I2C bus {pinout.oled.bus} "
                f"({exc.strerror or exc}): check its wiring against hardware/wiring.md"
            ) from None

    def _open_pins(self, factory: Any) -> None:
        pinout = self.pinout
        self.buttons = {
            name: DigitalInputDevice(pinout.buttons[name], pull_up=True, pin_factory=factory)
            for name in BUTTONS
        }
        self.bar = LedBar(pinout.bar, pin_factory=factory)
        self.status_a = PWMLED(pinout.status_a, pin_factory=factory)
        self.status_b = PWMLED(pinout.status_b, pin_factory=factory)
        self.buzzer = Buzzer(pinout.buzzer, pin_factory=factory)

    def _oled_interface(self) -> Any:
        """luma's I2C interface on the pinout's bus, or a line saying how to get one."""
        from luma.core.error import DeviceNotFoundError, DevicePermissionError
        from luma.core.interface.serial import i2c

        bus = self.pinout.oled.bus
        try:
            return i2c(port=bus, address=self.pinout.oled.address)
        except DeviceNotFoundError:
            raise HardwareError(
                f"no I2C bus /dev/i2c-{bus}: turn I2C on (sudo raspi-config nonint do_i2c 0) "
                "and reboot, " + VIRTUAL_HINT
            ) from None
        except DevicePermissionError:
            raise HardwareError(
                f"no permission to use /dev/i2c-{bus}: add the user to the i2c group "
                "(sudo adduser $USER i2c) and log in again, " + VIRTUAL_HINT
            ) from None

    def connect(self, edge: Callable[[ButtonName, bool], None]) -> None:
        """Send every raw button edge to ``edge(button, closed)``."""
        # gpiozero works out how to call a handler by inspecting its signature (``inspect``'s
        # signatures, fourteen of them: 1.6 M instructions of a start); a builtin it calls as
        # is, with no argument, so each handler is ``operator.call`` with the edge bound.
        for name, button in self.buttons.items():
            button.when_activated = partial(call, edge, name, True)
            button.when_deactivated = partial(call, edge, name, False)

    def close(self) -> None:
        for device in (*self.buttons.values(), self.bar, self.status_a, self.status_b):
            device.close()
        self.buzzer.close()


class VirtualBoard(Board):
    """The same parts on mock pins and a virtual panel, which software can press and read."""

    kind = "virtual"

    def __init__(self, pinout: Pinout) -> None:
        import_without_metadata("gpiozero.pins.mock")
        from gpiozero.pins.mock import MockFactory

        from companion.box.mockpins import BoundedMockPin

        super().__init__(pinout, MockFactory(pin_class=BoundedMockPin))
        # Each button's mock pin, kept: the factory's lookup walks the board's whole header
        # on every call, and a finger drives a pin twice a press.
        self._pins = {name: button.pin for name, button in self.buttons.items()}

    def _oled_interface(self) -> VirtualPanel:
        return VirtualPanel(self.pinout.oled.driver)

    def drive(self, button: ButtonName, closed: bool) -> None:
        """Close or open a button's contact (what a finger does)."""
        pin = self._pins[button]
        # Buttons pull up: a closed contact pulls the pin to ground.
        if closed:
            pin.drive_low()
        else:
            pin.drive_high()

    def glass(self) -> Image.Image:
        """What the virtual panel lights, decoded from the bytes the driver sent."""
        image: Image.Image = self.oled_interface.image()
        return image

    def close(self) -> None:
        super().close()
        self.factory.close()


def open_board(kind: str, pinout: Pinout) -> Board:
    """The board of ``kind`` ("pi", "virtual", or "auto": a Pi when run on one)."""
    if kind not in BOARDS:
        raise ValueError(f"no board {kind!r} (boards: {', '.join(BOARDS)})")
    if kind == "auto":
        kind = "pi" if on_a_pi() else "virtual"
    return VirtualBoard(pinout) if kind == "virtual" else Board(pinout, pi_pin_factory())
