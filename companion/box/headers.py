"""The boards' pin headers: which physical pin carries which signal.

The pinout names GPIOs; a maker solders to header pins. These tables say which GPIOs a
board breaks out at all, so a pin that no wire can reach (the Pico's GP25 drives its own
LED inside the case) is refused before anyone builds it, and the wiring table and diagram
name the physical pin. Plain data, no gpiozero: ``companion hardware`` stays light, and a
test checks the Pi's table against gpiozero's own board data.
"""

from __future__ import annotations

from companion.errors import PinoutError
from companion.valueclass import valueclass


@valueclass(frozen=True)
class Header:
    """A board's header: ``pins[n - 1]`` is the signal on physical pin ``n``."""

    board: str  # the board's name, as a sentence says it
    name: str  # the header's name on the board
    prefix: str  # how the board's documents spell a GPIO: "GPIO" 17, "GP" 14
    pins: tuple[str, ...]
    reserved: frozenset[int] = frozenset()  # broken out, but kept for something else
    #: how the pins are numbered: "pairs" (1 and 2 side by side, odd pins on the left: a
    #: 2x20 header) or "edges" (1-20 down the left edge, 21-40 back up the right: a Pico)
    numbering: str = "pairs"

    def place(self, pin: int) -> tuple[int, int]:
        """Where physical ``pin`` sits: (side, row), side 0 left and 1 right, row from the
        top (pin 1's end)."""
        if self.numbering == "pairs":
            return (pin - 1) % 2, (pin - 1) // 2
        half = len(self.pins) // 2
        return (0, pin - 1) if pin <= half else (1, len(self.pins) - pin)

    def gpio_name(self, gpio: int) -> str:
        return f"{self.prefix}{gpio}"

    def pin_of(self, gpio: int) -> int:
        """The physical pin that carries ``gpio``; PinoutError when the header has none."""
        name = self.gpio_name(gpio)
        if name in self.pins:
            return self.pins.index(name) + 1
        raise PinoutError(f"{name} is not on the {self.board}'s header ({self.broken_out()})")

    def gpios(self) -> list[int]:
        """The GPIOs this header breaks out, reserved ones included, in number order."""
        return sorted(int(p[len(self.prefix) :]) for p in self.pins if p.startswith(self.prefix))

    def ground_pins(self) -> list[int]:
        return [n for n, signal in enumerate(self.pins, start=1) if signal == "GND"]

    def broken_out(self) -> str:
        """The GPIOs it breaks out, in runs: "GP0-GP22, GP26-GP28"."""
        runs: list[list[int]] = []
        for gpio in self.gpios():
            if runs and runs[-1][-1] == gpio - 1:
                runs[-1].append(gpio)
            else:
                runs.append([gpio])
        text = ", ".join(
            self.gpio_name(r[0]) + (f"-{self.gpio_name(r[-1])}" if len(r) > 1 else "") for r in runs
        )
        return f"it breaks out {text}"

    def usable(self, gpio: int, where: str) -> int:
        """``gpio`` if a part may be wired to it, else one line naming the pin and the board."""
        name = self.gpio_name(gpio)
        if name not in self.pins:
            raise PinoutError(
                f"{where}: {name} is not on the {self.board}'s header ({self.broken_out()})"
            )
        if gpio in self.reserved:
            raise PinoutError(
                f"{where}: {name} is kept for a HAT's ID EEPROM on the {self.board}'s header; "
                "choose another pin"
            )
        return gpio


def _pi_header() -> tuple[str, ...]:
    odd = "3V3 GPIO2 GPIO3 GPIO4 GND GPIO17 GPIO27 GPIO22 3V3 GPIO10 GPIO9 GPIO11 GND GPIO0"
    odd += " GPIO5 GPIO6 GPIO13 GPIO19 GPIO26 GND"
    even = "5V 5V GND GPIO14 GPIO15 GPIO18 GND GPIO23 GPIO24 GND GPIO25 GPIO8 GPIO7 GPIO1"
    even += " GND GPIO12 GND GPIO16 GPIO20 GPIO21"
    return tuple(s for pair in zip(odd.split(), even.split(), strict=True) for s in pair)


def _pico_header() -> tuple[str, ...]:
    # Pins 1-20 down one side (GP0-GP15 between grounds), 21-40 up the other.
    left = "GP0 GP1 GND GP2 GP3 GP4 GP5 GND GP6 GP7 GP8 GP9 GND GP10 GP11 GP12 GP13 GND GP14 GP15"
    right = "GP16 GP17 GND GP18 GP19 GP20 GP21 GND GP22 RUN GP26 GP27 GND GP28 ADC_VREF"
    right += " 3V3 3V3_EN GND VSYS VBUS"
    return tuple(left.split() + right.split())


#: The 40-pin header J8 of every Pi since the B+ (the Zero 2 W's too). GPIO0 and GPIO1
#: (pins 27, 28) read a HAT's ID EEPROM at boot: no part of the box is wired there.
PI = Header("Raspberry Pi", "J8", "GPIO", _pi_header(), frozenset({0, 1}))
#: The Raspberry Pi Pico's (and Pico W's) 40 castellated pins. GP23-GP25 and GP29 stay on
#: the board (power control, VBUS sense, the on-board LED, VSYS sense; on a Pico W they
#: talk to the radio), so a pad's part can only be on the ones listed here.
PICO = Header("Raspberry Pi Pico", "the castellated edge", "GP", _pico_header(), numbering="edges")
