"""The vote's migrations: saved records of its older formats (``companion.migrate``)."""

from __future__ import annotations

from companion.games.record import Migrations

MIGRATIONS: Migrations = {}  # format 1: nothing older to read
