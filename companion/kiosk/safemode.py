"""A booth with nobody at a keyboard must not stay dead: after repeated failed starts,
start in a safe mode (attract only, a fresh journal, the old one kept aside).

Each start is written down before the kiosk does anything else; a kiosk that
has run for ``HEALTHY`` seconds clears the record. ``FAILS`` starts in a row
that never got that far mean something in the saved state brings it down.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

log = logging.getLogger("companion.kiosk")

FAILS = 3  # failed starts in a row before safe mode
HEALTHY = 120.0  # seconds of running that clear the record


class StartRecord:
    """The count of starts that did not reach ``HEALTHY``, in a small file beside the journal."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.first_safe = False

    def failed_starts(self) -> int:
        try:
            return int(json.loads(self.path.read_text(encoding="utf-8"))["starts"])
        except (OSError, ValueError, KeyError, TypeError):
            return 0

    def started(self) -> bool:
        """Count this start; True when the kiosk should start in safe mode. ``first_safe``
        then says whether it is the first such start: only that one sets the journal aside
        (the later ones would set aside the fresh journal safe mode itself began)."""
        starts = self.failed_starts()
        self._write(starts + 1)
        self.first_safe = starts == FAILS
        return starts >= FAILS

    def healthy(self) -> None:
        self._write(0)

    def _write(self, starts: int) -> None:
        try:
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps({"starts": starts}), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("cannot keep the start record %s: %s", self.path, exc.strerror)


def set_journal_aside(path: Path) -> Path | None:
    """Move a journal (with its WAL and its acknowledgement sidecar) aside for a fresh
    start; where it went, or None."""
    if not path.exists():
        return None
    aside = path.with_name(f"{path.name}.safe-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
    for suffix in ("", "-wal", "-shm", ".ack"):  # the sidecar goes too: no false "lost steps"
        part = Path(f"{path}{suffix}")
        if part.exists():
            os.replace(part, Path(f"{aside}{suffix}"))
    log.warning("safe mode: the journal is kept aside as %s", aside)
    return aside
