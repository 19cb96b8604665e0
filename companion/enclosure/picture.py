"""A picture of the assembled box for the README: the meshes drawn with a depth buffer.

Numpy and Pillow only (no GPU, no display), so it runs headless wherever the files are
written. An orthographic view from the holder's front right, lit from the upper left.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from companion.enclosure.mesh import Array, Mesh

Colour = tuple[int, int, int]
BACKGROUND = (245, 245, 242)


def _camera(azimuth: float, elevation: float) -> tuple[Array, Array, Array]:
    a, e = np.radians(azimuth), np.radians(elevation)
    toward_camera = np.array([np.sin(a) * np.cos(e), -np.cos(a) * np.cos(e), np.sin(e)])
    right = np.cross(-toward_camera, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, -toward_camera)
    return right, up, toward_camera


def draw(
    scene: list[tuple[Mesh, Colour]],
    size: tuple[int, int] = (900, 640),
    azimuth: float = 32.0,
    elevation: float = 30.0,
    oversample: int = 2,
) -> Image.Image:
    right, up, toward = _camera(azimuth, elevation)
    light = np.array([-0.45, -0.35, 0.82])
    light /= np.linalg.norm(light)
    width, height = size[0] * oversample, size[1] * oversample
    everything = np.concatenate([m.vertices for m, _ in scene])
    flat = np.stack([everything @ right, everything @ up], axis=1)
    low, high = flat.min(axis=0), flat.max(axis=0)
    scale = 0.92 * min(width / (high[0] - low[0]), height / (high[1] - low[1]))
    middle = (low + high) / 2
    depth = np.full((height, width), -np.inf)
    image = np.zeros((height, width, 3))
    image[:] = BACKGROUND
    for mesh, colour in scene:
        tri = mesh.triangles
        normals = mesh.normals
        facing = normals @ toward > 1e-9
        shade = 0.38 + 0.62 * np.clip(normals @ light, 0, 1)
        xs = (tri @ right - middle[0]) * scale + width / 2
        ys = height / 2 - (tri @ up - middle[1]) * scale
        zs = tri @ toward
        for i in np.nonzero(facing)[0]:
            _fill(image, depth, xs[i], ys[i], zs[i], np.array(colour) * shade[i])
    picture = Image.fromarray(image.clip(0, 255).astype(np.uint8))
    return picture.resize(size, Image.Resampling.LANCZOS)


def _fill(image: Array, depth: Array, xs: Array, ys: Array, zs: Array, colour: Array) -> None:
    """Paint one triangle where it is nearer than what is there already."""
    x0, x1 = max(int(np.floor(xs.min())), 0), min(int(np.ceil(xs.max())), image.shape[1] - 1)
    y0, y1 = max(int(np.floor(ys.min())), 0), min(int(np.ceil(ys.max())), image.shape[0] - 1)
    if x1 < x0 or y1 < y0:
        return
    area = (xs[1] - xs[0]) * (ys[2] - ys[0]) - (xs[2] - xs[0]) * (ys[1] - ys[0])
    if abs(area) < 1e-12:
        return
    px, py = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
    w0 = ((xs[1] - px) * (ys[2] - py) - (xs[2] - px) * (ys[1] - py)) / area
    w1 = ((xs[2] - px) * (ys[0] - py) - (xs[0] - px) * (ys[2] - py)) / area
    w2 = 1 - w0 - w1
    inside = (w0 >= -1e-9) & (w1 >= -1e-9) & (w2 >= -1e-9)
    z = w0 * zs[0] + w1 * zs[1] + w2 * zs[2]
    window = depth[y0 : y1 + 1, x0 : x1 + 1]
    nearer = inside & (z > window)
    window[nearer] = z[nearer]
    image[y0 : y1 + 1, x0 : x1 + 1][nearer] = colour
