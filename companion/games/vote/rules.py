"""The vote (3-12 players): the box as the anonymous ballot box of any game on the shelf.

Rules (``rules.md`` beside this module): V1 the setup (the choice, the reveal); V2
each round, seat 1 (the chair) says who votes: every seat, or seats it picks; V3
picking, one seat a decision, then "done"; V4 each voter chooses in secret, and
with more than two options its cursor opens on an option drawn at random, so
its presses say nothing of its choice; V5 the reveal: the choices shuffled
(cards), their count only (tally), or each seat's (open); V6 a line of history
a round, then the chair says another round or the end. A ballot box has no
winner: the end names none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.ballot import Ballot
from companion.games.base import Choice, Decision, Game, IllegalMove, Option, Result
from companion.games.frozen import FrozenList
from companion.games.vote.kinds import VotePhase

#: V1: the choices a table may put to the vote, by the setup's name
CHOICES: dict[str, tuple[str, ...]] = {
    "yes_no": ("yes", "no"),
    "success_fail": ("success", "fail"),
    "approve_reject": ("approve", "reject"),
    "abc": ("a", "b", "c"),
    "abcd": ("a", "b", "c", "d"),
}
#: V5: how a round's choices are shown
REVEALS = ("cards", "tally", "open")
EVERY, PICK = "all", "pick"
DONE = "done"
AGAIN, END = "again", "end"
#: the chair: it sets each round and ends the game (V2, V6)
CHAIR = 0
#: V6: a game's rounds at most, so that the history and a saved game stay bounded
ROUNDS = 99  # said in the refusal "last_round"


@dataclass
class VoteState:
    starts: list[int]
    round: int = 1
    phase: VotePhase = "who"
    voters: list[int] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)


class Vote(Game):
    name = "vote"
    min_players = 3
    max_players = 12
    OPTIONS = {
        "choice": Option("yes_no", tuple(CHOICES)),
        "reveal": Option("cards", REVEALS),
    }
    outcomes = ("ended",)
    REFUSALS = {
        "picked": ("V3", "V3: seat {seat} already votes this round"),
        "no_voter": ("V3", "V3: pick at least one seat before done"),
        "last_round": ("V6", "V6: a game has 99 rounds at most"),
    }
    State = VoteState

    s: VoteState

    def setup(self) -> None:
        self.s = VoteState(starts=self._draw_starts())

    @property
    def choices(self) -> tuple[str, ...]:
        return CHOICES[self.options["choice"]]

    def _draw_starts(self) -> list[int]:
        """V4: where each seat's cursor opens this round, one draw a seat whoever votes (the
        draws, like the presses, do not depend on who votes or what)."""
        return [self.rng.randrange(len(self.choices)) for _ in range(self.players)]

    # -- the contract ------------------------------------------------------------
    def _decide(self) -> Decision | None:
        s = self.s
        if s.phase == "who":
            return Decision("who", (CHAIR,), (EVERY, PICK))
        if s.phase == "pick":
            free = tuple(seat for seat in range(self.players) if seat not in s.voters)
            return Decision("pick_voter", (CHAIR,), (*free, DONE) if s.voters else free)
        if s.phase == "vote":
            assert self.ballot is not None
            return Decision("vote", self.ballot.pending, self.choices, secret=True)
        if s.phase == "next":
            return Decision("next", (CHAIR,), (AGAIN, END) if s.round < ROUNDS else (END,))
        return None

    def _refusal(self, decision: Decision, seat: int, choice: Choice) -> IllegalMove:
        if decision.kind == "pick_voter":
            if choice in self.s.voters:
                return self.refused("picked", seat=int(choice) + 1)
            if choice == DONE:
                return self.refused("no_voter")
        if decision.kind == "next" and choice == AGAIN:
            return self.refused("last_round")
        return super()._refusal(decision, seat, choice)

    def _apply(self, seat: int, choice: Choice) -> None:
        s = self.s
        if s.phase == "who":
            if choice == EVERY:
                self._open(list(range(self.players)))
            else:
                s.phase = "pick"
        elif s.phase == "pick":
            if choice == DONE:
                self._open(sorted(s.voters))
            else:
                s.voters.append(int(choice))
                if len(s.voters) == self.players:
                    self._open(sorted(s.voters))
        elif s.phase == "vote":
            assert self.ballot is not None
            self.ballot.cast(seat, choice)
            if self.ballot.complete:
                self._reveal()
        elif s.phase == "next":
            if choice == AGAIN:
                s.round += 1
                s.voters = []
                s.starts = self._draw_starts()
                s.phase = "who"
            else:
                s.phase = "over"

    def _open(self, voters: list[int]) -> None:
        self.s.voters = voters
        self.s.phase = "vote"
        self.ballot = Ballot(voters, self.choices)

    def _reveal(self) -> None:
        """V5: the choices shuffled (``companion.ballot``, the one CSPRNG place) whatever the
        reveal, so the draws are the same; open shows each seat's, tally only the counts."""
        s = self.s
        assert self.ballot is not None
        ballot = self.ballot
        own = [ballot.choice_of(v) for v in s.voters] if self.options["reveal"] == "open" else []
        cards = list(ballot.reveal(self.rng))
        self.ballot = None
        counts = Counter(cards)
        line: dict[str, Any] = {
            "round": s.round,
            "voters": list(s.voters),
            "tally": [counts[c] for c in self.choices],
            "cards": cards if self.options["reveal"] == "cards" else None,
            "open": own or None,
        }
        s.history.append(line)
        s.phase = "next"

    # -- views ------------------------------------------------------------------
    def _public(self) -> dict[str, Any]:
        s = self.s
        return {
            "phase": s.phase,
            "round": s.round,
            "choices": FrozenList(self.choices),
            "voters": FrozenList(s.voters),
            "history": self._frozen_log("_history_log_", s.history),
        }

    def _private(self, seat: int) -> dict[str, Any]:
        return {"start": self.s.starts[seat]}

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        return Result(frozenset(), "ended", {"rounds": float(len(self.s.history))})
