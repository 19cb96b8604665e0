"""The wiring, read from ``hardware/pinout.toml``: the one place that says which pin does what.

A broken pinout is refused with a message that says which line is wrong, before any pin
is touched: a pin its board does not break out (``headers``), a pin used twice, LEDs that
would draw more than the GPIO budget (``drive``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from companion.box import plain_toml
from companion.box.drive import (
    BUZZERS,
    PI_BUDGET,
    PICO_BUDGET,
    SUPPLY_V,
    LedPart,
    Load,
    base_current_ma,
    check,
)
from companion.box.headers import PI, PICO, Header
from companion.errors import PinoutError
from companion.files import read_regular
from companion.valueclass import valueclass

#: the box's buttons by name (plain strings, checked by the type checker where compared)
Button = Literal["up", "down", "ok", "back", "choice_a", "choice_b", "peek"]
BUTTONS: tuple[Button, ...] = ("up", "down", "ok", "back", "choice_a", "choice_b", "peek")
BAR_LEDS = 10
DRIVERS = ("ssd1306", "sh1106")
I2C_PINS = {1: (2, 3), 0: (0, 1)}  # bus -> (SDA, SCL)
SECTIONS = ("buttons", "leds", "buzzer", "oled", "handset")
#: a pad's parts, by their keys in [handset] and their names in the wiring
HANDSET_PARTS = {"a": "pad button A", "b": "pad button B", "led": "pad LED"}

MAX_BYTES = 64 * 1024  # the pinout is about 1 KiB
#: the source of truth, in the repository (the generated wiring and BOM sit beside it)
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "hardware" / "pinout.toml"
#: its copy inside the package, made when the package is built (setup.py), so that an
#: install that is not the source tree (a wheel, pipx) runs the box too
PACKAGED_PATH = Path(__file__).resolve().parents[1] / "data" / "pinout.toml"


@valueclass(frozen=True)
class Oled:
    """The panel: its controller, where it answers on I2C, and which way up it is."""

    driver: str
    bus: int
    address: int
    rotate: int
    width: int = 128
    height: int = 64


@valueclass(frozen=True)
class Pinout:
    """Which GPIO each part is wired to, and the file that said so (``source``).

    The box's parts are on the Pi's header; ``handset`` maps a pad's parts (``a``, ``b``,
    ``led``) to the Pico's GPIOs, which its firmware drives.
    """

    buttons: dict[Button, int]
    bar: tuple[int, ...]
    status_a: int
    status_b: int
    buzzer: int
    oled: Oled
    led_part: LedPart
    buzzer_type: str
    handset: dict[str, int]
    source: str = ""

    def pins(self) -> dict[str, int]:
        """Every GPIO of the Pi in use, by what it does (I2C included)."""
        used = {f"button {k}": v for k, v in self.buttons.items()} | self.leds()
        used["buzzer"] = self.buzzer
        sda, scl = I2C_PINS[self.oled.bus]
        used |= {"OLED SDA": sda, "OLED SCL": scl}
        return used

    def handset_pins(self) -> dict[str, int]:
        """Every GPIO of a pad's Pico in use, by what it does."""
        return {HANDSET_PARTS[key]: pin for key, pin in self.handset.items()}

    def ground_wires(self) -> int:
        """Wires that end on the box's ground: each button and LED, the buzzer's
        transistor, the screen."""
        return len(self.buttons) + len(self.leds()) + 2

    def leds(self) -> dict[str, int]:
        """The Pi's LEDs: the bar's and the two status LEDs."""
        leds = {f"bar LED {i + 1}": pin for i, pin in enumerate(self.bar)}
        return leds | {"status LED a": self.status_a, "status LED b": self.status_b}

    def loads(self) -> list[Load]:
        """What each driven GPIO of the Pi sources at worst: an LED, or the buzzer's base."""
        high = self.led_part.current_ma()[1]
        loads = [Load(f"{use} (GPIO{pin})", high) for use, pin in self.leds().items()]
        return [*loads, Load(f"buzzer (GPIO{self.buzzer})", base_current_ma())]

    def handset_loads(self) -> list[Load]:
        return [Load(f"pad LED (GP{self.handset['led']})", self.led_part.current_ma()[1])]


def _need(table: dict[str, Any], key: str, section: str, kind: type) -> Any:
    if key not in table:
        raise PinoutError(f"[{section}]: '{key}' is missing")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise PinoutError(f"{section}.{key}: expected {kind.__name__}, found {value!r}")
    return value


def _gpio(value: Any, where: str, header: Header = PI) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PinoutError(f"{where}: expected a GPIO number, found {value!r}")
    return header.usable(value, where)


def _buttons(table: dict[str, Any]) -> dict[Button, int]:
    extra = sorted(set(table) - set(BUTTONS))
    if extra:
        raise PinoutError(f"[buttons]: unknown button '{extra[0]}' (buttons: {', '.join(BUTTONS)})")
    return {name: _gpio(_need(table, name, "buttons", int), f"buttons.{name}") for name in BUTTONS}


def _led_part(leds: dict[str, Any]) -> LedPart:
    resistor = _need(leds, "resistor", "leds", int)
    if resistor <= 0:
        raise PinoutError(f"leds.resistor: {resistor} ohm is not a resistor")
    volts = _need(leds, "forward_voltage", "leds", list)
    if (
        len(volts) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in volts)
        or not 0 < volts[0] <= volts[1] < SUPPLY_V
    ):
        raise PinoutError(
            f"leds.forward_voltage: expected [lowest, highest] in volts, under {SUPPLY_V} V, "
            f"found {volts!r}"
        )
    return LedPart(resistor, (float(volts[0]), float(volts[1])))


def _oled(oled: dict[str, Any]) -> Oled:
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
    return Oled(driver, bus, address, rotate)


def _handset(table: dict[str, Any]) -> dict[str, int]:
    extra = sorted(set(table) - set(HANDSET_PARTS))
    if extra:
        raise PinoutError(f"[handset]: unknown part '{extra[0]}' (parts: a, b, led)")
    pins = {
        key: _gpio(_need(table, key, "handset", int), f"handset.{key}", PICO)
        for key in HANDSET_PARTS
    }
    _once({HANDSET_PARTS[key]: pin for key, pin in pins.items()}, PICO)
    return pins


def _once(pins: dict[str, int], header: Header) -> None:
    seen: dict[int, str] = {}
    for use, pin in pins.items():
        if pin in seen:
            name = header.gpio_name(pin)
            raise PinoutError(f"{name} is wired twice: to {seen[pin]} and to {use}")
        seen[pin] = use


def parse_pinout(data: dict[str, Any], source: str = "") -> Pinout:
    """Validate parsed TOML and build the pinout: every pin on its board's header, each
    used once, the LEDs inside the GPIO budget."""
    for section in SECTIONS:
        if not isinstance(data.get(section), dict):
            raise PinoutError(f"{source or 'the pinout'}: the [{section}] section is missing")
    leds = data["leds"]
    bar = _need(leds, "bar", "leds", list)
    if len(bar) != BAR_LEDS:
        raise PinoutError(f"leds.bar: the bar has {BAR_LEDS} LEDs, found {len(bar)} pins")
    buzzer_type = _need(data["buzzer"], "type", "buzzer", str)
    if buzzer_type not in BUZZERS:
        raise PinoutError(f"buzzer.type: {buzzer_type!r} is not one of {', '.join(BUZZERS)}")
    oled = _oled(data["oled"])
    pinout = Pinout(
        buttons=_buttons(data["buttons"]),
        bar=tuple(_gpio(p, f"leds.bar[{i}]") for i, p in enumerate(bar)),
        status_a=_gpio(_need(leds, "status_a", "leds", int), "leds.status_a"),
        status_b=_gpio(_need(leds, "status_b", "leds", int), "leds.status_b"),
        buzzer=_gpio(_need(data["buzzer"], "pin", "buzzer", int), "buzzer.pin"),
        oled=oled,
        led_part=_led_part(leds),
        buzzer_type=buzzer_type,
        handset=_handset(data["handset"]),
        source=source,
    )
    _once(pinout.pins(), PI)
    check(pinout.loads(), PI_BUDGET, pinout.led_part)
    check(pinout.handset_loads(), PICO_BUDGET, pinout.led_part)
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
        text = raw.decode("utf-8")
        # A pinout as written is plain TOML, read without tomllib's import (README:
        # Performance); anything else, tomllib reads, and says what is wrong.
        data = plain_toml.loads(text)
        if data is None:
            import tomllib

            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise PinoutError(f"{where} is not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise PinoutError(f"{where} is not valid TOML: {exc}") from None
    except RecursionError:  # both readers recurse into nested arrays
        raise PinoutError(f"{where} nests deeper than a pinout does") from None
    return parse_pinout(data, str(where))
