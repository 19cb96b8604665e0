"""Kolkhoz: five years of tricks, jobs to fill and a plot to hide.

The folder holds the whole game: its rules (``rules``, pure), saved shape and
invariants (``shape``), screens (``screens``), bots (``bots``), TV and phone
texts and picture (``tv``), Learn pages (``learn``) and migrations
(``migrations``). The house reaches them only through ``RECORD``, each part
imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.record import GameRecord

if TYPE_CHECKING:
    from companion.ui.contract import GameUI


def _engine() -> Any:
    from companion.games.kolkhoz.rules import Kolkhoz

    return Kolkhoz


def _ui() -> GameUI:  # the type checker holds the screens to the protocol
    from companion.games.kolkhoz import screens

    return screens


def _bots() -> Any:
    from companion.games.kolkhoz.bots import make_bots

    return make_bots


def _tv() -> Any:
    from companion.games.kolkhoz import tv

    return tv


def _learn() -> Any:
    from companion.games.kolkhoz.learn import PAGES

    return PAGES


def _migrations() -> Any:
    from companion.games.kolkhoz.migrations import MIGRATIONS

    return MIGRATIONS


def _state_shape() -> Any:
    from companion.games.kolkhoz.shape import SHAPE

    return SHAPE


def _bot_seed(options: dict[str, Any], seed: int) -> int:
    """On the table's cards the bots enter a twin dealt from the game's own seed, as at a
    real table the cards in hand are the deal's; else a seed apart from the game's."""
    return seed if options.get("deal") == "cards" else seed + 1


RECORD = GameRecord(
    name="kolkhoz",
    hidden=("hands", "plots"),
    engine=_engine,
    ui=_ui,
    bots=_bots,
    tv=_tv,
    learn=_learn,
    migrations=_migrations,
    state_shape=_state_shape,
    # the bots can only enter real cards for a game they saw dealt: alone, the box deals
    bot_options={"deal": "box"},
    bot_seed=_bot_seed,
)
