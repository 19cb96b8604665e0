"""Engine speed as simulated games per CPU-second: the measure the bench and ``bench/compare.py``
share.

CPU time (``time.process_time``) rather than wall time, because on a shared or
loaded machine the wall clock counts other people's work. This module imports
only ``new_game``, ``make_bots`` and ``play_out``, which every version of the
package has, so ``bench/compare.py`` can load this very file against an older
tree and time both with the same loop.

Both trees must play the same games, so every option whose default changed
since is passed explicitly with its old value (``OPTIONS``), by keyword, as
every version's ``new_game`` takes options.
"""

from __future__ import annotations

import random
import time

from companion.bots import make_bots, play_out
from companion.games import GAMES, new_game

__all__ = ["OPTIONS", "games_per_cpu_second", "play_games"]

#: the options a game's bots play a whole game alone with (its record's ``bot_options``):
#: where a default changed later, the value it had before, so the rates stay comparable
OPTIONS: dict[str, dict[str, str]] = {name: dict(r.bot_options) for name, r in GAMES.items()}


def play_games(name: str, players: int, games: int, seed: int = 1, bots: str = "smart") -> None:
    """``games`` games of ``name`` at ``players`` seats by ``bots`` ("smart" or "random"),
    seeded as ``simulate`` does."""
    master = random.Random(seed)
    for _ in range(games):
        game_seed = master.getrandbits(64)
        game = new_game(name, players=players, seed=game_seed, **OPTIONS.get(name, {}))
        play_out(game, make_bots(game, bots, random.Random(game_seed + 1)))


def games_per_cpu_second(
    name: str, players: int, games: int, seed: int = 1, bots: str = "smart"
) -> float:
    """How many of these games one CPU plays in a second (this process's CPU time only)."""
    start = time.process_time()
    play_games(name, players, games, seed, bots)
    spent = time.process_time() - start
    return games / spent if spent > 0 else float("inf")
