"""The printed case: the committed files are what the layout makes, every piece prints, every
part fits, every plug seats, and the hood hides the screen, the secret buttons and which of A
and B is pressed from the neighbours while the holder sees the whole screen.

The hood is checked twice: with the project's ray caster on the solids, and with a z-buffer
render of the committed STL files written here (numpy rasterising the triangles from each
eye), which shares no code with the ray caster.

CPU budget: about 35 s of CPU on one core here (wall time is longer on a loaded machine).
build123d's import takes about 5 s; the pieces and their meshes are built once for the module;
the sight lines (264 neighbour eyes, 12 holder eyes) are numpy, a few seconds each check.
The ``cad`` extra is needed: under CI=true its absence fails these tests, elsewhere it skips
them; so does admesh's.
"""

import os
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from companion.enclosure.layout import load_layout

FOLDER = Path(__file__).resolve().parents[1] / "hardware" / "enclosure"
README = Path(__file__).resolve().parents[1] / "README.md"
OVER_THE_HOOD = ("box-lid", "box-hood", "box-riser")  # what stands between an eye and a secret


@pytest.fixture(scope="module")
def cad():
    try:
        from companion.enclosure import files, mesh, sightlines, solids
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the cad extra is required in CI and is not installed ({exc.name})")
        pytest.skip(f"the cad extra is not installed ({exc.name})")
    return SimpleNamespace(files=files, mesh=mesh, sightlines=sightlines, solids=solids)


@pytest.fixture(scope="module")
def layout():
    return load_layout()


@pytest.fixture(scope="module")
def assembled(cad, layout):
    return cad.solids.pieces(layout)


@pytest.fixture(scope="module")
def printed(cad, assembled):
    return {name: cad.solids.for_printing(name, part) for name, part in assembled.items()}


@pytest.fixture(scope="module")
def meshes(cad, assembled):
    return {name: cad.mesh.mesh_of(part) for name, part in assembled.items()}


def occluders_of(cad, layout, meshes):
    return [cad.sightlines.near_the_hood(meshes[n], layout) for n in OVER_THE_HOOD]


@pytest.fixture(scope="module")
def occluders(cad, layout, meshes):
    """What can stand between an eye and the screen: the lid, the hood and A's riser, in place."""
    return occluders_of(cad, layout, meshes)


def with_hood(cad, layout, meshes, hood_layout):
    """The occluders with the hood of another layout (shorter, or none)."""
    hood = cad.mesh.mesh_of(cad.solids.box_hood(hood_layout))
    return occluders_of(cad, hood_layout, {**meshes, "box-hood": hood})


def test_the_committed_files_are_what_the_layout_makes(cad, layout, printed):
    assert set(printed) == set(cad.solids.PIECES)
    assert cad.files.differences(layout, FOLDER, made=printed) == []


def test_a_changed_layout_is_caught_by_the_comparison(cad, layout, printed):
    """The same check on a hood 1 mm wider: the committed hood no longer matches."""
    wider = replace(layout, hood=replace(layout.hood, inner=(85.0, layout.hood.inner[1])))
    hood = cad.solids.for_printing("box-hood", cad.solids.box_hood(wider))
    problems = cad.files.differences(wider, FOLDER, made={"box-hood": hood})
    assert problems and all("box-hood" in p for p in problems)


def test_every_stl_is_a_closed_solid_that_fits_the_print_bed(cad):
    import trimesh

    for name in cad.solids.PIECES:
        mesh = trimesh.load_mesh(FOLDER / f"{name}.stl")
        assert mesh.is_watertight and mesh.is_winding_consistent, name
        assert mesh.volume > 0, name
        size = mesh.bounds[1] - mesh.bounds[0]
        assert np.all(size <= np.array(cad.mesh.BED)), (name, size)
        assert mesh.bounds[0][2] == pytest.approx(0, abs=1e-6), name  # lies on the bed


def admesh_report(path: Path) -> dict[str, int]:
    """admesh's counts for an STL: its facets' open edges before it mends anything, and what
    it had to mend."""
    out = subprocess.run(
        ["admesh", str(path)], capture_output=True, timeout=120, check=True
    ).stdout.decode("utf-8", "replace")  # it echoes the STL's binary header
    counts = {}
    for label in (
        "Facets with 1 disconnected edge",
        "Facets with 2 disconnected edges",
        "Facets with 3 disconnected edges",
        "Edges fixed",
        "Facets removed",
        "Facets added",
        "Facets reversed",
        "Backwards edges",
        "Degenerate facets",
    ):
        match = re.search(rf"{label}\s*:\s*(\d+)", out)
        assert match, (label, out)
        counts[label] = int(match.group(1))
    return counts


@pytest.fixture(scope="module")
def admesh():
    if shutil.which("admesh") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("admesh is required in CI (make tools installs it)")
        pytest.skip("admesh is not installed (make tools installs it)")


def test_admesh_finds_no_open_edge_in_any_stl(cad, admesh):
    for name in cad.solids.PIECES:
        assert set(admesh_report(FOLDER / f"{name}.stl").values()) == {0}, name


def test_admesh_finds_the_open_edges_of_an_unwelded_mesh(cad, admesh, meshes, tmp_path):
    """A lid whose triangles each have their own corners, nudged by 1e-4 mm (as the CAD
    kernel's faces are meshed apart, only more so), has open edges, which admesh reports;
    the same tessellation welded, as the files are written, has none."""
    lid = meshes["box-lid"]
    rng = np.random.default_rng(1)
    apart = lid.faces.reshape(-1)
    loose = cad.mesh.Mesh(
        lid.vertices[apart] + rng.normal(0, 1e-4, (len(apart), 3)),
        np.arange(len(apart)).reshape(-1, 3),
    )
    (tmp_path / "loose.stl").write_bytes(cad.mesh.stl_bytes(loose))
    report = admesh_report(tmp_path / "loose.stl")
    assert report["Facets with 3 disconnected edges"] > 0 and report["Edges fixed"] > 0
    (tmp_path / "welded.stl").write_bytes(cad.mesh.stl_bytes(cad.mesh.welded(lid)))
    assert set(admesh_report(tmp_path / "welded.stl").values()) == {0}


def test_the_assembly_notes_give_each_pieces_size_on_the_bed(cad):
    import trimesh

    notes = (FOLDER.parent / "assembly.md").read_text()
    for name in cad.solids.PIECES:
        mesh = trimesh.load_mesh(FOLDER / f"{name}.stl")
        size = " x ".join(f"{v:g}" for v in np.round(mesh.bounds[1] - mesh.bounds[0], 1))
        assert f"`{name}.stl` | {size} |" in notes, (name, size)


def test_the_committed_files_stay_small():
    total = sum(p.stat().st_size for p in FOLDER.iterdir())
    assert total < 3_000_000, total


def test_walls_are_thick_enough_and_nothing_overhangs(cad, printed):
    for name, part in printed.items():
        mesh = cad.mesh.mesh_of(part)
        assert cad.mesh.thinnest_wall(mesh) >= cad.mesh.MIN_WALL, name
        assert len(cad.mesh.overhangs(mesh)) == 0, name


def test_the_printability_checks_can_fail(cad):
    s = cad.solids
    thin = s.block((0, 30), (0, 30), (0, 1.2))
    assert cad.mesh.thinnest_wall(cad.mesh.mesh_of(thin)) == pytest.approx(1.2)
    cup = s.block((0, 30), (0, 30), (0, 10)) - s.block((3, 27), (3, 27), (-1, 8))
    assert len(cad.mesh.overhangs(cad.mesh.mesh_of(cup))) > 0  # its ceiling prints onto air
    lid_up = s.box_lid(load_layout())  # the lid the right way up: its plate overhangs
    assert len(cad.mesh.overhangs(cad.mesh.mesh_of(lid_up))) > 0


# -- the hood, by the project's ray caster ----------------------------------------------


def test_no_neighbour_sees_the_screen_or_the_secret_buttons(cad, layout, occluders):
    eyes = cad.sightlines.neighbour_eyes()
    assert len(eyes) == 22 * 3 * 4  # every 5 degrees from 40 to 90 each side, 3 ranges, 4 heights
    assert len(cad.sightlines.screen_points(layout)) >= 12 * 6
    assert cad.sightlines.leaks(occluders, layout, eyes) == []


def test_nor_with_a_hood_10_mm_shorter(cad, layout, meshes):
    shorter = cad.solids.shorter_hood(layout, 10.0)
    assert cad.sightlines.leaks(with_hood(cad, layout, meshes, shorter), shorter) == []


def test_a_hood_40_mm_shorter_or_none_lets_the_neighbours_see(cad, layout, meshes, occluders):
    shorter = cad.solids.shorter_hood(layout, 40.0)
    assert cad.sightlines.leaks(with_hood(cad, layout, meshes, shorter), shorter)
    without = [m for m, n in zip(occluders, OVER_THE_HOOD, strict=True) if n != "box-hood"]
    seen = {tuple(p) for _, p in cad.sightlines.leaks(without, layout)}
    assert len(seen) == len(cad.sightlines.secret_points(layout))  # every point, from somewhere


def test_the_holder_sees_the_whole_screen_from_every_seat(cad, layout, occluders):
    eyes = cad.sightlines.holder_eyes()
    assert len(eyes) == 4 * 3  # 30 to 45 cm away, 40 to 50 cm up, every 5 cm
    assert cad.sightlines.hidden_from_holder(occluders, layout, eyes) == []


def test_a_hood_without_its_slot_hides_the_screen_from_the_holder(cad, layout, meshes):
    """The same check on a hood whose roof is closed over the screen: it finds hidden points."""
    closed = replace(layout, hood=replace(layout.hood, slot=(0.0, layout.hood.front)))
    hidden = cad.sightlines.hidden_from_holder(with_hood(cad, layout, meshes, closed), closed)
    assert len(hidden) > len(cad.sightlines.screen_points(layout))


def test_the_forearm_looks_the_same_to_the_neighbours_for_a_and_b(cad, layout, meshes):
    seen = cad.sightlines.forearm_seen(meshes["box-hood"], layout, ("choice_a", "choice_b"))
    assert min(len(s) for s in seen.values()) > 10_000  # the arm is in plain sight
    assert cad.sightlines.forearm_difference(seen, "choice_a", "choice_b") <= 0.05


def test_without_the_riser_the_forearm_tells_a_from_b(cad, layout):
    """A on the plate like B: the arm's paths part by a few mm at the hood's mouth, and the
    neighbours see the difference in more than 5 % of their sight lines to it."""
    flat = replace(layout, riser=replace(layout.riser, height=0.0))
    hood = cad.mesh.mesh_of(cad.solids.box_hood(flat))
    seen = cad.sightlines.forearm_seen(hood, flat, ("choice_a", "choice_b"))
    assert cad.sightlines.forearm_difference(seen, "choice_a", "choice_b") > 0.05


def test_the_forearm_is_a_cylinder(cad):
    start, end = np.array([0.0, 0.0, 0.0]), np.array([0.0, 0.0, 100.0])
    origins = np.array([[100.0, 0, 50], [100.0, 0, 150], [0.0, 0, -50], [100.0, 34.9, 50]])
    directions = np.array([[-1.0, 0, 0], [-1.0, 0, 0], [0.0, 0, 1], [-1.0, 0, 0]])
    hits = cad.sightlines.cylinder_hits(origins, directions, (start, end), 35.0)
    assert hits[0] == pytest.approx(65.0)  # the side
    assert np.isinf(hits[1])  # past the end
    assert hits[2] == pytest.approx(50.0)  # the end cap
    assert hits[3] == pytest.approx(100.0 - np.sqrt(35.0**2 - 34.9**2))


# -- the hood, by a z-buffer render of the committed STL files --------------------------


def assembled_stl(cad, assembled, name):
    """A committed STL's triangles moved back from the print bed to where the piece sits."""
    import trimesh

    mesh = trimesh.load_mesh(FOLDER / f"{name}.stl")
    vertices = np.array(mesh.vertices)
    if name in cad.solids.FLIPPED:
        vertices = vertices * np.array([1.0, -1.0, -1.0])
    box = assembled[name].bounding_box()
    vertices += np.array(tuple(box.min)) - vertices.min(axis=0)
    return vertices[np.array(mesh.faces)]


@pytest.fixture(scope="module")
def committed_triangles(cad, layout, assembled):
    """The lid's, hood's and riser's triangles that reach above the screen's glass: sight
    lines rise from every secret point to every eye, so nothing lower can cut them."""
    tri = np.concatenate([assembled_stl(cad, assembled, n) for n in OVER_THE_HOOD])
    return tri[tri[..., 2].max(axis=1) > cad.sightlines.screen_points(layout)[:, 2].min()]


def depth_buffer(triangles, eye, points, pixel=0.5):
    """Render the triangles' depth from ``eye`` onto a small image around ``points`` (pixels
    of ``pixel`` mm at their distance); return the buffer and each point's pixel and depth."""
    forward = points.mean(axis=0) - eye
    reach = np.linalg.norm(forward)
    forward /= reach
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    scale = reach / pixel

    def project(p):
        rel = p - eye
        depth = rel @ forward
        return np.stack([rel @ right / depth * scale, -(rel @ up) / depth * scale, depth], -1)

    seen = project(points)
    low = np.floor(seen[:, :2].min(axis=0)) - 4
    width, height = (np.ceil(seen[:, :2].max(axis=0)) + 5 - low).astype(int)
    seen[:, :2] -= low
    tri = project(triangles)
    assert np.all(tri[..., 2] > 1.0)  # every triangle in front of the eye
    tri[..., :2] -= low
    buffer = np.full(height * width, np.inf)
    x0 = np.clip(np.floor(tri[..., 0].min(axis=1)), 0, width).astype(int)
    x1 = np.clip(np.ceil(tri[..., 0].max(axis=1)), 0, width).astype(int)
    y0 = np.clip(np.floor(tri[..., 1].min(axis=1)), 0, height).astype(int)
    y1 = np.clip(np.ceil(tri[..., 1].max(axis=1)), 0, height).astype(int)
    side = np.maximum(x1 - x0, y1 - y0)
    # nearer than the farthest point somewhere, and inside the image
    drawn = (x1 > x0) & (y1 > y0) & (tri[..., 2].min(axis=1) < seen[:, 2].max())
    # triangles of about one size together: each batch is a stack of equal tiles
    for size in np.unique(2 ** np.ceil(np.log2(np.maximum(side[drawn], 1))).astype(int)):
        batch = np.nonzero(drawn & (side <= size) & (side > size // 2))[0]
        tile = (min(size, height), min(size, width))
        step = max(1, 400_000 // (tile[0] * tile[1]))
        for at in range(0, len(batch), step):
            rasterise(buffer, width, tri, batch[at : at + step], tile, (x0, x1, y0, y1))
    return buffer.reshape(height, width), seen


def rasterise(buffer, width, tri, which, tile, bounds):
    """Draw the triangles ``which`` (each within a ``tile`` of rows by columns) into ``buffer``."""
    x0, x1, y0, y1 = (b[which, None, None] for b in bounds)
    px = x0 + np.arange(tile[1])[None, None, :]
    py = y0 + np.arange(tile[0])[None, :, None]
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = (
        tuple(tri[which, k, j][:, None, None] for j in range(3)) for k in range(3)
    )
    area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
    area = np.where(np.abs(area) < 1e-12, np.nan, area)
    mx, my = px + 0.5, py + 0.5
    wa = ((bx - mx) * (cy - my) - (cx - mx) * (by - my)) / area
    wb = ((cx - mx) * (ay - my) - (ax - mx) * (cy - my)) / area
    wc = 1 - wa - wb
    inside = (wa >= 0) & (wb >= 0) & (wc >= 0) & (px < x1) & (py < y1)
    depth = 1 / (wa / az + wb / bz + wc / cz)  # perspective-correct
    flat = np.broadcast_to(py * width + px, inside.shape)
    np.minimum.at(buffer, flat[inside], depth[inside])


def zbuffer_visible(triangles, eye, points, any_pixel, pixel=0.5):
    """Which points the render shows from ``eye``: nothing nearer in the pixel around each
    (``any_pixel``: in any of the 3 x 3 pixels round it; else in all of them)."""
    buffer, seen = depth_buffer(triangles, eye, points, pixel)
    shown = []
    for x, y, depth in seen:
        col, row = int(x), int(y)
        around = buffer[row - 1 : row + 2, col - 1 : col + 2]
        nearer = around < depth - 0.05
        shown.append(not nearer.all() if any_pixel else not nearer.any())
    return np.array(shown)


def test_the_rendered_stl_files_hide_every_secret_from_the_neighbours(
    cad, layout, committed_triangles
):
    """Every 10 degrees, at each range, the lowest and highest eyes (the ray caster takes
    every eye; the render is the slower check)."""
    points = cad.sightlines.secret_points(layout)
    azimuths = tuple(float(s * a) for s in (-1, 1) for a in range(40, 95, 10))
    for eye in cad.sightlines.neighbour_eyes(azimuths, heights=(400.0, 550.0)):
        shown = zbuffer_visible(committed_triangles, eye, points, any_pixel=True)
        assert not shown.any(), (eye, points[shown])


def test_the_rendered_stl_files_show_the_holder_the_whole_screen(cad, layout, committed_triangles):
    """In pixels of 0.2 mm: from the farthest, lowest eye the plate's front edge passes
    0.76 mm from the screen's front corners, under 2 pixels of 0.5 mm seen that slant."""
    points = cad.sightlines.screen_points(layout)
    for eye in cad.sightlines.holder_eyes():
        shown = zbuffer_visible(committed_triangles, eye, points, any_pixel=False, pixel=0.2)
        assert shown.all(), (eye, points[~shown])


def test_the_render_sees_the_secrets_without_the_hood(cad, layout, assembled):
    plate = np.concatenate([assembled_stl(cad, assembled, n) for n in ("box-lid", "box-riser")])
    points = cad.sightlines.secret_points(layout)
    eye = cad.sightlines.around(45.0, 600.0, 450.0)
    assert zbuffer_visible(plate, np.array(eye), points, any_pixel=False).sum() > len(points) // 2


# -- fit ----------------------------------------------------------------------------------


def overlap(a, b) -> float:
    """The volume two solids share (0 when their bounding boxes are apart)."""
    ba, bb = a.bounding_box(), b.bounding_box()
    low, high = np.maximum(tuple(ba.min), tuple(bb.min)), np.minimum(tuple(ba.max), tuple(bb.max))
    return (a & b).volume if np.all(low < high) else 0.0


def test_every_part_fits_its_cut_out_and_touches_no_other(cad, layout, assembled):
    s = cad.solids
    groups = [
        (s.box_parts(layout), ["box-base", "box-lid", "box-hood", "box-riser"]),
        (s.handset_parts(layout), ["handset-base", "handset-lid"]),
    ]
    for parts, pieces in groups:
        for name, part in parts.items():
            for piece in pieces:
                assert overlap(part, assembled[piece]) < 1e-3, (name, piece)
        names = sorted(parts)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                assert overlap(parts[a], parts[b]) < 1e-3, (a, b)


def test_the_printed_pieces_fit_together(assembled):
    """The lid sits on the base's walls and inside them, the hood's pegs and the riser's
    spigot in the lid's holes."""
    box = ["box-base", "box-lid", "box-hood", "box-riser"]
    for i, a in enumerate(box):
        for b in box[i + 1 :]:
            assert overlap(assembled[a], assembled[b]) < 1e-3, (a, b)
    assert overlap(assembled["handset-base"], assembled["handset-lid"]) < 1e-3


def test_a_button_hole_too_small_is_caught(cad, layout):
    tight = replace(layout, button=replace(layout.button, hole=11.5))
    lid = cad.solids.box_lid(tight)
    button = cad.solids.box_parts(tight)["button ok"]
    assert overlap(button, lid) > 1.0


def test_the_hood_stands_on_pegs_that_survive_printing_and_use(cad, layout, assembled):
    """Pegs of at least 4 mm (the first ones, 2.4 mm, snapped), each in a solid block at the
    foot of a side wall, in holes of their size."""
    h = layout.hood
    assert h.peg[0] >= 4.0 and h.peg_hole >= h.peg[0]
    for x, y in cad.solids.hood_pegs(layout):
        peg = cad.solids.rod((x, y), (layout.box.height - h.peg[1], layout.box.height), h.peg[0])
        assert overlap(peg, assembled["box-hood"]) == pytest.approx(peg.volume, rel=1e-3)
        collar = cad.solids.rod((x, y), (layout.box.height, layout.box.height + 3), h.peg[0] + 3)
        assert overlap(collar, assembled["box-hood"]) == pytest.approx(collar.volume, rel=1e-3)


def test_every_plug_seats(cad, layout, assembled):
    """A micro-B plug's moulding (12 x 8 mm) reaches within 2 mm of each socket: no printed
    piece stands in its way."""
    keepouts = cad.solids.plug_keepouts(layout)
    assert set(keepouts) == {"power", "data", "pico"}
    for name, room in keepouts.items():
        piece = assembled["handset-base" if name == "pico" else "box-base"]
        assert overlap(room, piece) < 1e-3, name


def test_a_wall_in_front_of_a_socket_is_caught(cad, layout):
    """Openings cut round a plug's metal shell only (6 mm high, as the first ones were) in a
    wall 4 mm in front of the socket stop the moulding."""
    small = replace(layout, plug=replace(layout.plug, moulding=(9.4, 5.4)))
    base = cad.solids.box_base(small)
    for name in ("power", "data"):
        assert overlap(cad.solids.plug_keepouts(layout)[name], base) > 1.0


def test_the_fit_coupon_has_every_hole_and_a_peg(cad, layout, printed):
    coupon = printed["fit-coupon"]
    holes = cad.solids.coupon_holes(layout)
    assert holes["hood peg"] == layout.hood.peg_hole and holes["button"] == layout.button.hole
    plate = cad.solids.block((-1e3, 1e3), (-1e3, 1e3), (0, layout.box.top))
    box = coupon.bounding_box()
    solid = (box.max.X - box.min.X) * (box.max.Y - box.min.Y) * layout.box.top
    allowance = layout.printing.hole_allowance
    drilled = sum(np.pi * (d + allowance) ** 2 / 4 * layout.box.top for d in holes.values())
    assert (coupon & plate).volume == pytest.approx(solid - drilled, rel=1e-3)


def test_the_readme_shows_the_rendered_box():
    assert "](hardware/enclosure/box.png)" in README.read_text()
    with (FOLDER / "box.png").open("rb") as picture:
        assert picture.read(8) == b"\x89PNG\r\n\x1a\n"
