"""One box a journal: a box holds an ``flock`` on a file beside its journal for its whole life.

Two processes on one journal (the service and a ``companion run`` started by hand with the
service's ``COMPANION_DATA``, two terminals on a laptop) would each mark the other's game
abandoned and lose acknowledged steps. The kernel drops an ``flock`` when its holder dies,
SIGKILL and power cuts included, so a lock left behind by a crash never blocks the next start.

It is a lock beside the journal, not SQLite's exclusive mode: ``companion stats`` must still
read the journal while a box runs, and a SQLite lock held by anything else still means
"play on, unsaved".
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from pathlib import Path

from companion.errors import JournalError

log = logging.getLogger("companion.journal")


class JournalInUse(JournalError):
    """Another box holds this journal: this one must not open it."""


def lock_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".lock")


class BoxLock:
    """The held lock; ``release`` (or the process's end) lets the next box in."""

    def __init__(self, fd: int | None) -> None:
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the last descriptor drops the flock
            self.fd = None

    def __del__(self) -> None:  # a start that fails after the lock lets it go with its frame
        self.release()


def hold(journal: Path, command: str) -> BoxLock:
    """Take the journal for this box, or raise ``JournalInUse`` naming the box that has it.

    A folder where the lock file cannot be made (read-only, missing and not creatable) is
    no reason to stop the box: the journal there cannot be written either, and the journal
    says so itself; the box then runs without the lock."""
    path = lock_path(journal)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        log.debug("cannot make the lock file %s: %s", path, exc.strerror)
        return BoxLock(None)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = _holder(fd)
        os.close(fd)
        raise JournalInUse(
            f"the journal {journal} is in use by another box ({holder}): stop that one first "
            "(on a Pi: sudo systemctl stop companion companion-kiosk), or give this one "
            "--journal FILE elsewhere or --no-journal"
        ) from None
    with contextlib.suppress(OSError):  # who holds it, for the next box's refusal
        os.ftruncate(fd, 0)
        started = time.strftime("%Y-%m-%d %H:%M:%S")
        os.pwrite(fd, f"pid {os.getpid()}, `companion {command}`, since {started}\n".encode(), 0)
    return BoxLock(fd)


def _holder(fd: int) -> str:
    """What the running box wrote in the lock file (its pid, command and start)."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    printable = "".join(ch for ch in text if ch.isprintable())
    return printable or "a process that has not said which"
