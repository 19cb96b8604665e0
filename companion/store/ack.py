"""The sidecar ``<journal>.ack``: the last step the box acknowledged, kept beside SQLite so
that a crash SQLite recovers by rolling the WAL back is noticed (and said)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from companion.store.files import free_name, sidecar

WAL_KEPT = 8 << 20  # the largest WAL copied aside when a crash rolled it back


def acknowledge(ack: Path, game_id: int | None, n: int) -> None:
    """The step now on disk, in the sidecar (best effort: it only ever lags)."""
    try:
        fd = os.open(ack, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.pwrite(fd, f"{game_id or 0:>20} {n:>20}\n".encode(), 0)
        finally:
            os.close(fd)
    except OSError:
        pass


def acknowledged(ack: Path) -> tuple[int, int] | None:
    """The game and step the sidecar holds, if it can be read."""
    try:
        game_id, n = map(int, ack.read_text().split())
    except (OSError, ValueError):
        return None
    return game_id, n


def wal_as_found(path: Path, ack: Path) -> bytes | None:
    """The WAL as it stands before SQLite recovers it, to keep if it is rolled back."""
    wal = sidecar(path, "-wal")
    try:
        if ack.exists() and 0 < wal.stat().st_size <= WAL_KEPT:
            return wal.read_bytes()
    except OSError:
        pass
    return None


def keep_wal(path: Path, wal: bytes | None) -> str:
    """The rolled-back WAL kept aside; what to add to the line that says so."""
    if wal is None:
        return ""
    aside = free_name(sidecar(path, "-wal"), "damaged", time.time())
    try:
        aside.write_bytes(wal)
    except OSError:
        return ""
    return f"; the WAL as found is kept as {aside.name}"
