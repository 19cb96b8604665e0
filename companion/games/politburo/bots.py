"""Politburo's member bots: each plays toward its own victory condition.

A bot reads only its own seat's view: its member card, the public tracks and
the public record of plans, executions and purges. The one piece of table
talk modelled is the open show of thumbs (P3): with the option vote "count"
the secretary enters the number of thumbs up, and its bot counts what each
other member's bot shows, each deciding from its own view.

- Plans: a member proposes, and votes for, the ministry where it can gain the
  most (how much its condition's margin differs between repress and reform).
- Executions: it plays the card that helps its condition; a member that does
  not care (Molotov, Zhdanov, or a ministry it has no stake in) follows the
  majority of the round's last execution, except Zhdanov, who breaks it to
  bring on a purge.
- Appointments: the secretary keeps, for each member, a lean per ministry
  from what it has seen: the counts of shuffled executions shared among
  their executors (less the bot's own remembered card), and the attributed
  cards revealed at purges. It appoints those whose lean suits it, and after
  a failed execution replaces the likeliest deviant, since bots that keep
  their minds would only repeat the same count.
- Purges: a member points at the other executor whose lean is closer to the
  minority card; Zhdanov, while too little influence is lost, points away
  from it (it can only add to the losses).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.games import Choice, Decision, Game
from companion.games.politburo.rules import (
    CONDITIONS,
    DONE,
    LEFT,
    MINISTRIES,
    NO,
    REFORM,
    REPRESS,
    RIGHT,
    YES,
)

SIGN = {REPRESS: 1, REFORM: -1}


def margin(member: str, ministries: dict[str, int]) -> float:
    """How comfortably ``member``'s ministry condition holds (negative: it fails)."""
    kind, target = CONDITIONS[member]
    if target is not None:
        others = [ministries[m] for m in MINISTRIES if m != target]
        if kind == "most repressing":
            return float(min(ministries[target] - o for o in others))
        return float(min(o - ministries[target] for o in others))
    total = sum(ministries.values())
    if kind == "repressions":
        return float(total)
    if kind == "reforms":
        return float(-total)
    return 0.0  # Molotov and Zhdanov look at influence, not ministries


def stake(member: str, ministries: dict[str, int], ministry: str) -> int:
    """+1 if ``member`` wants ``ministry`` repressed, -1 reformed, 0 if it does not care."""
    up = dict(ministries, **{ministry: ministries[ministry] + 1})
    down = dict(ministries, **{ministry: ministries[ministry] - 1})
    diff = margin(member, up) - margin(member, down)
    return (diff > 0) - (diff < 0)


def interest(member: str, ministries: dict[str, int], ministry: str) -> float:
    up = dict(ministries, **{ministry: ministries[ministry] + 1})
    down = dict(ministries, **{ministry: ministries[ministry] - 1})
    return abs(margin(member, up) - margin(member, down))


def rounds_seen(view: dict[str, Any]) -> list[dict[str, Any]]:
    rounds = list(view["history"])
    if view["current"]:
        rounds.append(view["current"])
    return rounds


class MemberBot:
    def __init__(
        self, seat: int, rng: random.Random, thumbs: Callable[[], int] | None = None
    ) -> None:
        self.seat = seat
        self.rng = rng
        #: the thumbs up the table shows (vote "count"): the other members' own answers
        self.thumbs = thumbs
        #: (round, execution) -> the card this bot played: it remembers its own hand.
        self.mine: dict[tuple[int, int], str] = {}

    # -- what the bot has seen ---------------------------------------------------
    def leans(self, view: dict[str, Any]) -> dict[tuple[int, str], float]:
        """(seat, ministry) -> how much that seat has repressed it (+) or reformed it (-)."""
        lean: dict[tuple[int, str], float] = {}
        for record in rounds_seen(view):
            plan = record["plan"]
            if plan is None:
                continue
            for ex in record["executions"]:
                executors = ex["executors"]
                net = ex["repress"] - ex["reform"]
                if ex.get("cards"):
                    shares = {
                        e: float(SIGN[c]) for e, c in zip(executors, ex["cards"], strict=True)
                    }
                else:
                    own = self.mine.get((record["round"], ex["number"]))
                    others = [e for e in executors if e != self.seat]
                    rest = net - (SIGN[own] if own is not None and self.seat in executors else 0)
                    shares = {e: rest / len(others) for e in others}
                for e, share in shares.items():
                    lean[(e, plan)] = lean.get((e, plan), 0.0) + share
            purge = record["purge"]
            if purge:
                for e, c in zip(purge["executors"], purge["cards"], strict=True):
                    lean[(e, plan)] = lean.get((e, plan), 0.0) + 2.0 * SIGN[c]
        return lean

    def want(self, view: dict[str, Any], ministry: str, leans: dict[tuple[int, str], float]) -> int:
        """The direction this bot pushes ``ministry``; for Molotov, toward unanimity."""
        member = view["member"]
        d = stake(member, view["ministries"], ministry)
        if d == 0 and member == "Molotov":
            total = sum(v for (_, m), v in leans.items() if m == ministry)
            d = -1 if total < 0 else 1
        return d

    # -- choices -------------------------------------------------------------------
    def choose(self, view: dict[str, Any], decision: Decision) -> Choice:
        kind = decision.kind
        options = decision.options
        member = view["member"]
        ministries = view["ministries"]
        if kind == "propose":
            return max(
                options, key=lambda m: (interest(member, ministries, str(m)), self.rng.random())
            )
        if kind == "plan_count":
            assert self.thumbs is not None, "make_bots gives the secretary the table's thumbs"
            return str(self.thumbs())
        if kind in ("plan_vote", "casting"):
            proposal = view["proposal"]
            others = [m for m in MINISTRIES if m not in view["rejected"] and m != proposal]
            mine = interest(member, ministries, proposal)
            return YES if all(mine >= interest(member, ministries, m) for m in others) else NO
        if kind in ("appoint", "replace_by"):
            return self._best(view, list(options), view["plan"])
        if kind == "replace":
            return self._replace(view, decision)
        if kind == "execute":
            card = self._card(view)
            self.mine[(view["round"], view["execution"])] = card
            return card
        if kind == "point":
            return self._point(view)
        return options[0]

    def _scores(self, view: dict[str, Any], seats: list[Choice], ministry: str) -> dict:
        """How well each seat's past behaviour suits this bot's aim for ``ministry``."""
        leans = self.leans(view)
        d = self.want(view, ministry, leans)
        overall: dict[int, float] = {}
        for (seat, _), v in leans.items():
            overall[seat] = overall.get(seat, 0.0) + v
        return {
            s: (
                d * (leans.get((int(s), ministry), 0.0) + 0.1 * overall.get(int(s), 0.0)),
                self.rng.random(),
            )
            for s in seats
        }

    def _best(self, view: dict[str, Any], seats: list[Choice], ministry: str) -> Choice:
        if view["member"] == "Zhdanov":
            return self.rng.choice(seats)  # a mixed team breeds purges
        scores = self._scores(view, seats, ministry)
        return max(seats, key=scores.__getitem__)

    def _replace(self, view: dict[str, Any], decision: Decision) -> Choice:
        places = [o for o in decision.options if o != DONE]
        if view["member"] == "Zhdanov" or len(places) < 3:
            return DONE  # one replacement a step is enough to change the count
        scores = self._scores(view, places, view["plan"])
        return min(places, key=scores.__getitem__)

    def _card(self, view: dict[str, Any]) -> str:
        plan = view["plan"]
        member = view["member"]
        d = stake(member, view["ministries"], plan)
        last = view["last_execution"]
        majority = None
        if last is not None:
            majority = REPRESS if last["repress"] > last["reform"] else REFORM
        if member == "Zhdanov" and 2 * view["lost"] < view["players"] and majority:
            return REFORM if majority == REPRESS else REPRESS
        if d > 0:
            return REPRESS
        if d < 0:
            return REFORM
        return majority or self.rng.choice((REPRESS, REFORM))

    def _point(self, view: dict[str, Any]) -> str:
        targets = view["point_at"]
        last = view["last_execution"]
        majority = REPRESS if last["repress"] > last["reform"] else REFORM
        if view["my_card"]["card"] != majority:
            return self.rng.choice((LEFT, RIGHT))  # the deviant's pointing changes nothing
        plan = view["plan"]
        leans = self.leans(view)
        toward_minority = -SIGN[majority]

        def suspicion(side: str) -> tuple[float, float]:
            return (toward_minority * leans.get((targets[side], plan), 0.0), self.rng.random())

        likely = max((LEFT, RIGHT), key=suspicion)
        if view["member"] == "Zhdanov" and 2 * view["lost"] < view["players"]:
            return RIGHT if likely == LEFT else LEFT
        return likely


def make_bots(game: Game, rng: random.Random) -> list[MemberBot]:
    bots: list[MemberBot] = []

    def thumbs() -> int:
        """P3, open vote: each member but the secretary shows a thumb from its own view."""
        secretary = game.public_view()["secretary"]
        shown = 0
        for seat, bot in enumerate(bots):
            if seat != secretary:
                ask = Decision("plan_vote", (seat,), (YES, NO))
                shown += bot.choose(game.view(seat), ask) == YES
        return shown

    bots.extend(MemberBot(seat, rng, thumbs) for seat in range(game.players))
    return bots
