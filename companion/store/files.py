"""The journal's file: where it lives, opening it with the durability it needs, and the
names a damaged one is kept under.

WAL with ``synchronous=FULL``: a step is on disk before the box moves on. The file is
checked (``quick_check``) before anything is written to it, and a file written by a
newer program (a higher ``user_version``) is never opened for writing, so never
rewritten.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    started REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    why TEXT
);
CREATE TABLE IF NOT EXISTS steps (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    record TEXT NOT NULL,
    shown TEXT,
    checksum TEXT,
    bad TEXT,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS reveals (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    screens TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reveals_of_game ON reveals (game_id, n);
CREATE TABLE IF NOT EXISTS starts (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL
);
"""
#: 2: steps.shown, games.finished = 2 for a game set aside;
#: 3: steps.checksum, steps.bad (a step set aside, why), games.why, the reveals table;
#: 4: the starts table (the steps resumed by starts that have not reached a quiet moment)
SCHEMA_VERSION = 4
ADDED_COLUMNS = {
    "steps": ("shown", "checksum", "bad"),
    "games": ("why",),
}

LOCK_WAIT = 5.0  # seconds the box waits at start for a program holding the journal
BUSY_WAIT = 0.5  # seconds a write waits for a lock while playing
SHM_KEPT = 1 << 20  # the largest shared-memory index read as found, to keep it with damage


class Damaged(sqlite3.DatabaseError):
    """quick_check found the file damaged; ``db`` is still open on it, for what can be read."""

    def __init__(self, why: str, db: sqlite3.Connection | None = None) -> None:
        super().__init__(why)
        self.db = db


class Newer(sqlite3.DatabaseError):
    """The journal was written by a newer program: it is not opened, never rewritten."""

    def __init__(self, version: int) -> None:
        super().__init__(f"journal format {version}, this version reads {SCHEMA_VERSION}")
        self.version = version


def default_path() -> Path:
    """``$COMPANION_DATA`` (the service sets a writable state directory) or the user's data dir."""
    base = os.environ.get("COMPANION_DATA") or Path.home() / ".local" / "share" / "companion"
    return Path(base) / "journal.sqlite"


def sidecar(path: Path, suffix: str) -> Path:
    """``<journal><suffix>``: its WAL, its shared memory, its acknowledgement."""
    return path.with_name(path.name + suffix)


def damaged(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    return isinstance(exc, Damaged) or name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def locked(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def free_name(path: Path, tag: str, when: float) -> Path:
    """``<name>.<tag>-<date>-<time>``, with a counter when that name is taken."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    candidate = path.with_name(f"{path.name}.{tag}-{stamp}")
    count = 1
    while candidate.exists():
        count += 1
        candidate = path.with_name(f"{path.name}.{tag}-{stamp}-{count}")
    return candidate


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One real transaction on a connection opened with ``isolation_level=None`` (where
    ``with db:`` opens none): all of it is written, or none of it."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise


def read_shm(path: Path) -> bytes | None:
    """The shared-memory index as found, before a connection rebuilds it."""
    try:
        shm = sidecar(path, "-shm")
        return shm.read_bytes() if shm.stat().st_size <= SHM_KEPT else None
    except OSError:
        return None


def open_journal(path: Path, wait: float) -> sqlite3.Connection:
    """The journal at ``path``, checked and ready to write. ``Damaged`` (with the connection
    still open and nothing written), ``Newer``, or SQLite's own error otherwise."""
    db = sqlite3.connect(path, isolation_level=None, timeout=wait)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise Newer(version)
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise Damaged(check, db)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        # A box runs all day: the WAL is folded in every 1 MiB and cut back to it after.
        db.execute("PRAGMA wal_autocheckpoint = 256")
        db.execute(f"PRAGMA journal_size_limit = {2**20}")
        with transaction(db):
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            for table, added in ADDED_COLUMNS.items():
                columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                for column in added:
                    if column not in columns:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")  # proves it is writable
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_WAIT * 1000)}")
    except Damaged:
        raise
    except sqlite3.Error:
        db.close()
        raise
    return db


def keep_aside(path: Path, shm: bytes | None, when: float) -> str:
    """Copy a damaged journal, its WAL and its shared memory (as read before any connection
    wrote to it) to a free aside name, byte for byte; an empty one is not kept. Says what
    was kept. Call it before the connection on it closes (closing folds the WAL in), and
    ``remove`` after. OSError if it cannot be copied."""
    wal = sidecar(path, "-wal")
    if not (path.exists() and path.stat().st_size):
        return "nothing to keep"
    aside = free_name(path, "damaged", when)
    _copy(path, aside)
    if wal.exists():
        _copy(wal, sidecar(aside, "-wal"))
    if shm is not None:
        _write(sidecar(aside, "-shm"), shm)
    return f"kept as {aside.name}"


def remove(path: Path) -> None:
    """The journal, its WAL and its shared memory, gone: a new journal starts there."""
    for gone in (path, sidecar(path, "-wal"), sidecar(path, "-shm")):
        gone.unlink(missing_ok=True)


def _copy(source: Path, target: Path) -> None:
    _write(target, source.read_bytes())


def _write(target: Path, data: bytes) -> None:
    """A new file, on disk before the original goes."""
    with open(target, "xb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
