"""The panel layout (hardware/panel.toml) places exactly the parts the pinout wires.

Plain TOML, no CAD: these run wherever the box does.
"""

import os
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
    check_against_pinout,
    load_layout,
    parse_layout,
)


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
        (lambda d: d["oled"].pop("glass"), r"\[oled\]: 'glass' is missing"),
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


def test_the_case_files_are_committed_so_that_make_dist_ships_them():
    """``make dist`` packs the committed tree: every piece's STL and STEP, and the picture."""
    folder = DEFAULT_PATH.parent / "enclosure"
    tracked = subprocess.run(
        ["git", "ls-files", "."], cwd=folder, capture_output=True, text=True, check=True
    ).stdout.split()
    pieces = ("box-base", "box-lid", "box-hood", "handset-base", "handset-lid")
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
    text = DEFAULT_PATH.read_text().replace("peek = [0.0, -5.0]\n", "")
    (tmp_path / "panel.toml").write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "companion", "hardware", "--pinout", str(tmp_path / "pinout.toml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    assert "no place for peek" in out.stdout + out.stderr
