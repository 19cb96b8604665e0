"""A question only one unknown seat may answer, asked in the open: claims on a countdown.

Glasnost's coup check is the case (rule 5.5): with cards, Gorbachev (or
Kryuchkov) reveals himself if he wants a coup, and nobody else says a word.
The box cannot ask the holder alone without showing who holds the card, so
it asks the table at once, one question for every leader it offers: a public
countdown runs (the game's ``countdown`` option, in seconds), and any seat may
claim on the box: OK, its seat with Up/Down, then A or B (what each means is
on the screen: a leader's coup each, or a coup and none) and OK. When the
countdown ends, each claimant's answer is played for its seat and every other
seat answers the decision's last option (no); the game counts only each
leader's own answer. So:

- the table learns what the cards would tell it: the outcome, and a leader
  only if he goes for a coup;
- a claim draws the same screens whoever makes it and whatever it answers,
  and a claim that fails ends exactly as a decline does: a seat may claim the
  other leader's coup, or none, so a failed claim proves nothing about the
  claimant;
- no other seat can cause or prevent a leader's coup: its answer is not
  counted, and a claim never stops a leader claiming too (each claim leaves
  at least ``GRACE`` seconds on the clock);
- declining costs no press: the countdown runs out;
- a press the claim's screen does not take says why, on the keys line, in
  words that depend only on the button and the screen (never on a claim).

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
from companion.table.modes import Claim, Confirm, Countdown, Mode
from companion.table.screens import prompt_screen
from companion.ui.canvas import Screen

COUNTDOWN = 8.0  # seconds the table has to claim, unless the game's ``countdown`` option says
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
        view = port.now().view
        assert view is not None
        if port.ui.open_check(d, view, port.t) is None:
            return False
        return not set(d.seats) <= port.remote_seats()

    def ask(self, d: Decision, free: tuple[int, ...]) -> Mode | None:
        """Start the countdown: nobody holds the box, and nothing before it can be undone."""
        if not self.due(d):
            return None
        now = self.port.box.clock.now()
        self.claims, self.ends, self.ticked, self.running = {}, now + self.seconds(), now, True
        self.port.release()
        return Countdown()

    def seconds(self) -> float:
        """How long the table has to claim: the game's ``countdown`` option, if it has one."""
        game = self.port.game
        assert game is not None
        return float(game.options.get("countdown", COUNTDOWN))

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
        unclaimed = d.options[-1]  # the answer of a seat that says nothing: no
        answers = {seat: self.claims.get(seat, unclaimed) for seat in d.seats}
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
        """OK, the seat (Up/Down), A or B (the last one counts), OK; Back walks back. Any
        other press is not taken, and the keys line says why."""
        port = self.port
        players = port.game.players if port.game is not None else 1
        match port.mode:
            case Countdown() if button == "ok":
                port.enter(Claim())
            case Claim(pending=None) as claim if button in ("up", "down"):
                claim.at = cursor_step(claim.at, players, button)
                claim.said = None
            case Claim(pending=None) if button == "back":
                port.enter(Countdown())
            case Claim(at=at) if button in ("choice_a", "choice_b"):
                # The last press before OK counts, as on any secret choice.
                self._chosen(at, button)
            case Claim(at=at, pending=pending) if button == "ok" and pending is not None:
                self.claims[at] = pending
                self.ends = max(self.ends, port.box.clock.now() + GRACE)
                port.enter(Countdown())
            case Claim(at=at) if button == "back":
                port.enter(Claim(at=at))
            case Countdown() | Claim() as waiting:
                waiting.said = self._why(waiting, button)

    def _why(self, mode: Countdown | Claim, button: str) -> str:
        """Why a press was not taken: it depends on the button and the screen only."""
        t = self.port.t
        if button == "peek":
            return t("No card to show here")
        match mode:
            case Countdown() if button == "back":
                return t("No claim to undo")
            case Countdown() if button in ("choice_a", "choice_b"):
                return t("A/B: OK, seat first")
            case Countdown():
                return t("To claim: OK first")
            case Claim(pending=None):
                return t("Answer with A or B")
        return t("Back to change seat")

    def _chosen(self, at: int, button: str) -> None:
        d = self.port.decision()
        assert d is not None
        buttons = self.port.ui.choice_buttons(d)
        assert buttons is not None
        self.port.enter(Claim(at=at, pending=buttons[button == "choice_b"]))

    def screen(self, status: str) -> Screen:
        port, t = self.port, self.port.t
        view, d = port.now().view, port.decision()
        assert view is not None and d is not None
        match port.mode:
            case Claim(at=at, pending=None, said=said):
                buttons = port.ui.choice_buttons(d)
                assert buttons is not None
                a, b = (port.ui.option_label(x, t) for x in buttons)
                seat = cursor_line(t("seat {n}").format(n=at + 1))
                lines = (t("A: {a}").format(a=a), t("B: {b}").format(b=b), seat)
                return Screen(status, lines, said or t("Your seat, then A/B"))
            case Claim(at=at, pending=pending, said=said) if pending is not None:
                shown = prompt_screen(port, Confirm(at, pending), d, view, status)
                return dataclasses.replace(shown, keys=said or shown.keys)
            case Countdown(said=said):
                question = port.ui.open_check(d, view, t)
                assert question is not None
                left = max(0, math.ceil(self.ends - port.box.clock.now()))
                clock = t("{n} s to claim: OK").format(n=left)
                return Screen(status, (*question, clock), said or t("A leader: press OK"))
        raise AssertionError(f"no claim screen for {port.mode}")
