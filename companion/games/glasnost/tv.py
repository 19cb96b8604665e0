"""Glasnost on the TV and the phones: its status in words, what a seat is doing, its picture.

Read by the whole table from across the room, so every line is a sentence
written from the public view alone, through the box's catalog (``t``); the
picture is drawn from the pieces of ``companion.web.pictures``.
"""

from __future__ import annotations

import math
from typing import Any

from companion.games.glasnost import board_svg, screens
from companion.games.glasnost.board import Board, Crisis
from companion.ui.i18n import Translate
from companion.web.hand import peek_card as private_card
from companion.web.pictures import svg, text

View = dict[str, Any]
COLOURS = {"reform": "#2e7d32", "repress": "#b71c1c", None: "#555"}

__all__ = ["for_the_table", "picture", "private_card", "status_words"]


def status_words(view: View, ui: Any, t: Translate) -> str:
    """The OLED's status line said in words, for the room."""
    left = t("Coup tokens left: {n}").format(n=view["coup_tokens"]["left"])
    if view["chairman"] is None:
        return left
    return t("Chairman: seat {n}").format(n=view["chairman"] + 1) + " · " + left


def for_the_table(kind: str, t: Translate) -> str | None:
    """A hand-over line that speaks to the seat holding the box, rewritten for the table."""
    lines = {
        "peek": t("Reading an objective card in secret."),
        "sit": t("The chairman takes a seat on the board."),
    }
    return lines.get(kind)


def picture(view: dict[str, Any], t: Translate) -> str:
    """The board: crises on a ring with their number and name, closed ones ringed in their
    policy's colour, the players' tokens on the board seats, the domains' policies."""
    crises = sorted(view["crises"], key=lambda c: c["space"])
    count = len(crises)
    width, height = board_svg.WIDTH, board_svg.HEIGHT
    cx, cy = width / 2, height / 2
    body = []
    seats = view["board_seats"]
    board = board_of(view)
    spots = [board_svg.seat_xy(board, p) for p in range(len(seats))]
    for p, seat in enumerate(seats):
        for c in seat["crises"]:
            x, y = board_svg.crisis_xy(c, count)
            body.append(
                f'<line x1="{spots[p][0]:.0f}" y1="{spots[p][1]:.0f}" x2="{x:.0f}" y2="{y:.0f}" '
                'stroke="#999" stroke-width="2"/>'
            )
    for crisis in crises:
        x, y = board_svg.crisis_xy(crisis["space"], count)
        policy = crisis.get("policy") or {}
        ring = COLOURS.get(policy.get("direction")) if crisis["closed"] else None
        angle = math.atan2(y - cy, x - cx)
        lx = cx + (board_svg.RADIUS + 50) * math.cos(angle)
        ly = cy + (board_svg.RADIUS + 50) * math.sin(angle) + 8
        anchor = "middle" if abs(math.cos(angle)) < 0.3 else "start" if lx > cx else "end"
        body += [
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{board_svg.CRISIS_R}" fill="#b22222"/>',
            text(x, y + 9, str(crisis["id"]), 26, fill="#fff", text_anchor="middle"),
            text(lx, ly, screens.crisis_name(crisis["name"], t), 24, text_anchor=anchor),
        ]
        if ring:
            body.append(
                f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{board_svg.CRISIS_R + 7}" fill="none" '
                f'stroke="{ring}" stroke-width="8"/>'
            )
    for p, seat in enumerate(seats):
        x, y = spots[p]
        taken = seat["owner"] is not None
        fill = "#1565c0" if taken and seat["face_up"] else "#455a64" if taken else "#fff"
        label = str(seat["owner"] + 1) if taken else ""
        body += [
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="20" fill="{fill}" stroke="#111"/>',
            text(x, y + 9, label, 26, fill="#fff", text_anchor="middle"),
        ]
    labels = {"economy": t("Economy"), "military": t("Military"), "security": t("Security")}
    words = {"reform": t("Reform"), "repress": t("Repress"), None: "-"}
    for i, domain in enumerate(sorted(view["policies"])):
        direction = view["policies"][domain]
        line = f"{labels.get(domain, domain)}: {words[direction]}"
        body.append(text(20, 40 + 34 * i, line, 28, fill=COLOURS[direction]))
    return svg(width, height, body)


def board_of(view: dict[str, Any]) -> Board:
    """The board as the view describes it (crises by space, seats with their crises)."""
    crises = sorted(view["crises"], key=lambda c: c["space"])
    return Board(
        name=view["board"],
        crises=tuple(
            Crisis(c["id"], c["name"], c["yes"]["domain"], c["no"]["domain"]) for c in crises
        ),
        seat_crises=tuple(tuple(s["crises"]) for s in view["board_seats"]),
        partner=tuple(s["connected"] for s in view["board_seats"]),
        seat_ids=tuple(s["id"] for s in view["board_seats"]),
    )
