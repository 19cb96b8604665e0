"""The wiring table and bill of materials, generated from the pinout.

Header pin numbers come from ``headers`` (checked against gpiozero's board data by a
test), the currents from ``drive``. ``companion hardware --write`` regenerates
``hardware/wiring.md``, ``hardware/bom.md`` and the wiring diagram; a test checks they
match. The box's side only: the printed case reads the pinout, never the other way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.box.drive import (
    BASE_RESISTOR,
    PI_BUDGET,
    PICO_BUDGET,
    RESISTOR_TOLERANCE,
    base_current_ma,
    summary,
)
from companion.box.headers import PI, PICO
from companion.box.pinout import Pinout
from companion.errors import PinoutError

HEADER = PI.name  # the 40-pin header, the same on a Pi Zero 2 W and every Pi since the B+
#: header pins for the screen's supply and ground, and the buzzer's 5 V
OLED_VCC, OLED_GND, BUZZER_5V = 1, 9, 2
#: the ground bus's two leads to the header (two, so one loose lead loses nothing)
BUS_GND = (6, 14)
HUB_PORTS = 8  # one a pad, a pad a seat


@dataclass(frozen=True)
class OledModule:
    """The screen module as sold, by size: the case's window is cut for it."""

    name: str
    diagonal_in: float
    board_mm: tuple[float, float]
    active_mm: tuple[float, float]


#: the module the case is drawn for when hardware/panel.toml does not name one
DEFAULT_OLED = OledModule(
    '0.96" 128x64 SSD1306 OLED module, I2C, 4 pins (GND VCC SCL SDA)',
    0.96,
    (27.3, 27.8),
    (21.74, 10.86),
)


def oled_module(table: Any, where: str) -> OledModule:
    """The ``[oled_module]`` table of the panel layout, or one line saying what is wrong."""
    if not isinstance(table, dict):
        raise PinoutError(f"{where}: [oled_module] must be a table")

    def pair(key: str) -> tuple[float, float]:
        value = table.get(key)
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            raise PinoutError(f"{where}: oled_module.{key}: expected [width, height] in mm")
        return float(value[0]), float(value[1])

    name, diagonal = table.get("name"), table.get("diagonal_in")
    if not isinstance(name, str) or not name:
        raise PinoutError(f"{where}: oled_module.name: expected the module's name")
    if not isinstance(diagonal, int | float) or isinstance(diagonal, bool) or diagonal <= 0:
        raise PinoutError(f"{where}: oled_module.diagonal_in: expected inches, found {diagonal!r}")
    return OledModule(name, float(diagonal), pair("board_mm"), pair("active_mm"))


def header_pin(gpio: int) -> int:
    return PI.pin_of(gpio)


def ground_pins() -> list[int]:
    return PI.ground_pins()


def buzzer_drive(pinout: Pinout) -> str:
    """How the buzzer is wired, as its type needs."""
    text = (
        f"Buzzer ({pinout.buzzer_type}, active, 5 V): GPIO{pinout.buzzer} -> "
        f"{BASE_RESISTOR // 1000} kohm -> NPN base (at most {base_current_ma():.1f} mA from the "
        f"pin); the buzzer between 5V (pin {BUZZER_5V}) and the collector; emitter to ground"
    )
    if pinout.buzzer_type == "magnetic":
        text += "; a 1N4148 across the buzzer, cathode to 5V, takes the coil's spike at switch-off"
    return text + "."


def _pi_rows(pinout: Pinout) -> list[tuple[str, str, int, str]]:
    rows = [
        ("OLED VCC", "3V3", OLED_VCC, _oled_name(pinout)),
        ("OLED GND", "GND", OLED_GND, ""),
        ("buzzer 5V", "5V", BUZZER_5V, "buzzer +, diode's cathode"),
        ("ground bus", "GND", BUS_GND[0], "every part's ground"),
        ("ground bus", "GND", BUS_GND[1], "second lead"),
    ]
    rows += [(use, f"GPIO{pin}", PI.pin_of(pin), _note(use)) for use, pin in pinout.pins().items()]
    return sorted(rows, key=lambda r: r[2])


def wiring(pinout: Pinout) -> str:
    part = pinout.led_part
    lines = [
        "# Wiring (generated from hardware/pinout.toml: `companion hardware --write`)",
        "",
        "The diagram: [wiring.svg](wiring.svg).",
        "",
        "## The box",
        "",
        f"Raspberry Pi 40-pin header {HEADER} (Zero 2 W, 3, 4, 5). Buttons connect the GPIO to",
        "ground when pressed (internal pull-ups, no resistor). Each LED: GPIO -> "
        f"{_ohm(part.resistor)} -> LED anode, cathode -> ground.",
        buzzer_drive(pinout),
        f"Ground: {pinout.ground_wires()} wires end on ground (each button and LED, the "
        "transistor's emitter, the screen) and the header has "
        f"{len(PI.ground_pins())} GND pins ({', '.join(map(str, PI.ground_pins()))}): the "
        f"screen's goes to pin {OLED_GND} with its other three leads, the other "
        f"{pinout.ground_wires() - 1} meet on a ground bus (one stripboard track, or a "
        f"terminal strip) joined to GND pins {BUS_GND[0]} and {BUS_GND[1]}.",
        "",
        summary(pinout.loads(), PI_BUDGET, part),
        "",
        "| part | GPIO | header pin | note |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| {use} | {gpio} | {pin} | {note} |" for use, gpio, pin, note in _pi_rows(pinout)]
    oled = pinout.oled
    lines += [
        "",
        f"OLED: {oled.driver} at I2C address {oled.address:#04x} on bus {oled.bus}, "
        f"rotation {oled.rotate}. Enable I2C with `raspi-config nonint do_i2c 0`.",
        "",
        "## A handset",
        "",
        "A Raspberry Pi Pico (or Pico W): its pins by the Pico's own numbering (pin 1 is GP0, "
        "beside the USB socket). Buttons to ground (internal pull-ups); the LED through its "
        f"{_ohm(part.resistor)} to ground. Not the on-board LED (GP25): it is inside the case, "
        "and a Pico W's is on the radio chip.",
        "",
        summary(pinout.handset_loads(), PICO_BUDGET, part),
        "",
        "| part | GPIO | Pico pin | note |",
        "| --- | --- | --- | --- |",
    ]
    pico_rows = [(use, f"GP{pin}", PICO.pin_of(pin)) for use, pin in pinout.handset_pins().items()]
    lines += [f"| {use} | {gpio} | {pin} |  |" for use, gpio, pin in pico_rows]
    grounds = ", ".join(map(str, PICO.ground_pins()))
    lines.append(f"| ground | GND | {grounds} | any of them |")
    return "\n".join(lines) + "\n"


def _ohm(resistor: int) -> str:
    return f"{resistor // 1000} kohm" if resistor % 1000 == 0 else f"{resistor} ohm"


def _oled_name(pinout: Pinout) -> str:
    return f"{pinout.oled.driver.upper()} 128x64, I2C"


def _note(use: str) -> str:
    notes = {
        "button choice_a": "Work / Yes, under the privacy hood",
        "button choice_b": "Strike / No, under the privacy hood",
        "button peek": "under the privacy hood",
        "button ok": "hold: new game",
        "status LED a": "PWM, choice taken",
        "status LED b": "PWM, waiting",
        "buzzer": "through the NPN transistor",
        "OLED SDA": "I2C data",
        "OLED SCL": "I2C clock",
    }
    return notes.get(use, "")


def _screen(pinout: Pinout, module: OledModule | None) -> tuple[str, str]:
    if module is None:
        if pinout.oled.driver != "ssd1306":
            return (
                f'0.96" 128x64 {pinout.oled.driver.upper()} OLED module, I2C',
                'the screen; most SH1106 modules are 1.3" and do not fit the window: name '
                "yours in [oled_module] of hardware/panel.toml",
            )
        module = DEFAULT_OLED
    board, active = module.board_mm, module.active_mm
    return (
        f"{module.name}; board {board[0]:g} x {board[1]:g} mm, "
        f"lit {active[0]:g} x {active[1]:g} mm",
        f"the screen; the case's window is cut for this {module.diagonal_in:g}\" module",
    )


def _table(title: str, items: list[tuple[str, str, str]]) -> list[str]:
    lines = ["", f"## {title}", "", "| qty | part | for |", "| --- | --- | --- |"]
    return lines + [f"| {qty} | {part} | {use} |" for qty, part, use in items]


def bom(pinout: Pinout, module: OledModule | None = None) -> str:
    """The parts list: the box, what pads need at the box, and one handset."""
    part = pinout.led_part
    volts = f"{part.forward_voltage[0]:g}-{part.forward_voltage[1]:g} V at 1-2 mA"
    resistor = f"{_ohm(part.resistor)} resistor, {RESISTOR_TOLERANCE:.0%}, 1/4 W"
    leds = len(pinout.leds())
    screen, screen_use = _screen(pinout, module)
    box = [
        ("1", "Raspberry Pi Zero 2 W (or any 40-pin Pi) with 2x20 header", "the box's computer"),
        ("1", "microSD card, 8 GB or more", "Raspberry Pi OS Lite"),
        ("1", "5 V 2.5 A USB power supply", ""),
        ("1", screen, screen_use),
        (str(len(pinout.buttons)), "12 mm momentary push button", "up, down, OK, back, A, B, peek"),
        ("1", f"10-segment LED bar graph, red, high-efficiency ({volts})", "the main track"),
        ("2", f"3 mm LED, red, high-efficiency, diffused ({volts})", "status A and B"),
        (str(leds), resistor, "one per LED (hardware/wiring.md has the currents)"),
        ("1", f"5 V active {pinout.buzzer_type} buzzer, 12 mm", ""),
        ("1", "NPN transistor (2N2222 or BC547) and 1 kohm resistor", "switches the buzzer"),
    ]
    if pinout.buzzer_type == "magnetic":
        box.append(("1", "1N4148 diode", "across the buzzer: the coil's spike at switch-off"))
    box += [
        (
            "1",
            "stripboard, one track of 24 holes or more (or a 12-way terminal strip with links)",
            f"the ground bus: {pinout.ground_wires() - 1} of the {pinout.ground_wires()} "
            f"ground wires (the header has {len(PI.ground_pins())} GND pins)",
        ),
        (
            "1",
            "printed case: base, lid, privacy hood and A's riser (hardware/enclosure/)",
            "see assembly.md; print fit-coupon first",
        ),
        ("4", "self-adhesive rubber foot, about 10 mm", "under the base"),
        ("4", "M3 x 10 pan-head self-tapping screw", "lid to base"),
        ("4", "M2.5 x 6 pan-head self-tapping screw", "the Pi to its posts"),
        ("-", "hook-up wire, female Dupont leads", ""),
    ]
    pads = [
        ("1", "USB OTG adapter, micro-B plug to USB-A socket", "the Pi Zero's data port (USB)"),
        (
            "1",
            f"USB 2.0 hub with its own power supply, a port a pad (up to {HUB_PORTS})",
            "the pads' data and power",
        ),
    ]
    pins = pinout.handset_pins()
    handset = [
        ("1", "Raspberry Pi Pico or Pico W", "the pad's computer"),
        (
            "2",
            "12 mm momentary push button",
            f"A (GP{pins['pad button A']}), B (GP{pins['pad button B']})",
        ),
        ("1", f"3 mm LED, red, high-efficiency, diffused ({volts})", f"GP{pins['pad LED']}"),
        ("1", resistor, "the LED"),
        ("1", "USB cable, micro-B to USB-A, long enough to reach the box", "to the hub"),
        ("1", "printed handset case: base and lid (hardware/enclosure/)", "see assembly.md"),
        ("4", "M2 x 5 pan-head self-tapping screw", "the Pico to its posts"),
        ("4", "M3 x 10 pan-head self-tapping screw", "lid to base"),
        ("-", "hook-up wire", ""),
    ]
    lines = [
        "# Bill of materials (generated from hardware/pinout.toml: `companion hardware --write`)"
    ]
    lines += _table("The box", box)
    lines += _table("For handsets, at the box (once)", pads)
    lines += _table("A handset (one a seat)", handset)
    return "\n".join(lines) + "\n"
