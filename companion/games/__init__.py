"""The games: one contract, and one folder a game (``companion/games/<game>/``).

``new_game`` is the one door in; games are imported on first use so that the
box starts fast and a game's rules never import another's (or anything that
draws, talks or stores: ``tests/test_game_folders.py``). ``GAMES`` holds one
record per game folder (``companion.games.registry``): its rules, screens,
bots, TV texts and picture, Learn pages, migrations and saved shape.
"""

from __future__ import annotations

from typing import Any

from companion.ballot import make_rng
from companion.errors import IllegalMove, SettingsError
from companion.games.base import Choice, Decision, Game, Result
from companion.games.record import GameRecord
from companion.games.registry import GAMES

__all__ = [
    "FIRST",
    "GAMES",
    "Choice",
    "Decision",
    "Game",
    "GameRecord",
    "IllegalMove",
    "Result",
    "game_class",
    "game_record",
    "new_game",
    "restore",
]


#: the game the setup screen lists first: a fresh box starts from it
FIRST = next(iter(GAMES))


def game_record(name: str) -> GameRecord:
    """The registry's record of game ``name``; a name it lacks is a settings error."""
    try:
        return GAMES[name]
    except KeyError:
        raise SettingsError(f"no game called {name!r} (games: {', '.join(GAMES)})") from None


def game_class(name: str) -> type[Game]:
    record = game_record(name)
    try:
        cls: type[Game] = record.load("engine")
    except ModuleNotFoundError:
        raise SettingsError(f"{name} is not available in this version") from None
    return cls


def new_game(
    name: str, players: int | None = None, seed: int | None = None, **options: Any
) -> Game:
    """A new game. ``seed`` makes it reproducible; None draws from the CSPRNG (a real table).
    Unless told, the table size and options are the game's defaults, those its setup screen
    starts from."""
    cls = game_class(name)
    if players is None:
        players = cls.default_players()
    return cls(players, make_rng(seed), **options)


def restore(record: dict[str, Any]) -> Game:
    """The game a ``to_record()`` record was taken from, exactly as it was."""
    if not isinstance(record, dict) or "game" not in record:
        raise ValueError("not a saved game record")
    return game_class(record["game"]).from_record(record)
