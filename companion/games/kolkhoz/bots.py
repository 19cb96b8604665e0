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

At a real table (``deal="cards"``) the box never sees a hand, so bots cannot
play from the game's views alone. There the bots play a hidden twin game
dealt by the box (``deal="box"``) with the same seed, which stands for the
real cards on the table, and each seat's ``Scribe`` enters on the clerk game
what happened in the twin: the trump, each trick card by card, the
brigadier's assignments, the revealed plot cards and at the end the hidden
plot cards. The job cards are the box's at a real table too (it draws them),
so the twin takes the box's job piles as they stand at the start (from the
game's record, the contract's way out for a whole state) and deals the
workers from a copy of the generator it is given: any generator, so the bots
play a clerk game from whatever seed they are given (the simulator gives the
game's own, which deals the twin exactly as the box would deal that seed; the
bench gives another). The two games must end with the same scores (the tests
check it); a twin asked about another game (its jobs differ) says so at once.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import Choice, Decision, Game
from companion.games.kolkhoz.cards import (
    SUITS,
    THRESHOLD,
    hours_of,
    rank_of,
    suit_of,
    trick_strength,
    value_of,
)
from companion.games.kolkhoz.rules import Kolkhoz


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
        # a card takes the trick when it is stronger than the strongest played (ties go first)
        best = max(trick_strength(c, lead, trump) for c in played)
        winning = [c for c in candidates if trick_strength(c, lead, trump) > best]
        if winning and any(self._completes(view, [*played, c]) for c in winning):
            return min(winning, key=value_of)
        losing = [c for c in candidates if c not in winning]
        return min(losing or candidates, key=value_of)

    @staticmethod
    def _completes(view: dict[str, Any], cards: list[str]) -> bool:
        """Whether these workers could finish an open job (trump hours count for any job)."""
        trump = view["trump"]
        hours = dict.fromkeys(SUITS, 0)  # the cards' hours by suit, in one pass
        for c in cards:
            hours[suit_of(c)] += hours_of(c, trump)
        spare = hours[trump] if trump is not None else 0
        for suit, job in view["jobs"].items():
            if job["done"]:
                continue
            own = hours[suit] if suit != trump else 0
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


class Twin:
    """The real cards of a clerk game: a dealt game played by greedy bots, entered as it goes."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        clone = random.Random()
        clone.setstate(rng.getstate())
        dealt = Kolkhoz(game.players, clone, deal="box").to_record()
        box = game.to_record()["state"]
        dealt["state"] |= {"piles": box["piles"], "jobs": box["jobs"]}  # the box's job cards
        self.game = Kolkhoz.from_record(dealt)
        self.bots = [GreedyBot(seat, rng) for seat in range(game.players)]
        self.plays: list[dict[str, Any]] = []  # the twin's cards not yet entered
        self.entered: dict[int, list[str]] = {}  # plot cards entered so far, by seat

    def _move(self) -> tuple[int, Choice]:
        d = self.game.decision
        assert d is not None
        seat = d.seats[0]
        choice = self.bots[seat].choose(self.game.view(seat), d)
        self.game.act(seat, choice)
        return seat, choice

    def answer(self, view: dict[str, Any], decision: Decision) -> Choice:
        twin = self.game
        kind = decision.kind
        if kind == "trump":
            if twin.public_view()["jobs"] != view["jobs"]:
                raise RuntimeError("the twin is another game's: the jobs differ")
            return self._move()[1]
        if kind == "assign":
            assert twin.decision is not None and twin.decision.kind == "assign"
            return self._move()[1]
        if kind in ("suit", "card") and view["phase"] == "play":
            if not self.plays:
                while len(self.plays) < view["players"]:
                    seat, card = self._move()
                    self.plays.append({"seat": seat, "card": card})
            play = self.plays[0]
            assert play["seat"] == view["turn"], "the twin and the box disagree on whose card"
            if kind == "suit":
                return suit_of(play["card"])
            return self.plays.pop(0)["card"]
        seat = decision.seats[0]
        if kind == "reveal":
            job = view["requisition"]["job"]
            year = twin.public_view()["history"][view["year"] - 1]
            shown = next(r for r in year["requisitions"] if r["job"] == job)["revealed"]
            cards: list[Any] = next((r["cards"] for r in shown if r["seat"] == seat), [])
            done = {
                c for r in view["requisition"]["revealed"] if r["seat"] == seat for c in r["cards"]
            }
            left = [c for c in cards if c not in done]
            return left[0] if left else "none"
        # the hidden plot cards at the end, one by one
        entered = self.entered.setdefault(seat, [])
        card = next(c for c in twin.view(seat)["plot"]["hidden"] if c not in entered)
        if kind == "suit":
            return suit_of(card)
        entered.append(card)
        return card


class Scribe:
    """One seat at a real table: enters what its twin's player did."""

    def __init__(self, seat: int, twin: Twin) -> None:
        self.seat = seat
        self.twin = twin

    def choose(self, view: dict[str, Any], decision: Decision) -> Choice:
        return self.twin.answer(view, decision)


def make_bots(game: Game, rng: random.Random) -> list[GreedyBot] | list[Scribe]:
    if game.options.get("deal") == "cards":
        twin = Twin(game, rng)
        return [Scribe(seat, twin) for seat in range(game.players)]
    return [GreedyBot(seat, rng) for seat in range(game.players)]
