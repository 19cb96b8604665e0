"""Gulag: the canal, the commissar and the task cards played face down.

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
    from companion.games.gulag.rules import Gulag

    return Gulag


def _ui() -> GameUI:  # the type checker holds the screens to the protocol
    from companion.games.gulag import screens

    return screens


def _bots() -> Any:
    from companion.games.gulag.bots import make_bots

    return make_bots


def _tv() -> Any:
    from companion.games.gulag import tv

    return tv


def _learn() -> Any:
    from companion.games.gulag.learn import PAGES

    return PAGES


def _migrations() -> Any:
    from companion.games.gulag.migrations import MIGRATIONS

    return MIGRATIONS


def _state_shape() -> Any:
    from companion.games.gulag.shape import SHAPE

    return SHAPE


RECORD = GameRecord(
    name="gulag",
    hidden=("roles",),
    engine=_engine,
    ui=_ui,
    bots=_bots,
    tv=_tv,
    learn=_learn,
    migrations=_migrations,
    state_shape=_state_shape,
)
