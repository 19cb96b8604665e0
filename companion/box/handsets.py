"""Handsets: one wired pad a seat, so a secret vote is cast by everyone at once.

Each handset is a serial port (USB CDC on the Pi, a pty or ``socket://`` off
it) opened with pyserial. Frames are numbered and acknowledged; what is not
acknowledged is sent again, the box's in order (each waits for the ack of the
one before); a repeated frame is acknowledged but not counted twice. A pulled
cable closes the port: the link reopens it every second.

A port belongs to one seat for the whole game: the seat it was configured
with (``PORT=SEAT``) or else the one its first HELLO names. A pad that names
another seat, or a second pad for a seat already held, is refused and told
about in one line. The box asks every port WHO when it opens it and whenever
a pad has been quiet for ``PING`` seconds, so pads are found again after the
box restarts and a pad that stops answering shows as silent after ``SILENT``.
The WHO carries the box's session, a nonce new at every start, and a pad's
VOTE names the session it was cast in: a vote cast for the box before it
restarted (ballot numbers start again at 1), or captured and replayed later,
is refused. A vote is acknowledged only once it is counted, so a pad whose
vote was acknowledged knows it counts; one not counted is sent again by the
pad until the box can count it or closes the ballot.
Writes never wait: what the line cannot take at once (its buffer full: the
pad has stopped reading) is dropped, and after two in a row the link holds its
writes for ``STALL`` seconds. No write depends on the wall clock, so a box
slowed down by its own load never takes a reading pad for a stuck one, and the
table's loop never waits on a pad.

Nothing here logs what a vote was: only that a seat voted.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import serial

from companion.box import protocol
from companion.errors import CompanionError

log = logging.getLogger("companion.handsets")

RESEND = 0.2  # seconds before an unacknowledged frame is sent again
REOPEN = 1.0  # seconds between tries to reopen a port that went away
PING = 1.0  # a pad quiet this long is asked WHO; its HELLO shows it is alive
SILENT = 5.0  # a pad not heard from this long is silent: its seat passes the box
STALL = 1.0  # after two writes in a row timed out, the link writes nothing for this long
OUTBOX = 8  # frames a link keeps to send to a pad that does not acknowledge them


class HandsetError(CompanionError, ValueError):
    """Handsets configured so that they cannot work (two ports for one seat)."""


@dataclass(frozen=True)
class Vote:
    seat: int
    ballot: int
    button: int  # 0 = A, 1 = B


NETWORK = ("socket", "rfc2217")  # pyserial's URLs of a serial line over the network


def parse_port(spec: str) -> tuple[str, int | None]:
    """``/dev/ttyACM0=3`` is seat 3's port (seats are 1-based here, as on the pads).

    A port is a device path (it may not exist yet: a pad is plugged in later) or a
    serial line over the network, ``socket://HOST:PORT`` or ``rfc2217://HOST:PORT``;
    anything else pyserial would open (``loop://``, where the box hears itself,
    ``spy://``...) or a seat that is not a number is refused in one line.
    """
    url, sep, seat = spec.rpartition("=")
    if not sep:
        url = spec
    elif not seat.isdigit() or not 1 <= int(seat) <= 255:
        raise HandsetError(f"handset {spec}: the seat after '=' must be a number from 1 to 255")
    scheme, colon_slashes, address = url.partition("://")
    host, _colon, port = address.rpartition(":")
    network = scheme in NETWORK and bool(host) and port.isdigit() and 0 < int(port) < 65536
    if not (url.startswith("/") and not colon_slashes) and not network:
        raise HandsetError(
            f"handset {spec}: a port is a device path (/dev/ttyACM0) "
            "or socket://HOST:PORT, then =SEAT if you like"
        )
    return url, int(seat) - 1 if sep else None


def parse_ports(specs: Iterable[str]) -> list[tuple[str, int | None]]:
    """Every ``--handset`` given, parsed; two ports for one seat are refused."""
    parsed = [parse_port(spec) for spec in specs]
    fixed = [seat for _url, seat in parsed if seat is not None]
    for seat in fixed:
        if fixed.count(seat) > 1:
            raise HandsetError(f"two handset ports for seat {seat + 1}: give each its own seat")
    return parsed


class HandsetLink:
    """One handset on one serial port, bound to one seat."""

    def __init__(
        self,
        url: str,
        clock: Callable[[], float],
        seat: int | None = None,
        session: int = 1,
        claim: Callable[[HandsetLink, int], str | None] = lambda link, seat: None,
        opener: Callable[..., Any] = serial.serial_for_url,
    ) -> None:
        self.url = url
        self.clock = clock
        self.opener = opener
        self.session = session
        self.claim = claim  # why ``seat`` cannot be this link's, or None
        self.port: Any = None
        self.seat = seat
        self.splitter = protocol.Splitter()
        self.seq = 0
        self.open_ballot: int | None = None
        self.counted: int | None = None  # the seq of the vote counted since the ballot opened
        self.seen: set[int] = set()  # seqs of every vote counted with this ballot number...
        self.seen_ballot: int | None = None  # ...which is this one (a new number starts afresh)
        # (seq, frame) sent in order, each once the one before is acknowledged: a re-ask
        # (DONE then ASK of one ballot) reaches the pad whole, or the pad stays dark
        self.outbox: list[tuple[int, bytes]] = []
        self.sent_at = 0.0
        self.tried_at = float("-inf")
        self.heard_at = float("-inf")
        self.asked_at = float("-inf")
        self.stalled_until = float("-inf")
        self.garbled = 0
        self.timeouts = 0  # writes the line could not take whole
        self.cut = False  # the last frame went out in part: a zero byte must end it first
        self.streak = 0  # of them, in a row
        self.stalled = False  # said once until a write goes through again
        self.refused: str | None = None  # the last refusal, said once
        self.news: list[str] = []  # refusals not yet shown at the table
        self._open()

    @property
    def connected(self) -> bool:
        return self.port is not None

    def alive(self) -> bool:
        """Bound to a seat and heard from within ``SILENT`` seconds."""
        return self.seat is not None and self.clock() - self.heard_at < SILENT

    def _open(self) -> None:
        self.tried_at = self.clock()
        try:
            self.port = self.opener(self.url, baudrate=115200, timeout=0, write_timeout=0)
        except (serial.SerialException, OSError) as exc:
            self.port = None
            log.debug("handset %s not there: %s", self.url, exc)
            return
        self._who()

    def _who(self) -> None:
        self.asked_at = self.clock()
        who = protocol.session_bytes(self.session)
        self._write(protocol.encode(protocol.WHO, 0, protocol.ANY_SEAT, who))

    def _lost(self, exc: Exception) -> None:
        log.warning("handset %s unplugged (%s)", self.url, exc)
        with contextlib.suppress(serial.SerialException, OSError):
            self.port.close()
        self.port = None
        self.splitter = protocol.Splitter()
        self.cut = False  # a port opened again starts clean

    def _write(self, frame: bytes) -> None:
        now = self.clock()
        if self.port is None or now < self.stalled_until:
            return
        data = b"\x00" + frame if self.cut else frame
        try:  # straight to the non-blocking descriptor: pyserial's write spins on a full line
            written = os.write(self.port.fileno(), data)
        except BlockingIOError:
            written = 0
        except (serial.SerialException, OSError) as exc:
            self._lost(exc)
            return
        if written == len(data):
            self.cut = self.stalled = False
            self.streak = 0
            return
        self.cut = self.cut or written > 0  # the pad's splitter drops the part at the zero
        self.timeouts += 1
        self.streak += 1
        if self.streak >= 2:  # a full line twice running: a pad that stopped reading
            self.stalled_until = now + STALL
            if not self.stalled:
                log.warning("handset %s is not reading: writes to it are dropped", self.url)
            self.stalled = True

    @property
    def unacked(self) -> tuple[int, bytes] | None:
        """The frame sent and not acknowledged yet, if any."""
        return self.outbox[0] if self.outbox else None

    def _send(self, kind: int, body: bytes) -> None:
        if self.seat is None:
            return
        self.seq = (self.seq + 1) & 0xFF
        self.outbox.append((self.seq, protocol.encode(kind, self.seq, self.seat, body)))
        if len(self.outbox) > OUTBOX:  # a pad that never answers: its oldest news goes
            del self.outbox[1]
        if len(self.outbox) == 1:
            self._next()

    def _next(self) -> None:
        """Send the first frame waiting."""
        if self.outbox:
            self.sent_at = self.clock()
            self._write(self.outbox[0][1])

    def _refuse(self, why: str) -> None:
        if why != self.refused:
            self.refused = why
            self.news.append(why)
            log.warning("%s", why)

    def ask(self, ballot: int) -> None:
        """Open ``ballot`` on the pad (again after ``done``: the seat votes again). The seqs
        counted are remembered for one ballot number only: a pad's frame numbers start again
        when it restarts and go round every 256 frames, so a later ballot's vote may reuse one."""
        if ballot != self.seen_ballot:
            self.seen, self.seen_ballot = set(), ballot
        if ballot != self.open_ballot:
            self.counted = None
        self.open_ballot = ballot
        self._send(protocol.ASK, bytes([ballot & 0xFF]))

    def done(self, ballot: int) -> None:
        self.open_ballot = None
        self.counted = None
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
        if self.outbox and now - self.sent_at >= RESEND:
            self._next()
        if now - max(self.heard_at, self.asked_at) >= PING:
            self._who()
        return votes

    def _frame(self, frame: bytes | None) -> Vote | None:
        """One frame from the pad: a vote to count, or None (anything else is handled)."""
        try:
            if frame is None:
                raise protocol.FrameError("overlong")
            kind, seq, seat, body = protocol.decode(frame)
        except protocol.FrameError:
            self.garbled += 1
            return None
        if not self._bound(kind, seat, body):
            return None
        self.heard_at = self.clock()
        if kind == protocol.ACK:
            if self.outbox and body[0] == self.outbox[0][0]:
                del self.outbox[0]
                self._next()
            return None
        if kind == protocol.HELLO:
            self._hello(protocol.session_of(body[1:]))
            return None
        if kind != protocol.VOTE:
            return None  # frames only the box sends
        return self._vote(seq, seat, body)

    def _vote(self, seq: int, seat: int, body: bytes) -> Vote | None:
        """Count a vote of this session's open ballot once, and acknowledge only that (and
        its resends): a vote not counted is never acknowledged, so the pad sends it again."""
        ballot, button, session = body[0], body[1], protocol.session_of(body[2:])
        if session != self.session or ballot != self.open_ballot or button > 1:
            return None  # another box's (replayed, or from before a restart), or a closed ballot
        if seq == self.counted:
            self._ack(seat, seq)  # a resend: the pad did not hear the first ACK
            return None
        if self.counted is not None or seq in self.seen:
            return None  # the seat has voted, or a replay of a vote counted before a re-ask
        self.counted = seq
        self.seen.add(seq)
        self._ack(seat, seq)
        return Vote(seat, ballot, button)

    def _ack(self, seat: int, seq: int) -> None:
        self._write(protocol.encode(protocol.ACK, 0, seat, bytes([seq])))

    def _bound(self, kind: int, seat: int, body: bytes) -> bool:
        """Whether a frame from ``seat`` is this link's: a first HELLO binds the port (unless
        another pad holds that seat); another seat's frame, or a HELLO of another protocol
        version, is refused, and said."""
        if kind == protocol.HELLO and body[0] != protocol.VERSION:
            self._refuse(
                f"handset on {self.url} speaks protocol {body[0]}, the box {protocol.VERSION}: "
                "copy the firmware to it again (hardware/handsets.md)"
            )
            return False
        if kind == protocol.HELLO and self.seat is None:
            why = self.claim(self, seat)
            if why is not None:
                self._refuse(why)
                return False
            self.seat = seat
            self.refused = None
            log.info("handset for seat %d on %s", seat + 1, self.url)
        if self.seat is None:
            return False  # not bound yet: only a HELLO counts
        if seat != self.seat:
            self._refuse(
                f"handset on {self.url} speaks as seat {seat + 1}, "
                f"but that port is seat {self.seat + 1}'s: refused"
            )
            return False
        return True

    def _hello(self, session: int) -> None:
        """A pad that names another session is asked WHO; one that names this box's, in a
        ballot it has not voted in, is asked again (plugged back in, or restarted)."""
        if session != self.session:
            self._who()
        elif self.open_ballot is not None and self.counted is None:
            self.ask(self.open_ballot)

    def close(self) -> None:
        if self.port is not None:
            self.port.close()
            self.port = None


class Handsets:
    """All the handsets of a box, by seat: the box's vote room (companion.table.handsets)."""

    def __init__(
        self, ports: Iterable[str], clock: Callable[[], float], session: int | None = None
    ) -> None:
        # A new session at every start tells the pads to drop the last box's ballot.
        self.session = session or random.SystemRandom().randrange(1, 1 << 32)
        specs = parse_ports(ports)
        self.links = [
            HandsetLink(url, clock, seat, self.session, self._claim) for url, seat in specs
        ]

    def _claim(self, link: HandsetLink, seat: int) -> str | None:
        holder = self._link(seat)
        if holder is None or holder is link:
            return None
        return (
            f"two handsets for seat {seat + 1}: {holder.url} has it, "
            f"the one on {link.url} is refused"
        )

    def seats(self) -> set[int]:
        """Seats whose handset is bound and was heard within ``SILENT`` seconds."""
        return {link.seat for link in self.links if link.seat is not None and link.alive()}

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

    def news(self) -> list[str]:
        """Refusals not yet shown (impersonation, a second pad for a seat), each once."""
        said = [line for link in self.links for line in link.news]
        for link in self.links:
            link.news.clear()
        return said

    def close(self) -> None:
        for link in self.links:
            link.close()
