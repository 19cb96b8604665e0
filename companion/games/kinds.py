"""The names of every decision and phase, as types the checker holds each use to.

They stay plain strings at run time (``Literal`` types, not enums), so saved
records, journal rows, views and the web's messages carry the same text as
before; mypy (``strict_equality``) refuses an assignment or a comparison with
a name that is not among them, so a misspelt ``phase == "plan_vot"`` fails the
type check rather than a table.
"""

from __future__ import annotations

from typing import Literal

#: what a decision asks, game by game (``Decision.kind``)
GulagKind = Literal["peek", "pick_worker", "pick_supervisor", "task", "supervise", "reveal_role"]
PolitburoKind = Literal[
    "peek",
    "propose",
    "plan_vote",
    "plan_count",
    "casting",
    "appoint",
    "execute",
    "replace",
    "replace_by",
    "point",
]
GlasnostKind = Literal[
    "peek", "sit", "crisis_vote", "purge", "coup_offer", "coup_vote", "coup_name"
]
KolkhozKind = Literal["trump", "play", "suit", "card", "assign", "reveal"]
Kind = Literal[GulagKind, PolitburoKind, GlasnostKind, KolkhozKind]

#: where a game is (its state's ``phase``); "over" once it has ended
GulagPhase = Literal["peek", "pick", "task", "supervise", "reveal_roles", "over"]
PolitburoPhase = Literal[
    "peek",
    "propose",
    "plan_vote",
    "casting",
    "appoint",
    "execute",
    "replace",
    "replace_by",
    "purge",
    "over",
]
GlasnostPhase = Literal[
    "peek", "sit", "vote", "purge", "coup_offer", "coup_vote", "coup_name", "over"
]
KolkhozPhase = Literal["trump", "play", "plot", "assign", "reveal", "over"]
