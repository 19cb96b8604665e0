"""A game's setup rows, read from what its engine declares (``Game.OPTIONS``).

The setup screen and ``new_game`` start from the same defaults because both
read them from the engine: the players row starts at the table size the
game takes unless told, each option's row at its default; an option only the
command line sets (a file) has no row.
"""

from __future__ import annotations

from typing import Any

from companion.games import Game


def setup_rows(game: type[Game]) -> dict[str, tuple[Any, ...]]:
    """Option -> values, the default first ("players" first, wrapping round from the
    default, so that Up from the default reaches the smallest table). An option's values
    wrap round from the default in the order declared (Up: the next, e.g. a longer time)."""
    first = game.default_players()
    players = (*range(first, game.max_players + 1), *range(game.min_players, first))
    rows: dict[str, tuple[Any, ...]] = {"players": players}
    for key, option in game.OPTIONS.items():
        if option.values is not None:
            at = option.values.index(option.default)
            rows[key] = (*option.values[at:], *option.values[:at])
    return rows
