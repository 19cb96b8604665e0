"""A booth day on the virtual clock: strangers, staff and the attract loop, for tests and demos.

Strangers walk up at random, press a button to join, then play part or all
of a game (bots decide, the driver presses the mock buttons through the
same pins a finger would), learn, watch, mash the buttons, or walk away
mid-game. Staff open their menu now and then. The driver counts what it saw
happen on the box (games begun, ended, abandoned, presses made), so a test
can hold the kiosk's day statistics against an independent count.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.bots import Bot, make_bots
from companion.box import VirtualClock, open_box
from companion.box.pinout import BUTTONS, Button
from companion.games import Choice, Decision, Game, game_class
from companion.kiosk.attract import presses_for
from companion.kiosk.booth import (
    ATTRACT_OPTIONS,
    GAME_NAMES,
    Attract,
    Join,
    Kiosk,
    Learn,
    Playing,
    Staff,
    Title,
)
from companion.kiosk.chord import CHORD, CHORD_HOLD, CODE
from companion.kiosk.daystats import SIM_DAY, Ledger
from companion.memory import resident_bytes
from companion.store import Journal
from companion.table import Table
from companion.table.modes import Announce, Handoff, Notice, Over, Peek, Setup

TAP = 0.08  # seconds a finger holds a button for a press
TICK = 1.0  # seconds between the loop's steps while nobody presses
ARRIVAL = 12.0  # mean seconds between strangers
STAFF_EVERY = 5400.0  # mean seconds between staff visits
IDLE = 120.0  # seconds a game may be left alone before the warning
QUIET = 200.0  # seconds before the day's end when nobody new walks up (past idle and warning)

Force = Callable[[dict[str, Any], Decision], Any]


@dataclass
class Count:
    """What the driver saw happen, counted independently of the kiosk's statistics."""

    started: int = 0
    finished: int = 0
    abandoned: int = 0
    presses: int = 0
    outcomes: dict[str, Counter[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "started": self.started,
            "finished": self.finished,
            "abandoned": self.abandoned,
            "presses": self.presses,
            "outcomes": {g: dict(sorted(c.items())) for g, c in sorted(self.outcomes.items())},
        }


class Day:
    """One simulated booth day."""

    def __init__(
        self,
        seed: int,
        journal: Path | None,
        force: Force | None = None,
        games: tuple[str, ...] = GAME_NAMES,
    ) -> None:
        self.clock = VirtualClock()
        self.box = open_box("virtual", clock=self.clock)
        self.journal = Journal(journal) if journal is not None else None
        journal_now = self.journal
        ledger = Ledger(
            today=lambda: SIM_DAY,
            source=None if journal_now is None else (lambda: journal_now.db),
        )
        self.kiosk = Kiosk(self.box, self.journal, seed=seed, ledger=ledger)
        self.kiosk.idle = IDLE  # a busy booth: staff chose the shortest idle time
        ledger.set_setting("idle", IDLE)
        self.rng = random.Random(seed)
        self.force = force
        self.games = games
        self.count = Count()
        self.seen: Game | None = None
        #: where the seen game was started (its table, that table's count of games started):
        #: an undo restores a game as a new object, which is still the same game
        self.seen_at: tuple[Table | None, int] = (None, 0)
        self.frames = hashlib.sha256()
        self.box.outputs.frame_sinks.append(lambda image, t: self.frames.update(image.tobytes()))

    # -- the finger ----------------------------------------------------------------------
    def wait(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.kiosk.step()
        self._observe()

    def press(self, button: Button, hold: float = TAP, gap: float = 0.5) -> None:
        board = self.box.virtual_board
        board.drive(button, True)
        self.count.presses += 1
        self.wait(hold)
        board.drive(button, False)
        self.wait(gap)

    def hold_together(self, buttons: list[Button], seconds: float) -> None:
        for b in buttons:
            self.box.virtual_board.drive(b, True)
            self.count.presses += 1
        held = 0.0
        while held < seconds:
            self.wait(0.5)
            held += 0.5
        for b in buttons:
            self.box.virtual_board.drive(b, False)
        self.wait(0.3)

    def _observe(self) -> None:
        """Count a real game as the screen shows it begin and end."""
        kiosk = self.kiosk
        table = kiosk.table if isinstance(kiosk.mode, Playing) else None
        game = table.game if table is not None else None
        at = (table, table.games_started if table is not None else 0)
        if game is not None and at[0] is self.seen_at[0] and at[1] == self.seen_at[1]:
            self.seen = game  # the same game, perhaps restored by an undo
            return
        if game is self.seen:
            return
        if self.seen is not None:
            self._ended(self.seen)
        if game is not None:
            self.count.started += 1
        self.seen, self.seen_at = game, at

    def _ended(self, game: Game) -> None:
        if game.over:
            self.count.finished += 1
            outcome = str(game.public_view()["result"]["outcome"])
            self.count.outcomes.setdefault(game.name, Counter())[outcome] += 1
        else:
            self.count.abandoned += 1

    # -- visitors ------------------------------------------------------------------------
    def stranger(self) -> None:
        """One stranger: joins, then plays, learns, watches or mashes, and leaves."""
        rng = self.rng
        self.press(rng.choice(("ok", "up", "choice_a", "back", "peek")))
        intent = rng.choices(("play", "learn", "watch", "mash"), (65, 10, 5, 20))[0]
        if intent == "mash":
            self.mash(rng.randint(20, 80))
            return
        if not isinstance(self.kiosk.mode, Join):
            return
        row = {"play": 0, "watch": 1, "learn": 2}[intent]
        while isinstance(self.kiosk.mode, Join) and self.kiosk.mode.row != row:
            self.press("down", gap=rng.uniform(0.3, 1.0))
        self.press("ok")
        if intent == "learn":
            self.learn()
        elif intent == "watch":
            self.wait(rng.uniform(20, 120))
            self.press("back")
            self.press("back")
        else:
            self.play()

    def learn(self) -> None:
        for _ in range(self.rng.randint(0, 3)):
            self.press("down")
        self.press("ok")
        while isinstance(self.kiosk.mode, Learn):
            self.press("ok", gap=self.rng.uniform(1.0, 4.0))
        if isinstance(self.kiosk.mode, Join):
            self.press("back")

    def mash(self, presses: int) -> None:
        """Random presses and holds; in a game, taps only (holds there are real gestures)."""
        rng = self.rng
        buttons = BUTTONS
        for _ in range(presses):
            if isinstance(self.kiosk.mode, Playing) or rng.random() < 0.8:
                self.press(rng.choice(buttons), gap=rng.uniform(0.05, 0.3))
            else:
                self.hold_together(rng.sample(buttons, rng.randint(1, 3)), rng.uniform(1.0, 3.0))

    def play(self) -> None:
        """Set up a random game, then play it to the end or walk away from it."""
        rng = self.rng
        kiosk = self.kiosk
        if not isinstance(kiosk.mode, Playing) or kiosk.table is None:
            return
        table = kiosk.table
        self.set_up(table, rng.choice(self.games))
        game = table.game
        if game is None:
            return
        bots = make_bots(game, "smart", random.Random(rng.random()))
        walk_after = rng.randint(5, 200) if rng.random() < 0.25 else None
        moves = 0
        while isinstance(kiosk.mode, Playing) and kiosk.table is table and table.game is game:
            if game.over:
                if rng.random() < 0.5:
                    self.press("ok", hold=1.8)  # back to setup: the kiosk ends the game
                return
            if walk_after is not None and moves >= walk_after:
                return  # walks away: the idle warning, then the kiosk abandons the game
            if kiosk.mode.warn_until is not None:
                self.press(rng.choice(("ok", "down")))  # "still playing?": carry on
                continue
            if rng.random() < 0.002:
                self.wait(kiosk.idle + 5)  # a long think: the warning comes up
                continue
            buttons = self.buttons_for(table, game, bots)
            if not buttons:  # a countdown nobody here claims: fidgeting, its clock runs out
                buttons = [rng.choice(("up", "down", "choice_a", "choice_b"))]
            for button in buttons:
                self.press(button, gap=rng.uniform(0.25, 0.9))
                if not isinstance(kiosk.mode, Playing) or kiosk.mode.warn_until is not None:
                    break
            moves += 1

    def set_up(self, table: Table, name: str) -> None:
        """Walk the table's setup form to a random table of ``name``, as a stranger does."""
        cls = game_class(name)
        wanted = {"game": name, "players": self.rng.randint(cls.min_players, cls.max_players)}
        wanted |= ATTRACT_OPTIONS.get(name, {})
        while isinstance(table.mode, Setup) and isinstance(self.kiosk.mode, Playing):
            form = table.mode.form
            key = form.rows[form.row][0]
            target = wanted.get(key, form.values[key])
            self.press("ok" if form.values[key] == target else "up", gap=0.4)

    def buttons_for(self, table: Any, game: Game, bots: list[Bot]) -> list[Button]:
        d = game.decision
        if d is None or isinstance(table.mode, Handoff | Announce | Peek | Over | Notice):
            return ["ok"]

        def choose(seat: int, view: dict[str, Any], d: Decision) -> Choice:
            forced = self.force(view, d) if self.force is not None and d.secret else None
            return bots[seat].choose(view, d) if forced is None else forced

        return presses_for(table, choose)

    def staff(self) -> None:
        """Staff open their menu, read the day's statistics and leave."""
        self.hold_together(sorted(CHORD), CHORD_HOLD + 0.5)
        for button in CODE:
            self.press(button)
        if not isinstance(self.kiosk.mode, Staff):
            return
        while isinstance(self.kiosk.mode, Staff) and self.kiosk.mode.row != 6:
            self.press("down")
        self.press("ok")  # day statistics
        self.press("down")
        self.press("ok")
        self.press("back")  # leave

    # -- the day -------------------------------------------------------------------------
    def run(self, hours: float) -> dict[str, Any]:
        end = hours * 3600
        memory: list[float] = []
        journal_bytes: list[int] = []
        presses: list[int] = []
        next_hour = 3600.0
        arrival = self.rng.expovariate(1 / ARRIVAL)
        staff = self.rng.expovariate(1 / STAFF_EVERY)

        def sample() -> None:  # the hour just ended
            memory.append(round(resident_bytes() / 2**20, 3))
            journal_bytes.append(self.journal_size())
            presses.append(self.count.presses - sum(presses))

        while self.clock.now() < end:
            now = self.clock.now()
            if now >= next_hour:
                sample()
                next_hour += 3600
            if now >= end - QUIET or not isinstance(self.kiosk.mode, (Title, Attract)):
                self.wait(TICK)
            elif now >= staff:
                self.staff()
                staff = self.clock.now() + self.rng.expovariate(1 / STAFF_EVERY)
            elif now >= arrival:
                self.stranger()
                arrival = self.clock.now() + self.rng.expovariate(1 / ARRIVAL)
            else:
                self.wait(TICK)
        if self.clock.now() >= next_hour:
            sample()  # the day's last hour
        self.kiosk.close()
        return {
            "hours": hours,
            "stats": self.kiosk.ledger.stats().as_dict(),
            "counted": self.count.as_dict(),
            "memory_mib": memory,
            "journal_bytes": journal_bytes,
            "presses_per_hour": presses,
            "frames_sha256": self.frames.hexdigest(),
        }

    def journal_size(self) -> int:
        if self.journal is None:
            return 0
        path = self.journal.path
        return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())

    def close(self) -> None:
        self.box.close()
        if self.journal is not None:
            self.journal.close()


def simulate_day(
    hours: float,
    seed: int,
    journal: Path | None = None,
    force: Force | None = None,
    games: tuple[str, ...] = GAME_NAMES,
) -> dict[str, Any]:
    """Run a booth day of ``hours`` on the virtual clock; what the kiosk and the driver saw.
    ``force`` overrides the strangers' secret choices; ``games`` are those they set up."""
    day = Day(seed, journal, force, games)
    try:
        return day.run(hours)
    finally:
        day.close()
