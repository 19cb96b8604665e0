"""The wiring, read from ``hardware/pinout.toml``: the one place that says which pin does what.

A broken pinout is refused with a message that says which line is wrong,
before any pin is touched.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from companion.errors import PinoutError
from companion.files import read_regular

#: the box's buttons by name (plain strings, checked by the type checker where compared)
Button = Literal["up", "down", "ok", "back", "choice_a", "choice_b", "peek"]
BUTTONS: tuple[Button, ...] = ("up", "down", "ok", "back", "choice_a", "choice_b", "peek")
BAR_LEDS = 10
DRIVERS = ("ssd1306", "sh1106")
I2C_PINS = {1: (2, 3), 0: (0, 1)}  # bus -> (SDA, SCL)
USABLE_GPIO = range(2, 28)

MAX_BYTES = 64 * 1024  # the pinout is about 1 KiB
#: the source of truth, in the repository (the generated wiring and BOM sit beside it)
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "hardware" / "pinout.toml"
#: its copy inside the package, made when the package is built (setup.py), so that an
#: install that is not the source tree (a wheel, pipx) runs the box too
PACKAGED_PATH = Path(__file__).resolve().parents[1] / "data" / "pinout.toml"


@dataclass(frozen=True)
class Oled:
    """The panel: its controller, where it answers on I2C, and which way up it is."""

    driver: str
    bus: int
    address: int
    rotate: int
    width: int = 128
    height: int = 64


@dataclass(frozen=True)
class Pinout:
    """Which GPIO each part is wired to, and the file that said so (``source``)."""

    buttons: dict[Button, int]
    bar: tuple[int, ...]
    status_a: int
    status_b: int
    buzzer: int
    oled: Oled
    source: str = ""

    def pins(self) -> dict[str, int]:
        """Every GPIO in use, by what it does (I2C included)."""
        used = {f"button {k}": v for k, v in self.buttons.items()}
        used |= {f"bar LED {i + 1}": pin for i, pin in enumerate(self.bar)}
        used |= {"status LED a": self.status_a, "status LED b": self.status_b}
        used["buzzer"] = self.buzzer
        sda, scl = I2C_PINS[self.oled.bus]
        used |= {"OLED SDA": sda, "OLED SCL": scl}
        return used


def _need(table: dict[str, Any], key: str, section: str, kind: type) -> Any:
    if key not in table:
        raise PinoutError(f"[{section}]: '{key}' is missing")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise PinoutError(f"{section}.{key}: expected {kind.__name__}, found {value!r}")
    return value


def _gpio(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in USABLE_GPIO:
        raise PinoutError(f"{where}: {value!r} is not a usable GPIO (2 to 27)")
    return value


def parse_pinout(data: dict[str, Any], source: str = "") -> Pinout:
    """Validate parsed TOML and build the pinout."""
    for section in ("buttons", "leds", "buzzer", "oled"):
        if not isinstance(data.get(section), dict):
            raise PinoutError(f"{source or 'the pinout'}: the [{section}] section is missing")
    buttons = {}
    for name in BUTTONS:
        buttons[name] = _gpio(_need(data["buttons"], name, "buttons", int), f"buttons.{name}")
    extra = sorted(set(data["buttons"]) - set(BUTTONS))
    if extra:
        raise PinoutError(f"[buttons]: unknown button '{extra[0]}' (buttons: {', '.join(BUTTONS)})")
    leds = data["leds"]
    bar = _need(leds, "bar", "leds", list)
    if len(bar) != BAR_LEDS:
        raise PinoutError(f"leds.bar: the bar has {BAR_LEDS} LEDs, found {len(bar)} pins")
    bar_pins = tuple(_gpio(p, f"leds.bar[{i}]") for i, p in enumerate(bar))
    oled = data["oled"]
    driver = _need(oled, "driver", "oled", str)
    if driver not in DRIVERS:
        raise PinoutError(f"oled.driver: {driver!r} is not one of {', '.join(DRIVERS)}")
    bus = _need(oled, "bus", "oled", int)
    if bus not in I2C_PINS:
        raise PinoutError(f"oled.bus: {bus} is not an I2C bus of the header (0 or 1)")
    address = _need(oled, "address", "oled", int)
    if not 0x03 <= address <= 0x77:
        raise PinoutError(f"oled.address: {address:#x} is not a 7-bit I2C address")
    rotate = _need(oled, "rotate", "oled", int)
    if rotate not in (0, 2):
        raise PinoutError(
            f"oled.rotate: {rotate}; the screens are landscape, so 0 or 2 (upside down)"
        )
    pinout = Pinout(
        buttons=buttons,
        bar=bar_pins,
        status_a=_gpio(_need(leds, "status_a", "leds", int), "leds.status_a"),
        status_b=_gpio(_need(leds, "status_b", "leds", int), "leds.status_b"),
        buzzer=_gpio(_need(data["buzzer"], "pin", "buzzer", int), "buzzer.pin"),
        oled=Oled(driver, bus, address, rotate),
        source=source,
    )
    seen: dict[int, str] = {}
    for use, pin in pinout.pins().items():
        if pin in seen:
            raise PinoutError(f"GPIO{pin} is wired twice: to {seen[pin]} and to {use}")
        seen[pin] = use
    return pinout


def pinout_path(path: str | os.PathLike[str] | None = None) -> Path:
    """``path``, else ``$COMPANION_PINOUT``, else the repository's pinout, else the package's
    own copy of it (an install without the repository)."""
    chosen = path or os.environ.get("COMPANION_PINOUT")
    if chosen:
        return Path(chosen)
    return DEFAULT_PATH if DEFAULT_PATH.is_file() or not PACKAGED_PATH.is_file() else PACKAGED_PATH


def load_pinout(path: str | os.PathLike[str] | None = None) -> Pinout:
    """The pinout at ``path``, ``$COMPANION_PINOUT`` or ``hardware/pinout.toml`` (see
    ``pinout_path``)."""
    where = pinout_path(path)
    raw = read_regular(where, "pinout file", MAX_BYTES, PinoutError)
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PinoutError(f"{where} is not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses into nested arrays
        raise PinoutError(f"{where} nests deeper than a pinout does") from None
    return parse_pinout(data, str(where))
