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
them at once instead (the other answerers), and this one stays out of the way.
It is a way of answering like the others (``companion.table.answers``): when
the clock runs out it sends every seat's answer through the loop's port.
The countdown ends on a fixed clock, extended only by claims, never by what a
claim answered; nothing is logged or written about a claim.
"""

from __future__ import annotations

import dataclasses
import logging
import math

from companion.games import Choice, Decision
from companion.table.answers import Answerer, Port, Refusal
from companion.table.cursor import cursor_line, cursor_step
from companion.table.modes import Choose, Claim, Confirm, Countdown, Mode
from companion.table.screens import prompt_screen
from companion.ui.canvas import Screen

COUNTDOWN = 10.0  # seconds the table has to claim
GRACE = 5.0  # seconds left on the clock at least, after a claim

log = logging.getLogger("companion.table")


class ClaimDesk(Answerer):
    """The table's counter for open questions: the countdown, the claims, the outcome."""

    def __init__(self, port: Port) -> None:
        self.port = port
        self.claims: dict[int, Choice] = {}  # seat -> its answer, played when the clock ends
        self.ends = 0.0
        self.running = False  # a countdown is open
        self.ticked = 0.0  # when the clock was last looked at

    def due(self, d: Decision) -> bool:
        """The ui asks this decision in the open, and not every seat answers on a device."""
        port = self.port
        assert port.game is not None
        if port.ui.open_check(d, port.game.public_view(), port.t) is None:
            return False
        return not set(d.seats) <= port.remote_seats()

    def ask(self, d: Decision, free: tuple[int, ...]) -> Mode | None:
        """Start the countdown: nobody holds the box, and nothing before it can be undone."""
        if not self.due(d):
            return None
        now = self.port.box.clock.now()
        self.claims, self.ends, self.ticked, self.running = {}, now + COUNTDOWN, now, True
        self.port.release()
        return Countdown()

    def owns(self, mode: Mode) -> bool:
        return isinstance(mode, Countdown | Claim)

    def poll(self) -> None:
        """When the clock runs out on the countdown, play every answer: the outcome follows.
        The clock stops while the box shows anything else (a notice, "abandon?")."""
        port = self.port
        now, was = port.box.clock.now(), self.ticked
        self.ticked = now
        self.running = self.running and port.game is not None  # not after an abandon
        if not self.running:
            return
        if not self.owns(port.mode):
            self.ends += now - was
        d = port.decision()
        if not isinstance(port.mode, Countdown) or now < self.ends or d is None:
            return
        self.running = False
        buttons = port.ui.choice_buttons(d)
        assert buttons is not None
        answers = {seat: self.claims.get(seat, buttons[1]) for seat in d.seats}
        self.claims = {}
        for seat in d.seats:  # the ballot counts them all at once, with the last
            port.answer(seat, answers[seat], self)

    def refused(self, seat: int, why: Refusal) -> None:
        log.warning("the countdown's answer was refused: %s", why)

    def settle(self, before: Decision, after: Decision | None) -> bool:
        """True while the countdown's ballot still waits for answers it is sending."""
        return (
            after is not None and after.kind == before.kind and set(after.seats) < set(before.seats)
        )

    def done(self) -> None:
        self.running = False

    def press(self, button: str) -> None:
        port = self.port
        players = port.game.players if port.game is not None else 1
        match port.mode:
            case Countdown() if button == "ok":
                port.enter(Claim())
            case Claim(seat=None) as claim if button in ("up", "down"):
                claim.at = cursor_step(claim.at, players, button)
            case Claim(seat=None, at=at) if button == "ok":
                port.enter(Claim(at=at, seat=at))
            case Claim(seat=None) if button == "back":
                port.enter(Countdown())
            case Claim(seat=int(seat), at=at) if button in ("choice_a", "choice_b"):
                # The last press before OK counts, as on any secret choice.
                self._chosen(seat, at, button)
            case Claim(seat=int(), pending=None, at=at) if button == "back":
                port.enter(Claim(at=at))
            case Claim(seat=int(seat), pending=pending) if button == "ok" and pending is not None:
                self.claims[seat] = pending
                self.ends = max(self.ends, port.box.clock.now() + GRACE)
                port.enter(Countdown())
            case Claim(seat=int(seat), at=at) if button == "back":
                port.enter(Claim(at=at, seat=seat))

    def _chosen(self, seat: int, at: int, button: str) -> None:
        d = self.port.decision()
        assert d is not None
        buttons = self.port.ui.choice_buttons(d)
        assert buttons is not None
        self.port.enter(Claim(at=at, seat=seat, pending=buttons[button == "choice_b"]))

    def screen(self, status: str) -> Screen:
        port, t = self.port, self.port.t
        game, d = port.game, port.decision()
        assert game is not None and d is not None
        view = game.public_view()
        match port.mode:
            case Claim(seat=None, at=at):
                seat_n = t("seat {n}").format(n=at + 1)
                lines = (t("Claim: which seat"), t("are you?"), cursor_line(seat_n))
                return Screen(status, lines, t("▲▼ seat  OK  Back"))
            case Claim(seat=int(seat), pending=None):
                own = dataclasses.replace(d, seats=(seat,))  # its prompt names the claimant
                return prompt_screen(port, Choose(seat), own, view, status)
            case Claim(seat=int(seat), pending=pending) if pending is not None:
                return prompt_screen(port, Confirm(seat, pending), d, view, status)
        question = port.ui.open_check(d, view, t)
        assert question is not None
        left = max(0, math.ceil(self.ends - port.box.clock.now()))
        return Screen(status, tuple(question), t("{n} s to claim: OK").format(n=left))
