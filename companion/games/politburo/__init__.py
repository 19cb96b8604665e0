"""Politburo: plan, execute, purge, with one hidden victory condition each.

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
    from companion.games.politburo.rules import Politburo

    return Politburo


def _ui() -> GameUI:  # the type checker holds the screens to the protocol
    from companion.games.politburo import screens

    return screens


def _bots() -> Any:
    from companion.games.politburo.bots import make_bots

    return make_bots


def _tv() -> Any:
    from companion.games.politburo import tv

    return tv


def _learn() -> Any:
    from companion.games.politburo.learn import PAGES

    return PAGES


def _migrations() -> Any:
    from companion.games.politburo.migrations import MIGRATIONS

    return MIGRATIONS


def _state_shape() -> Any:
    from companion.games.politburo.shape import SHAPE

    return SHAPE


RECORD = GameRecord(
    name="politburo",
    hidden=("members",),
    engine=_engine,
    ui=_ui,
    bots=_bots,
    tv=_tv,
    learn=_learn,
    migrations=_migrations,
    state_shape=_state_shape,
)
