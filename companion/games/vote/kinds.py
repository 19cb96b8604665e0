"""The vote's decisions and phases, as types the checker holds each use to.

Plain strings at run time (``Literal`` types), as every game's kinds are.
"""

from __future__ import annotations

from typing import Literal

#: what a decision asks (``Decision.kind``)
VoteKind = Literal["who", "pick_voter", "vote", "next"]

#: where the round is (the state's ``phase``); "over" once the table has ended the game
VotePhase = Literal["who", "pick", "vote", "next", "over"]
