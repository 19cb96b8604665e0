"""Kolkhoz's migrations: saved records of its older formats, brought up to this version's.

``companion.migrate`` runs them one version at a time (its docstring has the
recipe); the key is the version a function starts from.
"""

from __future__ import annotations

from companion.games.record import Migrations, SavedRecord


def _1_to_2(record: SavedRecord) -> SavedRecord:
    """Format 2 counts the tricks each seat won this year (``won``).

    A format-1 year knows only which seats won at least one trick. The count is
    exact when nobody or a single seat has won so far (that seat won every trick
    completed); otherwise it is unknown until the next year begins, and the
    screens show the brigadiers instead of a tally.
    """
    state = record["state"]
    brigadiers = state["brigadiers"]
    won: list[int] | None = None
    if len(brigadiers) <= 1:
        won = [0] * record["players"]
        for seat in brigadiers:
            # a trick whose trump workers wait in "assign" is won but not yet counted as played
            won[seat] = state["tricks_played"] + (state["phase"] == "assign")
    state["won"] = won
    if state["closing"] is not None:  # the year's summary, its requisitions still running
        state["closing"]["won"] = None if won is None else list(won)
    for year in state["history"]:  # years gone by: who won tricks is kept, not how many
        year["won"] = None
    return record


MIGRATIONS: Migrations = {1: _1_to_2}
