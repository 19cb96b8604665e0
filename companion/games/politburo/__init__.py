"""Politburo: plan, execute, purge, with one hidden victory condition each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.record import GameRecord

if TYPE_CHECKING:
    from companion.games.politburo import screens
    from companion.ui.contract import GameUI

    _SCREENS: GameUI = screens  # for the type checker only: the screens keep the protocol


RECORD = GameRecord(__name__, engine="Politburo", hidden=("members",))
