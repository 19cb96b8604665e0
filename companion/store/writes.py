"""Writing queued steps into the journal, one transaction at a time, and keeping it small.

The game in progress keeps its last ``KEEP_LIVE`` steps (the ones to fall back on); so
does the game played just before it, but once a newer game begins, an older ended game
keeps its row (settings, how it ended) and its last ``KEEP_STEPS`` steps, the newest
``KEEP_GAMES`` of them only, and only the newest ``KEEP_ROWS`` games keep their row at
all: the file stays bounded over years of game nights.
"""

from __future__ import annotations

import json
import sqlite3
import time

from companion.store.files import transaction
from companion.store.records import ABANDONED, Begin, Finish, Shown, Step, Write, checksum

KEEP_GAMES = 10  # ended games that keep their last steps (older ones keep their row only)
KEEP_STEPS = 3  # steps kept of each of those: where it ended, and just before
KEEP_LIVE = 20  # steps kept of the game in progress: the newest, and some to fall back on
KEEP_ROWS = 100  # ended games that keep their row (settings, start, how it ended)


def write(db: sqlite3.Connection, op: Write, game_id: int | None, n: int) -> tuple[int | None, int]:
    """One queued write, inside the caller's transaction; the game and step after it."""
    match op:
        case Begin(game, settings):
            db.execute(
                "UPDATE games SET finished = ?, why = 'a newer game was begun' WHERE finished = 0",
                (ABANDONED,),
            )
            cur = db.execute(
                "INSERT INTO games (game, settings, started) VALUES (?, ?, ?)",
                (game, settings, time.time()),
            )
            return cur.lastrowid, 0
        case Step(record, shown, reveals):
            db.execute(
                "INSERT INTO steps (game_id, n, record, shown, checksum) VALUES (?, ?, ?, ?, ?)",
                (game_id, n + 1, record, shown, checksum(record)),
            )
            db.executemany(
                "INSERT INTO reveals (game_id, n, screens) VALUES (?, ?, ?)",
                [(game_id, n + 1, json.dumps(list(screens))) for screens in reveals],
            )
            # the game in progress keeps its newest steps only (its reveals all stay)
            db.execute(
                "DELETE FROM steps WHERE game_id = ? AND n <= ?", (game_id, n + 1 - KEEP_LIVE)
            )
            return game_id, n + 1
        case Shown(shown):
            db.execute(
                "UPDATE steps SET shown = ? WHERE game_id = ? AND n = ?", (shown, game_id, n)
            )
        case Finish(how):
            db.execute("UPDATE games SET finished = ? WHERE id = ?", (how, game_id))
            db.execute("DELETE FROM starts WHERE game_id = ?", (game_id,))
    return game_id, n


def prune_ended(
    db: sqlite3.Connection,
    keep_games: int,
    keep_steps: int,
    whole: int = 0,
    drop_rows: bool = False,
    keep_rows: int | None = None,
) -> None:
    """Drop the steps of ended games but the last ``keep_steps`` of the newest ``keep_games``
    (the newest ``whole`` of those keep all theirs: the game just played), and the reveals
    of all but those. The older games' rows (settings, start, how they ended) stay, the
    newest ``keep_rows`` of them (all without it), unless ``drop_rows`` (the kiosk keeps its
    own summaries). One transaction."""
    ended = "SELECT id FROM games WHERE finished != 0 ORDER BY id DESC"
    rows = keep_games if drop_rows else keep_rows
    with transaction(db):
        db.execute(f"DELETE FROM steps WHERE game_id IN ({ended} LIMIT -1 OFFSET ?)", (keep_games,))
        db.execute(f"DELETE FROM reveals WHERE game_id IN ({ended} LIMIT -1 OFFSET ?)", (whole,))
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'starts'").fetchone():
            db.execute(f"DELETE FROM starts WHERE game_id IN ({ended})")
        if rows is not None:
            db.execute(f"DELETE FROM games WHERE id IN ({ended} LIMIT -1 OFFSET ?)", (rows,))
            for table in ("steps", "reveals"):  # nothing is kept of a game without its row
                db.execute(f"DELETE FROM {table} WHERE game_id NOT IN (SELECT id FROM games)")
        db.execute(
            f"DELETE FROM steps WHERE game_id IN ({ended} LIMIT -1 OFFSET ?) AND n <= "
            "(SELECT MAX(n) FROM steps AS s WHERE s.game_id = steps.game_id) - ?",
            (whole, keep_steps),
        )
