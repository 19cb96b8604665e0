"""Kolkhoz's greedy bot: trump where it is long, win the tricks that finish jobs, keep a high card.

It reads only its own seat's view (hand, own plot, the table) and models no
table talk. As planner it declares trump in the suit it holds most of. It
saves its highest card for the plot (the last card of a hand goes there),
preferring one whose job is already done and so safe from requisition; it
leads low, wins a trick only when the trick can complete a job (the reward
goes to the brigadier, and being brigadier is what exposes a plot to
requisition), and otherwise plays low. Against three copies of its earlier
self that led high, leading low raised its win rate from about 29% to 33%.
As brigadier it sends trump workers to the job they complete or to the job
closest to completion, parks the trump Queen and King on a completed job
where they can do no harm, and puts the trump Jack on a failing job of the
suit it has most at stake in, so that the Jack goes north instead of its own
card.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import Choice, Decision, Game
from companion.games.kolkhoz import (
    SUITS,
    THRESHOLD,
    hours_of,
    rank_of,
    suit_of,
    trick_winner,
    value_of,
)


class GreedyBot:
    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, view: dict[str, Any], decision: Decision) -> Choice:
        if decision.kind == "trump":
            return self._trump(view, decision)
        if decision.kind == "play":
            return self._play(view, decision)
        if decision.kind == "assign":
            return self._assign(view, decision)
        return self.rng.choice(decision.options)

    # -- the planner ---------------------------------------------------------------
    def _trump(self, view: dict[str, Any], decision: Decision) -> Choice:
        hand = view["hand"]

        def length(suit: Choice) -> tuple[int, int, float]:
            cards = [c for c in hand if suit_of(c) == suit]
            return (len(cards), sum(value_of(c) for c in cards), self.rng.random())

        return max(decision.options, key=length)

    # -- trick play ----------------------------------------------------------------
    def _play(self, view: dict[str, Any], decision: Decision) -> Choice:
        options = [str(o) for o in decision.options]
        if len(options) == 1:
            return options[0]
        jobs = view["jobs"]

        def worth(card: str) -> int:
            # A card whose job is already done cannot be requisitioned this year.
            return value_of(card) + (4 if jobs[suit_of(card)]["done"] else 0)

        keeper = max(view["hand"], key=worth)  # the card meant for the plot
        candidates = [c for c in options if c != keeper] or options
        trump = view["trump"]
        played = [p["card"] for p in view["trick"]]
        if not played:
            # Lead low: leave the brigadier's risk to others unless a job can be finished.
            return min(candidates, key=value_of)
        lead = suit_of(played[0])
        winning = [c for c in candidates if trick_winner([*played, c], lead, trump) == len(played)]
        if winning and any(self._completes(view, [*played, c]) for c in winning):
            return min(winning, key=value_of)
        losing = [c for c in candidates if c not in winning]
        return min(losing or candidates, key=value_of)

    @staticmethod
    def _completes(view: dict[str, Any], cards: list[str]) -> bool:
        """Whether these workers could finish an open job (trump hours count for any job)."""
        trump = view["trump"]
        spare = sum(hours_of(c, trump) for c in cards if suit_of(c) == trump)
        for suit, job in view["jobs"].items():
            if job["done"]:
                continue
            own = sum(hours_of(c, trump) for c in cards if suit_of(c) == suit and suit != trump)
            if job["hours"] + own + spare >= THRESHOLD:
                return True
        return False

    # -- the brigadier ---------------------------------------------------------------
    def _assign(self, view: dict[str, Any], decision: Decision) -> Choice:
        card = view["to_assign"][0]
        jobs = view["jobs"]
        trump = view["trump"]
        open_jobs = [s for s in SUITS if not jobs[s]["done"]]
        done_jobs = [s for s in SUITS if jobs[s]["done"]]
        if not open_jobs:
            return self.rng.choice(decision.options)
        rank = rank_of(card)
        if rank == "J":
            plot = view["plot"]["hidden"] + view["plot"]["shown"]

            def at_stake(suit: str) -> tuple[int, int]:
                mine = sum(value_of(c) for c in plot if suit_of(c) == suit)
                return (mine, -jobs[suit]["hours"])

            return max(open_jobs, key=at_stake)
        hours = hours_of(card, trump)
        finishing = [s for s in open_jobs if jobs[s]["hours"] + hours >= THRESHOLD]
        if finishing:
            return max(finishing, key=lambda s: jobs[s]["points"])
        if rank in ("Q", "K") and done_jobs:
            return done_jobs[0]
        return max(open_jobs, key=lambda s: (jobs[s]["hours"], jobs[s]["points"]))


def make_bots(game: Game, rng: random.Random) -> list[GreedyBot]:
    return [GreedyBot(seat, rng) for seat in range(game.players)]
