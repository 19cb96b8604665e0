"""Wired handsets as a way of answering: one secret A/B ballot across the pads and the box.

The seats whose device answers vote on it, all at once; the others pass the
box as usual, and a seat whose device goes silent (for handsets,
``companion.box.handsets.SILENT`` seconds without a frame) passes the box for
itself alone, while the rest keep voting where they are. A device found
during the ballot (a box that restarted and has just heard its pads) takes
over a seat that has not taken the box yet. Nothing here sees what a vote
was until the table plays it, and nothing is shown or logged about a vote
but that its seat voted.

``HandsetDesk`` is the table's answerer for the pads (``companion.table.answers``):
it opens a ``RoomBallot`` on the seats whose pad answers, sends their votes
through the loop's port, and lights a pad again when the loop refuses its vote.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Protocol

from companion.games import Decision
from companion.table.answers import Answerer, Port, Refusal
from companion.table.modes import Choose, Confirm, Handoff, Handsets, Mode, Notice
from companion.table.screens import waiting_screen
from companion.ui.canvas import Screen

__all__ = ["HandsetDesk", "RoomBallot", "RoomVote", "VoteRoom"]

log = logging.getLogger("companion.handsets")


class RoomVote(Protocol):
    """One vote from a device: its seat, the ballot it answers, and A (0) or B (1)."""

    @property
    def seat(self) -> int: ...
    @property
    def ballot(self) -> int: ...
    @property
    def button(self) -> int: ...


class VoteRoom(Protocol):
    """Somewhere seats vote away from the box: wired handsets, phones on the web.

    A room binds each device to one seat and never lets it speak for another.
    """

    def seats(self) -> set[int]:
        """Seats whose device is bound and answering now (a silent one's seat is not)."""
        ...

    def ask(self, seats: Iterable[int], ballot: int) -> None:
        """Open ``ballot`` on these seats' devices (again, for a device that came back)."""
        ...

    def poll(self) -> Sequence[RoomVote]:
        """Votes that arrived since the last poll; called on every step of the table."""
        ...

    def done(self, seats: Iterable[int], ballot: int) -> None:
        """Close ``ballot`` on these seats' devices."""
        ...

    def news(self) -> list[str]:
        """One-line messages for the table, each given once (a device refused, and why)."""
        ...


class RoomBallot:
    """One ballot: ``seats`` all vote; those in ``remote`` on the room, the rest on the box."""

    def __init__(
        self, room: VoteRoom, kind: str, seats: Sequence[int], number: int, free: Iterable[int]
    ) -> None:
        self.room = room
        self.kind = kind
        self.number = number
        self.seats = tuple(seats)
        live = room.seats() & set(free)
        self.remote = [seat for seat in self.seats if seat in live]
        self.asked = set(self.remote)  # every seat ever asked, to be told when it closes
        self.fell: set[int] = set()  # seats gone silent: on the box until the ballot closes
        room.ask(self.remote, number)

    def covers(self, seats: Sequence[int], kind: str) -> bool:
        """The decision is still this ballot, with fewer seats left to vote."""
        return kind == self.kind and set(seats) < set(self.seats)

    def box_seat(self, waiting: Sequence[int]) -> int | None:
        """The next seat to pass the box to; None when all left vote on the room."""
        return next((seat for seat in waiting if seat not in self.remote), None)

    def poll(self, waiting: Sequence[int], holder: int | None) -> tuple[list[RoomVote], bool]:
        """Votes to play for seats still waiting, and whether any seat moved between
        the room and the box (``holder``, choosing on the box now, stays there)."""
        votes = [
            vote
            for vote in self.room.poll()
            if vote.ballot == self.number and vote.seat in self.remote and vote.seat in waiting
        ]
        live = self.room.seats()
        voted = {vote.seat for vote in votes}
        silent = [s for s in self.remote if s in waiting and s not in live and s not in voted]
        for seat in silent:
            log.warning("seat %d's handset is silent: seat %d passes the box", seat + 1, seat + 1)
            self.remote.remove(seat)
            self.fell.add(seat)
        if silent:
            self.room.done(silent, self.number)
        found = [
            s
            for s in waiting
            if s in live and s not in self.remote and s not in self.fell and s != holder
        ]
        if found:
            self.remote += found
            self.asked.update(found)
            self.room.ask(found, self.number)
        return votes, bool(silent or found)

    def close(self) -> None:
        self.room.done(sorted(self.asked), self.number)


class HandsetDesk(Answerer):
    """The table's counter for the pads: a ballot open on them, and the pads' news."""

    def __init__(self, port: Port) -> None:
        self.port = port
        self.vote: RoomBallot | None = None  # a secret A/B choice open on the handsets
        self.number = 0  # the last ballot's number, 1 to 255 and round again

    @property
    def room(self) -> VoteRoom | None:
        return self.port.box.handsets

    def seats(self) -> set[int]:
        return set() if self.room is None else self.room.seats()

    def pending(self) -> set[int]:
        return set() if self.vote is None else set(self.vote.remote)

    def _due(self, d: Decision, free: Iterable[int]) -> bool:
        """A secret A/B choice, not open yet, with a pad answering for one of its seats."""
        if self.vote is not None or self.room is None or not d.secret or d.kind == "peek":
            return False
        answerable = self.port.ui.choice_buttons(d) is not None
        return answerable and bool(self.room.seats() & set(free))

    def ask(self, d: Decision, free: tuple[int, ...]) -> Mode | None:
        if self.room is not None and self._due(d, free):
            self.number = self.number % 255 + 1
            self.vote = RoomBallot(self.room, d.kind, d.seats, self.number, free)
        if self.vote is None or self.vote.box_seat(free) is not None:
            return None  # no ballot, or the box serves the seats without a pad meanwhile
        return Handsets(self.vote.seats, self.vote.number)

    def poll(self) -> None:
        """Play the votes from the handsets; move the box on when seats moved."""
        room, port = self.room, self.port
        if room is None:
            return
        news = room.news()
        if news:
            port.warn(port.t("Handset refused"), news)
        d = port.decision()
        if self.vote is None or d is None:
            room.poll()  # no ballot open: the links still answer and keep their pads
            mode = port.mode
            waiting = mode.back if isinstance(mode, Notice) else mode
            if isinstance(waiting, Handoff) and d is not None and self._due(d, d.seats):
                port.move_on()  # pads just found (the box started): they take the vote
            return
        holder = port.holder if isinstance(port.mode, Choose | Confirm) else None
        votes, moved = self.vote.poll(d.seats, holder)
        for vote in votes:
            d = port.decision()
            if self.vote is None or d is None or vote.seat not in d.seats:
                continue
            buttons = port.ui.choice_buttons(d)
            if buttons is None:
                continue
            port.box.outputs.feedback()
            port.answer(vote.seat, buttons[vote.button != 0], self)
        if moved and self.vote is not None and isinstance(port.mode, Handsets | Handoff):
            port.move_on()

    def refused(self, seat: int, why: Refusal) -> None:
        """The pad's LED goes dark and lights again: its seat votes again."""
        if self.vote is not None and self.room is not None:
            log.info("seat %d's handset vote refused: asked again", seat + 1)
            self.room.done([seat], self.vote.number)
            self.room.ask([seat], self.vote.number)

    def settle(self, before: Decision, after: Decision | None) -> bool:
        if self.vote is not None and (
            after is None or not self.vote.covers(after.seats, after.kind)
        ):
            self.done()
        return self.vote is not None

    def done(self) -> None:
        if self.vote is not None:  # the pads stop asking; no vote of it is written
            self.vote.close()
            self.vote = None

    def owns(self, mode: Mode) -> bool:
        return isinstance(mode, Handsets)

    def screen(self, status: str) -> Screen:
        port, t = self.port, self.port.t
        d = port.decision()
        assert d is not None and isinstance(port.mode, Handsets)
        seats = port.mode.seats
        done = t("{n} of {m} in").format(n=len(seats) - len(d.seats), m=len(seats))
        return waiting_screen(t("Vote on your handsets."), d, status, done, t)
