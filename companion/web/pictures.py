"""Each game's own picture for the spectator page, drawn as SVG from the public view alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from companion.games import game_record
from companion.games.glasnost_board import Board, Crisis
from companion.ui import board_svg
from companion.ui.kolkhoz import card_label, cards_label

SUITS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
COLOURS = {"reform": "#2e7d32", "repress": "#b71c1c", None: "#9e9e9e"}


def picture(view: dict[str, Any]) -> str:
    """The picture of the view's game (the ``picture`` of its record in the registry)."""
    draw: Callable[[dict[str, Any]], str] = game_record(view["game"]).load("picture")
    return draw(view)


def _svg(width: int, height: int, body: list[str]) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            'font-family="sans-serif">',
            f'<rect width="{width}" height="{height}" fill="#f4efe4"/>',
            *body,
            "</svg>",
        ]
    )


def _text(x: float, y: float, text: str, size: int = 20, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}"{extra}>{escape(text)}</text>'


def _bar(x: float, y: float, width: float, value: float, total: float, colour: str) -> list[str]:
    share = 0 if total <= 0 else max(0.0, min(1.0, value / total))
    return [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{width:.0f}" height="26" fill="#fff" '
        'stroke="#333"/>',
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{width * share:.0f}" height="26" fill="{colour}"/>',
    ]


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


def glasnost(view: dict[str, Any]) -> str:
    """The board drawing, with each crisis's policy and the players' tokens on their seats."""
    board = glasnost_board(view)
    base = board_svg.board_svg(board).rstrip().removesuffix("</svg>")
    count = len(board.crises)
    out = [base]
    for crisis in view["crises"]:
        x, y = board_svg.crisis_xy(crisis["space"], count)
        policy = crisis.get("policy") or {}
        colour = COLOURS.get(policy.get("direction")) if crisis["closed"] else None
        if colour:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{board_svg.CRISIS_R + 6}" fill="none" '
                f'stroke="{colour}" stroke-width="6"/>'
            )
    for p, seat in enumerate(view["board_seats"]):
        if seat["owner"] is None:
            continue
        x, y = board_svg.seat_xy(board, p)
        fill = "#1565c0" if seat["face_up"] else "#78909c"
        out += [
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{board_svg.SEAT_R + 3}" fill="{fill}"/>',
            _text(x, y + 6, f"P{seat['owner'] + 1}", 15, fill="#fff", text_anchor="middle"),
        ]
    policies = view["policies"]
    for i, domain in enumerate(sorted(policies)):
        direction = policies[domain]
        out.append(
            _text(20, 60 + 26 * i, f"{domain}: {direction or '-'}", 20, fill=COLOURS[direction])
        )
    out.append("</svg>")
    return "\n".join(out)


def gulag(view: dict[str, Any]) -> str:
    players = view["players"]
    body = [
        _text(20, 40, f"Turn {view['turn']} of {view['turns']}", 28),
        _text(20, 90, f"Canal {view['canal']} / {view['canal_max']}", 24),
        *_bar(260, 68, 700, view["canal"], view["canal_max"], "#1565c0"),
        _text(20, 140, f"Deck: {view['deck']['red']} red, {view['deck']['black']} black", 22),
    ]
    team = set(view["workers"])
    for seat in range(players):
        x = 60 + seat * (900 // max(players, 1))
        role = (
            "commissar"
            if seat == view["commissar"]
            else "supervisor"
            if seat == view["supervisor"]
            else "worker"
            if seat in team
            else ""
        )
        fill = {"commissar": "#b71c1c", "supervisor": "#f9a825", "worker": "#1565c0"}.get(
            role, "#fff"
        )
        body += [
            f'<circle cx="{x}" cy="230" r="34" fill="{fill}" stroke="#111" stroke-width="2"/>',
            _text(x, 238, str(seat + 1), 24, text_anchor="middle"),
            _text(x, 290, role, 16, text_anchor="middle"),
        ]
    return _svg(1000, 320, body)


def politburo(view: dict[str, Any]) -> str:
    body = [_text(20, 40, f"Round {view['round']} of {view['rounds']}", 28)]
    for i, (ministry, level) in enumerate(sorted(view["ministries"].items())):
        y = 70 + 44 * i
        body += [
            _text(20, y + 20, f"{ministry}: {level}", 22),
            *_bar(260, y, 600, level, 10, "#b71c1c"),
        ]
    influence = view["influence"]
    top = max([*influence, 1])
    for seat, amount in enumerate(influence):
        x = 60 + seat * (900 // max(len(influence), 1))
        height = 140 * amount / top
        mark = " ★" if seat == view["secretary"] else ""
        body += [
            f'<rect x="{x - 25}" y="{380 - height:.0f}" width="50" height="{height:.0f}" '
            'fill="#1565c0"/>',
            _text(x, 400, f"{seat + 1}{mark}", 20, text_anchor="middle"),
            _text(x, 372 - height, str(amount), 18, text_anchor="middle"),
        ]
    return _svg(1000, 420, body)


def kolkhoz(view: dict[str, Any]) -> str:
    trump = SUITS.get(view["trump"] or "", "-")
    body = [_text(20, 40, f"Year {view['year']} of {view['years']}   Trump {trump}", 28)]
    for i, (suit, job) in enumerate(view["jobs"].items()):
        y = 70 + 44 * i
        done = " done" if job["done"] else ""
        body += [
            _text(20, y + 20, f"{SUITS[suit]} {job['gloss']}: {job['hours']}h{done}", 22),
            *_bar(360, y, 500, job["hours"], job["threshold"], "#2e7d32"),
        ]
    for seat, plot in enumerate(view["plots"]):
        y = 270 + 34 * seat
        shown = cards_label(plot["shown"]) or "-"
        body.append(
            _text(
                20,
                y,
                f"Seat {seat + 1}: plot {shown} + {plot['hidden']} hidden, "
                f"{view['hand_counts'][seat]} in hand",
                20,
            )
        )
    trick = "  ".join(f"seat {p['seat'] + 1}: {card_label(p['card'])}" for p in view["trick"])
    trick = trick or "-"
    body.append(_text(20, 270 + 34 * len(view["plots"]) + 10, f"Trick: {trick}", 22))
    return _svg(1000, 300 + 34 * len(view["plots"]) + 20, body)
