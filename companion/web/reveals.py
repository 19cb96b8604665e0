"""The TV's reveals as events, and their history kept across a power cut.

Each reveal the box shows (a vote's cards, an inspection, the crises laid out) is one
event with a number, so the TV can turn its cards over once, however often the state
is sent again. After a restart the history comes back from the journal's reveals when
the table hands them over (``WebRoom.begin(..., earlier=...)``); the events are also kept
in a small file beside the phone tokens (public text only: the same screens the whole
table saw), written whole by a rename, for a table that has no such journal.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger("companion.web")

KEPT = 200  # events kept: far more than any game shows


class Reveals:
    """The current game's reveal events, oldest first: ``{"id": n, "screens": [[line]]}``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.key: str | None = None
        self.events: list[dict[str, Any]] = []

    def begin(
        self, key: str | None, resumed: bool, earlier: list[list[list[str]]] | None = None
    ) -> None:
        """A new game starts empty; a resumed one gets back its reveals: what this file kept
        (the game's sentences) when it holds them all, else ``earlier`` (each step's
        screens as lines, from the journal)."""
        self.key = key
        self.events = []
        told = [
            {"id": n, "screens": screens} for n, screens in enumerate(earlier or (), 1) if screens
        ][-KEPT:]
        saved = self._load() if resumed and key is not None else {}
        kept = saved.get("events") if saved.get("key") == key else None
        if isinstance(kept, list) and len(kept) >= len(told):
            self.events = kept[-KEPT:]  # as the TV said them: in the game's sentences
        elif resumed:
            self.events = told  # the file lost or behind: the box's lines, from the journal
        self._save()

    def add(self, screens: list[list[str]]) -> dict[str, Any]:
        event = {"id": (self.events[-1]["id"] + 1) if self.events else 1, "screens": screens}
        self.events = [*self.events, event][-KEPT:]
        self._save()
        return event

    def reword(self, number: int, screens: list[list[str]]) -> dict[str, Any] | None:
        """Event ``number`` said again in other words (the game's sentences for the box's
        lines); the event as it now reads, or None when it is gone."""
        for i, event in enumerate(self.events):
            if event["id"] == number:
                self.events[i] = {"id": number, "screens": screens}
                self._save()
                return self.events[i]
        return None

    def screens(self) -> list[list[str]]:
        """Every screen shown so far, oldest first."""
        return [screen for event in self.events for screen in event["screens"]]

    def _load(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            if not isinstance(exc, FileNotFoundError):
                log.warning("the TV's history %s is unreadable (%s): started anew", self.path, exc)
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self) -> None:
        """Written whole (a temporary file renamed over the old one); a full or read-only
        disk costs the TV its history after a restart, never the game."""
        if self.path is None or self.key is None:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"key": self.key, "events": self.events}, ensure_ascii=False)
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("the TV's history cannot be written (%s)", exc)
            with contextlib.suppress(OSError):
                tmp.unlink()
