"""Kolkhoz's Learn pages: how to play it with the box, for a stranger at a booth.

Each says the same as the game's page in ``docs/rules/``, shorter, in at most
three short lines, and names the rules it summarizes (English sources for the
gettext catalog).
"""

from companion.games.record import ASKS, WHO, WIN, Page

#: the title of the pages that read the box's short lines
SCREEN = "On the box"

PAGES: tuple[Page, ...] = (
    Page(WHO, "A farmer on the kolkhoz, for five years of work.", ("K1",)),
    Page(ASKS, "Your last card each year goes to your hidden plot.", ("K3",)),
    Page(ASKS, "Win tricks to put cards to work on the jobs.", ("K4",)),
    Page(WIN, "After five years, the richest plot wins.", ("K6",)),
    # the box's short lines, read as a legend: "Year 1/5 Trump ♦", "Won 1:2 2:0 3:1 4:0"
    Page(SCREEN, "Trump ♦: the trump suit this year.", ("K1",)),
    Page(SCREEN, "Won 1:2: seat 1 won 2 tricks this year.", ("K5",)),
)
