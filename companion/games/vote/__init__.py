"""The vote: the box as the anonymous ballot box of any game on the shelf.

Avalon's quests, Secret Hitler's votes, a werewolf lynch, a club's own rules:
each round the chair says who votes, the voters answer in secret (or at once on
pads and phones), and the box reveals the choices shuffled, counted, or seat by
seat, and adds a line to the history. The folder holds the whole game, as every
game's does: its rules (``rules``, pure, and their page ``rules.md``), saved
shape (``shape``), screens, bots, TV texts and picture, Learn pages, migrations,
its French catalog (``locale``) and its tests (``tests``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.record import GameRecord

if TYPE_CHECKING:
    from companion.ui.contract import GameUI


def _engine() -> Any:
    from companion.games.vote.rules import Vote

    return Vote


def _ui() -> GameUI:  # the type checker holds the screens to the protocol
    from companion.games.vote import screens

    return screens


def _bots() -> Any:
    from companion.games.vote.bots import make_bots

    return make_bots


def _tv() -> Any:
    from companion.games.vote import tv

    return tv


def _learn() -> Any:
    from companion.games.vote.learn import PAGES

    return PAGES


def _migrations() -> Any:
    from companion.games.vote.migrations import MIGRATIONS

    return MIGRATIONS


def _state_shape() -> Any:
    from companion.games.vote.shape import SHAPE

    return SHAPE


RECORD = GameRecord(
    name="vote",
    hidden=("starts",),
    engine=_engine,
    ui=_ui,
    bots=_bots,
    tv=_tv,
    learn=_learn,
    migrations=_migrations,
    state_shape=_state_shape,
    bot_options={"choice": "approve_reject", "reveal": "cards"},  # an Avalon team vote
    booth=False,  # a ballot for another game on the table: nothing for a stranger alone
)
