"""The panel layout (hardware/panel.toml) places exactly the parts the pinout wires.

Plain TOML, no CAD: these run wherever the box does.
"""

import os
import re
import subprocess
import sys
import tomllib

import pytest

from companion.box.pinout import DEFAULT_PATH as PINOUT
from companion.box.pinout import load_pinout
from companion.box.wiring import wiring
from companion.enclosure.layout import (
    DEFAULT_PATH,
    LayoutError,
    active_area,
    check_against_pinout,
    load_layout,
    oled_window,
    parse_layout,
)

# The usual 1.3" module (SH1106): its panel's datasheet gives a 29.42 x 14.7 mm active area
# on 34.5 x 23 mm of glass; the boards are about 35 x 33 mm.
SH1106_13 = {
    "name": "1.3 inch SH1106 128x64 OLED module, I2C",
    "diagonal_in": 1.3,
    "board_mm": [35.4, 33.5],
    "glass_mm": [34.5, 23.0, 1.4],
    "active_mm": [29.42, 14.7],
    "holes_mm": [30.4, 28.3],
}


def good_layout():
    return tomllib.loads(DEFAULT_PATH.read_text())


def test_the_shipped_layout_places_every_wired_part_and_nothing_else():
    layout, pinout = load_layout(), load_pinout()
    check_against_pinout(layout, pinout)
    assert set(layout.buttons) == set(pinout.buttons)
    assert layout.parts() == {*pinout.buttons, "bar", "status_a", "status_b", "buzzer", "oled"}


def test_the_hood_covers_what_the_wiring_says_is_under_it():
    under = {
        line.split("|")[1].strip().removeprefix("button ")
        for line in wiring(load_pinout()).splitlines()
        if "under the privacy hood" in line
    }
    assert under == {"choice_a", "choice_b", "peek"}
    assert set(load_layout().hood.covers) == under | {"oled"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["buttons"].pop("peek"), "no place for peek"),
        (lambda d: d["buttons"].update(turbo=[0.0, 0.0]), "turbo is not wired"),
        (lambda d: d["hood"].update(covers=["oled", "screen"]), "'screen' is not a part"),
    ],
)
def test_a_layout_that_disagrees_with_the_pinout_is_refused(change, message):
    data = good_layout()
    change(data)
    with pytest.raises(LayoutError, match=message):
        check_against_pinout(parse_layout(data), load_pinout())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["oled_module"].pop("glass_mm"), r"\[oled_module\]: 'glass_mm' is missing"),
        (lambda d: d["oled_module"].update(name=0.96), "oled_module.name: expected a name"),
        (lambda d: d["riser"].update(under="turbo"), "riser.under: 'turbo' is not a button"),
        (lambda d: d["box"].update(wall="thick"), "box.wall: expected a number, found 'thick'"),
        (lambda d: d["buttons"].update(ok=[1.0]), "buttons.ok: expected 2 numbers"),
        (lambda d: d["hood"].update(roof=3.0), r"\[hood\]: unknown key 'roof'"),
        (lambda d: d.pop("handset"), r"the \[handset\] section is missing"),
    ],
)
def test_a_broken_layout_says_which_line_is_wrong(change, message):
    data = good_layout()
    change(data)
    with pytest.raises(LayoutError, match=message):
        parse_layout(data)


def test_the_screens_window_is_cut_from_the_modules_active_area():
    layout = load_layout()
    module = layout.oled_module
    assert module.diagonal_in == 0.96 and "SSD1306" in module.name
    assert module.board_mm == (27.3, 27.8) and module.active_mm == (21.74, 10.86)
    (wx0, wx1), (wy0, wy1) = oled_window(layout)
    (ax0, ax1), (ay0, ay1) = active_area(layout)
    side, front = layout.oled.window_margin
    assert (ax1 - ax0, ay1 - ay0) == pytest.approx(module.active_mm)
    assert (ax0 - wx0, wx1 - ax1, ay0 - wy0, wy1 - ay1) == pytest.approx((side, side, front, side))
    gx, gy = module.glass_mm[0] / 2, module.glass_mm[1] / 2  # the glass covers the opening
    x, y = layout.oled.at
    assert x - gx < wx0 and wx1 < x + gx and y - gy < wy0 and wy1 < y + gy


def test_the_bom_reads_the_module_by_these_keys():
    module = good_layout()["oled_module"]
    assert isinstance(module["name"], str) and module["diagonal_in"] == 0.96
    assert len(module["board_mm"]) == 2 and len(module["active_mm"]) == 2


def test_a_13_inch_module_needs_another_window():
    """The SH1106 1.3" module's lit area does not show through the 0.96" window; declared in
    the layout, the window follows it and grows."""
    small = load_layout()
    (wx0, wx1), (wy0, wy1) = oled_window(small)
    assert SH1106_13["active_mm"][0] > wx1 - wx0
    data = good_layout()
    data["oled_module"].update(SH1106_13)
    large = parse_layout(data)
    (lx0, lx1), (ly0, ly1) = oled_window(large)
    assert lx1 - lx0 > wx1 - wx0 + 7 and ly1 - ly0 > wy1 - wy0 + 3


def test_a_window_larger_than_the_glass_is_refused():
    data = good_layout()
    data["oled_module"].update(active_mm=SH1106_13["active_mm"])  # on the 0.96" glass
    with pytest.raises(LayoutError, match="larger than the glass"):
        parse_layout(data)


def test_the_case_files_are_committed_so_that_make_dist_ships_them():
    """``make dist`` packs the committed tree: every piece's STL and STEP, and the picture."""
    folder = DEFAULT_PATH.parent / "enclosure"
    tracked = subprocess.run(
        ["git", "ls-files", "."], cwd=folder, capture_output=True, text=True, check=True
    ).stdout.split()
    pieces = (
        "box-base",
        "box-lid",
        "box-hood",
        "box-riser",
        "handset-base",
        "handset-lid",
        "fit-coupon",
    )
    expected = {f"{p}.{ext}" for p in pieces for ext in ("stl", "step")} | {"box.png"}
    assert set(tracked) == expected == {p.name for p in folder.iterdir()}


def test_the_hardware_command_without_cad_writes_the_docs_and_says_what_it_skipped(tmp_path):
    """On a Pi (no ``cad`` extra) ``--write`` still writes the wiring and BOM."""
    (tmp_path / "pinout.toml").write_text(PINOUT.read_text())
    (tmp_path / "panel.toml").write_text(DEFAULT_PATH.read_text())
    blocked = "import sys, runpy; sys.modules['build123d'] = None; sys.argv = sys.argv[1:]; "
    blocked += "runpy.run_module('companion', run_name='__main__', alter_sys=True)"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            blocked,
            "companion",
            "hardware",
            "--write",
            "--pinout",
            str(tmp_path / "pinout.toml"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert (tmp_path / "wiring.md").exists() and (tmp_path / "bom.md").exists()
    assert "not regenerated, the CAD library is missing (build123d)" in out.stdout
    assert not (tmp_path / "enclosure").exists()


def test_the_hardware_command_refuses_a_layout_that_forgets_a_part(tmp_path):
    (tmp_path / "pinout.toml").write_text(PINOUT.read_text())
    text = re.sub(r"(?m)^peek = .*\n", "", DEFAULT_PATH.read_text())
    assert text != DEFAULT_PATH.read_text()
    (tmp_path / "panel.toml").write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "companion", "hardware", "--pinout", str(tmp_path / "pinout.toml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    assert "no place for peek" in out.stdout + out.stderr
