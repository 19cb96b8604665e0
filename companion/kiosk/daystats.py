"""The booth's day statistics, kept beside the journal so that they outlive its pruning.

Each game the kiosk runs gets one public summary row: which game, how many
players, real or attract, how it ended (finished, abandoned), its public
outcome and how many presses strangers made. Nothing in a row links a seat
to a secret choice: the outcome is the game's public result, the presses a
count. The journal's own rows of a game (its steps) are pruned once the game
is over, but for its last record, and all of them once more than ``KEEP``
games have ended after it, so the file stays bounded over a day of play
while the summaries remain.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SIM_DAY = "booth day"  # the date a simulated day's statistics are kept under (kiosk --day)
KEEP = 10  # ended games whose last journal step is kept (for a look after the fact)

SCHEMA = """
CREATE TABLE IF NOT EXISTS kiosk_games (
    id INTEGER PRIMARY KEY,
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT,
    presses INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS kiosk_days (day TEXT PRIMARY KEY, presses INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS kiosk_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass
class DayStats:
    """What a day at the booth came to."""

    started: int = 0
    finished: int = 0
    abandoned: int = 0
    attract: int = 0
    presses: int = 0
    outcomes: dict[str, dict[str, int]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "started": self.started,
            "finished": self.finished,
            "abandoned": self.abandoned,
            "attract": self.attract,
            "presses": self.presses,
            "outcomes": self.outcomes,
        }


class Ledger:
    """The summaries and the kiosk's settings, in the journal's SQLite file (or in memory)."""

    def __init__(
        self,
        db: sqlite3.Connection | None = None,
        today: Callable[[], str] | None = None,
        readonly: bool = False,
    ) -> None:
        self.db = db if db is not None else sqlite3.connect(":memory:", isolation_level=None)
        self.today = today or (lambda: time.strftime("%Y-%m-%d"))
        if not readonly:
            self.db.executescript(SCHEMA)
        elif not self.db.execute("SELECT 1 FROM sqlite_master WHERE name='kiosk_days'").fetchone():
            self.db = sqlite3.connect(":memory:")  # a journal no kiosk has written: no statistics
            self.db.executescript(SCHEMA)

    def _write(self, sql: str, args: tuple[Any, ...]) -> int | None:
        with self.db:
            return self.db.execute(sql, args).lastrowid

    def begin(self, game: str, players: int, kind: str) -> int:
        """A game began: its summary row, status "playing" until it ends."""
        row = self._write(
            "INSERT INTO kiosk_games (day, game, players, kind, status) VALUES (?, ?, ?, ?, ?)",
            (self.today(), game, players, kind, "playing"),
        )
        assert row is not None
        return row

    def end(self, row: int, status: str, outcome: str | None, presses: int) -> None:
        self._write(
            "UPDATE kiosk_games SET status = ?, outcome = ?, presses = ? WHERE id = ?",
            (status, outcome, presses, row),
        )

    def add_presses(self, presses: int) -> None:
        """Count ``presses`` more strangers' presses today (written in batches, not each)."""
        self._write(
            "INSERT INTO kiosk_days (day, presses) VALUES (?, ?) "
            "ON CONFLICT(day) DO UPDATE SET presses = presses + excluded.presses",
            (self.today(), presses),
        )

    def stats(self, day: str | None = None) -> DayStats:
        """The statistics of ``day`` (default: today); a game still "playing" counts as started."""
        day = day or self.today()
        rows = self.db.execute(
            "SELECT game, kind, status, outcome, presses FROM kiosk_games WHERE day = ?",
            (day,),
        ).fetchall()
        pressed = self.db.execute("SELECT presses FROM kiosk_days WHERE day = ?", (day,)).fetchone()
        out = DayStats(presses=pressed[0] if pressed else 0)
        outcomes: dict[str, Counter[str]] = {}
        for game, kind, status, outcome, _ in rows:
            if kind == "attract":
                out.attract += status == "finished"
                continue
            out.started += 1
            out.finished += status == "finished"
            out.abandoned += status == "abandoned"
            if status == "finished" and outcome:
                outcomes.setdefault(game, Counter())[outcome] += 1
        out.outcomes = {game: dict(sorted(c.items())) for game, c in sorted(outcomes.items())}
        return out

    def reopen(self) -> int | None:
        """After a pulled plug: the row of the real game in progress (the journal resumes it),
        if any. Older rows a plug left "playing" are counted as abandoned."""
        rows = self.db.execute(
            "SELECT id FROM kiosk_games WHERE status = 'playing' ORDER BY id DESC"
        ).fetchall()
        for (old,) in rows[1:]:
            self._write("UPDATE kiosk_games SET status = 'abandoned' WHERE id = ?", (old,))
        return rows[0][0] if rows else None

    def prune_journal(self, keep: int | None = None) -> None:
        """Drop the journal's rows of ended games but the newest ``keep``; summaries stay."""
        keep = KEEP if keep is None else keep
        if self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'steps'").fetchone() is None:
            return  # no journal in this file (a kiosk that keeps nothing)
        with self.db:
            old = "SELECT id FROM games WHERE finished != 0 ORDER BY id DESC LIMIT -1 OFFSET ?"
            self.db.execute(f"DELETE FROM steps WHERE game_id IN ({old})", (keep,))
            self.db.execute(f"DELETE FROM games WHERE id IN ({old})", (keep,))
            # Of the ended games kept, their last record (where they ended) is enough.
            self.db.execute(
                "DELETE FROM steps WHERE game_id IN (SELECT id FROM games WHERE finished != 0)"
                " AND n < (SELECT MAX(n) FROM steps AS s WHERE s.game_id = steps.game_id)"
            )

    def setting(self, key: str, default: Any) -> Any:
        row = self.db.execute("SELECT value FROM kiosk_settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        self._write(
            "INSERT INTO kiosk_settings (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )
