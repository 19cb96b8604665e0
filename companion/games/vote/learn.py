"""The vote's Learn pages: the box as the ballot of any game, for a stranger at a booth.

Each says the same as the rules page beside it (``rules.md``), shorter, and names
the rules it summarizes (English sources for the gettext catalog).
"""

from companion.games.record import ASKS, WHO, WIN, Page

PAGES: tuple[Page, ...] = (
    Page(WHO, "The box is the ballot box of the game you play.", ("V1",)),
    Page(ASKS, "Seat 1 picks who votes: all or some.", ("V2",)),
    Page(ASKS, "Each voter answers in secret: A/B, or a cursor.", ("V4",)),
    Page(ASKS, "Shown: shuffled cards, a tally, or all votes.", ("V5",)),
    Page(WIN, "Nobody wins: your own game says what the vote means.", ("V6",)),
)
