"""Learn: a few screens a game on how to play it with the box, for a stranger at a booth.

Each page is at most three short lines (the OLED's body). The texts are
English sources for the gettext catalog, like every other screen, and say the
same as the game's page in ``docs/rules/``, shorter: each page names the rules
it summarizes, and a test checks each has its heading there.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.games import game_record
from companion.ui.canvas import Screen
from companion.ui.i18n import Translate

WHO, ASKS, WIN = "Who you are", "The box asks", "How you win"


class Page(NamedTuple):
    """One learn screen: its title, its one claim, and the rules it summarizes (their headings
    on the game's page in ``docs/rules/``, shown on the screen so a doubt can be looked up)."""

    title: str
    text: str
    rules: tuple[str, ...]


#: a game's pages (its record's ``learn`` in the registry names them); the text wraps onto
#: the body's lines, the rules follow it
Pages = tuple[Page, ...]

GULAG: Pages = (
    Page(WHO, "Red or black worker: you never see your own colour.", ("G2",)),
    Page(WHO, "Hold PEEK to see the colour of the seat on your right.", ("G2",)),
    Page(ASKS, "The commissar picks workers for the canal.", ("G3",)),
    Page(ASKS, "Each worker plays Work or Strike under the hood.", ("G5",)),
    Page(ASKS, "The supervisor may make one of them swap cards.", ("G5",)),
    Page(WIN, "Loyal: dig the canal. Disloyal: stop it.", ("G7",)),
)

POLITBURO: Pages = (
    Page(WHO, "A Politburo member with a secret way to win.", ("P1", "P8")),
    Page(ASKS, "Vote on the plan, thumbs up or down.", ("P3",)),
    Page(ASKS, "Executors choose under the hood.", ("P5",)),
    Page(ASKS, "Executions 1 and 2: the box shuffles the cards.", ("P5",)),
    Page(ASKS, "Execution 3: cards dealt by seat, so each is traced.", ("P6",)),
    Page(WIN, "At the end, win if your secret condition holds.", ("P9",)),
    Page(WIN, "Several hold: those with the most influence win.", ("P9",)),
)

GLASNOST: Pages = (
    Page(WHO, "A seat in a faction, with a secret objective.", ("S2",)),
    Page(ASKS, "Take a seat at a crisis.", ("5.1",)),
    Page(ASKS, "Vote Yes or No under the hood.", ("5.2",)),
    Page(ASKS, "A leader claims his coup on the box's countdown.", ("S5",)),
    Page(WIN, "A leader's coup wins if all vote Yes.", ("5.5",)),
    Page(WIN, "At the end, win if every objective is met.", ("S7",)),
    Page(WIN, "If nobody meets all, those with one met win.", ("S7",)),
)

KOLKHOZ: Pages = (
    Page(WHO, "A farmer on the kolkhoz, for five years of work.", ("K1",)),
    Page(ASKS, "Your last card each year goes to your hidden plot.", ("K3",)),
    Page(ASKS, "Win tricks to put cards to work on the jobs.", ("K4",)),
    Page(WIN, "After five years, the richest plot wins.", ("K6",)),
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
    for n, page in enumerate(source, start=1):
        keys = t("▼ next  Back") if n < count else t("OK: done")
        text = f"{t(page.text)} ({', '.join(page.rules)})"
        out.append(Screen(f"{t(page.title)} {n}/{count}", (text,), keys))
    return out
