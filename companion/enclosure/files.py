"""The enclosure's committed files: STL and STEP of each printed piece, and the picture.

``companion hardware --write`` writes them from the layout; :func:`differences` says which
committed file no longer matches what the layout makes. Meshes and STEP headers vary
between CAD versions, so files are compared by what matters to a printer: the volume and
the bounding box, within 0.01 mm.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import trimesh
from build123d import Part, Pos, export_step, import_step

from companion.enclosure import solids
from companion.enclosure.layout import Layout
from companion.enclosure.mesh import TOLERANCE, Mesh, mesh_of, stl_bytes, welded
from companion.enclosure.picture import draw

PICTURE = "box.png"
TOLERANCE_MM = 0.01  # on every side of the bounding box, and as a skin over the whole surface
HANDSET_BESIDE = (-175.0, -35.0)  # where the picture puts a handset, beside the box

GREY, LIGHT, DARK = (150, 153, 158), (205, 207, 210), (70, 72, 78)
COLOURS = {
    "box-base": GREY,
    "box-lid": LIGHT,
    "box-hood": (96, 110, 132),
    "handset-base": GREY,
    "handset-lid": LIGHT,
    "box-riser": LIGHT,
    "fit-coupon": LIGHT,
    "oled": (20, 24, 40),
    "bar": (200, 40, 36),
    "status_a": (60, 170, 70),
    "status_b": (230, 170, 40),
    "pi": (40, 120, 60),
    "pico": (40, 120, 60),
    "led": (200, 40, 36),
}


def printed(layout: Layout) -> dict[str, Part]:
    """Each piece as it lies on the print bed."""
    return {name: solids.for_printing(name, part) for name, part in solids.pieces(layout).items()}


def write(layout: Layout, folder: Path) -> list[Path]:
    """Write every piece's STL and STEP and the picture; return the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, part in printed(layout).items():
        stl, step = folder / f"{name}.stl", folder / f"{name}.step"
        stl.write_bytes(stl_bytes(welded(mesh_of(part)), f"companion {name}".encode()))
        export_step(part, str(step))
        _without_timestamp(step)
        written += [stl, step]
    picture = folder / PICTURE
    draw(scene(layout), azimuth=-28.0, elevation=50.0).save(picture, optimize=True)
    return [*written, picture]


def _without_timestamp(step: Path) -> None:
    """Blank the export time in the STEP header, so that unchanged pieces rewrite the same bytes."""
    text = step.read_text(encoding="utf-8")
    text = re.sub(r"(FILE_NAME\('[^']*',)'[^']*'", r"\1''", text, count=1)
    step.write_text(text, encoding="utf-8")


def scene(layout: Layout) -> list[tuple[Mesh, tuple[int, int, int]]]:
    """The assembled box, its bought parts in place, and a handset beside it."""
    meshes = []
    for name, part in solids.pieces(layout).items():
        if name == "fit-coupon":
            continue
        if name.startswith("handset"):
            part = Pos(*HANDSET_BESIDE, 0) * part
        meshes.append((mesh_of(part), COLOURS[name]))
    for name, part in solids.box_parts(layout).items():
        meshes.append((mesh_of(part), COLOURS.get(name, DARK)))
    for name, part in solids.handset_parts(layout).items():
        meshes.append((mesh_of(Pos(*HANDSET_BESIDE, 0) * part), COLOURS.get(name, DARK)))
    return meshes


def _bounds_differ(a: np.ndarray, b: np.ndarray, tolerance: float = TOLERANCE_MM) -> bool:
    return bool(np.abs(np.asarray(a) - np.asarray(b)).max() > tolerance)


def differences(layout: Layout, folder: Path, made: dict[str, Part] | None = None) -> list[str]:
    """One line per committed file that is missing or differs from what the layout makes."""
    made = printed(layout) if made is None else made
    problems = []
    for name, part in made.items():
        box = part.bounding_box()
        bounds = np.array([tuple(box.min), tuple(box.max)])
        stl, step = folder / f"{name}.stl", folder / f"{name}.step"
        if not stl.exists() or not step.exists():
            problems.append(f"{name}: no {stl.name} or {step.name} in {folder}")
            continue
        mesh = trimesh.load_mesh(stl)
        if _bounds_differ(mesh.bounds, bounds, TOLERANCE):  # a round side's facets lie within
            problems.append(
                f"{stl}: bounding box {mesh.bounds.tolist()}, the layout makes {bounds.tolist()}"
            )
        elif abs(mesh.volume - part.volume) > TOLERANCE * part.area:  # facets within TOLERANCE
            problems.append(
                f"{stl}: volume {mesh.volume:.1f} mm3, the layout makes {part.volume:.1f}"
            )
        committed = import_step(str(step))
        cbox = committed.bounding_box()
        if _bounds_differ(np.array([tuple(cbox.min), tuple(cbox.max)]), bounds):
            problems.append(f"{step}: its bounding box differs from what the layout makes")
        elif abs(committed.volume - part.volume) > TOLERANCE_MM * part.area:
            problems.append(
                f"{step}: volume {committed.volume:.2f} mm3, the layout makes {part.volume:.2f}"
            )
    return problems
