"""The electrical side of the pinout: each board's header, the GPIO current budget, the
buzzer's drive, the BOM, the wiring diagram, and box/ never reading the case."""

import ast
import shutil
import tomllib
from pathlib import Path
from xml.etree import ElementTree

import pytest
from gpiozero.pins.mock import MockFactory

from companion.box.diagram import diagram
from companion.box.drive import PI_BUDGET, PICO_BUDGET, LedPart, Load, base_current_ma, check
from companion.box.headers import PI, PICO
from companion.box.pinout import DEFAULT_PATH, PinoutError, load_pinout, parse_pinout
from companion.box.wiring import bom, wiring
from companion.cli import main
from companion.enclosure.layout import DEFAULT_PATH as PANEL
from companion.hardware import documents, panel_layout

HARDWARE = DEFAULT_PATH.parent
PACKAGE = Path(__file__).resolve().parents[1] / "companion"


def good_pinout():
    return tomllib.loads(DEFAULT_PATH.read_text())


def changed(edit):
    data = good_pinout()
    edit(data)
    return data


# -- the headers -------------------------------------------------------------------


def test_the_pis_header_table_is_gpiozeros():
    factory = MockFactory()
    try:
        j8 = factory.board_info.headers["J8"]
        theirs = tuple(j8.pins[n].name for n in range(1, 41))
    finally:
        factory.close()
    assert theirs == PI.pins
    assert PI.gpios() == list(range(28)) and len(PI.ground_pins()) == 8


def test_the_picos_header_breaks_out_what_its_datasheet_says():
    assert PICO.gpios() == [*range(23), 26, 27, 28]
    assert PICO.pin_of(0) == 1 and PICO.pin_of(15) == 20 and PICO.pin_of(16) == 21
    assert PICO.pin_of(28) == 34 and PICO.ground_pins() == [3, 8, 13, 18, 23, 28, 33, 38]
    assert PICO.place(1) == (0, 0) and PICO.place(21) == (1, 19) and PICO.place(40) == (1, 0)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["handset"].update(led=25),
            r"^handset\.led: GP25 is not on the Raspberry Pi Pico's header "
            r"\(it breaks out GP0-GP22, GP26-GP28\)$",
        ),
        (lambda d: d["handset"].update(led=23), "^handset.led: GP23 is not on the .*Pico"),
        (lambda d: d["handset"].update(a=29), "^handset.a: GP29 is not on the .*Pico"),
        (
            lambda d: d["buttons"].update(ok=28),
            r"^buttons\.ok: GPIO28 is not on the Raspberry Pi's header "
            r"\(it breaks out GPIO0-GPIO27\)$",
        ),
        (lambda d: d["leds"]["bar"].__setitem__(3, 40), r"^leds\.bar\[3\]: GPIO40 is not on"),
        (lambda d: d["buzzer"].update(pin=-1), "^buzzer.pin: GPIO-1 is not on"),
        (lambda d: d["buttons"].update(ok=0), "^buttons.ok: GPIO0 is kept for a HAT's ID EEPROM"),
        (lambda d: d["leds"].update(status_a=3), "^GPIO3 is wired twice: to .* and to OLED SCL$"),
        (lambda d: d["handset"].update(led=14), "^GP14 is wired twice: to pad button A and"),
        (lambda d: d["handset"].pop("led"), r"^\[handset\]: 'led' is missing$"),
        (lambda d: d["handset"].update(rgb=3), r"^\[handset\]: unknown part 'rgb'"),
        (lambda d: d.pop("handset"), r"the \[handset\] section is missing$"),
    ],
)
def test_a_pin_off_its_boards_header_is_refused_in_one_line(edit, message):
    with pytest.raises(PinoutError, match=message) as refused:
        parse_pinout(changed(edit))
    assert "\n" not in str(refused.value)


def test_every_pin_a_board_breaks_out_is_taken():
    free_pico = [g for g in PICO.gpios() if g not in (14, 15)]
    for gpio in free_pico:
        assert (
            parse_pinout(changed(lambda d, g=gpio: d["handset"].update(led=g))).handset["led"]
            == gpio
        )
    used = set(load_pinout().pins().values())
    for gpio in sorted(set(PI.gpios()) - used - PI.reserved):
        assert parse_pinout(changed(lambda d, g=gpio: d["buzzer"].update(pin=g))).buzzer == gpio


# -- the GPIO budget ---------------------------------------------------------------


def test_the_led_drive_is_computed_from_the_declared_parts():
    pinout = load_pinout()
    part = pinout.led_part
    assert part == LedPart(1000, (1.8, 2.2))
    low, high = part.current_ma()
    assert low == pytest.approx((3.3 - 2.2) / 1050 * 1000)  # 1.05 mA: highest Vf, R + 5 %
    assert high == pytest.approx((3.3 - 1.8) / 950 * 1000)  # 1.58 mA: lowest Vf, R - 5 %
    assert base_current_ma() == pytest.approx((3.3 - 0.7) / 950 * 1000)  # 2.74 mA
    total = sum(load.ma for load in pinout.loads())
    assert len(pinout.loads()) == 13  # twelve LEDs and the buzzer's base
    assert total == pytest.approx(12 * high + base_current_ma())  # 21.7 mA
    assert total <= PI_BUDGET.total_ma and high <= PI_BUDGET.per_pin_ma
    assert "at most 21.7 mA from 13 GPIOs" in wiring(pinout)


@pytest.mark.parametrize(
    ("resistor", "message"),
    [
        # The old 330 ohm: 12 x (3.3 - 1.8..2.0) V / 330 ohm = 47-55 mA nominal.
        (330, r"would source up to 60\.2 mA with every LED on, over its 25 mA budget"),
        (150, r"bar LED 1 \(GPIO4\) draws up to 10\.5 mA, over the Raspberry Pi's 8 mA a pin"),
        (10_000, r"leds\.resistor: 10000 ohm gives as little as 0\.10 mA an LED, too dim"),
        (0, r"leds\.resistor: 0 ohm is not a resistor"),
    ],
)
def test_leds_outside_the_budget_are_refused(resistor, message):
    with pytest.raises(PinoutError, match=message):
        parse_pinout(changed(lambda d: d["leds"].update(resistor=resistor)))


def test_the_picos_budget_is_its_own():
    """The Pico's pins are weaker (4 mA by default): a pad's LED is checked against that."""
    part = load_pinout().led_part
    assert check([Load("pad LED (GP16)", 3.9)], PICO_BUDGET, part) == 3.9
    with pytest.raises(
        PinoutError,
        match=r"^pad LED \(GP16\) draws up to 4\.5 mA, over the "
        r"Raspberry Pi Pico's 4 mA a pin",
    ):
        check([Load("pad LED (GP16)", 4.5)], PICO_BUDGET, part)


# -- the buzzer --------------------------------------------------------------------


def test_the_buzzer_is_driven_as_its_type_needs():
    magnetic = load_pinout()
    assert magnetic.buzzer_type == "magnetic"
    piezo = parse_pinout(changed(lambda d: d["buzzer"].update(type="piezo")))
    for text in (bom(magnetic), wiring(magnetic), diagram(magnetic)):
        assert "1N4148" in text
    for text in (bom(piezo), wiring(piezo), diagram(piezo)):
        assert "1N4148" not in text and "NPN" in text
    assert "| 1 | 5 V active magnetic buzzer" in bom(magnetic)
    with pytest.raises(PinoutError, match=r"^buzzer\.type: 'loud' is not one of magnetic, piezo$"):
        parse_pinout(changed(lambda d: d["buzzer"].update(type="loud")))


# -- the BOM -----------------------------------------------------------------------


def section(text, title):
    part = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    return [line for line in part.splitlines() if line.startswith("| ") and "---" not in line]


def test_the_bom_has_a_handset_the_ground_bus_the_hub_and_the_screen_by_size():
    text = bom(load_pinout())
    handset = "\n".join(section(text, "A handset (one a seat)"))
    for part in (
        "| 1 | Raspberry Pi Pico",
        "| 2 | 12 mm momentary push button | A (GP14), B (GP15)",
        "| 1 | 3 mm LED",
        "| 1 | 1 kohm resistor",
        "| 1 | USB cable, micro-B",
        "| 1 | printed handset case",
    ):
        assert part in handset
    at_box = "\n".join(section(text, "For handsets, at the box (once)"))
    assert "USB OTG adapter" in at_box and "USB 2.0 hub" in at_box
    box = "\n".join(section(text, "The box"))
    # 7 buttons + 12 LEDs + the transistor's emitter + the screen = 21 ground wires
    assert "the ground bus: 20 of the 21 ground wires (the header has 8 GND pins)" in box
    assert '| 1 | 0.96" 128x64 SSD1306 OLED module' in box
    assert "| 12 | 1 kohm resistor, 5%" in box


def test_the_bom_names_the_screen_module_the_panel_layout_names(tmp_path):
    shutil.copy(DEFAULT_PATH, tmp_path / "pinout.toml")
    table = (
        '\n[oled_module]\nname = "0.96 inch SSD1306 module, blue"\ndiagonal_in = 0.96\n'
        "board_mm = [27.3, 27.8]\nactive_mm = [21.74, 10.86]\n"
    )
    (tmp_path / "panel.toml").write_text(PANEL.read_text() + table)
    pinout = load_pinout(tmp_path / "pinout.toml")
    text = documents(pinout, panel_layout(pinout, tmp_path), tmp_path)[tmp_path / "bom.md"]
    assert "| 1 | 0.96 inch SSD1306 module, blue; board 27.3 x 27.8 mm, lit 21.74 x 10.86" in text
    (tmp_path / "panel.toml").write_text(PANEL.read_text() + table.replace("0.96\n", '"big"\n'))
    with pytest.raises(PinoutError, match=r"panel.toml: oled_module.diagonal_in: expected inches"):
        documents(pinout, panel_layout(pinout, tmp_path), tmp_path)


def test_an_sh1106_without_a_named_module_warns_of_the_larger_one():
    text = bom(parse_pinout(changed(lambda d: d["oled"].update(driver="sh1106"))))
    assert 'most SH1106 modules are 1.3" and do not fit the window' in text


# -- the wiring diagram --------------------------------------------------------------


def pins_drawn(svg: str) -> dict[tuple[str, str], tuple[int, str, str]]:
    """(board, part) -> (physical pin, signal, the group's visible text), from the SVG."""
    drawn = {}
    for group in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}g"):
        if group.get("class") == "pin":
            text = " ".join(t.text or "" for t in group.iter("{http://www.w3.org/2000/svg}text"))
            key = (group.get("data-board"), group.get("data-part"))
            drawn[key] = (int(group.get("data-pin")), group.get("data-signal"), text)
    return drawn


def test_the_committed_diagram_shows_every_pin_of_the_pinout_with_its_part():
    pinout = load_pinout()
    committed = (HARDWARE / "wiring.svg").read_text()
    assert committed == diagram(pinout)  # regenerated, it is the same picture
    drawn = pins_drawn(committed)
    wanted = {("Raspberry Pi", use): (PI, gpio) for use, gpio in pinout.pins().items()}
    wanted |= {("Raspberry Pi Pico", use): (PICO, g) for use, g in pinout.handset_pins().items()}
    for (board, use), (header, gpio) in wanted.items():
        pin, signal, text = drawn[board, use]
        assert (pin, signal) == (header.pin_of(gpio), header.gpio_name(gpio))
        assert use in text and signal in text
    extra = {key for key in drawn if key not in wanted}
    assert {use for _, use in extra} == {
        "OLED VCC",
        "OLED GND",
        "buzzer 5V",
        "ground bus",
        "ground",
    }
    assert "(wiring.svg)" in (HARDWARE / "assembly.md").read_text()


def test_the_diagram_moves_with_the_pinout():
    moved = parse_pinout(changed(lambda d: d["buzzer"].update(pin=8)))
    pin, signal, _ = pins_drawn(diagram(moved))["Raspberry Pi", "buzzer"]
    assert (pin, signal) == (24, "GPIO8")


def test_the_hardware_check_finds_a_stale_diagram(tmp_path, capsys):
    shutil.copy(DEFAULT_PATH, tmp_path / "pinout.toml")
    shutil.copy(PANEL, tmp_path / "panel.toml")
    pinout = load_pinout(tmp_path / "pinout.toml")
    for path, text in documents(pinout, panel_layout(pinout, tmp_path), tmp_path).items():
        path.write_text(text)
    args = ["hardware", "--pinout", str(tmp_path / "pinout.toml")]
    assert main(args) == 0
    svg = tmp_path / "wiring.svg"
    svg.write_text(svg.read_text().replace('data-part="buzzer"', 'data-part="bell"'))
    assert main(args) == 1
    assert "out of date with the pinout: " + str(svg) in capsys.readouterr().out


# -- box/ and enclosure/ ---------------------------------------------------------------


def imports_of(package: str) -> set[str]:
    """Every package of ``companion`` that a module of ``package`` imports, at any depth of
    the module (a lazy import inside a function counts)."""
    found = set()
    for path in (PACKAGE / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level:
                found.add(package)  # relative: inside its own package
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module + "." + a.name for a in node.names]
            found |= {n.split(".")[1] for n in names if n.startswith("companion.") and "." in n}
    return found


def test_the_box_never_imports_the_case():
    """The case is built around the box's parts: enclosure/ may read the pinout, box/
    never reads the case (``companion.hardware`` is the one place that reads both)."""
    assert "box" in imports_of("enclosure")  # the layout is checked against the pinout
    assert "enclosure" not in imports_of("box")
