"""Learn: a few screens a game on how to play it with the box, for a stranger at a booth.

Each page is at most three short lines (the OLED's body). The texts are
English sources for the gettext catalog, like every other screen, and say the
same as the game's page in ``docs/rules/``, shorter.
"""

from __future__ import annotations

from companion.games import game_record
from companion.ui.canvas import Screen
from companion.ui.i18n import Translate

WHO, ASKS, WIN = "Who you are", "The box asks", "How you win"

#: a game's pages (its record's ``learn`` in the registry names them); a page is
#: (title, text), and the text wraps onto the body's lines
Pages = tuple[tuple[str, str], ...]

GULAG: Pages = (
    (WHO, "A worker, loyal or not. The box tells you in secret."),
    (ASKS, "The commissar picks workers for the canal."),
    (ASKS, "Each worker plays Work or Strike under the hood."),
    (WIN, "Loyal: dig the canal. Disloyal: stop it."),
)
POLITBURO: Pages = (
    (WHO, "A Politburo member with a secret way to win."),
    (ASKS, "Vote on the plan. Executors choose under the hood."),
    (ASKS, "The box shuffles the cards before it shows them."),
    (WIN, "Fulfil your secret condition first."),
)
GLASNOST: Pages = (
    (WHO, "A seat in a faction, with a secret objective."),
    (ASKS, "Take a seat at a crisis. Vote Yes or No under the hood."),
    (WIN, "Bring your faction's policies through."),
)
KOLKHOZ: Pages = (
    (WHO, "A farmer on the kolkhoz, for five years of work."),
    (ASKS, "Play a card to each trick. The box deals and checks."),
    (WIN, "Score the most hours by the end of the plan."),
)


def pages_of(game: str) -> Pages:
    """The learn pages of ``game``, untranslated."""
    found: Pages = game_record(game).load("learn")
    return found


def pages(game: str, t: Translate) -> list[Screen]:
    """The learn screens of ``game`` in the language of ``t``."""
    out = []
    source = pages_of(game)
    count = len(source)
    for n, (title, text) in enumerate(source, start=1):
        keys = t("▼ next  Back") if n < count else t("OK: done")
        out.append(Screen(f"{t(title)} {n}/{count}", (t(text),), keys))
    return out
