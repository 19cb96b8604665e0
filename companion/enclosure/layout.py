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
class Print:
    hole_allowance: float


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
class OledModule:
    """The screen module as sold; the BOM names it and the lid's window is cut from it."""

    name: str
    diagonal_in: float
    board_mm: Pair
    thickness_mm: float
    glass_mm: Triple
    active_mm: Pair
    active_offset_mm: Pair
    holes_mm: Pair
    hole_mm: float


@dataclass(frozen=True)
class Riser:
    under: str
    height: float
    diameter: float
    spigot: Pair


@dataclass(frozen=True)
class Oled:
    at: Pair
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
    height: float


@dataclass(frozen=True)
class Plug:
    moulding: Pair
    reach: float


@dataclass(frozen=True)
class Hood:
    covers: tuple[str, ...]
    inner: Pair
    front: float
    back: float
    wall: float
    slot: Pair
    peg: Pair
    peg_block: Pair
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


@dataclass(frozen=True)
class Layout:
    box: Box
    printing: Print
    corner_screws: CornerScrews
    button: Button
    buttons: dict[str, Pair]
    riser: Riser
    oled_module: OledModule
    oled: Oled
    leds: Leds
    buzzer: Buzzer
    pi: Pi
    ports: Ports
    plug: Plug
    hood: Hood
    handset: Handset
    source: str = ""

    def lift(self, button: str) -> float:
        """How far a button's head stands above the plate's own: the riser's height, or 0."""
        return self.riser.height if button == self.riser.under else 0.0

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
        if kind == "str":
            if not isinstance(table[key], str):
                raise LayoutError(f"{where}: expected a name, found {table[key]!r}")
            values[key] = table[key]
            continue
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
    layout = Layout(
        box=_section(Box, data, "box"),
        printing=_section(Print, data, "print"),
        corner_screws=_section(CornerScrews, data, "corner_screws"),
        button=_section(Button, data, "button"),
        buttons=buttons,
        riser=_section(Riser, data, "riser"),
        oled_module=_section(OledModule, data, "oled_module"),
        oled=_section(Oled, data, "oled"),
        leds=_section(Leds, data, "leds"),
        buzzer=_section(Buzzer, data, "buzzer"),
        pi=_section(Pi, data, "pi"),
        ports=_section(Ports, data, "ports"),
        plug=_section(Plug, data, "plug"),
        hood=_section(Hood, data, "hood"),
        handset=_section(Handset, data, "handset"),
        source=source,
    )
    if layout.riser.under not in layout.buttons:
        raise LayoutError(f"riser.under: '{layout.riser.under}' is not a button on the panel")
    check_window(layout)
    return layout


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


def active_area(layout: Layout) -> tuple[Pair, Pair]:
    """The module's lit pixels where it sits under the plate: x and y bounds."""
    o, m = layout.oled, layout.oled_module
    cx, cy = o.at[0] + m.active_offset_mm[0], o.at[1] + m.active_offset_mm[1]
    half_w, half_h = m.active_mm[0] / 2, m.active_mm[1] / 2
    return (cx - half_w, cx + half_w), (cy - half_h, cy + half_h)


def oled_window(layout: Layout) -> tuple[Pair, Pair]:
    """The screen's opening in the plate, cut from the module's active area: x and y bounds.

    The front margin is the wider one: the holder looks down at it from the front, through
    the plate's thickness.
    """
    (x0, x1), (y0, y1) = active_area(layout)
    side, front = layout.oled.window_margin
    return (x0 - side, x1 + side), (y0 - front, y1 + side)


def check_window(layout: Layout) -> None:
    """Refuse a window that does not fit its module: the lit area must show whole, and the
    glass must cover the opening all round (or the board's edge shows and the module falls
    through). A module of another size (a 1.3" SH1106) needs its own sizes here."""
    (wx0, wx1), (wy0, wy1) = oled_window(layout)
    (ax0, ax1), (ay0, ay1) = active_area(layout)
    o, m = layout.oled, layout.oled_module
    shows = wx0 <= ax0 and ax1 <= wx1 and wy0 <= ay0 and ay1 <= wy1
    if min(layout.oled.window_margin) < 0 or not shows:
        raise LayoutError("oled.window_margin: the window must show the whole active area")
    gx, gy = m.glass_mm[0] / 2, m.glass_mm[1] / 2
    if wx0 < o.at[0] - gx or wx1 > o.at[0] + gx or wy0 < o.at[1] - gy or wy1 > o.at[1] + gy:
        raise LayoutError(
            f"the screen's window ({wx1 - wx0:.1f} x {wy1 - wy0:.1f} mm) is larger than the "
            f"glass of the {m.name} ({m.glass_mm[0]} x {m.glass_mm[1]} mm)"
        )
