"""Files a user names on the command line, checked before anything is read from them.

Opening a FIFO for reading waits for a writer, opening one for writing waits for
a reader, and a device such as ``/dev/urandom`` never ends: a file the box reads
(a board, a pinout, a journal for statistics) must be a regular file, checked
without blocking before a byte is read, and is read no further than a bound.
Each refusal is the caller's ``CompanionError`` with one sentence a person can
act on.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from companion.errors import CompanionError


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_regular(
    path: str | os.PathLike[str], what: str, limit: int, error: type[CompanionError]
) -> bytes:
    """The bytes of the regular file at ``path`` (``what`` names it in errors), at most
    ``limit`` of them: a directory, FIFO or device is refused before it is read."""
    where = str(path)
    try:
        # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
        fd = os.open(where, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"no {what} at {where}") from None
    except OSError as exc:
        raise error(f"cannot read the {what} {where}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode):
            with os.fdopen(fd, "rb", closefd=False) as file:
                data = file.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read the {what} {where}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if not stat.S_ISREG(mode):
        raise error(f"{where} is {_kind(mode)}, not a {what}")
    if len(data) > limit:
        raise error(f"{where} is too large for a {what} (at most {limit // 1024} KiB)")
    return data


def check_regular(path: str | os.PathLike[str], what: str, error: type[CompanionError]) -> None:
    """Refuse a ``path`` that exists but is no regular file (a FIFO would block whoever opens
    it, a device never ends); a path that does not exist is left to the caller."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise error(f"cannot reach the {what} {path}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        raise error(f"{path} is {_kind(mode)}, not a {what}")


def writable_folder(path: str | os.PathLike[str], what: str, error: type[CompanionError]) -> Path:
    """The folder at ``path``, created if need be, after a test write inside it."""
    folder = Path(path)
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise error(f"cannot reach the {what} {folder}: {exc.strerror}") from None
    if mode is not None and not stat.S_ISDIR(mode):
        raise error(f"{folder} is {'a file' if stat.S_ISREG(mode) else _kind(mode)}, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".companion-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise error(f"cannot write the {what} {folder}: {exc.strerror}") from None
    return folder
