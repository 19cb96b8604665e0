"""Can the neighbours see the screen or the secret buttons? Rays from their eyes answer it.

The worst case of a real table: the box at the holder's edge, neighbours leaning in, their
eyes 60 cm from the box at 45 and 90 degrees either side of the holder's direction and 40
to 50 cm above the table top. A sight line from an eye to a point of the screen's lit area,
or of the top of A, B or PEEK, is blocked when it crosses the lid or the hood. The holder,
in front, must see every point of the screen.
"""

from __future__ import annotations

import math

import numpy as np

from companion.enclosure.layout import Layout
from companion.enclosure.mesh import Array, Mesh, ray_hits

NEIGHBOUR_DISTANCE = 600.0  # mm from the middle of the box, on the table's plane
NEIGHBOUR_AZIMUTHS = (-90.0, -45.0, 45.0, 90.0)  # degrees from the holder's direction
NEIGHBOUR_HEIGHTS = (400.0, 450.0, 500.0)  # eye above the table top
HOLDER_EYE = (0.0, -400.0, 350.0)  # leaning over the box from the front


def neighbour_eyes(
    azimuths: tuple[float, ...] = NEIGHBOUR_AZIMUTHS, distance: float = NEIGHBOUR_DISTANCE
) -> Array:
    """Eyes around the box: azimuth 0 is the holder's seat (toward -y), positive to the right."""
    eyes = []
    for azimuth in azimuths:
        a = math.radians(azimuth)
        eyes += [(distance * math.sin(a), -distance * math.cos(a), h) for h in NEIGHBOUR_HEIGHTS]
    return np.array(eyes)


def screen_points(layout: Layout, across: int = 12, down: int = 6) -> Array:
    """A grid over the screen's lit area, on the glass just under the plate."""
    o = layout.oled
    cx, cy = o.at[0] + o.active_offset[0], o.at[1] + o.active_offset[1]
    xs = np.linspace(cx - o.active[0] / 2, cx + o.active[0] / 2, across)
    ys = np.linspace(cy - o.active[1] / 2, cy + o.active[1] / 2, down)
    z = layout.box.height - layout.box.top - 0.1
    return np.array([(x, y, z) for x in xs for y in ys])


def button_points(layout: Layout, name: str, ring: int = 12) -> Array:
    """The top of a button's head: its centre and points round its edge."""
    x, y = layout.buttons[name]
    radius, z = layout.button.cap[0] / 2, layout.box.height + layout.button.cap[1]
    angles = np.linspace(0, 2 * np.pi, ring, endpoint=False)
    rim = [(x + radius * math.cos(a), y + radius * math.sin(a), z) for a in angles]
    return np.array([(x, y, z), *rim])


def secret_points(layout: Layout) -> Array:
    """Every point the hood must hide: the screen and the buttons it covers."""
    points = [
        screen_points(layout) if name == "oled" else button_points(layout, name)
        for name in layout.hood.covers
    ]
    return np.concatenate(points)


def visible(occluders: Mesh, eyes: Array, points: Array) -> Array:
    """(eye, point) pairs whose straight line crosses no triangle of ``occluders``."""
    pairs = np.array([(e, p) for e in range(len(eyes)) for p in range(len(points))])
    origins = points[pairs[:, 1]]
    directions = eyes[pairs[:, 0]] - origins
    tri = occluders.triangles
    low, high = origins.min(axis=0), np.maximum(origins.max(axis=0), eyes.max(axis=0))
    low = np.minimum(low, eyes.min(axis=0))
    near = np.all((tri.max(axis=1) >= low) & (tri.min(axis=1) <= high), axis=1)
    distance = ray_hits(tri[near], origins, directions, near=1e-9)
    return pairs[distance >= 1.0]


def leaks(occluders: Mesh, layout: Layout, eyes: Array | None = None) -> list[tuple[Array, Array]]:
    """Every sight line from a neighbour's eye to a secret point: empty when the hood works."""
    eyes = neighbour_eyes() if eyes is None else eyes
    points = secret_points(layout)
    return [(eyes[e], points[p]) for e, p in visible(occluders, eyes, points)]


def hidden_from_holder(occluders: Mesh, layout: Layout) -> Array:
    """Points of the screen the holder cannot see: empty when the whole screen shows."""
    points = screen_points(layout)
    seen = {p for _, p in visible(occluders, np.array([HOLDER_EYE]), points)}
    return points[[i for i in range(len(points)) if i not in seen]]
