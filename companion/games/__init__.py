"""The rules of the four games, pure: no hardware, threads, sleeping or storage.

``new_game`` is the one door in; games are imported on first use so that the
box starts fast and a game module never imports another.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.ballot import make_rng
from companion.errors import IllegalMove, SettingsError
from companion.games.base import Choice, Decision, Game, Result

__all__ = [
    "GAMES",
    "Choice",
    "Decision",
    "Game",
    "IllegalMove",
    "Result",
    "game_class",
    "new_game",
    "restore",
]

# name -> "module:Class"
GAMES: dict[str, str] = {
    "gulag": "companion.games.gulag:Gulag",
    "politburo": "companion.games.politburo:Politburo",
    "glasnost": "companion.games.glasnost:Glasnost",
    "kolkhoz": "companion.games.kolkhoz:Kolkhoz",
}


def game_class(name: str) -> type[Game]:
    try:
        target = GAMES[name]
    except KeyError:
        raise SettingsError(f"no game called {name!r} (games: {', '.join(GAMES)})") from None
    module, _, cls = target.partition(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except ModuleNotFoundError:
        raise SettingsError(f"{name} is not available in this version") from None


def new_game(
    name: str, players: int | None = None, seed: int | None = None, **options: Any
) -> Game:
    """A new game. ``seed`` makes it reproducible; None draws from the CSPRNG (a real table)."""
    cls = game_class(name)
    if players is None:
        players = cls.min_players
    return cls(players, make_rng(seed), **options)


def restore(record: dict[str, Any]) -> Game:
    """The game a ``to_record()`` record was taken from, exactly as it was."""
    if not isinstance(record, dict) or "game" not in record:
        raise ValueError("not a saved game record")
    return game_class(record["game"]).from_record(record)
