"""Engine speed as simulated games per CPU-second: the measure the bench and ``bench/compare.py``
share.

CPU time (``time.process_time``) rather than wall time, because on a shared or
loaded machine the wall clock counts other people's work. This module imports
only ``new_game``, ``make_bots`` and ``play_out``, which every version of the
package has (and counts moves by wrapping a game's ``act``), so
``bench/compare.py`` can load this very file against an older tree and time
both with the same loop.

Both trees must play the same games, so every option whose default changed
since is passed explicitly with its old value (``OPTIONS``), by keyword, as
every version's ``new_game`` takes options.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from companion.bots import make_bots, play_out
from companion.games import GAMES, new_game

if TYPE_CHECKING:
    from companion.bots import Bot
    from companion.games import Game

__all__ = ["OPTIONS", "games_per_cpu_second", "moves_per_game", "play_games"]

#: the options a game's bots play a whole game alone with (its record's ``bot_options``):
#: where a default changed later, the value it had before, so the rates stay comparable
OPTIONS: dict[str, dict[str, str]] = {name: dict(r.bot_options) for name, r in GAMES.items()}


def _seeded_games(
    name: str, players: int, games: int, seed: int, bots: str
) -> Iterator[tuple[Game, list[Bot]]]:
    """The games ``simulate`` would play, seeded as it seeds them, each with its bots."""
    master = random.Random(seed)
    for _ in range(games):
        game_seed = master.getrandbits(64)
        game = new_game(name, players=players, seed=game_seed, **OPTIONS.get(name, {}))
        yield game, make_bots(game, bots, random.Random(game_seed + 1))


def play_games(name: str, players: int, games: int, seed: int = 1, bots: str = "smart") -> None:
    """``games`` games of ``name`` at ``players`` seats by ``bots`` ("smart" or "random"),
    seeded as ``simulate`` does."""
    for game, players_bots in _seeded_games(name, players, games, seed, bots):
        play_out(game, players_bots)


def moves_per_game(
    name: str, players: int, games: int, seed: int = 1, bots: str = "smart"
) -> float:
    """The moves (actions the rules took) of ``play_games``'s games, per game: when a rule
    changes how long the same seeds play (Glasnost's coup countdown), rates per move still
    compare two trees."""
    moves = 0
    for game, players_bots in _seeded_games(name, players, games, seed, bots):
        act = game.act

        def counted(*args: Any, act: Callable[..., Any] = act) -> Any:
            nonlocal moves
            moves += 1
            return act(*args)

        game.act = counted  # type: ignore[method-assign, assignment]
        play_out(game, players_bots)
    return moves / games


def games_per_cpu_second(
    name: str, players: int, games: int, seed: int = 1, bots: str = "smart"
) -> float:
    """How many of these games one CPU plays in a second (this process's CPU time only)."""
    start = time.process_time()
    play_games(name, players, games, seed, bots)
    spent = time.process_time() - start
    return games / spent if spent > 0 else float("inf")
