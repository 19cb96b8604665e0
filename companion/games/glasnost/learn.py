"""Glasnost's Learn pages: how to play it with the box, for a stranger at a booth.

Each says the same as the game's page in ``docs/rules/``, shorter, in at most
three short lines, and names the rules it summarizes (English sources for the
gettext catalog).
"""

from companion.games.record import ASKS, WHO, WIN, Page

PAGES: tuple[Page, ...] = (
    Page(WHO, "A seat in a faction, with a secret objective.", ("S2",)),
    Page(ASKS, "Take a seat at a crisis.", ("5.1",)),
    Page(ASKS, "Vote Yes or No under the hood.", ("5.2",)),
    Page(ASKS, "A leader claims his coup on the box's countdown.", ("S5",)),
    Page(WIN, "A leader's coup wins if all vote Yes.", ("5.5",)),
    Page(WIN, "At the end, win if every objective is met.", ("S7",)),
    Page(WIN, "If nobody meets all, those with one met win.", ("S7",)),
)
