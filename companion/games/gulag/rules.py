"""Gulag (5-10 players): the canal, the commissar, and the task cards played face down.

Rulings applied (docs/rules/gulag.md): G1 worker deck by player count, English
original by default, ``deck="fr"`` for the French translation's 5-6 removal;
G2 semi-hidden deal (each seat learns the card of the player on its right,
seat - 1, never its own), or ``deal="cards"`` when the table deals physical
role cards and reports them at the end; G3 the commissar rotates clockwise
from seat 1 and never selects themself; G4 replacement by player count; G5
optional forced swap; G6 shuffled inspection, only the count of Work public;
G7 the end table.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from companion.ballot import Ballot
from companion.games.base import Choice, Decision, Game, IllegalMove, Option, Result
from companion.games.frozen import FrozenDict, FrozenList
from companion.games.gulag.kinds import GulagKind, GulagPhase

RED, BLACK = "red", "black"
WORK, STRIKE = "work", "strike"
PASS = "none"
FLIP = {WORK: STRIKE, STRIKE: WORK}

#: G4: how many of the three selected must be new, by player count.
NEW_REQUIRED = {5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3}


def deck_for(players: int, variant: str = "en") -> dict[str, int]:
    """G1: 5 red and 5 black, less one of each at 6-8 players (5-6 in the French text)."""
    shorter = range(6, 9) if variant == "en" else range(5, 7)
    n = 4 if players in shorter else 5
    return {RED: n, BLACK: n}


def end_table(red: int, black: int, work: int) -> str:
    """G7: the side that wins with ``red`` red workers in play and ``work`` Work cards."""
    if work > 2 * red:
        return RED
    if work < 2 * red:
        return BLACK
    if red == black:
        return "draw"
    return RED if red < black else BLACK


@dataclass
class GulagState:
    roles: list[str | None]
    turn: int = 0
    canal: int = 0
    phase: GulagPhase = "peek"
    peeked: int = 0
    picks: list[int] = field(default_factory=list)
    previous: list[int] = field(default_factory=list)
    ordered: int | None = None
    last_inspection: list[str] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)


class Gulag(Game):
    name = "gulag"
    min_players = 5
    max_players = 10
    OPTIONS = {"deal": Option("box", ("box", "cards")), "deck": Option("en", ("en", "fr"))}
    outcomes = (RED, BLACK, "draw")
    REFUSALS = {
        "self_pick": ("G3", "G3: the commissar never selects themself"),
        "picked": ("", "seat {seat} is already selected this turn"),
        "not_new": (
            "G4",
            "G4: at {players} players at least {need} of the 3 selected must be new, "
            "and seat {seat} was selected last turn",
        ),
        "supervise": ("G5", "G5: the supervisor may order only one of the two workers, or no one"),
        "deck": ("G1", "G1: the deck has only {count} {card} workers"),
    }
    State = GulagState

    s: GulagState

    def setup(self) -> None:
        deck = self.deck
        cards = [RED] * deck[RED] + [BLACK] * deck[BLACK]
        self.rng.shuffle(cards)
        # Each seat draws in turn; the rest are discarded unseen.
        dealt = cards[: self.players]
        if self.options["deal"] == "box":
            self.s = GulagState(roles=list(dealt), phase="peek")
        else:
            self.s = GulagState(roles=[None] * self.players, phase="pick")

    # -- facts derived from the state -----------------------------------------
    @property
    def deck(self) -> dict[str, int]:
        return dict(self._deck)

    @functools.cached_property
    def _deck(self) -> FrozenDict:
        return FrozenDict(deck_for(self.players, self.options["deck"]))

    @property
    def turns(self) -> int:
        return self.players  # G3

    @property
    def commissar(self) -> int:
        return self.s.turn % self.players  # G3: clockwise from seat 1

    @property
    def workers(self) -> list[int]:
        return self.s.picks[:2]

    @property
    def supervisor(self) -> int | None:
        return self.s.picks[2] if len(self.s.picks) == 3 else None

    def _needs_new(self) -> int:
        return NEW_REQUIRED[self.players] if self.s.previous else 0

    def _pick_options(self) -> tuple[int, ...]:
        s = self.s
        picks, previous = s.picks, s.previous
        new_so_far = len([p for p in picks if p not in previous])
        still_free = 2 - len(picks)  # picks left after this one
        old_allowed = new_so_far + still_free >= self._needs_new()
        commissar = s.turn % self.players
        barred = {commissar, *picks} if old_allowed else {commissar, *picks, *previous}
        return tuple(seat for seat in range(self.players) if seat not in barred)

    # -- the contract ------------------------------------------------------------
    def _decide(self) -> Decision | None:
        phase = self.s.phase
        if phase == "peek":
            return self._peek_decision()
        if phase == "pick":
            kind: GulagKind = "pick_worker" if len(self.s.picks) < 2 else "pick_supervisor"
            return Decision(kind, (self.s.turn % self.players,), self._pick_options())
        if phase == "task":
            assert self.ballot is not None
            return Decision("task", self.ballot.pending, (WORK, STRIKE), secret=True)
        if phase == "supervise":
            assert self.supervisor is not None
            return Decision("supervise", (self.supervisor,), (PASS, *self.workers))
        if phase == "reveal_roles":
            seat = self.s.roles.index(None)
            return Decision("reveal_role", (seat,), self._role_options())
        return None

    def _role_options(self) -> tuple[str, ...]:
        told = [r for r in self.s.roles if r is not None]
        return tuple(c for c in (RED, BLACK) if told.count(c) < self._deck[c])

    def _refusal(self, decision: Decision, seat: int, choice: Choice) -> IllegalMove:
        if decision.kind in ("pick_worker", "pick_supervisor"):
            if choice == self.commissar:
                return self.refused("self_pick")
            if choice in self.s.picks:
                return self.refused("picked", seat=int(choice) + 1)
            if isinstance(choice, int) and choice in self.s.previous:
                need = self._needs_new()
                return self.refused("not_new", players=self.players, need=need, seat=choice + 1)
        if decision.kind == "supervise":
            return self.refused("supervise")
        if decision.kind == "reveal_role" and choice in (RED, BLACK):
            return self.refused("deck", count=self._deck[choice], card=str(choice))
        return super()._refusal(decision, seat, choice)

    def _apply(self, seat: int, choice: Choice) -> None:
        s = self.s
        if s.phase == "peek":
            if self._peek_seen():
                s.phase = "pick"
        elif s.phase == "pick":
            s.picks.append(int(choice))
            if len(s.picks) == 3:
                s.phase = "task"
                self.ballot = Ballot(self.workers, (WORK, STRIKE))
        elif s.phase == "task":
            assert self.ballot is not None
            self.ballot.cast(seat, choice)
            if self.ballot.complete:
                s.phase = "supervise"
        elif s.phase == "supervise":
            self._inspect(None if choice == PASS else int(choice))
        elif s.phase == "reveal_roles":
            s.roles[seat] = str(choice)
            if None not in s.roles:
                s.phase = "over"

    def _inspect(self, ordered: int | None) -> None:
        """G5 then G6: the ordered swap, the shuffled reveal, the canal, the next turn."""
        s = self.s
        assert self.ballot is not None
        if ordered is not None:
            self.ballot.replace(ordered, FLIP[self.ballot.choice_of(ordered)])
        cards = list(self.ballot.reveal(self.rng))
        self.ballot = None
        work = cards.count(WORK)
        s.canal += work
        s.last_inspection = cards
        s.ordered = ordered
        s.history.append(
            {
                "turn": s.turn + 1,
                "commissar": self.commissar,
                "workers": self.workers,
                "supervisor": self.supervisor,
                "ordered": ordered,
                "work": work,
            }
        )
        s.previous = list(s.picks)
        s.picks = []
        s.turn += 1
        if s.turn < self.turns:
            s.phase = "pick"
        elif None in s.roles:
            s.phase = "reveal_roles"
        else:
            s.phase = "over"

    # -- views ------------------------------------------------------------------
    def _public(self) -> dict[str, Any]:
        """Every value frozen as built (the view takes them as they are)."""
        s = self.s
        turns = self.players  # G3
        picks = s.picks
        return {
            "phase": s.phase,
            "turn": min(s.turn + 1, turns),
            "turns": turns,
            "canal": s.canal,
            "canal_max": 2 * turns,
            "commissar": s.turn % self.players if s.turn < turns else None,
            "workers": FrozenList(picks[:2]),
            "supervisor": picks[2] if len(picks) == 3 else None,
            "previous": FrozenList(s.previous),
            "need_new": NEW_REQUIRED[self.players] if s.previous else 0,
            "deck": self._deck,
            "ordered": s.ordered,
            "last_inspection": FrozenList(s.last_inspection) if s.last_inspection else None,
            "history": self._frozen_log("_history_log_", s.history),
            "roles_told": FrozenList(s.roles) if self.options["deal"] == "cards" else None,
        }

    def _revealed(self) -> dict[str, Any]:
        return {"roles": list(self.s.roles)}

    def _private(self, seat: int) -> dict[str, Any]:
        right = (seat - 1) % self.players
        private: dict[str, Any] = {
            "right": right,
            "right_card": self.s.roles[right] if self.options["deal"] == "box" else None,
        }
        ballot = self.ballot
        if ballot is not None and seat in ballot.seats and seat not in ballot.pending:
            private["my_task"] = ballot.choice_of(seat)  # a worker knows the card it played
        return private

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        roles = self.s.roles
        red = roles.count(RED)
        black = roles.count(BLACK)
        side = end_table(red, black, self.s.canal)
        winners = frozenset(i for i, r in enumerate(roles) if r == side)
        return Result(winners, side, {"canal": float(self.s.canal)})
