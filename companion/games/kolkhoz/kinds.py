"""Kolkhoz's decisions and phases, as types the checker holds each use to.

Plain strings at run time (``Literal`` types), so saved records, journal rows,
views and the web's messages carry the same text; mypy (``strict_equality``)
refuses a comparison with a name that is not among them.
"""

from __future__ import annotations

from typing import Literal

#: what a decision asks (``Decision.kind``)
KolkhozKind = Literal["trump", "play", "suit", "card", "assign", "reveal"]

#: where the game is (its state's ``phase``); "over" once it has ended
KolkhozPhase = Literal["trump", "play", "plot", "assign", "reveal", "over"]
