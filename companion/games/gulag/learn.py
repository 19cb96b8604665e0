"""Gulag's Learn pages: how to play it with the box, for a stranger at a booth.

Each says the same as the game's page in ``docs/rules/``, shorter, in at most
three short lines, and names the rules it summarizes (English sources for the
gettext catalog).
"""

from companion.games.record import ASKS, WHO, WIN, Page

PAGES: tuple[Page, ...] = (
    Page(WHO, "Red or black worker: you never see your own colour.", ("G2",)),
    Page(WHO, "Hold PEEK to see the colour of the seat on your right.", ("G2",)),
    Page(ASKS, "The commissar picks workers for the canal.", ("G3",)),
    Page(ASKS, "Each worker plays Work or Strike under the hood.", ("G5",)),
    Page(ASKS, "The supervisor may make one of them swap cards.", ("G5",)),
    Page(WIN, "Loyal: dig the canal. Disloyal: stop it.", ("G7",)),
)
