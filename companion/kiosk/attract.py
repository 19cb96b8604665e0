"""The attract loop's players: bots that press the table's buttons in front of the hall.

They answer through the same table loop and screens as real play: each
answer becomes the presses a player would make, given to the table one at a
time at a pace the hall can follow. They never hold PEEK, so no private view
is drawn on a screen that strangers watch.
"""

from __future__ import annotations

import random

from companion import demo
from companion.bots import Bot, make_bots
from companion.box.inputs import Press
from companion.box.pinout import Button
from companion.table import Settings, Table
from companion.table.modes import Announce, Handoff, Notice, Peek

PACE = 1.2  # seconds between two of the bots' presses
READ = 2.5  # seconds a reveal stays before the bots press on


def presses_for(table: Table, choose: demo.Chooser) -> list[Button]:
    """The buttons a player presses to answer as ``choose`` says; a peek is answered
    without PEEK. None on a countdown nobody claims: its clock runs out."""
    return [button for button, _ in demo.bot_presses(table, choose) if button != "peek"]


class AttractGame:
    """One bot game on the box, pressed at the hall's pace; never journalled."""

    def __init__(self, table: Table, settings: Settings, rng: random.Random, now: float) -> None:
        self.table = table
        table.ask_to_look = False  # its bots never hold PEEK: the hall sees no card
        table.start(settings)
        assert table.game is not None
        self.bots: list[Bot] = make_bots(table.game, "smart", rng)
        self.queue: list[Button] = []
        self.next_at = now + PACE

    @property
    def over(self) -> bool:
        return self.table.game is None or self.table.game.over

    def due(self) -> float:
        return self.next_at

    def tick(self, now: float) -> None:
        """Press the next button when it is due."""
        if now < self.next_at or self.over:
            return
        table = self.table
        if not self.queue:
            game = table.game
            assert game is not None and game.decision is not None
            if isinstance(table.mode, Handoff | Announce | Peek | Notice):
                self.queue = ["ok"]
            else:
                self.queue = presses_for(table, lambda s, view, d: self.bots[s].choose(view, d))
                if not self.queue:
                    self.next_at = now + PACE
                    return
        button = self.queue.pop(0)
        reading = isinstance(table.mode, Announce)
        table.handle(Press(now, button, "press"))
        self.next_at = now + (READ if reading else PACE)
