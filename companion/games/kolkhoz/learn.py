"""Kolkhoz's Learn pages: how to play it with the box, for a stranger at a booth.

Each says the same as the game's page in ``docs/rules/``, shorter, in at most
three short lines, and names the rules it summarizes (English sources for the
gettext catalog).
"""

from companion.games.record import ASKS, WHO, WIN, Page

PAGES: tuple[Page, ...] = (
    Page(WHO, "A farmer on the kolkhoz, for five years of work.", ("K1",)),
    Page(ASKS, "Your last card each year goes to your hidden plot.", ("K3",)),
    Page(ASKS, "Win tricks to put cards to work on the jobs.", ("K4",)),
    Page(WIN, "After five years, the richest plot wins.", ("K6",)),
)
