"""The panel layout, read from ``hardware/panel.toml``: where each part sits and how big it is.

Plain data and no CAD, so ``companion hardware`` can check it on a Pi without the ``cad``
extra. The pinout says which parts exist; :func:`check_against_pinout` refuses a layout that
places a part the pinout does not wire, or forgets one it does.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.box.pinout import Pinout
from companion.errors import PinoutError

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "hardware" / "panel.toml"

PANEL_PARTS = ("bar", "status_a", "status_b", "buzzer", "oled")  # besides the buttons

Pair = tuple[float, float]
Triple = tuple[float, float, float]


class LayoutError(PinoutError):
    """A panel layout that does not describe a case this code can build."""


@dataclass(frozen=True)
class Box:
    """A case's shell: the box's, or (with its own size and height) a handset's."""

    size: Pair
    height: float
    wall: float
    top: float
    lip: Pair
    fit: float

    @property
    def rim(self) -> float:
        """Height of the base's walls: the lid's plate sits on them."""
        return self.height - self.top

    def corners(self, inset: float) -> list[Pair]:
        x, y = self.size[0] / 2 - inset, self.size[1] / 2 - inset
        return [(sx * x, sy * y) for sx in (-1, 1) for sy in (-1, 1)]


@dataclass(frozen=True)
class CornerScrews:
    inset: float
    post: float
    pilot: float
    clearance: float
    depth: float


@dataclass(frozen=True)
class Button:
    hole: float
    thread: float
    cap: Pair
    body: Pair


@dataclass(frozen=True)
class Oled:
    at: Pair
    board: Triple
    glass: Triple
    active: Pair
    active_offset: Pair
    holes: Pair
    hole: float
    pin: float
    window_margin: Pair


@dataclass(frozen=True)
class Leds:
    bar: Pair
    bar_size: Triple
    status_a: Pair
    status_b: Pair
    led: Pair
    led_hole: float


@dataclass(frozen=True)
class Buzzer:
    at: Pair
    size: Pair
    ring: Pair
    sound_holes: float


@dataclass(frozen=True)
class Pi:
    at: Pair
    size: Triple
    holes: Pair
    hole: float
    post: Pair
    pilot: float
    above: float


@dataclass(frozen=True)
class Ports:
    power: float
    data: float
    opening: Pair
    height: float


@dataclass(frozen=True)
class Hood:
    covers: tuple[str, ...]
    inner: Pair
    front: float
    back: float
    wall: float
    peg: Pair
    peg_hole: float
    peg_y: tuple[float, ...]


@dataclass(frozen=True)
class Handset:
    size: Pair
    height: float
    choice_a: Pair
    choice_b: Pair
    led: Pair
    pico: Pair
    pico_size: Triple
    pico_holes: Pair
    pico_hole: float
    pico_post: Pair
    pico_pilot: float
    pico_above: float
    pico_port: Pair


@dataclass(frozen=True)
class Layout:
    box: Box
    corner_screws: CornerScrews
    button: Button
    buttons: dict[str, Pair]
    oled: Oled
    leds: Leds
    buzzer: Buzzer
    pi: Pi
    ports: Ports
    hood: Hood
    handset: Handset
    source: str = ""

    def parts(self) -> set[str]:
        """The wired parts this layout places, named as the pinout names them."""
        return {*self.buttons, *PANEL_PARTS}


def _numbers(value: Any, where: str, count: int | None) -> tuple[float, ...]:
    items = value if isinstance(value, list) else [value]
    if count is None and not isinstance(value, list):
        raise LayoutError(f"{where}: expected a list of numbers, found {value!r}")
    what = "a number" if count == 1 else f"{count} numbers" if count else "numbers"
    if count is not None and len(items) != count:
        raise LayoutError(f"{where}: expected {what}, found {value!r}")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in items):
        raise LayoutError(f"{where}: expected {what}, found {value!r}")
    return tuple(float(v) for v in items)


def _section(cls: Any, data: dict[str, Any], name: str) -> Any:
    """Build ``cls`` from the TOML table ``name``: every field present, numbers in mm."""
    table = data.get(name)
    if not isinstance(table, dict):
        raise LayoutError(f"the [{name}] section is missing")
    fields = cls.__dataclass_fields__
    unknown = sorted(set(table) - set(fields))
    if unknown:
        raise LayoutError(f"[{name}]: unknown key '{unknown[0]}'")
    values: dict[str, Any] = {}
    for key, field in fields.items():
        if key not in table:
            raise LayoutError(f"[{name}]: '{key}' is missing")
        where, kind = f"{name}.{key}", str(field.type)
        if kind == "tuple[str, ...]":
            if not isinstance(table[key], list) or not all(isinstance(v, str) for v in table[key]):
                raise LayoutError(f"{where}: expected a list of names, found {table[key]!r}")
            values[key] = tuple(table[key])
            continue
        count = {"float": 1, "Pair": 2, "Triple": 3}.get(kind)
        numbers = _numbers(table[key], where, count)
        values[key] = numbers[0] if kind == "float" else numbers
    return cls(**values)


def parse_layout(data: dict[str, Any], source: str = "") -> Layout:
    """Validate parsed TOML and build the layout."""
    buttons_table = data.get("buttons")
    if not isinstance(buttons_table, dict):
        raise LayoutError("the [buttons] section is missing")
    buttons: dict[str, Pair] = {}
    for name, at in buttons_table.items():
        x, y = _numbers(at, f"buttons.{name}", 2)
        buttons[name] = (x, y)
    return Layout(
        box=_section(Box, data, "box"),
        corner_screws=_section(CornerScrews, data, "corner_screws"),
        button=_section(Button, data, "button"),
        buttons=buttons,
        oled=_section(Oled, data, "oled"),
        leds=_section(Leds, data, "leds"),
        buzzer=_section(Buzzer, data, "buzzer"),
        pi=_section(Pi, data, "pi"),
        ports=_section(Ports, data, "ports"),
        hood=_section(Hood, data, "hood"),
        handset=_section(Handset, data, "handset"),
        source=source,
    )


def load_layout(path: str | Path | None = None) -> Layout:
    path = Path(path) if path else DEFAULT_PATH
    if not path.exists():
        raise LayoutError(f"no panel layout file at {path}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"{path} is not valid TOML: {exc}") from None
    try:
        return parse_layout(data, str(path))
    except LayoutError as exc:
        raise LayoutError(f"{path}: {exc}") from None


def check_against_pinout(layout: Layout, pinout: Pinout) -> None:
    """Refuse a layout that places other parts than the pinout wires."""
    wired = {*pinout.buttons, *PANEL_PARTS}  # the pinout's bar, LEDs, buzzer and screen
    missing, extra = sorted(wired - layout.parts()), sorted(layout.parts() - wired)
    if missing:
        raise LayoutError(f"{layout.source or 'the layout'}: no place for {', '.join(missing)}")
    if extra:
        raise LayoutError(f"{layout.source or 'the layout'}: {', '.join(extra)} is not wired")
    strays = [name for name in layout.hood.covers if name not in layout.parts()]
    if strays:
        raise LayoutError(f"hood.covers: '{strays[0]}' is not a part on the panel")
