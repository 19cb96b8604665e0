"""A seat's private card on its phone, in words, from that seat's own view only.

Each game says it through its folder's ``tv.private_card``: where the box's
PEEK screen is cut for 21 columns ("Seat 7 is" / "BLACK"), the game says it
whole ("Seat 7, on your right, is black."); a PEEK screen that already reads
as sentences is used as it is (``peek_card``), so the phone and the box never
disagree; a phase with no PEEK screen lists the seat's own facts.
"""

from __future__ import annotations

import contextlib
from typing import Any

from companion.ui.i18n import Translate
from companion.web.tv import game_tv, screen_lines


def private_card(own: dict[str, Any], public: dict[str, Any], ui: Any, t: Translate) -> list[str]:
    """What only this seat may read, as the lines of one card (empty: nothing private)."""
    said: list[str] = game_tv(public).private_card(own, public, ui, t)
    return said


def peek_card(own: dict[str, Any], public: dict[str, Any], ui: Any, t: Translate) -> list[str]:
    """The seat's PEEK screen as lines, the status line left out; else its own facts."""
    lines: list[str] = []
    with contextlib.suppress(KeyError, TypeError):  # before the deal: nothing to peek at
        screen = ui.peek(own, t)
        lines = screen_lines(screen)
        if screen.status != ui.status(public, t):  # the game's status line is not private
            lines = [screen.status, *lines]
    if lines:
        return lines
    # No PEEK screen for this phase: the seat's own facts, named by the view's keys.
    return [
        f"{key.replace('_', ' ')}: {_text(value, ui)}"
        for key, value in own.items()
        if key not in public and key != "seat"
    ]


def _text(value: Any, ui: Any) -> str:
    """A private fact PEEK does not show, as words; cards as the game's ui writes them."""
    if isinstance(value, list):
        cards = getattr(ui, "cards_label", None)
        if cards is not None and all(isinstance(v, str) for v in value):
            return str(cards(value)) or "-"
        return ", ".join(_text(v, ui) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_text(v, ui)}" for k, v in value.items())
    return str(value)
