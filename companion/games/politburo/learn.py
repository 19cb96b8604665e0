"""Politburo's Learn pages: how to play it with the box, for a stranger at a booth.

Each says the same as the game's page in ``docs/rules/``, shorter, in at most
three short lines, and names the rules it summarizes (English sources for the
gettext catalog).
"""

from companion.games.record import ASKS, WHO, WIN, Page

PAGES: tuple[Page, ...] = (
    Page(WHO, "A Politburo member with a secret way to win.", ("P1", "P8")),
    Page(ASKS, "Vote on the plan, thumbs up or down.", ("P3",)),
    Page(ASKS, "Executors choose under the hood.", ("P5",)),
    Page(ASKS, "Executions 1 and 2: the box shuffles the cards.", ("P5",)),
    Page(ASKS, "Execution 3: cards dealt by seat, so each is traced.", ("P6",)),
    Page(WIN, "At the end, win if your secret condition holds.", ("P9",)),
    Page(WIN, "Several hold: those with the most influence win.", ("P9",)),
)
