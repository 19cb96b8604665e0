"""The wiring table and bill of materials, generated from the pinout.

Header pin numbers come from gpiozero's own board data, so the table cannot
drift from what gpiozero drives. ``companion hardware --write`` regenerates
``hardware/wiring.md`` and ``hardware/bom.md``, and the printed case's files
when the ``cad`` extra is installed; a test checks they match.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from companion.box.pinout import Pinout, PinoutError
from companion.enclosure.layout import Layout, check_against_pinout, load_layout

HEADER = "J8"  # the 40-pin header, the same on a Pi Zero 2 W and every Pi since the B+


def header_pin(gpio: int) -> int:
    factory = MockFactory()
    try:
        for header, info in factory.board_info.find_pin(f"GPIO{gpio}"):
            if header.name == HEADER:
                return info.number
    finally:
        factory.close()
    raise PinoutError(f"GPIO{gpio} is not on the {HEADER} header")


def ground_pins() -> list[int]:
    factory = MockFactory()
    try:
        return sorted(
            info.number
            for header, info in factory.board_info.find_pin("GND")
            if header.name == HEADER
        )
    finally:
        factory.close()


def wiring(pinout: Pinout) -> str:
    rows = [
        ("OLED VCC", "3V3", 1, "SSD1306/SH1106 128x64, I2C"),
        ("OLED GND", "GND", 9, ""),
    ]
    rows += [(use, f"GPIO{pin}", header_pin(pin), _note(use)) for use, pin in pinout.pins().items()]
    rows.sort(key=lambda r: r[2])
    lines = [
        "# Wiring (generated from hardware/pinout.toml: `companion hardware --write`)",
        "",
        f"Raspberry Pi 40-pin header {HEADER} (Zero 2 W, 3, 4, 5). Buttons connect the GPIO to",
        "ground when pressed (internal pull-ups, no resistor). Each LED: GPIO -> 330 ohm ->",
        "LED anode, cathode -> ground. Buzzer: GPIO -> 1 kohm -> NPN base; the buzzer",
        "between 5V (pin 2) and the collector; emitter to ground.",
        f"Ground pins: {', '.join(map(str, ground_pins()))}.",
        "",
        "| part | GPIO | header pin | note |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| {use} | {gpio} | {pin} | {note} |" for use, gpio, pin, note in rows]
    oled = pinout.oled
    lines += [
        "",
        f"OLED: {oled.driver} at I2C address {oled.address:#04x} on bus {oled.bus}, "
        f"rotation {oled.rotate}. Enable I2C with `raspi-config nonint do_i2c 0`.",
    ]
    return "\n".join(lines) + "\n"


def _note(use: str) -> str:
    notes = {
        "button choice_a": "Work / Yes, under the privacy hood",
        "button choice_b": "Strike / No, under the privacy hood",
        "button peek": "under the privacy hood",
        "button ok": "hold: new game",
        "status LED a": "PWM, choice taken",
        "status LED b": "PWM, waiting",
        "OLED SDA": "I2C data",
        "OLED SCL": "I2C clock",
    }
    return notes.get(use, "")


def bom(pinout: Pinout) -> str:
    buttons = len(pinout.buttons)
    leds = len(pinout.bar) + 2
    items = [
        ("1", "Raspberry Pi Zero 2 W (or any 40-pin Pi) with 2x20 header", "the box's computer"),
        ("1", "microSD card, 8 GB or more", "Raspberry Pi OS Lite"),
        ("1", "5 V 2.5 A USB power supply", ""),
        ("1", f"{pinout.oled.driver.upper()} 128x64 OLED module, I2C", "the screen"),
        (str(buttons), "12 mm momentary push button", "up, down, OK, back, A, B, peek"),
        ("1", "10-segment LED bar graph", "the main track"),
        ("2", "3 mm LED", "status A and B"),
        (str(leds), "330 ohm resistor", "one per LED"),
        ("1", "5 V active buzzer", ""),
        ("1", "NPN transistor (2N2222 or BC547) and 1 kohm resistor", "drives the buzzer"),
        ("1", "printed case: base, lid and privacy hood (hardware/enclosure/)", "see assembly.md"),
        ("4", "M3 x 10 pan-head self-tapping screw", "lid to base"),
        ("4", "M2.5 x 6 pan-head self-tapping screw", "the Pi to its posts"),
        ("-", "hook-up wire, female Dupont leads", ""),
    ]
    lines = [
        "# Bill of materials (generated from hardware/pinout.toml: `companion hardware --write`)",
        "",
        "| qty | part | for |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {qty} | {part} | {use} |" for qty, part, use in items]
    return "\n".join(lines) + "\n"


def panel_layout(pinout: Pinout, folder: Path) -> Layout:
    """The panel layout beside the pinout, refused unless it places exactly the wired parts."""
    layout = load_layout(folder / "panel.toml")
    check_against_pinout(layout, pinout)
    return layout


def write_enclosure(layout: Layout, folder: Path) -> Iterator[str]:
    """Write the printed case's files, one line of news each; say so if CAD is missing."""
    try:
        from companion.enclosure import files
    except ImportError as exc:
        yield (
            f"{folder}: not regenerated, the CAD library is missing ({exc.name}): "
            "pip install -e '.[cad]'"
        )
        return
    for path in files.write(layout, folder):
        yield f"wrote {path}"
