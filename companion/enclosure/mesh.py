"""Triangle meshes of the pieces, and the printability checks that read them.

A slicer sees triangles, so the checks do too: a closed solid, the print bed's size, the
thinnest wall (a ray from each triangle straight into the material, as slicers' thickness
analyses do) and downward faces steeper than a printer can bridge. Ray casting is
Moeller-Trumbore in numpy, shared with the hood's sight check.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from build123d import Part

TOLERANCE = 0.02  # mm: chord error of curved faces in the exported meshes
ANGULAR_TOLERANCE = 0.2  # radians
BED = (220.0, 220.0, 250.0)  # a common printer's build volume, x by y by z
MIN_WALL = 1.6  # mm: four 0.4 mm lines
MAX_OVERHANG = 45.0  # degrees from upright that a downward face may lean without support

Array = np.ndarray


@dataclass(frozen=True)
class Mesh:
    vertices: Array  # (n, 3) float
    faces: Array  # (m, 3) int

    @property
    def triangles(self) -> Array:
        return self.vertices[self.faces]

    @property
    def normals(self) -> Array:
        tri = self.triangles
        n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        length = np.linalg.norm(n, axis=1, keepdims=True)
        return n / np.where(length == 0, 1, length)

    @property
    def bounds(self) -> Array:
        return np.array([self.vertices.min(axis=0), self.vertices.max(axis=0)])


def mesh_of(part: Part) -> Mesh:
    """The part's surface as triangles, at the tolerance the STL files use."""
    vertices, faces = part.tessellate(TOLERANCE, ANGULAR_TOLERANCE)
    return Mesh(
        np.array([(v.X, v.Y, v.Z) for v in vertices], dtype=float),
        np.array(faces, dtype=np.int64),
    )


WELD = 1e-4  # mm: vertices this close are one vertex in an exported STL


def welded(mesh: Mesh, grid: float = WELD) -> Mesh:
    """The mesh with its vertices snapped to a ``grid`` and the coincident ones merged, and
    the triangles that collapse dropped. The CAD kernel meshes each face on its own, so the
    two copies of a shared edge's vertex can differ in the last bits; a slicer (or admesh)
    then finds open edges where the solid is closed."""
    keys = np.round(mesh.vertices / grid).astype(np.int64)
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    faces = inverse.reshape(-1)[mesh.faces]
    keep = (
        (faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) & (faces[:, 0] != faces[:, 2])
    )
    return Mesh(unique * grid, faces[keep])


STL_FACET = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])


def stl_bytes(mesh: Mesh, header: bytes = b"") -> bytes:
    """A binary STL of the mesh."""
    facets = np.zeros(len(mesh.faces), dtype=STL_FACET)
    facets["normal"] = mesh.normals
    facets["corners"] = mesh.triangles
    count = np.array([len(facets)], dtype="<u4").tobytes()
    return header.ljust(80, b" ")[:80] + count + facets.tobytes()


def merged(meshes: list[Mesh]) -> Mesh:
    offsets = np.cumsum([0] + [len(m.vertices) for m in meshes[:-1]])
    return Mesh(
        np.concatenate([m.vertices for m in meshes]),
        np.concatenate([m.faces + o for m, o in zip(meshes, offsets, strict=True)]),
    )


def ray_hits(triangles: Array, origins: Array, directions: Array, near: float = 1e-6) -> Array:
    """For each ray, the nearest distance along ``directions`` (in its units) to a triangle,
    ignoring hits closer than ``near``; inf where the ray hits nothing."""
    v0, e1, e2 = (
        triangles[:, 0],
        triangles[:, 1] - triangles[:, 0],
        triangles[:, 2] - triangles[:, 0],
    )
    best = np.full(len(origins), np.inf)
    for start in range(0, len(origins), 64):
        o = origins[start : start + 64, None, :]
        d = directions[start : start + 64, None, :]
        p = np.cross(d, e2)
        det = np.einsum("rtk,tk->rt", p, e1)
        ok = np.abs(det) > 1e-12
        inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
        s = o - v0
        u = np.einsum("rtk,rtk->rt", s, p) * inv
        q = np.cross(s, e1)
        v = np.einsum("rk,rtk->rt", d[:, 0, :], q) * inv
        t = np.einsum("rtk,tk->rt", q, e2) * inv
        hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > near)
        best[start : start + 64] = np.where(hit, t, np.inf).min(axis=1)
    return best


def thinnest_wall(mesh: Mesh, limit: float = 2 * MIN_WALL) -> float:
    """The least distance from a triangle's centre straight through the material to the next
    surface, or ``limit`` where every wall is thicker than that."""
    tri = mesh.triangles
    normals = mesh.normals
    centres = tri.mean(axis=1)
    low, high = tri.min(axis=1), tri.max(axis=1)
    order = np.lexsort(np.floor(centres / limit).T[::-1])
    thinnest = limit
    for start in range(0, len(order), 256):
        rays = order[start : start + 256]
        box_low = centres[rays].min(axis=0) - limit
        box_high = centres[rays].max(axis=0) + limit
        near = np.all((high >= box_low) & (low <= box_high), axis=1)
        hits = ray_hits(tri[near], centres[rays], -normals[rays], near=1e-4)
        thinnest = min(thinnest, float(hits.min()))
    return thinnest


def overhangs(mesh: Mesh, limit: float = MAX_OVERHANG) -> Array:
    """Centres of the downward faces that lean more than ``limit`` degrees from upright and
    do not rest on the bed: what would print onto air."""
    normals = mesh.normals
    centres = mesh.triangles.mean(axis=1)
    steep = normals[:, 2] < -np.cos(np.radians(90.0 - limit)) - 1e-6
    on_bed = centres[:, 2] < mesh.bounds[0, 2] + 1e-3
    return centres[steep & ~on_bed]


def fits_bed(mesh: Mesh, bed: tuple[float, float, float] = BED) -> bool:
    size = mesh.bounds[1] - mesh.bounds[0]
    return bool(np.all(size <= np.array(bed)))
