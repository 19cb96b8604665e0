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
import logging
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.store import prune_ended, transaction

log = logging.getLogger("companion.kiosk")

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
    """The summaries and the kiosk's settings, in the journal's SQLite file.

    A booth must survive a full or locked journal: every write goes first to a copy in
    memory, which the statistics and settings are read from, and then to the file in one
    transaction; what cannot be written waits, in order, and is written with the next
    write that can be. ``problem`` says why the file is behind; ``news`` says it once.
    """

    def __init__(
        self,
        db: sqlite3.Connection | None = None,
        today: Callable[[], str] | None = None,
        readonly: bool = False,
        source: Callable[[], sqlite3.Connection | None] | None = None,
    ) -> None:
        self.today = today or (lambda: time.strftime("%Y-%m-%d"))
        self.readonly = readonly
        self.memory_only = source is None and db is None  # a kiosk that keeps nothing
        self.source = source or (lambda: db)
        self.db = sqlite3.connect(":memory:", isolation_level=None)  # what is read
        self.db.executescript(SCHEMA)
        self.problem: str | None = None
        self.news: list[str] = []  # the problem, once, for the staff (the kiosk says it)
        self._pending: list[tuple[str, tuple[Any, ...]]] = []
        self._loaded = False
        # Rows begun while the file cannot be read take numbers from the clock, above any
        # row written before, so that they never meet one when they are written at last.
        self._next_id = 1
        self._load()
        if not self._loaded:
            self._next_id = int(time.time() * 1000)

    def _disk(self) -> sqlite3.Connection | None:
        disk = self.source()
        if disk is None:
            return None
        if not self.readonly:
            with transaction(disk):
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        disk.execute(statement)
        return disk

    def _load(self) -> None:
        """What the file holds, into the copy in memory (once it can be read)."""
        try:
            disk = self._disk()
            if disk is None:
                return
            for table in ("kiosk_games", "kiosk_days", "kiosk_settings"):
                rows = disk.execute(f"SELECT * FROM {table}").fetchall()
                if rows:
                    marks = ", ".join("?" * len(rows[0]))
                    self.db.executemany(f"INSERT OR IGNORE INTO {table} VALUES ({marks})", rows)
        except sqlite3.Error as exc:
            if not self.readonly:
                self._behind(exc)
            return
        self._loaded = True
        top = self.db.execute("SELECT MAX(id) FROM kiosk_games").fetchone()[0]
        self._next_id = max(self._next_id, (top or 0) + 1)

    def _behind(self, why: sqlite3.Error | str) -> None:
        if self.problem is None:
            log.warning("day statistics kept in memory, not in the journal: %s", why)
            self.news.append(str(why))
        self.problem = str(why)

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        self.db.execute(sql, args)
        if not self.memory_only:
            self._pending.append((sql, args))
            self.flush()

    def flush(self) -> None:
        """Write what waits to the file, all of it or none (best effort: tried again later)."""
        if not self._pending or self.readonly:
            return
        try:
            if not self._loaded:
                self._load()
            disk = self._disk() if self._loaded else None
            if disk is None:
                self._behind("the journal cannot be opened")
                return
            with transaction(disk):
                for sql, args in self._pending:
                    disk.execute(sql, args)
        except sqlite3.Error as exc:
            self._behind(exc)
            return
        self._pending = []
        if self.problem is not None:
            log.warning("day statistics written to the journal again")
            self.problem = None

    def begin(self, game: str, players: int, kind: str) -> int:
        """A game began: its summary row, status "playing" until it ends."""
        row = self._next_id
        self._next_id += 1
        self._write(
            "INSERT INTO kiosk_games (id, day, game, players, kind, status) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (row, self.today(), game, players, kind, "playing"),
        )
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
        try:
            disk = self.source()
            if disk is None:
                return
            if disk.execute("SELECT 1 FROM sqlite_master WHERE name = 'steps'").fetchone() is None:
                return  # no journal in this file (a kiosk that keeps nothing)
            # Of the ended games kept, their last record (where they ended) is enough.
            prune_ended(disk, KEEP if keep is None else keep, 1, drop_rows=True)
        except sqlite3.Error as exc:
            log.warning("cannot prune the journal: %s", exc)

    def setting(self, key: str, default: Any) -> Any:
        row = self.db.execute("SELECT value FROM kiosk_settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        self._write(
            "INSERT INTO kiosk_settings (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )
