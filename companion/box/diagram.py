"""The wiring diagram, drawn from the pinout as an SVG: the Pi's header with every part on
its pin, the screen and the buzzer's driver, and a handset's Pico.

Generated like the wiring table (``companion hardware --write`` writes
``hardware/wiring.svg``), so the picture cannot drift from what the code drives. Each
wired pin is a group carrying ``data-board``, ``data-pin``, ``data-signal`` and
``data-part``: a test reads the committed picture back and finds every pin of the
pinout with its part. Plain SVG from the standard library: no drawing package to install.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from companion.box.drive import PI_BUDGET, summary
from companion.box.headers import PI, PICO, Header
from companion.box.pinout import Pinout
from companion.box.wiring import BUS_GND, BUZZER_5V, OLED_GND, OLED_VCC

WIDTH = 1000
ROW = 22  # px between pin rows
MIDDLE = WIDTH // 2
REACH = 80  # px from the header's middle to where a part's wire starts
GROUND_AT = 190  # px along a wire to its ground symbol
PICO_GND = (18, 23)  # the pad's grounds: beside its buttons' pins, and beside its LED's
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'

Draw = list[str]
#: a point along a part's wire: t px out from where the wire starts, dy px below it
Along = Callable[[float, float], tuple[float, float]]


def _kind(use: str) -> str:
    if "button" in use:
        return "button"
    if "LED" in use and not use.startswith("OLED"):
        return "led"
    if use.startswith("ground"):
        return "ground"
    return "net"


def _line(points: list[tuple[float, float]], extra: str = "") -> str:
    path = " ".join(f"{x:g},{y:g}" for x, y in points)
    return f'<polyline points="{path}" fill="none" stroke="black" stroke-width="1.4"{extra}/>'


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 11) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" {FONT}>'
        f"{escape(text)}</text>"
    )


def _ground(at: tuple[float, float]) -> Draw:
    x, y = at
    bars = [_line([(x - w, y + d), (x + w, y + d)]) for w, d in ((7, 6), (4.5, 9), (2, 12))]
    return [_line([(x, y), (x, y + 6)]), *bars]


def _resistor(along: Along, start: float, label: str) -> Draw:
    zig = [along(start + i * 5, (-5, 5)[i % 2] if 0 < i < 8 else 0) for i in range(9)]
    x, y = along(start + 20, -8)
    return [_line(zig), _text(x, y, label, "middle", 9)]


def _switch(along: Along, start: float) -> Draw:
    (ax, ay), (bx, by) = along(start, 0), along(start + 26, 0)
    circles = [
        f'<circle cx="{x:g}" cy="{y:g}" r="2.5" fill="white" stroke="black"/>'
        for x, y in ((ax, ay), (bx, by))
    ]
    return [*circles, _line([along(start + 2, -1), along(start + 26, -10)])]


def _led(along: Along, start: float) -> Draw:
    """A diode pointing away from the pin: anode on the pin's side."""
    tip = [along(start, -6), along(start, 6), along(start + 12, 0)]
    path = " ".join(f"{x:g},{y:g}" for x, y in tip)
    rays = [_line([along(start + 6 + d, -8), along(start + 11 + d, -14)]) for d in (0, 5)]
    return [
        f'<polygon points="{path}" fill="white" stroke="black" stroke-width="1.4"/>',
        _line([along(start + 12, -6), along(start + 12, 6)]),
        *rays,
    ]


def _flag(at: tuple[float, float], text: str, side: int) -> Draw:
    width = 6.5 * len(text) + 12
    x, y = at
    left = x - width if side == 0 else x
    return [
        f'<rect x="{left:g}" y="{y - 8:g}" width="{width:g}" height="16" rx="3" '
        'fill="#eef3ff" stroke="#345"/>',
        _text(left + width / 2, y + 4, text, "middle", 10),
    ]


def _part(use: str, along: Along, side: int, resistor: str) -> Draw:
    """The part on one pin's wire, drawn outward from the header."""
    kind = _kind(use)
    if kind == "ground":
        return [_line([along(0, 0), along(20, 0)]), *_ground(along(20, 0))]
    end = {"button": 140, "led": 110, "net": 110}[kind]
    shapes = [_line([along(0, 0), along(end, 0)])]
    if kind == "net":
        return shapes + _flag(along(end, 0), use, side)
    if kind == "button":
        shapes += _switch(along, end)
        shapes.append(_line([along(end + 26, 0), along(GROUND_AT, 0)]))
    else:
        shapes += _resistor(along, end, resistor)
        shapes.append(_line([along(end + 40, 0), along(end + 55, 0)]))
        shapes += _led(along, end + 55)
        shapes.append(_line([along(end + 67, 0), along(GROUND_AT, 0)]))
    return shapes + _ground(along(GROUND_AT, 0))


def _header(header: Header, top: float, uses: dict[int, str], resistor: str) -> Draw:
    """The header's pins, each with its signal and, where wired, its part."""
    rows = len(header.pins) // 2
    shapes = [
        f'<rect x="{MIDDLE - 24}" y="{top - 14:g}" width="48" height="{rows * ROW + 6:g}" '
        'rx="4" fill="#2b2b2b"/>'
    ]
    for pin, signal in enumerate(header.pins, start=1):
        side, row = header.place(pin)
        y = top + row * ROW
        sign = -1 if side == 0 else 1
        use = uses.get(pin)
        colour = "#fff" if use else "#999"
        shapes += [
            f'<rect x="{MIDDLE + sign * 11 - 7}" y="{y - 7:g}" width="14" height="14" '
            f'fill="{colour}"/>',
            _text(MIDDLE + sign * 11, y + 3, str(pin), "middle", 8),
        ]
        label = _text(MIDDLE + sign * 30, y + 4, signal, "end" if side == 0 else "start")
        if use is None:
            shapes.append(label.replace("<text ", '<text fill="#999" '))
            continue
        start = MIDDLE + sign * REACH

        def along(t: float, dy: float, start: float = start, y: float = y, s: int = sign):
            return start + s * t, y + dy

        name = _text(start + sign * 6, y - 4, use, "end" if side == 0 else "start", 10)
        part = "".join([label, name, *_part(use, along, side, resistor)])
        shapes.append(
            f'<g class="pin" data-board="{header.board}" data-pin="{pin}" '
            f'data-signal="{signal}" data-part="{escape(use)}">{part}</g>'
        )
    return shapes


def _pi_uses(pinout: Pinout) -> dict[int, str]:
    uses = {PI.pin_of(gpio): use for use, gpio in pinout.pins().items()}
    uses |= {OLED_VCC: "OLED VCC", OLED_GND: "OLED GND", BUZZER_5V: "buzzer 5V"}
    return uses | {pin: "ground bus" for pin in BUS_GND}


def _oled_block(pinout: Pinout, x: float, y: float) -> Draw:
    oled = pinout.oled
    shapes = [
        f'<rect x="{x:g}" y="{y:g}" width="150" height="110" rx="4" fill="#f4f4f4" '
        'stroke="black"/>',
        _text(x + 75, y + 18, f"OLED {oled.driver.upper()}", "middle", 12),
        _text(x + 75, y + 34, f"128x64, I2C {oled.address:#04x}", "middle", 10),
    ]
    for i, name in enumerate(("VCC", "GND", "SCL", "SDA")):
        ty = y + 52 + i * 16
        shapes += [
            _text(x + 142, ty + 4, name, "end", 10),
            _line([(x + 150, ty), (x + 180, ty)]),
            *_flag((x + 180, ty), f"OLED {name}", 1),
        ]
    return shapes


def _buzzer_block(pinout: Pinout, x: float, y: float) -> Draw:
    """GPIO -> 1k -> NPN base; 5 V -> buzzer (diode across it) -> collector; emitter to
    ground."""
    bx, by = x + 200, y + 100  # the transistor's middle

    def along(t: float, dy: float) -> tuple[float, float]:
        return x + 90 + t, by + dy

    shapes = [*_flag((x + 90, by), "buzzer", 0), _line([along(0, 0), along(30, 0)])]
    shapes += _resistor(along, 30, "1k")
    shapes += [
        _line([along(70, 0), (bx - 6, by)]),
        f'<circle cx="{bx + 2}" cy="{by}" r="15" fill="none" stroke="black"/>',
        _line([(bx - 6, by - 9), (bx - 6, by + 9)]),
        _line([(bx - 6, by - 4), (bx + 6, by - 12), (bx + 6, by - 30)]),
        _line([(bx - 6, by + 4), (bx + 6, by + 12), (bx + 6, by + 24)]),
        f'<polygon points="{bx + 6},{by + 12} {bx - 1},{by + 11} {bx + 3},{by + 6}"/>',
        *_ground((bx + 6, by + 24)),
        _text(bx + 24, by + 4, "NPN (2N2222, BC547)", "start", 10),
        f'<circle cx="{bx + 6}" cy="{by - 45}" r="11" fill="white" stroke="black"/>',
        _text(bx + 6, by - 41, "BZ", "middle", 9),
        _text(bx + 17, by - 53, "+", "middle", 10),
        _line([(bx + 6, by - 34), (bx + 6, by - 30)]),
        _line([(bx + 6, by - 56), (bx + 6, by - 80)]),
        *_flag((bx + 6, by - 80), "buzzer 5V", 1),
        _text(bx - 10, by - 56, f"{pinout.buzzer_type} buzzer", "end", 10),
    ]
    if pinout.buzzer_type == "magnetic":
        dx = bx + 40
        shapes += [
            _line([(bx + 6, by - 68), (dx, by - 68), (dx, by - 22), (bx + 6, by - 22)]),
            f'<polygon points="{dx - 6},{by - 38} {dx + 6},{by - 38} {dx},{by - 50}" '
            'fill="white" stroke="black" stroke-width="1.4"/>',
            _line([(dx - 6, by - 50), (dx + 6, by - 50)]),
            _text(dx + 10, by - 40, "1N4148", "start", 10),
        ]
    return shapes


def diagram(pinout: Pinout) -> str:
    """The whole picture, as SVG text."""
    resistor = f"{pinout.led_part.resistor / 1000:g}k"
    pi_top = 70
    blocks = pi_top + 20 * ROW + 30
    pico_top = blocks + 290
    height = pico_top + 20 * ROW + 40
    shapes = [
        _text(20, 28, "Companion: the box's wiring (generated from hardware/pinout.toml)", size=16),
        _text(
            20,
            48,
            f"{PI.board} {PI.name}, seen from above, pin 1 at the top left. "
            "Each ground symbol joins the ground bus; flags of one name are one wire.",
            size=11,
        ),
        *_header(PI, pi_top, _pi_uses(pinout), resistor),
        *_oled_block(pinout, 120, blocks + 20),
        *_buzzer_block(pinout, 520, blocks + 20),
        _text(
            20,
            blocks + 196,
            f"Ground bus: {pinout.ground_wires() - 1} ground wires on one stripboard track (or a "
            f"terminal strip), joined to GND pins {BUS_GND[0]} and {BUS_GND[1]}; the screen's "
            f"ground on pin {OLED_GND}.",
        ),
        _text(20, blocks + 214, summary(pinout.loads(), PI_BUDGET, pinout.led_part), size=10),
        _text(
            20,
            pico_top - 40,
            f"A handset: {PICO.board} (or Pico W), pin 1 beside the USB socket",
            size=16,
        ),
    ]
    uses = {PICO.pin_of(gpio): use for use, gpio in pinout.handset_pins().items()}
    uses |= {pin: "ground" for pin in PICO_GND}
    shapes += _header(PICO, pico_top, uses, resistor)
    body = "\n".join(shapes)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:g}" '
        f'viewBox="0 0 {WIDTH} {height:g}">\n'
        f'<rect width="{WIDTH}" height="{height:g}" fill="white"/>\n{body}\n</svg>\n'
    )
