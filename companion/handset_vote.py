"""One secret A/B ballot run across a vote room (handsets, later phones) and the box.

The seats whose device answers vote on it, all at once; the others pass the
box as usual, and a seat whose device goes silent (for handsets,
``companion.box.handsets.SILENT`` seconds without a frame) passes the box for
itself alone, while the rest keep voting where they are. A device found
during the ballot (a box that restarted and has just heard its pads) takes
over a seat that has not taken the box yet. Nothing here sees what a vote
was until the table plays it, and nothing is shown or logged about a vote
but that its seat voted.

The table drives a ``RoomBallot`` through four calls: ``box_seat`` (whom the
box serves next), ``poll`` (votes to play, and whether the seats moved),
``covers`` (is the decision still this ballot) and ``close``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Protocol

__all__ = ["RoomBallot", "RoomVote", "VoteRoom"]

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

    def __init__(self, room: VoteRoom, kind: str, seats: Sequence[int], number: int) -> None:
        self.room = room
        self.kind = kind
        self.number = number
        self.seats = tuple(seats)
        live = room.seats()
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
