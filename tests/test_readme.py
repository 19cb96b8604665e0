"""What the README tells a newcomer agrees with the code it describes."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_the_handsets_pins_are_the_firmwares():
    firmware = (ROOT / "firmware" / "handset.py").read_text()
    pins = dict(re.findall(r"(\w+) = Pin\((\d+),", firmware))
    assert pins == {"led": "25", "a": "14", "b": "15"}
    assert f"| button A | GP{pins['a']} to ground" in README
    assert f"| button B | GP{pins['b']} to ground" in README
    assert f"| LED | GP{pins['led']}," in README


def test_the_service_drop_in_runs_the_units_command_with_handsets():
    unit = (ROOT / "systemd" / "companion.service").read_text()
    (command,) = re.findall(r"^ExecStart=(.+)$", unit, re.MULTILINE)
    assert f"    ExecStart={command} --handset /dev/ttyACM0" in README
    assert "DeviceAllow=char-ttyACM rw" in unit


def test_no_placeholder_is_left_for_the_reader_to_fill():
    assert not re.search(r"<this [a-z ]+>", README)
    assert "make dist" in README and "Python is 3.11 or newer" in README
