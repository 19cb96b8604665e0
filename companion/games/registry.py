"""The one registry of games: each folder's record, one line a game.

A game is a folder, ``companion/games/<game>/`` (``companion.games.record``
says what its record declares); adding one is its folder and its line in
``FOLDERS``. Importing this imports each folder's ``__init__`` (its record)
only, never its parts.
"""

from __future__ import annotations

from importlib import import_module

from companion.games.record import GameRecord

#: the game folders, in the order the setup screen lists them
FOLDERS = (
    "gulag",
    "kolkhoz",
    "politburo",
    "glasnost",
    "vote",
)


def _record(folder: str) -> GameRecord:
    record = import_module(f"companion.games.{folder}").RECORD
    if not isinstance(record, GameRecord) or record.name != folder:
        raise TypeError(f"companion/games/{folder}/ declares no GameRecord named {folder!r}")
    return record


GAMES: dict[str, GameRecord] = {folder: _record(folder) for folder in FOLDERS}
