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

from companion.enclosure.layout import Box, Layout, Pair, oled_window

BOTTOM = (Align.CENTER, Align.CENTER, Align.MIN)
ROOF_SLOPE = 50.0  # degrees from the horizontal: steeper than a printer's 45 degree limit
FLIPPED = ("box-lid", "box-hood", "box-riser", "handset-lid")  # printed top face down
PIECES = (
    "box-base",
    "box-lid",
    "box-hood",
    "box-riser",
    "handset-base",
    "handset-lid",
    "fit-coupon",
)


def block(x: Pair, y: Pair, z: Pair) -> Part:
    """The axis-aligned box between the given (low, high) bounds."""
    (x0, x1), (y0, y1), (z0, z1) = x, y, z
    return Pos((x0 + x1) / 2, (y0 + y1) / 2, z0) * Block(x1 - x0, y1 - y0, z1 - z0, align=BOTTOM)


def rod(at: Pair, z: Pair, diameter: float) -> Part:
    """An upright cylinder from z[0] to z[1]."""
    return Pos(at[0], at[1], z[0]) * Cylinder(diameter / 2, z[1] - z[0], align=BOTTOM)


def hole(layout: Layout, at: Pair, z: Pair, diameter: float) -> Part:
    """A round hole as drawn for the printer: ``diameter`` is the hole wanted, and the layout's
    allowance is added, because FDM prints small holes undersize."""
    return rod(at, z, diameter + layout.printing.hole_allowance)


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


def posts(
    layout: Layout, part: Part, holes: list[Pair], floor: float, post: Pair, pilot: float
) -> Part:
    """Screw posts standing on the floor, each with its pilot hole."""
    for at in holes:
        part += rod(at, (floor, floor + post[1]), post[0])
        part -= hole(layout, at, (floor, floor + post[1] + 1), pilot)
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
        part -= hole(layout, at, (shell.rim - screws.depth, shell.rim + 1), screws.pilot)
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
        part -= hole(layout, (x, y), (z[0] - 1, z[1] + 1), screws.clearance)
    return part + rim


def button_hole(layout: Layout, at: Pair, shell: Box) -> Part:
    return hole(layout, at, (shell.rim - 1, shell.height + 1), layout.button.hole)


def led_hole(layout: Layout, at: Pair, shell: Box) -> Part:
    return hole(layout, at, (shell.rim - 1, shell.height + 1), layout.leds.led_hole)


def four_holes(at: Pair, spacing: Pair) -> list[Pair]:
    """A module's mounting holes: the corners of a rectangle centred on ``at``."""
    return [
        (at[0] + sx * spacing[0] / 2, at[1] + sy * spacing[1] / 2)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]


def oled_pins(layout: Layout) -> list[Pair]:
    return four_holes(layout.oled.at, layout.oled_module.holes_mm)


def sound_holes(layout: Layout) -> list[Pair]:
    x, y = layout.buzzer.at
    step = layout.buzzer.sound_holes + 2.0  # 2 mm of plate between holes
    return [(x, y), (x - step, y), (x + step, y), (x, y - step), (x, y + step)]


def box_lid(layout: Layout) -> Part:
    shell = box_shell(layout)
    part = plate(shell, layout)
    under = shell.rim
    for name, at in layout.buttons.items():
        if name == layout.riser.under:
            spigot = layout.riser.spigot[0] + shell.fit
            part -= hole(layout, at, (under - 1, shell.height + 1), spigot)
        else:
            part -= button_hole(layout, at, shell)
    leds = layout.leds
    bar = (leds.bar_size[0] + shell.fit, leds.bar_size[1] + shell.fit)
    part -= centred(leds.bar, bar, (under - 1, shell.height + 1))
    for at in (leds.status_a, leds.status_b):
        part -= led_hole(layout, at, shell)
    x, y = oled_window(layout)
    part -= block(x, y, (under - 1, shell.height + 1))
    o = layout.oled
    pin_length = layout.oled_module.glass_mm[2] + layout.oled_module.thickness_mm + 1.5
    for at in oled_pins(layout):
        part += rod(at, (under - pin_length, under), o.pin)
    buzzer = layout.buzzer
    ring = buzzer.size[0] + shell.fit
    part += rod(buzzer.at, (under - buzzer.ring[1], under), ring + 2 * buzzer.ring[0])
    part -= rod(buzzer.at, (under - buzzer.ring[1] - 1, under), ring)
    for at in sound_holes(layout):
        part -= hole(layout, at, (under - 1, shell.height + 1), buzzer.sound_holes)
    for at in hood_pegs(layout):
        part -= hole(layout, at, (under - 1, shell.height + 1), layout.hood.peg_hole)
    return part


def box_riser(layout: Layout) -> Part:
    """The step under A: a round tower with the button's hole in its top, hollow for the
    button's body, and a spigot below that locates it in the lid's hole."""
    r, shell, b = layout.riser, box_shell(layout), layout.button
    at = layout.buttons[r.under]
    top = shell.height + r.height
    part = rod(at, (shell.height, top), r.diameter)
    part += rod(at, (shell.height - r.spigot[1], shell.height), r.spigot[0])
    part -= rod(at, (shell.height - r.spigot[1] - 1, top - shell.top), b.body[0] + 2 * shell.fit)
    return part - hole(layout, at, (top - shell.top - 1, top + 1), b.hole)


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


def plug_opening(layout: Layout, spread: float = 0.0) -> Pair:
    """Width and upright height of a wall opening that takes a plug's moulding (and another
    one ``spread`` mm beside it), with the fit's gap all round."""
    width, height = layout.plug.moulding
    gap = 2 * layout.box.fit
    return width + spread + gap, height + gap


def plug_keepouts(layout: Layout) -> dict[str, Part]:
    """The room each plug's moulding needs: its section, from ``plug.reach`` in front of the
    socket out to well beyond the wall. No printed piece may stand in it."""
    width, height = layout.plug.moulding
    reach, far = layout.plug.reach, 30.0
    keepouts = {}
    for name, (x, y, z) in port_centres(layout).items():
        keepouts[name] = block(
            (x - width / 2, x + width / 2), (y + reach, y + far), (z - height / 2, z + height / 2)
        )
    x, y, z = pico_port(layout)
    keepouts["pico"] = block(
        (x - far, x - reach), (y - width / 2, y + width / 2), (z - height / 2, z + height / 2)
    )
    return keepouts


def box_base(layout: Layout) -> Part:
    shell = box_shell(layout)
    part = tray(shell, layout)
    part = posts(layout, part, pi_holes(layout), shell.wall, layout.pi.post, layout.pi.pilot)
    sockets = list(port_centres(layout).values())
    xs = [x for x, _, _ in sockets]
    size = plug_opening(layout, spread=max(xs) - min(xs))
    wall_y = shell.size[1] / 2 - shell.wall / 2
    z = sockets[0][2]
    middle = ((min(xs) + max(xs)) / 2, wall_y)
    return part - opening(middle, z - size[1] / 2, size, "y", shell.wall + 1)


def hood_pegs(layout: Layout) -> list[Pair]:
    """The pegs' centres: in the blocks at the foot of the side walls."""
    h = layout.hood
    x = h.inner[0] / 2 + h.peg_block[0] / 2
    return [(sx * x, y) for sx in (-1, 1) for y in h.peg_y]


def peg_block(layout: Layout, y: float, side: int) -> Part:
    """The solid foot of a side wall round a peg: as wide as ``peg_block`` across the wall and
    as tall as it is wide, its outer top sloped at 50 degrees so it prints without support."""
    h, z = layout.hood, layout.box.height
    inner, width = h.inner[0] / 2, h.peg_block[0]
    rise = (width - h.wall) * math.tan(math.radians(ROOF_SLOPE))
    outline = [
        (0.0, 0.0),
        (width, 0.0),
        (width, width),
        (h.wall, width + rise),
        (0.0, width + rise),
    ]
    prism = extrude(Plane.XZ * Polygon(*outline, align=None), amount=h.peg_block[1] / 2, both=True)
    placed = Pos(inner, y, z) * prism
    return placed if side > 0 else Rot(0, 0, 180) * Pos(inner, -y, z) * prism


def box_hood(layout: Layout) -> Part:
    """The privacy hood: two sides, a back and a roof; open toward the holder, where the hand
    goes in, and along a slot in the roof in front of the screen, where the holder's sight
    lines to it pass. A neighbour's line to the screen, A, B or PEEK runs sideways as well as
    up, so it meets a side or the roof beside the slot before it leaves the hood."""
    h, z = layout.hood, layout.box.height
    half = h.inner[0] / 2
    top = z + h.inner[1] + h.wall
    outer = block((-half - h.wall, half + h.wall), (h.front, h.back + h.wall), (z, top))
    inside = block((-half, half), (h.front - 1, h.back), (z - 1, z + h.inner[1]))
    part = outer - inside
    if h.slot[0] > 0 and h.slot[1] > h.front:
        part -= block((-h.slot[0] / 2, h.slot[0] / 2), (h.front - 1, h.slot[1]), (z, top + 1))
    for y in h.peg_y:
        for side in (-1, 1):
            part += peg_block(layout, y, side)
    for at in hood_pegs(layout):
        part += rod(at, (z - h.peg[1], z), h.peg[0])
    return part


def handset_base(layout: Layout) -> Part:
    shell = handset_shell(layout)
    part = tray(shell, layout)
    hs = layout.handset
    part = posts(layout, part, pico_holes(layout), shell.wall, hs.pico_post, hs.pico_pilot)
    _, y, z = pico_port(layout)
    wall_x = -shell.size[0] / 2 + shell.wall / 2
    size = plug_opening(layout)
    return part - opening((wall_x, y), z - size[1] / 2, size, "x", shell.wall + 1)


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
        "box-riser": box_riser(layout),
        "handset-base": handset_base(layout),
        "handset-lid": handset_lid(layout),
        "fit-coupon": fit_coupon(layout),
    }


COUPON_GAP = 4.0  # mm of plate between the coupon's holes


def coupon_holes(layout: Layout) -> dict[str, float]:
    """Every round hole the pieces have, by what goes into it: the diameter wanted."""
    return {
        "button": layout.button.hole,
        "hood peg": layout.hood.peg_hole,
        "M3 clearance": layout.corner_screws.clearance,
        "3 mm LED": layout.leds.led_hole,
        "M3 pilot": layout.corner_screws.pilot,
        "M2.5 pilot": layout.pi.pilot,
        "sound": layout.buzzer.sound_holes,
        "M2 pilot": layout.handset.pico_pilot,
    }


def fit_coupon(layout: Layout) -> Part:
    """A strip to print before the rest: each hole of the case, drawn as the pieces draw it,
    and a hood peg beside them. If a button, LED, peg or screw does not go in as it should,
    change ``print.hole_allowance`` (or the part's size) and write the files again."""
    holes = coupon_holes(layout)
    thick = layout.box.top
    peg = layout.hood.peg
    x, centres = COUPON_GAP, []
    for diameter in holes.values():
        centres.append(x + diameter / 2)
        x += diameter + COUPON_GAP
    depth = max(holes.values()) + 2 * COUPON_GAP
    part = block((0.0, x + peg[0] + COUPON_GAP), (0.0, depth), (0.0, thick))
    for at, diameter in zip(centres, holes.values(), strict=True):
        part -= hole(layout, (at, depth / 2), (-1.0, thick + 1.0), diameter)
    return part + rod((x + peg[0] / 2, depth / 2), (thick, thick + peg[1]), peg[0])


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


def button_part(layout: Layout, at: Pair, shell: Box, lift: float = 0.0) -> Part:
    """A button in a plate whose top face is ``lift`` above the shell's."""
    b = layout.button
    top, under = shell.height + lift, shell.rim + lift
    cap = rod(at, (top, top + b.cap[1]), b.cap[0])
    thread = rod(at, (under, top), b.thread)
    body = rod(at, (under - b.body[1], under), b.body[0])
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
    parts = {
        f"button {n}": button_part(layout, at, shell, layout.lift(n))
        for n, at in layout.buttons.items()
    }
    o, m = layout.oled, layout.oled_module
    glass_z = (under - m.glass_mm[2], under)
    glass = centred(o.at, m.glass_mm[:2], glass_z)
    size = (*m.board_mm, m.thickness_mm)
    pcb = board(o.at, size, oled_pins(layout), m.hole_mm, glass_z[0] - m.thickness_mm)
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
