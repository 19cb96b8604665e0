"""What the README tells a newcomer agrees with the code it describes."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_the_handsets_pins_are_the_firmwares():
    firmware = (ROOT / "firmware" / "handset.py").read_text()
    (pins,) = re.findall(r"^PINS = (\{.*\})$", firmware, re.MULTILINE)
    pins = ast.literal_eval(pins)
    assert pins == {"a": 14, "b": 15, "led": 16}
    assert f"| button A | GP{pins['a']} to ground" in README
    assert f"| button B | GP{pins['b']} to ground" in README
    assert f"| LED | GP{pins['led']} (header pin" in README


def test_the_service_reads_the_handsets_from_the_file_the_readme_names():
    """The whole merge, with the web, is tests/test_service.py's; here: the same file."""
    unit = (ROOT / "systemd" / "companion.service").read_text()
    assert "EnvironmentFile=-/etc/default/companion" in unit
    assert "ports in `/etc/default/companion`" in README
    assert "\n    COMPANION_ARGS=--handset /dev/ttyACM0" in README
    assert "DeviceAllow=char-ttyACM rw" in unit


def test_no_placeholder_is_left_for_the_reader_to_fill():
    assert not re.search(r"<this [a-z ]+>", README)
    assert "make dist" in README and "Python is 3.11 or newer" in README


def house_map() -> str:
    start = README.index("## The house")
    return README[start : README.index("```\n", README.index("```\n", start) + 4)]


def test_the_map_of_the_house_names_every_room_and_module_of_the_package():
    """Each package of companion/ and each of its own modules is on the README's map."""
    shown = house_map()
    package = ROOT / "companion"
    rooms = [p.name + "/" for p in package.iterdir() if (p / "__init__.py").exists()]
    modules = [p.name for p in package.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    missing = [name for name in [*rooms, *modules] if not re.search(rf"\b{re.escape(name)}", shown)]
    assert missing == [], f"not on the README's map: {missing}"


def test_every_file_a_module_docstring_cites_exists():
    """A docstring that sends the reader to ``companion/...`` or ``tests/...`` names a real
    file or folder."""
    import ast

    cited = re.compile(
        r"``?((?:companion|tests|hardware|firmware|systemd|bench|docs)/[\w./<>-]+)``?"
    )
    broken = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        for name in cited.findall(doc):
            if "<" in name or "*" in name:
                continue  # a pattern (companion/games/<name>/shape.py), not one file
            if not (ROOT / name.rstrip(".")).exists():
                broken.append(f"{path.relative_to(ROOT)}: {name}")
    assert broken == []
