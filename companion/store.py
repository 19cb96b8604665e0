"""The journal: every completed step of a game in SQLite, so a pulled plug loses nothing.

One transaction a step, written only where the game is saveable (no secret
ballot open), so no row ever links a seat to a secret choice and the number
of rows does not depend on what anyone chose. WAL with ``synchronous=FULL``:
a step is on disk before the box moves on. After a power cut the box resumes
at the last completed step; a secret choice in flight is simply asked again.

A damaged journal is moved aside (never deleted) and a new one started.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("companion.store")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    started REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS steps (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
"""


def default_path() -> Path:
    """``$COMPANION_DATA`` (the service sets a writable state directory) or the user's data dir."""
    base = os.environ.get("COMPANION_DATA") or Path.home() / ".local" / "share" / "companion"
    return Path(base) / "journal.sqlite"


class JournalError(RuntimeError):
    """The journal cannot be opened or written; the message says where and why."""


class Journal:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create {self.path.parent}: {exc.strerror}") from None
        try:
            self.db = self._open()
        except sqlite3.DatabaseError as exc:
            aside = self.path.with_name(f"{self.path.name}.damaged-{int(time.time())}")
            self.path.rename(aside)
            log.warning(
                "journal %s is damaged (%s): kept as %s, starting a new one", self.path, exc, aside
            )
            self.db = self._open()
        self.game_id: int | None = None
        self.n = 0

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(check)
            db.executescript(SCHEMA)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _write(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            with self.db:  # one transaction
                return self.db.execute(sql, args)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write the journal {self.path}: {exc}") from None

    def begin(self, game: str, settings: dict[str, Any], record: dict[str, Any]) -> None:
        """A new game, and its first step."""
        cur = self._write(
            "INSERT INTO games (game, settings, started) VALUES (?, ?, ?)",
            (game, json.dumps(settings, sort_keys=True), time.time()),
        )
        self.game_id = cur.lastrowid
        self.n = 0
        self.step(record)

    def step(self, record: dict[str, Any]) -> None:
        """A completed step; returns once it is on disk."""
        if self.game_id is None:
            raise JournalError("no game begun in the journal")
        self.n += 1
        self._write(
            "INSERT INTO steps (game_id, n, record) VALUES (?, ?, ?)",
            (self.game_id, self.n, json.dumps(record, sort_keys=True)),
        )

    def finish(self) -> None:
        if self.game_id is not None:
            self._write("UPDATE games SET finished = 1 WHERE id = ?", (self.game_id,))

    def abandon(self) -> None:
        """The game in progress will never be resumed (the table gave it up)."""
        if self.game_id is not None:
            self._write("UPDATE games SET finished = 2 WHERE id = ?", (self.game_id,))
            self.game_id = None

    def unfinished(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The settings and last step of the newest unfinished game, to resume it."""
        row = self.db.execute(
            "SELECT g.id, g.settings, s.n, s.record FROM games g JOIN steps s ON s.game_id = g.id "
            "WHERE g.finished = 0 ORDER BY g.id DESC, s.n DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        self.game_id, settings, self.n, record = row
        return json.loads(settings), json.loads(record)

    def close(self) -> None:
        self.db.close()
