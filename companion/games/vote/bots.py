"""The vote's bots: random voters (a ballot box has no strategy to play).

Every choice is uniform among the legal ones, but the chair's "another round?",
which it answers yes nine times in ten: a bots' game votes some ten rounds, as
a table does, rather than one in two ending after its first.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import Choice, Decision, Game
from companion.games.vote.rules import AGAIN, END


class Voter:
    reads_view = False  # ``next_move`` need not build a view for it

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any], decision: Decision) -> Choice:
        if decision.kind == "next" and AGAIN in decision.options:
            return AGAIN if self.rng.random() < 0.9 else END
        return self.rng.choice(decision.options)


def make_bots(game: Game, rng: random.Random) -> list[Voter]:
    return [Voter(rng) for _ in range(game.players)]
