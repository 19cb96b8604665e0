"""Reading the journal back: rows as they were written, nothing judged.

Every reader takes an open connection (the journal's own, a read-only one, or one on a
damaged file that is being salvaged) and lets SQLite's errors through to the caller.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from companion.store.records import KNOWN_ENDS, Odd, SavedStep, Unfinished, decode, screens


def unfinished(db: sqlite3.Connection) -> Unfinished | None:
    """The newest game not over that has a step, with its kept steps, newest first."""
    row = db.execute(
        "SELECT g.id, g.game, CAST(g.settings AS BLOB) FROM games g WHERE g.finished = 0 "
        "AND EXISTS (SELECT 1 FROM steps s WHERE s.game_id = g.id) ORDER BY g.id DESC LIMIT 1"
    ).fetchone()
    if row is None:
        return None
    game_id, name, settings = row
    steps = db.execute(
        "SELECT n, CAST(record AS BLOB), checksum, CAST(shown AS BLOB), bad "
        "FROM steps WHERE game_id = ? ORDER BY n DESC",
        (game_id,),
    ).fetchall()
    failed = []
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'starts'").fetchone():  # format 4
        failed = db.execute(
            "SELECT n FROM starts WHERE game_id = ? ORDER BY rowid", (game_id,)
        ).fetchall()
    return Unfinished(
        game_id,
        str(name),
        settings,
        tuple(SavedStep(*step) for step in steps),
        tuple(n for (n,) in failed),
    )


def odd_games(db: sqlite3.Connection) -> list[Odd]:
    """Games whose ``finished`` holds a value this version does not know."""
    known = ", ".join(str(end) for end in KNOWN_ENDS)
    rows = db.execute(
        f"SELECT id, game, finished FROM games WHERE finished NOT IN ({known}) "
        "OR typeof(finished) != 'integer' ORDER BY id"
    ).fetchall()
    return [Odd(game_id, str(name), finished) for game_id, name, finished in rows]


def reveals(db: sqlite3.Connection, game_id: int, upto: int) -> list[list[dict[str, Any]]]:
    """The readable reveals of a game up to step ``upto``, in order; an unreadable one is
    left out."""
    out: list[list[dict[str, Any]]] = []
    for (raw,) in db.execute(
        "SELECT CAST(screens AS BLOB) FROM reveals WHERE game_id = ? AND n <= ? ORDER BY n, rowid",
        (game_id, upto),
    ):
        try:
            shown = screens(raw)
        except ValueError:
            continue
        if shown:
            out.append(shown)
    return out


def last_settings(db: sqlite3.Connection) -> Any:
    """The settings of the newest game, whatever became of it, as JSON decodes them (None
    if there is no game or they do not decode)."""
    row = db.execute("SELECT CAST(settings AS BLOB) FROM games ORDER BY id DESC LIMIT 1").fetchone()
    try:
        return None if row is None else decode(row[0])
    except ValueError:
        return None
