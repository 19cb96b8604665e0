"""Kolkhoz: five years of tricks, jobs to fill and a plot to hide."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.record import GameRecord

if TYPE_CHECKING:
    from companion.games.kolkhoz import screens
    from companion.ui.contract import GameUI

    _SCREENS: GameUI = screens  # for the type checker only: the screens keep the protocol


def _bot_seed(options: dict[str, Any], seed: int) -> int:
    """On the table's cards the bots enter a twin dealt from the game's own seed, as at a
    real table the cards in hand are the deal's; else a seed apart from the game's."""
    return seed if options.get("deal") == "cards" else seed + 1


RECORD = GameRecord(
    __name__,
    engine="Kolkhoz",
    hidden=("hands", "plots"),
    # the bots can only enter real cards for a game they saw dealt: alone, the box deals
    bot_options={"deal": "box"},
    bot_seed=_bot_seed,
)
