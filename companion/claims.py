"""A question only one unknown seat may answer, asked in the open: claims on a countdown.

Glasnost's coup check is the case (rule 5.5): with cards, Gorbachev (or
Kryuchkov) reveals himself if he wants a coup, and nobody else says a word.
The box cannot ask the holder alone without showing who holds the card, so
it asks the table at once: a public countdown runs, and any seat may claim
on the box (OK, its seat, then A/B and OK as for any secret choice). When
the countdown ends, each claimant's answer is played for its seat and every
other seat answers the ui's second button (no); the game counts only the
holder's answer, as before. So:

- the table learns what the cards would tell it: the outcome, and the leader
  only if he goes for a coup;
- a claim draws the same screens whoever makes it and whatever it answers,
  and a claim that fails ends exactly as a decline does: a seat may claim and
  answer "no", so a failed claim proves nothing about the claimant;
- no other seat can cause or prevent the leader's coup: its answer is not
  counted, and a claim never stops the leader claiming too (each claim leaves
  at least ``GRACE`` seconds on the clock);
- declining costs no press: the countdown runs out.

With a handset or a phone on every seat asked, the question goes to all of
them at once instead (the vote rooms), and this room stays out of the way.
The countdown ends on a fixed clock, extended only by claims, never by what a
claim answered; nothing is logged or written about a claim.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from companion.games import Choice, Decision
from companion.modes import Choose, Claim, Confirm, Countdown, Mode
from companion.ui.canvas import Screen

if TYPE_CHECKING:
    from companion.table import Table

COUNTDOWN = 10.0  # seconds the table has to claim
GRACE = 5.0  # seconds left on the clock at least, after a claim


class ClaimDesk:
    """The table's counter for open questions: the countdown, the claims, the outcome."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.claims: dict[int, Choice] = {}  # seat -> its answer, played when the clock ends
        self.ends = 0.0
        self.running = False  # a countdown is open
        self.ticked = 0.0  # when the clock was last looked at

    def due(self, d: Decision) -> bool:
        """The ui asks this decision in the open, and not every seat answers on a device."""
        table = self.table
        assert table.game is not None
        if table.ui.open_check(d, table.game.public_view(), table.t) is None:
            return False
        rooms = (table.box.handsets, table.desk.phones)
        remote = set().union(*(room.seats() for room in rooms if room is not None))
        return not set(d.seats) <= remote

    def open(self) -> None:
        """Start the countdown: nobody holds the box, and nothing before it can be undone."""
        table = self.table
        now = table.box.clock.now()
        self.claims, self.ends, self.ticked, self.running = {}, now + COUNTDOWN, now, True
        table.holder = None
        table.undo = []
        table._enter(Countdown())

    def owns(self, mode: Mode) -> bool:
        return isinstance(mode, Countdown | Claim)

    def tick(self) -> None:
        """When the clock runs out on the countdown, play every answer: the outcome follows.
        The clock stops while the box shows anything else (a notice, "abandon?")."""
        table = self.table
        now, was = table.box.clock.now(), self.ticked
        self.ticked = now
        self.running = self.running and table.game is not None  # not after an abandon
        if not self.running:
            return
        if not self.owns(table.mode):
            self.ends += now - was
        if not isinstance(table.mode, Countdown) or now < self.ends:
            return
        self.running = False
        game = table.game
        assert game is not None and game.decision is not None
        d = game.decision
        buttons = table.ui.choice_buttons(d)
        assert buttons is not None
        answers = {seat: self.claims.get(seat, buttons[1]) for seat in d.seats}
        self.claims = {}
        *first, last = d.seats
        for seat in first:  # the ballot counts them all at once, with the last
            game.act(seat, answers[seat])
        table._act(answers[last], seat=last)

    def press(self, button: str) -> None:
        table = self.table
        players = table.game.players if table.game is not None else 1
        match table.mode:
            case Countdown() if button == "ok":
                table._enter(Claim())
            case Claim(seat=None) as claim if button in ("up", "down"):
                # Wraps: any seat is at most half the table away.
                claim.at = (claim.at + (1 if button == "down" else -1)) % players
            case Claim(seat=None, at=at) if button == "ok":
                table._enter(Claim(at=at, seat=at))
            case Claim(seat=None) if button == "back":
                table._enter(Countdown())
            case Claim(seat=int(seat), pending=None, at=at) if button in ("choice_a", "choice_b"):
                buttons = table.ui.choice_buttons(table._decision())
                assert buttons is not None
                pending = buttons[button == "choice_b"]
                table._enter(Claim(at=at, seat=seat, pending=pending))
            case Claim(seat=int(), pending=None, at=at) if button == "back":
                table._enter(Claim(at=at))
            case Claim(seat=int(seat), pending=pending) if button == "ok" and pending is not None:
                self.claims[seat] = pending
                self.ends = max(self.ends, table.box.clock.now() + GRACE)
                table._enter(Countdown())
            case Claim(seat=int(seat), at=at) if button == "back":
                table._enter(Claim(at=at, seat=seat))

    def screen(self, status: str) -> Screen:
        table, t = self.table, self.table.t
        game = table.game
        assert game is not None
        d = table._decision()
        view = game.public_view()
        match table.mode:
            case Claim(seat=None, at=at):
                seat_n = t("seat {n}").format(n=at + 1)
                lines = (t("Claim: which seat"), t("are you?"), f"◄ {seat_n} ►")
                return Screen(status, lines, t("▲▼ seat  OK  Back"))
            case Claim(seat=int(seat), pending=None):
                own = dataclasses.replace(d, seats=(seat,))  # its prompt names the claimant
                return table._seat_screen(Choose(seat), own, view, status)
            case Claim(seat=int(seat), pending=pending) if pending is not None:
                return table._seat_screen(Confirm(seat, pending), d, view, status)
        question = table.ui.open_check(d, view, t)
        assert question is not None
        left = max(0, math.ceil(self.ends - table.box.clock.now()))
        return Screen(status, tuple(question), t("{n} s to claim: OK").format(n=left))
