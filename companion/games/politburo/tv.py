"""Politburo on the TV and the phones: its status in words, what a seat is doing, its picture.

Read by the whole table from across the room, so every line is a sentence
written from the public view alone, through the box's catalog (``t``); the
picture is drawn from the pieces of ``companion.web.pictures``.
"""

from __future__ import annotations

from typing import Any

from companion.games.politburo import screens
from companion.ui.i18n import Translate
from companion.web.hand import peek_card as private_card
from companion.web.pictures import bar, svg, text

View = dict[str, Any]

__all__ = ["for_the_table", "picture", "private_card", "status_words"]


def status_words(view: View, ui: Any, t: Translate) -> str:
    """The OLED's status line said in words, for the room."""
    round_of = t("Round {round} of {rounds}").format(**view)
    if view["secretary"] is None:
        return round_of
    return round_of + " · " + t("Secretary: seat {n}").format(n=view["secretary"] + 1)


def for_the_table(kind: str, t: Translate) -> str | None:
    """A hand-over line that speaks to the seat holding the box, rewritten for the table."""
    return t("Reading a member card in secret.") if kind == "peek" else None


def picture(view: dict[str, Any], t: Translate) -> str:
    """The ministries' repression tracks, and each seat's influence (the secretary starred)."""
    body = []
    for i, (ministry, level) in enumerate(sorted(view["ministries"].items())):
        y = 20 + 64 * i
        name = screens.ministry_label(ministry, t)
        body += [
            text(20, y + 34, f"{name}: {level}", 32),
            *bar(360, y + 8, 620, level, 10, "#b71c1c"),
        ]
    body.append(text(20, 260, t("Influence"), 32))
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
            text(x, 630, f"{seat + 1}{mark}", 32, text_anchor="middle"),
            text(x, 580 - height, str(amount), 28, text_anchor="middle"),
        ]
    return svg(1000, 650, body)
