"""Each game's own picture for the TV, drawn as SVG from the public view alone.

Drawn to be read across a room: the TV page fits a picture to at least a thousand
pixels at 1920x1080, so no text here is smaller than ``SMALLEST`` units (2% of 1080
is 21.6 px); every word goes through the box's catalog (``t``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from companion.games import game_record
from companion.games.glasnost_board import Board, Crisis
from companion.ui import board_svg
from companion.ui import glasnost as glasnost_ui
from companion.ui import kolkhoz as kolkhoz_ui
from companion.ui import politburo as politburo_ui
from companion.ui.i18n import Translate
from companion.ui.kolkhoz import card_label, cards_label

SMALLEST = 24  # font size, in the picture's own units
COLOURS = {"reform": "#2e7d32", "repress": "#b71c1c", None: "#555"}


def picture(view: dict[str, Any], t: Translate = str) -> str:
    """The picture of the view's game (the ``picture`` of its record in the registry)."""
    draw: Callable[[dict[str, Any], Translate], str] = game_record(view["game"]).load("picture")
    return draw(view, t)


def _svg(width: int, height: int, body: list[str]) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            'font-family="sans-serif" role="img">',
            f'<rect width="{width}" height="{height}" fill="#f4efe4"/>',
            *body,
            "</svg>",
        ]
    )


def _text(x: float, y: float, text: str, size: int = SMALLEST, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    size = max(size, SMALLEST)
    return f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}"{extra}>{escape(text)}</text>'


def _bar(
    x: float, y: float, width: float, value: float, total: float, colour: str, height: int = 30
) -> list[str]:
    share = 0 if total <= 0 else max(0.0, min(1.0, value / total))
    return [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{width:.0f}" height="{height}" fill="#fff" '
        'stroke="#333"/>',
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{width * share:.0f}" height="{height}" '
        f'fill="{colour}"/>',
    ]


def glasnost(view: dict[str, Any], t: Translate) -> str:
    """The board: crises on a ring with their number and name, closed ones ringed in their
    policy's colour, the players' tokens on the board seats, the domains' policies."""
    crises = sorted(view["crises"], key=lambda c: c["space"])
    count = len(crises)
    width, height = board_svg.WIDTH, board_svg.HEIGHT
    cx, cy = width / 2, height / 2
    body = []
    seats = view["board_seats"]
    board = glasnost_board(view)
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
            _text(x, y + 9, str(crisis["id"]), 26, fill="#fff", text_anchor="middle"),
            _text(lx, ly, glasnost_ui.crisis_name(crisis["name"], t), 24, text_anchor=anchor),
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
            _text(x, y + 9, label, 26, fill="#fff", text_anchor="middle"),
        ]
    labels = {"economy": t("Economy"), "military": t("Military"), "security": t("Security")}
    words = {"reform": t("Reform"), "repress": t("Repress"), None: "-"}
    for i, domain in enumerate(sorted(view["policies"])):
        direction = view["policies"][domain]
        line = f"{labels.get(domain, domain)}: {words[direction]}"
        body.append(_text(20, 40 + 34 * i, line, 28, fill=COLOURS[direction]))
    return _svg(width, height, body)


def glasnost_board(view: dict[str, Any]) -> Board:
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


def _around_the_table(players: int, seat: int) -> tuple[float, float]:
    """Seat ``seat`` on an oval table, seat 1 (the box's) at the bottom, clockwise."""
    angle = math.pi / 2 + 2 * math.pi * seat / players
    return 500 + 390 * math.cos(angle), 400 + 175 * math.sin(angle)


def _table(players: int) -> str:
    return '<ellipse cx="500" cy="400" rx="300" ry="110" fill="#8d6e63" stroke="#4e342e"/>'


def gulag(view: dict[str, Any], t: Translate) -> str:
    """The canal against its goal, the deck, and the table: who is commissar, supervisor
    and worker this turn."""
    players = view["players"]
    body = [
        _text(20, 50, t("Canal {canal} of {canal_max}").format(**view), 40),
        *_bar(20, 70, 960, view["canal"], view["canal_max"], "#1565c0"),
        _table(players),
        _text(
            500,
            412,
            t("Deck: {red} red, {black} black").format(**view["deck"]),
            30,
            fill="#fff",
            text_anchor="middle",
        ),
    ]
    team = set(view["workers"])
    names = {"commissar": t("commissar"), "supervisor": t("supervisor"), "worker": t("worker")}
    fills = {"commissar": "#b71c1c", "supervisor": "#f9a825", "worker": "#1565c0"}
    roles = view.get("roles")
    winners = set((view.get("result") or {}).get("winners") or ())
    for seat in range(players):
        x, y = _around_the_table(players, seat)
        role = (
            "commissar"
            if seat == view["commissar"]
            else "supervisor"
            if seat == view["supervisor"]
            else "worker"
            if seat in team
            else ""
        )
        fill = fills.get(role, "#fff")
        if roles:  # the game is over: every role card is told (G7)
            fill = "#b71c1c" if roles[seat] == "red" else "#212121"
        ink = "#111" if fill in ("#fff", "#f9a825") else "#fff"
        if seat in winners:
            body.append(
                f'<circle cx="{x:.0f}" cy="{y:.0f}" r="54" fill="none" stroke="#f9a825" '
                'stroke-width="8"/>'
            )
        body += [
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="44" fill="{fill}" '
            'stroke="#111" stroke-width="2"/>',
            _text(x, y + 12, str(seat + 1), 36, fill=ink, text_anchor="middle"),
        ]
        if roles:
            role_name = t("red") if roles[seat] == "red" else t("black")
            below = y + 76 if y >= 400 else y - 54
            body.append(_text(x, below, role_name, 26, text_anchor="middle"))
        elif role:
            below = y + 76 if y >= 400 else y - 54
            body.append(_text(x, below, names[role], 26, text_anchor="middle"))
    return _svg(1000, 660, body)


def politburo(view: dict[str, Any], t: Translate) -> str:
    """The ministries' repression tracks, and each seat's influence (the secretary starred)."""
    body = []
    for i, (ministry, level) in enumerate(sorted(view["ministries"].items())):
        y = 20 + 64 * i
        name = politburo_ui.ministry_label(ministry, t)
        body += [
            _text(20, y + 34, f"{name}: {level}", 32),
            *_bar(360, y + 8, 620, level, 10, "#b71c1c"),
        ]
    body.append(_text(20, 260, t("Influence"), 32))
    winners = set((view.get("result") or {}).get("winners") or ())
    influence = view["influence"]
    top = max([*influence, 1])
    step = 940 // max(len(influence), 1)
    for seat, amount in enumerate(influence):
        x = 20 + step // 2 + seat * step
        height = 260 * amount / top
        mark = "★" if seat == view["secretary"] else ""
        colour = "#f9a825" if seat in winners else "#1565c0"
        body += [
            f'<rect x="{x - 30}" y="{590 - height:.0f}" width="60" height="{height:.0f}" '
            f'fill="{colour}"/>',
            _text(x, 630, f"{seat + 1}{mark}", 32, text_anchor="middle"),
            _text(x, 580 - height, str(amount), 28, text_anchor="middle"),
        ]
    return _svg(1000, 650, body)


def kolkhoz(view: dict[str, Any], t: Translate) -> str:
    """The jobs' hours against their thresholds, each seat's plot and hand, the trick: laid out
    about as tall as wide (1000 x 820 for four seats), so it fills the TV's height."""
    body = []
    for i, (suit, job) in enumerate(view["jobs"].items()):
        y = 20 + 100 * i
        done = " ✓" if job["done"] else ""
        label = f"{kolkhoz_ui.option_label(suit, t)} {job['hours']}/{job['threshold']}{done}"
        body += [
            _text(20, y + 40, label, 34),
            *_bar(420, y + 8, 560, job["hours"], job["threshold"], "#2e7d32", height=44),
        ]
    for seat, plot in enumerate(view["plots"]):
        y = 470 + 70 * seat
        shown = cards_label(plot["shown"]) or "-"
        line = t("Seat {n}: plot {shown} + {hidden} hidden, {hand} in hand").format(
            n=seat + 1, shown=shown, hidden=plot["hidden"], hand=view["hand_counts"][seat]
        )
        body.append(_text(20, y, line, 32))
    trick = "  ".join(f"{p['seat'] + 1}: {card_label(p['card'])}" for p in view["trick"]) or "-"
    bottom = 470 + 70 * len(view["plots"]) + 10
    body.append(_text(20, bottom, t("Trick: {cards}").format(cards=trick), 36))
    return _svg(1000, bottom + 40, body)
