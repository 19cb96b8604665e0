"""The vote: the box as the anonymous ballot box of any game on the shelf.

Avalon's quests, Secret Hitler's votes, a werewolf lynch, a club's own rules:
each round the chair says who votes, the voters answer in secret (or at once on
pads and phones), and the box reveals the choices shuffled, counted, or seat by
seat, and adds a line to the history. The folder holds the whole game, as every
game's does: its rules (``rules``, pure, and their page ``rules.md``), saved
shape (``shape``), screens, bots, TV texts and picture, Learn pages, migrations,
its French catalog (``locale``) and its tests (``tests``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.record import GameRecord

if TYPE_CHECKING:
    from companion.games.vote import screens
    from companion.ui.contract import GameUI

    _SCREENS: GameUI = screens  # for the type checker only: the screens keep the protocol


RECORD = GameRecord(
    __name__,
    engine="Vote",
    hidden=("starts",),
    bot_options={"choice": "approve_reject", "reveal": "cards"},  # an Avalon team vote
    booth=False,  # a ballot for another game on the table: nothing for a stranger alone
)
