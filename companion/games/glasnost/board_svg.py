"""The Glasnost board as an SVG drawing, so a table can check a board file or print one.

Pure: takes a validated ``Board`` and returns the SVG text. Crisis spaces
stand on a circle in the order the board lists them; an ordinary seat sits
between its two crises (pulled inward when they are not neighbours, so it
does not cover a crisis); a connected seat sits inside the circle toward
its crisis (turned a little aside), joined to its partner by a dotted line,
as on the printed board.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from companion.games.glasnost.board import Board

WIDTH, HEIGHT = 1240, 900  # wide enough for the longest crisis labels beside the ring
CX, CY = WIDTH / 2, HEIGHT / 2
RADIUS = 300
CRISIS_R = 34
SEAT_R = 15


def crisis_xy(index: int, count: int) -> tuple[float, float]:
    """Where crisis space ``index`` of ``count`` sits, round the circle from the top."""
    angle = -math.pi / 2 + 2 * math.pi * index / count
    return CX + RADIUS * math.cos(angle), CY + RADIUS * math.sin(angle)


def seat_xy(board: Board, seat: int) -> tuple[float, float]:
    """Where board seat ``seat`` sits: among its crises (the TV's picture draws the same)."""
    count = len(board.crises)
    points = [crisis_xy(c, count) for c in board.seat_crises[seat]]
    x = sum(p[0] for p in points) / len(points) - CX
    y = sum(p[1] for p in points) / len(points) - CY
    dist = math.hypot(x, y) or 1.0
    if board.partner[seat] is not None:
        # Inside the circle and turned aside, so its line misses a seat in front of the crisis.
        turn = math.radians(25)
        x, y = x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn)
        scale = 0.45 * RADIUS / dist
    elif dist < 0.9 * RADIUS:
        scale = 0.72 * RADIUS / dist
    else:
        scale = 1.0
    return CX + x * scale, CY + y * scale


def board_svg(board: Board) -> str:
    """An SVG of ``board`` with crisis and seat numbers (as the data numbers them)."""
    count = len(board.crises)
    crisis_at = [crisis_xy(c, count) for c in range(count)]
    seat_at = [seat_xy(board, p) for p in range(len(board.seat_crises))]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#f4efe4"/>',
        f'<text x="{CX}" y="28" font-size="20" text-anchor="middle">{escape(board.name)}</text>',
    ]
    for p, crises in enumerate(board.seat_crises):
        sx, sy = seat_at[p]
        for c in crises:
            cx, cy = crisis_at[c]
            out.append(
                f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{cx:.1f}" y2="{cy:.1f}" '
                'stroke="#777" stroke-width="2"/>'
            )
    for a, b in board.connected:
        (ax, ay), (bx, by) = seat_at[a], seat_at[b]
        out.append(
            f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
            'stroke="#333" stroke-width="2" stroke-dasharray="6 5"/>'
        )
    for c, crisis in enumerate(board.crises):
        cx, cy = crisis_at[c]
        angle = math.atan2(cy - CY, cx - CX)
        lx, ly = CX + (RADIUS + 52) * math.cos(angle), CY + (RADIUS + 52) * math.sin(angle)
        anchor = "middle" if abs(math.cos(angle)) < 0.3 else "start" if lx > CX else "end"
        policies = f"Yes: reform {crisis.yes} / No: repress {crisis.no}"
        out += [
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{CRISIS_R}" fill="#b22222" stroke="#111"/>',
            f'<text x="{cx:.1f}" y="{cy + 7:.1f}" font-size="20" fill="#fff" '
            f'text-anchor="middle">{crisis.id}</text>',
            f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="14" text-anchor="{anchor}">'
            f"{escape(crisis.name)}</text>",
            f'<text x="{lx:.1f}" y="{ly + 16:.1f}" font-size="11" text-anchor="{anchor}" '
            f'fill="#444">{escape(policies)}</text>',
        ]
    for p, (sx, sy) in enumerate(seat_at):
        out += [
            f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="{SEAT_R}" fill="#fff" stroke="#111" '
            'stroke-width="2"/>',
            f'<text x="{sx:.1f}" y="{sy + 5:.1f}" font-size="13" text-anchor="middle">'
            f"{board.seat_ids[p]}</text>",
        ]
    out.append("</svg>")
    return "\n".join(out) + "\n"
