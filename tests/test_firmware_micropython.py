"""The handset firmware on the interpreter it runs on: MicroPython's Unix port.

The pad's logic and the shared protocol are checked under ``micropython``
(tests/micropython/check_pad.py), then the firmware's own ``main()`` runs
under it, with a stand-in ``machine`` module, on one end of a pty whose
other end is the box's ``Handsets`` (pyserial). The box runs on the virtual
clock; the pad keeps MicroPython's own milliseconds, so the test waits for
what it expects (up to ``PATIENCE`` seconds) and never asserts a duration.

Under CI=true a missing ``micropython`` fails these tests: the set-up
installs it (the test extras); elsewhere they are skipped.
"""

import contextlib
import os
import pty
import select
import shutil
import subprocess
import sys
import tty
from pathlib import Path

import pytest

from companion.box import VirtualClock
from companion.box import protocol as p
from companion.box.handsets import Handsets

ROOT = Path(__file__).resolve().parents[1]
PATH = os.pathsep.join(str(ROOT / d) for d in ("firmware", "companion/box", "tests/micropython"))
PATIENCE = 20.0  # wall seconds to wait for the pad before calling it broken


@pytest.fixture(scope="module")
def micropython():
    found = shutil.which("micropython", path=str(Path(sys.executable).parent))
    found = found or shutil.which("micropython")
    if found is None:
        message = "micropython is not installed (pip install -e '.[test]')"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


def test_the_pad_logic_and_the_protocol_pass_under_micropython(micropython):
    out = subprocess.run(
        [micropython, str(ROOT / "tests/micropython/check_pad.py")],
        env={**os.environ, "MICROPYPATH": PATH},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "micropython"  # not CPython by mistake
    assert lines[-1].endswith(" passed, 0 failed") and int(lines[-1].split()[0]) > 30


class Pad:
    """firmware/handset.py's main() under micropython, its stdin and stdout a pty's master."""

    def __init__(self, micropython, workdir, seat):
        self.dir = workdir
        (workdir / "config.py").write_text(f"SEAT = {seat}\n")
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        tty.setraw(self.master)
        self.path = os.ttyname(slave)
        self.slave = slave
        self.proc = subprocess.Popen(
            [micropython, "-c", "import handset; handset.main()"],
            cwd=workdir,
            env={**os.environ, "MICROPYPATH": f"{workdir}{os.pathsep}{PATH}"},
            stdin=self.master,
            stdout=self.master,
            stderr=subprocess.PIPE,
        )

    def press(self, pin):
        (self.dir / "pins").write_text(f"{pin}=0\n")

    def release(self):
        (self.dir / "pins").write_text("")

    def led(self):
        path = self.dir / "led"
        return path.read_text() if path.exists() else ""

    def close(self):
        self.proc.kill()
        _, err = self.proc.communicate()
        os.close(self.master)
        os.close(self.slave)
        return err.decode()


@pytest.fixture
def pad(micropython, tmp_path):
    pad = Pad(micropython, tmp_path, seat=3)
    yield pad
    err = pad.close()
    assert "Traceback" not in err, err


class Box:
    """The box's side: Handsets on the virtual clock, stepped while the pad runs."""

    def __init__(self, path, session):
        self.clock = VirtualClock()
        self.handsets = Handsets([path], self.clock.now, session=session)
        self.link = self.handsets.links[0]
        self.votes = []

    def until(self, done, what):
        """Step the box every 10 virtual ms (a few real ms apart) until ``done()``."""
        for _ in range(int(PATIENCE / 0.005)):
            self.clock.advance(0.01)
            self.votes += self.handsets.poll()
            if done():
                return
            select.select([], [], [], 0.005)  # let the pad's process run
        raise AssertionError(f"the pad never did this: {what}")

    def run(self, seconds):
        """Step for ``seconds`` of virtual time (so the pad has time to misbehave)."""
        end = self.clock.now() + seconds
        self.until(lambda: self.clock.now() >= end, "nothing")


def vote_once(box, pad, ballot, pin):
    box.handsets.ask([2], ballot)
    box.until(lambda: pad.led().endswith("1"), "light up for the ballot")
    pad.press(pin)
    box.until(lambda: box.votes, "send a vote")
    pad.release()
    box.until(lambda: box.link.unacked is None, "acknowledge the ask")
    box.run(1.0)  # resends, if any, are not counted again
    votes = [(v.seat, v.ballot, v.button) for v in box.votes]
    box.votes.clear()
    return votes


def test_the_pad_answers_the_box_and_votes_once_over_a_pty(pad):
    box = Box(pad.path, session=5)
    try:
        box.until(lambda: box.handsets.seats() == {2}, "say HELLO as seat 3")
        box.link.port.write(bytes(range(1, 120)) + b"\x00\x05\x01\x02\x00")  # garbage in
        assert vote_once(box, pad, 7, 15) == [(2, 7, 1)]  # B is pin 15
        box.handsets.done([2], 7)
        box.until(lambda: pad.led().endswith("0") and box.link.unacked is None, "lights off")
    finally:
        box.handsets.close()


def test_the_pad_resends_a_vote_whose_ack_was_lost(pad):
    box = Box(pad.path, session=5)
    try:
        box.until(lambda: box.handsets.seats() == {2}, "say HELLO")
        link = box.link
        write, take = link._write, link._frame
        vote_frames, lost = [], []

        def frame(raw):  # the box reads a frame: note each VOTE
            with contextlib.suppress(p.FrameError, TypeError):
                kind, seq, _seat, _body = p.decode(raw)
                if kind == p.VOTE:
                    vote_frames.append(seq)
            return take(raw)

        def lose_first_vote_ack(data):  # the box answers: its first ACK of a VOTE is lost
            kind, _seq, _seat, body = p.decode(data[:-1])
            if kind == p.ACK and vote_frames and body[0] == vote_frames[0] and not lost:
                lost.append(data)
                return
            write(data)

        link._frame, link._write = frame, lose_first_vote_ack
        assert vote_once(box, pad, 4, 14) == [(2, 4, 0)]  # A is pin 14
        assert lost and len(vote_frames) >= 2  # the pad sent its vote again...
        assert len(set(vote_frames)) == 1  # ...the same frame, counted once
    finally:
        box.handsets.close()


def test_a_restarted_box_finds_the_running_pad_and_its_new_ballots(pad):
    box = Box(pad.path, session=5)
    box.until(lambda: box.handsets.seats() == {2}, "say HELLO")
    box.handsets.ask([2], 1)
    box.until(lambda: pad.led().endswith("1"), "light up")
    box.handsets.close()  # the box dies mid-ballot; the pad is not touched
    box = Box(pad.path, session=6)
    try:
        box.until(lambda: box.handsets.seats() == {2}, "answer the new box's WHO")
        assert pad.led().endswith("0")  # the dead box's ballot went dark
        assert vote_once(box, pad, 1, 15) == [(2, 1, 1)]  # its ballot 1 is a new one
    finally:
        box.handsets.close()
