"""Per-seat, per-game phone tokens: from the CSPRNG, compared in constant time, kept 0600.

A token is base32 (A-Z, 2-7) so that the phone's URL fits QR alphanumeric
mode and stays a large code on the 128x64 panel. The file sits beside the
journal with the journal's protection, so the same game's phones rejoin after
a power cut; a new game or the end of a game wipes it. Tokens are never logged.
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

TOKEN_BYTES = 15  # 120 bits, 24 base32 characters


def new_token() -> str:
    return base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode("ascii")


class Tokens:
    """The live tokens of the game in progress: seat -> token."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.key: str | None = None
        self.by_seat: dict[int, str] = {}

    def begin(self, key: str | None, resumed: bool) -> None:
        """A game began; a resumed game keeps the tokens saved for it, any other starts bare."""
        self.by_seat = {}
        saved = self._load() if resumed and key is not None else None
        if saved is not None and saved.get("key") == key:
            self.by_seat = {int(seat): str(token) for seat, token in saved["tokens"].items()}
        self.key = key
        self._save()

    def end(self) -> None:
        """The game is over: its tokens die with it."""
        self.by_seat = {}
        self._save()

    def issue(self, seat: int) -> str:
        """A new token for ``seat``; the old one stops working at once."""
        token = new_token()
        self.by_seat[seat] = token
        self._save()
        return token

    def fresh(self) -> str:
        """A new token not yet any seat's (``adopt`` makes it one's)."""
        return new_token()

    def adopt(self, seat: int, token: str) -> None:
        """``token`` is ``seat``'s link from now on; the old one stops working at once."""
        self.by_seat[seat] = token
        self._save()

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` belongs to; every live token is compared, in constant time each."""
        return seat_with(token, self.by_seat)

    def _load(self) -> dict | None:
        if self.path is None:
            return None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and isinstance(data.get("tokens"), dict) else None

    def _save(self) -> None:
        if self.path is not None:
            data = {"key": self.key, "tokens": {str(s): t for s, t in self.by_seat.items()}}
            write_private(self.path, json.dumps(data))


def seat_with(token: str, live: Mapping[int, str]) -> int | None:
    """The seat whose token in ``live`` is ``token``: each compared whole, in constant time."""
    given = token.encode("ascii", "replace")
    found = None
    for seat, known in live.items():
        if hmac.compare_digest(given, known.encode("ascii")):
            found = seat
    return found


def write_private(path: Path, text: str) -> None:
    """Write with mode 0600, through a temporary file, so a power cut leaves old or new."""
    tmp = path.with_name(path.name + ".tmp")
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)


def tv_token(path: Path | None) -> str:
    """The TV link's token: kept in ``path`` (0600) so a TV's bookmark works after a restart.

    Without a path (no journal) it lives as long as the process. Delete the file for a new one.
    """
    if path is not None:
        with contextlib.suppress(OSError, UnicodeDecodeError):
            saved = path.read_text(encoding="ascii").strip()
            if len(saved) == len(new_token()) and saved.isalnum():
                return saved.upper()
    token = new_token()
    if path is not None:
        write_private(path, token + "\n")
    return token
