"""Saved games from older versions, brought up to this version's state.

Every game class has a ``FORMAT`` (1 to start with) that ``to_record`` writes
into each record. A record is read back through ``upgrade``, which runs the
game's migrations from the record's format to the class's, one version at a
time. A record that cannot be brought up to date raises ``CannotMigrate`` and
the journal sets its game aside rather than resume something wrong.

Recipe, for a change to a game's ``State`` (say Glasnost's coup attempts
becoming one count per faction):

1. Bump ``FORMAT`` on the game class (``FORMAT = 2`` in its folder's ``rules.py``).
2. Write a pure function in the folder's ``migrations.py`` that turns a format-1
   record into a format-2 one
   (a dict in, a dict out; no I/O, no randomness; change only ``record["state"]``
   and what else the new version reads), e.g.::

       def _1_to_2(record):
           state = record["state"]
           tries = state.pop("coup_attempts")
           state["coup_attempts"] = {"reform": tries, "hardline": 0}
           return record

3. Register it in that module's ``MIGRATIONS``, which the game's record names:
   ``MIGRATIONS = {1: _1_to_2}`` (the key is the version it starts from). Where an
   old record cannot be carried over honestly, raise ``CannotMigrate("why")``: its
   game is set aside, not guessed.
4. Test it with a record saved by the old version (tests/test_store.py shows how).

``tests/test_store.py`` checks that every game's ``FORMAT`` has a migration
from each earlier version.
"""

from __future__ import annotations

import copy

from companion.games import game_class, game_record
from companion.games.record import Migrations
from companion.games.record import SavedRecord as Record


def migrations(name: str) -> Migrations:
    """The migrations of game ``name`` (its record's ``migrations`` in the registry)."""
    found: Migrations = game_record(name).load("migrations")
    return found


class CannotMigrate(ValueError):
    """A saved record this version cannot read; the message says why."""


def upgrade(record: Record) -> Record:
    """``record`` brought to its game's current format (a new dict; the input is untouched).

    Records written before formats existed carry none: they are format 1.
    """
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        raise CannotMigrate("not a saved game record")
    name = record["game"]
    try:
        current = game_class(name).FORMAT
    except ValueError as exc:
        raise CannotMigrate(str(exc)) from None
    version = record.get("format", 1)
    if type(version) is not int or version < 1:
        raise CannotMigrate(f"the saved {name} game has no valid format ({version!r})")
    if version > current:
        raise CannotMigrate(
            f"the saved {name} game is from a newer version "
            f"(format {version}, this one reads {current})"
        )
    record = copy.deepcopy(record)
    steps = migrations(name)
    while version < current:
        if version not in steps:
            raise CannotMigrate(f"no way to read {name} games of format {version}")
        record = steps[version](record)
        version += 1
    record["format"] = version
    return record
