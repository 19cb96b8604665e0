"""The one cursor of the box: how Up and Down move it, and how its value is drawn."""

from __future__ import annotations


def cursor_step(at: int, count: int, button: str) -> int:
    """The one cursor rule, on every cursor of the box (setup rows, picks, seats, claims,
    counts, the kiosk's menus): Up is the next value (more: a higher count or seat), Down the
    one before, and both wrap, so any value is at most half the list away and a slip is one
    press back. Pages of text (a game's last screens, Learn, the day's statistics) are read
    like a page: Down turns to the next one."""
    return (at + (1 if button == "up" else -1)) % count


def cursor_line(label: str) -> str:
    """A cursor's value between the buttons that move it (the box has no Left or Right)."""
    return f"▲ {label} ▼"
