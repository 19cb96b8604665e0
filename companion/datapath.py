"""Where the box keeps its journal, named apart from the journal's module: a start finds the
path (and takes the journal's lock, ``companion.boxlock``) before it loads SQLite."""

from __future__ import annotations

import os
from pathlib import Path


def default_path() -> Path:
    """``$COMPANION_DATA`` (the service sets a writable state directory) or the user's data dir."""
    base = os.environ.get("COMPANION_DATA") or Path.home() / ".local" / "share" / "companion"
    return Path(base) / "journal.sqlite"
