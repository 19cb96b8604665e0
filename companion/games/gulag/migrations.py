"""Gulag's migrations: saved records of its older formats, brought up to this version's.

``companion.migrate`` runs them one version at a time (its docstring has the
recipe); the key is the version a function starts from.
"""

from __future__ import annotations

from companion.games.record import Migrations

MIGRATIONS: Migrations = {}  # format 1: nothing older to read
