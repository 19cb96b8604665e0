"""Glasnost: seats around crises, secret votes, purges and coups."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.record import Command, GameRecord

if TYPE_CHECKING:
    import argparse

    from companion.games.glasnost import screens
    from companion.ui.contract import GameUI

    _SCREENS: GameUI = screens  # for the type checker only: the screens keep the protocol


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
    __name__,
    engine="Glasnost",
    hidden=("objectives",),
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
