"""Reading board descriptions from files, kept outside ``companion.games`` (which does no I/O).

``load_board`` returns the JSON-ready dict; the game validates it
(``companion.games.glasnost_board.parse_board``) when it is passed as the
``board`` option, so a file is checked the same way wherever it comes from.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from companion.errors import BoardError

BUNDLED = "glasnost_board.json"


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
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise BoardError(f"no board file at {where}") from None
        except IsADirectoryError:
            raise BoardError(f"{where} is a directory, not a board file") from None
        except UnicodeDecodeError:
            raise BoardError(f"{where} is not a UTF-8 text file") from None
        except OSError as exc:
            raise BoardError(f"cannot read the board file {where}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(
            f"{where} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    if not isinstance(data, dict):
        raise BoardError(f"{where} must hold a JSON object, not {type(data).__name__}")
    return data
