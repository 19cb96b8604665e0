"""Kolkhoz on the TV and the phones: its status in words, what a seat is doing, its picture.

Read by the whole table from across the room, so every line is a sentence
written from the public view alone, through the box's catalog (``t``); the
picture is drawn from the pieces of ``companion.web.pictures``.
"""

from __future__ import annotations

from typing import Any

from companion.games.kolkhoz import screens
from companion.games.kolkhoz.screens import card_label, cards_label
from companion.ui.i18n import Translate
from companion.web.hand import peek_card as private_card
from companion.web.pictures import bar, svg, text

View = dict[str, Any]

__all__ = ["for_the_table", "picture", "private_card", "status_words"]


def status_words(view: View, ui: Any, t: Translate) -> str:
    """The OLED's status line said in words, for the room."""
    year = t("Year {year} of {years}").format(**view)
    if view["trump"] is None:
        return year
    return year + " · " + t("Trump: {suit}").format(suit=ui.option_label(view["trump"], t))


def for_the_table(kind: str, t: Translate) -> str | None:
    """A hand-over line that speaks to the seat holding the box: none to rewrite here."""
    return None


def picture(view: dict[str, Any], t: Translate) -> str:
    """The jobs' hours against their thresholds, each seat's plot and hand, the trick: laid out
    about as tall as wide (1000 x 820 for four seats), so it fills the TV's height."""
    body = []
    for i, (suit, job) in enumerate(view["jobs"].items()):
        y = 20 + 100 * i
        done = " ✓" if job["done"] else ""
        label = f"{screens.option_label(suit, t)} {job['hours']}/{job['threshold']}{done}"
        body += [
            text(20, y + 40, label, 34),
            *bar(420, y + 8, 560, job["hours"], job["threshold"], "#2e7d32", height=44),
        ]
    for seat, plot in enumerate(view["plots"]):
        y = 470 + 70 * seat
        shown = cards_label(plot["shown"]) or "-"
        line = t("Seat {n}: plot {shown} + {hidden} hidden, {hand} in hand").format(
            n=seat + 1, shown=shown, hidden=plot["hidden"], hand=view["hand_counts"][seat]
        )
        body.append(text(20, y, line, 32))
    trick = "  ".join(f"{p['seat'] + 1}: {card_label(p['card'])}" for p in view["trick"]) or "-"
    bottom = 470 + 70 * len(view["plots"]) + 10
    body.append(text(20, bottom, t("Trick: {cards}").format(cards=trick), 36))
    return svg(1000, bottom + 40, body)
