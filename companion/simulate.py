"""Many bot games in a row: outcome rates and mean measures, for balance tables."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from companion.bots import make_bots, play_out
from companion.errors import SettingsError
from companion.games import Game, game_class, game_record, new_game


def bot_seed(game: Game, game_seed: int) -> int:
    """The seed of a game's bots: apart from the game's own, so that their choices do not
    follow its chance, unless the game's record says the bots deal from it."""
    return game_record(game.name).bot_seed(dict(game.options), game_seed)


def simulate(
    name: str,
    players: int | None,
    games: int,
    seed: int,
    bots: str = "smart",
    **options: Any,
) -> dict[str, Any]:
    """Play ``games`` games; the same seed gives the same numbers (but for the speed)."""
    if games < 1:
        raise SettingsError("--games must be at least 1")
    master = random.Random(seed)
    outcomes: Counter[str] = Counter()
    sums: dict[str, float] = {}
    counts: Counter[str] = Counter()
    table_size = None
    start = time.perf_counter()
    for _ in range(games):
        game_seed = master.getrandbits(64)
        game = new_game(name, players=players, seed=game_seed, **options)
        table_size = game.players
        result = play_out(game, make_bots(game, bots, random.Random(bot_seed(game, game_seed))))
        outcomes[result.outcome] += 1
        for key, value in result.measures.items():
            sums[key] = sums.get(key, 0.0) + value
            counts[key] += 1
    seconds = time.perf_counter() - start
    return {
        "game": name,
        "players": table_size,
        "games": games,
        "seed": seed,
        "bots": bots,
        "outcomes": {
            k: outcomes[k] / games for k in dict.fromkeys([*game_class(name).outcomes, *outcomes])
        },
        "measures": {k: sums[k] / counts[k] for k in sorted(sums)},
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else float("inf"),
    }


def report(stats: dict[str, Any]) -> str:
    """The human-readable table printed by ``companion simulate``."""
    lines = [
        f"{stats['game']}: {stats['games']} games, {stats['players']} players, "
        f"seed {stats['seed']}, {stats['bots']} bots",
        "outcomes:",
    ]
    lines += [f"  {k:<24} {v:7.1%}" for k, v in stats["outcomes"].items()]
    if stats["measures"]:
        lines.append("means:")
        for k, v in stats["measures"].items():
            shown = f"{v:7.1%}" if k.endswith(" won") else f"{v:7.2f}"
            lines.append(f"  {k:<24} {shown}")
    lines.append(f"speed: {stats['games_per_second']:.0f} games per second")
    return "\n".join(lines)
