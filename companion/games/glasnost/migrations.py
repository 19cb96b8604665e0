"""Glasnost's migrations: saved records of its older formats, brought up to this version's.

``companion.migrate`` runs them one version at a time (its docstring has the
recipe); the key is the version a function starts from.
"""

from __future__ import annotations

from companion.games.record import Migrations, SavedRecord


def _1_to_2(record: SavedRecord) -> SavedRecord:
    """Format 2 asks both leaders one coup question, and has a countdown option.

    A format-1 question offered one leader (``leader``) with the other still to ask
    (``leaders``); it becomes the one question offering both, as format 2 asks it (its
    ballot is never saved half cast, so it is simply asked again). The countdown takes
    its default.
    """
    from companion.games.glasnost.rules import coup_options

    record["options"] = {**record["options"], "countdown": "8"}
    state = record["state"]
    if state["phase"] == "coup_offer" and state["leader"] is not None:
        state["leaders"] = [state["leader"], *state["leaders"]]
        state["leader"] = None
        if record.get("ballot") is not None:
            record["ballot"]["options"] = list(coup_options(state["leaders"]))
    return record


MIGRATIONS: Migrations = {1: _1_to_2}
