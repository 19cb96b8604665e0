"""Bots that play any game through the contract: a random legal bot, and each game's smart one.

A bot sees only its own seat's view and the decision, as a player would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from companion.games import GAMES, Choice, Decision, Game, Result
from companion.games.frozen import FrozenDict

KINDS = ("smart", "random")
#: what a bot that reads no view is handed instead of one (views cost a fair share of a move)
NO_VIEW: dict[str, Any] = FrozenDict()


class Bot(Protocol):
    def choose(self, view: dict[str, Any], decision: Decision) -> Choice: ...


class RandomBot:
    """Any legal choice, uniformly: the baseline, and a fuzzer for the rules."""

    #: it never reads its view, so ``next_move`` does not have one built for it
    reads_view = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any], decision: Decision) -> Choice:
        return self.rng.choice(decision.options)


def make_bots(game: Game, kind: str, rng: random.Random) -> list[Bot]:
    """One bot a seat. ``smart`` is the game's own strategic bot: ``make_bots(game, rng)``
    in ``companion/games/<game>/bots.py``, named by the game's record in ``GAMES``."""
    if kind == "random":
        return [RandomBot(rng) for _ in range(game.players)]
    if kind != "smart":
        raise ValueError(f"no bot kind {kind!r} (kinds: {', '.join(KINDS)})")
    smart: Callable[[Game, random.Random], list[Bot]] = GAMES[game.name].load("bots")
    return smart(game, rng)


def next_move(game: Game, bots: list[Bot]) -> tuple[int, Choice] | None:
    """The seat asked first and what its bot answers, or None when the game is over."""
    d = game.decision
    if d is None:
        return None
    seat = d.seats[0]
    bot = bots[seat]
    return seat, bot.choose(game.view(seat) if getattr(bot, "reads_view", True) else NO_VIEW, d)


def play_out(game: Game, bots: list[Bot]) -> Result:
    """Let the bots play to the end."""
    while (move := next_move(game, bots)) is not None:
        game.act(*move)
    result = game.result
    assert result is not None
    return result
