"""The bench measures the box, not the process that runs it; the first frame loads only what
it draws with."""

import dataclasses
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterable

from companion.bench import COLD_START, REAL_START, cold_start


def test_cold_start_memory_does_not_count_what_the_parent_holds():
    held = bytearray(b"\x01") * (200 << 20)  # 200 MiB, written so that it is resident
    try:
        peak = cold_start()["peak_rss_mib"]
    finally:
        del held
    # A first frame costs some 40 MiB; a child reporting its parent's peak said 211.
    assert 10 < peak < 120


def modules_after(script: str) -> set[str]:
    listing = script + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", listing], capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_the_first_frame_loads_nothing_it_does_not_draw_with():
    """gpiozero loads importlib.metadata for an entry-point lookup the box never makes (it
    names its pin factory), pyserial is for handsets (none here), hmac for ``secrets`` (the
    CSPRNG is ``random``'s), the journal's module and sqlite3 for a journal (none here),
    gpiozero's boards and internal devices (with subprocess) for devices the box does not
    have, luma's multiprocessing for a backlight fade, zipfile and tempfile for packages in a
    zip, gettext for French, hashlib (OpenSSL) for the journal's checksums: none is loaded
    before the first frame."""
    unneeded = {
        "importlib.metadata",
        "serial",
        "hmac",
        "companion.box.handsets",
        "companion.store",
        "companion.trust",
        "sqlite3",
        "gpiozero.boards",
        "gpiozero.internal_devices",
        "subprocess",
        "multiprocessing",
        "socket",
        "zipfile",
        "tempfile",
        "gettext",
        "hashlib",
    }
    first_frame = modules_after(COLD_START)
    assert {"gpiozero", "luma.oled.device", "PIL.Image"} <= first_frame  # it did draw
    assert first_frame & unneeded == set()
    # The check can fail: each of these, imported plainly, loads some of them.
    assert "importlib.metadata" in modules_after("import gpiozero")
    assert {"gpiozero.boards", "subprocess"} <= modules_after("import gpiozero.pins.mock")
    assert "multiprocessing" in modules_after("import luma.oled.device")
    assert "gettext" in modules_after("from companion.ui.i18n import translator; translator('fr')")


def test_the_real_start_loads_the_journal_and_what_no_frame_uses_after_its_first_frame(tmp_path):
    """``companion run`` as the service starts it, to its setup form: the journal's module
    (with sqlite3 and the record checks) comes once the form is up, ``socket`` when systemd
    asks for a word, ``signal`` when the service's loop begins, gpiozero's ``statistics``
    (with ``fractions`` and ``decimal``) and ``colorzero`` when called, the terminal front
    end with a terminal: none is loaded before the first frame."""
    deferred = {
        "companion.store",
        "companion.trust",
        "sqlite3",
        "socket",
        "signal",
        "statistics",
        "fractions",
        "decimal",
        "colorzero",
        "companion.box.terminal",
        "tomllib",  # the pinout as written is plain: companion.box.plain_toml reads it
        "shutil",  # argparse's formatters that only check an argument: companion.cli
    }
    env = {**os.environ, "COMPANION_DATA": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", REAL_START, "--modules"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    first_frame = set(json.loads(out.stdout))
    assert {"companion.cli", "companion.table", "gpiozero", "PIL.Image"} <= first_frame
    assert first_frame & deferred == set()
    # The box's and the table's records are value classes: a dataclass compiles its methods
    # at import, 2-3 M instructions each (companion.valueclass).
    assert made_with_dataclass(m for m in first_frame if m.startswith(OWN_RECORDS)) == []
    # the journal is not even created yet: only the lock that keeps a second box off it
    assert [p.name for p in tmp_path.iterdir()] == ["journal.sqlite.lock"]
    # The check can fail: each of these, imported plainly or used, loads some of them.
    assert {"statistics", "fractions", "decimal"} <= modules_after("import gpiozero.input_devices")
    assert "colorzero" in modules_after("import gpiozero.output_devices")
    assert "signal" in modules_after("import companion.box.terminal")
    assert "sqlite3" in modules_after("import companion.store")
    assert "companion.trust" in modules_after("from companion.trust import trusted_game")
    assert "shutil" in modules_after(
        "import argparse\nargparse.ArgumentParser().add_argument('-x')"
    )
    odd = tmp_path / "odd.toml"  # a pinout in TOML that is not plain: tomllib reads it
    odd.write_text('[buttons]\nup = "an\\tescape"\n', encoding="utf-8")
    reading = f"from companion.box.pinout import load_pinout\ntry:\n    load_pinout({str(odd)!r})\n"
    assert "tomllib" in modules_after(reading + "except Exception:\n    pass")
    notify = "import os\nfrom companion.service import notify\nos.environ['NOTIFY_SOCKET'] = '@x'\n"
    assert "socket" in modules_after(
        notify + "try:\n    notify('READY=1')\nexcept OSError:\n    pass"
    )


#: the packages on the start path whose records are value classes, not dataclasses
OWN_RECORDS = ("companion.table", "companion.box", "companion.cli", "companion.valueclass")


def made_with_dataclass(modules: Iterable[str]) -> list[str]:
    """The classes of ``modules`` made by ``@dataclass``."""
    found = []
    for name in sorted(modules):
        for cls in vars(importlib.import_module(name)).values():
            if isinstance(cls, type) and cls.__module__ == name and dataclasses.is_dataclass(cls):
                found.append(f"{name}.{cls.__qualname__}")
    return found


def test_the_check_for_dataclasses_can_fail():
    assert made_with_dataclass(["companion.ui.canvas"]) == ["companion.ui.canvas.Screen"]


LOADED = """
import json, sys
print(json.dumps({name: type(sys.modules[name]).__name__ == "module" for name in NAMES}))
"""


def loaded_after(script: str, names: list[str]) -> dict[str, bool]:
    """Which of ``names`` have run their body after ``script`` (a lazy one is only there)."""
    listing = f"NAMES = {names!r}\n{script}\n{LOADED}"
    out = subprocess.run(
        [sys.executable, "-c", listing], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def test_pillows_tag_tables_load_on_first_use_only():
    """``PIL.Image`` imports its TIFF and EXIF tables, which the box never reads: they are
    there before the first frame, but not yet run; the first name read from them runs them."""
    tables = ["PIL.ExifTags", "PIL.TiffTags", "cbor2"]
    assert loaded_after(COLD_START, tables) == dict.fromkeys(tables, False)
    used = COLD_START + "\nfrom PIL import ExifTags, TiffTags\nimport cbor2\n"
    used += "assert ExifTags.Base.Orientation == 274 and TiffTags.TAGS[256] == 'ImageWidth'\n"
    used += "assert cbor2.loads(cbor2.dumps([1])) == [1]\n"
    assert loaded_after(used, tables) == dict.fromkeys(tables, True)
    # The check can fail: without companion, Pillow runs them at once.
    assert loaded_after("import PIL.Image", tables[:2]) == dict.fromkeys(tables[:2], True)


def test_the_speed_loop_plays_every_game_with_both_kinds_of_bots():
    """``bench/compare.py`` times this loop in an older tree too, so it passes the options
    whose default changed at their old value (Kolkhoz dealt by the box): options every
    game still has, and games that every bot plays to the end."""
    from companion.games import GAMES, game_class
    from companion.speed import OPTIONS, play_games

    for name, options in OPTIONS.items():
        assert game_class(name).defaults().keys() >= options.keys()
    for name in GAMES:
        for bots in ("smart", "random"):
            play_games(name, game_class(name).min_players, 1, seed=3, bots=bots)
