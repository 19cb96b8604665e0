"""``companion board``, Glasnost's own command, and reading board descriptions from files.

Kept apart from the rules (``rules``, ``board``: pure, no I/O).

``load_board`` returns the JSON-ready dict; the game validates it
(``companion.games.glasnost.board.parse_board``) when it is passed as the
``board`` option, so a file is checked the same way wherever it comes from.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path
from typing import Any

from companion.errors import BoardError, CompanionError
from companion.files import check_regular, read_regular

BUNDLED = "glasnost_board.json"
MAX_BYTES = 64 * 1024  # the bundled board is under 3 KiB
MAX_DEPTH = 8  # the schema nests four deep (board, crises, crisis, policy)
MAX_DIGITS = 9  # ids are small numbers; Python refuses integers of over 4,300 digits


def _nesting(text: str) -> int:
    """How deep the arrays and objects of ``text`` nest (strings left out), counted in one
    pass without parsing: Python's JSON parser recurses, so a deep file would exhaust its
    stack. (A regular expression for the strings backtracks to quadratic time on a file of
    unclosed, escaped quotes.)"""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _small_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise BoardError(f"a board number has {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def load_board(path: str | Path | None = None) -> dict[str, Any]:
    """The bundled Glasnost board, or the board file at ``path``; bad files get clear errors."""
    if path is None:
        where = "the bundled board"
        try:
            text = resources.files("companion").joinpath("data", BUNDLED).read_text("utf-8")
        except FileNotFoundError:
            raise BoardError(f"{where} ({BUNDLED}) is missing from the installation") from None
    else:
        where = str(path)
        try:
            text = read_regular(path, "board file", MAX_BYTES, BoardError).decode("utf-8")
        except UnicodeDecodeError:
            raise BoardError(f"{where} is not a UTF-8 text file") from None
    if _nesting(text) > MAX_DEPTH:
        raise BoardError(f"{where} nests deeper than a board does (at most {MAX_DEPTH} levels)")
    try:
        data = json.loads(text, parse_int=_small_int)
    except BoardError as exc:
        raise BoardError(f"{where}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise BoardError(
            f"{where} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    if not isinstance(data, dict):
        raise BoardError(f"{where} must hold a JSON object, not {type(data).__name__}")
    return data


def run(args: argparse.Namespace) -> int:
    """Check a board description (``--board``, else the bundled one) and draw it as SVG."""
    from companion.games.glasnost.board import parse_board
    from companion.games.glasnost.board_svg import board_svg

    check_regular(args.svg, "SVG file", CompanionError)  # a FIFO would wait for a reader
    board = parse_board(load_board(args.board))
    try:
        Path(args.svg).write_text(board_svg(board), encoding="utf-8")
    except OSError as exc:
        raise CompanionError(f"cannot write {args.svg}: {exc.strerror}") from None
    print(f"{board.name}: {len(board.crises)} crises, {len(board.seat_crises)} seats -> {args.svg}")
    return 0
