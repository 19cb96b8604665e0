"""Gulag's faction-aware bot.

Nobody sees their own card (G2), but the player on your left knows it and the
rules let cards be discussed: the bot learns its side from its left
neighbour's view, as a truthful left neighbour would tell it. It also knows
its right neighbour's card, and suspects workers by the strikes of the teams
they were in. Loyal workers play Work, disloyal ones Strike; a supervisor
forces the worker most likely to play against its side.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import Choice, Decision, Game
from companion.games.gulag.rules import BLACK, PASS, RED, STRIKE, WORK


def suspicion(view: dict[str, Any]) -> dict[int, float]:
    """How black each seat looks: the share of strikes in the tasks it worked."""
    strikes: dict[int, float] = {}
    tasks: dict[int, int] = {}
    for h in view["history"]:
        for w in h["workers"]:
            share = (2 - h["work"]) / 2
            if h["ordered"] is not None:
                share = 0.5  # a forced swap muddies the count
            strikes[w] = strikes.get(w, 0.0) + share
            tasks[w] = tasks.get(w, 0) + 1
    return {w: strikes[w] / tasks[w] for w in tasks}


class FactionBot:
    def __init__(self, seat: int, side: str | None, rng: random.Random) -> None:
        self.seat = seat
        self.side = side
        self.rng = rng
        self._suspected: tuple[Any, dict[int, float]] = (None, {})  # (history, suspicion)

    def _suspicion(self, view: dict[str, Any]) -> dict[int, float]:
        """``suspicion`` of the view, worked out again only when the history has grown: a
        history is frozen, so the same list object means the same teams and strikes."""
        history = view["history"]
        if self._suspected[0] is not history:
            self._suspected = (history, suspicion(view))
        return self._suspected[1]

    def _blackness(self, view: dict[str, Any], seat: int, suspected: dict[int, float]) -> float:
        if seat == self.seat and self.side is not None:
            return 1.0 if self.side == BLACK else 0.0
        if seat == view["right"] and view["right_card"] is not None:
            return 1.0 if view["right_card"] == BLACK else 0.0
        return suspected.get(seat, 0.5)

    def choose(self, view: dict[str, Any], decision: Decision) -> Choice:
        if self.side is None:
            return self.rng.choice(decision.options)
        kind = decision.kind
        if kind in ("pick_worker", "pick_supervisor", "supervise"):
            suspected = self._suspicion(view)
        if kind == "task":
            return WORK if self.side == RED else STRIKE
        if kind in ("pick_worker", "pick_supervisor"):
            # Loyal commissars pick the least suspicious; disloyal ones the most.
            sign = -1.0 if self.side == RED else 1.0
            return max(
                decision.options,
                key=lambda s: (sign * self._blackness(view, int(s), suspected), self.rng.random()),
            )
        if kind == "supervise":
            workers = [o for o in decision.options if o != PASS]
            enemy = BLACK if self.side == RED else RED
            score = {
                w: self._blackness(view, int(w), suspected)
                if enemy == BLACK
                else 1 - self._blackness(view, int(w), suspected)
                for w in workers
            }
            target = max(workers, key=lambda w: (score[w], self.rng.random()))
            return target if score[target] > 0.5 else PASS
        if kind == "reveal_role":
            return self.side if self.side in decision.options else decision.options[0]
        return decision.options[0]


def make_bots(game: Game, rng: random.Random) -> list[FactionBot]:
    n = game.players
    return [FactionBot(seat, game.view((seat + 1) % n)["right_card"], rng) for seat in range(n)]
