"""Can the neighbours see the screen, the secret buttons or which of A and B is pressed? Rays
from where people sit answer it.

The box stands at the holder's edge of the table. The neighbours sit 50 to 70 cm from its
middle, anywhere from 40 to 90 degrees either side of the holder's direction (on a
rectangular table they are at about 42 to 50 degrees, nearer 40 once the holder pushes the box
away to read it), eyes 40 to 55 cm above the table. A sight line from an eye to a point of
the screen's lit area, or of the top of A, B or PEEK, is blocked when it crosses the lid or
the hood. The holder sits behind the box, eyes 30 to 45 cm from its middle and 40 to 50 cm
up, and must see every point of the screen from each of those places.

The holder's forearm is a 70 mm cylinder from the pressed button to the hand's rest, 35 cm in
front of the box and 25 cm up: where the neighbours see it outside the hood must not tell A
from B.
"""

from __future__ import annotations

import math

import numpy as np

from companion.enclosure.layout import Layout
from companion.enclosure.mesh import Array, Mesh, ray_hits

NEIGHBOUR_DISTANCES = (500.0, 600.0, 700.0)  # mm from the middle of the box, on the table
NEIGHBOUR_AZIMUTHS = tuple(float(s * a) for s in (-1, 1) for a in range(40, 95, 5))
NEIGHBOUR_HEIGHTS = (400.0, 450.0, 500.0, 550.0)  # eye above the table top
HOLDER_DISTANCES = (300.0, 350.0, 400.0, 450.0)  # from the middle of the box, toward -y
HOLDER_HEIGHTS = (400.0, 450.0, 500.0)
SCREEN_GRID = (16, 8)  # points across and down the lit area
FOREARM_DIAMETER = 70.0
HAND_REST = (0.0, 350.0, 250.0)  # x, distance in front of the box's front face, height
FOREARM_STEP = 1.0  # degrees between a neighbour's sight lines toward the forearm


def around(azimuth: float, distance: float, height: float) -> tuple[float, float, float]:
    """A point at ``azimuth`` degrees from the holder's direction (toward -y, positive to the
    right), ``distance`` from the middle of the box on the table, ``height`` above it."""
    a = math.radians(azimuth)
    return (distance * math.sin(a), -distance * math.cos(a), height)


def neighbour_eyes(
    azimuths: tuple[float, ...] = NEIGHBOUR_AZIMUTHS,
    distances: tuple[float, ...] = NEIGHBOUR_DISTANCES,
    heights: tuple[float, ...] = NEIGHBOUR_HEIGHTS,
) -> Array:
    return np.array([around(a, d, h) for a in azimuths for d in distances for h in heights])


def holder_eyes() -> Array:
    return np.array([around(0.0, d, h) for d in HOLDER_DISTANCES for h in HOLDER_HEIGHTS])


def screen_points(
    layout: Layout, across: int = SCREEN_GRID[0], down: int = SCREEN_GRID[1]
) -> Array:
    """A grid over the screen's lit area, edges included, on the glass just under the plate."""
    o, m = layout.oled, layout.oled_module
    cx, cy = o.at[0] + m.active_offset_mm[0], o.at[1] + m.active_offset_mm[1]
    xs = np.linspace(cx - m.active_mm[0] / 2, cx + m.active_mm[0] / 2, across)
    ys = np.linspace(cy - m.active_mm[1] / 2, cy + m.active_mm[1] / 2, down)
    z = layout.box.height - layout.box.top - 0.1
    return np.array([(x, y, z) for x in xs for y in ys])


def button_top(layout: Layout, name: str) -> Array:
    x, y = layout.buttons[name]
    return np.array([x, y, layout.box.height + layout.lift(name) + layout.button.cap[1]])


def button_points(layout: Layout, name: str, ring: int = 12) -> Array:
    """The top of a button's head: its centre and points round its edge."""
    centre = button_top(layout, name)
    radius = layout.button.cap[0] / 2
    angles = np.linspace(0, 2 * np.pi, ring, endpoint=False)
    rim = [centre + np.array([radius * math.cos(a), radius * math.sin(a), 0.0]) for a in angles]
    return np.array([centre, *rim])


def secret_points(layout: Layout) -> Array:
    """Every point the hood must hide: the screen and the buttons it covers."""
    points = [
        screen_points(layout) if name == "oled" else button_points(layout, name)
        for name in layout.hood.covers
    ]
    return np.concatenate(points)


def near_the_hood(piece: Mesh, layout: Layout) -> Mesh:
    """The triangles of a piece that can stand between an eye and a secret point or the
    forearm: those reaching the plate's underside or above, over the hood's footprint. Sight
    lines from under the hood rise toward every eye, so nothing else can cut them."""
    h, box = layout.hood, layout.box
    half = h.inner[0] / 2 + max(h.wall, h.peg_block[0])
    low = np.array([-half, h.front, box.rim - 0.5])
    high = np.array([half, h.back + h.wall, np.inf])
    tri = piece.triangles
    keep = np.all((tri.max(axis=1) >= low) & (tri.min(axis=1) <= high), axis=1)
    return Mesh(piece.vertices, piece.faces[keep])


CHUNK = 128  # sight lines culled together: neighbours in the order they are made


Occluders = Mesh | list[Mesh]


def blocked(pieces: Occluders, starts: Array, ends: Array) -> Array:
    """Which segments (start to end) cross a triangle of any piece. Each piece is tested only
    on the part of a segment within its heights, against the triangles near that part."""
    hit = np.zeros(len(starts), dtype=bool)
    for piece in [pieces] if isinstance(pieces, Mesh) else pieces:
        tri = piece.triangles
        if len(tri) == 0:
            continue
        low, high = tri.min(axis=1), tri.max(axis=1)
        z0, z1 = low[:, 2].min(), high[:, 2].max()
        rise = ends[:, 2] - starts[:, 2]
        safe = np.where(np.abs(rise) > 1e-12, rise, 1.0)
        a = np.where(np.abs(rise) > 1e-12, (z0 - starts[:, 2]) / safe, 0.0)
        b = np.where(np.abs(rise) > 1e-12, (z1 - starts[:, 2]) / safe, 1.0)
        first = np.clip(np.minimum(a, b), 0.0, 1.0)[:, None]
        last = np.clip(np.maximum(a, b), 0.0, 1.0)[:, None]
        span = ends - starts
        near, far = starts + first * span, starts + last * span
        for at in range(0, len(starts), CHUNK):
            todo = np.nonzero(~hit[at : at + CHUNK])[0] + at
            if len(todo) == 0:
                continue
            box_low = np.minimum(near[todo], far[todo]).min(axis=0) - 1e-6
            box_high = np.maximum(near[todo], far[todo]).max(axis=0) + 1e-6
            close = np.all((high >= box_low) & (low <= box_high), axis=1)
            if not close.any():
                continue
            distance = ray_hits(tri[close], starts[todo], span[todo], near=1e-9)
            hit[todo] = distance < 1.0
    return hit


def visible(pieces: Occluders, eyes: Array, points: Array) -> Array:
    """(eye, point) pairs whose straight line crosses no triangle of the pieces."""
    pairs = np.array([(e, p) for p in range(len(points)) for e in range(len(eyes))])
    return pairs[~blocked(pieces, points[pairs[:, 1]], eyes[pairs[:, 0]])]


def leaks(
    occluders: Occluders, layout: Layout, eyes: Array | None = None
) -> list[tuple[Array, Array]]:
    """Every sight line from a neighbour's eye to a secret point: empty when the hood works."""
    eyes = neighbour_eyes() if eyes is None else eyes
    points = secret_points(layout)
    return [(eyes[e], points[p]) for e, p in visible(occluders, eyes, points)]


def hidden_from_holder(
    occluders: Occluders, layout: Layout, eyes: Array | None = None
) -> list[tuple[Array, Array]]:
    """Every (eye, screen point) of the holder's whose sight line is blocked: empty when the
    whole screen shows from every one of the holder's eyes."""
    eyes = holder_eyes() if eyes is None else eyes
    points = screen_points(layout)
    seen = {(int(e), int(p)) for e, p in visible(occluders, eyes, points)}
    return [
        (eyes[e], points[p])
        for e in range(len(eyes))
        for p in range(len(points))
        if (e, p) not in seen
    ]


# -- the forearm ------------------------------------------------------------------------


def hand_rest(layout: Layout) -> Array:
    x, ahead, z = HAND_REST
    return np.array([x, -layout.box.size[1] / 2 - ahead, z])


def forearm(layout: Layout, button: str) -> tuple[Array, Array]:
    """The forearm's axis: from the top of the pressed button to the hand's rest."""
    return button_top(layout, button), hand_rest(layout)


def cylinder_hits(
    origins: Array, directions: Array, axis: tuple[Array, Array], radius: float
) -> Array:
    """For each ray, the nearest distance (in units of its direction) to the closed cylinder
    round the segment ``axis``; inf where it misses."""
    start, end = axis
    length = float(np.linalg.norm(end - start))
    unit = (end - start) / length
    s = origins - start
    d_along, s_along = directions @ unit, s @ unit
    d_side = directions - d_along[:, None] * unit
    s_side = s - s_along[:, None] * unit
    a = np.einsum("ij,ij->i", d_side, d_side)
    b = 2 * np.einsum("ij,ij->i", d_side, s_side)
    c = np.einsum("ij,ij->i", s_side, s_side) - radius**2
    root = np.sqrt(np.maximum(b * b - 4 * a * c, 0.0))
    along = a <= 1e-12  # runs along the axis: inside the tube all the way, or never
    safe = np.where(along, 1.0, a)
    enter = np.where(along, -np.inf, (-b - root) / (2 * safe))
    leave = np.where(along, np.inf, (-b + root) / (2 * safe))
    misses = np.where(along, c > 0, b * b - 4 * a * c < 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p0, p1 = -s_along / d_along, (length - s_along) / d_along
    low, high = np.minimum(p0, p1), np.maximum(p0, p1)
    flat = np.abs(d_along) < 1e-12  # runs across the axis: inside the slab or never
    inside_slab = (s_along >= 0) & (s_along <= length)
    low = np.where(flat, np.where(inside_slab, -np.inf, np.inf), low)
    high = np.where(flat, np.where(inside_slab, np.inf, -np.inf), high)
    first, last = np.maximum(enter, low), np.minimum(leave, high)
    hit = ~misses & (first <= last) & (last > 0)
    return np.where(hit, np.maximum(first, 0.0), np.inf)


def inside_hood(layout: Layout, points: Array) -> Array:
    """Which points lie in the hood's inner room (the space its sides, back and roof bound)."""
    h, z = layout.hood, layout.box.height
    half = h.inner[0] / 2
    return (
        (np.abs(points[:, 0]) <= half)
        & (points[:, 1] >= h.front)
        & (points[:, 1] <= h.back)
        & (points[:, 2] >= z)
        & (points[:, 2] <= z + h.inner[1])
    )


def forearm_rays(layout: Layout, eye: Array, buttons: tuple[str, ...]) -> Array:
    """One neighbour's sight lines toward where the forearm can be: directions on a grid of
    ``FOREARM_STEP`` degrees over every forearm's bounds, the same lines whichever is pressed."""
    r = FOREARM_DIAMETER / 2
    ends = np.concatenate([forearm(layout, b) for b in buttons])
    corners = np.array(
        [
            (x, y, z)
            for x in (ends[:, 0].min() - r, ends[:, 0].max() + r)
            for y in (ends[:, 1].min() - r, ends[:, 1].max() + r)
            for z in (ends[:, 2].min() - r, ends[:, 2].max() + r)
        ]
    )
    toward = corners - eye
    azimuth = np.degrees(np.arctan2(toward[:, 1], toward[:, 0]))
    elevation = np.degrees(np.arctan2(toward[:, 2], np.hypot(toward[:, 0], toward[:, 1])))
    step = FOREARM_STEP
    az = np.radians(np.arange(math.floor(azimuth.min()), azimuth.max() + step, step))
    el = np.radians(np.arange(math.floor(elevation.min()), elevation.max() + step, step))
    grid_az, grid_el = np.meshgrid(az, el)
    return np.stack(
        [
            np.cos(grid_el) * np.cos(grid_az),
            np.cos(grid_el) * np.sin(grid_az),
            np.sin(grid_el),
        ],
        axis=-1,
    ).reshape(-1, 3)


def forearm_seen(
    hood: Mesh, layout: Layout, buttons: tuple[str, ...], eyes: Array | None = None
) -> dict[str, set[tuple[int, int]]]:
    """For each button pressed, the neighbours' sight lines (eye, line) that meet the forearm
    outside the hood before anything of the hood. Only the hood stands above the top face,
    so it is the only thing that can hide the arm there."""
    eyes = neighbour_eyes() if eyes is None else eyes
    found: list[tuple[str, int, Array, Array]] = []  # button, eye, lines, where each meets it
    for e, eye in enumerate(eyes):
        directions = forearm_rays(layout, eye, buttons)
        origins = np.broadcast_to(eye, directions.shape)
        for button in buttons:
            t = cylinder_hits(origins, directions, forearm(layout, button), FOREARM_DIAMETER / 2)
            lines = np.nonzero(np.isfinite(t))[0]
            meets = eye + directions[lines] * t[lines, None]
            outside = ~inside_hood(layout, meets)
            found.append((button, e, lines[outside], meets[outside]))
    starts = np.concatenate([np.broadcast_to(eyes[e], m.shape) for _, e, _, m in found])
    hidden = blocked([hood], starts, np.concatenate([m for *_, m in found]))
    seen: dict[str, set[tuple[int, int]]] = {b: set() for b in buttons}
    at = 0
    for button, e, lines, _ in found:
        shown = lines[~hidden[at : at + len(lines)]]
        seen[button] |= {(e, int(i)) for i in shown}
        at += len(lines)
    return seen


def forearm_difference(seen: dict[str, set[tuple[int, int]]], a: str, b: str) -> float:
    """The share of sight lines to the forearm that meet it for one button and not the other."""
    union = seen[a] | seen[b]
    return len(seen[a] ^ seen[b]) / len(union) if union else 0.0
