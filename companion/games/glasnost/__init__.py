"""Glasnost: seats around crises, secret votes, purges and coups.

The folder holds the whole game: its rules (``rules``, pure), saved shape and
invariants (``shape``), screens (``screens``), bots (``bots``), TV and phone
texts and picture (``tv``), Learn pages (``learn``) and migrations
(``migrations``). The house reaches them only through ``RECORD``, each part
imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.record import Command, GameRecord

if TYPE_CHECKING:
    import argparse

    from companion.ui.contract import GameUI


def _engine() -> Any:
    from companion.games.glasnost.rules import Glasnost

    return Glasnost


def _ui() -> GameUI:  # the type checker holds the screens to the protocol
    from companion.games.glasnost import screens

    return screens


def _bots() -> Any:
    from companion.games.glasnost.bots import make_bots

    return make_bots


def _tv() -> Any:
    from companion.games.glasnost import tv

    return tv


def _learn() -> Any:
    from companion.games.glasnost.learn import PAGES

    return PAGES


def _migrations() -> Any:
    from companion.games.glasnost.migrations import MIGRATIONS

    return MIGRATIONS


def _state_shape() -> Any:
    from companion.games.glasnost.shape import SHAPE

    return SHAPE


def _board_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=("glasnost",), help="the game whose board it is")
    parser.add_argument("--svg", required=True, metavar="FILE", help="where to write the drawing")
    parser.add_argument(
        "--board", default=None, metavar="FILE", help="a board file (default: bundled)"
    )


def _board() -> Any:
    from companion.games.glasnost.command import run

    return run


def _read_option(key: str, value: str) -> Any:
    """``board=FILE`` on the command line: the file, read and checked (games do no I/O)."""
    if key != "board":
        return value
    from companion.games.glasnost.command import load_board

    return load_board(value)


RECORD = GameRecord(
    name="glasnost",
    hidden=("objectives",),
    engine=_engine,
    ui=_ui,
    bots=_bots,
    tv=_tv,
    learn=_learn,
    migrations=_migrations,
    state_shape=_state_shape,
    commands=(
        Command(
            "board",
            "check a home-made Glasnost board file and draw it as a picture",
            _board_arguments,
            _board,
        ),
    ),
    read_option=_read_option,
    bench_players=(8,),  # where the board is fullest at a common table
)
