"""The journal: SQLite, crash-safe, checksummed. It stores and reads; it does not judge.

``files`` opens the file with the durability it needs and keeps a damaged one aside,
``records`` holds the typed rows and writes, ``writes`` and ``reads`` move them in and
out, ``journal`` is the box's one ``Journal``. Whether a saved step can be resumed is
decided on the table's side (``companion.table.resume``); nothing here imports the
games, the screens, the migrations or the checks (``tests/test_store_imports.py``).
"""

from companion.errors import JournalError
from companion.store.ack import WAL_KEPT
from companion.store.files import (
    BUSY_WAIT,
    LOCK_WAIT,
    SCHEMA_VERSION,
    default_path,
    free_name,
    transaction,
)
from companion.store.journal import RETRY, Journal
from companion.store.records import (
    ABANDONED,
    FILE_DAMAGED,
    FILE_SALVAGED,
    FINISHED,
    GAME_ASIDE,
    GAME_STOPPED,
    NEWER_GAME,
    NEWER_JOURNAL,
    NEWER_STEP,
    PLAYING,
    ROLLED_BACK,
    SAVING_AGAIN,
    SCREEN_LINES,
    SET_ASIDE,
    STEP_SKIPPED,
    STEP_STOPPED,
    UNSAVED,
    News,
    SavedStep,
    Unfinished,
    checksum,
)
from companion.store.writes import KEEP_GAMES, KEEP_LIVE, KEEP_ROWS, KEEP_STEPS, prune_ended

__all__ = [
    "ABANDONED",
    "BUSY_WAIT",
    "FILE_DAMAGED",
    "FILE_SALVAGED",
    "FINISHED",
    "GAME_ASIDE",
    "GAME_STOPPED",
    "KEEP_GAMES",
    "KEEP_LIVE",
    "KEEP_ROWS",
    "KEEP_STEPS",
    "LOCK_WAIT",
    "NEWER_GAME",
    "NEWER_JOURNAL",
    "NEWER_STEP",
    "PLAYING",
    "RETRY",
    "ROLLED_BACK",
    "SAVING_AGAIN",
    "SCHEMA_VERSION",
    "SCREEN_LINES",
    "SET_ASIDE",
    "STEP_SKIPPED",
    "STEP_STOPPED",
    "UNSAVED",
    "WAL_KEPT",
    "Journal",
    "JournalError",
    "News",
    "SavedStep",
    "Unfinished",
    "checksum",
    "default_path",
    "free_name",
    "prune_ended",
    "transaction",
]
