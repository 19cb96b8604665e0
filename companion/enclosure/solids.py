"""The printed pieces and the bought parts, as build123d solids made from the panel layout.

Every piece is built where it sits in the assembled box (x right and y away from the holder,
z up from the table), so the hood's sight check and the parts' fit check look at the real
arrangement; :func:`for_printing` turns a piece the way it goes on the print bed (lid and hood
upside down, so that nothing overhangs). Openings in walls have a pointed top (50 degrees
from the horizontal) for the same reason.
"""

from __future__ import annotations

import math
from dataclasses import replace

from build123d import Align, Cylinder, Part, Plane, Polygon, Pos, Rot, extrude
from build123d import Box as Block

from companion.enclosure.layout import Box, Layout, Pair

BOTTOM = (Align.CENTER, Align.CENTER, Align.MIN)
ROOF_SLOPE = 50.0  # degrees from the horizontal: steeper than a printer's 45 degree limit
FLIPPED = ("box-lid", "box-hood", "handset-lid")  # printed top face down
PIECES = ("box-base", "box-lid", "box-hood", "handset-base", "handset-lid")


def block(x: Pair, y: Pair, z: Pair) -> Part:
    """The axis-aligned box between the given (low, high) bounds."""
    (x0, x1), (y0, y1), (z0, z1) = x, y, z
    return Pos((x0 + x1) / 2, (y0 + y1) / 2, z0) * Block(x1 - x0, y1 - y0, z1 - z0, align=BOTTOM)


def rod(at: Pair, z: Pair, diameter: float) -> Part:
    """An upright cylinder from z[0] to z[1]."""
    return Pos(at[0], at[1], z[0]) * Cylinder(diameter / 2, z[1] - z[0], align=BOTTOM)


def centred(at: Pair, size: Pair, z: Pair) -> Part:
    return block(
        (at[0] - size[0] / 2, at[0] + size[0] / 2), (at[1] - size[1] / 2, at[1] + size[1] / 2), z
    )


def opening(at: Pair, bottom: float, size: Pair, through: str, depth: float) -> Part:
    """A hole through an upright wall with a pointed top, so it prints without support.

    ``at`` is the middle of the wall where the hole's centre line crosses it (``through``
    says whether the hole runs along x or y), ``size`` its width and the height of its upright
    sides, ``depth`` its length: the wall's thickness and a little more, no further.
    """
    width, height = size
    peak = height + width / 2 * math.tan(math.radians(ROOF_SLOPE))
    outline = [(-width / 2, 0.0), (width / 2, 0.0), (width / 2, height), (0.0, peak)]
    outline.append((-width / 2, height))
    prism = extrude(Plane.XZ * Polygon(*outline, align=None), amount=depth / 2, both=True)
    if through == "x":
        prism = Rot(0, 0, 90) * prism
    return Pos(at[0], at[1], bottom) * prism


def box_shell(layout: Layout) -> Box:
    return layout.box


def handset_shell(layout: Layout) -> Box:
    """A handset's case: the box's walls and fits, its own size."""
    return replace(layout.box, size=layout.handset.size, height=layout.handset.height)


def posts(part: Part, holes: list[Pair], floor: float, post: Pair, pilot: float) -> Part:
    """Screw posts standing on the floor, each with its pilot hole."""
    for at in holes:
        part += rod(at, (floor, floor + post[1]), post[0])
        part -= rod(at, (floor, floor + post[1] + 1), pilot)
    return part


def tray(shell: Box, layout: Layout) -> Part:
    """A base: floor, four walls, a screw post in each corner."""
    w, d = shell.size
    outer = block((-w / 2, w / 2), (-d / 2, d / 2), (0, shell.rim))
    inside = block(
        (-w / 2 + shell.wall, w / 2 - shell.wall),
        (-d / 2 + shell.wall, d / 2 - shell.wall),
        (shell.wall, shell.rim + 1),
    )
    part = outer - inside
    screws = layout.corner_screws
    for at in shell.corners(screws.inset):
        part += rod(at, (shell.wall, shell.rim), screws.post)
        part -= rod(at, (shell.rim - screws.depth, shell.rim + 1), screws.pilot)
    return part


def plate(shell: Box, layout: Layout) -> Part:
    """A lid: the top plate, a rim that locates it inside the walls, the screw holes."""
    w, d = shell.size
    z = (shell.rim, shell.height)
    part = block((-w / 2, w / 2), (-d / 2, d / 2), z)
    gap = shell.wall + shell.fit
    thick, depth = shell.lip
    outer = block((-w / 2 + gap, w / 2 - gap), (-d / 2 + gap, d / 2 - gap), (z[0] - depth, z[0]))
    gap += thick
    inner = block((-w / 2 + gap, w / 2 - gap), (-d / 2 + gap, d / 2 - gap), (z[0] - depth, z[0]))
    rim = outer - inner
    screws = layout.corner_screws
    clear = screws.post / 2 + shell.fit
    for x, y in shell.corners(screws.inset):
        # a square notch round each corner post: the rim ends square, with no thin tips
        notch_x = (x - clear, w) if x > 0 else (-w, x + clear)
        notch_y = (y - clear, d) if y > 0 else (-d, y + clear)
        rim -= block(notch_x, notch_y, (z[0] - depth - 1, z[0]))
        part -= rod((x, y), (z[0] - 1, z[1] + 1), screws.clearance)
    return part + rim


def button_hole(layout: Layout, at: Pair, shell: Box) -> Part:
    return rod(at, (shell.rim - 1, shell.height + 1), layout.button.hole)


def led_hole(layout: Layout, at: Pair, shell: Box) -> Part:
    return rod(at, (shell.rim - 1, shell.height + 1), layout.leds.led_hole)


def four_holes(at: Pair, spacing: Pair) -> list[Pair]:
    """A module's mounting holes: the corners of a rectangle centred on ``at``."""
    return [
        (at[0] + sx * spacing[0] / 2, at[1] + sy * spacing[1] / 2)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]


def oled_pins(layout: Layout) -> list[Pair]:
    return four_holes(layout.oled.at, layout.oled.holes)


def oled_window(layout: Layout) -> tuple[Pair, Pair]:
    """The screen's opening in the plate: x and y bounds."""
    o = layout.oled
    cx, cy = o.at[0] + o.active_offset[0], o.at[1] + o.active_offset[1]
    side, front = o.window_margin
    half_w, half_h = o.active[0] / 2, o.active[1] / 2
    return (cx - half_w - side, cx + half_w + side), (cy - half_h - front, cy + half_h + side)


def sound_holes(layout: Layout) -> list[Pair]:
    x, y = layout.buzzer.at
    step = layout.buzzer.sound_holes + 2.0  # 2 mm of plate between holes
    return [(x, y), (x - step, y), (x + step, y), (x, y - step), (x, y + step)]


def box_lid(layout: Layout) -> Part:
    shell = box_shell(layout)
    part = plate(shell, layout)
    under = shell.rim
    for at in layout.buttons.values():
        part -= button_hole(layout, at, shell)
    leds = layout.leds
    bar = (leds.bar_size[0] + shell.fit, leds.bar_size[1] + shell.fit)
    part -= centred(leds.bar, bar, (under - 1, shell.height + 1))
    for at in (leds.status_a, leds.status_b):
        part -= led_hole(layout, at, shell)
    x, y = oled_window(layout)
    part -= block(x, y, (under - 1, shell.height + 1))
    o = layout.oled
    pin_length = o.glass[2] + o.board[2] + 1.5
    for at in oled_pins(layout):
        part += rod(at, (under - pin_length, under), o.pin)
    buzzer = layout.buzzer
    ring = buzzer.size[0] + shell.fit
    part += rod(buzzer.at, (under - buzzer.ring[1], under), ring + 2 * buzzer.ring[0])
    part -= rod(buzzer.at, (under - buzzer.ring[1] - 1, under), ring)
    for at in sound_holes(layout):
        part -= rod(at, (under - 1, shell.height + 1), buzzer.sound_holes)
    for at in hood_pegs(layout):
        part -= rod(at, (under - 1, shell.height + 1), layout.hood.peg_hole)
    return part


def pi_holes(layout: Layout) -> list[Pair]:
    return four_holes(layout.pi.at, layout.pi.holes)


def port_centres(layout: Layout) -> dict[str, tuple[float, float, float]]:
    """Each micro-USB socket's centre: the board's SD-card end is to the right, ports at back."""
    p, ports = layout.pi, layout.ports
    right, back = p.at[0] + p.size[0] / 2, p.at[1] + p.size[1] / 2
    z = layout.box.wall + p.post[1] + p.size[2] + ports.height
    return {
        name: (right - along, back, z)
        for name, along in (("power", ports.power), ("data", ports.data))
    }


def box_base(layout: Layout) -> Part:
    shell = box_shell(layout)
    part = tray(shell, layout)
    part = posts(part, pi_holes(layout), shell.wall, layout.pi.post, layout.pi.pilot)
    size = layout.ports.opening
    wall_y = shell.size[1] / 2 - shell.wall / 2
    for x, _, z in port_centres(layout).values():
        part -= opening((x, wall_y), z - size[1] / 2, size, "y", shell.wall + 1)
    return part


def hood_pegs(layout: Layout) -> list[Pair]:
    h = layout.hood
    x = h.inner[0] / 2 + h.wall / 2
    return [(sx * x, y) for sx in (-1, 1) for y in h.peg_y]


def box_hood(layout: Layout) -> Part:
    """The privacy hood: a roof, two sides and a back; open only toward the holder."""
    h, z = layout.hood, layout.box.height
    half = h.inner[0] / 2
    outer = block(
        (-half - h.wall, half + h.wall), (h.front, h.back + h.wall), (z, z + h.inner[1] + h.wall)
    )
    inside = block((-half, half), (h.front - 1, h.back), (z - 1, z + h.inner[1]))
    part = outer - inside
    for at in hood_pegs(layout):
        part += rod(at, (z - h.peg[1], z), h.peg[0])
    return part


def handset_base(layout: Layout) -> Part:
    shell = handset_shell(layout)
    part = tray(shell, layout)
    hs = layout.handset
    part = posts(part, pico_holes(layout), shell.wall, hs.pico_post, hs.pico_pilot)
    _, y, z = pico_port(layout)
    wall_x = -shell.size[0] / 2 + shell.wall / 2
    part -= opening((wall_x, y), z - hs.pico_port[1] / 2, hs.pico_port, "x", shell.wall + 1)
    return part


def handset_lid(layout: Layout) -> Part:
    shell = handset_shell(layout)
    part = plate(shell, layout)
    hs = layout.handset
    for at in (hs.choice_a, hs.choice_b):
        part -= button_hole(layout, at, shell)
    return part - led_hole(layout, hs.led, shell)


def pico_holes(layout: Layout) -> list[Pair]:
    return four_holes(layout.handset.pico, layout.handset.pico_holes)


def pico_port(layout: Layout) -> tuple[float, float, float]:
    """The Pico's USB socket centre: at its -x end, on top of the board."""
    hs = layout.handset
    z = layout.box.wall + hs.pico_post[1] + hs.pico_size[2] + layout.ports.height
    return hs.pico[0] - hs.pico_size[0] / 2, hs.pico[1], z


def pieces(layout: Layout) -> dict[str, Part]:
    """Every printed piece, where it sits when assembled (each case about its own middle)."""
    return {
        "box-base": box_base(layout),
        "box-lid": box_lid(layout),
        "box-hood": box_hood(layout),
        "handset-base": handset_base(layout),
        "handset-lid": handset_lid(layout),
    }


def for_printing(name: str, part: Part) -> Part:
    """The piece as it lies on the print bed: flat face down, centred, resting on z = 0."""
    if name in FLIPPED:
        part = Rot(180, 0, 0) * part
    box = part.bounding_box()
    return Pos(-box.center().X, -box.center().Y, -box.min.Z) * part


def shorter_hood(layout: Layout, by: float) -> Layout:
    """The same layout with the hood's opening ``by`` mm nearer the screen (for the sight test)."""
    return replace(layout, hood=replace(layout.hood, front=layout.hood.front + by))


# -- the bought parts, as simple solids: for the fit check and the picture ------------


def button_part(layout: Layout, at: Pair, shell: Box) -> Part:
    b = layout.button
    cap = rod(at, (shell.height, shell.height + b.cap[1]), b.cap[0])
    thread = rod(at, (shell.rim, shell.height), b.thread)
    body = rod(at, (shell.rim - b.body[1], shell.rim), b.body[0])
    return cap + thread + body


def led_part(layout: Layout, at: Pair, shell: Box) -> Part:
    diameter, length = layout.leds.led
    lens = rod(at, (shell.height - length + 1.0, shell.height + 1.0), diameter)
    flange = rod(at, (shell.rim - 1.0, shell.rim), diameter + 0.8)
    return lens + flange


def box_parts(layout: Layout) -> dict[str, Part]:
    """The box's bought parts where they sit: buttons, screen, LEDs, buzzer, the Pi."""
    shell = box_shell(layout)
    under = shell.rim
    parts = {f"button {n}": button_part(layout, at, shell) for n, at in layout.buttons.items()}
    o = layout.oled
    glass_z = (under - o.glass[2], under)
    glass = centred(o.at, o.glass[:2], glass_z)
    pcb = board(o.at, o.board, oled_pins(layout), o.hole, glass_z[0] - o.board[2])
    parts["oled"] = glass + pcb
    leds = layout.leds
    parts["bar"] = centred(
        leds.bar, leds.bar_size[:2], (shell.height - leds.bar_size[2], shell.height)
    )
    parts["status_a"] = led_part(layout, leds.status_a, shell)
    parts["status_b"] = led_part(layout, leds.status_b, shell)
    bz = layout.buzzer
    parts["buzzer"] = rod(bz.at, (under - bz.size[1], under), bz.size[0])
    p = layout.pi
    pi = board(p.at, p.size, pi_holes(layout), p.hole, shell.wall + p.post[1])
    top = shell.wall + p.post[1] + p.size[2]
    front = p.at[1] - p.size[1] / 2
    pi += centred(p.at, (p.size[0] - 14, p.size[1] - 10), (top, top + 3))  # chips, sockets
    pi += block((p.at[0] - 25.5, p.at[0] + 25.5), (front + 1, front + 6), (top, top + p.above))
    parts["pi"] = pi
    return parts


def board(
    at: Pair, size: tuple[float, float, float], holes: list[Pair], hole: float, z: float
) -> Part:
    """A circuit board lying at height ``z``, with its mounting holes."""
    part = centred(at, size[:2], (z, z + size[2]))
    for centre in holes:
        part -= rod(centre, (z - 1, z + size[2] + 1), hole)
    return part


def handset_parts(layout: Layout) -> dict[str, Part]:
    shell = handset_shell(layout)
    hs = layout.handset
    parts = {
        "button choice_a": button_part(layout, hs.choice_a, shell),
        "button choice_b": button_part(layout, hs.choice_b, shell),
        "led": led_part(layout, hs.led, shell),
    }
    board_z = shell.wall + hs.pico_post[1]
    pico = board(hs.pico, hs.pico_size, pico_holes(layout), hs.pico_hole, board_z)
    top = board_z + hs.pico_size[2]
    pico += centred(
        hs.pico, (hs.pico_size[0] - 12, hs.pico_size[1] - 6), (top, top + hs.pico_above)
    )
    parts["pico"] = pico
    return parts
