"""Gulag: the canal, the commissar and the task cards played face down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.record import GameRecord

if TYPE_CHECKING:
    from companion.games.gulag import screens
    from companion.ui.contract import GameUI

    _SCREENS: GameUI = screens  # for the type checker only: the screens keep the protocol


RECORD = GameRecord(__name__, engine="Gulag", hidden=("roles",))
