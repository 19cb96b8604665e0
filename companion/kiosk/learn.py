"""Learn: a few screens a game on how to play it with the box, for a stranger at a booth.

Each game's pages live in its folder (``companion/games/<game>/learn.py``):
each page is at most three short lines (the OLED's body), an English source
for the gettext catalog, and names the rules it summarizes; a test checks each
has its heading on the game's page in ``docs/rules/``.
"""

from __future__ import annotations

from companion.games import game_record
from companion.games.record import Page
from companion.ui.canvas import Screen
from companion.ui.i18n import Translate

#: a game's pages (its folder's ``learn``, named by its record); the text wraps onto the
#: body's lines, the rules follow it
Pages = tuple[Page, ...]


def pages_of(game: str) -> Pages:
    """The learn pages of ``game``, untranslated."""
    found: Pages = game_record(game).load("learn")
    return found


def pages(game: str, t: Translate) -> list[Screen]:
    """The learn screens of ``game`` in the language of ``t``."""
    out = []
    source = pages_of(game)
    count = len(source)
    for n, page in enumerate(source, start=1):
        keys = t("▼ next  Back") if n < count else t("OK: done")
        text = f"{t(page.text)} ({', '.join(page.rules)})"
        out.append(Screen(f"{t(page.title)} {n}/{count}", (text,), keys))
    return out
