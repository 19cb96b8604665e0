"""Politburo (5-10 players): plan, execute, purge, with one hidden victory condition each.

Rulings applied (docs/rules/politburo.md): P1 one random member card each, influence
from 3 with a floor at 0, ministries from 0 unbounded; P2 rounds = players,
the general secretary rotating to the left (seat + 1); P3 the open plan vote
with the secretary's casting vote and the third ministry approved after two
rejections; P4 three executors, never the secretary; P5 executions 1 and 2
secret and shuffled, only counts revealed, the secretary then replacing none,
one or several executors; P6 execution 3 dealt by seat and attributable,
hidden until the purge; P7 the purge by simultaneous pointing; P8 the
meaning of "most repressing/reforming", Zhdanov's total *lost* influence and
N/2 unrounded; P9 the end.

Decisions where the rules are silent:

- The first general secretary is drawn with the game's rng after the deal.
- The plan vote is open and simultaneous: one decision for every member but
  the secretary; the thumbs are shown together once all have voted. The
  option ``vote`` says how the box learns the thumbs: "count" (the default)
  asks the secretary only for the number of thumbs up (the table saw them;
  the box then records counts, not seats), "each" asks every member in turn
  (a hand-over a member: the record of who voted what, at a cost in presses).
- Replacing executors is a sequence of small decisions ("replace which
  executor, or done", then "by whom"). Each of the three places may be
  refilled once per replacement step, so the step always ends; a refill may
  be any member but the secretary and the current executors (a member just
  replaced may come back for another place).
- A unanimous third execution moves the ministry by 2 and there is no purge;
  its cards show one choice only, so they are shown.
- The purge: each executor points "left" or "right", at the nearer of the two
  other executors going clockwise ("left", seat + 1 onwards) or the other one.
  It fits the handsets' two buttons, and one question for all three keeps
  the pointing simultaneous. After the purge, the pointing and the third
  execution's cards are public and attributable (the rule reveals them).
- Lost influence counts only influence actually lost: a penalty on a member
  already at 0 takes nothing, so the total is 3 x players - influence left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.ballot import Ballot
from companion.games.base import Choice, Decision, Game, IllegalMove, Option, Result
from companion.games.frozen import FrozenDict, FrozenList, freeze
from companion.games.politburo.kinds import PolitburoPhase

DEFENCE, FINANCE, SECURITY = "defence", "finance", "security"
MINISTRIES = (DEFENCE, FINANCE, SECURITY)
REPRESS, REFORM = "repress", "reform"
YES, NO = "yes", "no"
LEFT, RIGHT = "left", "right"
DONE = "done"
START_INFLUENCE = 3
#: the lists of a round that are only appended to, with records that never change
LOGGED = ("proposals", "executions")

#: member -> (kind, ministry): the victory condition on each member card.
CONDITIONS: dict[str, tuple[str, str | None]] = {
    "Beria": ("most repressing", SECURITY),
    "Bulganin": ("repressions", None),
    "Kaganovich": ("most repressing", FINANCE),
    "Khrushchev": ("reforms", None),
    "Kirov": ("most reforming", SECURITY),
    "Kuybyshev": ("most reforming", FINANCE),
    "Malenkov": ("most reforming", DEFENCE),
    "Molotov": ("little lost", None),
    "Voroshilov": ("most repressing", DEFENCE),
    "Zhdanov": ("much lost", None),
}
MEMBERS = tuple(CONDITIONS)

CONDITION_TEXT = {
    "Beria": "Security is the most repressing ministry (neither Defence nor Finance higher)",
    "Bulganin": "Repressions exceed or equal reforms (the total ministry level is 0 or more)",
    "Kaganovich": "Finance is the most repressing ministry (neither Defence nor Security higher)",
    "Khrushchev": "Reforms exceed or equal repressions (the total ministry level is 0 or less)",
    "Kirov": "Security is the most reforming ministry (neither Defence nor Finance lower)",
    "Kuybyshev": "Finance is the most reforming ministry (neither Defence nor Security lower)",
    "Malenkov": "Defence is the most reforming ministry (neither Finance nor Security lower)",
    "Molotov": "The total lost influence is at most half the player count",
    "Voroshilov": "Defence is the most repressing ministry (neither Finance nor Security higher)",
    "Zhdanov": "The total lost influence is at least half the player count",
}


def fulfilled(member: str, ministries: dict[str, int], lost: int, players: int) -> bool:
    """Whether ``member``'s victory condition holds (P8: ties count, N/2 unrounded)."""
    kind, target = CONDITIONS[member]
    if kind == "most repressing":
        assert target is not None
        return all(ministries[target] >= ministries[m] for m in MINISTRIES)
    if kind == "most reforming":
        assert target is not None
        return all(ministries[target] <= ministries[m] for m in MINISTRIES)
    total = sum(ministries[m] for m in MINISTRIES)
    if kind == "repressions":
        return total >= 0
    if kind == "reforms":
        return total <= 0
    if kind == "little lost":
        return 2 * lost <= players  # lost <= N/2 without rounding
    return 2 * lost >= players  # Zhdanov: lost >= N/2


def winners_of(
    members: list[str], influence: list[int], ministries: dict[str, int], lost: int
) -> frozenset[int]:
    """P9: the fulfilled conditions; among several, the highest influence; none: no winner."""
    players = len(members)
    done = [seat for seat, m in enumerate(members) if fulfilled(m, ministries, lost, players)]
    if not done:
        return frozenset()
    best = max(influence[seat] for seat in done)
    return frozenset(seat for seat in done if influence[seat] == best)


def card_order(executors: list[int], secretary: int, players: int) -> list[int]:
    """P6: the executors in the order the numbered cards are dealt, from the secretary's left."""
    return sorted(executors, key=lambda seat: (seat - secretary) % players)


def pointing_targets(seat: int, executors: list[int], players: int) -> dict[str, int]:
    """Whom ``seat`` points at with "left" (the nearer other executor clockwise) or "right"."""
    others = sorted((e for e in executors if e != seat), key=lambda e: (e - seat) % players)
    return {LEFT: others[0], RIGHT: others[1]}


def purge_losers(cards: dict[int, str], pointed: dict[int, int]) -> list[int]:
    """P7: who loses 1 influence, from the third execution's cards and the pointing."""
    counts = {c: sum(1 for v in cards.values() if v == c) for c in (REPRESS, REFORM)}
    minority = REPRESS if counts[REPRESS] < counts[REFORM] else REFORM
    deviant = next(seat for seat, c in cards.items() if c == minority)
    others = [seat for seat in cards if seat != deviant]
    failing = [seat for seat in others if pointed[seat] != deviant]
    return failing if failing else [deviant]


@dataclass
class PolitburoState:
    members: list[str]
    first: int
    influence: list[int]
    ministries: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MINISTRIES, 0))
    lost: int = 0
    round: int = 0
    phase: PolitburoPhase = "peek"
    peeked: int = 0
    proposal: str | None = None
    thumbs: int | None = None
    votes: list[str | None] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    plan: str | None = None
    executors: list[int] = field(default_factory=list)
    execution: int = 0
    fresh: list[int] = field(default_factory=list)
    replacing: int | None = None
    current: dict[str, Any] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)


class Politburo(Game):
    name = "politburo"
    min_players = 5
    max_players = 10
    outcomes = ("winner", "winners", "no winner")
    OPTIONS = {"vote": Option("count", ("count", "each"))}
    REFUSALS = {
        "rejected": ("P3", "P3: the {plan} plan was already rejected this round"),
        "self_appoint": ("P4", "P4: the general secretary cannot appoint themself"),
        "executor": ("P4", "P4: seat {seat} is already one of the three executors"),
        "brought_in": ("", "seat {seat} has just been brought in: that place is refilled"),
        "not_executing": ("P5", "P5: seat {seat} is not executing, so cannot be replaced"),
        "yes_no": ("P3", "P3: the plan vote is yes or no"),
        "thumbs": ("P3", "P3: the thumbs up are 0 to {voters}, the members but the secretary"),
        "execution_card": ("P5", "P5: an execution card is repress or reform"),
        "point": ("P7", "P7: point left or right, at one of the two other executors"),
    }
    State = PolitburoState

    s: PolitburoState
    #: P6: the third execution's cards by seat, kept (unsaved) only until the purge.
    third: dict[int, str] | None = None

    def setup(self) -> None:
        members = self.rng.sample(MEMBERS, self.players)  # P1
        first = self.rng.randrange(self.players)  # P2: a random first secretary
        self.s = PolitburoState(
            members=list(members),
            first=first,
            influence=[START_INFLUENCE] * self.players,
            votes=[None] * self.players,
        )
        self.third = None
        self._open_round()

    # -- facts derived from the state -----------------------------------------
    @property
    def rounds(self) -> int:
        return self.players  # P2

    @property
    def secretary(self) -> int:
        return (self.s.first + self.s.round) % self.players  # P2: rotating to the left

    @property
    def voters(self) -> list[int]:
        return [seat for seat in range(self.players) if seat != self.secretary]  # P3

    @property
    def saveable(self) -> bool:
        return super().saveable and self.third is None

    def _proposal_options(self) -> tuple[str, ...]:
        return tuple(m for m in MINISTRIES if m not in self.s.rejected)

    def _refill_options(self) -> tuple[int, ...]:
        busy = {self.secretary, *self.s.executors}
        return tuple(seat for seat in range(self.players) if seat not in busy)

    # -- the contract ------------------------------------------------------------
    def _decide(self) -> Decision | None:
        s = self.s
        phase = s.phase
        if phase == "peek":
            return self._peek_decision()
        if phase == "propose":
            return Decision("propose", (self.secretary,), self._proposal_options())
        if phase == "plan_vote" and self.options["vote"] == "count":
            counts = tuple(str(n) for n in range(len(self.voters) + 1))
            return Decision("plan_count", (self.secretary,), counts)
        if phase == "plan_vote":
            pending = tuple(seat for seat in self.voters if s.votes[seat] is None)
            return Decision("plan_vote", pending, (YES, NO))
        if phase == "casting":
            return Decision("casting", (self.secretary,), (YES, NO))
        if phase == "appoint":
            return Decision("appoint", (self.secretary,), self._refill_options())
        if phase == "execute":
            assert self.ballot is not None
            return Decision("execute", self.ballot.pending, (REPRESS, REFORM), secret=True)
        if phase == "replace":
            places = tuple(e for e in s.executors if e not in s.fresh)
            return Decision("replace", (self.secretary,), (DONE, *places))
        if phase == "replace_by":
            return Decision("replace_by", (self.secretary,), self._refill_options())
        if phase == "purge":
            assert self.ballot is not None
            return Decision("point", self.ballot.pending, (LEFT, RIGHT), secret=True)
        return None

    def _refusal(self, decision: Decision, seat: int, choice: Choice) -> IllegalMove:
        s = self.s
        kind = decision.kind
        if kind == "propose" and choice in s.rejected:
            return self.refused("rejected", plan=str(choice))
        if kind in ("appoint", "replace_by") and isinstance(choice, int):
            if choice == self.secretary:
                return self.refused("self_appoint")
            if choice in s.executors:
                return self.refused("executor", seat=choice + 1)
        if kind == "replace" and isinstance(choice, int):
            if choice in s.fresh:
                return self.refused("brought_in", seat=choice + 1)
            return self.refused("not_executing", seat=choice + 1)
        if kind in ("plan_vote", "casting"):
            return self.refused("yes_no")
        if kind == "plan_count":
            return self.refused("thumbs", voters=len(self.voters))
        if kind in ("execute", "point"):
            return self.refused("execution_card" if kind == "execute" else "point")
        return super()._refusal(decision, seat, choice)

    def _apply(self, seat: int, choice: Choice) -> None:
        """The move of the phase the game is in: one method a phase (``MOVES``)."""
        self.MOVES[self.s.phase](self, seat, choice)

    def _on_peek(self, seat: int, choice: Choice) -> None:
        if self._peek_seen():
            self.s.phase = "propose"

    def _on_propose(self, seat: int, choice: Choice) -> None:
        s = self.s
        s.proposal = str(choice)
        s.votes = [None] * self.players
        s.phase = "plan_vote"

    def _on_plan_vote(self, seat: int, choice: Choice) -> None:
        s = self.s
        if self.options["vote"] == "count":
            s.thumbs = int(str(choice))
        else:
            s.votes[seat] = str(choice)
            if any(s.votes[v] is None for v in self.voters):
                return
            s.thumbs = s.votes.count(YES)
        yes, no = s.thumbs, len(self.voters) - s.thumbs
        if yes == no:
            s.phase = "casting"  # P3: the secretary's casting vote
        else:
            self._settle_plan(yes > no, None)

    def _on_casting(self, seat: int, choice: Choice) -> None:
        self._settle_plan(choice == YES, str(choice))

    def _on_appoint(self, seat: int, choice: Choice) -> None:
        self.s.executors.append(int(choice))
        if len(self.s.executors) == 3:
            self._start_execution()

    def _on_execute(self, seat: int, choice: Choice) -> None:
        assert self.ballot is not None
        self.ballot.cast(seat, choice)
        if self.ballot.complete:
            self._settle_execution()

    def _on_replace(self, seat: int, choice: Choice) -> None:
        if choice == DONE:
            self._start_execution()
        else:
            self.s.replacing = int(choice)
            self.s.phase = "replace_by"

    def _on_replace_by(self, seat: int, choice: Choice) -> None:
        s = self.s
        assert s.replacing is not None
        s.executors[s.executors.index(s.replacing)] = int(choice)
        s.fresh.append(int(choice))
        s.replacing = None
        if len(s.fresh) == 3:
            self._start_execution()
        else:
            s.phase = "replace"

    def _on_purge(self, seat: int, choice: Choice) -> None:
        assert self.ballot is not None
        self.ballot.cast(seat, choice)
        if self.ballot.complete:
            self._purge()

    # -- the phases ----------------------------------------------------------------
    #: each phase's move (``_apply``)
    MOVES: ClassVar[dict[PolitburoPhase, Callable[[Politburo, int, Choice], None]]] = {
        "peek": _on_peek,
        "propose": _on_propose,
        "plan_vote": _on_plan_vote,
        "casting": _on_casting,
        "appoint": _on_appoint,
        "execute": _on_execute,
        "replace": _on_replace,
        "replace_by": _on_replace_by,
        "purge": _on_purge,
    }

    def _open_round(self) -> None:
        s = self.s
        s.phase = "propose"
        s.proposal = None
        s.votes = [None] * self.players
        s.rejected = []
        s.plan = None
        s.executors = []
        s.execution = 0
        s.fresh = []
        s.replacing = None
        s.current = {
            "round": s.round + 1,
            "secretary": self.secretary,
            "proposals": [],
            "plan": None,
            "automatic": False,
            "executions": [],
            "change": 0,
            "purge": None,
        }
        if s.peeked < self.players:
            s.phase = "peek"

    def _settle_plan(self, approved: bool, casting: str | None) -> None:
        """P3: record the open vote; approved, rejected, or the third ministry automatically."""
        s = self.s
        assert s.proposal is not None and s.thumbs is not None
        counted = self.options["vote"] == "count"  # the box saw counts, not seats
        s.current["proposals"].append(
            {
                "ministry": s.proposal,
                "yes": None if counted else [v for v in self.voters if s.votes[v] == YES],
                "no": None if counted else [v for v in self.voters if s.votes[v] == NO],
                "thumbs_up": s.thumbs,
                "thumbs_down": len(self.voters) - s.thumbs,
                "casting": casting,
                "approved": approved,
            }
        )
        if approved:
            s.plan = s.proposal
        else:
            s.rejected.append(s.proposal)
            if len(s.rejected) == 2:
                s.plan = self._proposal_options()[0]
                s.current["automatic"] = True
        s.proposal = None
        s.thumbs = None
        s.votes = [None] * self.players
        if s.plan is None:
            s.phase = "propose"
        else:
            s.current["plan"] = s.plan
            s.phase = "appoint"

    def _start_execution(self) -> None:
        s = self.s
        s.execution += 1
        s.fresh = []
        s.replacing = None
        self.ballot = Ballot(s.executors, (REPRESS, REFORM))
        s.phase = "execute"

    def _settle_execution(self) -> None:
        """P5 and P6: count the cards; unanimity ends the round, else replace or purge."""
        s = self.s
        ballot = self.ballot
        assert ballot is not None and s.plan is not None
        record: dict[str, Any] = {
            "number": s.execution,
            "executors": card_order(s.executors, self.secretary, self.players)
            if s.execution == 3
            else list(s.executors),
        }
        if s.execution < 3:
            cards = list(ballot.reveal(self.rng))  # P5: shuffled, only counts kept
            self.ballot = None
        else:
            by_seat = {seat: ballot.choice_of(seat) for seat in s.executors}
            cards = list(by_seat.values())
        repress, reform = cards.count(REPRESS), cards.count(REFORM)
        record.update(repress=repress, reform=reform)
        s.current["executions"].append(record)
        if repress == 3 or reform == 3:
            self.ballot = None
            if s.execution == 3:
                record["cards"] = [REPRESS if repress == 3 else REFORM] * 3
            self._change(2 if repress == 3 else -2)
            self._close_round()
        elif s.execution < 3:
            s.phase = "replace"
        else:
            self.third = by_seat  # P6: attributable, hidden until the purge
            self._change(1 if repress > reform else -1)
            self.ballot = Ballot(s.executors, (LEFT, RIGHT))
            s.phase = "purge"

    def _change(self, delta: int) -> None:
        s = self.s
        assert s.plan is not None
        s.ministries[s.plan] += delta
        s.current["change"] = delta

    def _purge(self) -> None:
        """P7: the pointing and the third execution's cards revealed together; penalties."""
        s = self.s
        ballot, cards = self.ballot, self.third
        assert ballot is not None and cards is not None
        pointed = {
            seat: pointing_targets(seat, s.executors, self.players)[ballot.choice_of(seat)]
            for seat in s.executors
        }
        self.ballot = None
        self.third = None
        losers = purge_losers(cards, pointed)
        lost = 0
        for seat in losers:
            if s.influence[seat] > 0:  # P1: never below 0
                s.influence[seat] -= 1
                lost += 1
        s.lost += lost
        order = card_order(s.executors, self.secretary, self.players)
        minority = min((REPRESS, REFORM), key=lambda c: list(cards.values()).count(c))
        s.current["purge"] = {
            "executors": order,
            "cards": [cards[seat] for seat in order],
            "pointed": [pointed[seat] for seat in order],
            "deviant": next(seat for seat in order if cards[seat] == minority),
            "losers": sorted(losers),
            "lost": lost,
        }
        self._close_round()

    def _close_round(self) -> None:
        s = self.s
        s.history.append(s.current)
        s.round += 1
        if s.round < self.rounds:
            self._open_round()
        else:
            s.current = {}
            s.phase = "over"

    # -- views ------------------------------------------------------------------
    def _public(self) -> dict[str, Any]:
        s = self.s
        over = s.phase == "over"
        current = self._current()
        executions = current["executions"] if current else ()
        view: dict[str, Any] = {
            "phase": s.phase,
            "round": min(s.round + 1, self.rounds),
            "rounds": self.rounds,
            "first_secretary": s.first,
            "secretary": None if over else self.secretary,
            "ministries": FrozenDict(s.ministries),
            "influence": FrozenList(s.influence),
            "lost": s.lost,
            "proposal": s.proposal,
            "thumbs_up": s.thumbs,
            "rejected": FrozenList(s.rejected),
            "plan": s.plan,
            "executors": FrozenList(s.executors),
            "execution": s.execution,
            "last_execution": executions[-1] if executions else None,
            "replacing": s.replacing,
            "current": current,
            "history": self._frozen_log("_history_log_", s.history),
        }
        if s.phase == "purge":
            order = card_order(s.executors, self.secretary, self.players)
            view["pointing"] = FrozenDict(
                executors=FrozenList(order),
                targets=FrozenList(
                    [FrozenDict(pointing_targets(e, s.executors, self.players)) for e in order]
                ),
            )
        return view

    def _current(self) -> FrozenDict | None:
        """The round being played, frozen: its plan votes and executions never change once
        recorded, so they are frozen once and shared; the rest are numbers and words."""
        current = self.s.current
        if not current:
            return None
        return FrozenDict(
            {
                key: self._frozen_log(f"_{key}_log_", value) if key in LOGGED else freeze(value)
                for key, value in current.items()
            }
        )

    def _revealed(self) -> dict[str, Any]:
        s = self.s
        return {
            "members": list(s.members),
            "fulfilled": [fulfilled(m, s.ministries, s.lost, self.players) for m in s.members],
        }

    def _private(self, seat: int) -> dict[str, Any]:
        s = self.s
        member = s.members[seat]
        private: dict[str, Any] = {
            "member": member,
            "condition": CONDITION_TEXT[member],
            "condition_holds": fulfilled(member, s.ministries, s.lost, self.players),
        }
        ballot = self.ballot
        if ballot is not None and seat in ballot.seats and seat not in ballot.pending:
            key = "my_point" if s.phase == "purge" else "my_execution"
            private[key] = ballot.choice_of(seat)  # an executor knows the card it played
        if self.third is not None and seat in self.third:
            order = card_order(s.executors, self.secretary, self.players)
            private["my_card"] = FrozenDict(number=order.index(seat) + 1, card=self.third[seat])
        if s.phase == "purge" and seat in s.executors:
            private["point_at"] = FrozenDict(pointing_targets(seat, s.executors, self.players))
        return private

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        s = self.s
        winners = winners_of(s.members, s.influence, s.ministries, s.lost)
        outcome = "no winner" if not winners else "winner" if len(winners) == 1 else "winners"
        measures = {f"{m} won": float(seat in winners) for seat, m in enumerate(s.members)}
        measures["lost influence"] = float(s.lost)
        measures["conditions fulfilled"] = float(
            sum(fulfilled(m, s.ministries, s.lost, self.players) for m in s.members)
        )
        return Result(winners, outcome, measures)
