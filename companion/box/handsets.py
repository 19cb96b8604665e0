"""Handsets: one wired pad a seat, so a secret vote is cast by everyone at once.

Each handset is a serial port (USB CDC on the Pi, a pty or ``socket://`` off
it) opened with pyserial. Frames are numbered and acknowledged; what is not
acknowledged is sent again; a repeated frame is acknowledged but not counted
twice. A pulled cable closes the port: the link reopens it every second, and
the handset's HELLO on reconnection gets the open question asked again.

Nothing here logs what a vote was: only that a seat voted.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import serial

from companion.box import protocol

log = logging.getLogger("companion.handsets")

RESEND = 0.2
REOPEN = 1.0


@dataclass(frozen=True)
class Vote:
    seat: int
    ballot: int
    button: int  # 0 = A, 1 = B


class HandsetLink:
    """One handset on one serial port."""

    def __init__(
        self,
        url: str,
        clock: Callable[[], float],
        opener: Callable[..., Any] = serial.serial_for_url,
    ) -> None:
        self.url = url
        self.clock = clock
        self.opener = opener
        self.port: Any = None
        self.seat: int | None = None
        self.splitter = protocol.Splitter()
        self.seq = 0
        self.seen: set[int] = set()  # seqs of votes taken in the open ballot
        self.open_ballot: int | None = None
        self.unacked: tuple[int, bytes] | None = None
        self.sent_at = 0.0
        self.tried_at = float("-inf")
        self.garbled = 0
        self._open()

    @property
    def connected(self) -> bool:
        return self.port is not None

    def _open(self) -> None:
        self.tried_at = self.clock()
        try:
            self.port = self.opener(self.url, baudrate=115200, timeout=0)
        except (serial.SerialException, OSError) as exc:
            self.port = None
            log.debug("handset %s not there: %s", self.url, exc)

    def _lost(self, exc: Exception) -> None:
        log.warning("handset %s unplugged (%s)", self.url, exc)
        with contextlib.suppress(serial.SerialException, OSError):
            self.port.close()
        self.port = None
        self.splitter = protocol.Splitter()

    def _write(self, frame: bytes) -> None:
        if self.port is None:
            return
        try:
            self.port.write(frame)
        except (serial.SerialException, OSError) as exc:
            self._lost(exc)

    def _send(self, kind: int, body: bytes) -> None:
        if self.seat is None:
            return
        self.seq = (self.seq + 1) & 0xFF
        frame = protocol.encode(kind, self.seq, self.seat, body)
        self.unacked = (self.seq, frame)
        self.sent_at = self.clock()
        self._write(frame)

    def ask(self, ballot: int) -> None:
        self.open_ballot = ballot
        self.seen = set()
        self._send(protocol.ASK, bytes([ballot & 0xFF]))

    def done(self, ballot: int) -> None:
        self.open_ballot = None
        self._send(protocol.DONE, bytes([ballot & 0xFF]))

    def poll(self) -> list[Vote]:
        """Read what arrived, acknowledge it, resend what was not acknowledged."""
        now = self.clock()
        if self.port is None:
            if now - self.tried_at >= REOPEN:
                self._open()
            return []
        try:
            data = self.port.read(256)
        except (serial.SerialException, OSError) as exc:
            self._lost(exc)
            return []
        votes = []
        for frame in self.splitter.feed(data):
            vote = self._frame(frame)
            if vote is not None:
                votes.append(vote)
        if self.unacked is not None and now - self.sent_at >= RESEND:
            self.sent_at = now
            self._write(self.unacked[1])
        return votes

    def _frame(self, frame: bytes | None) -> Vote | None:
        if frame is None:
            self.garbled += 1
            return None
        try:
            kind, seq, seat, body = protocol.decode(frame)
        except protocol.FrameError:
            self.garbled += 1
            return None
        if kind == protocol.ACK:
            if self.unacked is not None and body[0] == self.unacked[0] and seat == self.seat:
                self.unacked = None
            return None
        self._write(protocol.encode(protocol.ACK, 0, seat, bytes([seq])))
        if kind == protocol.HELLO:
            self.seat = seat
            log.info("handset for seat %d on %s", seat + 1, self.url)
            if self.open_ballot is not None:
                self.ask(self.open_ballot)  # plugged back in mid-vote
            return None
        if kind == protocol.VOTE and seat == self.seat:
            ballot, button = body[0], body[1]
            if ballot != self.open_ballot or seq in self.seen or button > 1:
                return None
            self.seen.add(seq)
            return Vote(seat, ballot, button)
        return None

    def close(self) -> None:
        if self.port is not None:
            self.port.close()
            self.port = None


class Handsets:
    """All the handsets of a box, by seat."""

    def __init__(self, urls: Iterable[str], clock: Callable[[], float]) -> None:
        self.links = [HandsetLink(url, clock) for url in urls]

    def seats(self) -> set[int]:
        """Seats whose handset is plugged in and has said hello."""
        return {link.seat for link in self.links if link.connected and link.seat is not None}

    def _link(self, seat: int) -> HandsetLink | None:
        return next((link for link in self.links if link.seat == seat), None)

    def ask(self, seats: Iterable[int], ballot: int) -> None:
        for seat in seats:
            if (link := self._link(seat)) is not None:
                link.ask(ballot)

    def done(self, seats: Iterable[int], ballot: int) -> None:
        for seat in seats:
            if (link := self._link(seat)) is not None:
                link.done(ballot)

    def poll(self) -> list[Vote]:
        return [vote for link in self.links for vote in link.poll()]

    def close(self) -> None:
        for link in self.links:
            link.close()
