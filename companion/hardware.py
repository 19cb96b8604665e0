"""The ``companion hardware`` command's work: the wiring docs and diagram from the pinout,
the printed case from the panel layout.

The one module that reads both sides. The case is built around the box's parts, so
``companion.enclosure`` may read the pinout, and ``companion.box`` never reads the case
(a test walks the imports to keep it so); what the BOM needs from the case (the screen
module's size) is handed to ``box.wiring`` from here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

from companion.box.diagram import diagram
from companion.box.pinout import Pinout
from companion.box.wiring import OledModule, bom, oled_module, wiring
from companion.enclosure.layout import Layout, check_against_pinout, load_layout


def panel_layout(pinout: Pinout, folder: Path) -> Layout:
    """The panel layout beside the pinout, refused unless it places exactly the wired parts."""
    layout = load_layout(folder / "panel.toml")
    check_against_pinout(layout, pinout)
    return layout


def screen_module(layout: Layout) -> OledModule | None:
    """The screen module the layout names in ``[oled_module]``, if it names one."""
    path = Path(layout.source)
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("oled_module")
    return None if table is None else oled_module(table, str(path))


def documents(pinout: Pinout, layout: Layout, folder: Path) -> dict[Path, str]:
    """Every file generated from the pinout, by where it goes."""
    return {
        folder / "wiring.md": wiring(pinout),
        folder / "bom.md": bom(pinout, screen_module(layout)),
        folder / "wiring.svg": diagram(pinout),
    }


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
